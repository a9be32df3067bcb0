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
  restitutionThreshold: number;
  spring: SpringSettings;
  maximumRecoveryVelocity: number;
}
