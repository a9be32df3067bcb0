/** World queries (src/queries): point proximity, shape proximity, shape cast, filters. Analytic answers. */
import { describe, expect, it } from "vitest";
import { World } from "../../src/world/world";
import { MotionType } from "../../src/world/descriptions";
import { Box } from "../../src/shapes/box";
import { Capsule } from "../../src/shapes/capsule";
import { Compound } from "../../src/shapes/compound";
import { ConvexHull } from "../../src/shapes/convexHull";
import { Cylinder } from "../../src/shapes/cylinder";
import { Heightfield } from "../../src/shapes/heightfield";
import { Sphere } from "../../src/shapes/sphere";
import { TriangleMesh } from "../../src/shapes/triangleMesh";
import type { Shape } from "../../src/shapes/shape";
import { PointProximityResult } from "../../src/queries/pointProximity";
import { ShapeProximityResult } from "../../src/queries/shapeProximity";
import { ShapeCastResult } from "../../src/queries/shapeCast";
import type { QueryFilter } from "../../src/queries/queryFilter";

const C = { x: 1, y: 2, z: 3 };
const ID = { x: 0, y: 0, z: 0, w: 1 };

function rel(a: number, b: number): number {
  return Math.abs(a - b) / Math.max(Math.abs(b), 1e-3);
}

function boxHull(h: number): ConvexHull {
  const p: number[] = [];
  for (const x of [-h, h]) for (const y of [-h, h]) for (const z of [-h, h]) p.push(x, y, z);
  return new ConvexHull(p);
}
function quad(size: number): TriangleMesh {
  const s = size;
  return new TriangleMesh([-s, 0, -s, s, 0, -s, s, 0, s, -s, 0, s], [0, 2, 1, 0, 3, 2]);
}
function flatField(h: number): Heightfield {
  return new Heightfield(8, 8, 5, 5, new Array(25).fill(h));
}

/** name, shape, top surface height above its origin (straight up from the origin). */
const SHAPES: [string, () => Shape, number][] = [
  ["sphere", () => new Sphere(1), 1],
  ["box", () => new Box(1, 0.5, 2), 0.5],
  ["capsule", () => new Capsule(0.5, 1), 1.5],
  ["cylinder", () => new Cylinder(1, 1), 1],
  ["hull", () => boxHull(1), 1],
  ["compound", () => new Compound([{ shape: new Box(0.5, 0.5, 0.5), position: { x: 0, y: 1, z: 0 } }, { shape: new Sphere(0.5), position: { x: 3, y: 0, z: 0 } }]), 1.5],
  ["mesh", () => quad(4), 0],
  ["heightfield", () => flatField(0.5), 0.5],
];

function worldWith(shape: Shape, pos = C, extra: Partial<{ membership: number; collideWith: number; isTrigger: boolean }> = {}) {
  const w = new World({ gravity: { x: 0, y: 0, z: 0 } });
  const h = w.createBody({ motionType: MotionType.Static, position: pos, collidable: { shape, ...extra } });
  return { w, h };
}

describe("pointProximity per shape type", () => {
  const out = new PointProximityResult();
  const cases: [string, Shape, number[], number, number[]?][] = [
    // name, shape, point relative to C, signed distance, normal
    ["sphere out", new Sphere(1), [0, 0, 3], 2, [0, 0, 1]],
    ["sphere in", new Sphere(1), [0, 0.3, 0], -0.7, [0, 1, 0]],
    ["box out", new Box(1, 0.5, 2), [0, 2, 0], 1.5, [0, 1, 0]],
    ["box corner", new Box(1, 0.5, 2), [2, 1.5, 0], Math.SQRT2, [Math.SQRT1_2, Math.SQRT1_2, 0]],
    ["box in", new Box(1, 0.5, 2), [0, 0.2, 0], -0.3, [0, 1, 0]],
    ["capsule out", new Capsule(0.5, 1), [2, 0.5, 0], 1.5, [1, 0, 0]],
    ["capsule cap", new Capsule(0.5, 1), [0, 3, 0], 1.5, [0, 1, 0]],
    ["capsule in", new Capsule(0.5, 1), [0, 1.2, 0], -0.3, [0, 1, 0]],
    ["cylinder out", new Cylinder(1, 1), [3, 0, 0], 2, [1, 0, 0]],
    ["cylinder rim", new Cylinder(1, 1), [2, 2, 0], Math.SQRT2],
    ["cylinder in", new Cylinder(1, 1), [0, 0.8, 0], -0.2, [0, 1, 0]],
    ["hull out", boxHull(1), [0, 0, 3], 2, [0, 0, 1]],
    ["hull edge", boxHull(1), [2, 0, 2], Math.SQRT2],
    ["hull in", boxHull(1), [0.5, 0, 0], -0.5, [1, 0, 0]],
    ["compound out", new Compound([{ shape: new Sphere(1), position: { x: -2, y: 0, z: 0 } }, { shape: new Sphere(1), position: { x: 2, y: 0, z: 0 } }]), [2, 0, 2], 1, [0, 0, 1]],
    ["compound in", new Compound([{ shape: new Sphere(1), position: { x: -2, y: 0, z: 0 } }, { shape: new Sphere(1), position: { x: 2, y: 0, z: 0 } }]), [2.5, 0, 0], -0.5, [1, 0, 0]],
    ["mesh above", quad(4), [0.3, 0.7, -0.2], 0.7, [0, 1, 0]],
    ["mesh below", quad(4), [0.3, -0.7, -0.2], 0.7, [0, -1, 0]],
    ["heightfield above", flatField(0.5), [0.3, 1.7, 0.4], 1.2, [0, 1, 0]],
  ];
  for (const [name, shape, p, d, n] of cases) {
    it(name, () => {
      const { w, h } = worldWith(shape);
      const q = { x: C.x + p[0], y: C.y + p[1], z: C.z + p[2] };
      expect(w.queries.pointProximity(q, 10, {}, out)).toBe(true);
      expect(out.body).toBe(h);
      expect(rel(out.distance, d), `${name}: ${out.distance} vs ${d}`).toBeLessThan(1e-4);
      // The point lies at distance |d| from the query point along the normal.
      const ex = q.x - out.normal.x * d - out.point.x,
        ey = q.y - out.normal.y * d - out.point.y,
        ez = q.z - out.normal.z * d - out.point.z;
      expect(Math.hypot(ex, ey, ez)).toBeLessThan(1e-6);
      if (n) {
        expect(Math.abs(out.normal.x - n[0]) + Math.abs(out.normal.y - n[1]) + Math.abs(out.normal.z - n[2])).toBeLessThan(1e-6);
      }
      // Beyond maxDistance: nothing.
      if (d > 0) expect(w.queries.pointProximity(q, d * 0.9, {}, out)).toBe(false);
    });
  }
  it("rotated box", () => {
    const s = Math.SQRT1_2; // 90 degrees about z: the box's long x half (1) lies along world y
    const w = new World();
    w.createBody({ motionType: MotionType.Static, position: C, orientation: { x: 0, y: 0, z: s, w: s }, collidable: { shape: new Box(1, 0.5, 2) } });
    expect(w.queries.pointProximity({ x: C.x, y: C.y + 3, z: C.z }, 10, {}, out)).toBe(true);
    expect(out.distance).toBeCloseTo(2, 9);
    expect(out.normal.y).toBeCloseTo(1, 9);
  });
});

describe("shapeCast fraction per shape type (sphere r 0.5 and box half 0.5, 10 m down)", () => {
  const out: ShapeCastResult[] = [];
  for (const [name, make, top] of SHAPES) {
    for (const [qn, q] of [
      ["sphere", new Sphere(0.5)],
      ["box", new Box(0.5, 0.5, 0.5)],
    ] as const) {
      it(`${qn} onto ${name}`, () => {
        const { w, h } = worldWith(make());
        const start = { x: C.x, y: C.y + 6, z: C.z },
          end = { x: C.x, y: C.y - 4, z: C.z };
        expect(w.queries.shapeCast(q, ID, start, end, {}, out)).toBe(1);
        const f = (6 - top - 0.5) / 10;
        expect(out[0].body).toBe(h);
        expect(rel(out[0].fraction, f), `${out[0].fraction} vs ${f}`).toBeLessThan(1e-4);
        expect(out[0].normal.y).toBeCloseTo(1, 4);
        expect(out[0].point.y).toBeCloseTo(C.y + top, 4);
        expect(out[0].position.y).toBeCloseTo(C.y + top + 0.5, 4);
      });
    }
  }
  it("sphere onto sphere off-centre (curved contact)", () => {
    const { w } = worldWith(new Sphere(1));
    const n = w.queries.shapeCast(new Sphere(0.5), ID, { x: C.x + 0.6, y: C.y + 6, z: C.z }, { x: C.x + 0.6, y: C.y - 4, z: C.z }, {}, out);
    expect(n).toBe(1);
    const f = (6 - Math.sqrt(1.5 * 1.5 - 0.36)) / 10;
    expect(rel(out[0].fraction, f)).toBeLessThan(1e-4);
    expect(out[0].normal.x).toBeCloseTo(0.6 / 1.5, 4);
  });
  it("sphere r 0.5 from z=3 to z=-3 against a unit box gives 1/3", () => {
    const { w } = worldWith(new Box(0.5, 0.5, 0.5), { x: 0, y: 0, z: 0 });
    expect(w.queries.shapeCast(new Sphere(0.5), ID, { x: 0, y: 0, z: 3 }, { x: 0, y: 0, z: -3 }, {}, out)).toBe(1);
    expect(rel(out[0].fraction, 1 / 3)).toBeLessThan(1e-4);
    expect(out[0].point.z).toBeCloseTo(0.5, 5);
    expect(out[0].normal.z).toBeCloseTo(1, 6);
  });
  it("starting in contact: hit at 0 only when moving into the body", () => {
    const { w } = worldWith(new Box(0.5, 0.5, 0.5), { x: 0, y: 0, z: 0 });
    const s = new Sphere(0.5);
    expect(w.queries.shapeCast(s, ID, { x: 0, y: 0, z: 0.8 }, { x: 0, y: 0, z: -3 }, {}, out)).toBe(1);
    expect(out[0].fraction).toBe(0);
    expect(w.queries.shapeCast(s, ID, { x: 0, y: 0, z: 0.8 }, { x: 0, y: 0, z: 3 }, {}, out)).toBe(0);
    expect(w.queries.shapeCast(s, ID, { x: 0, y: 0, z: 0.8 }, { x: 3, y: 0, z: 0.8 }, {}, out)).toBe(0);
    expect(w.queries.shapeCast(s, ID, { x: 0, y: 0, z: 1 }, { x: 3, y: 0, z: 1 }, {}, out)).toBe(0);
  });
  it("all hits sorted by fraction", () => {
    const w = new World();
    const far = w.createBody({ motionType: MotionType.Static, position: { x: 0, y: 0, z: 6 }, collidable: { shape: new Box(0.5, 0.5, 0.5) } });
    const near = w.createBody({ motionType: MotionType.Static, position: { x: 0, y: 0, z: 3 }, collidable: { shape: new Box(0.5, 0.5, 0.5) } });
    w.createBody({ motionType: MotionType.Static, position: { x: 2, y: 0, z: 0 }, collidable: { shape: new Box(0.5, 0.5, 0.5) } });
    const n = w.queries.shapeCast(new Sphere(0.5), ID, { x: 0, y: 0, z: -2 }, { x: 0, y: 0, z: 10 }, {}, out, true);
    expect(n).toBe(2);
    expect(out[0].body).toBe(near);
    expect(out[1].body).toBe(far);
    expect(rel(out[0].fraction, 4 / 12)).toBeLessThan(1e-4);
    expect(rel(out[1].fraction, 7 / 12)).toBeLessThan(1e-4);
    expect(out[0].normal.z).toBeCloseTo(-1, 6);
  });
});

describe("shapeProximity", () => {
  it("as Havok's collectors: one hit per body, nearest first, distances and normals", () => {
    const w = new World();
    const mk = (x: number, z: number) =>
      w.createBody({ motionType: MotionType.Static, position: { x, y: 0, z }, collidable: { shape: new Box(0.5, 0.5, 0.5) } });
    const far = mk(0, 6),
      near = mk(0, 3),
      side = mk(2, 0);
    const out: ShapeProximityResult[] = [];
    const n = w.queries.shapeProximity(new Sphere(0.5), { x: 0, y: 0, z: 0 }, ID, 10, {}, out, true);
    expect(n).toBe(3);
    expect(out.slice(0, 3).map((r) => r.body)).toEqual([side, near, far]);
    expect(out.slice(0, 3).map((r) => +r.distance.toFixed(9))).toEqual([1, 2, 5]);
    expect(out[0].normal.x).toBeCloseTo(-1, 9);
    expect(out[0].point.x).toBeCloseTo(1.5, 9);
    expect(out[0].pointOnShape.x).toBeCloseTo(0.5, 9);
    expect(w.queries.shapeProximity(new Sphere(0.5), { x: 0, y: 0, z: 0 }, ID, 10, {}, out, false)).toBe(1);
    expect(out[0].body).toBe(side);
    expect(w.queries.shapeProximity(new Sphere(0.5), { x: 0, y: 0, z: 0 }, ID, 0.9, {}, out, true)).toBe(0);
  });
  it("penetration is negative; capsule against every shape type", () => {
    for (const [name, make, top] of SHAPES) {
      const { w } = worldWith(make());
      const out: ShapeProximityResult[] = [];
      const cap = new Capsule(0.4, 0.5);
      for (const gap of [0.3, -0.1]) {
        const y = C.y + top + 0.9 + gap;
        expect(w.queries.shapeProximity(cap, { x: C.x, y, z: C.z }, ID, 1, {}, out), name).toBe(1);
        expect(Math.abs(out[0].distance - gap), `${name} gap ${gap}: ${out[0].distance}`).toBeLessThan(1e-6);
        expect(out[0].normal.y, name).toBeCloseTo(1, 6);
      }
    }
  });
});

describe("filters, triggers and ignoreBody change the answer", () => {
  const setup = () => {
    const w = new World();
    const mk = (z: number, extra: object = {}) =>
      w.createBody({ motionType: MotionType.Static, position: { x: 0, y: 0, z }, collidable: { shape: new Box(0.5, 0.5, 0.5), ...extra } });
    const a = mk(2, { membership: 2, collideWith: 2 });
    const t = mk(4, { isTrigger: true });
    const c = mk(6);
    return { w, a, t, c };
  };
  const origin = { x: 0, y: 0, z: 0 };
  it("pointProximity", () => {
    const { w, a, t, c } = setup();
    const out = new PointProximityResult();
    const near = (f: QueryFilter) => (w.queries.pointProximity(origin, 20, f, out) ? out.body : -1);
    expect(near({})).toBe(a);
    expect(near({ collideWith: 1 })).toBe(c);
    expect(near({ membership: 1 })).toBe(c);
    expect(near({ ignoreBody: a })).toBe(c);
    expect(near({ ignoreBody: a, hitTriggers: true })).toBe(t);
  });
  it("shapeProximity", () => {
    const { w, a, t, c } = setup();
    const out: ShapeProximityResult[] = [];
    const list = (f: QueryFilter) => out.slice(0, w.queries.shapeProximity(new Sphere(0.25), origin, ID, 20, f, out, true)).map((r) => r.body);
    expect(list({})).toEqual([a, c]);
    expect(list({ hitTriggers: true })).toEqual([a, t, c]);
    expect(list({ collideWith: 1 })).toEqual([c]);
    expect(list({ ignoreBody: c })).toEqual([a]);
  });
  it("shapeCast", () => {
    const { w, a, t, c } = setup();
    const out: ShapeCastResult[] = [];
    const first = (f: QueryFilter) => (w.queries.shapeCast(new Sphere(0.25), ID, origin, { x: 0, y: 0, z: 10 }, f, out) ? out[0].body : -1);
    expect(first({})).toBe(a);
    expect(first({ membership: 1 })).toBe(c);
    expect(first({ ignoreBody: a })).toBe(c);
    expect(first({ ignoreBody: a, hitTriggers: true })).toBe(t);
  });
});

describe("allocation-free steady state", () => {
  it("repeated queries reuse the result objects", () => {
    const { w } = worldWith(new Box(1, 1, 1));
    const out: ShapeCastResult[] = [];
    w.queries.shapeCast(new Sphere(0.5), ID, { x: C.x, y: C.y + 5, z: C.z }, { x: C.x, y: C.y - 5, z: C.z }, {}, out, true);
    const first = out[0];
    for (let i = 0; i < 100; i++) w.queries.shapeCast(new Sphere(0.5), ID, { x: C.x, y: C.y + 5, z: C.z }, { x: C.x, y: C.y - 5, z: C.z }, {}, out, true);
    expect(out.length).toBe(1);
    expect(out[0]).toBe(first);
  });
});
