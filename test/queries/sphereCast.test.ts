/**
 * Shape casts with exact answers: the analytic sphere casts (sphereCast.ts) against each piece type, the GJK
 * conservative-advancement cast (convexCast.ts) for other query shapes, and the swept-box tree traversal.
 *
 * Tolerances:
 * - EXACT (1e-9): closed-form casts (sphere, capsule, box faces/edges/corners, triangles) solve one quadratic or
 *   linear equation; the only error is rounding on numbers of order 10.
 * - NEWTON (1e-8): cylinder rims and hull edges/corners stop Newton's method once the gap is below 1e-10 m, so
 *   the fraction is early by at most 1e-10 / (closing speed) on a 10 m cast; rounding of GJK's closest point
 *   (relative 1e-10 of distances of order 1) comes on top.
 * - CA (1e-7): the GJK cast stops at a 1e-9 m gap (or at GJK's touching threshold); its contact data come from
 *   the proximity query at that pose, so normals and points are good to about the same.
 */
import { describe, expect, it } from "vitest";
import { World } from "../../src/world/world";
import { MotionType } from "../../src/world/descriptions";
import { Box } from "../../src/shapes/box";
import { Capsule } from "../../src/shapes/capsule";
import { ConvexHull } from "../../src/shapes/convexHull";
import { Cylinder } from "../../src/shapes/cylinder";
import { Sphere } from "../../src/shapes/sphere";
import { TriangleMesh } from "../../src/shapes/triangleMesh";
import type { Shape } from "../../src/shapes/shape";
import { ShapeCastResult } from "../../src/queries/shapeCast";

const EXACT = 1e-9;
const NEWTON = 1e-8;
const CA = 1e-7;
const ID = { x: 0, y: 0, z: 0, w: 1 };
type V = [number, number, number];
type Q = { x: number; y: number; z: number; w: number };

function worldWith(shape: Shape, orientation: Q = ID): { w: World; h: number } {
  const w = new World();
  const h = w.createBody({ motionType: MotionType.Static, position: { x: 0, y: 0, z: 0 }, orientation, collidable: { shape } });
  return { w, h };
}

function boxHull(hx: number, hy: number, hz: number): ConvexHull {
  const p: number[] = [];
  for (const x of [-hx, hx]) for (const y of [-hy, hy]) for (const z of [-hz, hz]) p.push(x, y, z);
  return new ConvexHull(p);
}

const out: ShapeCastResult[] = [];

/** Casts `query` from `from` to `to` against the single body and checks fraction, normal and point. */
function expectCast(shape: Shape, query: Shape, from: V, to: V, f: number, n: V, p: V, tol: number, orientation: Q = ID): ShapeCastResult {
  const { w, h } = worldWith(shape, orientation);
  const cnt = w.queries.shapeCast(query, ID, { x: from[0], y: from[1], z: from[2] }, { x: to[0], y: to[1], z: to[2] }, {}, out);
  expect(cnt).toBe(1);
  const r = out[0];
  expect(r.body).toBe(h);
  expect(Math.abs(r.fraction - f), `fraction ${r.fraction} vs ${f}`).toBeLessThan(tol);
  const nl = Math.hypot(...n);
  expect(Math.abs(r.normal.x - n[0] / nl) + Math.abs(r.normal.y - n[1] / nl) + Math.abs(r.normal.z - n[2] / nl), `normal ${JSON.stringify(r.normal)}`).toBeLessThan(10 * tol);
  expect(Math.abs(r.point.x - p[0]) + Math.abs(r.point.y - p[1]) + Math.abs(r.point.z - p[2]), `point ${JSON.stringify(r.point)}`).toBeLessThan(10 * tol);
  for (const k of ["x", "y", "z"] as const) expect(r.position[k]).toBeCloseTo(from["xyz".indexOf(k)] + f * (to["xyz".indexOf(k)] - from["xyz".indexOf(k)]), 6);
  return r;
}

describe("sphere cast, analytic", () => {
  const s = new Sphere(0.5);
  it("sphere off-centre: |c - 0| = 1.5 at y = sqrt(1.89)", () => {
    const y = Math.sqrt(1.89);
    expectCast(new Sphere(1), s, [0.6, 6, 0], [0.6, -4, 0], (6 - y) / 10, [0.6, y, 0], [0.6 / 1.5, y / 1.5, 0], EXACT);
  });
  it("box face, rotated box (long axis along world y)", () => {
    const q = { x: 0, y: 0, z: Math.SQRT1_2, w: Math.SQRT1_2 };
    expectCast(new Box(2, 0.5, 0.5), new Sphere(0.25), [0.1, 5, 0.2], [0.1, -5, 0.2], (5 - 2.25) / 10, [0, 1, 0], [0.1, 2, 0.2], EXACT, q);
  });
  it("box edge: centre 0.5 from the edge (1, 1, z) at x = 1.4", () => {
    // y = 1.3 is 0.3 above the top face, inside the grown slab: the slab entry at x = 1.5 is in the edge region.
    expectCast(new Box(1, 1, 1), s, [5, 1.3, 0], [-5, 1.3, 0], 0.36, [0.4, 0.3, 0], [1, 1, 0], EXACT);
  });
  it("box corner: centre 0.5 from (1, 1, 1) at x = 1 + sqrt(0.12)", () => {
    const x = 1 + Math.sqrt(0.12);
    expectCast(new Box(1, 1, 1), s, [5, 1.3, 1.2], [-5, 1.3, 1.2], (5 - x) / 10, [x - 1, 0.3, 0.2], [1, 1, 1], EXACT);
  });
  it("box: passing the corner 0.501 away misses", () => {
    const { w } = worldWith(new Box(1, 1, 1));
    const y = 1 + 0.501 * Math.SQRT1_2;
    expect(w.queries.shapeCast(s, ID, { x: 5, y, z: y }, { x: -5, y, z: y }, {}, out)).toBe(0);
  });
  it("capsule end hemisphere and side", () => {
    const c = new Capsule(0.3, 0.4);
    const r = new Sphere(0.25);
    const y = Math.sqrt(0.55 * 0.55 - 0.04);
    expectCast(c, r, [0.2, 5, 0], [0.2, -5, 0], (5 - 0.4 - y) / 10, [0.2, y, 0], [(0.2 * 0.3) / 0.55, 0.4 + (y * 0.3) / 0.55, 0], EXACT);
    expectCast(c, r, [5, 0.1, 0], [-5, 0.1, 0], (5 - 0.55) / 10, [1, 0, 0], [0.3, 0.1, 0], EXACT);
  });
  it("cylinder side and cap (exact from the bounding cast)", () => {
    const c = new Cylinder(0.4, 0.4);
    const r = new Sphere(0.25);
    expectCast(c, r, [5, 0.2, 0], [-5, 0.2, 0], (5 - 0.65) / 10, [1, 0, 0], [0.4, 0.2, 0], EXACT);
    expectCast(c, r, [0.1, 5, -0.1], [0.1, -5, -0.1], (5 - 0.65) / 10, [0, 1, 0], [0.1, 0.4, -0.1], EXACT);
  });
  it("cylinder rim (torus part, Newton): rho 0.5 = 0.1 beyond the rim", () => {
    const c = new Cylinder(0.4, 0.4);
    const r = new Sphere(0.25);
    const y = 0.4 + Math.sqrt(0.0525);
    // Off the xy plane: (x, z) = (0.3, 0.4), rim point (0.24, 0.4, 0.32).
    expectCast(c, r, [0.3, 5, 0.4], [0.3, -5, 0.4], (5 - y) / 10, [0.06, y - 0.4, 0.08], [0.24, 0.4, 0.32], NEWTON);
  });
  it("hull edge and corner (Newton with GJK) agree with the box", () => {
    expectCast(boxHull(1, 1, 1), s, [5, 1.3, 0], [-5, 1.3, 0], 0.36, [0.4, 0.3, 0], [1, 1, 0], NEWTON);
    const x = 1 + Math.sqrt(0.12);
    expectCast(boxHull(1, 1, 1), s, [5, 1.3, 1.2], [-5, 1.3, 1.2], (5 - x) / 10, [x - 1, 0.3, 0.2], [1, 1, 1], NEWTON);
    // A face: exact from the pushed-out planes.
    expectCast(boxHull(1, 1, 1), s, [0.2, 0.3, 6], [0.2, 0.3, -4], 0.45, [0, 0, 1], [0.2, 0.3, 1], EXACT);
  });
  it("triangle: face from either side, edge, corner; childIndex is the triangle", () => {
    // Two triangles; the cast meets the second (index 1).
    const mesh = new TriangleMesh([0, 0, 0, 2, 0, 0, 0, 0, 2, 5, 0, 5], [0, 1, 2, 1, 3, 2]);
    const r = new Sphere(0.25);
    expectCast(mesh, r, [0.5, 5, 0.5], [0.5, -5, 0.5], (5 - 0.25) / 10, [0, 1, 0], [0.5, 0, 0.5], EXACT);
    expectCast(mesh, r, [0.5, -5, 0.5], [0.5, 5, 0.5], (5 - 0.25) / 10, [0, -1, 0], [0.5, 0, 0.5], EXACT);
    // Edge (0,0,0)-(2,0,0) with the centre 0.15 beyond it: y = 0.2.
    expectCast(mesh, r, [1, 5, -0.15], [1, -5, -0.15], 0.48, [0, 0.2, -0.15], [1, 0, 0], EXACT);
    // Corner (0,0,0): centre (-0.1, y, -0.1), y = sqrt(0.0625 - 0.02).
    const y = Math.sqrt(0.0425);
    expectCast(mesh, r, [-0.1, 5, -0.1], [-0.1, -5, -0.1], (5 - y) / 10, [-0.1, y, -0.1], [0, 0, 0], EXACT);
    const hit = expectCast(mesh, r, [3, 5, 3], [3, -5, 3], 0.475, [0, 1, 0], [3, 0, 3], EXACT);
    expect(hit.childIndex).toBe(1);
  });
});

describe("mesh walk along the path", () => {
  // A 40 x 40 m grid of 2 x 2 m quads at y = 0 with one raised vertex (a tent at (-11, -11), 1 m high).
  const n = 20,
    pos: number[] = [],
    idx: number[] = [];
  for (let i = 0; i <= n; i++) for (let j = 0; j <= n; j++) pos.push(-20 + 2 * i, i === 4 && j === 4 ? 1 : 0, -20 + 2 * j);
  for (let i = 0; i < n; i++)
    for (let j = 0; j < n; j++) {
      const a = i * (n + 1) + j;
      idx.push(a, a + 1, a + n + 2, a, a + n + 2, a + n + 1);
    }
  const mesh = new TriangleMesh(pos, idx);
  it("a long descending cast lands on the flat part at the analytic fraction", () => {
    const { w } = worldWith(mesh);
    expect(w.queries.shapeCast(new Sphere(0.25), ID, { x: -5, y: 5, z: -5 }, { x: 15, y: -5, z: 15 }, {}, out)).toBe(1);
    expect(Math.abs(out[0].fraction - 0.475)).toBeLessThan(EXACT);
    expect(out[0].normal.y).toBeCloseTo(1, 12);
  });
  it("the tent met early on a long cast wins over the floor further on", () => {
    const { w } = worldWith(mesh);
    // Along +x at z = -12, through the tent (apex (-12, 1, -12), faces sloping 1 in 2), 0.25 clear of the floor.
    expect(w.queries.shapeCast(new Sphere(0.25), ID, { x: -19, y: 0.5, z: -12 }, { x: 19, y: 0.5, z: -12 }, {}, out)).toBe(1);
    expect(out[0].normal.x).toBeLessThan(0);
    expect(out[0].point.x).toBeLessThan(-12);
    expect(out[0].point.x).toBeGreaterThan(-14);
  });
});

describe("GJK cast (other query shapes)", () => {
  it("horizontal capsule onto a sphere: the segment end touches first", () => {
    // Capsule axis along world x (90 degrees about z), centre x = 1: segment x in [0.5, 1.5], radius 0.25.
    const q = { x: 0, y: 0, z: Math.SQRT1_2, w: Math.SQRT1_2 };
    const { w, h } = worldWith(new Sphere(1));
    const y = Math.sqrt(1.25 * 1.25 - 0.25);
    expect(w.queries.shapeCast(new Capsule(0.25, 0.5), q, { x: 1, y: 5, z: 0 }, { x: 1, y: -5, z: 0 }, {}, out)).toBe(1);
    expect(out[0].body).toBe(h);
    expect(Math.abs(out[0].fraction - (5 - y) / 10)).toBeLessThan(CA);
    expect(out[0].normal.x).toBeCloseTo(0.5 / 1.25, 6);
    expect(out[0].normal.y).toBeCloseTo(y / 1.25, 6);
    expect(out[0].point.x).toBeCloseTo(0.5 / 1.25, 6);
    expect(out[0].pointOnShape.x).toBeCloseTo(0.5 - (0.25 * 0.5) / 1.25, 6);
  });
  it("box onto a box corner-first (rotated 45 degrees about z): fraction to the corner", () => {
    const s = Math.sin(Math.PI / 8),
      c = Math.cos(Math.PI / 8);
    const { w } = worldWith(new Box(1, 1, 1));
    // The query box's lowest edge is sqrt(2) * 0.5 below its centre.
    expect(w.queries.shapeCast(new Box(0.5, 0.5, 0.5), { x: 0, y: 0, z: s, w: c }, { x: 0.2, y: 6, z: 0 }, { x: 0.2, y: -4, z: 0 }, {}, out)).toBe(1);
    expect(Math.abs(out[0].fraction - (5 - 0.5 * Math.SQRT2) / 10)).toBeLessThan(CA);
    expect(out[0].normal.y).toBeCloseTo(1, 6);
    expect(out[0].point.y).toBeCloseTo(1, 6);
  });
});

describe("swept-box traversal", () => {
  it("a body off the centre line but within the sphere's reach is found", () => {
    const w = new World();
    const h = w.createBody({ motionType: MotionType.Static, position: { x: 5, y: 1.05, z: 0 }, collidable: { shape: new Box(0.1, 0.1, 0.1) } });
    expect(w.queries.shapeCast(new Sphere(1), ID, { x: 0, y: 0, z: 0 }, { x: 10, y: 0, z: 0 }, {}, out)).toBe(1);
    expect(out[0].body).toBe(h);
    // Edge (x = 4.9, y = 0.95): (4.9 - x)^2 + 0.95^2 = 1.
    expect(Math.abs(out[0].fraction - (4.9 - Math.sqrt(0.0975)) / 10)).toBeLessThan(EXACT);
  });
  it("nearest of a row, and every hit with all = true", () => {
    const w = new World();
    const hs: number[] = [];
    for (let i = 0; i < 20; i++) hs.push(w.createBody({ motionType: MotionType.Static, position: { x: 19 - i, y: 0, z: 0 }, collidable: { shape: new Sphere(0.2) } }));
    const q = new Sphere(0.3);
    expect(w.queries.shapeCast(q, ID, { x: -3, y: 0.1, z: 0 }, { x: 25, y: 0.1, z: 0 }, {}, out)).toBe(1);
    expect(out[0].body).toBe(hs[19]);
    const x = -Math.sqrt(0.25 - 0.01);
    expect(Math.abs(out[0].fraction - (x + 3) / 28)).toBeLessThan(EXACT);
    expect(w.queries.shapeCast(q, ID, { x: -3, y: 0.1, z: 0 }, { x: 25, y: 0.1, z: 0 }, {}, out, true)).toBe(20);
    for (let i = 0; i < 20; i++) expect(out[i].body).toBe(hs[19 - i]);
  });
  it("equal fractions: the lower body handle wins", () => {
    const w = new World();
    const a = w.createBody({ motionType: MotionType.Static, position: { x: 5, y: 1, z: 0 }, collidable: { shape: new Box(0.5, 0.5, 0.5) } });
    w.createBody({ motionType: MotionType.Static, position: { x: 5, y: -1, z: 0 }, collidable: { shape: new Box(0.5, 0.5, 0.5) } });
    expect(w.queries.shapeCast(new Sphere(0.6), ID, { x: 0, y: 0, z: 0 }, { x: 10, y: 0, z: 0 }, {}, out)).toBe(1);
    expect(out[0].body).toBe(a);
  });
});
