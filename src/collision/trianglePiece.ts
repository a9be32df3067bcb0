/**
 * A triangle as a convex shape for GJK/EPA and sweeps: the pieces of meshes and heightfields, in the narrow phase
 * (convexMesh.ts) and in the world queries. Never registered or stored in a body; one instance is reused for every
 * triangle of a query (set, use, move on).
 */
import type { Pose } from "../math/pose";
import { ConvexShape, type MutableVec3 } from "../shapes/shape";
import { ShapeType } from "../shapes/shapeType";

export class TrianglePiece extends ConvexShape {
  readonly type = ShapeType.ConvexHull;
  readonly minimumRadius = 0;
  maximumRadius = 0;
  readonly v = new Float64Array(9);

  /** Copies the corners from s[o..o+8]. */
  set(s: Float64Array, o = 0): this {
    let r = 0;
    for (let i = 0; i < 9; i++) this.v[i] = s[o + i];
    for (let c = 0; c < 3; c++) {
      const x = this.v[3 * c],
        y = this.v[3 * c + 1],
        z = this.v[3 * c + 2];
      const d = x * x + y * y + z * z;
      if (d > r) r = d;
    }
    this.maximumRadius = Math.sqrt(r);
    return this;
  }

  computeAabb(pose: Pose, out: Float64Array, o: number): void {
    const v = this.v;
    const qx = pose.qx,
      qy = pose.qy,
      qz = pose.qz,
      qw = pose.qw;
    out[o] = out[o + 1] = out[o + 2] = Infinity;
    out[o + 3] = out[o + 4] = out[o + 5] = -Infinity;
    for (let c = 0; c < 3; c++) {
      const x = v[3 * c],
        y = v[3 * c + 1],
        z = v[3 * c + 2];
      const tx = 2 * (qy * z - qz * y);
      const ty = 2 * (qz * x - qx * z);
      const tz = 2 * (qx * y - qy * x);
      const wx = pose.px + x + qw * tx + (qy * tz - qz * ty);
      const wy = pose.py + y + qw * ty + (qz * tx - qx * tz);
      const wz = pose.pz + z + qw * tz + (qx * ty - qy * tx);
      if (wx < out[o]) out[o] = wx;
      if (wy < out[o + 1]) out[o + 1] = wy;
      if (wz < out[o + 2]) out[o + 2] = wz;
      if (wx > out[o + 3]) out[o + 3] = wx;
      if (wy > out[o + 4]) out[o + 4] = wy;
      if (wz > out[o + 5]) out[o + 5] = wz;
    }
  }

  volume(): number {
    return 0;
  }

  unitInertia(out: Float64Array, o: number): void {
    for (let k = 0; k < 6; k++) out[o + k] = 0;
  }

  supportLocal(dx: number, dy: number, dz: number, out: MutableVec3): void {
    const v = this.v;
    const d0 = v[0] * dx + v[1] * dy + v[2] * dz,
      d1 = v[3] * dx + v[4] * dy + v[5] * dz,
      d2 = v[6] * dx + v[7] * dy + v[8] * dz;
    const k = d0 >= d1 ? (d0 >= d2 ? 0 : 2) : d1 >= d2 ? 1 : 2;
    out.x = v[3 * k];
    out.y = v[3 * k + 1];
    out.z = v[3 * k + 2];
  }

  override supportCoreInto(dir: Float64Array, out: Float64Array): void {
    const v = this.v;
    const dx = dir[0],
      dy = dir[1],
      dz = dir[2];
    const d0 = v[0] * dx + v[1] * dy + v[2] * dz,
      d1 = v[3] * dx + v[4] * dy + v[5] * dz,
      d2 = v[6] * dx + v[7] * dy + v[8] * dz;
    const k = d0 >= d1 ? (d0 >= d2 ? 0 : 2) : d1 >= d2 ? 1 : 2;
    out[0] = v[3 * k];
    out[1] = v[3 * k + 1];
    out[2] = v[3 * k + 2];
  }

  override radiiInto(out: Float64Array, o: number): void {
    out[o] = 0;
    out[o + 1] = this.maximumRadius;
  }
}
