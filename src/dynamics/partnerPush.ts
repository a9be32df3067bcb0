/**
 * Speculative margins from a partner's speed. A body's margin and bounds come from its own velocity
 * (boundsExpansion.ts, after bepu's BoundingBoxBatcher), so a body at rest has none: when something fast hits it,
 * it is pushed through the step with no contacts ahead of it (bepu's documentation, "Continuous Collision
 * Detection", names this case: speculative contacts miss what the solver makes a body do within the step). A box
 * lying against a wall and hit by a heavy ball went through the wall.
 *
 * After the broad phase, each dynamic body whose broad-phase partner approaches it fast gets the margin and bounds
 * of the velocity a perfectly inelastic hit would give it, m_other / (m_other + m_self) times the approach
 * velocity (the whole of it from a kinematic partner), along that velocity. The broad phase then collects its
 * pairs again, so the contacts it is pushed into exist in the solver.
 */
import type { BodySet } from "./bodySet";

/**
 * Grows body j's margin and bounds for a push by partner i (dense indices; i moves, j is dynamic and awake).
 * `io`: dt, then i's and j's predicted velocities (vix, viy, viz, vjx, vjy, vjz). `discrete`: j's bounds grow by
 * at most its margin (as in boundsExpansion.ts). Returns true if j's margin grew.
 */
export function pushMarginFromPartner(b: BodySet, i: number, j: number, io: Float64Array, discrete: boolean): boolean {
  const dt = io[0];
  const rx = io[1] - io[4],
    ry = io[2] - io[5],
    rz = io[3] - io[6];
  // Approaching only: i's velocity relative to j points from i towards j.
  const i3 = i * 3,
    j3 = j * 3;
  if (rx * (b.pos[j3] - b.pos[i3]) + ry * (b.pos[j3 + 1] - b.pos[i3 + 1]) + rz * (b.pos[j3 + 2] - b.pos[i3 + 2]) <= 0) return false;
  const mi = b.invMass[i],
    mj = b.invMass[j];
  // m_i / (m_i + m_j) = (1 / m_j) / (1 / m_i + 1 / m_j) with inverse masses; a kinematic i (inverse mass 0) gives 1.
  const share = mj / (mi + mj);
  const dx = rx * share * dt,
    dy = ry * share * dt,
    dz = rz * share * dt;
  let m = Math.sqrt(dx * dx + dy * dy + dz * dz);
  if (m > b.marginMax[j]) m = b.marginMax[j];
  if (!(m > b.margin[j] * 1.01)) return false;
  const grow = m - b.margin[j];
  b.margin[j] = m;
  // Bounds: grow by the push's displacement in its direction (capped at the margin in Discrete mode).
  const out = b.aabb,
    o = j * 6;
  const max = discrete ? grow : Infinity;
  out[o] += dx < 0 ? (dx < -max ? -max : dx) : 0;
  out[o + 3] += dx > 0 ? (dx > max ? max : dx) : 0;
  out[o + 1] += dy < 0 ? (dy < -max ? -max : dy) : 0;
  out[o + 4] += dy > 0 ? (dy > max ? max : dy) : 0;
  out[o + 2] += dz < 0 ? (dz < -max ? -max : dz) : 0;
  out[o + 5] += dz > 0 ? (dz > max ? max : dz) : 0;
  return true;
}
