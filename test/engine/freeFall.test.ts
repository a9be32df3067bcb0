import { describe, expect, it } from "vitest";
import { Sphere } from "../../src/index";
import { makeWorld, pos, steps, vel } from "./helpers";

describe("free fall", () => {
  it("falls 4.905 m and reaches 9.81 m/s in 1 s", () => {
    const world = makeWorld();
    const h = world.createBody({ position: { x: 0, y: 100, z: 0 }, collidable: { shape: new Sphere(0.5) } });
    steps(world, 60);
    // Semi-implicit Euler over 240 substeps overshoots g t^2 / 2 by g h t / 2 = 0.4 %: inside the 1 % budget.
    expect(100 - pos(world, h).y).toBeGreaterThan(4.905 * 0.99);
    expect(100 - pos(world, h).y).toBeLessThan(4.905 * 1.01);
    // Velocity is integrated exactly for constant gravity: v = g t.
    expect(-vel(world, h).y).toBeGreaterThan(9.81 * 0.995);
    expect(-vel(world, h).y).toBeLessThan(9.81 * 1.005);
  });

  it("scales gravity per body and damps", () => {
    const world = makeWorld();
    const half = world.createBody({ position: { x: 0, y: 100, z: 0 }, gravityFactor: 0.5, collidable: { shape: new Sphere(0.5) } });
    const damped = world.createBody({ position: { x: 5, y: 100, z: 0 }, linearDamping: 1, collidable: { shape: new Sphere(0.5) } });
    steps(world, 60);
    expect(-vel(world, half).y).toBeCloseTo(9.81 * 0.5, 6);
    // dv/dt = g - c v  =>  v(1) = g (1 - e^-1) / c = 6.2; the Pade step v/(1+ch) tracks it within 1 %.
    expect(-vel(world, damped).y).toBeCloseTo(9.81 * (1 - Math.exp(-1)), 1);
  });
});
