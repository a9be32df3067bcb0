import { describe, expect, it } from "vitest";
import { Sphere } from "../../src/index";
import { addGround, makeWorld, pos, steps, vel } from "./helpers";

const R = 0.5;

/** Drops a sphere whose bottom is 2 m above the ground; returns the apex heights of its bounces (bottom above ground). */
function bounces(e: number, count: number, maxSteps = 1200): number[] {
  const world = makeWorld({ sleepingEnabled: false });
  addGround(world);
  const s = world.createBody({ position: { x: 0, y: 2 + R, z: 0 }, collidable: { shape: new Sphere(R), material: { restitution: e } } });
  const apex: number[] = [];
  let prevVy = 0;
  let best = -Infinity;
  let goingUp = false;
  steps(world, maxSteps, () => {
    const vy = vel(world, s).y;
    const y = pos(world, s).y - R;
    if (vy > 0) {
      goingUp = true;
      best = Math.max(best, y);
    }
    if (goingUp && prevVy > 0 && vy <= 0 && apex.length < count) {
      apex.push(best);
      best = -Infinity;
      goingUp = false;
    }
    prevVy = vy;
  });
  return apex;
}

describe("restitution", () => {
  for (const e of [0.3, 0.5, 0.8]) {
    it(`e = ${e} bounces to e^2 * 2 m (measured e within 0.03)`, () => {
      const [h] = bounces(e, 1, 300);
      // Rebound height h = e^2 h0 for a point impact; the measured coefficient is sqrt(h / h0).
      expect(Math.abs(Math.sqrt(h / 2) - e)).toBeLessThan(0.03);
    });
  }

  it("e = 0 rises less than 1 cm", () => {
    const world = makeWorld({ sleepingEnabled: false });
    addGround(world);
    const s = world.createBody({ position: { x: 0, y: 2 + R, z: 0 }, collidable: { shape: new Sphere(R), material: { restitution: 0 } } });
    let landed = false,
      maxAfter = 0;
    steps(world, 240, () => {
      const y = pos(world, s).y - R;
      if (y < 0.01) landed = true;
      if (landed) maxAfter = Math.max(maxAfter, y);
    });
    expect(landed).toBe(true);
    expect(maxAfter).toBeLessThan(0.01);
  });

  it("e = 1 never gains energy over 10 bounces", () => {
    const apex = bounces(1, 10, 2400);
    expect(apex.length).toBe(10);
    for (let i = 0; i < apex.length; i++) {
      // Energy is m g h at the apex: no apex may exceed the drop height or the previous apex.
      expect(apex[i]).toBeLessThanOrEqual(2);
      if (i > 0) expect(apex[i]).toBeLessThanOrEqual(apex[i - 1] + 1e-9);
    }
    // And a perfectly elastic ball keeps most of its energy (speculative contacts lose < 1 step of fall per bounce).
    expect(apex[9]).toBeGreaterThan(1.5);
  });
});
