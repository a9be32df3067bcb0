/**
 * The three figures of the contact-substep table (bench/RESULTS.md, "four contact substeps after shock
 * propagation"): a 20-row pyramid of 210 boxes (worst drift after 10 s; test/engine/stacking.test.ts allows 30 mm),
 * a 10-box tower (top's x/z offset and sag after 20 s; 10 mm each) and 100 kg on 1 kg (the heavy box's lowest
 * sag over 5 s; 10 mm), per contact substep count and solver settings (ContactConstraints.settings, solverSettings.ts).
 *
 *   PROBE='[{"name":"4, static hertz x1","n":4,"staticHertzScale":1}]' \
 *     npx vitest run --config bench/probe/vitest.config.ts bench/probe/substeps.probe.ts
 *
 * prints one markdown table row per entry (mm). Scenes as in test/engine/stacking.test.ts.
 */
import { it } from "vitest";
import { Box, MotionType, World } from "../../src/index";
import type { SolverSettings } from "../../src/dynamics/solverSettings";

type Entry = Partial<SolverSettings> & { name: string; n: number };
const entries: Entry[] = JSON.parse(process.env.PROBE ?? '[{"name":"8","n":8},{"name":"4","n":4}]');

function world(e: Entry): World {
  const w = new World({ gravity: { x: 0, y: -9.81, z: 0 }, sleepingEnabled: false, contactSubsteps: e.n });
  const { name: _name, n: _n, ...settings } = e;
  Object.assign(w.solver.settings, settings);
  w.createBody({ motionType: MotionType.Static, position: { x: 0, y: -0.5, z: 0 }, collidable: { shape: new Box(100, 0.5, 100), material: { friction: 0.5 } } });
  return w;
}

function run(w: World, steps: number, each?: () => void): void {
  for (let i = 0; i < steps; i++) {
    w.step(1 / 60);
    each?.();
  }
}

const p = { x: 0, y: 0, z: 0 };

function pyramid(e: Entry): number {
  const w = world(e);
  const start: { h: number; x: number; y: number }[] = [];
  for (let r = 0; r < 20; r++) {
    for (let i = 0; i < 20 - r; i++) {
      const x = i - (19 - r) / 2,
        y = 0.5 + r;
      start.push({ h: w.createBody({ position: { x, y, z: 0 }, collidable: { shape: new Box(0.5, 0.5, 0.5), material: { friction: 0.5 } } }), x, y });
    }
  }
  run(w, 600);
  let worst = 0;
  for (const s of start) {
    w.getPosition(s.h, p);
    worst = Math.max(worst, Math.hypot(p.x - s.x, p.y - s.y, p.z));
  }
  return worst * 1000;
}

function tower(e: Entry): [number, number] {
  const w = world(e);
  let top = -1;
  for (let i = 0; i < 10; i++) top = w.createBody({ position: { x: 0, y: 0.5 + i, z: 0 }, collidable: { shape: new Box(0.5, 0.5, 0.5) } });
  run(w, 1200);
  w.getPosition(top, p);
  return [Math.hypot(p.x, p.z) * 1000, (9.5 - p.y) * 1000];
}

function heavyOnLight(e: Entry): number {
  const w = world(e);
  w.createBody({ position: { x: 0, y: 0.5, z: 0 }, massProperties: { mass: 1 }, collidable: { shape: new Box(0.5, 0.5, 0.5) } });
  const big = w.createBody({ position: { x: 0, y: 1.5, z: 0 }, massProperties: { mass: 100 }, collidable: { shape: new Box(0.5, 0.5, 0.5) } });
  let lowest = Infinity;
  run(w, 300, () => {
    w.getPosition(big, p);
    lowest = Math.min(lowest, p.y - 0.5);
  });
  return (1 - lowest) * 1000;
}

it("contact substep figures", () => {
  const rows = ["| setting | pyramid drift (mm, < 30) | tower x/z, sag (mm, < 10) | 100:1 sag (mm, < 10) |", "| --- | ---: | ---: | ---: |"];
  for (const e of entries) {
    const [xz, sag] = tower(e);
    rows.push(`| ${e.name} | ${pyramid(e).toFixed(1)} | ${xz.toFixed(1)}, ${sag.toFixed(1)} | ${heavyOnLight(e).toFixed(1)} |`);
  }
  console.log(rows.join("\n"));
});
