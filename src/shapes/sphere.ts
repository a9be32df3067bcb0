import type { Pose } from "../math/pose";
import { ConvexShape, diagonalInertia, type MutableVec3 } from "./shape";
import { ShapeType } from "./shapeType";
import { requirePositive } from "./validate";

/** A sphere centred on its local origin. */
export class Sphere extends ConvexShape {
  readonly type = ShapeType.Sphere;
  // Dimensions are `declare`d and assigned once in the constructor (docs/design.md, doubles).
  declare readonly radius: number;

  constructor(radius: number) {
    super();
    this.radius = requirePositive("radius", radius);
  }

  get maximumRadius(): number {
    return this.radius;
  }
  get minimumRadius(): number {
    return this.radius;
  }
  override get coreRadius(): number {
    return this.radius;
  }

  computeAabb(pose: Pose, out: Float64Array, o: number): void {
    const r = this.radius;
    out[o] = pose.px - r;
    out[o + 1] = pose.py - r;
    out[o + 2] = pose.pz - r;
    out[o + 3] = pose.px + r;
    out[o + 4] = pose.py + r;
    out[o + 5] = pose.pz + r;
  }

  volume(): number {
    return (4 / 3) * Math.PI * this.radius * this.radius * this.radius;
  }

  unitInertia(out: Float64Array, o: number): void {
    const i = 0.4 * this.radius * this.radius;
    diagonalInertia(out, o, i, i, i);
  }

  supportLocal(dx: number, dy: number, dz: number, out: MutableVec3): void {
    const l = Math.sqrt(dx * dx + dy * dy + dz * dz);
    const s = l > 0 ? this.radius / l : 0;
    out.x = dx * s;
    out.y = dy * s;
    out.z = dz * s;
  }

  override supportCore(_dx: number, _dy: number, _dz: number, out: MutableVec3): void {
    out.x = 0;
    out.y = 0;
    out.z = 0;
  }

  override supportCoreInto(_dir: Float64Array, out: Float64Array): void {
    out[0] = 0;
    out[1] = 0;
    out[2] = 0;
  }

  override radiiInto(out: Float64Array, o: number): void {
    // The getters' values, computed here: a getter call could miss inlining and box its result.
    out[o] = this.radius;
    out[o + 1] = this.radius;
  }
}
