/**
 * Speculative margins and velocity-expanded bounds, after bepu's `BoundingBoxHelpers`
 * (../shared/reference/bepu-bounds-expansion.cs.txt) and `BoundingBoxBatcher`.
 */

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
