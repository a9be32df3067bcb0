/**
 * End-to-end: the playground's engine switch, split view and "Contacts & CCD" overlay in headless Chromium
 * (the built demo/dist/demo.js; Havok's wasm served by demo/serve.mjs).
 *
 * Opens the CCD gallery on Continuum and on Havok (`?engine=`), the CCD gallery, the stacking scene and the
 * terrain drop side by side (`?split=1`: Continuum left, Havok right), checks a count each scene is about on
 * each engine, switches engines with the E key and toggles the overlay (C key). Screenshots:
 * test-output/engines-ccd-<engine>.png, engines-split-<scene>.png, engines-overlay-<scene>.png.
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

interface Lane {
  mode: string;
  fired: number;
  tunneled: number;
  stopped: number;
}
type Hook = ContinuumHook;
type HookWindow = Window & { __continuum?: Hook };

let server: Awaited<ReturnType<typeof startServer>> | undefined;
let browser: Browser | undefined;
let page: Page;
const problems: string[] = [];

async function hook<T>(fn: (h: Hook) => T): Promise<T> {
  return page.evaluate(`(${fn.toString()})(window.__continuum)`) as Promise<T>;
}

/** Opens the page with `query`, waits until the scene has simulated `seconds`, pauses it. */
async function open(query: string, seconds: number): Promise<void> {
  await page.goto(`${server!.url}?${query}`, { waitUntil: "load" });
  await page.waitForFunction((t) => {
    const h = (window as HookWindow).__continuum;
    return !!h && h.ready && h.simTime >= t;
  }, seconds, { timeout: 60_000, polling: 50 });
  await hook((h) => h.pause(true));
}

async function shot(name: string): Promise<void> {
  await page.waitForTimeout(250); // a frame or two paused, and the overlay text refreshed
  await page.screenshot({ path: `${OUT_DIR}engines-${name}.png` });
}

beforeAll(async () => {
  if (!fs.existsSync(BUNDLE)) throw new Error(`${BUNDLE} is missing: run \`npm run build\` first (\`npm test\` does).`);
  fs.mkdirSync(OUT_DIR, { recursive: true });
  server = await startServer(0);
  browser = await launchBrowser();
  page = await browser.newPage({ viewport: { width: 960, height: 540 } }); // small: software GL renders every frame
  watchPage(page, problems);
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

describe("playground on Continuum and Havok", () => {
  it("CCD gallery: Continuous lanes stop on Continuum; on Havok the Continuum-only calls are skipped and said so", { timeout: 60_000 }, async () => {
    // 2.2 s: shots leave every 0.5 s and need 0.1 s to the wall, so at least 4 have been decided per lane.
    await open("scene=ccd", 2.2);
    expect(await hook((h) => h.engine)).toBe("continuum");
    let lanes = (await hook((h) => h.probe())).lanes as Lane[];
    expect(lanes.map((l) => l.mode)).toEqual(["Discrete", "Passive", "Continuous"]);
    for (const l of lanes) expect(l.tunneled + l.stopped).toBeGreaterThanOrEqual(4);
    // With the margin capped at 10 cm a 2.5 m step clears the 8 cm wall: every Discrete and Passive shot
    // passes, every Continuous one is swept to the wall and stops.
    expect(lanes[0].stopped).toBe(0);
    expect(lanes[1].stopped).toBe(0);
    expect(lanes[2].tunneled).toBe(0);
    await shot("ccd-continuum");

    await open("scene=ccd&engine=havok", 2.2);
    expect(await hook((h) => h.engine)).toBe("havok");
    expect((await hook((h) => h.skipped)).sort()).toEqual(["setContinuousDetection", "setSpeculativeMargins"]);
    expect(await page.textContent("#caption")).toContain("On Havok: setContinuousDetection, setSpeculativeMargins skipped");
    lanes = (await hook((h) => h.probe())).lanes as Lane[];
    for (const l of lanes) expect(l.tunneled + l.stopped).toBeGreaterThanOrEqual(4);
    // The modes are skipped, so the three lanes are the same scene on Havok: the same outcome in each.
    expect(new Set(lanes.map((l) => l.tunneled)).size).toBe(1);
    // The engine counters are Continuum's world stats: Havok has none to show.
    expect(await page.textContent('#stats [data-stat="contacts"]')).toBe("–");
    expect(Number(await page.textContent('#stats [data-stat="ms"]'))).toBeGreaterThan(0);
    await shot("ccd-havok");
  });

  /** Opens `scene` side by side and returns each side's probe: Continuum's (left) and Havok's (right). */
  async function bothSides(scene: string, seconds: number): Promise<Record<"continuum" | "havok", Record<string, unknown>>> {
    await open(`scene=${scene}&split=1`, seconds);
    const r = (await hook((h) => h.splitReport()))!;
    expect([r.left.engine, r.right.engine]).toEqual(["continuum", "havok"]);
    // Both sides run at the page's pace: the right one is within a few frames of the left.
    expect(Math.abs(r.left.simTime - r.right.simTime)).toBeLessThan(0.5);
    expect(r.right.simTime).toBeGreaterThanOrEqual(seconds - 0.5);
    return { continuum: await hook((h) => h.probe()), havok: r.right.probe };
  }

  it("stacking, side by side: the pyramid and tower stand on both engines", { timeout: 60_000 }, async () => {
    const probes = await bothSides("stacking", 1.5);
    for (const engine of ["continuum", "havok"] as const) {
      const p = probes[engine];
      expect(p.pyramid).toBe(55);
      expect(p.tower).toBe(42);
      // Standing still: no box of either stack moved more than 5 cm in 1.5 s (a toppling box moves metres).
      expect(p.pyramidMaxMove as number, engine).toBeLessThan(0.05);
      expect(p.towerMaxMove as number, engine).toBeLessThan(0.05);
    }
    expect(await page.textContent("#side-right")).toContain("0 passed through");
    await shot("split-stacking");
  });

  it("terrain drop, side by side: nothing falls through the heightfield or the mesh on either engine", { timeout: 60_000 }, async () => {
    // 2 s: the highest drop (9 m above the surface) lands after 1.4 s.
    const probes = await bothSides("terrain", 2);
    for (const engine of ["continuum", "havok"] as const) {
      const { clearance } = probes[engine] as { clearance: { name: string; inside: boolean; clearance: number }[] };
      expect(clearance).toHaveLength(64);
      // Every body's centre is above the surface under it (its smallest half-size, 0.25 m, less a little).
      const under = clearance.filter((c) => c.inside && c.clearance < 0.2);
      expect(under, engine).toEqual([]);
    }
    expect(await page.textContent("#side-left")).toContain("0 passed through");
    expect(await page.textContent("#side-right")).toContain("0 passed through");
    await shot("split-terrain");
  });

  it("E switches the engine and the overlay compares ms/step with the other's last value", { timeout: 60_000 }, async () => {
    await open("scene=stacking", 0.5);
    await hook((h) => h.pause(false));
    await page.waitForTimeout(500); // the comparison line is refreshed every 200 ms: Continuum's value is stored
    await page.keyboard.press("e");
    await page.waitForFunction(() => {
      const h = (window as HookWindow).__continuum!;
      return h.ready && h.engine === "havok" && h.simTime >= 0.5;
    }, null, { timeout: 60_000, polling: 50 });
    await page.waitForTimeout(300);
    expect(new URL(page.url()).searchParams.get("engine")).toBe("havok");
    expect(await page.getAttribute('#engine button[data-value="havok"]', "aria-pressed")).toBe("true");
    const last = await page.textContent('#engine-compare [data-engine-last="continuum"]');
    expect(Number(last)).toBeGreaterThan(0);
  });

  it("split view: the CCD gallery on both engines, each side with its counters", { timeout: 60_000 }, async () => {
    await open("scene=ccd&split=1", 2.2);
    const r = (await hook((h) => h.splitReport()))!;
    expect(r).not.toBeNull();
    expect([r.left.engine, r.right.engine]).toEqual(["continuum", "havok"]);
    // Same inputs: both sides fired the same shots (firing is by step count; both stepped together).
    expect(Math.abs(r.left.simTime - r.right.simTime)).toBeLessThan(0.5);
    const right = r.right.probe.lanes as Lane[];
    expect(right.map((l) => l.mode)).toEqual(["Discrete", "Passive", "Continuous"]);
    // Continuum: the Discrete and Passive shots passed (>= 4 each, see the first test), the Continuous did not.
    expect(r.left.through).toBeGreaterThanOrEqual(8);
    expect(r.left.ms).toBeGreaterThan(0);
    expect(r.right.ms).toBeGreaterThan(0);
    expect(await page.textContent("#side-left")).toContain("Continuum");
    expect(await page.textContent("#side-right")).toContain("Havok");
    expect(await page.textContent("#side-left")).toContain("passed through");
    await shot("split-ccd");
  });

  it("Contacts & CCD overlay: contacts, bounds and times of impact on Continuum; nothing to draw on Havok", { timeout: 60_000 }, async () => {
    await open("scene=ccd", 0.2);
    await page.keyboard.press("c");
    expect(await hook((h) => h.contactsOverlay)).toBe(true);
    expect(await page.getAttribute("#contacts", "aria-pressed")).toBe("true");
    await hook((h) => h.pause(false));
    // Until a Continuous shot has hit the wall (0.6 s: the second volley) and the overlay drew its TOI.
    await page.waitForFunction(() => (window as HookWindow).__continuum!.overlayCounts().toiSeen > 0, null, { timeout: 30_000, polling: 16 });
    await hook((h) => h.pause(true));
    const c = await hook((h) => h.overlayCounts());
    // Shots in flight: one bounds box per moving body (12 segments each) at least.
    expect(c.bounds).toBeGreaterThan(0);
    expect(c.segments).toBeGreaterThanOrEqual(12 * c.bounds);
    await shot("overlay-ccd");
    await page.click("#contacts");
    expect(await hook((h) => h.contactsOverlay)).toBe(false);

    // A pile of 300 bodies: touching and speculative contacts both.
    await open("scene=falling-shapes", 1); // the lowest layer (3 m up) landed at 0.8 s
    await page.click("#contacts");
    await page.waitForTimeout(300);
    const f = await hook((h) => h.overlayCounts());
    expect(f.bounds).toBe(300);
    expect(f.touching).toBeGreaterThan(0);
    expect(f.speculative).toBeGreaterThan(0);
    console.log(`overlay on 300 bodies: ${f.segments} segments, ${f.drawMs.toFixed(2)} ms per frame`);
    await shot("overlay-falling-shapes");

    await open("scene=ccd&engine=havok", 0.2);
    await page.keyboard.press("c");
    await page.waitForTimeout(200);
    expect(await page.textContent("#debug-legend")).toContain("Havok has none");
    expect((await hook((h) => h.overlayCounts())).segments).toBe(0);
    expect(problems).toEqual([]);
  });
});
