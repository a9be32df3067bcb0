import { describe, expect, it } from "vitest";
import { AxisMode, JointAxis, Sphere } from "../../src/index";
import { DT, makeWorld, pos } from "./helpers";

/**
 * One step of free fall from rest with n substeps of semi-implicit Euler drops g dt^2 (n + 1) / (2 n): each
 * substep adds g h to the velocity before moving by it. The drop therefore tells which substep count a step ran
 * (8: 0.5625 g dt^2, 6: 0.5833 g dt^2, 3.7 % apart).
 */
function drop(n: number): number {
  return (9.81 * DT * DT * (n + 1)) / (2 * n);
}

function fallingSphere(world: ReturnType<typeof makeWorld>): number {
  return world.createBody({ position: { x: 0, y: 10, z: 0 }, collidable: { shape: new Sphere(0.5) } });
}

describe("substeps", () => {
  it("a world without joints steps with contactSubsteps", () => {
    const world = makeWorld({ contactSubsteps: 6 });
    const h = fallingSphere(world);
    world.step(DT);
    expect(world.substeps).toBe(8);
    expect(10 - pos(world, h).y).toBeCloseTo(drop(6), 12);
  });

  it("by default a world without joints steps with 6 substeps", () => {
    // 6: every contact test holds its tolerance at 6 since a rolling contact's anchor stopped turning with the wheel
    // (rollingContact.test.ts); joints keep 8 (their stiffness is capped at a quarter of the substep rate).
    const world = makeWorld();
    expect(world.contactSubsteps).toBe(6);
    const h = fallingSphere(world);
    world.step(DT);
    expect(10 - pos(world, h).y).toBeCloseTo(drop(6), 12);
  });

  it("a world with a joint steps with substeps", () => {
    const world = makeWorld({ contactSubsteps: 6 });
    const h = fallingSphere(world);
    // Two other bodies, far away, joined by a distance limit: the whole world now steps with `substeps`.
    const a = world.createBody({ position: { x: 50, y: 10, z: 0 }, collidable: { shape: new Sphere(0.5) } });
    const b = world.createBody({ position: { x: 52, y: 10, z: 0 }, collidable: { shape: new Sphere(0.5) } });
    world.createJoint({ bodyA: a, bodyB: b, axes: [{ axis: JointAxis.LinearDistance, mode: AxisMode.Limited, min: 1, max: 3 }] });
    world.step(DT);
    expect(10 - pos(world, h).y).toBeCloseTo(drop(8), 12);
  });

  it("contactSubsteps follows substeps when only substeps is given", () => {
    const world = makeWorld({ substeps: 5 });
    expect(world.contactSubsteps).toBe(5);
    const h = fallingSphere(world);
    world.step(DT);
    expect(10 - pos(world, h).y).toBeCloseTo(drop(5), 12);
  });
});
