import { orientedBoxAabb } from "../math/aabb";
import type { Pose } from "../math/pose";
import { ConvexShape, diagonalInertia, type MutableVec3 } from "./shape";
import { ShapeType } from "./shapeType";
import { requirePositive } from "./validate";

/** A box centred on its local origin, given by its half extents along the local axes. */
export class Box extends ConvexShape {
  readonly type = ShapeType.Box;
  // Dimensions are `declare`d and assigned once in the constructor (docs/design.md, doubles).
  declare readonly halfX: number;
  declare readonly halfY: number;
  declare readonly halfZ: number;
  /** (0, 0, 0, halfX, halfY, halfZ): the box for orientedBoxAabb. */
  private declare readonly localBox: Float64Array;

  constructor(halfX: number, halfY: number, halfZ: number) {
    super();
    this.halfX = requirePositive("halfX", halfX);
    this.halfY = requirePositive("halfY", halfY);
    this.halfZ = requirePositive("halfZ", halfZ);
    this.localBox = new Float64Array([0, 0, 0, this.halfX, this.halfY, this.halfZ]);
  }

  get maximumRadius(): number {
    return Math.sqrt(this.halfX * this.halfX + this.halfY * this.halfY + this.halfZ * this.halfZ);
  }
  get minimumRadius(): number {
    return Math.min(this.halfX, this.halfY, this.halfZ);
  }

  computeAabb(pose: Pose, out: Float64Array, o: number): void {
    orientedBoxAabb(pose, this.localBox, 0, out, o);
  }

  volume(): number {
    return 8 * this.halfX * this.halfY * this.halfZ;
  }

  unitInertia(out: Float64Array, o: number): void {
    const x2 = this.halfX * this.halfX,
      y2 = this.halfY * this.halfY,
      z2 = this.halfZ * this.halfZ;
    diagonalInertia(out, o, (y2 + z2) / 3, (x2 + z2) / 3, (x2 + y2) / 3);
  }

  supportLocal(dx: number, dy: number, dz: number, out: MutableVec3): void {
    out.x = dx >= 0 ? this.halfX : -this.halfX;
    out.y = dy >= 0 ? this.halfY : -this.halfY;
    out.z = dz >= 0 ? this.halfZ : -this.halfZ;
  }

  override supportCoreInto(dir: Float64Array, out: Float64Array): void {
    out[0] = dir[0] >= 0 ? this.halfX : -this.halfX;
    out[1] = dir[1] >= 0 ? this.halfY : -this.halfY;
    out[2] = dir[2] >= 0 ? this.halfZ : -this.halfZ;
  }

  override radiiInto(out: Float64Array, o: number): void {
    // The getters' values, computed here: a getter call could miss inlining and box its result.
    out[o] = 0;
    out[o + 1] = Math.sqrt(this.halfX * this.halfX + this.halfY * this.halfY + this.halfZ * this.halfZ);
  }
}
