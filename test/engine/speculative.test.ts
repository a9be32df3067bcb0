import { describe, expect, it } from "vitest";
import { Box, ContactEventType, MotionType, Sphere } from "../../src/index";
import { makeWorld, pos, vel } from "./helpers";

describe("speculative contacts", () => {
  it("a sphere at 50 m/s never passes a 5 cm slab, and its contact begins the step before it would overlap", () => {
    const world = makeWorld({ sleepingEnabled: false });
    const slab = world.createBody({ motionType: MotionType.Static, collidable: { shape: new Box(5, 0.025, 5) } });
    const r = 0.25;
    const ball = world.createBody({ position: { x: 0, y: 5, z: 0 }, linearVelocity: { x: 0, y: -50, z: 0 }, collidable: { shape: new Sphere(r) } });
    let beganAt = -1;
    let gapBeforeBegan = NaN,
      speedBeforeBegan = NaN;
    let minY = Infinity;
    for (let s = 0; s < 120; s++) {
      const gap = pos(world, ball).y - r - 0.025;
      const speed = -vel(world, ball).y;
      world.step(1 / 60);
      minY = Math.min(minY, pos(world, ball).y);
      for (let e = 0; e < world.contactEvents.count; e++) {
        if (world.contactEvents.type[e] === ContactEventType.Began && beganAt < 0) {
          expect([world.contactEvents.bodyA[e], world.contactEvents.bodyB[e]]).toContain(slab);
          beganAt = s;
          gapBeforeBegan = gap;
          speedBeforeBegan = speed;
        }
      }
    }
    // Never below the slab's top face (a soft contact may sag a fraction of a millimetre).
    expect(minY).toBeGreaterThan(0.025 + r - 0.005);
    expect(beganAt).toBeGreaterThan(0);
    // At the start of that step the ball was still clear of the slab ...
    expect(gapBeforeBegan).toBeGreaterThan(0);
    // ... and would have overlapped by the end of it moving freely (gap < v dt + g dt^2).
    expect(gapBeforeBegan).toBeLessThan(speedBeforeBegan / 60 + 9.81 / 3600);
  });

  it("uses the per-body margin: clamped by maximumSpeculativeMargin", () => {
    const world = makeWorld({ sleepingEnabled: false });
    const b = world.createBody({
      position: { x: 0, y: 50, z: 0 },
      linearVelocity: { x: 30, y: 0, z: 0 },
      collidable: { shape: new Sphere(0.5), maximumSpeculativeMargin: 0.1 },
    });
    const c = world.createBody({ position: { x: 10, y: 50, z: 0 }, linearVelocity: { x: 30, y: 0, z: 0 }, collidable: { shape: new Sphere(0.5) } });
    world.step(1 / 60);
    expect(world.getSpeculativeMargin(b)).toBe(0.1);
    // Unbounded: |v| dt with v including one step of gravity (bepu predicts after gravity).
    expect(world.getSpeculativeMargin(c)).toBeCloseTo(Math.hypot(30, 9.81 / 60) / 60, 9);
  });
});
