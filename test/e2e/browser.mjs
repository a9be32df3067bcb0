// The one place that finds and launches headless Chromium for every browser test and for
// demo/screenshots.mjs. The flags live here once.
//
// Where the browser comes from, in this order:
//   1. $CHROMIUM_PATH (or the older $CHROMIUM), if set: that executable;
//   2. a system Chromium or Chrome at a well-known path;
//   3. otherwise the headless Chromium shipped inside the npm dev dependency @sparticuz/chromium
//      (Linux x64), unpacked once into the temporary directory (see findBundledChromium).
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
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
 * (SwiftShader, which recent Chromium versions only fall back to for WebGL when
 * --enable-unsafe-swiftshader allows it), no sandbox (CI runs as root), and no background connections
 * (a closed network refuses them, many at a time). The same flags serve the system and the npm browser.
 */
export const BROWSER_ARGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--enable-unsafe-swiftshader",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

/** The npm package that ships a headless Chromium (a pinned dev dependency). */
const BUNDLED_PACKAGE = "@sparticuz/chromium";

/** The package's directory in the nearest node_modules above this file, or null when it is not installed. */
function bundledPackageDir() {
  for (let dir = path.dirname(fileURLToPath(import.meta.url)); ; dir = path.dirname(dir)) {
    const candidate = path.join(dir, "node_modules", ...BUNDLED_PACKAGE.split("/"));
    if (fs.existsSync(path.join(candidate, "package.json"))) return candidate;
    if (path.dirname(dir) === dir) return null;
  }
}

/**
 * Unpacks the package's Chromium in a child process whose TMPDIR is `dir` (the package always unpacks into
 * the temporary directory). AWS_EXECUTION_ENV makes it unpack its Amazon Linux libraries too (NSS, NSPR,
 * expat: the only libraries the binary needs beyond glibc), into `dir`/al2023/lib, so a machine without a
 * system browser needs none of them installed.
 */
function unpackBundled(packageDir, dir) {
  const script = "const c = (await import(process.argv[1])).default; await c.executablePath();";
  const entry = pathToFileURL(path.join(packageDir, "build", "esm", "index.js")).href;
  const run = spawnSync(process.execPath, ["--input-type=module", "-e", script, entry], {
    env: { ...process.env, TMPDIR: dir, AWS_EXECUTION_ENV: "AWS_Lambda_nodejs20.x" },
    encoding: "utf8",
  });
  if (run.status !== 0) throw new Error(`Unpacking ${BUNDLED_PACKAGE} failed: ${run.stderr || run.error}`);
}

/**
 * The Chromium inside the npm package {@link BUNDLED_PACKAGE}, or null when the package is not installed or
 * has no binary for this machine (it ships Linux x64 only). The first call unpacks it (about 200 MB, 3 s)
 * into `<tmp>/continuum-chromium-<version>/`; later calls and other processes reuse it. Parallel test files
 * may unpack at once: each unpacks into its own directory and renames it into place, which is atomic, so a
 * directory under the final name is always complete.
 * @returns `{ path, libraryPath }`: the executable and the directory for LD_LIBRARY_PATH.
 */
export async function findBundledChromium() {
  if (process.platform !== "linux" || process.arch !== "x64") return null;
  const packageDir = bundledPackageDir();
  if (!packageDir) return null;
  const { version } = JSON.parse(fs.readFileSync(path.join(packageDir, "package.json"), "utf8"));
  const dir = path.join(os.tmpdir(), `continuum-chromium-${version}`);
  const found = () => ({ path: path.join(dir, "chromium"), libraryPath: path.join(dir, "al2023", "lib") });
  if (fs.existsSync(dir)) return found();
  const staging = fs.mkdtempSync(`${dir}.partial-`);
  try {
    unpackBundled(packageDir, staging);
    try {
      fs.renameSync(staging, dir);
    } catch (e) {
      if (!fs.existsSync(dir)) throw e; // another process won the race: use its copy
    }
  } finally {
    fs.rmSync(staging, { recursive: true, force: true });
  }
  return found();
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
  if (bundled) return { ...bundled, source: "npm" };
  throw new Error(
    `No Chromium found: set CHROMIUM_PATH, install a system Chromium (${SYSTEM_BROWSERS.join(", ")}), or run \`npm ci\` for the bundled one.`,
  );
}

/** Launches headless Chromium with the shared flags. */
export async function launchBrowser() {
  const found = await findChromium();
  // The npm browser loads its own copies of NSS/NSPR/expat (see unpackBundled), not the system's.
  const env = found.libraryPath ? { ...process.env, LD_LIBRARY_PATH: found.libraryPath } : undefined;
  return chromium.launch({ executablePath: found.path, args: BROWSER_ARGS, env });
}

/** Console messages headless Chromium's software GL prints on its own (not the page's problems). */
export const BROWSER_NOISE = [/^\[\.WebGL-[0-9a-fx]+\]\s*GL Driver Message \(OpenGL, Performance, .*\): GPU stall due to ReadPixels/];

/**
 * Collects into `problems` what a browser test must not see on `page`: console errors and warnings (but those
 * matching `noise`, BROWSER_NOISE by default), uncaught page errors, failed requests and HTTP responses >= 400.
 */
export function watchPage(page, problems, noise = BROWSER_NOISE) {
  page.on("console", (msg) => {
    const type = msg.type();
    if (type !== "error" && type !== "warning") return;
    const text = msg.text();
    if (noise.some((re) => re.test(text))) return;
    const loc = msg.location();
    problems.push(`console.${type}: ${text}${loc.url ? ` (${loc.url}:${loc.lineNumber})` : ""}`);
  });
  page.on("pageerror", (err) => problems.push(`page error: ${err.stack ?? err.message}`));
  page.on("requestfailed", (req) => problems.push(`request failed: ${req.url()} ${req.failure()?.errorText ?? ""}`));
  page.on("response", (res) => {
    if (res.status() >= 400) problems.push(`HTTP ${res.status()}: ${res.url()}`);
  });
}
