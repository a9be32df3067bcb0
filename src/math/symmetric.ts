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
  const s00 = s[so],
    s11 = s[so + 1],
    s22 = s[so + 2],
    s01 = s[so + 3],
    s02 = s[so + 4],
    s12 = s[so + 5];
  // T = R S
  const t00 = R[0] * s00 + R[1] * s01 + R[2] * s02;
  const t01 = R[0] * s01 + R[1] * s11 + R[2] * s12;
  const t02 = R[0] * s02 + R[1] * s12 + R[2] * s22;
  const t10 = R[3] * s00 + R[4] * s01 + R[5] * s02;
  const t11 = R[3] * s01 + R[4] * s11 + R[5] * s12;
  const t12 = R[3] * s02 + R[4] * s12 + R[5] * s22;
  const t20 = R[6] * s00 + R[7] * s01 + R[8] * s02;
  const t21 = R[6] * s01 + R[7] * s11 + R[8] * s12;
  const t22 = R[6] * s02 + R[7] * s12 + R[8] * s22;
  // out = T R^T
  out[oo] = t00 * R[0] + t01 * R[1] + t02 * R[2];
  out[oo + 1] = t10 * R[3] + t11 * R[4] + t12 * R[5];
  out[oo + 2] = t20 * R[6] + t21 * R[7] + t22 * R[8];
  out[oo + 3] = t00 * R[3] + t01 * R[4] + t02 * R[5];
  out[oo + 4] = t00 * R[6] + t01 * R[7] + t02 * R[8];
  out[oo + 5] = t10 * R[6] + t11 * R[7] + t12 * R[8];
}
