import { aabbAround } from "../math/aabb";
import type { Pose } from "../math/pose";
import { ConvexShape, diagonalInertia, type MutableVec3 } from "./shape";
import { ShapeType } from "./shapeType";
import { requirePositive } from "./validate";

/** computeAabb's axis, then half extents. */
const AXIS = new Float64Array(3);

/** A cylinder centred on its local origin with its axis along local Y and flat caps at +-halfHeight. */
export class Cylinder extends ConvexShape {
  readonly type = ShapeType.Cylinder;
  // Dimensions are `declare`d and assigned once in the constructor (docs/design.md, doubles).
  declare readonly radius: number;
  declare readonly halfHeight: number;

  constructor(radius: number, halfHeight: number) {
    super();
    this.radius = requirePositive("radius", radius);
    this.halfHeight = requirePositive("halfHeight", halfHeight);
  }

  get maximumRadius(): number {
    return Math.sqrt(this.radius * this.radius + this.halfHeight * this.halfHeight);
  }
  get minimumRadius(): number {
    return Math.min(this.radius, this.halfHeight);
  }

  computeAabb(pose: Pose, out: Float64Array, o: number): void {
    pose.axisY(AXIS, 0);
    const ax = AXIS[0], ay = AXIS[1], az = AXIS[2];
    const h = this.halfHeight,
      r = this.radius;
    // A disc of radius r with unit normal a spans r*sqrt(1 - a_i^2) along axis i.
    const e = AXIS;
    e[0] = Math.abs(ax) * h + r * Math.sqrt(Math.max(0, 1 - ax * ax));
    e[1] = Math.abs(ay) * h + r * Math.sqrt(Math.max(0, 1 - ay * ay));
    e[2] = Math.abs(az) * h + r * Math.sqrt(Math.max(0, 1 - az * az));
    aabbAround(pose, e, out, o);
  }

  volume(): number {
    return Math.PI * this.radius * this.radius * 2 * this.halfHeight;
  }

  unitInertia(out: Float64Array, o: number): void {
    const r2 = this.radius * this.radius,
      H = 2 * this.halfHeight;
    const ixx = (3 * r2 + H * H) / 12;
    diagonalInertia(out, o, ixx, r2 / 2, ixx);
  }

  supportLocal(dx: number, dy: number, dz: number, out: MutableVec3): void {
    const l = Math.sqrt(dx * dx + dz * dz);
    if (l > 0) {
      out.x = (dx * this.radius) / l;
      out.z = (dz * this.radius) / l;
    } else {
      out.x = 0;
      out.z = 0;
    }
    out.y = dy >= 0 ? this.halfHeight : -this.halfHeight;
  }

  override supportCoreInto(dir: Float64Array, out: Float64Array): void {
    const dx = dir[0],
      dz = dir[2];
    const l = Math.sqrt(dx * dx + dz * dz);
    if (l > 0) {
      out[0] = (dx * this.radius) / l;
      out[2] = (dz * this.radius) / l;
    } else {
      out[0] = 0;
      out[2] = 0;
    }
    out[1] = dir[1] >= 0 ? this.halfHeight : -this.halfHeight;
  }

  override radiiInto(out: Float64Array, o: number): void {
    // The getters' values, computed here: a getter call could miss inlining and box its result.
    out[o] = 0;
    out[o + 1] = Math.sqrt(this.radius * this.radius + this.halfHeight * this.halfHeight);
  }
}
