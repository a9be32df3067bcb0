/**
 * Coulomb friction in the metric of the tangent effective mass: its eigenbasis, once per step (tangentEigen), and
 * the projection of an unclamped friction impulse onto the friction disc (projectFriction).
 */
import { F_E1X, F_E1Y, F_T12M, F_T1M, F_T2M } from "./constraintLayout";

/** projectFriction's in and out: u (0, 1) and the disc's radius (2) in, the projected impulse (0, 1) out. */
export const fr = new Float64Array(3);

/** tangentEigen's input K = [[k11, k12], [k12, k22]] as (k11, k12, k22): V8 boxes double arguments of a call it does not inline. */
export const tangentK = new Float64Array(3);

/**
 * Writes the eigenvectors of the symmetric 2x2 tangent effective mass K = [[k11, k12], [k12, k22]] (tangentK) to
 * the contact: unit eigenvector e1 (F_E1X, F_E1Y) of the larger eigenvalue; e2 = perp(e1). The eigenvalues are not
 * stored: projectFriction reads them off the inverse K^-1 the contact keeps (F_T1M...), whose eigenvectors are
 * the same (two slots fewer per contact).
 */
export function tangentEigen(fm: Float64Array, fo: number): void {
  const k11 = tangentK[0],
    k12 = tangentK[1],
    k22 = tangentK[2];
  const half = 0.5 * (k11 - k22);
  const disc = Math.sqrt(half * half + k12 * k12);
  const mid = 0.5 * (k11 + k22);
  const big = mid + disc;
  let ex: number, ey: number;
  if (Math.abs(k12) > 1e-300) {
    ex = k12;
    ey = big - k11;
    const l = Math.sqrt(ex * ex + ey * ey);
    ex /= l;
    ey /= l;
  } else if (k11 >= k22) {
    ex = 1;
    ey = 0;
  } else {
    ex = 0;
    ey = 1;
  }
  fm[fo + F_E1X] = ex;
  fm[fo + F_E1Y] = ey;
}

/**
 * Projects the unclamped friction impulse u onto the disc |n| <= max in the metric of the tangent
 * effective mass K (the velocity response), i.e. the Coulomb impulse that leaves the least relative
 * kinetic energy: n = (K + beta I)^-1 K u with beta >= 0 such that |n| = max. Fast sliding gives
 * n = -max * (sliding direction); a contact on the edge of sticking gives u scaled onto the disc.
 * K's eigenvectors come from the contact (tangentEigen, once per step), its eigenvalues from K^-1; beta solves the secular equation by
 * Newton on 1/|n(beta)| - 1/max (More and Sorensen's trust-region iteration), which converges monotonically.
 */
export function projectFriction(io: Float64Array, fm: Float64Array, fo: number): void {
  // In: u (io[0], io[1]), max (io[2]); out: n (io[0], io[1]).
  const u1 = io[0],
    u2 = io[1],
    max = io[2];
  const out = io;
  if (!(max > 0)) {
    // No normal impulse: no friction (tested here, not in the solver loop, to keep its branches few).
    out[0] = 0;
    out[1] = 0;
    return;
  }
  const e1x = fm[fo + F_E1X],
    e1y = fm[fo + F_E1Y];
  const e2x = -e1y,
    e2y = e1x;
  // K's eigenvalues: 1 / (e . K^-1 e) for each eigenvector (0 where K^-1 is 0: a singular K, see prepare).
  const m11 = fm[fo + F_T1M],
    m12 = fm[fo + F_T12M],
    m22 = fm[fo + F_T2M];
  const q1 = e1x * e1x * m11 + 2 * e1x * e1y * m12 + e1y * e1y * m22,
    q2 = e2x * e2x * m11 + 2 * e2x * e2y * m12 + e2y * e2y * m22;
  const l1 = q1 > 0 ? 1 / q1 : 0,
    l2 = q2 > 0 ? 1 / q2 : 0;
  if (!(l2 > 0)) {
    const sc = max / Math.sqrt(u1 * u1 + u2 * u2);
    out[0] = u1 * sc;
    out[1] = u2 * sc;
    return;
  }
  // K u in the eigenbasis.
  const p1 = l1 * (e1x * u1 + e1y * u2),
    p2 = l2 * (e2x * u1 + e2y * u2);
  let beta = 0;
  for (let it = 0; it < 8; it++) {
    const d1 = l1 + beta,
      d2 = l2 + beta;
    const q1 = p1 / d1,
      q2 = p2 / d2;
    const f = Math.sqrt(q1 * q1 + q2 * q2);
    if (f <= max * (1 + 1e-9)) break;
    const df = -(q1 * q1 / d1 + q2 * q2 / d2) / f;
    // Newton on psi(beta) = 1/f - 1/max, psi' = -df / f^2.
    beta += ((1 / f - 1 / max) * f * f) / df;
  }
  const n1 = p1 / (l1 + beta),
    n2 = p2 / (l2 + beta);
  // Land exactly on the disc (the iteration stops within round-off of it).
  const l = Math.sqrt(n1 * n1 + n2 * n2);
  const sc = l > max ? max / l : 1;
  out[0] = (e1x * n1 + e2x * n2) * sc;
  out[1] = (e1y * n1 + e2y * n2) * sc;
}
