/**
 * End-to-end: the same scene (test/scenes/timeTravelScene.mjs) stepped in Node and in headless Chromium gives
 * the same state hash at every one of 600 steps. Node runs @babylonjs/core with the plugin's source; the page
 * runs script-tag Babylon (babylon.js) with the library's UMD bundle (dist/continuum-full.umd.js). The step uses only
 * IEEE-exact arithmetic and the engine's own trigonometry (src/math/exactMath.ts), so two JavaScript engines
 * must agree to the bit: one differing bit anywhere in 600 steps of a pile, joints, CCD bullets and a
 * heightfield changes every later hash. In the page the run also takes a snapshot at step 300, goes on to 400,
 * restores and replays to 600 from bytes, so restore is checked in the browser too.
 */
import fs from "node:fs";
import { fileURLToPath } from "node:url";
import * as B from "@babylonjs/core";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startServer } from "../../demo/serve.mjs";
import * as C from "../../plugin/index";
import { buildTimeTravelScene } from "../scenes/timeTravelScene.mjs";
import { launchBrowser } from "./browser.mjs";

const STEPS = 600;
const SCENE_FILE = fileURLToPath(new URL("../scenes/timeTravelScene.mjs", import.meta.url));
const NEEDED = ["../../dist/continuum-full.umd.js", "../../node_modules/babylonjs/babylon.js"].map((p) => fileURLToPath(new URL(p, import.meta.url)));

let server: Awaited<ReturnType<typeof startServer>> | undefined;
let browser: Browser | undefined;

beforeAll(async () => {
  for (const f of NEEDED) if (!fs.existsSync(f)) throw new Error(`${f} is missing: run \`npm ci && npm run build\`.`);
  server = await startServer(0);
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

describe("determinism across JavaScript engines", () => {
  it(`Node and Chromium give the same hash at each of ${STEPS} steps (and the page's restore replays it)`, async () => {
    const t = buildTimeTravelScene(B, C, new B.NullEngine());
    const nodeHashes: number[] = [];
    for (let i = 0; i < STEPS; i++) nodeHashes.push(t.step());
    t.scene.dispose();

    const page = await browser!.newPage();
    const errors: string[] = [];
    page.on("pageerror", (e) => errors.push(e.message));
    await page.setContent(
      `<!doctype html><html><body><script src="${server!.url}vendor/babylonjs/babylon.js"></script><script src="${server!.url}lib/continuum-full.umd.js"></script></body></html>`,
      { waitUntil: "load" },
    );
    // The scene module as a classic script (its one `export` dropped), run on the page's globals.
    const source = fs.readFileSync(SCENE_FILE, "utf8").replace(/^export /m, "");
    const result = (await page.evaluate(
      `(() => {
        ${source}
        const t = buildTimeTravelScene(BABYLON, CONTINUUM, new BABYLON.NullEngine());
        const hashes = [];
        let bytes = null;
        while (t.stepIndex < ${STEPS}) {
          hashes[t.stepIndex] = t.step();
          if (t.stepIndex === 300) bytes = t.plugin.snapshot().toBytes();
          if (t.stepIndex === 400 && bytes) {
            t.plugin.restore(CONTINUUM.PhysicsSnapshot.fromBytes(bytes));
            t.stepIndex = 300;
            bytes = null;
          }
        }
        return { hashes, userAgent: navigator.userAgent };
      })()`,
    )) as { hashes: number[]; userAgent: string };
    await page.close();
    expect(errors).toEqual([]);
    expect(result.userAgent).toMatch(/Chrome/);
    expect(new Set(nodeHashes).size).toBeGreaterThan(STEPS - 10); // the scene moves at every step
    const firstDiff = result.hashes.findIndex((h, i) => h !== nodeHashes[i]);
    expect(firstDiff).toBe(-1);
    expect(result.hashes).toEqual(nodeHashes);
  }, 240_000);
});
