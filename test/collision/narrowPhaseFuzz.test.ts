import { describe, expect, it } from "vitest";
import { ContactManifold } from "../../src/collision/contactManifold";
import { GjkResult, gjkDistance } from "../../src/collision/gjk";
import { collideConvex } from "../../src/collision/narrowPhase";
import { Pose } from "../../src/math/pose";
import { Box } from "../../src/shapes/box";
import { Capsule } from "../../src/shapes/capsule";
import type { ConvexShape } from "../../src/shapes/shape";
import { Sphere } from "../../src/shapes/sphere";

// Randomised checks of the analytic testers against GJK distances and against each other (swapped
// order). Seeded, so failures reproduce.
function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function randomPose(r: () => number, spread: number): Pose {
  let x = r() * 2 - 1,
    y = r() * 2 - 1,
    z = r() * 2 - 1,
    w = r() * 2 - 1;
  const l = Math.hypot(x, y, z, w) || 1;
  x /= l;
  y /= l;
  z /= l;
  w /= l;
  return new Pose().set((r() * 2 - 1) * spread, (r() * 2 - 1) * spread, (r() * 2 - 1) * spread, x, y, z, w);
}

function randomShape(r: () => number, kind: number): ConvexShape {
  if (kind === 0) return new Sphere(0.2 + r() * 0.6);
  if (kind === 1) return new Capsule(0.1 + r() * 0.4, r() * 0.8);
  return new Box(0.1 + r() * 0.7, 0.1 + r() * 0.7, 0.1 + r() * 0.7);
}

function maxDepth(m: ContactManifold): number {
  let d = -Infinity;
  for (let i = 0; i < m.count; i++) d = Math.max(d, m.depth[i]);
  return d;
}

const names = ["sphere", "capsule", "box"];

describe("analytic testers vs GJK distance (fuzz)", () => {
  for (let ka = 0; ka < 3; ka++) {
    for (let kb = ka; kb < 3; kb++) {
      it(`${names[ka]}-${names[kb]}`, () => {
        const r = rng(1000 + ka * 7 + kb);
        const m = new ContactManifold();
        const m2 = new ContactManifold();
        const g = new GjkResult();
        let separated = 0,
          overlapping = 0,
          emptyWithinMargin = 0,
          satGapError = 0;
        for (let iter = 0; iter < 3000; iter++) {
          const a = randomShape(r, ka),
            b = randomShape(r, kb);
          const pa = randomPose(r, 1),
            pb = randomPose(r, 1);
          const margin = 0.5;
          collideConvex(a, pa, b, pb, margin, m);
          // Unit normal, and the margin respected.
          if (m.count > 0) {
            expect(Math.abs(Math.hypot(m.normalX, m.normalY, m.normalZ) - 1)).toBeLessThan(1e-9);
            for (let i = 0; i < m.count; i++) expect(m.depth[i]).toBeGreaterThanOrEqual(-margin - 1e-12);
          }
          gjkDistance(a, pa, b, pb, g);
          const d = g.separated ? g.distance - a.coreRadius - b.coreRadius : -1;
          if (g.separated && d > 1e-4) {
            separated++;
            if (ka === 2 && kb === 2) {
              // SAT separation is a lower bound of the distance: depths never claim more gap than there is.
              if (m.count > 0) expect(maxDepth(m)).toBeGreaterThanOrEqual(-d - 1e-7);
              if (d < margin - 1e-3 && m.count === 0) emptyWithinMargin++;
              if (m.count > 0) satGapError = Math.max(satGapError, d + maxDepth(m));
            } else if (d <= margin - 1e-6) {
              expect(m.count).toBeGreaterThan(0);
              // Analytic pairs report the exact gap.
              expect(maxDepth(m)).toBeCloseTo(-d, 6);
            } else if (d > margin + 1e-6) {
              expect(m.count).toBe(0);
            }
          } else if (!g.separated) {
            // Cores overlapping.
            overlapping++;
            expect(m.count).toBeGreaterThan(0);
            expect(maxDepth(m)).toBeGreaterThan(0);
          } else if (d < -1e-4) {
            // Cores apart, rounded surfaces overlapping: the exact depth.
            overlapping++;
            expect(m.count).toBeGreaterThan(0);
            expect(maxDepth(m)).toBeCloseTo(-d, 6);
          }
          // Swapped order: flipped normal, same deepest depth (box-box may pick the other reference face).
          collideConvex(b, pb, a, pa, margin, m2);
          if (!(ka === 2 && kb === 2)) {
            expect(m2.count).toBe(m.count);
            if (m.count > 0) {
              expect(m2.normalX).toBeCloseTo(-m.normalX, 9);
              expect(m2.normalY).toBeCloseTo(-m.normalY, 9);
              expect(m2.normalZ).toBeCloseTo(-m.normalZ, 9);
              expect(maxDepth(m2)).toBeCloseTo(maxDepth(m), 9);
            }
          } else if (m.count > 0 && m2.count > 0) {
            // Normals point from the first argument toward the second.
            const dx = pb.px - pa.px,
              dy = pb.py - pa.py,
              dz = pb.pz - pa.pz;
            expect(m.normalX * dx + m.normalY * dy + m.normalZ * dz).toBeGreaterThan(-1e-9);
            expect(m2.normalX * dx + m2.normalY * dy + m2.normalZ * dz).toBeLessThan(1e-9);
          }
        }
        expect(separated).toBeGreaterThan(100);
        expect(overlapping).toBeGreaterThan(100);
        // Box pairs whose SAT axis is a face but whose faces do not overlap laterally produce no
        // contact (known limitation); keep it rare.
        expect(emptyWithinMargin).toBeLessThan(separated * 0.2);
        if (ka === 2 && kb === 2) console.log(`box-box: separated ${separated}, empty within margin ${emptyWithinMargin}, worst gap underestimate ${satGapError}`);
      });
    }
  }
});
