/**
 * End-to-end: the playground's thread selector in headless Chromium (issue 27). demo/serve.mjs sends the two
 * cross-origin isolation headers, so the page has SharedArrayBuffer; `?threads=2` runs Continuum on 2 threads and
 * the engine row says "2 in use"; the selector switches back to 1. In the page, fresh worlds on 1, 2, 3 and 4
 * threads (the default worker URL beside the bundle) step the running scene's shapes and hash alike after every
 * step: the same determinism as in Node, in Chromium. Screenshot: test-output/threads-selector.png. The UMD page
 * (umd.html) runs on 2 threads too, its pool and worker loaded from beside dist/continuum.umd.js.
 */
import fs from "node:fs";
import { fileURLToPath } from "node:url";
import type { Browser, Page } from "playwright-core";
import { launchBrowser, watchPage } from "./browser.mjs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startServer } from "../../demo/serve.mjs";
import type { ContinuumHook } from "../../demo/src/hook";

const BUNDLE = fileURLToPath(new URL("../../demo/dist/demo.js", import.meta.url));
const OUT_DIR = fileURLToPath(new URL("../../test-output/", import.meta.url));
type HookWindow = Window & { __continuum?: ContinuumHook };

let server: Awaited<ReturnType<typeof startServer>> | undefined;
let browser: Browser | undefined;
let page: Page;
const problems: string[] = [];

beforeAll(async () => {
  if (!fs.existsSync(BUNDLE)) throw new Error(`${BUNDLE} is missing: run \`npm run build\` first (\`npm test\` does).`);
  fs.mkdirSync(OUT_DIR, { recursive: true });
  server = await startServer(0);
  browser = await launchBrowser();
  page = await browser.newPage({ viewport: { width: 960, height: 540 } });
  watchPage(page, problems);
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

/** Waits until the scene has simulated `seconds` and the plugin runs on `threads` threads. */
async function waitFor(seconds: number, threads: number): Promise<void> {
  await page.waitForFunction(
    ([t, n]) => {
      const h = (window as HookWindow).__continuum;
      return !!h && h.ready && h.simTime >= t && (h.plugin as unknown as { threads: number }).threads === n;
    },
    [seconds, threads] as const,
    { timeout: 60_000, polling: 50 },
  );
}

describe("playground thread selector", () => {
  it("?threads=2 runs on 2 threads (the page is cross-origin isolated), the row says so, the selector goes back to 1", { timeout: 120_000 }, async () => {
    await page.goto(`${server!.url}?scene=falling-shapes&threads=2`, { waitUntil: "load" });
    expect(await page.evaluate(() => crossOriginIsolated)).toBe(true);
    await waitFor(1, 2);
    await page.waitForFunction(() => document.querySelector("#threads-in-use")?.textContent === "2 in use", undefined, { timeout: 10_000 });
    expect(await page.locator("#threads").inputValue()).toBe("2");
    await page.screenshot({ path: `${OUT_DIR}threads-selector.png` });

    // In the page: the running scene's shapes in fresh worlds on 1, 2, 3 and 4 threads, hashed after every step.
    const result = await page.evaluate(async () => {
      const h = (window as HookWindow).__continuum!;
      type AnyWorld = {
        threads: number;
        bodies: { count: number; shape: (object | null)[]; motionType: Uint8Array };
        createBody(d: object): number;
        step(dt: number): void;
        stateHash(): number;
        stopThreads(): void;
      };
      const live = (h.plugin as unknown as { world: AnyWorld }).world;
      const WorldClass = live.constructor as new (s: object) => AnyWorld;
      const make = (threads: number) => {
        const w = new WorldClass({ threads });
        w.createBody({ motionType: 0, position: { x: 0, y: -0.5, z: 0 }, collidable: { shape: live.bodies.shape.find((s, i) => s !== null && live.bodies.motionType[i] === 0) } });
        let n = 0;
        for (let i = 0; i < live.bodies.count && n < 200; i++) {
          const shape = live.bodies.shape[i];
          if (shape === null || live.bodies.motionType[i] === 0) continue;
          w.createBody({ position: { x: (n % 8) * 1.3 - 5, y: 1 + Math.floor(n / 64) * 1.5, z: (Math.floor(n / 8) % 8) * 1.3 - 5 }, angularVelocity: { x: 0.1 * n, y: 0, z: 0 }, collidable: { shape } });
          n++;
        }
        return { w, n };
      };
      const one = make(1);
      const many = [2, 3, 4].map(make);
      const until = performance.now() + 20_000;
      while (many.some((m, k) => m.w.threads !== k + 2) && performance.now() < until) await new Promise((r) => setTimeout(r, 10));
      let firstDiff = -1;
      const hashes = new Set<number>();
      for (let s = 0; s < 200; s++) {
        one.w.step(1 / 60);
        const a = one.w.stateHash();
        hashes.add(a);
        for (const m of many) {
          m.w.step(1 / 60);
          if (a !== m.w.stateHash() && firstDiff < 0) firstDiff = s;
        }
      }
      const threads = many.map((m) => m.w.threads);
      const workerBlocks = many.map((m) => (m.w as unknown as { workerPool: { workerBlocks: number } }).workerPool.workerBlocks);
      for (const m of many) m.w.stopThreads();
      return { bodies: one.n, firstDiff, distinct: hashes.size, threads, workerBlocks };
    });
    // More than one block of 64 bodies, a moving scene, equal hashes at every step for 2, 3 and 4 threads, and
    // the workers of each took blocks.
    expect(result.bodies).toBeGreaterThan(64);
    expect(result.distinct).toBeGreaterThan(100);
    expect(result.firstDiff).toBe(-1);
    expect(result.threads).toEqual([2, 3, 4]);
    for (const b of result.workerBlocks) expect(b).toBeGreaterThan(0);

    await page.locator("#threads").selectOption("1");
    await waitFor(0.5, 1);
    await page.waitForFunction(() => document.querySelector("#threads-in-use")?.textContent === "1 in use", undefined, { timeout: 10_000 });
    expect(new URL(page.url()).searchParams.get("threads")).toBeNull();
    expect(problems).toEqual([]);
  });

  it("umd.html?threads=2: the UMD build loads the pool and the worker from beside continuum.umd.js", { timeout: 120_000 }, async () => {
    await page.goto(`${server!.url}umd.html?scene=falling-shapes&threads=2`, { waitUntil: "load" });
    // dist/continuum.umd.js imports ./continuum.pool.mjs, which starts ./continuum.worker.mjs (lib/ is dist/).
    await waitFor(1, 2);
    const blocks = await page.evaluate(() => {
      const world = ((window as HookWindow).__continuum!.plugin as unknown as { world: { workerPool: { workerBlocks: number } | null } }).world;
      return world.workerPool?.workerBlocks ?? -1;
    });
    expect(blocks).toBeGreaterThan(0);
    expect(problems).toEqual([]);
  });
});
