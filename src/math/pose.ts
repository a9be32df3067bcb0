import { quatMatrix, rotateParts, type QuatLike } from "./quat";
import type { Vec3Like } from "./vec3";

/** rotationMatrix's orientation, for quatMatrix (docs/design.md, doubles). */
const POSE_Q = new Float64Array(4);
/** compose's turned child position. */
const POSE_V = new Float64Array(3);

/**
 * A rigid transform as scalar fields: position (px, py, pz) and unit orientation (qx, qy, qz, qw).
 * Used as preallocated scratch for the narrow phase and queries; never created per pair.
 */
export class Pose {
  px = 0;
  py = 0;
  pz = 0;
  qx = 0;
  qy = 0;
  qz = 0;
  qw = 1;

  set(px: number, py: number, pz: number, qx: number, qy: number, qz: number, qw: number): this {
    this.px = px;
    this.py = py;
    this.pz = pz;
    this.qx = qx;
    this.qy = qy;
    this.qz = qz;
    this.qw = qw;
    return this;
  }

  setFrom(p: Vec3Like, q: QuatLike): this {
    return this.set(p.x, p.y, p.z, q.x, q.y, q.z, q.w);
  }

  copyFrom(o: Pose): this {
    return this.set(o.px, o.py, o.pz, o.qx, o.qy, o.qz, o.qw);
  }

  /**
   * out[o..o+2] = the local point (vx, vy, vz) in world: p + v + 2w(u x v) + 2 u x (u x v), u the orientation's
   * vector part, summed in that order (the narrow phase's features and supports rely on these exact roundings).
   */
  pointToWorld(vx: number, vy: number, vz: number, out: Float64Array, o: number): void {
    const qx = this.qx,
      qy = this.qy,
      qz = this.qz,
      qw = this.qw;
    const tx = 2 * (qy * vz - qz * vy);
    const ty = 2 * (qz * vx - qx * vz);
    const tz = 2 * (qx * vy - qy * vx);
    out[o] = this.px + vx + qw * tx + (qy * tz - qz * ty);
    out[o + 1] = this.py + vy + qw * ty + (qz * tx - qx * tz);
    out[o + 2] = this.pz + vz + qw * tz + (qx * ty - qy * tx);
  }

  /**
   * Writes the local +Y axis in world (the rotation matrix's second column; a capsule's or cylinder's axis)
   * into out[o..o+2].
   */
  axisY(out: Float64Array, o: number): void {
    const qx = this.qx,
      qy = this.qy,
      qz = this.qz,
      qw = this.qw;
    out[o] = 2 * (qx * qy - qw * qz);
    out[o + 1] = 1 - 2 * (qx * qx + qz * qz);
    out[o + 2] = 2 * (qy * qz + qw * qx);
  }

  /**
   * Writes this pose's rotation matrix into R[0..8] and `p`'s position in this pose's frame, R^T (p - this),
   * into out[o..o+2] (a sphere's or capsule's centre in a box's frame).
   */
  localPositionOf(p: Pose, R: Float64Array, out: Float64Array, o: number): void {
    this.rotationMatrix(R, 0);
    const wx = p.px - this.px,
      wy = p.py - this.py,
      wz = p.pz - this.pz;
    out[o] = R[0] * wx + R[3] * wy + R[6] * wz;
    out[o + 1] = R[1] * wx + R[4] * wy + R[7] * wz;
    out[o + 2] = R[2] * wx + R[5] * wy + R[8] * wz;
  }

  /**
   * Writes the rotation matrix of the orientation (row-major, 9 numbers) into out[o..o+8]. Reads its own
   * fields, so per-step callers pass no doubles.
   */
  rotationMatrix(out: Float64Array, o: number): void {
    const q = POSE_Q;
    q[0] = this.qx;
    q[1] = this.qy;
    q[2] = this.qz;
    q[3] = this.qw;
    quatMatrix(q, 0, out, o);
  }

  /**
   * this = parent * child: the child's local pose (cp, cq) expressed in world space.
   * `this` may be `parent`.
   */
  compose(parent: Pose, cpx: number, cpy: number, cpz: number, cqx: number, cqy: number, cqz: number, cqw: number): this {
    const qx = parent.qx,
      qy = parent.qy,
      qz = parent.qz,
      qw = parent.qw;
    // The child's position turned by the parent's orientation.
    const r = POSE_V;
    rotateParts(qx, qy, qz, qw, cpx, cpy, cpz, r, 0);
    const px = parent.px + r[0],
      py = parent.py + r[1],
      pz = parent.pz + r[2];
    // q = parent.q * child.q
    const nx = qw * cqx + qx * cqw + qy * cqz - qz * cqy;
    const ny = qw * cqy - qx * cqz + qy * cqw + qz * cqx;
    const nz = qw * cqz + qx * cqy - qy * cqx + qz * cqw;
    const nw = qw * cqw - qx * cqx - qy * cqy - qz * cqz;
    return this.set(px, py, pz, nx, ny, nz, nw);
  }
}
