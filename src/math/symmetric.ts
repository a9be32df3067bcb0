/**
 * Symmetric 3x3 matrices stored as six numbers (xx, yy, zz, xy, xz, yz): inertia tensors and their inverses.
 */

import { quatMatrix } from "./quat";

/** rotateSymmetric's rotation matrix. */
const SYM_R = new Float64Array(9);

/**
 * out[oo..oo+5] = R S R^T, with S = s[so..so+5] and R the rotation of the unit quaternion q[qo..qo+3]
 * (x, y, z, w). Everything is read from and written to arrays, so the per-step callers pass no doubles.
 */
export function rotateSymmetric(s: ArrayLike<number>, so: number, q: ArrayLike<number>, qo: number, out: Float64Array, oo: number): void {
  const R = SYM_R;
  quatMatrix(q, qo, R, 0);
  const r00 = R[0],
    r01 = R[1],
    r02 = R[2];
  const r10 = R[3],
    r11 = R[4],
    r12 = R[5];
  const r20 = R[6],
    r21 = R[7],
    r22 = R[8];
  const s00 = s[so],
    s11 = s[so + 1],
    s22 = s[so + 2],
    s01 = s[so + 3],
    s02 = s[so + 4],
    s12 = s[so + 5];
  // T = R S
  const t00 = r00 * s00 + r01 * s01 + r02 * s02;
  const t01 = r00 * s01 + r01 * s11 + r02 * s12;
  const t02 = r00 * s02 + r01 * s12 + r02 * s22;
  const t10 = r10 * s00 + r11 * s01 + r12 * s02;
  const t11 = r10 * s01 + r11 * s11 + r12 * s12;
  const t12 = r10 * s02 + r11 * s12 + r12 * s22;
  const t20 = r20 * s00 + r21 * s01 + r22 * s02;
  const t21 = r20 * s01 + r21 * s11 + r22 * s12;
  const t22 = r20 * s02 + r21 * s12 + r22 * s22;
  // out = T R^T
  out[oo] = t00 * r00 + t01 * r01 + t02 * r02;
  out[oo + 1] = t10 * r10 + t11 * r11 + t12 * r12;
  out[oo + 2] = t20 * r20 + t21 * r21 + t22 * r22;
  out[oo + 3] = t00 * r10 + t01 * r11 + t02 * r12;
  out[oo + 4] = t00 * r20 + t01 * r21 + t02 * r22;
  out[oo + 5] = t10 * r20 + t11 * r21 + t12 * r22;
}
