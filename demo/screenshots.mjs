// Regenerates the README's scene screenshots: demo/screenshots/<name>.png.
//
//   npm run build && node demo/screenshots.mjs [name ...]
//
// Serves the built demo (demo/serve.mjs), opens each scene in headless Chromium (test/e2e/browser.mjs
// finds it), lets it simulate to a fixed simulated time, pauses and takes a 1200 x 675 screenshot.
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { launchBrowser } from "../test/e2e/browser.mjs";
import { startServer } from "./serve.mjs";

const demoDir = path.dirname(fileURLToPath(import.meta.url));
const outDir = path.join(demoDir, "screenshots");

/**
 * Shot name -> simulated seconds to wait for before the shot, and the page's query (default: scene=<name>).
 * split-ccd: the CCD gallery side by side on Continuum (left) and Havok (right).
 */
const SHOTS = {
  ccd: { seconds: 2.2 },
  constraints: { seconds: 3.2 },
  queries: { seconds: 2.5 },
  "split-ccd": { seconds: 2.2, query: "scene=ccd&split=1" },
};

const ids = process.argv.slice(2).length ? process.argv.slice(2) : Object.keys(SHOTS);
if (!fs.existsSync(path.join(demoDir, "dist", "demo.js"))) {
  console.error("demo/dist/demo.js is missing: run `npm run build` first.");
  process.exit(1);
}
fs.mkdirSync(outDir, { recursive: true });

const server = await startServer(0);
const browser = await launchBrowser();
try {
  const page = await browser.newPage({ viewport: { width: 1200, height: 675 }, deviceScaleFactor: 1 });
  const errors = [];
  page.on("pageerror", (e) => errors.push(e.message));
  page.on("console", (m) => m.type() === "error" && errors.push(m.text()));
  for (const id of ids) {
    const seconds = SHOTS[id]?.seconds ?? 2.5;
    const query = SHOTS[id]?.query ?? `scene=${encodeURIComponent(id)}`;
    await page.goto(`${server.url}?${query}`, { waitUntil: "load" });
    await page.waitForFunction(() => window.__continuum?.ready, null, { timeout: 60_000 });
    await page.waitForFunction((s) => window.__continuum.simTime >= s, seconds, { timeout: 120_000, polling: 16 });
    await page.evaluate(() => window.__continuum.pause(true));
    await page.waitForTimeout(400); // a couple of frames at rest, and the overlay's refresh
    const file = path.join(outDir, `${id}.png`);
    await page.screenshot({ path: file });
    console.log(`${path.relative(process.cwd(), file)} (${query} at t = ${seconds} s)`);
  }
  if (errors.length) throw new Error(`page errors:\n${errors.join("\n")}`);
} finally {
  await browser.close();
  await server.close();
}
