/**
 * Trigonometry made of IEEE-754 operations only (+, −, ×, ÷, `Math.sqrt`, `Math.abs`, `Math.round`), so that
 * every JavaScript engine returns the same bits. ECMAScript leaves `Math.sin`, `Math.cos`, `Math.atan2`,
 * `Math.exp`, `Math.pow`, `Math.hypot` … "implementation-approximated": V8, SpiderMonkey and JavaScriptCore
 * may round them differently in the last bit, and one bit of difference in a step grows into a different
 * simulation. The basic operations and `sqrt` are correctly rounded everywhere, so a fixed sequence of them
 * is bit-identical everywhere.
 *
 * Accuracy: within a few units in the last place of the library functions over the ranges the engine uses
 * (Cody–Waite argument reduction and Taylor series carried past double precision; the classic recipe, e.g.
 * Muller, "Elementary Functions: Algorithms and Implementation", chapters 6 and 11).
 */

/** π/2 split in two so that k·PIO2_HI is exact for |k| < 2^20 (Cody–Waite reduction). */
const PIO2_HI = 1.5707963267341256;
const PIO2_LO = 6.077100506506192e-11;
const TWO_OVER_PI = 0.6366197723675814;

/** sinKernel's Taylor coefficients, highest order first: 1/23!, 1/21!, ..., 1/3! (the next term is below 2^-60 of the result). */
const SIN_SERIES = [
  1 / 25852016738884976640000, 1 / 51090942171709440000, 1 / 121645100408832000, 1 / 355687428096000, 1 / 1307674368000,
  1 / 6227020800, 1 / 39916800, 1 / 362880, 1 / 5040, 1 / 120, 1 / 6,
];
/** cosKernel's: 1/22!, 1/20!, ..., 1/4!. */
const COS_SERIES = [
  1 / 1124000727777607680000, 1 / 2432902008176640000, 1 / 6402373705728000, 1 / 20922789888000, 1 / 87178291200,
  1 / 479001600, 1 / 3628800, 1 / 40320, 1 / 720, 1 / 24,
];

/** The series c[0] (-r2)^(n-1) + ... + c[n-1] by Horner's rule. */
function series(c: readonly number[], r2: number): number {
  let p = c[0];
  for (let i = 1; i < c.length; i++) p = p * -r2 + c[i];
  return p;
}

/** sin(r) for |r| <= π/4: Taylor series to r^23. */
function sinKernel(r: number): number {
  const r2 = r * r;
  return r - r * r2 * series(SIN_SERIES, r2);
}

/** cos(r) for |r| <= π/4: Taylor series to r^22. */
function cosKernel(r: number): number {
  const r2 = r * r;
  return 1 - 0.5 * r2 + r2 * r2 * series(COS_SERIES, r2);
}

/** Quadrant of the last reduction (0..3); the reduced argument is the return value. */
let quadrant = 0;

function reduce(x: number): number {
  if (!(Math.abs(x) < 1e6)) throw new RangeError(`exact trigonometry: argument must be finite with |x| < 1e6, got ${String(x)}`);
  const k = Math.round(x * TWO_OVER_PI);
  quadrant = k & 3;
  return x - k * PIO2_HI - k * PIO2_LO;
}

/** sin(r + q π/2) for the reduced argument r: the kernel and sign of quadrant q (mod 4). */
function sinInQuadrant(r: number, q: number): number {
  switch (q & 3) {
    case 0:
      return sinKernel(r);
    case 1:
      return cosKernel(r);
    case 2:
      return -sinKernel(r);
    default:
      return -cosKernel(r);
  }
}

/** sin(x), bit-identical in every engine. |x| < 1e6. */
export function exactSin(x: number): number {
  const r = reduce(x);
  return sinInQuadrant(r, quadrant);
}

/** cos(x) = sin(x + π/2), bit-identical in every engine. |x| < 1e6. */
export function exactCos(x: number): number {
  const r = reduce(x);
  return sinInQuadrant(r, quadrant + 1);
}

/**
 * atan(t) for t >= 0: two half-angle steps, atan(t) = 2 atan(t / (1 + sqrt(1 + t²))), bring t below
 * tan(π/16) ≈ 0.199 (from t <= 1), then the alternating series to t^29.
 */
function atanNonNegative(t: number): number {
  let scale = 1;
  let base = 0;
  if (t > 1) {
    // atan(t) = π/2 − atan(1/t)
    t = 1 / t;
    scale = -1;
    base = PIO2_HI + PIO2_LO;
  }
  t = t / (1 + Math.sqrt(1 + t * t));
  t = t / (1 + Math.sqrt(1 + t * t));
  const t2 = t * t;
  let p = 1 / 29;
  for (let n = 27; n >= 3; n -= 2) p = 1 / n - t2 * p;
  const a = 4 * (t - t * t2 * p);
  return base + scale * a;
}

/** atan2(y, x), bit-identical in every engine (the quadrant rules of Math.atan2 for finite arguments). */
export function exactAtan2(y: number, x: number): number {
  if (x === 0 && y === 0) return x < 0 || 1 / x < 0 ? (y < 0 || 1 / y < 0 ? -Math.PI : Math.PI) : y;
  const ay = Math.abs(y),
    ax = Math.abs(x);
  let a: number;
  if (ax === 0) a = PIO2_HI + PIO2_LO;
  else a = atanNonNegative(ay / ax);
  if (x < 0) a = Math.PI - a;
  return y < 0 || (y === 0 && 1 / y < 0) ? -a : a;
}
