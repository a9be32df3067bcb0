/**
 * Linear cast of one convex piece against another by conservative advancement on GJK distances: the ray
 * cast against the Minkowski difference of van den Bergen ("Ray casting against general convex objects with
 * application to continuous collision detection", 2004), in its distance form (as Box2D's and Bullet's
 * conservative advancement for pure translation).
 *
 * With A translated by t d, the surface gap g(t) = dist(core A + t d, core B) - rA - rB is convex in t (the
 * distance from a point moving on a line to a convex set). Each step measures g and the unit direction n
 * from A toward B with GJK (warm-started from the previous n) and advances by g / (d . n): Newton's step on g,
 * which lands at or before the first root because the tangent of a convex function lies below it. A
 * non-positive closing speed d . n proves that the gap never closes, and GJK's distance bound rejects pieces
 * that are farther than the remaining motion at once. Typically 2-4 GJK calls per piece pair, against a few
 * dozen for the general sweep.
 *
 * Pieces touching or overlapping at the start return {@link CAST_FALLBACK}: the general sweep keeps its rule
 * for them (a hit at 0 only when moving into the piece). Allocation-free: module-level scratch.
 */
import { GjkResult, gjkDistanceFrom } from "../collision/gjk";
import { Pose } from "../math/pose";
import type { ConvexShape } from "../shapes/shape";
import { CAST_FALLBACK, CAST_HIT, CAST_MISS } from "./sphereCast";

/**
 * In/out block (world space). In: [0..2] motion of A over fraction 1, [3] maxT. Out on a hit: [4] fraction.
 * The contact data are left to the caller (the proximity query at the hit pose).
 */
export const CONVEX_CAST = new Float64Array(8);

/** Iteration cap; a grazing contact (double root) converges linearly. */
const CAST_ITERATIONS = 64;
/** Gap (metres) counted as contact; the fraction is then early by at most this over the closing speed. */
const CAST_GAP = 1e-9;
/** After the cap, a gap below this still counts as a (grazing) contact. */
const CAST_GAP_CAPPED = 1e-6;

const poseA = new Pose();
const gjk = new GjkResult();
/** GJK warm start: direction A -> B in [0..2], distance bound in [3]. */
const START = new Float64Array(4);
const RADII = new Float64Array(4);

/**
 * Casts the convex piece a (pose pa at fraction 0, fixed orientation, moving by CONVEX_CAST[0..2]) against
 * the static piece b at pb, over [0, CONVEX_CAST[3]]. Returns CAST_MISS, CAST_HIT (fraction in CONVEX_CAST[4])
 * or CAST_FALLBACK.
 */
export function convexCast(a: ConvexShape, pa: Pose, b: ConvexShape, pb: Pose): number {
  const C = CONVEX_CAST;
  const dx = C[0],
    dy = C[1],
    dz = C[2],
    maxT = C[3];
  const dLen = Math.sqrt(dx * dx + dy * dy + dz * dz);
  a.radiiInto(RADII, 0);
  b.radiiInto(RADII, 2);
  const rr = RADII[0] + RADII[2];
  START[0] = pb.px - pa.px;
  START[1] = pb.py - pa.py;
  START[2] = pb.pz - pa.pz;
  let t = 0,
    gap = Infinity;
  for (let it = 0; it < CAST_ITERATIONS; it++) {
    poseA.set(pa.px + dx * t, pa.py + dy * t, pa.pz + dz * t, pa.qx, pa.qy, pa.qz, pa.qw);
    // Cores farther apart than the rest of the motion can close are a proved miss (GJK stops early).
    START[3] = rr + (maxT - t) * dLen + CAST_GAP;
    gjkDistanceFrom(a, poseA, b, pb, gjk, START);
    if (!gjk.separated) {
      // Cores touching: in contact at the start, or the last step closed the gap to GJK's resolution.
      if (t === 0) return CAST_FALLBACK;
      break;
    }
    if (!gjk.exact) return CAST_MISS;
    gap = gjk.distance - rr;
    if (gap <= CAST_GAP) {
      if (t === 0) return CAST_FALLBACK;
      break;
    }
    const closing = dx * gjk.nx + dy * gjk.ny + dz * gjk.nz;
    if (!(closing > 0)) return CAST_MISS;
    t += gap / closing;
    if (t > maxT) return CAST_MISS;
    START[0] = gjk.nx;
    START[1] = gjk.ny;
    START[2] = gjk.nz;
    if (it === CAST_ITERATIONS - 1 && gap > CAST_GAP_CAPPED) return CAST_MISS;
  }
  C[4] = t;
  return CAST_HIT;
}
