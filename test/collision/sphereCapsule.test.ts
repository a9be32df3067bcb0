import { describe, expect, it } from "vitest";
import { ContactManifold } from "../../src/collision/contactManifold";
import { collideSphereCapsule } from "../../src/collision/sphereCapsule";
import { Capsule } from "../../src/shapes/capsule";
import { Sphere } from "../../src/shapes/sphere";
import { alongX, expectVec, normal, pose } from "./helpers";

describe("collideSphereCapsule", () => {
  const m = new ContactManifold();
  const cap = new Capsule(0.25, 1); // along X after alongX()

  it("sphere resting on the middle of a lying capsule", () => {
    // Capsule top at y = 0.25; sphere (r 0.5) bottom at 0.6 - 0.5 = 0.1 -> depth 0.15.
    collideSphereCapsule(new Sphere(0.5), pose(0.4, 0.6, 0), cap, alongX(0, 0, 0), 0, m);
    expect(m.count).toBe(1);
    expectVec(normal(m), [0, -1, 0]);
    expect(m.depth[0]).toBeCloseTo(0.15, 12);
    expect(m.positionX[0]).toBeCloseTo(0.4, 12);
    expect(m.positionY[0]).toBeCloseTo(0.175, 12);
  });

  it("beyond the end cap the normal points along the axis", () => {
    // Segment ends at x = 1; sphere centre at x = 2, gap 2 - 1 - 0.25 - 0.5 = 0.25.
    collideSphereCapsule(new Sphere(0.5), pose(2, 0, 0), cap, alongX(0, 0, 0), 0.3, m);
    expect(m.count).toBe(1);
    expectVec(normal(m), [-1, 0, 0]);
    expect(m.depth[0]).toBeCloseTo(-0.25, 12);
    expect(m.positionX[0]).toBeCloseTo(1.375, 12);
    collideSphereCapsule(new Sphere(0.5), pose(2, 0, 0), cap, alongX(0, 0, 0), 0.2, m);
    expect(m.count).toBe(0);
  });

  it("centre on the segment still gives a unit normal perpendicular to the axis", () => {
    collideSphereCapsule(new Sphere(0.5), pose(0.3, 0, 0), cap, alongX(0, 0, 0), 0, m);
    expect(m.count).toBe(1);
    expect(Math.hypot(...normal(m))).toBeCloseTo(1, 12);
    expect(m.normalX).toBeCloseTo(0, 12);
    expect(m.depth[0]).toBeCloseTo(0.75, 12);
  });
});
