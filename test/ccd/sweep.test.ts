import { describe, expect, it } from "vitest";
import { GjkResult, gjkDistance } from "../../src/collision/gjk";
import {
  type SweepPieceSink,
  SweepResult,
  registerSweepPieceEnumerator,
  setSweepTunnelGuard,
  sweepShapeLinear,
  sweepShapes,
} from "../../src/collision/sweep";
import { Pose } from "../../src/math/pose";
import { SweptMotion } from "../../src/math/sweptTransform";
import { Box } from "../../src/shapes/box";
import { Capsule } from "../../src/shapes/capsule";
import { Compound } from "../../src/shapes/compound";
import { Cylinder } from "../../src/shapes/cylinder";
import type { ConvexShape, Shape } from "../../src/shapes/shape";
import { Sphere } from "../../src/shapes/sphere";

const DT = 1 / 60;
const LOG = process.env.SWEEP_LOG === "1";

function axisAngle(ax: number, ay: number, az: number, angle: number): [number, number, number, number] {
  const s = Math.sin(angle / 2);
  return [ax * s, ay * s, az * s, Math.cos(angle / 2)];
}

function moving(x: number, y: number, z: number, vx: number, vy: number, vz: number, wx = 0, wy = 0, wz = 0, q = [0, 0, 0, 1]): SweptMotion {
  return new SweptMotion().setVelocity(x, y, z, q[0], q[1], q[2], q[3], vx, vy, vz, wx, wy, wz, 0, 0, 0);
}

function fixed(x: number, y: number, z: number, q = [0, 0, 0, 1]): SweptMotion {
  return new SweptMotion().setStatic(x, y, z, q[0], q[1], q[2], q[3]);
}

const gr = new GjkResult();
const pa = new Pose(),
  pb = new Pose();

/** Surface distance of two convex shapes under their motions at time t. */
function distanceAt(a: ConvexShape, ma: SweptMotion, b: ConvexShape, mb: SweptMotion, t: number): number {
  ma.poseAt(t, pa);
  mb.poseAt(t, pb);
  if (!gjkDistance(a, pa, b, pb, gr)) return -1;
  return gr.distance - a.coreRadius - b.coreRadius;
}

/** First contact time by brute-force sampling every `h`, refined by bisection; Infinity when none. */
function bruteForceToi(a: ConvexShape, ma: SweptMotion, b: ConvexShape, mb: SweptMotion, maxT: number, h: number): number {
  let prev = 0;
  if (distanceAt(a, ma, b, mb, 0) <= 0) return 0;
  for (let t = h; t <= maxT + h; t += h) {
    const tt = Math.min(t, maxT);
    if (distanceAt(a, ma, b, mb, tt) <= 0) {
      let lo = prev,
        hi = tt;
      for (let i = 0; i < 60; i++) {
        const m = 0.5 * (lo + hi);
        if (distanceAt(a, ma, b, mb, m) <= 0) hi = m;
        else lo = m;
      }
      return hi;
    }
    prev = tt;
    if (tt === maxT) break;
  }
  return Infinity;
}

function log(...args: unknown[]): void {
  if (LOG) console.log(...args);
}

describe("sweepShapes: convex pairs", () => {
  it("sphere r 0.1 at 500 m/s into a 1 cm static slab hits at gap / speed", () => {
    const sphere = new Sphere(0.1);
    const slab = new Box(0.005, 1, 1);
    const out = new SweepResult();
    const expected = (2 - 0.005 - 0.1) / 500; // 3.79 ms
    for (const [minProg, conv] of [
      [1e-4, 1e-4],
      [0, 1e-3],
      [1e-5, 1e-5],
    ]) {
      const hit = sweepShapes(sphere, moving(0, 0.3, 0, 500, 0, 0), slab, fixed(2, 0, 0), DT, minProg, conv, out);
      log("slab", minProg, conv, out.t0, out.t1, expected, out.iterations, out.distanceQueries);
      expect(hit).toBe(true);
      expect(out.converged).toBe(true);
      expect(out.t1 - out.t0).toBeLessThanOrEqual(conv);
      // t0 is safe (at or before the impact, within the contact tolerance), t1 at or after it.
      expect(out.t0).toBeLessThanOrEqual(expected + 1e-9);
      expect(out.t1).toBeGreaterThanOrEqual(expected - 1e-5 / 500);
      expect(Math.abs(out.t1 - expected)).toBeLessThanOrEqual(conv);
      expect(out.normalX).toBeCloseTo(1, 6);
      expect(out.pointX).toBeCloseTo(1.995, 3);
      expect(out.pointY).toBeCloseTo(0.3, 6);
    }
  });

  it("a fast box passing 5 cm beside a box does not hit (no ghost), spinning or not", () => {
    const bullet = new Box(0.1, 0.1, 0.1);
    const block = new Box(0.5, 0.5, 0.5);
    const out = new SweepResult();
    // Bottom face of the block at y = 0.15, top of the bullet at y = 0.1.
    expect(sweepShapes(bullet, moving(-3, 0, 0, 300, 0, 0), block, fixed(0, 0.65, 0), DT, 1e-3, 1e-3, out)).toBe(false);
    log("beside", out.iterations, out.distanceQueries);
    // Spinning about its flight axis: the half-diagonal 0.1414 stays below 0.15.
    expect(sweepShapes(bullet, moving(-3, 0, 0, 300, 0, 0, 20, 0, 0), block, fixed(0, 0.65, 0), DT, 1e-3, 1e-3, out)).toBe(false);
    log("beside spinning", out.iterations, out.distanceQueries);
    // Minimum progression 0 does not change the answer.
    expect(sweepShapes(bullet, moving(-3, 0, 0, 300, 0, 0, 20, 0, 0), block, fixed(0, 0.65, 0), DT, 0, 1e-4, out)).toBe(false);
    // Control: 3 cm lower it hits the block's face at x = -0.5 - 0.1.
    expect(sweepShapes(bullet, moving(-3, 0.08, 0, 300, 0, 0), block, fixed(0, 0.65, 0), DT, 1e-3, 1e-3, out)).toBe(true);
    expect(out.t1).toBeCloseTo(2.4 / 300, 5);
  });

  it("a sphere passing a sphere 1 mm apart does not hit", () => {
    const out = new SweepResult();
    const hit = sweepShapes(new Sphere(0.1), moving(-5, 0, 0, 600, 0, 0), new Sphere(0.2), fixed(0, 0.301, 0), DT, 0, 1e-4, out);
    log("graze", out.iterations, out.distanceQueries);
    expect(hit).toBe(false);
  });

  it("two spheres moving toward each other hit at the right time", () => {
    const out = new SweepResult();
    const hit = sweepShapes(new Sphere(0.1), moving(0, 0, 0, 10, 0, 0), new Sphere(0.15), moving(1, 0, 0, -20, 0, 0), 1 / 30, 1e-4, 1e-5, out);
    log("spheres", out.t0, out.t1, out.iterations);
    expect(hit).toBe(true);
    expect(out.t0).toBeLessThanOrEqual(0.025);
    expect(out.t1).toBeGreaterThanOrEqual(0.025 - 1e-5 / 30);
    expect(out.t1 - out.t0).toBeLessThanOrEqual(1e-5);
    expect(out.normalX).toBeCloseTo(1, 9);
    // Contact point at t0: A at 0.25, B at 0.5, touching at x = 0.35.
    expect(out.pointX).toBeCloseTo(0.35, 4);
    // Moving apart: no hit.
    expect(sweepShapes(new Sphere(0.1), moving(0, 0, 0, -10, 0, 0), new Sphere(0.15), moving(1, 0, 0, 20, 0, 0), 1 / 30, 1e-4, 1e-5, out)).toBe(false);
  });

  it("a thin rod spinning at 50 rad/s sweeps into a post at the brute-force time", () => {
    const rod = new Box(0.5, 0.01, 0.01);
    const post = new Box(0.02, 0.02, 0.5);
    const out = new SweepResult();
    for (const [px, py, vx] of [
      [0.4, 0.3, 0],
      [0.3, 0.35, 0],
      [0.45, 0.15, 3],
    ]) {
      const mRod = moving(0, 0, 0, vx, 0, 0, 0, 0, 50);
      const mPost = fixed(px, py, 0);
      const brute = bruteForceToi(rod, mRod, post, mPost, DT, 1e-6);
      const conv = 1e-5;
      const hit = sweepShapes(rod, mRod, post, mPost, DT, 1e-6, conv, out);
      log("rod", px, py, brute, out.t0, out.t1, out.iterations, out.distanceQueries);
      expect(brute).toBeLessThan(DT);
      expect(hit).toBe(true);
      expect(out.converged).toBe(true);
      expect(out.t1 - out.t0).toBeLessThanOrEqual(conv);
      expect(out.t0).toBeLessThanOrEqual(brute + 1e-9);
      // t1 is a time seen in contact within the 1e-5 m tolerance: tip speed 25 m/s -> 4e-7 s.
      expect(out.t1).toBeGreaterThanOrEqual(brute - 1e-6);
      expect(Math.abs(out.t1 - brute)).toBeLessThanOrEqual(conv);
    }
    // The same rod with the post out of reach of the tip (radius 0.5 + corner): no hit.
    expect(sweepShapes(rod, moving(0, 0, 0, 0, 0, 0, 0, 0, 50), post, fixed(0.45, 0.35, 0), DT, 1e-6, 1e-5, out)).toBe(false);
  });

  it("minimumSweepTimestep skips a collision shorter than it; a smaller value catches it", () => {
    // A sphere r 0.1 at 100 m/s diagonally past the box edge at (0.5, 0.5), clipping it by 2 mm:
    // in contact for 2 sqrt(r^2 - 0.098^2) / 100 = 0.40 ms.
    const sphere = new Sphere(0.1);
    const box = new Box(0.5, 0.5, 0.5);
    const d = 0.098;
    const s2 = Math.SQRT1_2;
    const cx = 0.5 + d * s2,
      cy = 0.5 + d * s2; // closest approach point
    const L = 1;
    const m = () => moving(cx - L * s2, cy + L * s2, 0, 100 * s2, -100 * s2, 0);
    const brute = bruteForceToi(sphere, m(), box, fixed(0, 0, 0), DT, 1e-6);
    const expected = (L - Math.sqrt(0.01 - d * d)) / 100;
    expect(brute).toBeCloseTo(expected, 6);
    const out = new SweepResult();
    expect(sweepShapes(sphere, m(), box, fixed(0, 0, 0), DT, 1e-3, 1e-3, out)).toBe(false);
    log("corner skip", out.iterations, out.distanceQueries);
    expect(sweepShapes(sphere, m(), box, fixed(0, 0, 0), DT, 1e-5, 1e-5, out)).toBe(true);
    log("corner catch", out.t0, out.t1, expected, out.iterations, out.distanceQueries);
    expect(out.t0).toBeLessThanOrEqual(expected + 1e-9);
    expect(Math.abs(out.t1 - expected)).toBeLessThanOrEqual(1e-5);
    expect(sweepShapes(sphere, m(), box, fixed(0, 0, 0), DT, 0, 1e-5, out)).toBe(true);
  });

  it("bullets through a 5 cm wall with the default 1e-3 settings: the tunnel guard never skips them", () => {
    // A pass-through lasts (0.05 + 0.2) / v = 0.25 ms at 1000 m/s, shorter than minimumSweepTimestep.
    const sphere = new Sphere(0.1);
    const wall = new Box(0.025, 2, 2);
    const out = new SweepResult();
    let seed = 4242;
    const rnd = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
    for (const speed of [100, 300, 1000, 3000]) {
      let hits = 0;
      for (let k = 0; k < 50; k++) {
        const x0 = -0.2 - rnd() * speed * DT * 0.9;
        const m = moving(x0, rnd() - 0.5, rnd() - 0.5, speed, 0, 0, rnd() * 50, rnd() * 50, 0);
        if (sweepShapes(sphere, m, wall, fixed(0, 0, 0), DT, 1e-3, 1e-3, out)) {
          hits++;
          expect(out.t0).toBeLessThanOrEqual((-0.125 - x0) / speed + 1e-12);
        }
      }
      expect(hits).toBe(50);
    }
    // Without the guard (bepu's exact semantics) the short pass-through may be skipped.
    setSweepTunnelGuard(false);
    try {
      let hits = 0;
      for (let k = 0; k < 50; k++) {
        const x0 = -0.2 - rnd() * 1000 * DT * 0.9;
        if (sweepShapes(sphere, moving(x0, 0, 0, 1000, 0, 0), wall, fixed(0, 0, 0), DT, 1e-3, 1e-3, out)) hits++;
      }
      log("guard off: hits", hits, "of 50");
      expect(hits).toBeLessThan(50);
    } finally {
      setSweepTunnelGuard(true);
    }
  });

  it("randomized convex pairs (both motion modes) agree with brute force: no false hit, no miss", () => {
    let seed = 777;
    const rnd = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
    const shapes: ConvexShape[] = [new Sphere(0.1), new Box(0.5, 0.01, 0.15), new Capsule(0.05, 0.3), new Cylinder(0.2, 0.05), new Box(0.025, 1, 1)];
    const out = new SweepResult();
    const p1 = new Pose();
    let cases = 0,
      hits = 0,
      maxErr = 0;
    for (let k = 0; k < 80; k++) {
      const a = shapes[Math.floor(rnd() * 4)],
        b = shapes[Math.floor(rnd() * 5)];
      const q = [rnd() - 0.5, rnd() - 0.5, rnd() - 0.5, rnd() - 0.5];
      const ql = Math.hypot(...q);
      const speed = 10 + rnd() * 300;
      const dir = [rnd() - 0.5, rnd() - 0.5, rnd() - 0.5];
      const dl = Math.hypot(...dir);
      const vx = (dir[0] / dl) * speed,
        vy = (dir[1] / dl) * speed,
        vz = (dir[2] / dl) * speed;
      let ma = new SweptMotion().setVelocity(
        -vx * DT * 0.5 + (rnd() - 0.5) * 0.6,
        -vy * DT * 0.5 + (rnd() - 0.5) * 0.6,
        -vz * DT * 0.5,
        q[0] / ql,
        q[1] / ql,
        q[2] / ql,
        q[3] / ql,
        vx,
        vy,
        vz,
        (rnd() - 0.5) * 100,
        (rnd() - 0.5) * 100,
        (rnd() - 0.5) * 100,
        (rnd() - 0.5) * 0.2,
        0,
        0,
      );
      if (k % 2 === 1) {
        // The same end poses as a swept transform (lerp / nlerp) over [0, DT].
        ma.poseAt(DT, p1);
        ma = new SweptMotion().setEndpoints(ma.comX, ma.comY, ma.comZ, ma.qx, ma.qy, ma.qz, ma.qw, ma.comX + vx * DT, ma.comY + vy * DT, ma.comZ + vz * DT, p1.qx, p1.qy, p1.qz, p1.qw, ma.localComX, 0, 0, DT);
      }
      const mb = new SweptMotion().setVelocity(0, 0, 0, 0, 0, 0, 1, 0, 0, 0, (rnd() - 0.5) * 20, 0, 0, 0, 0, 0);
      if (distanceAt(a, ma, b, mb, 0) <= 0) continue;
      cases++;
      let brute = Infinity,
        minD = Infinity;
      for (let t = 0; t <= DT; t += 5e-6) {
        const d = distanceAt(a, ma, b, mb, t);
        if (d < minD) minD = d;
        if (d <= 0) {
          brute = t;
          break;
        }
      }
      const hit = sweepShapes(a, ma, b, mb, DT, 0, 1e-5, out);
      if (brute < Infinity) {
        expect(hit).toBe(true);
        hits++;
        expect(out.t0).toBeLessThanOrEqual(brute + 1e-9);
        maxErr = Math.max(maxErr, Math.abs(out.t1 - brute));
      } else if (hit) {
        // Only a graze within the contact tolerance (or between brute samples) may report a hit.
        expect(minD).toBeLessThan(1e-3);
      }
    }
    log("random", cases, hits, maxErr);
    expect(cases).toBeGreaterThan(60);
    expect(hits).toBeGreaterThan(40);
    expect(maxErr).toBeLessThanOrEqual(1e-5 + 5e-6);
  });

  it("shapes overlapping at t = 0 hit at t0 = t1 = 0 with the penetration normal", () => {
    const out = new SweepResult();
    expect(sweepShapes(new Sphere(0.5), moving(0, 0, 0, 1, 0, 0), new Box(0.5, 0.5, 0.5), fixed(0.9, 0, 0), DT, 1e-3, 1e-3, out)).toBe(true);
    expect(out.t0).toBe(0);
    expect(out.t1).toBe(0);
    expect(out.normalX).toBeCloseTo(1, 6);
    expect(out.distance).toBeCloseTo(-0.1, 6);
  });

  it("capsule (rounded core) into a box, and a body whose centre of mass is off its origin", () => {
    const out = new SweepResult();
    const cap = new Capsule(0.1, 0.4); // along y
    const wall = new Box(0.025, 2, 2);
    const mCap = moving(0, 0, 0, 200, 0, 0, 0, 0, 30);
    const mWall = fixed(3, 0, 0);
    const brute = bruteForceToi(cap, mCap, wall, mWall, DT, 1e-6);
    expect(sweepShapes(cap, mCap, wall, mWall, DT, 1e-5, 1e-5, out)).toBe(true);
    log("capsule", brute, out.t0, out.t1);
    expect(out.t0).toBeLessThanOrEqual(brute + 1e-9);
    expect(Math.abs(out.t1 - brute)).toBeLessThanOrEqual(1e-5);
    // Off-centre COM: the box's centre of mass at local (-0.3, 0, 0), spinning about it, so the box
    // spans x in [-0.2, 0.8] about the COM and its far end swings back while the body advances.
    const box = new Box(0.5, 0.05, 0.05);
    const mBox = new SweptMotion().setVelocity(0, 0, 0, 0, 0, 0, 1, 20, 0, 0, 0, 0, 40, -0.3, 0, 0);
    const mW = fixed(1.0, 0, 0);
    const brute2 = bruteForceToi(box, mBox, wall, mW, DT, 1e-6);
    expect(brute2).toBeLessThan(DT);
    expect(sweepShapes(box, mBox, wall, mW, DT, 1e-6, 1e-5, out)).toBe(true);
    log("offcom", brute2, out.t0, out.t1);
    expect(out.t0).toBeLessThanOrEqual(brute2 + 1e-9);
    expect(Math.abs(out.t1 - brute2)).toBeLessThanOrEqual(1e-5);
  });
});

describe("sweepShapes: compounds and pieces", () => {
  function tri(): Compound {
    return new Compound([
      { shape: new Sphere(0.1), position: { x: -1, y: 0, z: 0 } },
      { shape: new Sphere(0.1), position: { x: 0, y: 0, z: 0 } },
      { shape: new Sphere(0.1), position: { x: 1, y: 0.3, z: 0 } },
    ]);
  }

  it("compound child hit reports the child index (either side)", () => {
    const c = tri();
    const floor = new Box(5, 0.05, 5);
    const out = new SweepResult();
    // Compound moving up at 100 m/s toward a slab whose lower face is at y = 1.95.
    const hit = sweepShapes(c, moving(0, 0, 0, 0, 100, 0), floor, fixed(0, 2, 0), DT, 1e-5, 1e-5, out);
    const expected = (1.95 - 0.4) / 100;
    log("compound", out.t0, out.t1, expected, out.piecePairs, out.childA, out.childB);
    expect(hit).toBe(true);
    expect(out.childA).toBe(2);
    expect(out.childB).toBe(0);
    expect(out.t0).toBeLessThanOrEqual(expected + 1e-12);
    expect(Math.abs(out.t1 - expected)).toBeLessThanOrEqual(1e-5);
    expect(out.normalY).toBeCloseTo(1, 6);
    // Swapped: the compound as B falling down onto a floor A.
    const hit2 = sweepShapes(floor, fixed(0, 0, 0), c, moving(0, 2, 0, 0, -150, 0), DT, 1e-5, 1e-5, out);
    expect(hit2).toBe(true);
    expect(out.childA).toBe(0);
    expect(out.childB === 0 || out.childB === 1).toBe(true); // the two lowest children tie
    expect(out.normalY).toBeCloseTo(1, 6);
    expect(Math.abs(out.t1 - (2 - 0.1 - 0.05) / 150)).toBeLessThanOrEqual(1e-5);
  });

  it("compound vs compound, spinning, matches the earliest brute-force child pair", () => {
    const a = tri();
    const b = new Compound([
      { shape: new Box(0.2, 0.2, 0.2), position: { x: 0, y: 0, z: 0 } },
      { shape: new Box(0.1, 0.5, 0.1), position: { x: 0.6, y: 0, z: 0 } },
    ]);
    const mA = new SweptMotion().setVelocity(0, 0, 0, 0, 0, 0, 1, 60, 0, 0, 0, 0, 20, 0, 0.1, 0);
    const mB = moving(2, 0.1, 0, -30, 0, 0);
    // Brute force over every child pair with the same motions.
    let best = Infinity,
      bestI = -1,
      bestJ = -1;
    const cm = new SweptMotion(),
      dm = new SweptMotion();
    const ppa = new Pose(),
      ppb = new Pose();
    for (let i = 0; i < a.children.length; i++) {
      for (let j = 0; j < b.children.length; j++) {
        // Child motion = body motion composed with the child pose: sample directly.
        const ca = a.children[i],
          cb = b.children[j];
        const d = (t: number) => {
          mA.poseAt(t, ppa);
          mB.poseAt(t, ppb);
          const qa = new Pose().compose(ppa, ca.pose.px, ca.pose.py, ca.pose.pz, ca.pose.qx, ca.pose.qy, ca.pose.qz, ca.pose.qw);
          const qb = new Pose().compose(ppb, cb.pose.px, cb.pose.py, cb.pose.pz, cb.pose.qx, cb.pose.qy, cb.pose.qz, cb.pose.qw);
          if (!gjkDistance(ca.shape, qa, cb.shape, qb, gr)) return -1;
          return gr.distance - ca.shape.coreRadius - cb.shape.coreRadius;
        };
        for (let t = 0; t <= DT; t += 2e-6) {
          if (d(t) <= 0) {
            if (t < best) {
              best = t;
              bestI = i;
              bestJ = j;
            }
            break;
          }
        }
      }
    }
    void cm;
    void dm;
    const out = new SweepResult();
    expect(sweepShapes(a, mA, b, mB, DT, 1e-6, 1e-5, out)).toBe(true);
    log("compound x compound", best, bestI, bestJ, out.t0, out.t1, out.childA, out.childB, out.piecePairs, out.distanceQueries);
    expect(out.childA).toBe(bestI);
    expect(out.childB).toBe(bestJ);
    expect(out.t0).toBeLessThanOrEqual(best + 1e-9);
    expect(Math.abs(out.t1 - best)).toBeLessThanOrEqual(1e-5 + 2e-6);
  });

  it("a registered piece enumerator (mesh-style, reused scratch piece) plugs in", () => {
    // A fake "mesh" type 6 made of boxes along x; the enumerator reuses one pose per piece and
    // reports only pieces whose box overlaps the query.
    const pieces = [new Box(0.5, 0.05, 0.5), new Box(0.5, 0.05, 0.5), new Box(0.5, 0.05, 0.5)];
    const offsets = [-1, 0, 1];
    const fakeMesh = { type: 6, maximumRadius: 2, minimumRadius: 0 } as unknown as Shape;
    let visited = 0;
    registerSweepPieceEnumerator(6, (_s, minX, _minY, _minZ, maxX, _maxY, _maxZ, sink: SweepPieceSink) => {
      for (let i = 0; i < 3; i++) {
        if (offsets[i] + 0.5 < minX || offsets[i] - 0.5 > maxX) continue;
        visited++;
        sink.add(pieces[i], offsets[i], 0, 0, 0, 0, 0, 1, 10 + i);
      }
    });
    try {
      const out = new SweepResult();
      // Sphere falling onto the piece at x = 1 (index 12).
      const hit = sweepShapes(new Sphere(0.1), moving(1.2, 1, 0, 0, -100, 0), fakeMesh, fixed(0, 0, 0), DT, 1e-5, 1e-5, out);
      expect(hit).toBe(true);
      expect(out.childA).toBe(0);
      expect(out.childB).toBe(12);
      expect(Math.abs(out.t1 - (1 - 0.15) / 100)).toBeLessThanOrEqual(1e-5);
      expect(visited).toBe(1); // the query box excluded the other two pieces
      // Mesh as A: swapped internally, normal flipped back (A toward B: mesh up to the sphere).
      const hit2 = sweepShapes(fakeMesh, fixed(0, 0, 0), new Sphere(0.1), moving(1.2, 1, 0, 0, -100, 0), DT, 1e-5, 1e-5, out);
      expect(hit2).toBe(true);
      expect(out.childA).toBe(12);
      expect(out.childB).toBe(0);
      expect(out.normalY).toBeCloseTo(1, 6);
    } finally {
      registerSweepPieceEnumerator(6, null);
    }
  });
});

describe("sweepShapeLinear (post-solve TOI check over a swept transform)", () => {
  it("a box nlerping and translating through a wall hits at the brute-force fraction", () => {
    const box = new Box(0.4, 0.05, 0.1);
    const wall = new Box(0.025, 2, 2);
    const q1 = axisAngle(0, 0, 1, 1.2);
    // COM from x = 0 to x = 3 over the step, local COM (0.1, 0, 0).
    const m = new SweptMotion().setEndpoints(0, 0, 0, 0, 0, 0, 1, 3, 0.2, 0, ...q1, 0.1, 0, 0);
    const w = fixed(1.5, 0, 0);
    const brute = bruteForceToi(box, m, wall, w, 1, 1e-6);
    const out = new SweepResult();
    expect(sweepShapeLinear(box, m, wall, w, 0, 1e-5, out)).toBe(true);
    log("linear", brute, out.t0, out.t1, out.iterations);
    expect(out.t0).toBeLessThanOrEqual(brute + 1e-9);
    expect(Math.abs(out.t1 - brute)).toBeLessThanOrEqual(1e-5);
    // The pose at the returned fraction is before the wall: distance >= 0 (within tolerance).
    expect(distanceAt(box, m, wall, w, out.t0)).toBeGreaterThanOrEqual(0);
  });

  it("endpoint motion with duration dt uses seconds", () => {
    const s = new Sphere(0.1);
    const m = new SweptMotion().setEndpoints(0, 0, 0, 0, 0, 0, 1, 10, 0, 0, 0, 0, 0, 1, 0, 0, 0, DT);
    const out = new SweepResult();
    expect(sweepShapes(s, m, new Box(0.05, 1, 1), fixed(5, 0, 0), DT, 0, 1e-6, out)).toBe(true);
    expect(Math.abs(out.t1 - (5 - 0.15) / 600)).toBeLessThanOrEqual(1e-6);
  });
});
