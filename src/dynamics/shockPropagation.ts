/**
 * Shock propagation for heavy bodies resting on light ones (Guendelman, Bridson and Fedkiw 2003, "Nonconvex
 * rigid bodies with stacking", section 7; Unreal Chaos' CalculateBodyShockPropagation scales the lower body's
 * inverse mass the same way).
 *
 * A soft contact's spring is sized on its pair's effective mass, which the light body dominates: a 1000 kg box on
 * a 1 kg box compresses that spring by x = m_heavy g / (m_eff w^2), several centimetres, and one Gauss-Seidel
 * pass per substep converges on the pair at a rate of m_heavy / (m_light + m_heavy) per pass, which is no
 * convergence at all. Here a contact whose upper body (against gravity) is much heavier than its lower one solves
 * its normal rows as if the lower body were fixed: the rows' effective mass is the upper body's, so the spring
 * holds it within a fraction of a millimetre and the pair converges in one pass. The impulse the rows add is not
 * lost: it is routed to the contact that supports the lower body (its own support, down the stack to a body not
 * frozen this way, usually the ground), added to that contact's accumulated impulse with the same force and the
 * same moment about the lower body (ContactSolver.route, supportShares). The warm start applies both
 * in the next substep, where they cancel on the lower body, so the lower body never feels a kick it was not
 * allowed to react to, and the ground carries the whole stack's weight (its friction bound included).
 *
 * Friction rows keep both bodies' true masses: shock propagation only decides who gives way along the normal.
 * The frozen rows read the lower body's velocity as zero (its own rows and its support take care of it); a lower
 * body moved along the normal by something else (a joint) carries the upper one only through the push-out.
 */

/** A contact's upper body must be at least this many times heavier than its lower one. */
export const SHOCK_MASS_RATIO = 4;

/** The contact normal must be within about 45 degrees of the up direction (against gravity). */
export const SHOCK_MIN_UP = 0.7;

/**
 * Shock propagation is for stacks that rest: a pair closing or parting faster than this (m/s, the relative linear
 * velocity at the start of the step) solves with both true masses. A fast impact into a pile otherwise freezes
 * the struck body, stops the falling one as if on the ground, and routes that impact down contacts that change
 * within the step: in a 300-body pile of rubber, wood and steel, bodies left it at 30-58 m/s after falling at
 * most 18 m/s (the playground's falling-shapes scene).
 */
export const SHOCK_REST_SPEED = 1;

/** How far down a stack a routed impulse travels (stacks are short; this only guards odd contact graphs). */
export const SHOCK_MAX_DEPTH = 16;

/**
 * Per step: which manifolds freeze their lower body, and which manifold supports each body. The manifold store
 * itself lives in the contact solver; this keeps only the per-body support table.
 */
export class ShockPropagation {
  /** Snapshots (src/world/stateCodec.ts): the tables are rebuilt by every step's prepare before they are read. */
  snapshotExtent(field: string): number {
    return field === "support" || field === "supportUp" ? 0 : -1;
  }

  /** Manifold index supporting each dense body index (its most upward-facing contact from below), -1: none. */
  support = new Int32Array(64);
  /** Upward component of that support's normal (as seen from the supported body), for choosing the best. */
  private supportUp = new Float64Array(64);
  /** Whether any manifold froze a body this step (routing is skipped otherwise). */
  active = false;

  /** Clears the support table for `bodyCount` bodies. */
  begin(bodyCount: number): void {
    if (this.support.length < bodyCount) {
      let cap = this.support.length;
      while (cap < bodyCount) cap *= 2;
      this.support = new Int32Array(cap);
      this.supportUp = new Float64Array(cap);
    }
    this.support.fill(-1, 0, bodyCount);
    this.supportUp.fill(0, 0, bodyCount);
    this.active = false;
  }

  /** classify's input: the upward component of the manifold's normal (a double is boxed as an argument of a call V8 does not inline). */
  readonly up = new Float64Array(1);

  /**
   * Records manifold m between dense bodies a (below the normal) and b, whose normal's upward component is
   * `this.up[0]` (n . -g/|g|, n from a to b), as a support candidate of the upper body. Returns the side to freeze in
   * its normal rows: 1 (a), 2 (b) or 0. `invMass`: the bodies' inverse masses (0: static or kinematic); `vel`: their
   * linear velocities (a pair faster than {@link SHOCK_REST_SPEED} apart freezes nothing).
   */
  classify(m: number, a: number, b: number, invMass: Float64Array, vel: Float64Array): number {
    const invA = invMass[a],
      invB = invMass[b],
      up = this.up[0];
    const a3 = a * 3,
      b3 = b * 3;
    const dvx = vel[b3] - vel[a3],
      dvy = vel[b3 + 1] - vel[a3 + 1],
      dvz = vel[b3 + 2] - vel[a3 + 2];
    const resting = dvx * dvx + dvy * dvy + dvz * dvz <= SHOCK_REST_SPEED * SHOCK_REST_SPEED;
    let upper = -1,
      frozen = 0,
      u = up;
    if (up >= SHOCK_MIN_UP) {
      upper = b;
      if (resting && invB > 0 && invA >= SHOCK_MASS_RATIO * invB) frozen = 1;
    } else if (up <= -SHOCK_MIN_UP) {
      upper = a;
      u = -up;
      if (resting && invA > 0 && invB >= SHOCK_MASS_RATIO * invA) frozen = 2;
    }
    if (upper >= 0 && u > this.supportUp[upper]) {
      this.supportUp[upper] = u;
      this.support[upper] = m;
    }
    if (frozen !== 0) this.active = true;
    return frozen;
  }
}
