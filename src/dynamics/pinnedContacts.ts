/**
 * Impacts on pinned bodies: one level of shock propagation (Guendelman, Bridson and Fedkiw, "Nonconvex rigid
 * bodies with stacking", SIGGRAPH 2003, section 7; Erleben's thesis "Stable, robust and versatile multibody
 * dynamics animation", 2004, chapter 6 calls it the same).
 *
 * A light body held against a static (or kinematic) one cannot move further into it. When a heavy body hits it
 * there, the sequential-impulse solver removes only m_heavy / (m_heavy + m_light) of the approach per pass
 * through the two contacts (the light body takes the push, the wall stops it, the next pass starts over): a 10 kg
 * sphere at 50 m/s against a 1 kg box on a wall kept most of its speed through the eight substeps, drove the box
 * through the wall or went 0.4 m into it. Shock propagation solves the hit as it is: against a body that cannot
 * yield along the hit's normal, i.e. with the pinned body's mass taken as infinite in that contact.
 *
 * Kept narrow so that resting stacks (which shock propagation makes too stiff to topple) do not change: only
 * manifolds between two dynamic bodies meeting an impact this step (approaching faster than the solver's
 * impact speed at its start) are candidates, and a body counts as pinned only along the normals of its contacts
 * with infinite-mass bodies that touch now (separation at most {@link PIN_SEPARATION}).
 */
import { StampSet } from "../collections/stampSet";

/**
 * Only a hit by a body at least this many times heavier pins the body it hits. Between comparable masses
 * Gauss-Seidel converges in the step's sixteen passes (half the approach removed per pass at 1:1), and the pin,
 * which takes the pinned body as immovable in every direction of the hit, would change how such bodies scatter.
 */
export const PIN_MASS_RATIO = 1;

/** A contact with an infinite-mass body pins when its separation is at most this (m): touching, or into it. */
export const PIN_SEPARATION = 0.001;

/**
 * A hit pushing a body along direction d is stopped by its pins when d . p >= PIN_COS |p|, with p the sum of the
 * unit normals of its pinning manifolds (into the static bodies): within 37 degrees of their mean. Pinned, the body
 * is taken as immovable in every direction of the hit, so a hit far from the pins' direction (a ball struck
 * off-centre, which would roll away) must not count.
 */
const PIN_COS = 0.8;

/** Per-manifold pin states: no pin, B pinned (A's push cannot move B), A pinned. */
export const PIN_NONE = 0,
  PIN_B = 1,
  PIN_A = 2;

/** Per-body pin directions of the current substep (only the bodies written this substep count). */
export class PinField {
  private dir = new Float64Array(0);
  private readonly members = new StampSet();

  /** Readies the field for `bodies` bodies and a new substep's pins. */
  begin(bodies: number): void {
    if (this.members.begin(bodies)) this.dir = new Float64Array(Math.max(bodies, this.dir.length / 3) * 3);
  }

  /**
   * Adds unit normal sign * (v[at], v[at + 1], v[at + 2]) (sign 1 or -1) into body i's pin direction. The vector
   * is passed as an array and an offset, not as doubles: V8 boxes double arguments of a call it does not inline.
   */
  add(i: number, v: Float64Array, at: number, sign: number): void {
    const i3 = i * 3;
    if (this.members.add(i)) this.dir[i3] = this.dir[i3 + 1] = this.dir[i3 + 2] = 0;
    this.dir[i3] += sign * v[at];
    this.dir[i3 + 1] += sign * v[at + 1];
    this.dir[i3 + 2] += sign * v[at + 2];
  }

  /** Whether body i is pinned against a push along sign * (v[at], v[at + 1], v[at + 2]) (a unit vector; see add). */
  holds(i: number, v: Float64Array, at: number, sign: number): boolean {
    if (!this.members.has(i)) return false;
    const i3 = i * 3;
    const px = this.dir[i3],
      py = this.dir[i3 + 1],
      pz = this.dir[i3 + 2];
    const d = sign * (px * v[at] + py * v[at + 1] + pz * v[at + 2]);
    return d > 0 && d * d >= PIN_COS * PIN_COS * (px * px + py * py + pz * pz);
  }
}

/** Whether some contact of manifold i (of n) meets an impact this step (its `warmField` is >= 0, see ContactSolver.prepare). */
export function meetsImpact(c: Float64Array, i: number, n: number, contactStride: number, warmField: number): boolean {
  for (let k = 0; k < n; k++) if (c[(i * 4 + k) * contactStride + warmField] >= 0) return true;
  return false;
}
