import { describe, expect, it } from "vitest";
import { Box } from "../../src/index";
import { addGround, makeWorld, pos, steps } from "./helpers";

function pyramid(sleepingEnabled: boolean) {
  const world = makeWorld({ sleepingEnabled });
  addGround(world, 0.5);
  const start: { h: number; x: number; y: number; z: number }[] = [];
  const rows = 20;
  for (let r = 0; r < rows; r++) {
    const n = rows - r;
    for (let i = 0; i < n; i++) {
      const x = (i - (n - 1) / 2) * 1.0;
      const y = 0.5 + r;
      const h = world.createBody({ position: { x, y, z: 0 }, collidable: { shape: new Box(0.5, 0.5, 0.5), material: { friction: 0.5 } } });
      start.push({ h, x, y, z: 0 });
    }
  }
  return { world, start };
}

describe("stacking", () => {
  it("a 20-row pyramid of 210 boxes stands 10 s within 3 cm (sleeping off)", () => {
    const { world, start } = pyramid(false);
    expect(start.length).toBe(210);
    steps(world, 600);
    let worst = 0;
    for (const s of start) {
      const p = pos(world, s.h);
      worst = Math.max(worst, Math.hypot(p.x - s.x, p.y - s.y, p.z - s.z));
    }
    expect(worst).toBeLessThan(0.03);
  });

  it("the same pyramid is fully asleep within 10 s and stays within 3 cm (sleeping on)", () => {
    const { world, start } = pyramid(true);
    steps(world, 600);
    let worst = 0;
    for (const s of start) {
      const p = pos(world, s.h);
      worst = Math.max(worst, Math.hypot(p.x - s.x, p.y - s.y, p.z - s.z));
      expect(world.isSleeping(s.h)).toBe(true);
    }
    expect(worst).toBeLessThan(0.03);
    expect(world.stats.awakeBodies).toBe(0);
  });

  it("a tower of 10 boxes stands 20 s with the top within 1 cm in x/z", () => {
    const world = makeWorld({ sleepingEnabled: false });
    addGround(world);
    const hs: number[] = [];
    for (let i = 0; i < 10; i++) hs.push(world.createBody({ position: { x: 0, y: 0.5 + i, z: 0 }, collidable: { shape: new Box(0.5, 0.5, 0.5) } }));
    steps(world, 1200);
    const top = pos(world, hs[9]);
    expect(Math.hypot(top.x, top.z)).toBeLessThan(0.01);
    // Ten soft contacts each sag a fraction of a millimetre under the load above them.
    expect(top.y).toBeGreaterThan(9.5 - 0.01);
  });

  it("a 100 kg box on a 1 kg box compresses it by less than 1 cm", () => {
    const world = makeWorld({ sleepingEnabled: false });
    addGround(world);
    const small = world.createBody({ position: { x: 0, y: 0.5, z: 0 }, massProperties: { mass: 1 }, collidable: { shape: new Box(0.5, 0.5, 0.5) } });
    const big = world.createBody({ position: { x: 0, y: 1.5, z: 0 }, massProperties: { mass: 100 }, collidable: { shape: new Box(0.5, 0.5, 0.5) } });
    let lowest = Infinity;
    steps(world, 300, () => {
      lowest = Math.min(lowest, pos(world, big).y - 0.5);
    });
    // The heavy box's bottom face must stay within 1 cm of its unloaded height (1 m) at all times.
    expect(lowest).toBeGreaterThan(1 - 0.01);
    expect(pos(world, small).y).toBeGreaterThan(0.5 - 0.01);
  });
});
