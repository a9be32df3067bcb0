import { describe, expect, it } from "vitest";
import { EpaResult, epaPenetration } from "../../src/collision/epa";
import { GjkResult, gjkDistance } from "../../src/collision/gjk";
import { Pose } from "../../src/math/pose";
import { Box } from "../../src/shapes/box";
import { Capsule } from "../../src/shapes/capsule";
import { Cylinder } from "../../src/shapes/cylinder";
import type { ConvexShape } from "../../src/shapes/shape";
import { Sphere } from "../../src/shapes/sphere";

/** Pose at (x, y, z) rotated by `angle` about the unit axis (ax, ay, az). */
function pose(x: number, y: number, z: number, ax = 0, ay = 1, az = 0, angle = 0): Pose {
  const s = Math.sin(angle / 2);
  return new Pose().set(x, y, z, ax * s, ay * s, az * s, Math.cos(angle / 2));
}

/** Distance between the rounded shapes, from GJK on the cores. */
function distance(a: ConvexShape, pa: Pose, b: ConvexShape, pb: Pose, r = new GjkResult()): number {
  expect(gjkDistance(a, pa, b, pb, r)).toBe(true);
  return r.distance - a.coreRadius - b.coreRadius;
}

describe("gjkDistance", () => {
  it("sphere-box: distance to a box edge", () => {
    const r = new GjkResult();
    const d = distance(new Sphere(0.5), pose(0, 0, 0), new Box(1, 1, 1), pose(3, 3, 0), r);
    expect(d).toBeCloseTo(Math.sqrt(8) - 0.5, 6);
    // Closest point on the box core is the edge point (2, 2, 0); on the sphere core, its centre.
    expect(r.bx).toBeCloseTo(2, 6);
    expect(r.by).toBeCloseTo(2, 6);
    expect(r.bz).toBeCloseTo(0, 6);
    expect(r.nx).toBeCloseTo(Math.SQRT1_2, 6);
    expect(r.ny).toBeCloseTo(Math.SQRT1_2, 6);
  });

  it("sphere-box: distance to a face and to a vertex", () => {
    expect(distance(new Sphere(0.25), pose(0, 0, 0), new Box(1, 2, 3), pose(0.3, 0.2, 5), new GjkResult())).toBeCloseTo(5 - 3 - 0.25, 6);
    expect(distance(new Sphere(0.25), pose(0, 0, 0), new Box(1, 1, 1), pose(2, 2, 2))).toBeCloseTo(Math.sqrt(3) - 0.25, 6);
  });

  it("box-box: a box rotated 45 degrees presents its edge", () => {
    const r = new GjkResult();
    const d = distance(new Box(1, 1, 1), pose(0, 0, 0), new Box(1, 1, 1), pose(3, 0, 0, 0, 0, 1, Math.PI / 4), r);
    expect(d).toBeCloseTo(2 - Math.SQRT2, 6);
    expect(r.ax).toBeCloseTo(1, 6);
    expect(r.bx).toBeCloseTo(3 - Math.SQRT2, 6);
    expect(r.nx).toBeCloseTo(1, 6);
  });

  it("cylinder-box: side, cap rim to box edge, curved side to box edge", () => {
    const cyl = new Cylinder(0.5, 0.5);
    const cube = new Box(0.5, 0.5, 0.5);
    expect(distance(cyl, pose(0, 0, 0), cube, pose(2, 0, 0))).toBeCloseTo(1, 6);
    // Rim (0.5, 0.5, 0) to the box's edge (1.5, 1.5, z).
    expect(distance(cyl, pose(0, 0, 0), cube, pose(2, 2, 0))).toBeCloseTo(Math.SQRT2, 6);
    // Lying cylinder (axis along x): cap face to box face.
    expect(distance(cyl, pose(0, 0, 0, 0, 0, 1, Math.PI / 2), cube, pose(2, 0, 0))).toBeCloseTo(1, 6);
    // Box turned 30 degrees about y: its vertical edge at (0.5, +-0.5) in the box frame is nearest the
    // axis; distance from the axis is |(sqrt(3) - 0.5, 0.5)|, minus the radius.
    const r = new GjkResult();
    const d = distance(cyl, pose(0, 0, 0), cube, pose(2, 0, 0, 0, 1, 0, Math.PI / 6), r);
    expect(d).toBeCloseTo(Math.hypot(Math.sqrt(3) - 0.5, 0.5) - 0.5, 6);
    expect(r.iterations).toBeLessThan(64);
  });

  it("capsule-box and cylinder-cylinder", () => {
    expect(distance(new Capsule(0.3, 0.5), pose(0, 0, 0), new Box(0.5, 0.5, 0.5), pose(0.1, 2, -0.2))).toBeCloseTo(0.7, 6);
    const c = new Cylinder(0.5, 0.5);
    // Stacked with a gap of 0.25.
    expect(distance(c, pose(0, 0, 0), c, pose(0.2, 1.25, 0.1))).toBeCloseTo(0.25, 6);
    // Side by side, axes parallel: 2 - 2r.
    expect(distance(c, pose(0, 0, 0), c, pose(1.2, 0.3, 1.6))).toBeCloseTo(2 - 1, 6);
  });

  it("warm start with a direction gives the same answer", () => {
    const cyl = new Cylinder(0.5, 0.5);
    const cube = new Box(0.5, 0.5, 0.5);
    const r = new GjkResult();
    gjkDistance(cyl, pose(0, 0, 0), cube, pose(2, 2, 0), r, 0.7, 0.7, 0);
    expect(r.distance).toBeCloseTo(Math.SQRT2, 6);
    gjkDistance(cyl, pose(0, 0, 0), cube, pose(2, 2, 0), r, -1, 0, 0);
    expect(r.distance).toBeCloseTo(Math.SQRT2, 6);
  });

  it("reports overlap and an early out beyond maxDistance", () => {
    const r = new GjkResult();
    expect(gjkDistance(new Box(1, 1, 1), pose(0, 0, 0), new Box(1, 1, 1), pose(1.5, 0.2, 0.1), r)).toBe(false);
    expect(gjkDistance(new Box(1, 1, 1), pose(0, 0, 0), new Box(1, 1, 1), pose(10, 0, 0), r, 0, 0, 0, 1)).toBe(true);
    expect(r.exact).toBe(false);
    expect(r.distance).toBeGreaterThan(1);
  });
});

describe("epaPenetration", () => {
  function penetrate(a: ConvexShape, pa: Pose, b: ConvexShape, pb: Pose): EpaResult {
    const g = new GjkResult();
    expect(gjkDistance(a, pa, b, pb, g)).toBe(false);
    const e = new EpaResult();
    expect(epaPenetration(a, pa, b, pb, g, e)).toBe(true);
    return e;
  }

  it("overlapping boxes: smallest axis", () => {
    const e = penetrate(new Box(1, 1, 1), pose(0, 0, 0), new Box(1, 1, 1), pose(1.5, 0.2, 0.1));
    expect(e.depth).toBeCloseTo(0.5, 6);
    expect(e.nx).toBeCloseTo(1, 6);
    expect(e.ny).toBeCloseTo(0, 6);
    expect(e.nz).toBeCloseTo(0, 6);
  });

  it("overlapping boxes, one rotated: the rotated box's vertex", () => {
    // B rotated 45 degrees about z: its left edge at x = 2.5 - sqrt(2) goes into A's face x = 1.
    const e = penetrate(new Box(1, 1, 1), pose(0, 0, 0), new Box(1, 1, 1), pose(2.3, 0, 0, 0, 0, 1, Math.PI / 4));
    expect(e.depth).toBeCloseTo(1 - (2.3 - Math.SQRT2), 6);
    expect(e.nx).toBeCloseTo(1, 6);
  });

  it("cylinder-box: through the cap and through the curved side", () => {
    const cyl = new Cylinder(0.5, 0.5);
    const cap = penetrate(cyl, pose(0, 0, 0), new Box(1, 1, 1), pose(0.1, -1.4, 0));
    expect(cap.depth).toBeCloseTo(0.1, 6);
    expect(cap.ny).toBeCloseTo(-1, 6);
    const side = penetrate(cyl, pose(0, 0, 0), new Box(1, 1, 1), pose(1.3, 0, 0));
    expect(side.depth).toBeCloseTo(0.2, 6);
    expect(side.nx).toBeCloseTo(1, 3);
    // The deepest point of the cylinder is on its side line.
    expect(side.ax).toBeCloseTo(0.5, 3);
  });

  it("capsule core inside a cylinder: segment against the cap", () => {
    // Capsule core end at y = 0.3 + 0.2 = 0.5... core segment y in [0.2, 0.8], cylinder top at 0.5.
    const e = penetrate(new Cylinder(1, 0.5), pose(0, 0, 0), new Capsule(0.1, 0.3), pose(0, 0.5, 0));
    // Push B (the capsule core) up by 0.3 to clear the cap.
    expect(e.depth).toBeCloseTo(0.3, 6);
    expect(e.ny).toBeCloseTo(1, 6);
  });
});
