/**
 * End-to-end: the built demo page (demo/index.html + demo/dist/demo.js) in Debian's headless Chromium.
 *
 * Builds nothing: `npm test` runs `npm run build` before vitest. Starts the demo's static server in-process,
 * opens the page, lets it simulate 3 s and checks what the page reports through its test hook
 * (`window.__continuum`, demo/src/hook.ts) and its stats overlay; saves test-output/demo.png.
 * Needs a Chromium (test/e2e/browser.mjs finds one): the test
 * fails, not skips, without it.
 */
import fs from "node:fs";
import { fileURLToPath } from "node:url";
import type { Browser, Page } from "playwright-core";
import { launchBrowser, watchPage } from "./browser.mjs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startServer } from "../../demo/serve.mjs";
import type { BodyReport } from "../../demo/src/hook";

const BUNDLE = fileURLToPath(new URL("../../demo/dist/demo.js", import.meta.url));
const OUT_DIR = fileURLToPath(new URL("../../test-output/", import.meta.url));
const SCREENSHOT = `${OUT_DIR}demo.png`;

/** Simulated seconds to wait before checking the bodies. */
const SIM_SECONDS = 3;
/** Allowed sinking into the ground (m). */
const GROUND_TOLERANCE = 0.05;
/** A body counts as moved when it is this far (m) from where it was created (every body falls >= 2 m). */
const MIN_MOVE = 0.5;

/**
 * Console messages that Chromium itself prints about its software GL (SwiftShader) driver, not the page's
 * code: Babylon's engine start-up probes render-target formats with readPixels, which this driver reports.
 */

interface Hook {
  ready: boolean;
  steps: number;
  simTime: number;
  created: number;
  groundTop: number;
  paused: boolean;
  bodies(): BodyReport[];
}
type HookWindow = Window & { __continuum?: Hook };

let server: Awaited<ReturnType<typeof startServer>> | undefined;
let browser: Browser | undefined;
let page: Page;
/** Console errors and warnings, page errors, failed requests: everything that must stay empty. */
const problems: string[] = [];
const timings: Record<string, number> = {};

async function hookValue<T>(fn: (hook: Hook) => T): Promise<T> {
  return page.evaluate(`(${fn.toString()})(window.__continuum)`) as Promise<T>;
}

async function statNumber(key: string): Promise<number> {
  const text = (await page.textContent(`#stats [data-stat="${key}"]`))?.trim() ?? "";
  expect(text, `stats overlay field "${key}"`).toMatch(/^\d+(\.\d+)?$/);
  return Number(text);
}

beforeAll(async () => {
  if (!fs.existsSync(BUNDLE)) {
    throw new Error(`${BUNDLE} is missing: build the demo first with \`npm run build\` (\`npm test\` does it before vitest).`);
  }
  fs.mkdirSync(OUT_DIR, { recursive: true });
  server = await startServer(0);
  browser = await launchBrowser();
  page = await browser.newPage({ viewport: { width: 1280, height: 720 } });
  watchPage(page, problems);
  const t0 = Date.now();
  await page.goto(server.url, { waitUntil: "load" });
  timings.loadMs = Date.now() - t0;
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
  if (Object.keys(timings).length) console.log("demo e2e timings:", JSON.stringify(timings));
});

describe("demo page in headless Chromium", () => {
  it("becomes ready (scene built, rendered, stepping) without console errors", async () => {
    const t0 = Date.now();
    await page.waitForFunction(() => (window as HookWindow).__continuum?.ready === true, null, { timeout: 45_000, polling: 100 });
    timings.readyMs = timings.loadMs + Date.now() - t0;
    expect(problems).toEqual([]);
  });

  it(`simulates ${SIM_SECONDS} s: every body moved and rests above the ground`, { timeout: 150_000 }, async () => {
    const t0 = Date.now();
    await page.waitForFunction((s) => ((window as HookWindow).__continuum?.simTime ?? 0) >= s, SIM_SECONDS, {
      timeout: 120_000,
      polling: 200,
    });
    timings.simulateMs = Date.now() - t0;

    const { bodies, groundTop, created, steps } = await hookValue((h) => ({ bodies: h.bodies(), groundTop: h.groundTop, created: h.created, steps: h.steps }));
    timings.steps = steps;
    expect(bodies.length).toBeGreaterThanOrEqual(200);
    expect(created).toBeGreaterThan(bodies.length); // plus the static ground and walls

    const notMoved = bodies.filter((b) => !(b.moved > MIN_MOVE)).map((b) => `${b.name} moved ${b.moved.toFixed(3)} m`);
    expect(notMoved, "bodies that did not move").toEqual([]);

    const belowGround = bodies
      .filter((b) => !(Number.isFinite(b.y) && b.minY > groundTop - GROUND_TOLERANCE))
      .map((b) => `${b.name} at (${b.x.toFixed(2)}, ${b.y.toFixed(2)}, ${b.z.toFixed(2)}), bottom y ${b.minY.toFixed(3)}`);
    expect(belowGround, `bodies whose bottom is below the ground top (y ${groundTop}) - ${GROUND_TOLERANCE}`).toEqual([]);

    // Every shape type and material is in the scene.
    expect(new Set(bodies.map((b) => b.shape))).toEqual(new Set(["sphere", "box", "capsule", "cylinder"]));
    expect(new Set(bodies.map((b) => b.material)).size).toBeGreaterThanOrEqual(4);
  });

  it("shows numbers in the stats line: ms per step, bodies (all created), awake bodies, contacts", async () => {
    // The overlay refreshes 5 times a second.
    await page.waitForTimeout(400);
    const created = await hookValue((h) => h.created);
    const ms = await statNumber("ms");
    const bodies = await statNumber("bodies");
    const awake = await statNumber("awake");
    const contacts = await statNumber("contacts");
    const time = await statNumber("time");
    Object.assign(timings, { msPerStep: ms });
    expect(ms).toBeGreaterThan(0);
    expect(ms).toBeLessThan(1000);
    expect(bodies).toBe(created);
    expect(Number.isInteger(awake) && awake >= 0 && awake <= bodies).toBe(true);
    expect(Number.isInteger(contacts) && contacts > 0).toBe(true);
    expect(time).toBeGreaterThanOrEqual(SIM_SECONDS - 0.1);
  });

  it("saves a screenshot to test-output/demo.png", async () => {
    await page.screenshot({ path: SCREENSHOT });
    expect(fs.statSync(SCREENSHOT).size).toBeGreaterThan(20_000);
  });

  it("pause, step and reset buttons work", { timeout: 90_000 }, async () => {
    await page.click("#pause");
    expect(await hookValue((h) => h.paused)).toBe(true);
    const paused = await hookValue((h) => h.steps);
    await page.waitForTimeout(500);
    expect(await hookValue((h) => h.steps)).toBe(paused);
    await page.click("#step");
    await page.waitForFunction((n) => (window as HookWindow).__continuum!.steps === n + 1, paused, { timeout: 10_000 });
    await page.waitForTimeout(300);
    expect(await hookValue((h) => h.steps)).toBe(paused + 1);
    await page.click("#pause"); // play
    await page.waitForFunction((n) => (window as HookWindow).__continuum!.steps > n + 2, paused + 1, { timeout: 20_000 });
    await page.click("#reset");
    const handle = await page.waitForFunction(
      () => {
        const h = (window as HookWindow).__continuum!;
        if (!h.ready || h.simTime > 2) return false;
        return { simTime: h.simTime, maxMoved: Math.max(...h.bodies().map((b) => b.moved)) };
      },
      null,
      { timeout: 45_000, polling: 50 },
    );
    const after = (await handle.jsonValue()) as { simTime: number; maxMoved: number };
    // Started over: no body is further from its start than free fall takes it in the time simulated since.
    expect(after.maxMoved).toBeLessThan(0.5 * 9.81 * after.simTime ** 2 + 0.1);
  });

  it("logged no console errors or warnings, page errors or failed requests", () => {
    expect(problems).toEqual([]);
  });
});
