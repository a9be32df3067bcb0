import { describe, expect, it } from "vitest";
import { ContactManifold } from "../../src/collision/contactManifold";
import { collideSphereBox } from "../../src/collision/sphereBox";
import { Box } from "../../src/shapes/box";
import { Sphere } from "../../src/shapes/sphere";
import { expectVec, normal, pointOnA, pointOnB, pose } from "./helpers";

describe("collideSphereBox", () => {
  const m = new ContactManifold();
  const slab = new Box(5, 0.5, 5);

  it("sphere 0.8 m above a slab: one speculative contact at depth -0.8 within margin 0.83", () => {
    collideSphereBox(new Sphere(0.5), pose(1, 1.8, -2), slab, pose(0, 0, 0), 0.83, m);
    expect(m.count).toBe(1);
    expectVec(normal(m), [0, -1, 0]);
    expect(m.depth[0]).toBeCloseTo(-0.8, 12);
    // Sphere bottom at 1.3, slab top at 0.5.
    expectVec([m.positionX[0], m.positionY[0], m.positionZ[0]], [1, 0.9, -2]);
    expectVec(pointOnA(m, 0), [1, 1.3, -2]);
    expectVec(pointOnB(m, 0), [1, 0.5, -2]);
    collideSphereBox(new Sphere(0.5), pose(1, 1.8, -2), slab, pose(0, 0, 0), 0.79, m);
    expect(m.count).toBe(0);
  });

  it("penetrating from above", () => {
    collideSphereBox(new Sphere(0.5), pose(0, 0.9, 0), slab, pose(0, 0, 0), 0, m);
    expect(m.count).toBe(1);
    expectVec(normal(m), [0, -1, 0]);
    expect(m.depth[0]).toBeCloseTo(0.1, 12);
  });

  it("near a corner the normal is diagonal", () => {
    const cube = new Box(0.5, 0.5, 0.5);
    const d = 0.3; // distance from the corner (0.5, 0.5, 0.5) along (1,1,1)/sqrt3
    const k = 0.5 + d / Math.sqrt(3);
    collideSphereBox(new Sphere(0.2), pose(k, k, k), cube, pose(0, 0, 0), 0.2, m);
    expect(m.count).toBe(1);
    const s = -1 / Math.sqrt(3);
    expectVec(normal(m), [s, s, s]);
    expect(m.depth[0]).toBeCloseTo(-0.1, 12);
  });

  it("centre inside the box pushes out through the nearest face", () => {
    const cube = new Box(1, 1, 1);
    collideSphereBox(new Sphere(0.25), pose(0.2, 0.1, 0.9), cube, pose(0, 0, 0), 0, m);
    expect(m.count).toBe(1);
    expectVec(normal(m), [0, 0, -1]);
    expect(m.depth[0]).toBeCloseTo(0.35, 12);
  });

  it("rotated box: sphere above the top edge of a box turned 45 degrees about z", () => {
    const cube = new Box(0.5, 0.5, 0.5);
    const top = 0.5 * Math.SQRT2;
    collideSphereBox(new Sphere(0.5), pose(0, top + 0.45, 0.1), cube, pose(0, 0, 0, 0, 0, 1, Math.PI / 4), 0, m);
    expect(m.count).toBe(1);
    expectVec(normal(m), [0, -1, 0]);
    expect(m.depth[0]).toBeCloseTo(0.05, 9);
  });
});
