/**
 * Descriptions of bodies and collidables, in the vocabulary of docs/design.md (bepuphysics2's
 * BodyDescription / CollidableDescription / ContinuousDetection, and a PairMaterial whose contact is a
 * spring). They are plain data: the world copies what it needs when a body is created.
 */
import type { QuatLike } from "../math/quat";
import type { Vec3Like } from "../math/vec3";
import type { Shape } from "../shapes/shape";

/** How a body moves: static bodies never move, kinematic bodies follow their velocity with infinite mass. */
export const MotionType = { Static: 0, Kinematic: 1, Dynamic: 2 } as const;
/** One of {@link MotionType}'s values. */
export type MotionType = (typeof MotionType)[keyof typeof MotionType];

/**
 * Continuous collision modes (bepu `ContinuousDetectionMode`):
 * - Discrete: bounds expanded by velocity only up to the speculative margin; no sweeps.
 * - Passive (the default): bounds expanded by the whole motion; no sweeps.
 * - Continuous: bounds expanded by the whole motion; pairs whose relative motion exceeds the pair margin
 *   are swept to find the time of impact.
 */
export const ContinuousDetectionMode = { Discrete: 0, Passive: 1, Continuous: 2 } as const;
/** One of {@link ContinuousDetectionMode}'s values. */
export type ContinuousDetectionMode = (typeof ContinuousDetectionMode)[keyof typeof ContinuousDetectionMode];

/** A collidable's continuous collision settings. */
export interface ContinuousDetection {
  mode: ContinuousDetectionMode;
  /** Continuous only: the least progress (s) a sweep makes per iteration. Default 1e-3. */
  minimumSweepTimestep: number;
  /** Continuous only: a sweep stops when the impact interval is narrower than this (s). Default 1e-3. */
  sweepConvergenceThreshold: number;
}

/** Factories for {@link ContinuousDetection} values. */
export const ContinuousDetection = {
  discrete(): ContinuousDetection {
    return { mode: ContinuousDetectionMode.Discrete, minimumSweepTimestep: 0, sweepConvergenceThreshold: 0 };
  },
  passive(): ContinuousDetection {
    return { mode: ContinuousDetectionMode.Passive, minimumSweepTimestep: 0, sweepConvergenceThreshold: 0 };
  },
  continuous(minimumSweepTimestep = 1e-3, sweepConvergenceThreshold = 1e-3): ContinuousDetection {
    return { mode: ContinuousDetectionMode.Continuous, minimumSweepTimestep, sweepConvergenceThreshold };
  },
};

/**
 * How two surfaces' values combine into a pair's value. Numbering and meaning follow Babylon's
 * `PhysicsMaterialCombineMode`; when two surfaces ask for different modes the larger value wins.
 */
export const CombineMode = { GeometricMean: 0, Minimum: 1, Maximum: 2, ArithmeticMean: 3, Multiply: 4 } as const;
/** One of {@link CombineMode}'s values. */
export type CombineMode = (typeof CombineMode)[keyof typeof CombineMode];

/** Surface properties of a collidable; a pair's {@link PairMaterial} is combined from both sides. */
export interface SurfaceMaterial {
  /** Dynamic (sliding) friction coefficient. Default 0.5. */
  friction: number;
  /** Static friction coefficient (used while a contact is not sliding). Default = friction. */
  staticFriction: number;
  /** Coefficient of restitution in [0, 1]: the ratio of separation to approach speed. Default 0. */
  restitution: number;
  /** Default Minimum. */
  frictionCombine: CombineMode;
  /** Default Maximum. */
  restitutionCombine: CombineMode;
  /**
   * Rolling resistance coefficient (dimensionless, like a tyre's C_rr: about 0.01 for a car tyre on asphalt, 0.001
   * for a steel wheel on rail, 0.3 for a tyre in sand). A contact resists the relative rolling of its two bodies
   * with a torque up to this x its normal force x the rolling body's radius at the contact, so a ball or wheel
   * coasting on a level floor slows at about this x g. A pair uses the larger of its two surfaces' values (the
   * softer surface decides: a ball rolls on sand as on sand). Default 0 (none).
   */
  rollingResistance: number;
}

/** Creates a {@link SurfaceMaterial} with defaults for the missing fields. */
export function surfaceMaterial(m: Partial<SurfaceMaterial> = {}): SurfaceMaterial {
  const friction = m.friction ?? 0.5;
  return {
    friction,
    staticFriction: m.staticFriction ?? friction,
    restitution: m.restitution ?? 0,
    frictionCombine: m.frictionCombine ?? CombineMode.Minimum,
    restitutionCombine: m.restitutionCombine ?? CombineMode.Maximum,
    rollingResistance: m.rollingResistance ?? 0,
  };
}

/** A contact spring (bepu `SpringSettings`): natural frequency in Hz and damping ratio. */
export interface SpringSettings {
  frequency: number;
  dampingRatio: number;
}

/**
 * The material of one contact pair, as the solver uses it. Contacts are springs: penetration is
 * resolved by a spring of `spring` settings whose recovery speed is capped at
 * `maximumRecoveryVelocity`. Restitution is a velocity target applied after the soft solve for
 * approach speeds above `restitutionThreshold`, so a requested e is the e that is measured.
 */
export interface PairMaterial {
  friction: number;
  staticFriction: number;
  restitution: number;
  /** Rolling resistance coefficient of the pair: the larger of its surfaces' (see SurfaceMaterial). */
  rollingResistance: number;
  restitutionThreshold: number;
  spring: SpringSettings;
  maximumRecoveryVelocity: number;
}

/** Mass properties of a body about its centre of mass. */
export interface MassProperties {
  /** Mass in kg; 0 means infinite mass. */
  mass: number;
  /** Centre of mass in the body's local frame. */
  centerOfMass: Vec3Like;
  /**
   * Principal moments of inertia in kg m^2 (not per unit mass); a 0 component means infinite
   * inertia about that axis.
   */
  inertia: Vec3Like;
  /** Rotation from the principal axes to the body's local frame. */
  inertiaOrientation: QuatLike;
}

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
