/** Small pose helpers for the queries: points and directions between world and a pose's frame. */
import type { Pose } from "../math/pose";
import { rotateParts } from "../math/quat";

/** out = pose^-1 applied to the world point (x, y, z). */
export function pointToLocal(p: Pose, x: number, y: number, z: number, out: Float64Array, o: number): void {
  rotateParts(-p.qx, -p.qy, -p.qz, p.qw, x - p.px, y - p.py, z - p.pz, out, o);
}

/** out = pose applied to the local point. */
export function pointToWorld(p: Pose, x: number, y: number, z: number, out: Float64Array, o: number): void {
  rotateParts(p.qx, p.qy, p.qz, p.qw, x, y, z, out, o);
  out[o] += p.px;
  out[o + 1] += p.py;
  out[o + 2] += p.pz;
}

/** out = R(pose) d. */
export function dirToWorld(p: Pose, x: number, y: number, z: number, out: Float64Array, o: number): void {
  rotateParts(p.qx, p.qy, p.qz, p.qw, x, y, z, out, o);
}

/** inv = pose^-1. */
export function invertPose(p: Pose, inv: Pose, scratch: Float64Array): Pose {
  rotateParts(-p.qx, -p.qy, -p.qz, p.qw, -p.px, -p.py, -p.pz, scratch, 0);
  return inv.set(scratch[0], scratch[1], scratch[2], -p.qx, -p.qy, -p.qz, p.qw);
}

/**
 * Closest point to p on triangle (a, b, c) (Ericson, Real-Time Collision Detection 5.1.5), written to
 * out[o..o+2]. Corners are read from t[to..to+8].
 */
export function closestOnTriangle(px: number, py: number, pz: number, t: Float64Array, to: number, out: Float64Array, o: number): void {
  const ax = t[to],
    ay = t[to + 1],
    az = t[to + 2];
  const abx = t[to + 3] - ax,
    aby = t[to + 4] - ay,
    abz = t[to + 5] - az;
  const acx = t[to + 6] - ax,
    acy = t[to + 7] - ay,
    acz = t[to + 8] - az;
  const apx = px - ax,
    apy = py - ay,
    apz = pz - az;
  const d1 = abx * apx + aby * apy + abz * apz,
    d2 = acx * apx + acy * apy + acz * apz;
  if (d1 <= 0 && d2 <= 0) return set3(out, o, ax, ay, az);
  const bpx = px - t[to + 3],
    bpy = py - t[to + 4],
    bpz = pz - t[to + 5];
  const d3 = abx * bpx + aby * bpy + abz * bpz,
    d4 = acx * bpx + acy * bpy + acz * bpz;
  if (d3 >= 0 && d4 <= d3) return set3(out, o, t[to + 3], t[to + 4], t[to + 5]);
  const vc = d1 * d4 - d3 * d2;
  if (vc <= 0 && d1 >= 0 && d3 <= 0) {
    const v = d1 / (d1 - d3);
    return set3(out, o, ax + v * abx, ay + v * aby, az + v * abz);
  }
  const cpx = px - t[to + 6],
    cpy = py - t[to + 7],
    cpz = pz - t[to + 8];
  const d5 = abx * cpx + aby * cpy + abz * cpz,
    d6 = acx * cpx + acy * cpy + acz * cpz;
  if (d6 >= 0 && d5 <= d6) return set3(out, o, t[to + 6], t[to + 7], t[to + 8]);
  const vb = d5 * d2 - d1 * d6;
  if (vb <= 0 && d2 >= 0 && d6 <= 0) {
    const w = d2 / (d2 - d6);
    return set3(out, o, ax + w * acx, ay + w * acy, az + w * acz);
  }
  const va = d3 * d6 - d5 * d4;
  if (va <= 0 && d4 - d3 >= 0 && d5 - d6 >= 0) {
    const w = (d4 - d3) / (d4 - d3 + (d5 - d6));
    const bx = t[to + 3],
      by = t[to + 4],
      bz = t[to + 5];
    return set3(out, o, bx + w * (t[to + 6] - bx), by + w * (t[to + 7] - by), bz + w * (t[to + 8] - bz));
  }
  const denom = 1 / (va + vb + vc);
  const v = vb * denom,
    w = vc * denom;
  set3(out, o, ax + abx * v + acx * w, ay + aby * v + acy * w, az + abz * v + acz * w);
}

function set3(out: Float64Array, o: number, x: number, y: number, z: number): void {
  out[o] = x;
  out[o + 1] = y;
  out[o + 2] = z;
}
