/**
 * Descriptions of bodies and collidables, in the vocabulary of docs/design.md (bepuphysics2's
 * BodyDescription / CollidableDescription / ContinuousDetection, and a PairMaterial whose contact is a
 * spring). They are plain data: the world copies what it needs when a body is created.
 */
import type { QuatLike } from "../math/quat";
import type { Vec3Like } from "../math/vec3";
import type { Shape } from "../shapes/shape";

// The vocabulary shared with dynamics/ lives there (lower layers never import world/); re-exported here.
import { MotionType } from "../dynamics/motionType";
import { ContinuousDetection, ContinuousDetectionMode } from "../dynamics/continuousDetection";
import { CombineMode, sameSurfaceMaterial, surfaceMaterial, type PairMaterial, type SpringSettings, type SurfaceMaterial } from "../dynamics/surfaceMaterial";
import type { MassProperties } from "../dynamics/massProperties";

export { MotionType, ContinuousDetection, ContinuousDetectionMode, CombineMode, surfaceMaterial, sameSurfaceMaterial };
export type { PairMaterial, SpringSettings, SurfaceMaterial, MassProperties };

/** What a body collides as. */
export interface CollidableDescription {
  /** The shape, or null for a body that does not collide. */
  shape: Shape | null;
  /** Default {@link ContinuousDetection.passive}. */
  continuity?: ContinuousDetection;
  /** Smallest speculative margin of the body (m). Default 0. */
  minimumSpeculativeMargin?: number;
  /** Largest speculative margin of the body (m). Default Infinity (unbounded). */
  maximumSpeculativeMargin?: number;
  /** Collision groups the body belongs to (int32 bits). Default -1 (all). */
  membership?: number;
  /** Collision groups the body collides with (int32 bits). Default -1 (all). */
  collideWith?: number;
  /** A trigger reports overlaps but has no contact response. Default false. */
  isTrigger?: boolean;
  /** Surface material. Default {@link surfaceMaterial}(). */
  material?: Partial<SurfaceMaterial>;
}

/** Everything needed to create a body. */
export interface BodyDescription {
  /** Default Dynamic. */
  motionType?: MotionType;
  /** Position of the body's origin (the frame the shape is expressed in). Default origin. */
  position?: Vec3Like;
  /** Orientation of the body's frame. Default identity. */
  orientation?: QuatLike;
  linearVelocity?: Vec3Like;
  angularVelocity?: Vec3Like;
  collidable?: CollidableDescription;
  /** Density (kg/m^3) used to compute mass properties from the shape. Default 1000. */
  density?: number;
  /**
   * Explicit mass properties; any field given replaces the one computed from the shape. Setting only
   * `mass` scales the computed inertia with it (inertia is per unit mass until overridden).
   */
  massProperties?: Partial<MassProperties>;
  /** Linear damping per second. Default 0. */
  linearDamping?: number;
  /** Angular damping per second. Default 0. */
  angularDamping?: number;
  /** Multiplies gravity for this body. Default 1. */
  gravityFactor?: number;
  /** Whether the body may fall asleep. Default true. */
  sleepingAllowed?: boolean;
  /** Add the body asleep: it stays put until something wakes it. Default false. */
  startAsleep?: boolean;
}
