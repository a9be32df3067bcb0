/**
 * Surface and pair materials: what a collidable's surface is made of, how two surfaces combine, and the
 * material of a contact pair as the contact solver uses it (a spring, bepuphysics2's SpringSettings).
 */

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

/**
 * True when two surface materials are the same in every field (`rollingResistance` included), so that one can
 * stand for the other: e.g. a container's leaves that agree need no per-child surfaces.
 */
export function sameSurfaceMaterial(a: SurfaceMaterial, b: SurfaceMaterial): boolean {
  return (
    a.friction === b.friction &&
    a.staticFriction === b.staticFriction &&
    a.restitution === b.restitution &&
    a.frictionCombine === b.frictionCombine &&
    a.restitutionCombine === b.restitutionCombine &&
    a.rollingResistance === b.rollingResistance
  );
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
