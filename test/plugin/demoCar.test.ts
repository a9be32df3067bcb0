/**
 * Babylon's public Havok car demo ("physics car" playground), built as the program builds it (./demoCarScene),
 * on ContinuumPlugin side by side with HavokPlugin, at 60 render frames a second (3-4 physics steps of 1/500 s
 * each, as `setSubTimeStep(4.5)` makes Babylon run them). Issue 29 item 3. Measured numbers are printed with a
 * "[measure]" prefix.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { demoDrive, type DemoDrive } from "./demoCarScene";
import { KINDS, type Kind } from "./helpers";

function measure(kind: Kind, what: string, ...values: number[]): void {
  console.log(`[measure] ${kind.padEnd(9)} ${what}: ${values.map((v) => +v.toPrecision(4)).join(" ")}`);
}

describe("the Havok demo's car on the straight (two-triangle ground of friction 300, wheels of friction 50)", () => {
  const figures = {} as Record<Kind, DemoDrive>;
  beforeAll(async () => {
    for (const kind of KINDS) {
      // The car drops 8 units and rests within 60 frames.
      const f = await demoDrive(kind, 60, 0);
      figures[kind] = f;
      measure(kind, "demo car: largest heading change over 140 units of full throttle (deg), frames", f.straightDrift, f.straightFrames);
      measure(kind, "demo car: smallest frame up.y", f.minUp);
    }
  }, 180_000);

  it("covers the 140 units in Havok's time, upright, no NaN", () => {
    const c = figures.continuum,
      h = figures.havok;
    // Same throttle (speed +8 a frame to 152 rad/s at 180,000 N m on the front wheels): the frames to cover the
    // 140 units agree within 3 % (both engines cap the wheels' spin at 100 rad/s; the car reaches ~150 units/s).
    expect(c.nan).toBe(false);
    expect(Math.abs(c.straightFrames - h.straightFrames)).toBeLessThan(0.03 * h.straightFrames);
    expect(c.minUp).toBeGreaterThan(0.99);
  });

  // KNOWN DEFECT (issue 29 item 3, open): from ~110 units (~140 units/s) the driven front axles' free camber
  // (ANGULAR_Z within +-0.05 about the axle's own Z, the axle pitched 14.3 degrees at its ANGULAR_X limit by the
  // drive torque) runs to its limit, one side +, the other -, and the car turns 1.2 degrees by 140 units where
  // Havok wanders 0.03-0.24. Measured: stable to 190 units with the joints' stiffness cap at 0.15 x the substep
  // rate (600 Hz here) or with 16 substeps; unstable earlier at 0.5 x or 4 substeps; not the gyroscopic term,
  // not the cylinder manifold (sphere wheels alike), not Gauss-Seidel convergence (64 passes alike).
  it.fails("KNOWN DEFECT: keeps its heading over 140 units within Havok's wander", () => {
    expect(figures.continuum.straightDrift).toBeLessThan(Math.max(figures.havok.straightDrift, 0.05));
  });
});
