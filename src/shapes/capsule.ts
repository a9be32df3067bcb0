import { aabbAround } from "../math/aabb";
import type { Pose } from "../math/pose";
import { ConvexShape, diagonalInertia, type MutableVec3 } from "./shape";
import { ShapeType } from "./shapeType";
import { requireNonNegative, requirePositive } from "./validate";

/** computeAabb's axis, then half extents. */
const AXIS = new Float64Array(3);

/**
 * A capsule centred on its local origin: the segment from (0, -halfLength, 0) to (0, +halfLength, 0)
 * swept by a sphere of `radius`.
 */
export class Capsule extends ConvexShape {
  readonly type = ShapeType.Capsule;
  // Dimensions are `declare`d and assigned once in the constructor (docs/design.md, doubles).
  declare readonly radius: number;
  declare readonly halfLength: number;

  constructor(radius: number, halfLength: number) {
    super();
    this.radius = requirePositive("radius", radius);
    this.halfLength = requireNonNegative("halfLength", halfLength);
  }

  get maximumRadius(): number {
    return this.halfLength + this.radius;
  }
  get minimumRadius(): number {
    return this.radius;
  }
  override get coreRadius(): number {
    return this.radius;
  }

  computeAabb(pose: Pose, out: Float64Array, o: number): void {
    pose.axisY(AXIS, 0);
    const h = this.halfLength,
      r = this.radius;
    const e = AXIS;
    e[0] = Math.abs(e[0]) * h + r;
    e[1] = Math.abs(e[1]) * h + r;
    e[2] = Math.abs(e[2]) * h + r;
    aabbAround(pose, e, out, o);
  }

  volume(): number {
    const r = this.radius;
    return Math.PI * r * r * (2 * this.halfLength) + (4 / 3) * Math.PI * r * r * r;
  }

  unitInertia(out: Float64Array, o: number): void {
    // Cylinder of height H plus two hemispheres whose centres of mass sit 3r/8 beyond the caps.
    const r = this.radius,
      H = 2 * this.halfLength;
    const mc = Math.PI * r * r * H;
    const mh = (2 / 3) * Math.PI * r * r * r; // one hemisphere
    const m = mc + 2 * mh;
    const iyy = mc * (r * r) * 0.5 + 2 * mh * 0.4 * r * r;
    const ixx = mc * ((H * H) / 12 + (r * r) / 4) + 2 * mh * (0.4 * r * r + (H * H) / 4 + (3 * H * r) / 8);
    diagonalInertia(out, o, ixx / m, iyy / m, ixx / m);
  }

  supportLocal(dx: number, dy: number, dz: number, out: MutableVec3): void {
    const l = Math.sqrt(dx * dx + dy * dy + dz * dz);
    const s = l > 0 ? this.radius / l : 0;
    out.x = dx * s;
    out.y = dy * s + (dy >= 0 ? this.halfLength : -this.halfLength);
    out.z = dz * s;
  }

  override supportCore(_dx: number, dy: number, _dz: number, out: MutableVec3): void {
    out.x = 0;
    out.y = dy >= 0 ? this.halfLength : -this.halfLength;
    out.z = 0;
  }

  override supportCoreInto(dir: Float64Array, out: Float64Array): void {
    out[0] = 0;
    out[1] = dir[1] >= 0 ? this.halfLength : -this.halfLength;
    out[2] = 0;
  }

  override radiiInto(out: Float64Array, o: number): void {
    // The getters' values, computed here: a getter call could miss inlining and box its result.
    out[o] = this.radius;
    out[o + 1] = this.halfLength + this.radius;
  }
}
