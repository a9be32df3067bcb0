import { describe, expect, it } from "vitest";
import { angularBoundsExpansion, Box, Capsule, Cylinder, expandBounds, Pose, speculativeMargin, type ConvexShape } from "../../src/index";
import { rng } from "./helpers";

/** Pose at time t under constant v and w (exact exponential map; tests may use trigonometry). */
function poseAt(p0: Pose, v: number[], w: number[], t: number, out: Pose): Pose {
  const wl = Math.hypot(w[0], w[1], w[2]);
  let dx = 0,
    dy = 0,
    dz = 0,
    dw = 1;
  if (wl > 0) {
    const s = Math.sin((wl * t) / 2) / wl;
    dx = w[0] * s;
    dy = w[1] * s;
    dz = w[2] * s;
    dw = Math.cos((wl * t) / 2);
  }
  // q(t) = dq * q0
  const { qx, qy, qz, qw } = p0;
  return out.set(
    p0.px + v[0] * t,
    p0.py + v[1] * t,
    p0.pz + v[2] * t,
    dw * qx + dx * qw + dy * qz - dz * qy,
    dw * qy - dx * qz + dy * qw + dz * qx,
    dw * qz + dx * qy - dy * qx + dz * qw,
    dw * qw - dx * qx - dy * qy - dz * qz,
  );
}

const shapes: ConvexShape[] = [new Box(0.5, 0.2, 1), new Capsule(0.2, 0.8), new Cylinder(0.6, 0.1)];

describe("velocity-expanded bounds (bepu BoundingBoxHelpers)", () => {
  it("contain the body's motion over the step, linear and spinning", () => {
    const r = rng(3);
    const dt = 1 / 60;
    const box0 = new Float64Array(6),
      sample = new Float64Array(6);
    const p0 = new Pose(),
      pt = new Pose();
    let worstSlack = Infinity;
    for (let trial = 0; trial < 300; trial++) {
      const shape = shapes[trial % shapes.length];
      const q = [r() - 0.5, r() - 0.5, r() - 0.5, r() - 0.5];
      const ql = Math.hypot(...q);
      p0.set(r() * 10, r() * 10, r() * 10, q[0] / ql, q[1] / ql, q[2] / ql, q[3] / ql);
      const v = [(r() - 0.5) * 100, (r() - 0.5) * 100, (r() - 0.5) * 100];
      // Angular speeds up to 120 rad/s: past the pi/3 clamp at 60 Hz.
      const w = [(r() - 0.5) * 140, (r() - 0.5) * 140, (r() - 0.5) * 140];
      shape.computeAabb(p0, box0, 0);
      const exp = angularBoundsExpansion(Math.hypot(w[0], w[1], w[2]), dt, shape.maximumRadius, shape.maximumRadius - shape.minimumRadius);
      expandBounds(box0, 0, v[0], v[1], v[2], dt, exp, Infinity);
      for (let k = 0; k <= 64; k++) {
        shape.computeAabb(poseAt(p0, v, w, (dt * k) / 64, pt), sample, 0);
        for (let a = 0; a < 3; a++) {
          worstSlack = Math.min(worstSlack, sample[a] - box0[a], box0[a + 3] - sample[a + 3]);
        }
      }
    }
    // Every sampled pose lies inside the expanded box (slack >= 0 up to round-off).
    expect(worstSlack).toBeGreaterThan(-1e-9);
  });

  it("for Discrete mode never exceed the speculative margin on any side", () => {
    const r = rng(5);
    const dt = 1 / 60;
    const box0 = new Float64Array(6),
      grown = new Float64Array(6);
    const p0 = new Pose();
    for (let trial = 0; trial < 200; trial++) {
      const shape = shapes[trial % shapes.length];
      p0.set(0, 0, 0, 0, 0, 0, 1);
      const v = [(r() - 0.5) * 200, (r() - 0.5) * 200, (r() - 0.5) * 200];
      const wl = r() * 100;
      const exp = angularBoundsExpansion(wl, dt, shape.maximumRadius, shape.maximumRadius - shape.minimumRadius);
      const margin = speculativeMargin(Math.hypot(v[0], v[1], v[2]), exp, dt, 0, 0.05 + r() * 0.2);
      shape.computeAabb(p0, box0, 0);
      grown.set(box0);
      expandBounds(grown, 0, v[0], v[1], v[2], dt, exp, margin);
      for (let a = 0; a < 3; a++) {
        expect(box0[a] - grown[a]).toBeLessThanOrEqual(margin + 1e-12);
        expect(grown[a + 3] - box0[a + 3]).toBeLessThanOrEqual(margin + 1e-12);
      }
    }
  });

  it("the angular term is sqrt(2 r^2 (1 - cos(w dt))) with the conservative Taylor cosine, clamped at pi/3", () => {
    const r = 2;
    // Small angle: the 6th-order series is below the true cosine, so the bound is at least the exact chord.
    const a = 0.3;
    const exact = Math.sqrt(2 * r * r * (1 - Math.cos(a)));
    const got = angularBoundsExpansion(a * 60, 1 / 60, r, 100);
    expect(got).toBeGreaterThanOrEqual(exact);
    expect(got - exact).toBeLessThan(1e-5);
    // Past pi/3 the chord is clamped at that angle: an equilateral triangle, chord = r (to the series' accuracy).
    expect(angularBoundsExpansion(1000, 1 / 60, r, 100)).toBeCloseTo(r, 2);
    // And it never exceeds the maximum angular expansion.
    expect(angularBoundsExpansion(1000, 1 / 60, r, 0.5)).toBe(0.5);
  });
});

describe("the world's per-body path", () => {
  it("predictBodyBounds gives the margin and bounds of the reference functions", async () => {
    const { World, Box, predictBodyBounds } = await import("../../src/index");
    const w = new World();
    const h = w.createBody({ angularVelocity: { x: 3, y: -7, z: 2 }, collidable: { shape: new Box(0.5, 0.2, 1), maximumSpeculativeMargin: 0.3 } });
    const b = w.bodies;
    const i = b.indexOf(h);
    const dt = 1 / 60,
      v = [12, -4, 30];
    const ref = new Float64Array(6);
    for (const discrete of [false, true]) {
      const pose = new Pose().set(0, 0, 0, 0, 0, 0, 1);
      b.shape[i]!.computeAabb(pose, b.aabb, i * 6);
      ref.set(b.aabb.subarray(i * 6, i * 6 + 6));
      predictBodyBounds(b, i, new Float64Array([dt, v[0], v[1], v[2]]), discrete);
      const exp = angularBoundsExpansion(Math.hypot(3, -7, 2), dt, b.radius[i], b.angExpansion[i]);
      const m = speculativeMargin(Math.hypot(v[0], v[1], v[2]), exp, dt, 0, 0.3);
      expandBounds(ref, 0, v[0], v[1], v[2], dt, exp, discrete ? m : Infinity);
      expect(b.margin[i]).toBe(m);
      for (let k = 0; k < 6; k++) expect(b.aabb[i * 6 + k]).toBe(ref[k]);
    }
  });
});
