import { describe, expect, it, vi } from "vitest";

// Cylinder pairs belong to the generic GJK/EPA tester written elsewhere; stand it in with a stub so this
// test checks the dispatch only.
vi.mock("../../src/collision/convexGeneric", () => ({
  collideConvexGeneric: vi.fn((_a: unknown, _pa: unknown, _b: unknown, _pb: unknown, _m: number, out: { count: number }) => {
    out.count = 0;
  }),
}));

import { ContactManifold, ManifoldBuffer } from "../../src/collision/contactManifold";
import { collideConvexGeneric } from "../../src/collision/convexGeneric";
import { collideConvex, collideShapes, convexTesterFor } from "../../src/collision/narrowPhase";
import { collideSphereBox } from "../../src/collision/sphereBox";
import { Box } from "../../src/shapes/box";
import { Capsule } from "../../src/shapes/capsule";
import { Compound } from "../../src/shapes/compound";
import { Cylinder } from "../../src/shapes/cylinder";
import { ShapeType } from "../../src/shapes/shapeType";
import { Sphere } from "../../src/shapes/sphere";
import { alongX, expectVec, normal, pose } from "./helpers";

describe("narrow-phase dispatch", () => {
  const floor = new Box(5, 0.5, 5);
  const cube = new Box(0.5, 0.5, 0.5);

  it("registers the analytic testers and sends every cylinder pair to the generic tester", () => {
    expect(convexTesterFor(ShapeType.Sphere, ShapeType.Box)).toBe(collideSphereBox);
    expect(convexTesterFor(ShapeType.Box, ShapeType.Sphere)).toBe(collideSphereBox);
    for (const t of [ShapeType.Sphere, ShapeType.Capsule, ShapeType.Cylinder, ShapeType.Box]) {
      expect(convexTesterFor(t, ShapeType.Cylinder)).toBe(collideConvexGeneric);
      expect(convexTesterFor(ShapeType.Cylinder, t)).toBe(collideConvexGeneric);
    }
    const m = new ContactManifold();
    collideConvex(new Cylinder(0.5, 1), pose(0, 0, 0), cube, pose(0, 1, 0), 0.1, m);
    expect(collideConvexGeneric).toHaveBeenCalledTimes(1);
  });

  it("swapped argument order gives the flipped normal and the same contacts", () => {
    const m = new ContactManifold();
    const s = new Sphere(0.5);
    collideConvex(s, pose(0.2, 0.9, 0), floor, pose(0, 0, 0), 0, m);
    expect(m.count).toBe(1);
    expectVec(normal(m), [0, -1, 0]);
    const p = [m.positionX[0], m.positionY[0], m.positionZ[0]] as [number, number, number];
    const d = m.depth[0];
    collideConvex(floor, pose(0, 0, 0), s, pose(0.2, 0.9, 0), 0, m);
    expect(m.count).toBe(1);
    expectVec(normal(m), [0, 1, 0]);
    expectVec([m.positionX[0], m.positionY[0], m.positionZ[0]], p);
    expect(m.depth[0]).toBe(d);

    // Capsule on box, both orders.
    const cap = new Capsule(0.25, 1);
    collideConvex(floor, pose(0, 0, 0), cap, alongX(0, 0.74, 0), 0, m);
    expect(m.count).toBe(2);
    expectVec(normal(m), [0, 1, 0]);
    collideConvex(cap, alongX(0, 0.74, 0), floor, pose(0, 0, 0), 0, m);
    expect(m.count).toBe(2);
    expectVec(normal(m), [0, -1, 0]);
  });

  it("convex pair: one manifold with child indices 0; none when apart", () => {
    const buf = new ManifoldBuffer();
    collideShapes(floor, pose(0, 0, 0), cube, pose(0, 0.99, 0), 0, buf);
    expect(buf.count).toBe(1);
    expect(buf.items[0].count).toBe(4);
    expect(buf.items[0].childA).toBe(0);
    expect(buf.items[0].childB).toBe(0);
    collideShapes(floor, pose(0, 0, 0), cube, pose(0, 3, 0), 0.1, buf);
    expect(buf.count).toBe(1); // appended nothing
  });

  // Three children: a cube at x = -2, a sphere at x = +2 (both resting at floor level), a cube high up.
  const dumbbell = new Compound([
    { shape: cube, position: { x: -2, y: 0, z: 0 } },
    { shape: new Sphere(0.5), position: { x: 2, y: 0, z: 0 } },
    { shape: cube, position: { x: 0, y: 3, z: 0 } },
  ]);

  it("compound B on a floor: one manifold per touching child, childB set, childA 0", () => {
    const buf = new ManifoldBuffer();
    collideShapes(floor, pose(0, 0, 0), dumbbell, pose(0, 0.99, 0), 0.05, buf);
    expect(buf.count).toBe(2);
    const [m0, m1] = buf.items;
    expect([m0.childA, m0.childB]).toEqual([0, 0]);
    expect([m1.childA, m1.childB]).toEqual([0, 1]);
    expect(m0.count).toBe(4);
    expect(m1.count).toBe(1);
    for (const m of [m0, m1]) expectVec(normal(m), [0, 1, 0]);
    expect(m0.positionX[0]).toBeLessThan(-1);
    expect(m1.positionX[0]).toBeCloseTo(2, 9);
    expect(m1.depth[0]).toBeCloseTo(0.01, 9);
  });

  it("compound A on a floor: childA set and the normal from the compound toward the floor", () => {
    const buf = new ManifoldBuffer();
    collideShapes(dumbbell, pose(0, 0.99, 0), floor, pose(0, 0, 0), 0.05, buf);
    expect(buf.count).toBe(2);
    expect([buf.items[0].childA, buf.items[0].childB]).toEqual([0, 0]);
    expect([buf.items[1].childA, buf.items[1].childB]).toEqual([1, 0]);
    for (let i = 0; i < 2; i++) expectVec(normal(buf.items[i]), [0, -1, 0]);
  });

  it("rotated compound: child poses are composed with the compound's pose", () => {
    const buf = new ManifoldBuffer();
    // Turned 90 degrees about Y: the sphere child at local x = +2 is at world z = -2.
    collideShapes(floor, pose(0, 0, 0), dumbbell, pose(0, 0.99, 0, 0, 1, 0, Math.PI / 2), 0.05, buf);
    expect(buf.count).toBe(2);
    const sphereManifold = buf.items[1];
    expect(sphereManifold.childB).toBe(1);
    expect(sphereManifold.positionX[0]).toBeCloseTo(0, 9);
    expect(sphereManifold.positionZ[0]).toBeCloseTo(-2, 9);
  });

  it("compound vs compound: both child indices", () => {
    const tower = new Compound([
      { shape: new Sphere(0.25), position: { x: 10, y: 0, z: 0 } }, // far away: pruned
      { shape: cube, position: { x: 0, y: 0, z: 0 } },
    ]);
    const buf = new ManifoldBuffer();
    // The tower's cube (child 1) sits on the dumbbell's high cube (child 2, top at y = 3.5).
    collideShapes(dumbbell, pose(0, 0, 0), tower, pose(0, 3.99, 0), 0.05, buf);
    expect(buf.count).toBe(1);
    const m = buf.items[0];
    expect([m.childA, m.childB]).toEqual([2, 1]);
    expect(m.count).toBe(4);
    expectVec(normal(m), [0, 1, 0]);
    collideShapes(tower, pose(0, 3.99, 0), dumbbell, pose(0, 0, 0), 0.05, buf);
    expect(buf.count).toBe(2);
    expect([buf.items[1].childA, buf.items[1].childB]).toEqual([1, 2]);
    expectVec(normal(buf.items[1]), [0, -1, 0]);
  });
});
