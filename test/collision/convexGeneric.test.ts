import { describe, expect, it } from "vitest";
import { ContactManifold } from "../../src/collision/contactManifold";
import { collideConvexGeneric } from "../../src/collision/convexGeneric";
import { Pose } from "../../src/math/pose";
import { Box } from "../../src/shapes/box";
import { Capsule } from "../../src/shapes/capsule";
import { ConvexHull } from "../../src/shapes/convexHull";
import { Cylinder } from "../../src/shapes/cylinder";
import type { ConvexShape } from "../../src/shapes/shape";
import { Sphere } from "../../src/shapes/sphere";

function pose(x: number, y: number, z: number, ax = 0, ay = 1, az = 0, angle = 0): Pose {
  const l = Math.hypot(ax, ay, az) || 1;
  const s = Math.sin(angle / 2) / l;
  return new Pose().set(x, y, z, ax * s, ay * s, az * s, Math.cos(angle / 2));
}

interface Pt {
  x: number;
  y: number;
  z: number;
  depth: number;
  id: number;
}

function collide(a: ConvexShape, pa: Pose, b: ConvexShape, pb: Pose, margin = 0.05): ContactManifold {
  const m = new ContactManifold();
  collideConvexGeneric(a, pa, b, pb, margin, m);
  return m;
}

function pts(m: ContactManifold): Pt[] {
  const r: Pt[] = [];
  for (let i = 0; i < m.count; i++) {
    r.push({ x: m.positionX[i], y: m.positionY[i], z: m.positionZ[i], depth: m.depth[i], id: m.featureId[i] });
  }
  return r;
}

function sortedPts(m: ContactManifold): Pt[] {
  const key = (v: number): number => Math.round(v * 1e6);
  return pts(m).sort((a, b) => key(a.x) - key(b.x) || key(a.z) - key(b.z) || key(a.y) - key(b.y));
}

function expectNormal(m: ContactManifold, x: number, y: number, z: number, digits = 6): void {
  expect(m.normalX).toBeCloseTo(x, digits);
  expect(m.normalY).toBeCloseTo(y, digits);
  expect(m.normalZ).toBeCloseTo(z, digits);
}

function maxSpread(p: Pt[]): number {
  let d = 0;
  for (const a of p) for (const b of p) d = Math.max(d, Math.hypot(a.x - b.x, a.y - b.y, a.z - b.z));
  return d;
}

/** Signed distance from world point (x, y, z) to shape s at pose p (exact for the four primitives). */
function sdf(s: ConvexShape, p: Pose, x: number, y: number, z: number): number {
  // Into the local frame: conj(q) * (point - position).
  const dx = x - p.px,
    dy = y - p.py,
    dz = z - p.pz;
  const qx = -p.qx,
    qy = -p.qy,
    qz = -p.qz,
    qw = p.qw;
  const tx = 2 * (qy * dz - qz * dy),
    ty = 2 * (qz * dx - qx * dz),
    tz = 2 * (qx * dy - qy * dx);
  const lx = dx + qw * tx + (qy * tz - qz * ty),
    ly = dy + qw * ty + (qz * tx - qx * tz),
    lz = dz + qw * tz + (qx * ty - qy * tx);
  if (s instanceof Sphere) return Math.hypot(lx, ly, lz) - s.radius;
  if (s instanceof Capsule) return Math.hypot(lx, Math.max(Math.abs(ly) - s.halfLength, 0), lz) - s.radius;
  if (s instanceof Box) {
    const qx2 = Math.abs(lx) - s.halfX,
      qy2 = Math.abs(ly) - s.halfY,
      qz2 = Math.abs(lz) - s.halfZ;
    return Math.hypot(Math.max(qx2, 0), Math.max(qy2, 0), Math.max(qz2, 0)) + Math.min(Math.max(qx2, qy2, qz2), 0);
  }
  if (s instanceof Cylinder) {
    const a = Math.hypot(lx, lz) - s.radius,
      b = Math.abs(ly) - s.halfHeight;
    return Math.hypot(Math.max(a, 0), Math.max(b, 0)) + Math.min(Math.max(a, b), 0);
  }
  throw new Error("unknown shape");
}

/** Checks that each contact's point on A (p + n d/2) lies on A's surface and its point on B on B's. */
function expectOnSurfaces(m: ContactManifold, a: ConvexShape, pa: Pose, b: ConvexShape, pb: Pose, tol: number): void {
  for (let k = 0; k < m.count; k++) {
    const h = m.depth[k] / 2;
    const ax = m.positionX[k] + m.normalX * h,
      ay = m.positionY[k] + m.normalY * h,
      az = m.positionZ[k] + m.normalZ * h;
    const bx = m.positionX[k] - m.normalX * h,
      by = m.positionY[k] - m.normalY * h,
      bz = m.positionZ[k] - m.normalZ * h;
    const ea = Math.abs(sdf(a, pa, ax, ay, az)),
      eb = Math.abs(sdf(b, pb, bx, by, bz));
    if (!(ea < tol && eb < tol)) {
      throw new Error(
        `contact ${k} off the surfaces (A ${ea}, B ${eb}): ${a.constructor.name} ${JSON.stringify(pa)} vs ${b.constructor.name} ${JSON.stringify(pb)}; id ${m.featureId[k].toString(16)} depth ${m.depth[k]} n ${m.normalX},${m.normalY},${m.normalZ} count ${m.count}`,
      );
    }
  }
}

const cyl = new Cylinder(0.5, 0.5);
const floor = new Box(5, 0.5, 5);
const floorPose = pose(0, -0.5, 0); // top face at y = 0

describe("collideConvexGeneric: cylinder on a floor", () => {
  it("upright cylinder resting exactly: four contacts spread over the cap, depth 0, normal -Y", () => {
    const m = collide(cyl, pose(0, 0.5, 0), floor, floorPose);
    expect(m.count).toBe(4);
    expectNormal(m, 0, -1, 0);
    const p = pts(m);
    for (const c of p) {
      expect(c.depth).toBeCloseTo(0, 6);
      expect(c.y).toBeCloseTo(0, 6);
      expect(Math.hypot(c.x, c.z)).toBeLessThanOrEqual(0.5 + 1e-9);
    }
    // Spread across the cap: a diagonal of the inscribed square.
    expect(maxSpread(p)).toBeCloseTo(1, 6);
    expect(new Set(p.map((c) => c.id)).size).toBe(4);
  });

  it("upright cylinder slightly sunk: depth is the penetration, positions are midpoints", () => {
    const m = collide(cyl, pose(0.3, 0.49, -0.2), floor, floorPose);
    expect(m.count).toBe(4);
    expectNormal(m, 0, -1, 0);
    for (const c of pts(m)) {
      expect(c.depth).toBeCloseTo(0.01, 6);
      expect(c.y).toBeCloseTo(-0.005, 6);
      expect(Math.hypot(c.x - 0.3, c.z + 0.2)).toBeLessThanOrEqual(0.5 + 1e-9);
    }
  });

  it("cylinder on a box smaller than its cap: the box's top face corners", () => {
    const m = collide(cyl, pose(0, 0.49, 0), new Box(0.2, 0.5, 0.1), pose(0, -0.5, 0));
    expect(m.count).toBe(4);
    expectNormal(m, 0, -1, 0);
    for (const c of sortedPts(m)) {
      expect(Math.abs(c.x)).toBeCloseTo(0.2, 6);
      expect(Math.abs(c.z)).toBeCloseTo(0.1, 6);
      expect(c.depth).toBeCloseTo(0.01, 6);
    }
  });

  it("lying cylinder: two contacts at the ends of the side line", () => {
    // Axis along z (local +Y rotated onto +Z).
    const m = collide(cyl, pose(0.1, 0.49, 0, 1, 0, 0, Math.PI / 2), floor, floorPose);
    expect(m.count).toBe(2);
    expectNormal(m, 0, -1, 0);
    const p = sortedPts(m);
    expect(p[0].z).toBeCloseTo(-0.5, 6);
    expect(p[1].z).toBeCloseTo(0.5, 6);
    for (const c of p) {
      expect(c.x).toBeCloseTo(0.1, 5);
      expect(c.depth).toBeCloseTo(0.01, 6);
      expect(c.y).toBeCloseTo(-0.005, 6);
    }
  });

  it("hovering cylinder: speculative contacts at depth -gap inside the margin, none outside", () => {
    const m = collide(cyl, pose(0, 0.7, 0), floor, floorPose, 0.3);
    expect(m.count).toBe(4);
    expectNormal(m, 0, -1, 0);
    for (const c of pts(m)) {
      expect(c.depth).toBeCloseTo(-0.2, 6);
      expect(c.y).toBeCloseTo(0.1, 6);
    }
    expect(collide(cyl, pose(0, 0.7, 0), floor, floorPose, 0.1).count).toBe(0);
  });

  it("cylinder tilted onto its rim: one contact at the rim point", () => {
    const t = Math.PI / 6;
    const low = 0.5 * Math.cos(t) + 0.5 * Math.sin(t); // centre height when the rim touches y = 0
    const m = collide(cyl, pose(0, low - 0.01, 0, 0, 0, 1, t), floor, floorPose, 0);
    expect(m.count).toBe(1);
    expectNormal(m, 0, -1, 0);
    expect(m.depth[0]).toBeCloseTo(0.01, 6);
    // Rotating +30 degrees about z moves the bottom cap centre to (0.5 sin t, -0.5 cos t); its lowest
    // rim point lies a radius further along the rotated local -x, (-cos t, -sin t).
    expect(m.positionX[0]).toBeCloseTo(0.5 * Math.sin(t) - 0.5 * Math.cos(t), 5);
    expect(m.positionY[0]).toBeCloseTo(-0.005, 6);
  });

  it("slightly tilted cylinder keeps the deepest rim point and speculative points from the cap", () => {
    const t = 0.02; // ~1.1 degrees: still a cap-on-face contact
    const low = 0.5 * Math.cos(t) + 0.5 * Math.sin(t);
    const m = collide(cyl, pose(0, low - 0.005, 0, 1, 0, 0, t), floor, floorPose, 0.05);
    expect(m.count).toBeGreaterThanOrEqual(3);
    expectNormal(m, 0, -1, 0);
    let deepest = -Infinity;
    for (const c of pts(m)) deepest = Math.max(deepest, c.depth);
    expect(deepest).toBeCloseTo(0.005, 6);
  });

  it("feature ids are identical across two slightly perturbed poses", () => {
    const m1 = collide(cyl, pose(0, 0.495, 0), floor, floorPose);
    const m2 = collide(cyl, pose(1e-4, 0.4948, -2e-4, 1, 0, 1, 1e-5), floor, floorPose);
    expect(m1.count).toBe(4);
    expect(m2.count).toBe(4);
    const ids1 = pts(m1).map((c) => c.id);
    const ids2 = pts(m2).map((c) => c.id);
    expect(ids2).toEqual(ids1);
    // And the same for a lying cylinder.
    const l1 = collide(cyl, pose(0, 0.495, 0, 1, 0, 0, Math.PI / 2), floor, floorPose);
    const l2 = collide(cyl, pose(2e-4, 0.4947, 1e-4, 1, 0, 0, Math.PI / 2 + 1e-5), floor, floorPose);
    expect(pts(l2).map((c) => c.id)).toEqual(pts(l1).map((c) => c.id));
  });

  it("swapping A and B flips the normal and keeps the contacts", () => {
    // Configurations with at most four candidate points: the same contacts either way round.
    const small = new Box(0.2, 0.5, 0.1);
    const cases: [ConvexShape, Pose, ConvexShape, Pose][] = [
      [cyl, pose(0.02, 0.48, 0.01, 0, 1, 0, 0.3), small, pose(0, -0.5, 0)],
      [cyl, pose(0.1, 0.49, 0, 1, 0, 0, Math.PI / 2), floor, floorPose],
      [new Sphere(0.25), pose(0.7, 0.1, 0), cyl, pose(0, 0, 0)],
      [cyl, pose(0, 0, 0), new Box(1, 1, 1), pose(1.3, 0, 0)],
    ];
    for (const [a, pa, b, pb] of cases) {
      const m1 = collide(a, pa, b, pb);
      const m2 = collide(b, pb, a, pa);
      expect(m1.count).toBeGreaterThan(0);
      expect(m2.count).toBe(m1.count);
      expectNormal(m2, -m1.normalX, -m1.normalY, -m1.normalZ);
      const s1 = sortedPts(m1),
        s2 = sortedPts(m2);
      for (let i = 0; i < s1.length; i++) {
        expect(s2[i].x).toBeCloseTo(s1[i].x, 6);
        expect(s2[i].y).toBeCloseTo(s1[i].y, 6);
        expect(s2[i].z).toBeCloseTo(s1[i].z, 6);
        expect(s2[i].depth).toBeCloseTo(s1[i].depth, 6);
      }
    }
    // Cap on a big floor: eight candidates, reduced differently, but the same normal and depth.
    const pc = pose(0.2, 0.48, 0.1, 0, 1, 0, 0.3);
    const m1 = collide(cyl, pc, floor, floorPose);
    const m2 = collide(floor, floorPose, cyl, pc);
    expectNormal(m1, 0, -1, 0);
    expectNormal(m2, 0, 1, 0);
    expect(m2.count).toBe(4);
    for (const c of [...pts(m1), ...pts(m2)]) {
      expect(c.depth).toBeCloseTo(0.02, 6);
      expect(Math.hypot(c.x - 0.2, c.z - 0.1)).toBeCloseTo(0.5, 6);
    }
  });
});

describe("collideConvexGeneric: other pairs with a cylinder", () => {
  it("sphere against the cylinder side", () => {
    const m = collide(new Sphere(0.25), pose(0.7, 0.1, 0), cyl, pose(0, 0, 0));
    expect(m.count).toBe(1);
    expectNormal(m, -1, 0, 0);
    expect(m.depth[0]).toBeCloseTo(0.05, 6);
    // Sphere surface at x = 0.45, cylinder side at x = 0.5: midpoint 0.475.
    expect(m.positionX[0]).toBeCloseTo(0.475, 6);
    expect(m.positionY[0]).toBeCloseTo(0.1, 6);
  });

  it("sphere on the cylinder cap (separated, speculative)", () => {
    const m = collide(new Sphere(0.25), pose(0.1, 0.77, 0.2), cyl, pose(0, 0, 0), 0.1);
    expect(m.count).toBe(1);
    expectNormal(m, 0, -1, 0);
    expect(m.depth[0]).toBeCloseTo(-0.02, 6);
    expect(m.positionX[0]).toBeCloseTo(0.1, 6);
    expect(m.positionY[0]).toBeCloseTo(0.51, 6);
    expect(m.positionZ[0]).toBeCloseTo(0.2, 6);
  });

  it("sphere against the cap rim (curved edge)", () => {
    // Sphere centre diagonally off the rim at (0.5, 0.5, 0).
    const c = 0.3 / Math.SQRT2;
    const m = collide(new Sphere(0.25), pose(0.5 + c, 0.5 + c, 0), cyl, pose(0, 0, 0), 0.1);
    expect(m.count).toBe(1);
    expectNormal(m, -Math.SQRT1_2, -Math.SQRT1_2, 0);
    expect(m.depth[0]).toBeCloseTo(-0.05, 6);
  });

  it("stacked cylinders: cap on cap, also turned about the axis", () => {
    const m = collide(cyl, pose(0.1, 0.99, 0), cyl, pose(0, 0, 0));
    expect(m.count).toBe(4);
    expectNormal(m, 0, -1, 0);
    for (const c of pts(m)) {
      expect(c.depth).toBeCloseTo(0.01, 6);
      expect(c.y).toBeCloseTo(0.495, 6);
    }
    const t = collide(cyl, pose(0, 0.99, 0, 0, 1, 0, 0.3), cyl, pose(0, 0, 0));
    expect(t.count).toBe(4);
    expectNormal(t, 0, -1, 0);
    for (const c of pts(t)) expect(c.depth).toBeCloseTo(0.01, 6);
    expect(maxSpread(pts(t))).toBeGreaterThan(0.9);
  });

  it("cylinders side by side with parallel axes: a line contact", () => {
    const m = collide(cyl, pose(0, 0, 0), cyl, pose(0.98, 0.2, 0));
    expect(m.count).toBe(2);
    expectNormal(m, 1, 0, 0, 4);
    const p = sortedPts(m);
    expect(Math.min(p[0].y, p[1].y)).toBeCloseTo(-0.3, 4);
    expect(Math.max(p[0].y, p[1].y)).toBeCloseTo(0.5, 4);
    for (const c of p) expect(c.depth).toBeCloseTo(0.02, 4);
  });

  it("box face against the cylinder side (EPA on a curved CSO)", () => {
    const m = collide(cyl, pose(0, 0, 0), new Box(1, 1, 1), pose(1.3, 0, 0));
    expect(m.count).toBe(2);
    expectNormal(m, 1, 0, 0);
    for (const c of pts(m)) {
      expect(c.depth).toBeCloseTo(0.2, 6);
      expect(c.x).toBeCloseTo(0.4, 6);
      expect(Math.abs(c.y)).toBeCloseTo(0.5, 6);
    }
  });

  it("capsule lying along the cylinder side: two contacts", () => {
    const m = collide(cyl, pose(0, 0, 0), new Capsule(0.1, 0.3), pose(0.55, 0, 0));
    expect(m.count).toBe(2);
    expectNormal(m, 1, 0, 0, 4);
    const p = sortedPts(m);
    for (const c of p) {
      expect(c.depth).toBeCloseTo(0.05, 5);
      expect(c.x).toBeCloseTo(0.475, 5);
    }
    expect(Math.abs(p[0].y - p[1].y)).toBeCloseTo(0.6, 5);
  });

  it("capsule standing on a cylinder cap: one contact", () => {
    const m = collide(new Capsule(0.1, 0.3), pose(0.1, 0.88, 0), cyl, pose(0, 0, 0));
    expect(m.count).toBe(1);
    expectNormal(m, 0, -1, 0);
    expect(m.depth[0]).toBeCloseTo(0.02, 6);
  });

  it("capsule lying on a cylinder cap: two contacts at the segment ends", () => {
    const m = collide(new Capsule(0.1, 0.3), pose(0, 0.59, 0, 0, 0, 1, Math.PI / 2), cyl, pose(0, 0, 0));
    expect(m.count).toBe(2);
    expectNormal(m, 0, -1, 0);
    const p = sortedPts(m);
    expect(p[0].x).toBeCloseTo(-0.3, 6);
    expect(p[1].x).toBeCloseTo(0.3, 6);
    for (const c of p) expect(c.depth).toBeCloseTo(0.01, 6);
  });

  it("box resting on a box (generic path) gives four face contacts", () => {
    const m = collide(new Box(0.5, 0.5, 0.5), pose(0, 0.49, 0, 0, 1, 0, 0.4), floor, floorPose);
    expect(m.count).toBe(4);
    expectNormal(m, 0, -1, 0);
    for (const c of pts(m)) expect(c.depth).toBeCloseTo(0.01, 6);
  });

  it("deep overlap at coincident centres still returns a finite manifold", () => {
    const m = collide(cyl, pose(0, 0, 0), new Sphere(0.2), pose(0, 0, 0));
    expect(m.count).toBeGreaterThanOrEqual(1);
    expect(Number.isFinite(m.depth[0])).toBe(true);
    // Side and cap are equally deep (0.5 + 0.2): EPA refines the round side until its iteration cap,
    // so this pathological case is only accurate to ~1e-3.
    expect(Math.abs(m.depth[0] - 0.7)).toBeLessThan(1e-3);
    expect(Math.hypot(m.normalX, m.normalY, m.normalZ)).toBeCloseTo(1, 9);
  });

  it("random poses: manifold invariants (unit normal, depth within the margin, contacts near both surfaces)", () => {
    let seed = 12345;
    const rnd = (): number => {
      seed = (seed * 1103515245 + 12345) & 0x7fffffff;
      return seed / 0x7fffffff;
    };
    const shapes: ConvexShape[] = [cyl, new Cylinder(0.3, 0.8), new Box(0.4, 0.2, 0.6), new Sphere(0.35), new Capsule(0.2, 0.4)];
    let hits = 0;
    for (let i = 0; i < 400; i++) {
      const a = shapes[i % 2];
      const b = shapes[Math.floor(rnd() * shapes.length)];
      const pa = pose(0, 0, 0, rnd() - 0.5, rnd() - 0.5, rnd() - 0.5, rnd() * 6);
      const pb = pose((rnd() - 0.5) * 2.4, (rnd() - 0.5) * 2.4, (rnd() - 0.5) * 2.4, rnd() - 0.5, rnd() - 0.5, rnd() - 0.5, rnd() * 6);
      const m = collide(a, pa, b, pb, 0.1);
      if (m.count === 0) continue;
      hits++;
      expect(Math.hypot(m.normalX, m.normalY, m.normalZ)).toBeCloseTo(1, 9);
      for (let k = 0; k < m.count; k++) {
        expect(m.depth[k]).toBeGreaterThanOrEqual(-0.1 - 1e-9);
        expect(Number.isFinite(m.positionX[k] + m.positionY[k] + m.positionZ[k])).toBe(true);
      }
      // The normal separates: B's extent along -n and A's along n overlap by about the deepest depth.
      let deepest = -Infinity;
      for (let k = 0; k < m.count; k++) deepest = Math.max(deepest, m.depth[k]);
      expectOnSurfaces(m, a, pa, b, pb, 2e-3);
      const m2 = collide(b, pb, a, pa, 0.1);
      expect(m2.count).toBeGreaterThan(0);
      let deepest2 = -Infinity;
      for (let k = 0; k < m2.count; k++) deepest2 = Math.max(deepest2, m2.depth[k]);
      expect(Math.abs(deepest2 - deepest)).toBeLessThan(0.02);
    }
    expect(hits).toBeGreaterThan(50);
  });

  it("near-resting random poses: contacts lie on both surfaces, resting ones give 2-4 points", () => {
    let seed = 777;
    const rnd = (): number => {
      seed = (seed * 1103515245 + 12345) & 0x7fffffff;
      return seed / 0x7fffffff;
    };
    const others: ConvexShape[] = [floor, new Box(0.3, 0.5, 0.3), cyl, new Capsule(0.2, 0.4)];
    for (let i = 0; i < 300; i++) {
      const lying = (i & 1) === 1;
      const tilt = (rnd() - 0.5) * 0.03;
      const ang = lying ? Math.PI / 2 + tilt : tilt;
      const pc = pose((rnd() - 0.5) * 0.2, 0.5 - (rnd() - 0.3) * 0.02, (rnd() - 0.5) * 0.2, 1, 0, rnd() - 0.5, ang);
      const b = others[i % others.length];
      const pb = b === floor ? floorPose : pose(0, b instanceof Capsule ? -0.6 : -0.5, 0, 0, 1, 0, rnd() * 3);
      const m = collide(cyl, pc, b, pb, 0.05);
      expect(m.count).toBeGreaterThan(0);
      if (!(b instanceof Capsule)) expect(m.normalY).toBeLessThan(-0.99);
      expectOnSurfaces(m, cyl, pc, b, pb, 1e-4);
      if (b === floor && Math.abs(tilt) < 0.01) expect(m.count).toBeGreaterThanOrEqual(2);
    }
  });

  // A coin (r 1.2 cm, 2.5 mm thick) tilted over a box floor, its lowest rim point 1 mm up, with a landing coin's margin:
  // the rim point alone was the one contact (an impulse there spun the far rim into the box within the step). The cap
  // polygon is clipped against the box face as the incident feature (cylinderFeatureKind).
  const slabCorners: number[] = [];
  for (const x of [-1, 1]) for (const y of [-0.5, 0.5]) for (const z of [-1, 1]) slabCorners.push(x, y, z);
  const slabHull = new ConvexHull(slabCorners);
  for (const deg of [5, 20, 45, 60]) {
    it(`coin tilted ${deg} deg over a box face and a hull face: contacts across its cap, the nearest at the rim point's gap`, () => {
      const r = 0.012,
        h = 0.00125,
        t = (deg * Math.PI) / 180;
      const coin = new Cylinder(r, h);
      const pc = pose(0, 0.001 + r * Math.sin(t) + h * Math.cos(t), 0, 1, 0, 0, t);
      for (const floor of [new Box(1, 0.5, 1), slabHull]) {
        const m = collide(floor, pose(0, -0.5, 0), coin, pc, 0.03);
        expectNormal(m, 0, 1, 0);
        const p = pts(m);
        // The highest cap point is 2 r sin(tilt) above the lowest (within the 3 cm margin at every tilt here).
        expect(m.count).toBe(4);
        // Nearest: the rim point's 1 mm gap (an octagon vertex lies on it). The far half of the cap, more than r sin(tilt)
        // above it, has contacts too (the reduction keeps four of the eight: the spread, not every vertex).
        expect(Math.max(...p.map((q) => q.depth))).toBeCloseTo(-0.001, 9);
        expect(Math.min(...p.map((q) => q.depth))).toBeLessThan(-0.001 - r * Math.sin(t));
        for (const q of p) expect(q.depth).toBeGreaterThanOrEqual(-0.001 - 2 * r * Math.sin(t) - 1e-9);
        // Across the face: farther apart than the cap's radius (projected, r cos(tilt) at least).
        expect(maxSpread(p)).toBeGreaterThan(r * Math.cos(t));
      }
    });
  }

  it("coin tilted 20 deg over a sphere: the rim point alone (a tilted cap is never the reference)", () => {
    const r = 0.012,
      h = 0.00125,
      t = (20 * Math.PI) / 180;
    const coin = new Cylinder(r, h);
    const pc = pose(0, 0.001 + r * Math.sin(t) + h * Math.cos(t), 0, 1, 0, 0, t);
    // A big sphere whose top is under the rim point (0, 0, r cos t) at y = 0.
    const z = r * Math.cos(t);
    const m = collide(new Sphere(1), pose(0, -1, z), coin, pc, 0.03);
    expect(m.count).toBe(1);
    expect(m.depth[0]).toBeCloseTo(-0.001, 6);
  });
});
