import { describe, expect, it } from "vitest";
import { apartAlongCentreLine } from "../../src/collision/centreLineGap";
import { ContactManifold } from "../../src/collision/contactManifold";
import { collideConvexGeneric } from "../../src/collision/convexGeneric";
import { Pose } from "../../src/math/pose";
import { Box } from "../../src/shapes/box";
import { Capsule } from "../../src/shapes/capsule";
import { Cylinder } from "../../src/shapes/cylinder";
import { ConvexHull } from "../../src/shapes/convexHull";
import type { ConvexShape } from "../../src/shapes/shape";
import { Sphere } from "../../src/shapes/sphere";

/** Deterministic uniform numbers in [0, 1) (a 32-bit LCG), so a failure reproduces. */
function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 4294967296;
  };
}

/** Body arrays as the body set keeps them: centre of mass, orientation, local centre of mass, margin. */
function bodies(n: number) {
  return { pos: new Float64Array(3 * n), rot: new Float64Array(4 * n), com: new Float64Array(3 * n), margin: new Float64Array(n) };
}

/** Writes body i: shape origin o, orientation q (normalised), local centre of mass lc; returns its origin pose. */
function place(b: ReturnType<typeof bodies>, i: number, o: number[], q: number[], lc: number[], margin: number): Pose {
  const l = Math.hypot(q[0], q[1], q[2], q[3]);
  const [qx, qy, qz, qw] = q.map((v) => v / l);
  const pose = new Pose().set(o[0], o[1], o[2], qx, qy, qz, qw);
  // Centre of mass = origin + R lc (R row-major from Pose.rotationMatrix).
  const R = new Float64Array(9);
  pose.rotationMatrix(R, 0);
  const c = [0, 1, 2].map((k) => o[k] + R[3 * k] * lc[0] + R[3 * k + 1] * lc[1] + R[3 * k + 2] * lc[2]);
  b.pos.set(c, 3 * i);
  b.rot.set([qx, qy, qz, qw], 4 * i);
  b.com.set(lc, 3 * i);
  b.margin[i] = margin;
  return pose;
}

/** The distance between two convex shapes from GJK (the generic tester with a margin far larger than it). */
function distance(a: ConvexShape, pa: Pose, b: ConvexShape, pb: Pose): number {
  const m = new ContactManifold();
  collideConvexGeneric(a, pa, b, pb, 100, m);
  let deepest = -Infinity;
  for (let k = 0; k < m.count; k++) deepest = Math.max(deepest, m.depth[k]);
  return -deepest;
}

const makers: (() => ConvexShape)[] = [
  () => new Sphere(0.5),
  () => new Capsule(0.3, 0.4),
  () => new Cylinder(0.4, 0.4),
  () => new Box(0.4, 0.2, 0.6),
];

describe("apartAlongCentreLine", () => {
  it("calls a pair apart only when GJK's distance exceeds the margin, for every pair of primitives in random poses", () => {
    const r = rng(12345);
    const b = bodies(2);
    let apart = 0,
      checked = 0;
    for (let t = 0; t < 4000; t++) {
      const a = makers[t % 4](),
        c = makers[(t >> 2) % 4]();
      const lcA = t % 3 === 0 ? [r() * 0.2 - 0.1, r() * 0.2 - 0.1, r() * 0.2 - 0.1] : [0, 0, 0];
      const lcB = t % 5 === 0 ? [r() * 0.2 - 0.1, r() * 0.2 - 0.1, r() * 0.2 - 0.1] : [0, 0, 0];
      const pa = place(b, 0, [0, 0, 0], [r() - 0.5, r() - 0.5, r() - 0.5, r() - 0.5], lcA, 0.02 + 0.05 * r());
      // Centres 0.6-2.2 m apart in a random direction: touching, near and apart pairs alike.
      const pb = place(b, 1, [r() * 3.2 - 1.6, r() * 3.2 - 1.6, r() * 3.2 - 1.6], [r() - 0.5, r() - 0.5, r() - 0.5, r() - 0.5], lcB, 0.02 + 0.05 * r());
      const d = distance(a, pa, c, pb);
      const margin = b.margin[0] + b.margin[1];
      if (apartAlongCentreLine(a, c, b.pos, b.rot, b.com, b.margin, 0, 1)) {
        apart++;
        // GJK's distance is accurate to its tolerance (1e-6 here is far below any contact's scale).
        expect(d).toBeGreaterThan(margin - 1e-6);
      }
      if (d > margin) checked++;
    }
    // The test is not vacuous: most pairs whose distance exceeds the margin are caught along the centre line
    // (in pile-1000 it catches about half of the pairs the bounding spheres leave).
    expect(apart).toBeGreaterThan(0.3 * checked);
  });

  it("measures each primitive's extent along the line exactly (touching at the margin: not apart; 1 mm beyond: apart)", () => {
    const b = bodies(2);
    const margin = 0.01;
    // Extents along +x in the body frame (identity orientation): sphere r, capsule lying along x (rotated 90°
    // about z) r + h, cylinder upright r, box half x.
    const s = Math.SQRT1_2;
    const cases: [ConvexShape, number[], number][] = [
      [new Sphere(0.5), [0, 0, 0, 1], 0.5],
      [new Capsule(0.3, 0.4), [0, 0, s, s], 0.7],
      [new Cylinder(0.4, 0.4), [0, 0, 0, 1], 0.4],
      [new Box(0.4, 0.2, 0.6), [0, 0, 0, 1], 0.4],
    ];
    for (const [shapeA, qa, ha] of cases) {
      for (const [shapeB, qb, hb] of cases) {
        const gap = margin;
        place(b, 0, [0, 0, 0], qa, [0, 0, 0], margin / 2);
        place(b, 1, [ha + hb + gap - 1e-9, 0, 0], qb, [0, 0, 0], margin / 2);
        expect(apartAlongCentreLine(shapeA, shapeB, b.pos, b.rot, b.com, b.margin, 0, 1)).toBe(false);
        place(b, 1, [ha + hb + gap + 0.001, 0, 0], qb, [0, 0, 0], margin / 2);
        expect(apartAlongCentreLine(shapeA, shapeB, b.pos, b.rot, b.com, b.margin, 0, 1)).toBe(true);
      }
    }
  });

  it("leaves other shapes and coincident centres to the tester", () => {
    const b = bodies(2);
    const hull = new ConvexHull([-0.1, -0.1, -0.1, 0.1, -0.1, -0.1, 0, 0.1, -0.1, 0, 0, 0.1]);
    place(b, 0, [0, 0, 0], [0, 0, 0, 1], [0, 0, 0], 0);
    place(b, 1, [5, 0, 0], [0, 0, 0, 1], [0, 0, 0], 0);
    expect(apartAlongCentreLine(hull, new Sphere(0.1), b.pos, b.rot, b.com, b.margin, 0, 1)).toBe(false);
    expect(apartAlongCentreLine(new Sphere(0.1), new Sphere(0.1), b.pos, b.rot, b.com, b.margin, 0, 1)).toBe(true);
    place(b, 1, [0, 0, 0], [0, 0, 0, 1], [0, 0, 0], 0);
    expect(apartAlongCentreLine(new Sphere(0.1), new Sphere(0.1), b.pos, b.rot, b.com, b.margin, 0, 1)).toBe(false);
  });
});
