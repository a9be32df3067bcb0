/**
 * End-to-end: the playground's timeline (demo/src/timeline.ts) and the rollback scene, in headless Chromium
 * on the built demo/dist/demo.js.
 *  - Timeline: let the stacking scene run, pause, drag the timeline slider back with the mouse; the restored
 *    state's hash must equal the hash recorded when the simulation passed that step the first time. Resume:
 *    every replayed step must reproduce its recorded hash (the page counts them, and any difference).
 *  - Rollback: two peers with 8 frames of input latency roll back and re-simulate; after 3 s every confirmed
 *    frame hashed the same on both peers, and both did roll back.
 * Screenshots: test-output/timeline.png (dragged back, paused), test-output/rollback.png.
 */
import fs from "node:fs";
import { fileURLToPath } from "node:url";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startServer } from "../../demo/serve.mjs";
import type { ContinuumHook } from "../../demo/src/hook";
import { launchBrowser } from "./browser.mjs";

const BUNDLE = fileURLToPath(new URL("../../demo/dist/demo.js", import.meta.url));
const OUT_DIR = fileURLToPath(new URL("../../test-output/", import.meta.url));
const NOISE = [/GL Driver Message/];

type HookWindow = Window & { __continuum?: ContinuumHook };
let server: Awaited<ReturnType<typeof startServer>> | undefined;
let browser: Browser | undefined;
let page: Page;
const problems: string[] = [];

beforeAll(async () => {
  if (!fs.existsSync(BUNDLE)) throw new Error(`${BUNDLE} is missing: run \`npm run build\`.`);
  fs.mkdirSync(OUT_DIR, { recursive: true });
  server = await startServer(0);
  browser = await launchBrowser();
  page = await browser.newPage({ viewport: { width: 1000, height: 600 } });
  page.on("console", (m) => {
    if ((m.type() === "error" || m.type() === "warning") && !NOISE.some((re) => re.test(m.text()))) problems.push(`console.${m.type()}: ${m.text()}`);
  });
  page.on("pageerror", (e) => problems.push(`page error: ${e.message}`));
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

function timeline() {
  return page.evaluate(() => {
    const t = (window as HookWindow).__continuum!.timeline();
    return { step: t.step, hash: t.hash, recordedTo: t.recordedTo, replayed: t.replayed, replayDiffers: t.replayDiffers, keyframes: t.keyframes };
  });
}

describe("playground timeline and rollback scene", () => {
  it("drag back through the timeline restores the recorded state; resuming replays it hash for hash", { timeout: 180_000 }, async () => {
    await page.goto(`${server!.url}?scene=stacking`, { waitUntil: "load" });
    await page.waitForFunction(() => (window as HookWindow).__continuum?.ready === true, null, { timeout: 60_000, polling: 100 });
    // Let it run at least 2 s of simulation (120 steps), then pause.
    await page.waitForFunction(() => (window as HookWindow).__continuum!.timeline().step >= 120, null, { timeout: 120_000, polling: 100 });
    await page.evaluate(() => (window as HookWindow).__continuum!.pause(true));
    const before = await timeline();
    expect(before.keyframes).toBeGreaterThan(10);

    // Drag the slider's thumb from its right end to about a third of the way.
    const box = (await page.locator("#timeline-slider").boundingBox())!;
    const y = box.y + box.height / 2;
    await page.mouse.move(box.x + box.width - 4, y);
    await page.mouse.down();
    await page.mouse.move(box.x + box.width * 0.6, y, { steps: 5 });
    await page.mouse.move(box.x + box.width * 0.33, y, { steps: 5 });
    await page.mouse.up();
    const back = await timeline();
    expect(back.step).toBeLessThan(before.step - 30);
    expect(back.step).toBeGreaterThan(0);
    // The restored state is the one the simulation had at that step: same hash as recorded then.
    const recorded = await page.evaluate((s) => (window as HookWindow).__continuum!.timeline().recordedHash(s), back.step);
    expect(back.hash).toBe(recorded);
    expect(await page.textContent("#timeline-readout")).toContain(`step ${back.step} · hash 0x${(back.hash >>> 0).toString(16).padStart(8, "0")}`);
    await page.screenshot({ path: `${OUT_DIR}timeline.png` });

    // Resume: the steps up to the old end are replayed and must hash as recorded.
    await page.evaluate(() => (window as HookWindow).__continuum!.pause(false));
    await page.waitForFunction((end) => (window as HookWindow).__continuum!.timeline().step >= end + 5, before.step, { timeout: 120_000, polling: 100 });
    const after = await timeline();
    expect(after.replayDiffers).toBe(-1);
    expect(after.replayed).toBe(before.step - back.step);
    expect(await page.textContent("#timeline-readout")).toMatch(/all hashes equal/);
    expect(problems).toEqual([]);
  });

  it("rollback scene: both peers roll back, and every confirmed frame has the same hash on both", { timeout: 180_000 }, async () => {
    await page.evaluate(() => (window as HookWindow).__continuum!.load("rollback"));
    await page.waitForFunction(() => (window as HookWindow).__continuum!.sceneId === "rollback" && (window as HookWindow).__continuum!.simTime >= 3, null, {
      timeout: 150_000,
      polling: 200,
    });
    const p = (await page.evaluate(() => (window as HookWindow).__continuum!.probe())) as {
      compared: number;
      mismatches: number;
      rollbacks: number[];
      resimulated: number[];
      hashA: number;
      hashB: number;
      latency: number;
    };
    expect(p.latency).toBe(8);
    expect(p.compared).toBeGreaterThan(150);
    expect(p.mismatches).toBe(0);
    expect(p.hashA).toBe(p.hashB);
    // The bots change direction every 35 frames: over 3 s each peer mispredicts and rolls back several times.
    expect(Math.min(...p.rollbacks)).toBeGreaterThan(2);
    expect(Math.min(...p.resimulated)).toBeGreaterThan(10);
    expect(await page.textContent("#status")).toContain("in sync ✓");
    await page.screenshot({ path: `${OUT_DIR}rollback.png` });
    expect(problems).toEqual([]);
  });
});
