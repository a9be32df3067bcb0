import { describe, expect, it } from "vitest";
import { ContactManifold } from "../../src/collision/contactManifold";
import { collideSphereSphere } from "../../src/collision/sphereSphere";
import { Sphere } from "../../src/shapes/sphere";
import { expectVec, normal, pointOnA, pointOnB, pose } from "./helpers";

describe("collideSphereSphere", () => {
  const m = new ContactManifold();

  it("overlapping spheres: normal A->B, depth, midpoint", () => {
    collideSphereSphere(new Sphere(1), pose(0, 0, 0), new Sphere(0.5), pose(1.2, 0, 0), 0, m);
    expect(m.count).toBe(1);
    expectVec(normal(m), [1, 0, 0]);
    expect(m.depth[0]).toBeCloseTo(0.3, 12);
    // A's surface at x = 1, B's at x = 0.7: the midpoint is 0.85.
    expect(m.positionX[0]).toBeCloseTo(0.85, 12);
    expectVec(pointOnA(m, 0), [1, 0, 0]);
    expectVec(pointOnB(m, 0), [0.7, 0, 0]);
  });

  it("speculative: gap within the margin gives negative depth, beyond it nothing", () => {
    collideSphereSphere(new Sphere(1), pose(0, 0, 0), new Sphere(0.5), pose(0, -2, 0), 0.6, m);
    expect(m.count).toBe(1);
    expectVec(normal(m), [0, -1, 0]);
    expect(m.depth[0]).toBeCloseTo(-0.5, 12);
    expect(m.positionY[0]).toBeCloseTo(-1.25, 12);
    collideSphereSphere(new Sphere(1), pose(0, 0, 0), new Sphere(0.5), pose(0, -2, 0), 0.4, m);
    expect(m.count).toBe(0);
  });

  it("coincident centres give a unit normal and full depth", () => {
    collideSphereSphere(new Sphere(1), pose(3, 3, 3), new Sphere(2), pose(3, 3, 3), 0, m);
    expect(m.count).toBe(1);
    expect(Math.hypot(...normal(m))).toBeCloseTo(1, 12);
    expect(m.depth[0]).toBeCloseTo(3, 12);
  });
});
