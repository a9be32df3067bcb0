/**
 * Every parameter of the contact solver in one object (Rapier's IntegrationParameters): thresholds and factors the
 * solver reads, never state. A world's contact constraints hold one ({@link ContactConstraints.settings}); snapshots
 * leave it out, so a restored world keeps the settings it runs with. Per-pair values that users set (the contact
 * spring, the push-out cap, the restitution threshold, the substep counts) are the world's settings
 * (WorldSettings); their defaults are here.
 */

/** The contact solver's parameters; see {@link defaultSolverSettings} for each default and why. */
export interface SolverSettings {
  /** Default solver substeps of a world with joints (WorldSettings.substeps). */
  substeps: number;
  /** Default solver substeps of a world without joints (WorldSettings.contactSubsteps). */
  contactSubsteps: number;
  /** Default contact spring frequency (Hz) and damping ratio (WorldSettings.contactSpring). */
  contactHertz: number;
  contactDampingRatio: number;
  /** Default push-out cap (m/s, WorldSettings.maximumRecoveryVelocity). */
  maximumRecoveryVelocity: number;
  /** Default restitution threshold (m/s, WorldSettings.restitutionThreshold). */
  restitutionThreshold: number;
  /**
   * Hertz factor of a contact whose other body cannot be pushed (Box2D v3's staticSoftness: twice as stiff, so a
   * body on the ground holds its weight with half the spring's sag).
   */
  staticHertzScale: number;
  /**
   * A contact whose bodies approach faster than this (m/s) at the start of the step meets an impact during the
   * step: its impulses are tracked substep by substep so that the impact's is not warm-started again. Gravity adds
   * about g dt = 0.16 m/s per step, far below.
   */
  impactSpeed: number;
  /**
   * A pushing contact whose surfaces slide slower than this (m/s) after a substep's solve sticks: its friction is
   * bounded by the static coefficient in the next substep; faster, it slides with the dynamic one. Well above what
   * one Gauss-Seidel pass leaves of a held contact's tangential speed, and above the sliding a body placed a few
   * millimetres above a slope gathers before it lands (so it lands held, as on Havok).
   */
  stickSpeed: number;
  /**
   * Bodies slower than this (m/s at their farthest point) rest: the relax pass solves their manifolds' friction too
   * (ContactConstraints.relax). Twice the default sleep threshold's speed, so bodies settling toward sleep qualify.
   */
  restingSpeed: number;
  /**
   * ... if one of their contacts slides faster than this (m/s) when the relax pass reaches it. A resting pile's
   * contacts slide far slower and cost nothing (friction solved again on every resting manifold made a 210-box
   * pyramid's step 25 % slower); the braked car's wheels jitter at ~0.1 m/s and hold as well at 0.001 as at 0.03.
   */
  restingSlip: number;
  /**
   * Only a hit by a body at least this many times heavier pins the body it hits (pinnedContacts.ts). Between
   * comparable masses Gauss-Seidel converges in the step's passes (half the approach removed per pass at 1:1).
   */
  pinMassRatio: number;
  /** A contact with an infinite-mass body pins when its separation is at most this (m): touching, or into it. */
  pinSeparation: number;
  /**
   * A hit pushing a body along direction d is stopped by its pins when d . p >= pinCos |p|, with p the sum of the
   * unit normals of its pinning manifolds (into the static bodies): within 37 degrees of their mean. A hit far
   * from the pins' direction (a ball struck off-centre, which would roll away) must not count.
   */
  pinCos: number;
  /** Shock propagation (shockPropagation.ts): a contact's upper body must be this many times heavier than its lower one. */
  shockMassRatio: number;
  /** ... and its normal within about 45 degrees of up (against gravity): the normal's upward component at least this. */
  shockMinUp: number;
  /**
   * ... and the pair resting: closing or parting faster than this (m/s, the relative linear velocity at the start
   * of the step) solves with both true masses. A fast impact into a pile otherwise freezes the struck body, stops
   * the falling one as if on the ground, and routes that impact down contacts that change within the step: in a
   * 300-body pile of rubber, wood and steel, bodies left it at 30-58 m/s after falling at most 18 m/s.
   */
  shockRestSpeed: number;
  /** How far down a stack a routed impulse travels (stacks are short; this only guards odd contact graphs). */
  shockMaxDepth: number;
  /**
   * A contact deeper than this (m) is an overlap (bodies created or moved into one another), not a spring's sag:
   * the biased pass pushes it out through the positions only (split impulse: Catto, "Iterative dynamics", GDC 2006;
   * Bullet's splitImpulsePenetrationThreshold), holding its velocity rigidly, so the push leaves no velocity behind.
   * Pushed through the velocities, a body in a crowd kept the sum of its contacts' capped pushes: 200 spheres
   * created inside one another left at 7 m/s (10 at most) with a 3 m/s cap. Deep enough that resting and landing
   * contacts (sag 0.1 mm; impacts stopped by speculative contacts) stay springs: at 2 cm a basket pile started
   * from overlapping pieces settled 6 % lower at 1/60 s than at 1/240 s, at 5 cm within 4 %.
   */
  overlapDepth: number;
  /**
   * Whether the contact passes visit the manifolds colour by colour, then an overflow set (constraintGraph.ts): the
   * order a threaded solver needs, as a colour's manifolds share no dynamic body. On by default, at every thread
   * count, so that a world on one thread and on several give the same bits (src/parallel/contactBlocks.ts); at one
   * thread it costs 0-3 % a step against the cache's order (bench/RESULTS.md, session 13). Off: the contact cache's order, and
   * the contact passes stay on the calling thread whatever `threads` is.
   */
  colouredPasses: boolean;
}

/** The defaults (each field's documentation says why), read and never written. */
export const DEFAULT_SOLVER_SETTINGS: Readonly<SolverSettings> = Object.freeze({
  substeps: 8,
  contactSubsteps: 6,
  contactHertz: 60,
  contactDampingRatio: 10,
  maximumRecoveryVelocity: 3,
  restitutionThreshold: 0.5,
  staticHertzScale: 2,
  impactSpeed: 0.5,
  stickSpeed: 0.1,
  restingSpeed: 0.1,
  restingSlip: 0.01,
  pinMassRatio: 1,
  pinSeparation: 0.001,
  pinCos: 0.8,
  shockMassRatio: 4,
  shockMinUp: 0.7,
  shockRestSpeed: 1,
  shockMaxDepth: 16,
  overlapDepth: 0.05,
  colouredPasses: true,
});

/** A fresh copy of the defaults, for a world's contact constraints to own. */
export function defaultSolverSettings(): SolverSettings {
  return { ...DEFAULT_SOLVER_SETTINGS };
}
