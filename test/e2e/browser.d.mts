import type { Browser } from "playwright-core";

/** System browsers tried in order when no environment variable names one. */
export declare const SYSTEM_BROWSERS: string[];
/** The flags every browser test launches Chromium with. */
export declare const BROWSER_ARGS: string[];
/** A Chromium inside an npm package, or null when none is installed. */
export declare function findBundledChromium(): Promise<string | null>;
/** The executable to launch and where it was found; throws when there is none. */
export declare function findChromium(): Promise<{ path: string; source: "env" | "system" | "npm" }>;
/** Launches headless Chromium with the shared flags. */
export declare function launchBrowser(): Promise<Browser>;
