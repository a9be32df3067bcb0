/** A point as a convex piece of the world queries (the triangle piece is the narrow phase's, collision/trianglePiece). */
import type { Pose } from "../math/pose";
import { ConvexShape, type MutableVec3 } from "../shapes/shape";
import { ShapeType } from "../shapes/shapeType";

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
