// A tiny static file server for the demo (node:http only, no dependencies).
//
//   node demo/serve.mjs            -> http://127.0.0.1:$PORT/ (PORT env, default 8080; a free port if busy)
//   import { startServer } from "./demo/serve.mjs"; const { url, close } = await startServer(0);
//
// URL layout:
//   /            demo/index.html
//   /<path>      demo/<path>                  (index.html, dist/demo.js, ...)
//   /dist/<path> demo/dist/<path>, or else the library build in <root>/dist/<path>
//   /lib/<path>  <root>/dist/<path>           (continuum.mjs, continuum.umd.js, always the library)
//   /havok/<f>   node_modules/@babylonjs/havok/lib/esm/<f> (HavokPhysics.wasm, for side-by-side demos)
//   /vendor/<pkg>/<f>  node_modules/<pkg>/<f> for the UMD Babylon packages only (babylonjs, babylonjs-inspector
//                and the packages the inspector bundle reads: -addons, -materials, -loaders), for umd.html
import http from "node:http";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const demoDir = path.dirname(fileURLToPath(import.meta.url));
const rootDir = path.dirname(demoDir);
const HOST = "127.0.0.1";

export const MIME = {
  ".html": "text/html; charset=utf-8",
  ".htm": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".mjs": "text/javascript; charset=utf-8",
  ".cjs": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".json": "application/json; charset=utf-8",
  ".map": "application/json; charset=utf-8",
  ".wasm": "application/wasm",
  ".png": "image/png",
  ".jpg": "image/jpeg",
  ".jpeg": "image/jpeg",
  ".gif": "image/gif",
  ".svg": "image/svg+xml",
  ".ico": "image/x-icon",
  ".txt": "text/plain; charset=utf-8",
  ".ts": "text/plain; charset=utf-8",
  ".env": "image/vnd.ms-dds",
  ".dds": "image/vnd.ms-dds",
  ".glb": "model/gltf-binary",
  ".gltf": "model/gltf+json",
};

/** node_modules packages served under /vendor/ (script-tag Babylon and its inspector). */
const VENDOR = new Set(["babylonjs", "babylonjs-addons", "babylonjs-materials", "babylonjs-loaders", "babylonjs-inspector", "babylonjs-gui"]);

/** `rel` (already decoded, "/"-separated) inside `base`, or null if it escapes `base`. */
function inside(base, rel) {
  const p = path.resolve(base, "." + path.posix.normalize("/" + rel));
  return p === base || p.startsWith(base + path.sep) ? p : null;
}

function fileAt(p) {
  if (!p) return null;
  try {
    let st = fs.statSync(p);
    if (st.isDirectory()) {
      p = path.join(p, "index.html");
      st = fs.statSync(p);
    }
    return st.isFile() ? { file: p, size: st.size } : null;
  } catch {
    return null;
  }
}

/** Maps a URL path to a file on disk, or null. */
export function resolveFile(urlPath) {
  const rel = urlPath.replace(/^\/+/, "");
  const candidates = [];
  if (rel.startsWith("lib/")) candidates.push(inside(path.join(rootDir, "dist"), rel.slice(4)));
  else if (rel.startsWith("vendor/")) {
    const [pkg, ...rest] = rel.slice(7).split("/");
    if (VENDOR.has(pkg)) candidates.push(inside(path.join(rootDir, "node_modules", pkg), rest.join("/")));
  } else if (rel.startsWith("havok/"))
    candidates.push(inside(path.join(rootDir, "node_modules", "@babylonjs", "havok", "lib", "esm"), rel.slice(6)));
  else {
    candidates.push(inside(demoDir, rel === "" ? "index.html" : rel));
    if (rel.startsWith("dist/")) candidates.push(inside(path.join(rootDir, "dist"), rel.slice(5)));
  }
  for (const c of candidates) {
    const f = fileAt(c);
    if (f) return f;
  }
  return null;
}

/** The two headers that make a page cross-origin isolated (SharedArrayBuffer, so `threads` > 1 can run). */
export const ISOLATION_HEADERS = { "Cross-Origin-Opener-Policy": "same-origin", "Cross-Origin-Embedder-Policy": "require-corp" };

function handler(req, res) {
  if (req.method !== "GET" && req.method !== "HEAD") {
    res.writeHead(405, { Allow: "GET, HEAD", "Content-Type": "text/plain" });
    res.end("Method Not Allowed\n");
    return;
  }
  let urlPath;
  try {
    urlPath = decodeURIComponent(new URL(req.url ?? "/", "http://localhost").pathname);
  } catch {
    res.writeHead(400, { "Content-Type": "text/plain" });
    res.end("Bad Request\n");
    return;
  }
  const found = urlPath.includes("\0") ? null : resolveFile(urlPath);
  if (!found) {
    res.writeHead(404, { "Content-Type": "text/plain; charset=utf-8" });
    res.end(`Not found: ${urlPath}\n`);
    return;
  }
  const type = MIME[path.extname(found.file).toLowerCase()] ?? "application/octet-stream";
  // Cross-origin isolation: the page gets SharedArrayBuffer, which the engine's worker threads need (README "Threads").
  res.writeHead(200, { "Content-Type": type, "Content-Length": found.size, "Cache-Control": "no-store", ...ISOLATION_HEADERS });
  if (req.method === "HEAD") {
    res.end();
    return;
  }
  const stream = fs.createReadStream(found.file);
  stream.on("error", () => res.destroy());
  stream.pipe(res);
}

function listen(server, port) {
  return new Promise((resolve, reject) => {
    const onError = (err) => {
      server.off("listening", onListening);
      reject(err);
    };
    const onListening = () => {
      server.off("error", onError);
      resolve(server.address().port);
    };
    server.once("error", onError);
    server.once("listening", onListening);
    server.listen(port, HOST);
  });
}

/**
 * Starts the server on 127.0.0.1. `port` defaults to $PORT or 8080; 0 picks a free port; if the port is
 * busy a free one is used instead. Resolves to { url, port, server, close }, where close() resolves once
 * the server has stopped.
 */
export async function startServer(port = Number(process.env.PORT || 8080)) {
  if (!Number.isInteger(port) || port < 0 || port > 65535) port = 8080;
  const server = http.createServer(handler);
  let actual;
  try {
    actual = await listen(server, port);
  } catch (err) {
    if (err?.code !== "EADDRINUSE" && err?.code !== "EACCES") throw err;
    actual = await listen(server, 0);
  }
  const url = `http://${HOST}:${actual}/`;
  const close = () =>
    new Promise((resolve, reject) => {
      server.close((err) => (err ? reject(err) : resolve()));
      server.closeAllConnections?.();
    });
  return { url, port: actual, server, close };
}

const isMain = process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href;
if (isMain) {
  const { url, close } = await startServer();
  console.log(`Continuum demo: ${url}`);
  if (!fs.existsSync(path.join(demoDir, "dist", "demo.js"))) {
    console.log("(demo/dist/demo.js is missing: run `npm run build` first)");
  }
  const stop = () => close().then(() => process.exit(0));
  process.on("SIGINT", stop);
  process.on("SIGTERM", stop);
}
