/**
 * The engine's own trigonometry (src/math/exactMath.ts) against the JavaScript library functions: within a
 * few units in the last place (ulp) over the ranges the engine uses. The library functions are themselves
 * within about 1 ulp of the true value, so 4 ulp of the larger magnitude bounds our error with margin; an
 * error in a series coefficient or in the reduction would show as far more (1e-10 and up).
 */
import { describe, expect, it } from "vitest";
import { exactAtan2, exactCos, exactSin } from "../../src/math/exactMath";

const ULP = Number.EPSILON;

/** Error in units of the last place of max(|expected|, floor) (floor: absolute error near zeros). */
function ulps(got: number, want: number, floor = 1): number {
  return Math.abs(got - want) / (ULP * Math.max(Math.abs(want), floor));
}

describe("exact trigonometry", () => {
  it("sin and cos agree with Math.sin / Math.cos within 4 ulp on [-20, 20] (and exactly at 0)", () => {
    let worst = 0;
    for (let k = -20000; k <= 20000; k++) {
      const x = k * 0.001 + 1e-7 * (k % 7);
      worst = Math.max(worst, ulps(exactSin(x), Math.sin(x)), ulps(exactCos(x), Math.cos(x)));
    }
    expect(worst).toBeLessThan(4);
    expect(exactSin(0)).toBe(0);
    expect(exactCos(0)).toBe(1);
    expect(() => exactSin(Infinity)).toThrow(RangeError);
  });

  it("atan2 agrees with Math.atan2 within 4 ulp in all four quadrants, with its signed-zero and axis rules", () => {
    let worst = 0;
    for (let i = -60; i <= 60; i++)
      for (let j = -60; j <= 60; j++) {
        const y = i * 0.37 + 0.001 * j,
          x = j * 0.41 - 0.002 * i;
        worst = Math.max(worst, ulps(exactAtan2(y, x), Math.atan2(y, x)));
      }
    expect(worst).toBeLessThan(4);
    for (const [y, x] of [[0, 1], [-0, 1], [0, -1], [-0, -1], [1, 0], [-1, 0], [0, 0], [-0, -0], [1e-300, 1], [1, 1e-300]]) {
      expect(ulps(exactAtan2(y, x), Math.atan2(y, x))).toBeLessThan(2);
      expect(Object.is(Math.sign(exactAtan2(y, x)), Math.sign(Math.atan2(y, x)))).toBe(true);
    }
  });
});
