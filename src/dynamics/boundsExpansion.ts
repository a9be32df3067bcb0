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
  const dx = vx * dt,
    dy = vy * dt,
    dz = vz * dt;
  let lo = (dx < 0 ? dx : 0) - angularExpansion;
  let hi = (dx > 0 ? dx : 0) + angularExpansion;
  out[o] += lo < -maximumExpansion ? -maximumExpansion : lo;
  out[o + 3] += hi > maximumExpansion ? maximumExpansion : hi;
  lo = (dy < 0 ? dy : 0) - angularExpansion;
  hi = (dy > 0 ? dy : 0) + angularExpansion;
  out[o + 1] += lo < -maximumExpansion ? -maximumExpansion : lo;
  out[o + 4] += hi > maximumExpansion ? maximumExpansion : hi;
  lo = (dz < 0 ? dz : 0) - angularExpansion;
  hi = (dz > 0 ? dz : 0) + angularExpansion;
  out[o + 2] += lo < -maximumExpansion ? -maximumExpansion : lo;
  out[o + 5] += hi > maximumExpansion ? maximumExpansion : hi;
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
  const max = discrete ? m : Infinity;
  const out = b.aabb,
    o = i * 6;
  const dx = vx * dt,
    dy = vy * dt,
    dz = vz * dt;
  let lo = (dx < 0 ? dx : 0) - angExp,
    hi = (dx > 0 ? dx : 0) + angExp;
  out[o] += lo < -max ? -max : lo;
  out[o + 3] += hi > max ? max : hi;
  lo = (dy < 0 ? dy : 0) - angExp;
  hi = (dy > 0 ? dy : 0) + angExp;
  out[o + 1] += lo < -max ? -max : lo;
  out[o + 4] += hi > max ? max : hi;
  lo = (dz < 0 ? dz : 0) - angExp;
  hi = (dz > 0 ? dz : 0) + angExp;
  out[o + 2] += lo < -max ? -max : lo;
  out[o + 5] += hi > max ? max : hi;
}
