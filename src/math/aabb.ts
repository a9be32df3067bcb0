/** Axis-aligned bounds of posed boxes, and the ray-box slab test. */
import type { Pose } from "./pose";

const R = new Float64Array(9);

/**
 * World AABB (min xyz, max xyz into out[o..o+5]) of a box given in the pose's local frame by its centre and
 * half extents, box[bo..bo+5] = (cx, cy, cz, hx, hy, hz): the centre transformed, the extents |R| h.
 */
export function orientedBoxAabb(pose: Pose, box: ArrayLike<number>, bo: number, out: Float64Array, o: number): void {
  pose.rotationMatrix(R, 0);
  const cx = box[bo],
    cy = box[bo + 1],
    cz = box[bo + 2];
  const hx = box[bo + 3],
    hy = box[bo + 4],
    hz = box[bo + 5];
  const wcx = pose.px + R[0] * cx + R[1] * cy + R[2] * cz;
  const wcy = pose.py + R[3] * cx + R[4] * cy + R[5] * cz;
  const wcz = pose.pz + R[6] * cx + R[7] * cy + R[8] * cz;
  const ex = Math.abs(R[0]) * hx + Math.abs(R[1]) * hy + Math.abs(R[2]) * hz;
  const ey = Math.abs(R[3]) * hx + Math.abs(R[4]) * hy + Math.abs(R[5]) * hz;
  const ez = Math.abs(R[6]) * hx + Math.abs(R[7]) * hy + Math.abs(R[8]) * hz;
  out[o] = wcx - ex;
  out[o + 1] = wcy - ey;
  out[o + 2] = wcz - ez;
  out[o + 3] = wcx + ex;
  out[o + 4] = wcy + ey;
  out[o + 5] = wcz + ez;
}

/** The AABB of half extents e[0..2] about the pose's position into out[o..o+5] (min xyz, max xyz). */
export function aabbAround(pose: Pose, e: Float64Array, out: Float64Array, o: number): void {
  out[o] = pose.px - e[0];
  out[o + 1] = pose.py - e[1];
  out[o + 2] = pose.pz - e[2];
  out[o + 3] = pose.px + e[0];
  out[o + 4] = pose.py + e[1];
  out[o + 5] = pose.pz + e[2];
}

/**
 * One axis of the ray-box slab test (Ericson, RTCD 5.3.3): clips the ray's parameter interval
 * T[0..1] = [tEnter, tExit] to the t where lo <= o + t d <= hi (`inv` = 1 / d). A ray parallel to the slab
 * (d = 0) lies inside it for every t or misses the box; the boundary counts as inside. Returns -1 for a miss,
 * 1 when tEnter grew (this axis is, so far, the entry face's), else 0. Small enough to be inlined, so its
 * doubles are not boxed (docs/design.md).
 */
export function clipSlab(o: number, d: number, inv: number, lo: number, hi: number, T: Float64Array): number {
  if (d === 0) return o < lo || o > hi ? -1 : 0;
  let a = (lo - o) * inv,
    b = (hi - o) * inv;
  if (a > b) {
    const s = a;
    a = b;
    b = s;
  }
  if (b < T[1]) T[1] = b;
  if (a > T[0]) {
    T[0] = a;
    return 1;
  }
  return 0;
}
