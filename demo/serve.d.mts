import type { Server } from "node:http";

/** Content types by lower-case file extension (".js", ".wasm", ...). */
export declare const MIME: Record<string, string>;

/** The two headers every response carries: the page is cross-origin isolated (SharedArrayBuffer for `threads`). */
export declare const ISOLATION_HEADERS: Record<string, string>;

/** Maps a decoded URL path ("/dist/demo.js") to a file on disk, or null if there is none. */
export declare function resolveFile(urlPath: string): { file: string; size: number } | null;

/**
 * Starts the demo's static file server on 127.0.0.1. `port` defaults to $PORT or 8080; 0 picks a free
 * port; a busy port falls back to a free one. `url` ends with "/".
 */
export declare function startServer(port?: number): Promise<{
  url: string;
  port: number;
  server: Server;
  close(): Promise<void>;
}>;
