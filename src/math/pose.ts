import type { QuatLike } from "./quat";
import type { Vec3Like } from "./vec3";

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
   * Writes the rotation matrix of the orientation (row-major, 9 numbers) into out[o..o+8]. Reads its own
   * fields, so per-step callers pass no doubles.
   */
  rotationMatrix(out: Float64Array, o: number): void {
    const qx = this.qx,
      qy = this.qy,
      qz = this.qz,
      qw = this.qw;
    const x2 = qx + qx,
      y2 = qy + qy,
      z2 = qz + qz;
    const xx = qx * x2,
      xy = qx * y2,
      xz = qx * z2,
      yy = qy * y2,
      yz = qy * z2,
      zz = qz * z2;
    const wx = qw * x2,
      wy = qw * y2,
      wz = qw * z2;
    out[o] = 1 - (yy + zz);
    out[o + 1] = xy - wz;
    out[o + 2] = xz + wy;
    out[o + 3] = xy + wz;
    out[o + 4] = 1 - (xx + zz);
    out[o + 5] = yz - wx;
    out[o + 6] = xz - wy;
    out[o + 7] = yz + wx;
    out[o + 8] = 1 - (xx + yy);
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
    // rotate child position by parent orientation
    const tx = 2 * (qy * cpz - qz * cpy);
    const ty = 2 * (qz * cpx - qx * cpz);
    const tz = 2 * (qx * cpy - qy * cpx);
    const rx = cpx + qw * tx + (qy * tz - qz * ty);
    const ry = cpy + qw * ty + (qz * tx - qx * tz);
    const rz = cpz + qw * tz + (qx * ty - qy * tx);
    const px = parent.px + rx,
      py = parent.py + ry,
      pz = parent.pz + rz;
    // q = parent.q * child.q
    const nx = qw * cqx + qx * cqw + qy * cqz - qz * cqy;
    const ny = qw * cqy - qx * cqz + qy * cqw + qz * cqx;
    const nz = qw * cqz + qx * cqy - qy * cqx + qz * cqw;
    const nw = qw * cqw - qx * cqx - qy * cqy - qz * cqz;
    return this.set(px, py, pz, nx, ny, nz, nw);
  }
}
