/**
 * Cross-check of the shape casts (analytic sphere casts, GJK conservative advancement) against the general
 * linear sweep (sweep.ts) on random configurations of every piece type. The sweep stops within its contact
 * tolerance (1e-5 m) of the surface and converges to 1e-7 m along the path, so fractions must agree to 1e-4
 * (the brief's time-of-impact tolerance; the observed gap is ~1e-6). Hit/miss must agree except for grazing
 * passes whose closest approach lies within the sweep's tolerance band (counted as touching by the sweep).
 */
import { describe, expect, it } from "vitest";
import { SweepResult, sweepShapes } from "../../src/collision/sweep";
import { SweptMotion } from "../../src/math/sweptTransform";
import { Pose } from "../../src/math/pose";
import { CastPairHit, castShapeAgainst } from "../../src/queries/shapeCast";
import { shapeShapeDistance, ShapePairHit } from "../../src/queries/shapeProximity";
import { Box } from "../../src/shapes/box";
import { Capsule } from "../../src/shapes/capsule";
import { ConvexHull } from "../../src/shapes/convexHull";
import { Cylinder } from "../../src/shapes/cylinder";
import type { ConvexShape } from "../../src/shapes/shape";
import { Sphere } from "../../src/shapes/sphere";
import { rng } from "../engine/helpers";

function randomQuat(r: () => number): [number, number, number, number] {
  const q = [r() - 0.5, r() - 0.5, r() - 0.5, r() - 0.5];
  const l = Math.hypot(...q);
  return [q[0] / l, q[1] / l, q[2] / l, q[3] / l];
}

const hullPoints: number[] = [];
{
  const r = rng(7);
  for (let i = 0; i < 14; i++) hullPoints.push(r() - 0.5, r() - 0.5, r() - 0.5);
}
const BODIES: [string, ConvexShape][] = [
  ["sphere", new Sphere(0.5)],
  ["box", new Box(0.4, 0.3, 0.6)],
  ["capsule", new Capsule(0.3, 0.4)],
  ["cylinder", new Cylinder(0.4, 0.3)],
  ["hull", new ConvexHull(hullPoints)],
];
const QUERIES: [string, ConvexShape][] = [
  ["sphere", new Sphere(0.25)],
  ["box", new Box(0.2, 0.3, 0.1)],
  ["capsule", new Capsule(0.15, 0.3)],
  ["cylinder", new Cylinder(0.2, 0.25)],
];

const motionA = new SweptMotion();
const motionB = new SweptMotion();
const sweep = new SweepResult();
const hit = new CastPairHit();
const prox = new ShapePairHit();
const pa = new Pose();
const pb = new Pose();
const pm = new Pose();

describe("casts agree with the general sweep", () => {
  for (const [qn, q] of QUERIES) {
    for (const [bn, b] of BODIES) {
      it(`${qn} onto ${bn}`, () => {
        const r = rng(qn.length * 131 + bn.length * 17 + 3);
        let hits = 0;
        for (let k = 0; k < 300; k++) {
          const qb = randomQuat(r),
            qq = randomQuat(r);
          pb.set(0, 0, 0, qb[0], qb[1], qb[2], qb[3]);
          // Start on a shell of radius 2.5, aimed near the origin.
          const u = 2 * r() - 1,
            phi = 2 * Math.PI * r(),
            s = Math.sqrt(1 - u * u);
          const sx = 2.5 * s * Math.cos(phi),
            sy = 2.5 * u,
            sz = 2.5 * s * Math.sin(phi);
          const dx = 2 * (-sx + (r() - 0.5) * 1.6),
            dy = 2 * (-sy + (r() - 0.5) * 1.6),
            dz = 2 * (-sz + (r() - 0.5) * 1.6);
          pa.set(sx, sy, sz, qq[0], qq[1], qq[2], qq[3]);
          const got = castShapeAgainst(q, pa, dx, dy, dz, b, pb, hit);
          motionA.setVelocity(sx, sy, sz, qq[0], qq[1], qq[2], qq[3], dx, dy, dz, 0, 0, 0, 0, 0, 0);
          motionB.setStatic(0, 0, 0, qb[0], qb[1], qb[2], qb[3]);
          const dLen = Math.hypot(dx, dy, dz);
          const ref = sweepShapes(q, motionA, b, motionB, 1, 0, 1e-7 / dLen, sweep);
          if (got !== ref) {
            // Only a grazing pass may differ: the closest approach is within the sweep's tolerance band.
            const t = got ? hit.fraction : sweep.t0;
            pm.set(sx + dx * t, sy + dy * t, sz + dz * t, qq[0], qq[1], qq[2], qq[3]);
            shapeShapeDistance(q, pm, b, pb, 1, prox);
            expect(Math.abs(prox.distance), `${qn}/${bn} case ${k}: hit ${got} vs sweep ${ref}`).toBeLessThan(2e-5);
            continue;
          }
          if (!got) continue;
          hits++;
          expect(Math.abs(hit.fraction - sweep.t0), `${qn}/${bn} case ${k}`).toBeLessThan(1e-4);
          // At the hit pose the shapes touch: the reported points are on both surfaces, the normal is unit.
          pm.set(sx + dx * hit.fraction, sy + dy * hit.fraction, sz + dz * hit.fraction, qq[0], qq[1], qq[2], qq[3]);
          shapeShapeDistance(q, pm, b, pb, 1, prox);
          expect(Math.abs(prox.distance), `${qn}/${bn} case ${k}: gap at the hit`).toBeLessThan(1e-6);
          const c = hit.contact;
          expect(Math.abs(Math.hypot(c.nx, c.ny, c.nz) - 1)).toBeLessThan(1e-9);
          expect(Math.hypot(c.bx - prox.bx, c.by - prox.by, c.bz - prox.bz), `${qn}/${bn} case ${k}: point`).toBeLessThan(1e-3);
        }
        expect(hits).toBeGreaterThan(100);
      });
    }
  }
});
