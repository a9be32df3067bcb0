import { describe, expect, it } from "vitest";
import { atanRatio, ldlFactor, ldlSolve, relativeAngles, symInverse } from "../../src/dynamics/joints/jointMath";
import { axisAngle } from "./harness";

function mul(a: number[], b: number[]): number[] {
  const [ax, ay, az, aw] = a;
  const [bx, by, bz, bw] = b;
  return [aw * bx + ax * bw + ay * bz - az * by, aw * by - ax * bz + ay * bw + az * bx, aw * bz + ax * by - ay * bx + az * bw, aw * bw - ax * bx - ay * by - az * bz];
}

describe("joint math", () => {
  it("atanRatio matches Math.atan2 to 1e-13 on x >= 0", () => {
    let worst = 0;
    for (let i = 0; i <= 2000; i++) {
      const t = (i / 2000) * Math.PI - Math.PI / 2;
      for (const r of [1e-3, 0.5, 1, 7.3]) {
        const x = r * Math.cos(t),
          y = r * Math.sin(t);
        worst = Math.max(worst, Math.abs(atanRatio(y, Math.max(0, x)) - Math.atan2(y, Math.max(0, x))));
      }
    }
    expect(worst).toBeLessThan(1e-13);
  });

  it("a rotation about one frame axis reads back as that angle only", () => {
    const ang = new Float64Array(3),
      jac = new Float64Array(9);
    for (let k = 0; k < 3; k++) {
      for (const a of [-2.5, -1, -0.01, 0.3, 1.2, 3.0]) {
        const q = axisAngle(k === 0 ? 1 : 0, k === 1 ? 1 : 0, k === 2 ? 1 : 0, a);
        relativeAngles(q.x, q.y, q.z, q.w, ang, jac);
        for (let j = 0; j < 3; j++) expect(ang[j]).toBeCloseTo(j === k ? a : 0, 12);
      }
    }
  });

  it("Jacobians match finite differences of the angles", () => {
    const ang = new Float64Array(3),
      jac = new Float64Array(9),
      ang2 = new Float64Array(3),
      tmp = new Float64Array(9);
    const q0 = mul(mul([...Object.values(axisAngle(0, 1, 0, 0.7))], [...Object.values(axisAngle(0, 0, 1, -0.4))]), [...Object.values(axisAngle(1, 0, 0, 1.1))]);
    relativeAngles(q0[0], q0[1], q0[2], q0[3], ang, jac);
    const eps = 1e-7;
    for (let c = 0; c < 3; c++) {
      // q' = 1/2 (w, 0) * q, with w = unit axis c
      const w = [c === 0 ? 1 : 0, c === 1 ? 1 : 0, c === 2 ? 1 : 0, 0];
      const d = mul(w, q0);
      const q1 = q0.map((v, i) => v + 0.5 * eps * d[i]);
      relativeAngles(q1[0], q1[1], q1[2], q1[3], ang2, tmp);
      for (let k = 0; k < 3; k++) expect((ang2[k] - ang[k]) / eps).toBeCloseTo(jac[k * 3 + c], 5);
    }
  });

  it("symInverse inverts a point block and, for a singular one, gives what ldlFactor / ldlSolve give", () => {
    // A ball-and-socket's K: m 1 plus a positive semi-definite inertia part (well conditioned): K K^-1 = 1 to
    // round-off (1e-12 on entries of order 1).
    const K = new Float64Array([2.5, 0.3, -0.2, 0.3, 1.7, 0.4, -0.2, 0.4, 3.1]);
    const M = new Float64Array(6);
    symInverse(3, K, 0, M, 0);
    const inv = [M[0], M[1], M[2], M[1], M[3], M[4], M[2], M[4], M[5]];
    for (let i = 0; i < 3; i++)
      for (let j = 0; j < 3; j++) {
        let v = 0;
        for (let k = 0; k < 3; k++) v += K[i * 3 + k] * inv[k * 3 + j];
        expect(v).toBeCloseTo(i === j ? 1 : 0, 12);
      }
    // The 2x2 (a hinge's two angular rows), read from the lower triangle as ldlFactor does (the hinge writes
    // only that one: entry 1 is stale there).
    const M2 = new Float64Array(3);
    K[1] = 99;
    symInverse(2, K, 0, M2, 0);
    const det = 2.5 * 1.7 - 0.3 * 0.3;
    expect(M2[0]).toBeCloseTo(1.7 / det, 14);
    expect(M2[1]).toBeCloseTo(-0.3 / det, 14);
    expect(M2[2]).toBeCloseTo(2.5 / det, 14);
    // Singular (nothing moves along z): the LDL path's answer, which gives z no impulse.
    const S = new Float64Array([2, 0.5, 0, 0.5, 1, 0, 0, 0, 0]);
    symInverse(3, S, 0, M, 0);
    const F = new Float64Array(6),
      r = new Float64Array([0.7, -1.3, 2.0]),
      x = new Float64Array(3);
    ldlFactor(3, S, 0, F, 0);
    ldlSolve(3, F, 0, r, x);
    expect(M[0] * r[0] + M[1] * r[1] + M[2] * r[2]).toBeCloseTo(x[0], 14);
    expect(M[1] * r[0] + M[3] * r[1] + M[4] * r[2]).toBeCloseTo(x[1], 14);
    expect(M[2] * r[0] + M[4] * r[1] + M[5] * r[2]).toBe(0);
    expect(x[2]).toBe(0);
  });
});
