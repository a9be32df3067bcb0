import type { Pose } from "../math/pose";
import type { ShapeType } from "./shapeType";

/** Scratch vector for support queries. */
export interface MutableVec3 {
  x: number;
  y: number;
  z: number;
}

/**
 * A collision shape in its own local frame. Shapes are immutable once built and may be shared by
 * any number of bodies; the engine never allocates shapes in the step.
 */
export abstract class Shape {
  /** The kind of shape, for narrow-phase dispatch. */
  abstract readonly type: ShapeType;
  /** Largest distance from the local origin to any point of the shape. */
  abstract readonly maximumRadius: number;
  /** Smallest distance from the local origin to the shape's surface (0 if the origin is outside). */
  abstract readonly minimumRadius: number;

  /** Writes the world AABB of the shape at `pose` into out[o..o+5] (minX, minY, minZ, maxX, maxY, maxZ). */
  abstract computeAabb(pose: Pose, out: Float64Array, o: number): void;

  /** Volume of the solid shape, in cubic metres. */
  abstract volume(): number;

  /**
   * Inertia tensor of the solid shape per unit mass about its local origin, as the six values
   * (xx, yy, zz, xy, xz, yz) of the symmetric matrix, written into out[o..o+5].
   */
  abstract unitInertia(out: Float64Array, o: number): void;

  /** Centre of volume in local space. */
  centroid(out: MutableVec3): void {
    out.x = 0;
    out.y = 0;
    out.z = 0;
  }
}

/**
 * A convex shape: it can answer support queries, which GJK-style algorithms and sweeps use.
 */
export abstract class ConvexShape extends Shape {
  /**
   * The point of the shape farthest along local direction (dx, dy, dz) (not necessarily unit),
   * written into out.
   */
  abstract supportLocal(dx: number, dy: number, dz: number, out: MutableVec3): void;

  /**
   * A rounding radius: the shape is its "core" (supportCore) swept by a sphere of this radius.
   * 0 for boxes and cylinders; the radius for spheres and capsules. GJK runs on the core.
   */
  get coreRadius(): number {
    return 0;
  }

  /** Support of the core shape (the shape minus its rounding radius). */
  supportCore(dx: number, dy: number, dz: number, out: MutableVec3): void {
    this.supportLocal(dx, dy, dz, out);
  }

  /**
   * {@link supportCore} with the local direction read from dir[0..2] and the point written into
   * out[0..2]. The narrow phase calls this form: its call site sees every shape class, so the call is
   * never inlined (doubles in arrays, docs/design.md). The built-in shapes override it; this fallback serves other subclasses through supportCore.
   */
  supportCoreInto(dir: Float64Array, out: Float64Array): void {
    this.supportCore(dir[0], dir[1], dir[2], fallbackSupport);
    out[0] = fallbackSupport.x;
    out[1] = fallbackSupport.y;
    out[2] = fallbackSupport.z;
  }

  /**
   * Writes coreRadius into out[o] and maximumRadius into out[o + 1]. The narrow phase reads radii
   * through this rather than through the getters, for the same reason as {@link supportCoreInto}. Overridden by the built-in
   * shapes so each getter call here sees one class and inlines.
   */
  radiiInto(out: Float64Array, o: number): void {
    out[o] = this.coreRadius;
    out[o + 1] = this.maximumRadius;
  }
}

/** Scratch point for the supportCoreInto fallback (double-initialised so V8 gives its fields the double representation, written in place). */
const fallbackSupport: MutableVec3 = { x: 0.5, y: 0.5, z: 0.5 };

/** Writes a diagonal inertia (xx, yy, zz; no products) into out[o..o+5] (unitInertia's layout, math/symmetric.ts). */
export function diagonalInertia(out: Float64Array, o: number, xx: number, yy: number, zz: number): void {
  out[o] = xx;
  out[o + 1] = yy;
  out[o + 2] = zz;
  out[o + 3] = 0;
  out[o + 4] = 0;
  out[o + 5] = 0;
}
