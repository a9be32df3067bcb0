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

/** sin(r) for |r| <= π/4: Taylor series to r^23 (the next term is below 2^-60 of the result). */
function sinKernel(r: number): number {
  const r2 = r * r;
  let p = 1 / 25852016738884976640000; // 1/23!
  p = p * -r2 + 1 / 51090942171709440000; // 1/21!
  p = p * -r2 + 1 / 121645100408832000; // 1/19!
  p = p * -r2 + 1 / 355687428096000; // 1/17!
  p = p * -r2 + 1 / 1307674368000; // 1/15!
  p = p * -r2 + 1 / 6227020800; // 1/13!
  p = p * -r2 + 1 / 39916800; // 1/11!
  p = p * -r2 + 1 / 362880; // 1/9!
  p = p * -r2 + 1 / 5040; // 1/7!
  p = p * -r2 + 1 / 120; // 1/5!
  p = p * -r2 + 1 / 6; // 1/3!
  return r - r * r2 * p;
}

/** cos(r) for |r| <= π/4: Taylor series to r^22. */
function cosKernel(r: number): number {
  const r2 = r * r;
  let p = 1 / 1124000727777607680000; // 1/22!
  p = p * -r2 + 1 / 2432902008176640000; // 1/20!
  p = p * -r2 + 1 / 6402373705728000; // 1/18!
  p = p * -r2 + 1 / 20922789888000; // 1/16!
  p = p * -r2 + 1 / 87178291200; // 1/14!
  p = p * -r2 + 1 / 479001600; // 1/12!
  p = p * -r2 + 1 / 3628800; // 1/10!
  p = p * -r2 + 1 / 40320; // 1/8!
  p = p * -r2 + 1 / 720; // 1/6!
  p = p * -r2 + 1 / 24; // 1/4!
  return 1 - 0.5 * r2 + r2 * r2 * p;
}

/** Quadrant of the last reduction (0..3); the reduced argument is the return value. */
let quadrant = 0;

function reduce(x: number): number {
  if (!(Math.abs(x) < 1e6)) throw new RangeError(`exact trigonometry: argument must be finite with |x| < 1e6, got ${String(x)}`);
  const k = Math.round(x * TWO_OVER_PI);
  quadrant = k & 3;
  return x - k * PIO2_HI - k * PIO2_LO;
}

/** sin(x), bit-identical in every engine. |x| < 1e6. */
export function exactSin(x: number): number {
  const r = reduce(x);
  switch (quadrant) {
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

/** cos(x), bit-identical in every engine. |x| < 1e6. */
export function exactCos(x: number): number {
  const r = reduce(x);
  switch (quadrant) {
    case 0:
      return cosKernel(r);
    case 1:
      return -sinKernel(r);
    case 2:
      return -cosKernel(r);
    default:
      return sinKernel(r);
  }
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
