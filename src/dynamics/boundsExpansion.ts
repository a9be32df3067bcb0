/**
 * Speculative margins and velocity-expanded bounds, after bepu's `BoundingBoxHelpers`
 * (bepuphysics2 `BepuPhysics/BoundingBoxHelpers.cs`) and `BoundingBoxBatcher`; docs/design.md.
 */

import type { BodySet } from "./bodySet";

const PI_OVER_3 = Math.PI / 3;

/**
 * The angular part of the bounds expansion: the largest displacement of a point at `radius` from the
 * centre of mass rotating at `angularSpeed` for `dt`, sqrt(2 r^2 (1 - cos(min(w dt, pi/3)))), with
 * cos - 1 from the Taylor series -a^2/2 + a^4/24 - a^6/720, which is below the true cosine on
 * [0, pi/3] and so keeps the bound conservative; capped by `maximumAngularExpansion`.
 */
export function angularBoundsExpansion(
  angularSpeed: number,
  dt: number,
  radius: number,
  maximumAngularExpansion: number,
): number {
  const a = Math.min(angularSpeed * dt, PI_OVER_3);
  const a2 = a * a;
  const a4 = a2 * a2;
  const a6 = a4 * a2;
  const cosMinusOne = a2 * (-1 / 2) + a4 * (1 / 24) - a6 * (1 / 720);
  const e = Math.sqrt(-2 * radius * radius * cosMinusOne);
  return e < maximumAngularExpansion ? e : maximumAngularExpansion;
}

/**
 * A body's speculative margin: its velocity-based displacement over the step (linear plus the angular
 * bound), clamped to [minimum, maximum] (bepu `BoundingBoxBatcher.ExecuteConvexBatch`).
 */
export function speculativeMargin(
  linearSpeed: number,
  angularExpansion: number,
  dt: number,
  minimum: number,
  maximum: number,
): number {
  const m = linearSpeed * dt + angularExpansion;
  return m < minimum ? minimum : m > maximum ? maximum : m;
}

/**
 * Expands the AABB at out[o..o+5] by the body's motion over dt: each side by the linear displacement
 * in its direction, every side by the angular expansion, and each side's total clamped to
 * `maximumExpansion` (the speculative margin in Discrete mode, Infinity in Passive and Continuous).
 */
export function expandBounds(
  out: Float64Array,
  o: number,
  vx: number,
  vy: number,
  vz: number,
  dt: number,
  angularExpansion: number,
  maximumExpansion: number,
): void {
  const e = EXPANSION;
  e[0] = vx * dt;
  e[1] = vy * dt;
  e[2] = vz * dt;
  e[3] = angularExpansion;
  e[4] = maximumExpansion;
  expandByMotion(out, o, e);
}

/**
 * expandBounds' core, for it and the per-step path: e holds the displacement (dx, dy, dz), the angular
 * expansion and the clamp (doubles in arrays, docs/design.md).
 */
const EXPANSION = new Float64Array(5);
function expandByMotion(out: Float64Array, o: number, e: Float64Array): void {
  const ang = e[3],
    max = e[4];
  for (let k = 0; k < 3; k++) {
    const d = e[k];
    const lo = (d < 0 ? d : 0) - ang,
      hi = (d > 0 ? d : 0) + ang;
    out[o + k] += lo < -max ? -max : lo;
    out[o + 3 + k] += hi > max ? max : hi;
  }
}

/**
 * The per-step path for one body (what World.predict does with the functions above): writes the body's
 * speculative margin and expands its AABB (already holding the shape's bounds at t0) by its motion.
 * `io` holds dt, then the predicted linear velocity (vx, vy, vz) (doubles in arrays, docs/design.md). Returns nothing; results are in b.margin and b.aabb.
 */
export function predictBodyBounds(b: BodySet, i: number, io: Float64Array, discrete: boolean): void {
  const dt = io[0],
    vx = io[1],
    vy = io[2],
    vz = io[3];
  const i3 = i * 3;
  const wx = b.angVel[i3],
    wy = b.angVel[i3 + 1],
    wz = b.angVel[i3 + 2];
  // Angular term (bepu GetAngularBoundsExpansion), as angularBoundsExpansion above.
  const a = Math.min(Math.sqrt(wx * wx + wy * wy + wz * wz) * dt, PI_OVER_3);
  const a2 = a * a,
    a4 = a2 * a2,
    a6 = a4 * a2;
  const r = b.radius[i];
  let angExp = Math.sqrt(-2 * r * r * (a2 * (-1 / 2) + a4 * (1 / 24) - a6 * (1 / 720)));
  if (angExp > b.angExpansion[i]) angExp = b.angExpansion[i];
  // Margin, as speculativeMargin above.
  let m = Math.sqrt(vx * vx + vy * vy + vz * vz) * dt + angExp;
  if (m < b.marginMin[i]) m = b.marginMin[i];
  if (m > b.marginMax[i]) m = b.marginMax[i];
  b.margin[i] = m;
  // Expansion, as expandBounds above.
  const e = EXPANSION;
  e[0] = vx * dt;
  e[1] = vy * dt;
  e[2] = vz * dt;
  e[3] = angExp;
  e[4] = discrete ? m : Infinity;
  expandByMotion(b.aabb, i * 6, e);
}
