/** Axis-aligned bounds of posed boxes. */
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
