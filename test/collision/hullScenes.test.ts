import { describe, expect, it } from "vitest";
import { ConvexHull } from "../../src/index";
import { addGround, angVel, makeWorld, pos, steps, vel } from "../engine/helpers";

function boxCorners(hx: number, hy: number, hz: number, ox = 0, oy = 0, oz = 0): number[] {
  const p: number[] = [];
  for (const x of [-hx, hx]) for (const y of [-hy, hy]) for (const z of [-hz, hz]) p.push(ox + x, oy + y, oz + z);
  return p;
}

/** Points of a geodesic-like sphere: a latitude-longitude grid (poles included). */
function spherePoints(r: number, rings: number, segs: number): number[] {
  const p: number[] = [0, r, 0, 0, -r, 0];
  for (let i = 1; i < rings; i++) {
    const th = (Math.PI * i) / rings;
    for (let j = 0; j < segs; j++) {
      const ph = (2 * Math.PI * j) / segs;
      p.push(r * Math.sin(th) * Math.cos(ph), r * Math.cos(th), r * Math.sin(th) * Math.sin(ph));
    }
  }
  return p;
}

describe("convex hulls in the world", () => {
  it("a hull box rests at its half height, still", () => {
    const world = makeWorld({ sleepingEnabled: false });
    addGround(world);
    const h = world.createBody({ position: { x: 0, y: 0.6, z: 0 }, collidable: { shape: new ConvexHull(boxCorners(1, 0.25, 0.5)) } });
    steps(world, 180);
    expect(Math.abs(pos(world, h).y - 0.25)).toBeLessThan(0.005);
    const v = vel(world, h),
      w = angVel(world, h);
    expect(Math.hypot(v.x, v.y, v.z)).toBeLessThan(1e-3);
    expect(Math.hypot(w.x, w.y, w.z)).toBeLessThan(2e-3);
  });

  it("a hull whose centroid is off its origin rests on its bottom face (centre of mass at the centroid)", () => {
    const world = makeWorld({ sleepingEnabled: false });
    addGround(world);
    // Cube of side 0.5 whose centre is 1 m to the side of and 0.25 m above the body origin.
    const shape = new ConvexHull(boxCorners(0.25, 0.25, 0.25, 1, 0.25, 0));
    const mp = world.computeMassProperties(shape, 1000);
    expect(mp.centerOfMass.x).toBeCloseTo(1, 12);
    expect(mp.centerOfMass.y).toBeCloseTo(0.25, 12);
    const h = world.createBody({ position: { x: 0, y: 0.1, z: 0 }, collidable: { shape } });
    steps(world, 180);
    const p = pos(world, h);
    expect(Math.abs(p.y)).toBeLessThan(0.005); // the bottom face is at the body origin's height
    expect(Math.abs(p.x)).toBeLessThan(0.01);
  });

  it("a hull of a sphere's points rests near the sphere radius", () => {
    const world = makeWorld({ sleepingEnabled: false });
    addGround(world);
    const shape = new ConvexHull(spherePoints(0.5, 12, 24));
    const h = world.createBody({ position: { x: 0, y: 0.8, z: 0 }, collidable: { shape } });
    steps(world, 240);
    expect(Math.abs(pos(world, h).y - 0.5)).toBeLessThan(0.02);
    // And it rolls like the sphere: pushed at 2 m/s, friction turns sliding into rolling within
    // 2 v0 / (7 mu g) = 0.12 s, after which v = w r and v = 5/7 of the push for a solid sphere. (Later its
    // facets, each a small impact, slow it down: a polyhedron is not quite a sphere.)
    world.setLinearVelocity(h, { x: 2, y: 0, z: 0 });
    steps(world, 15);
    const v = world.getLinearVelocity(h, { x: 0, y: 0, z: 0 }),
      w = world.getAngularVelocity(h, { x: 0, y: 0, z: 0 });
    expect(Math.abs(-w.z * 0.5 - v.x)).toBeLessThan(0.1 * v.x);
    expect(Math.abs(v.x - (5 / 7) * 2)).toBeLessThan(0.15);
  });

  it("a 10-high tower of hull boxes stands for 10 s", () => {
    const world = makeWorld();
    addGround(world);
    const shape = new ConvexHull(boxCorners(0.5, 0.5, 0.5));
    const ids: number[] = [];
    for (let i = 0; i < 10; i++) ids.push(world.createBody({ position: { x: 0, y: 0.5 + i * 1.0, z: 0 }, collidable: { shape } }));
    steps(world, 600);
    for (let i = 0; i < 10; i++) {
      const p = pos(world, ids[i]);
      expect(Math.abs(p.y - (0.5 + i))).toBeLessThan(0.05);
      expect(Math.hypot(p.x, p.z)).toBeLessThan(0.05);
    }
  });
});
