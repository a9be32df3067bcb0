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
 * A push shorter than this fraction of the body's bounding radius is left to the soft contacts: it cannot carry the
 * body through anything, and a pile's every landing would otherwise widen its neighbours' margins.
 */
const PUSH_MIN_RADIUS_FRACTION = 0.25;

/**
 * Whether body j gets a push margin from partner i (dense indices, j dynamic, i not static), and with `apply`, grows
 * j's margin and bounds for it. The push is m_i / (m_i + m_j) times i's velocity relative to j (current velocities:
 * gravity moves both alike), along it, when i approaches j; at least a quarter of j's bounding radius over the step
 * and more than j's own margin. `io[0]`: dt. `discrete`: j's bounds grow by at most the added margin (as in
 * boundsExpansion.ts).
 */
export function pushMarginFromPartner(b: BodySet, i: number, j: number, io: Float64Array, discrete: boolean, apply = false): boolean {
  const dt = io[0];
  const i3 = i * 3,
    j3 = j * 3;
  const rx = b.vel[i3] - b.vel[j3],
    ry = b.vel[i3 + 1] - b.vel[j3 + 1],
    rz = b.vel[i3 + 2] - b.vel[j3 + 2];
  const mi = b.invMass[i],
    mj = b.invMass[j];
  // m_i / (m_i + m_j) = (1 / m_j) / (1 / m_i + 1 / m_j) with inverse masses; a kinematic i (inverse mass 0) gives 1.
  const share = mj / (mi + mj);
  const dx = rx * share * dt,
    dy = ry * share * dt,
    dz = rz * share * dt;
  const d2 = dx * dx + dy * dy + dz * dz;
  const least = b.margin[j] * 1.01 > PUSH_MIN_RADIUS_FRACTION * b.radius[j] ? b.margin[j] * 1.01 : PUSH_MIN_RADIUS_FRACTION * b.radius[j];
  if (!(d2 > least * least)) return false;
  // Approaching only: i's velocity relative to j points from i towards j.
  if (rx * (b.pos[j3] - b.pos[i3]) + ry * (b.pos[j3 + 1] - b.pos[i3 + 1]) + rz * (b.pos[j3 + 2] - b.pos[i3 + 2]) <= 0) return false;
  if (!apply) return true;
  let m = Math.sqrt(d2);
  if (m > b.marginMax[j]) m = b.marginMax[j];
  const grow = m - b.margin[j];
  if (!(grow > 0)) return false;
  b.margin[j] = m;
  // Bounds: grow by the push's displacement in its direction (capped at the added margin in Discrete mode).
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
