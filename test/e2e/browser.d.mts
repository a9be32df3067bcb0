import type { Browser } from "playwright-core";

/** System browsers tried in order when no environment variable names one. */
export declare const SYSTEM_BROWSERS: string[];
/** The flags every browser test launches Chromium with. */
export declare const BROWSER_ARGS: string[];
/** The Chromium inside the npm package @sparticuz/chromium (unpacked on first use), or null when there is none. */
export declare function findBundledChromium(): Promise<{ path: string; libraryPath: string } | null>;
/** The executable to launch, where it was found and, for the npm browser, its library directory; throws when there is none. */
export declare function findChromium(): Promise<{ path: string; source: "env" | "system" | "npm"; libraryPath?: string }>;
/** Launches headless Chromium with the shared flags. */
export declare function launchBrowser(): Promise<Browser>;
/** Console messages headless Chromium's software GL prints on its own. */
export declare const BROWSER_NOISE: RegExp[];
/** Collects console errors and warnings (but `noise`), page errors, failed requests and HTTP >= 400 into `problems`. */
export declare function watchPage(page: import("playwright-core").Page, problems: string[], noise?: RegExp[]): void;
