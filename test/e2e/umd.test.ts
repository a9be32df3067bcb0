/**
 * End-to-end: the UMD side in headless Chromium.
 *  - demo/umd-snippet.html (demo/UMD.md's snippet): babylon.js and dist/continuum.umd.js from script tags and
 *    a plain script on the globals BABYLON and CONTINUUM; the boxes fall and land.
 *  - demo/umd.html: the playground on script-tag Babylon and continuum-full.umd.js (the core with the optional entries); opens Babylon's inspector
 *    (babylonjs-inspector), turns on its physics viewer (Debug pane > Helpers > Physics) and selects a body
 *    for the properties pane; the playground's own viewer draws bodies, inertia boxes and constraints.
 * No console errors anywhere. Screenshot: test-output/umd-inspector.png.
 */
import fs from "node:fs";
import { fileURLToPath } from "node:url";
import type { Browser, Page } from "playwright-core";
import { launchBrowser, watchPage } from "./browser.mjs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startServer } from "../../demo/serve.mjs";

const OUT_DIR = fileURLToPath(new URL("../../test-output/", import.meta.url));
const NEEDED = ["../../dist/continuum.umd.js", "../../dist/continuum-full.umd.js", "../../demo/dist/demo.umd.js", "../../node_modules/babylonjs/babylon.js", "../../node_modules/babylonjs-inspector/package.json"].map((p) =>
  fileURLToPath(new URL(p, import.meta.url)),
);
const NOISE = [
  /^\[\.WebGL-[0-9a-fx]+\]\s*GL Driver Message \(OpenGL, Performance, .*\): GPU stall due to ReadPixels/,
  // The inspector's own stylesheet (Fluent UI), a Chromium deprecation notice.
  /^The keyword 'slider-vertical' specified to an 'appearance' property is not standardized/,
];

let server: Awaited<ReturnType<typeof startServer>> | undefined;
let browser: Browser | undefined;
const problems: string[] = [];
const timings: Record<string, number> = {};

async function newPage(): Promise<Page> {
  const page = await browser!.newPage({ viewport: { width: 1100, height: 620 } });
  watchPage(page, problems, NOISE);
  return page;
}

beforeAll(async () => {
  for (const f of NEEDED) if (!fs.existsSync(f)) throw new Error(`${f} is missing: run \`npm ci && npm run build\`.`);
  fs.mkdirSync(OUT_DIR, { recursive: true });
  server = await startServer(0);
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
  console.log("umd e2e timings (ms):", JSON.stringify(timings));
});

describe("UMD bundle with script-tag Babylon", () => {
  it("the README snippet runs: boxes fall onto the ground", async () => {
    const page = await newPage();
    await page.goto(`${server!.url}umd-snippet.html`, { waitUntil: "load" });
    // The snippet's `const scene` is a global lexical binding (not a window property): evaluate it by name.
    const handle = await page.waitForFunction(
      `(() => {
        if (typeof scene === "undefined") return false;
        const boxes = scene.meshes.filter((m) => m.name.startsWith("box"));
        return boxes.length === 12 && boxes.every((b) => b.position.y < 2.5) ? boxes.map((b) => b.position.y) : false;
      })()`,
      null,
      { timeout: 45_000, polling: 200 },
    );
    const ys = (await handle.jsonValue()) as number[];
    expect(Math.min(...ys)).toBeGreaterThan(0.4); // resting on the ground (half size 0.5), not through it
    expect(await page.evaluate(() => [typeof (globalThis as Record<string, unknown>).BABYLON, typeof (globalThis as Record<string, unknown>).CONTINUUM])).toEqual(["object", "object"]);
    await page.close();
    expect(problems).toEqual([]);
  });

  it("umd.html runs the playground on the globals, opens the inspector and its physics viewer", { timeout: 120_000 }, async () => {
    const page = await newPage();
    const t0 = Date.now();
    await page.goto(`${server!.url}umd.html?scene=constraints`, { waitUntil: "load" });
    timings.umdLoadMs = Date.now() - t0;
    await page.waitForFunction(() => (window as unknown as { __continuum?: { ready: boolean } }).__continuum?.ready === true, null, { timeout: 45_000 });
    const globals = await page.evaluate(() => {
      const g = globalThis as unknown as Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
      const h = g.__continuum;
      return { scene: h.scene instanceof g.BABYLON.Scene, plugin: h.plugin instanceof g.CONTINUUM.ContinuumPlugin, id: h.sceneId };
    });
    expect(globals).toEqual({ scene: true, plugin: true, id: "constraints" });

    // The inspector (scripts load on demand).
    const t1 = Date.now();
    await page.click("#inspector");
    await page.waitForFunction(() => !!(globalThis as Record<string, unknown>).INSPECTOR, null, { timeout: 60_000 });
    await page.waitForSelector("button[role=radio]", { timeout: 30_000 });
    timings.inspectorMs = Date.now() - t1;

    // Debug pane: the side pane tab that holds the "Helpers" section.
    const tabs = await page.$$("button[role=radio]");
    let found = false;
    for (const tab of tabs) {
      await tab.click();
      if (await page.getByText("Helpers", { exact: true }).count()) {
        found = true;
        break;
      }
    }
    expect(found, "the inspector's Debug pane").toBe(true);
    // Helpers > Physics (the first "Physics" switch of the pane; Features > Physics is scene.physicsEnabled).
    const n = await page.$$eval("label", (labels) => {
      let k = 0;
      for (const l of labels) {
        if (l.textContent?.trim() !== "Physics") continue;
        const input = l.closest("span")?.parentElement?.querySelector("input[role=switch]");
        if (input) input.setAttribute("data-physics-switch", String(k++));
      }
      return k;
    });
    expect(n, "Physics switches in the Debug pane").toBeGreaterThan(0);
    const physicsSwitch = (i: number) => page.locator(`input[data-physics-switch="${i}"]`);
    const viewerOn = () =>
      page.evaluate(() => !!(globalThis as unknown as { __continuum: { scene: { reservedDataStore?: { physicsViewer?: unknown } } } }).__continuum.scene.reservedDataStore?.physicsViewer);
    for (let i = 0; i < n && !(await viewerOn()); i++) {
      await physicsSwitch(i).click();
      if (!(await viewerOn()) && !(await page.evaluate(() => (globalThis as unknown as { __continuum: { scene: { physicsEnabled: boolean } } }).__continuum.scene.physicsEnabled))) {
        await physicsSwitch(i).click(); // that was Features > Physics: switch it back on
      }
    }
    expect(await viewerOn(), "inspector physics viewer on").toBe(true);
    // Let it draw while simulating.
    const s0 = await page.evaluate(() => (window as unknown as { __continuum: { simTime: number } }).__continuum.simTime);
    await page.waitForFunction((s) => (window as unknown as { __continuum: { simTime: number } }).__continuum.simTime > s + 0.5, s0, { timeout: 30_000 });

    // The properties pane on a body: pick the paddle in the scene explorer; its Physics section shows.
    await tabs[0].click();
    await page.getByPlaceholder("Filter").first().fill("paddle");
    await page.getByText("paddle", { exact: true }).first().click();
    await page.getByText("Angular Velocity", { exact: true }).first().waitFor({ timeout: 15_000 });
    expect(await page.getByText("Linear Velocity", { exact: true }).count()).toBeGreaterThan(0);

    // The playground's own viewer: bodies, inertia boxes, constraints.
    await page.evaluate(() => (window as unknown as { __continuum: { setViewer(on: boolean): void } }).__continuum.setViewer(true));
    await page.waitForTimeout(500);
    await page.screenshot({ path: `${OUT_DIR}umd-inspector.png` });
    expect(problems).toEqual([]);
    await page.close();
  });
});
