/**
 * A triangle as a convex shape for GJK/EPA and sweeps: the pieces of meshes and heightfields in the world
 * queries. One instance is reused for every triangle of a query (set, use, move on).
 */
import type { Pose } from "../math/pose";
import { ConvexShape, type MutableVec3 } from "../shapes/shape";
import { ShapeType } from "../shapes/shapeType";

export class TrianglePiece extends ConvexShape {
  /** Reported as a hull; never registered or stored in a body. */
  readonly type = ShapeType.ConvexHull;
  readonly minimumRadius = 0;
  maximumRadius = 0;
  /** Corners (local to the owning shape), xyz x 3. */
  readonly v = new Float64Array(9);

  set(src: Float64Array, o: number): this {
    let r = 0;
    for (let i = 0; i < 9; i++) this.v[i] = src[o + i];
    for (let c = 0; c < 3; c++) {
      const d = this.v[3 * c] ** 2 + this.v[3 * c + 1] ** 2 + this.v[3 * c + 2] ** 2;
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
    for (let i = 0; i < 6; i++) out[o + i] = 0;
  }

  supportLocal(dx: number, dy: number, dz: number, out: MutableVec3): void {
    const v = this.v;
    let best = 0,
      bd = v[0] * dx + v[1] * dy + v[2] * dz;
    for (let c = 1; c < 3; c++) {
      const d = v[3 * c] * dx + v[3 * c + 1] * dy + v[3 * c + 2] * dz;
      if (d > bd) {
        bd = d;
        best = c;
      }
    }
    out.x = v[3 * best];
    out.y = v[3 * best + 1];
    out.z = v[3 * best + 2];
  }
}

/** A single point (the origin) as a convex shape, for GJK point queries. */
export class PointPiece extends ConvexShape {
  readonly type = ShapeType.Sphere;
  readonly minimumRadius = 0;
  readonly maximumRadius = 0;
  computeAabb(pose: Pose, out: Float64Array, o: number): void {
    out[o] = out[o + 3] = pose.px;
    out[o + 1] = out[o + 4] = pose.py;
    out[o + 2] = out[o + 5] = pose.pz;
  }
  volume(): number {
    return 0;
  }
  unitInertia(out: Float64Array, o: number): void {
    for (let i = 0; i < 6; i++) out[o + i] = 0;
  }
  supportLocal(_dx: number, _dy: number, _dz: number, out: MutableVec3): void {
    out.x = 0;
    out.y = 0;
    out.z = 0;
  }
}
