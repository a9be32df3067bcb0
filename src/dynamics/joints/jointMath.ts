/**
 * Joint math without trigonometric library calls (deterministic across JS engines: only +, -, *, /
 * and sqrt, which IEEE 754 rounds exactly):
 *
 * - `atanRatio(y, x)`: atan2 for x >= 0, accurate to ~1e-14 rad (two half-angle reductions, then
 *   the Taylor series).
 * - `relativeAngles`: the angle convention of the 6-DoF joint. With the joint frames FA, FB in world
 *   space, the relative rotation is q = conj(FA) * FB (B's frame seen from A's frame), sign-fixed so
 *   that qw >= 0. It is split as q = swing * twist, twist about X:
 *     twist = (qx, 0, 0, qw) / sqrt(qw^2 + qx^2),   swing = (0, sy, sz, sw) = q * conj(twist)
 *   and the three angles are
 *     ANGULAR_X (twist)   = 2 atan(qx / qw)                       in [-pi, pi]
 *     ANGULAR_Y (swing Y) = 2 atan(sy / sw) = 2 atan((qw qy - qx qz) / (qw^2 + qx^2))
 *     ANGULAR_Z (swing Z) = 2 atan(sz / sw) = 2 atan((qw qz + qx qy) / (qw^2 + qx^2))
 *   all right-handed (positive = B turned counter-clockwise about +axis relative to A). A rotation
 *   about one frame axis alone gives exactly that angle on that axis and 0 on the others; the three
 *   are independent coordinates of any rotation whose swing is below 180 degrees.
 *   Each angle's exact Jacobian with respect to the relative angular velocity (in A's frame) is
 *   d(angle)/dt = J . w with J = G^T grad(angle), where dq/dt = G w (q' = 1/2 (w, 0) * q).
 *   For the twist it is (1, sz/sw, -sy/sw): the twist axis half-way along the swing.
 */

const HALF_PI = 1.5707963267948966;

/**
 * atan2(AT[0], AT[1]) for AT[1] >= 0 into AT[2]: the solver's form of atanRatio. Arguments and result
 * go through this array because V8 boxes the doubles of a call it does not inline, and the angle code
 * calls this up to three times (too much to inline everywhere).
 */
const AT = new Float64Array(3);
function atanRatioAt(): void {
  const y = AT[0],
    x = AT[1];
  const ay = y < 0 ? -y : y;
  const low = ay <= x;
  // atan(t), t = the smaller over the larger in [0, 1]: two half-angle reductions (t / (1 + sqrt(1 + t^2)))
  // to |t| <= tan(pi/16), then 9 Taylor terms.
  const t = low ? (x > 0 ? ay / x : 0) : x / ay;
  const t1 = t / (1 + Math.sqrt(1 + t * t));
  const z = t1 / (1 + Math.sqrt(1 + t1 * t1));
  const z2 = z * z;
  // z - z^3/3 + z^5/5 - ... - z^15/15 + z^17/17 (Horner); remainder < z^19/19 ~ 3e-15
  const p =
    1 +
    z2 *
      (-1 / 3 +
        z2 *
          (1 / 5 +
            z2 * (-1 / 7 + z2 * (1 / 9 + z2 * (-1 / 11 + z2 * (1 / 13 + z2 * (-1 / 15 + z2 * (1 / 17))))))));
  const at = 4 * z * p;
  const a = low ? at : HALF_PI - at;
  AT[2] = y < 0 ? -a : a;
}

/** atan2(y, x) for x >= 0 (result in [-pi/2, pi/2]), with arithmetic and sqrt only. */
export function atanRatio(y: number, x: number): number {
  AT[0] = y;
  AT[1] = x;
  atanRatioAt();
  return AT[2];
}

/** Wraps an angle difference into [-pi, pi]. */
export function wrapAngle(a: number): number {
  const TWO_PI = 6.283185307179586;
  if (a > Math.PI) return a - TWO_PI * Math.floor((a + Math.PI) / TWO_PI);
  if (a < -Math.PI) return a + TWO_PI * Math.floor((Math.PI - a) / TWO_PI);
  return a;
}

/** Scratch of `relativeAngles` (the quaternion handed on by array: see `relativeAnglesOf`). */
const RQ = new Float64Array(4);

/** `relativeAnglesOf` mask of all three angles (bit k = angle k: 0 twist X, 1 swing Y, 2 swing Z). */
export const ALL_ANGLES = 7;

/**
 * Angles (twist X, swing Y, swing Z) of the relative rotation q (unit, any sign) and their Jacobians
 * in q's reference frame. Writes angles into ang[0..2] and J rows into jac[0..8] (row k = axis k).
 */
export function relativeAngles(qx: number, qy: number, qz: number, qw: number, ang: Float64Array, jac: Float64Array): void {
  RQ[0] = qx;
  RQ[1] = qy;
  RQ[2] = qz;
  RQ[3] = qw;
  relativeAnglesOf(RQ, ALL_ANGLES, ang, jac);
}

/**
 * `relativeAngles` of q = (q[0], q[1], q[2], q[3]) for the angles in `mask` only (bit k = angle k; the
 * others' entries are left alone): a hinge needs the two swings, not the twist. The quaternion comes
 * in an array because V8 boxes every double argument of a call it does not inline (an allocation per
 * call in the solver's inner loop).
 */
export function relativeAnglesOf(q: Float64Array, mask: number, ang: Float64Array, jac: Float64Array): void {
  let qx = q[0],
    qy = q[1],
    qz = q[2],
    qw = q[3];
  if (qw < 0) {
    qx = -qx;
    qy = -qy;
    qz = -qz;
    qw = -qw;
  }
  let v = qw * qw + qx * qx;
  if (v < 1e-12) v = 1e-12; // swing of 180 degrees: the split is undefined; keep the numbers finite
  if ((mask & 1) !== 0) {
    // twist
    AT[0] = qx;
    AT[1] = qw;
    atanRatioAt();
    ang[0] = 2 * AT[2];
    const iv = 1 / v;
    jac[0] = 1;
    jac[1] = (qw * qz + qx * qy) * iv;
    jac[2] = (qx * qz - qw * qy) * iv;
  }
  if ((mask & 2) !== 0) {
    // swing about Y: u = qw qy - qx qz, grad u = (-qz, qw, -qx, qy), grad v = (2qx, 0, 0, 2qw)
    const u = qw * qy - qx * qz;
    AT[0] = u;
    AT[1] = v;
    atanRatioAt();
    ang[1] = 2 * AT[2];
    const s = 2 / (u * u + v * v);
    const gx = s * (-v * qz - u * 2 * qx),
      gy = s * (v * qw),
      gz = s * (-v * qx),
      gw = s * (v * qy - u * 2 * qw);
    jac[3] = 0.5 * (qw * gx - qz * gy + qy * gz - qx * gw);
    jac[4] = 0.5 * (qz * gx + qw * gy - qx * gz - qy * gw);
    jac[5] = 0.5 * (-qy * gx + qx * gy + qw * gz - qz * gw);
  }
  if ((mask & 4) !== 0) {
    // swing about Z: u = qw qz + qx qy, grad u = (qy, qx, qw, qz)
    const u = qw * qz + qx * qy;
    AT[0] = u;
    AT[1] = v;
    atanRatioAt();
    ang[2] = 2 * AT[2];
    const s = 2 / (u * u + v * v);
    const gx = s * (v * qy - u * 2 * qx),
      gy = s * (v * qx),
      gz = s * (v * qw),
      gw = s * (v * qz - u * 2 * qw);
    jac[6] = 0.5 * (qw * gx - qz * gy + qy * gz - qx * gw);
    jac[7] = 0.5 * (qz * gx + qw * gy - qx * gz - qy * gw);
    jac[8] = 0.5 * (-qy * gx + qx * gy + qw * gz - qz * gw);
  }
}

/**
 * F[fo ..] = the LDL^T factors (i0, l10, i1, l20, l21, i2: inverse pivots and multipliers) of the symmetric
 * positive (semi-)definite n x n matrix K (n <= 3, row-major with stride 3, from K[ko]), without pivoting. A
 * non-positive pivot (a direction no body can move in) gets inverse 0, so that row's solution is 0.
 */
export function ldlFactor(n: number, K: Float64Array, ko: number, F: Float64Array, fo: number): void {
  const d0 = K[ko];
  const i0 = d0 > 1e-300 ? 1 / d0 : 0;
  F[fo] = i0;
  if (n === 1) return;
  const l10 = K[ko + 3] * i0;
  const k11 = K[ko + 4];
  const d1 = k11 - l10 * l10 * d0;
  const i1 = d1 > 1e-12 * k11 && d1 > 1e-300 ? 1 / d1 : 0;
  F[fo + 1] = l10;
  F[fo + 2] = i1;
  if (n === 2) return;
  const l20 = K[ko + 6] * i0;
  const l21 = (K[ko + 7] - l20 * l10 * d0) * i1;
  const k22 = K[ko + 8];
  const d2 = k22 - l20 * l20 * d0 - l21 * l21 * d1;
  F[fo + 3] = l20;
  F[fo + 4] = l21;
  F[fo + 5] = d2 > 1e-12 * k22 && d2 > 1e-300 ? 1 / d2 : 0;
}

/** out = K^-1 r from K's factors F[fo ..] (ldlFactor). */
export function ldlSolve(n: number, F: Float64Array, fo: number, r: Float64Array, out: Float64Array): void {
  const i0 = F[fo];
  if (n === 1) {
    out[0] = r[0] * i0;
    return;
  }
  const l10 = F[fo + 1],
    i1 = F[fo + 2];
  const y0 = r[0];
  const y1 = r[1] - l10 * y0;
  if (n === 2) {
    const x1 = y1 * i1;
    out[1] = x1;
    out[0] = y0 * i0 - l10 * x1;
    return;
  }
  const l20 = F[fo + 3],
    l21 = F[fo + 4];
  const x2 = (r[2] - l20 * y0 - l21 * y1) * F[fo + 5];
  const x1 = y1 * i1 - l21 * x2;
  out[0] = y0 * i0 - l10 * x1 - l20 * x2;
  out[1] = x1;
  out[2] = x2;
}

const LDL = new Float64Array(6);
const UNIT = new Float64Array(3);
const COL = new Float64Array(3);

/**
 * out[oo ..] = the inverse of the symmetric n x n matrix K (n = 2 or 3, row-major with stride 3, from K[ko]), packed
 * by rows of its upper triangle (n = 3: m00 m01 m02 m11 m12 m22; n = 2: m00 m01 m11), so that x = K^-1 r is one
 * matrix product with no dependency chain (for a block solved several times per factorisation; bepu's point
 * blocks store the inverse too). From the adjugate, with one division, when the determinant is well above
 * zero; otherwise (a direction no body can move in) the matrix that ldlFactor / ldlSolve apply, column by
 * column, which gives that direction no impulse.
 */
export function symInverse(n: number, K: Float64Array, ko: number, out: Float64Array, oo: number): void {
  // The lower triangle, as ldlFactor reads it.
  const k00 = K[ko],
    k01 = K[ko + 3],
    k11 = K[ko + 4];
  if (n === 2) {
    const det = k00 * k11 - k01 * k01;
    if (det > 1e-300 && det > 1e-12 * k00 * k11) {
      const id = 1 / det;
      out[oo] = k11 * id;
      out[oo + 1] = -k01 * id;
      out[oo + 2] = k00 * id;
      return;
    }
  } else {
    const k02 = K[ko + 6],
      k12 = K[ko + 7],
      k22 = K[ko + 8];
    const c00 = k11 * k22 - k12 * k12,
      c01 = k02 * k12 - k01 * k22,
      c02 = k01 * k12 - k02 * k11;
    const det = k00 * c00 + k01 * c01 + k02 * c02;
    if (det > 1e-300 && det > 1e-12 * k00 * k11 * k22) {
      const id = 1 / det;
      out[oo] = c00 * id;
      out[oo + 1] = c01 * id;
      out[oo + 2] = c02 * id;
      out[oo + 3] = (k00 * k22 - k02 * k02) * id;
      out[oo + 4] = (k01 * k02 - k00 * k12) * id;
      out[oo + 5] = (k00 * k11 - k01 * k01) * id;
      return;
    }
  }
  ldlFactor(n, K, ko, LDL, 0);
  let o = oo;
  for (let j = 0; j < n; j++) {
    UNIT[0] = 0;
    UNIT[1] = 0;
    UNIT[2] = 0;
    UNIT[j] = 1;
    ldlSolve(n, LDL, 0, UNIT, COL);
    for (let i = j; i < n; i++) out[o++] = COL[i];
  }
}

/**
 * Solves the symmetric positive (semi-)definite n x n system K x = r (n <= 3, K row-major with
 * stride 3) by LDL^T without pivoting (ldlFactor, ldlSolve). Writes x into out.
 */
export function solveSym(n: number, K: Float64Array, r: Float64Array, out: Float64Array): void {
  ldlFactor(n, K, 0, LDL, 0);
  ldlSolve(n, LDL, 0, r, out);
}

/**
 * K (upper entries 0, 1, 2, 4, 5, 8 of a row-major 3x3 at K[ko]) += -[r]x S [r]x: the inertia part of a point's
 * effective-mass matrix, with r = R[ro ..] and S symmetric (xx, yy, zz, xy, xz, yz) at S[so ..].
 */
export function addPointInertia(K: Float64Array, ko: number, S: Float64Array, so: number, R: Float64Array, ro: number): void {
  const rx = R[ro],
    ry = R[ro + 1],
    rz = R[ro + 2];
  const s0 = S[so],
    s1 = S[so + 1],
    s2 = S[so + 2],
    s3 = S[so + 3],
    s4 = S[so + 4],
    s5 = S[so + 5];
  // T = S [r]x, columns S (0, rz, -ry), S (-rz, 0, rx), S (ry, -rx, 0) (t00 is not needed); then -[r]x T.
  const t10 = s1 * rz - s5 * ry,
    t20 = s5 * rz - s2 * ry;
  const t01 = s4 * rx - s0 * rz,
    t11 = s5 * rx - s3 * rz,
    t21 = s2 * rx - s4 * rz;
  const t02 = s0 * ry - s3 * rx,
    t12 = s3 * ry - s1 * rx,
    t22 = s4 * ry - s5 * rx;
  // Rows of [r]x: (0, -rz, ry), (rz, 0, -rx), (-ry, rx, 0).
  K[ko] -= ry * t20 - rz * t10;
  K[ko + 1] -= ry * t21 - rz * t11;
  K[ko + 2] -= ry * t22 - rz * t12;
  K[ko + 4] -= rz * t01 - rx * t21;
  K[ko + 5] -= rz * t02 - rx * t22;
  K[ko + 8] -= rx * t12 - ry * t02;
}
