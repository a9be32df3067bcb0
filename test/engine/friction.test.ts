import { describe, expect, it } from "vitest";
import { Box, MotionType } from "../../src/index";
import { axisAngle, makeWorld, pos, steps, vel } from "./helpers";

const ANGLE = Math.PI / 6; // 30 degrees

/** A box resting on a static 30-degree ramp, both with friction mu (Minimum combine gives mu). */
function ramp(mu: number) {
  const world = makeWorld({ sleepingEnabled: false });
  const q = axisAngle(0, 0, 1, ANGLE);
  world.createBody({ motionType: MotionType.Static, orientation: q, collidable: { shape: new Box(20, 0.5, 5), material: { friction: mu } } });
  // The ramp's top normal is the rotated +Y: (-sin 30, cos 30, 0); the box sits 1 m along it, touching.
  const nx = -Math.sin(ANGLE),
    ny = Math.cos(ANGLE);
  const box = world.createBody({ position: { x: nx, y: ny, z: 0 }, orientation: q, collidable: { shape: new Box(0.5, 0.5, 0.5), material: { friction: mu } } });
  return { world, box };
}

/** Distance travelled down the slope (the slope direction is (-cos 30, -sin 30, 0)). */
function along(p: { x: number; y: number }, x0: number, y0: number): number {
  return -(p.x - x0) * Math.cos(ANGLE) - (p.y - y0) * Math.sin(ANGLE);
}

describe("friction on a 30 degree ramp", () => {
  it("holds a box with mu = 0.7 > tan 30 (moves less than 1 cm in 2 s)", () => {
    const { world, box } = ramp(0.7);
    const p0 = pos(world, box);
    steps(world, 120);
    const p = pos(world, box);
    expect(Math.hypot(p.x - p0.x, p.y - p0.y, p.z - p0.z)).toBeLessThan(0.01);
  });

  it("slides a box with mu = 0.4 at g (sin 30 - 0.4 cos 30) within 3 %", () => {
    const { world, box } = ramp(0.4);
    steps(world, 30); // settle the first contact
    const v1 = vel(world, box);
    const s1 = -v1.x * Math.cos(ANGLE) - v1.y * Math.sin(ANGLE);
    steps(world, 60);
    const v2 = vel(world, box);
    const s2 = -v2.x * Math.cos(ANGLE) - v2.y * Math.sin(ANGLE);
    const a = (s2 - s1) / 1.0;
    const expected = 9.81 * (Math.sin(ANGLE) - 0.4 * Math.cos(ANGLE));
    expect(Math.abs(a - expected) / expected).toBeLessThan(0.03);
    // It slides without rotating or lifting off: its height above the ramp stays constant.
    expect(along(pos(world, box), 0, 0)).toBeGreaterThan(0);
  });
});
