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

/**
 * The scripted drive on both engines (60 frames to settle, `turnFrames` of left after the straight, the wheels'
 * friction `wheelFriction`, a display frame of `frameMs`), measured by `log`.
 */
function drives(turnFrames: number, log: (kind: Kind, f: DemoDrive) => void, wheelFriction = 50, frameMs = 1000 / 60): Record<Kind, DemoDrive> {
  const figures = {} as Record<Kind, DemoDrive>;
  beforeAll(async () => {
    for (const kind of KINDS) {
      figures[kind] = await demoDrive(kind, 60, turnFrames, wheelFriction, frameMs);
      log(kind, figures[kind]);
    }
  }, 180_000);
  return figures;
}

describe("the Havok demo's car on the straight (two-triangle ground of friction 300, wheels of friction 50)", () => {
  // The car drops 8 units and rests within 60 frames.
  const figures = drives(0, (kind, f) => {
    measure(kind, "demo car: largest heading change over 140 units of full throttle (deg), frames", f.straightDrift, f.straightFrames);
    measure(kind, "demo car: smallest frame up.y", f.minUp);
  });

  it("covers the 140 units in Havok's time, upright, no NaN", () => {
    const c = figures.continuum,
      h = figures.havok;
    // Same throttle (speed +8 a frame to 152 rad/s at 180,000 N m on the front wheels): the frames to cover the
    // 140 units agree within 3 % (both engines cap the wheels' spin at 100 rad/s; the car reaches ~150 units/s).
    expect(c.nan).toBe(false);
    expect(Math.abs(c.straightFrames - h.straightFrames)).toBeLessThan(0.03 * h.straightFrames);
    expect(c.minUp).toBeGreaterThan(0.99);
  });

  // Issue 29 item 3: at zeta 5 the joints' soft step corrected 0.136 of a row's error per substep, and from ~130
  // units/s (~110 units in) the driven front axles' free camber (ANGULAR_Z within +-0.05) ran to its limit, one
  // side +, the other -, turning the car 1.2 degrees by 140 units where Havok wanders 0.03-0.24. Zeta 10
  // (0.073 per substep, Box2D v3's at its joint cap; src/dynamics/joints/jointSolver.ts) keeps the camber within
  // 0.1 degree and the heading within 0.01 degree. Havok's own wander (or 0.05 degree, for a Havok that drives
  // straighter) is the bound: the car is symmetric and driven symmetrically, so any turn is the solver's.
  it("keeps its heading over 140 units within Havok's wander", () => {
    expect(figures.continuum.straightDrift).toBeLessThan(Math.max(figures.havok.straightDrift, 0.05));
  });
});

describe("the Havok demo's car on the straight at 30 render frames a second (7 physics steps a frame)", () => {
  const figures = drives(
    0,
    (kind, f) => measure(kind, "demo car at 30 fps: largest heading change over 140 units (deg), frames", f.straightDrift, f.straightFrames),
    50,
    1000 / 30,
  );

  // Issue 29 item 3: the driven axles' camber mode was only marginally stable. Over 140 units at 30 / 60 / 90 / 144
  // render frames a second (the throttle steps +8 a frame, so the drive differs), Havok wanders 0.09 / 0.24 / 0.24 /
  // 0.31 degrees; ours with joint damping ratio 5 drifted 0.003 / 1.2 / 1.8 / 2.6, with 10 0.80 / 0.002 / 0.001 /
  // 0.07, with 20 0.003 / 0.003 / 0.14 / 2.0: each setting moved the onset, none removed it. Cause (session 9):
  // friction did not have the last word at the wheels. Each substep the joints' relax pass (rigid rows, after the
  // position update) moves the wheels' contact points again after the biased pass's friction held them, and the
  // contacts' relax pass solved friction only for resting jointed bodies, not moving ones. Four wheels held by
  // friction 50 are an overconstrained set: the unanswered slip fed a mirror-image toe mode (front toe locks and rear
  // yaw locks +-x and -+x) whose internal yaw torques grew from ~10 to ~900 kN m over 1.5 s at ~2.5 Hz, until one
  // rim of a driven wheel lifted, its camber ran to its +-0.05 limit and, through the axle's pitched frame, toed the
  // wheel by 0.7 deg (0.80 degrees of heading here). The contacts' relax pass now solves friction for every
  // manifold with a jointed body, every substep (src/dynamics/contacts/contactConstraints.ts, relax): 0.0023 degrees
  // here, 0.0024 at 60 fps. Same bound as at 60 fps: the car is symmetric and driven symmetrically.
  it("keeps its heading over 140 units within Havok's wander", () => {
    expect(figures.continuum.nan).toBe(false);
    expect(figures.continuum.straightDrift).toBeLessThan(Math.max(figures.havok.straightDrift, 0.05));
  });
});

describe("the Havok demo's car in the left turn (forward and left held for 120 frames after the straight)", () => {
  const figures = drives(120, (kind, f) => {
    measure(kind, "demo car: heading change in the left turn (deg)", f.turn);
    measure(kind, "demo car: largest roll in the turn (deg), smallest frame up.y", f.maxRoll, f.minUp);
  });

  it("turns left, no NaN", () => {
    // The steering reaches 30 degrees (average) in 52 frames: both engines turn left by more than 90 degrees.
    expect(figures.continuum.nan).toBe(false);
    expect(figures.havok.turn).toBeGreaterThan(90);
    expect(figures.continuum.turn).toBeGreaterThan(90);
  });

  // KNOWN DEFECT (issue 29 item 3, open): Havok's car rolls at most 15 degrees and turns 140 degrees; ours tips past
  // the static tip angle (atan(half track 5.8 / centre of mass height 1.8) = 73 degrees: 81-83 measured, up.y
  // -0.97) and spins 260 degrees. Ours yaws faster than the no-slip bicycle model (v tan(steer) / wheelbase: 4.1
  // rad/s 42 frames in, ours 6.0, Havok's 4.3): the car slides out at the rear once the inner wheels unload.
  // Havok's own grip is not monotonic in friction here (its car rolls over at wheel friction 4 and 5, not at 3, 10,
  // 20, 50 or 300), so the cause may be as much Havok's friction at friction 50 as ours.
  // Measured (session 9): both engines steer the wheels alike (within a degree; Havok's steering lags a frame). The
  // demo's split is anti-Ackermann (the outer front wheel gets the larger angle: 18.5 vs 15.2 deg 30 frames in).
  // v x yaw rate: Havok 1.9 g 30 frames in, 2.5 g at 42 (its peak); ours 2.5 g at 30, 3.1 g at 36, 3.6 g at 42,
  // past the 2.7-3.2 g at which it tips. Both yaw faster than the outer front wheel's no-slip rate (at 42: Havok
  // 4.3 rad/s for 3.7, ours 6.0 for 4.3). Ours unloads its inner wheels from frame 18 (1.35 g); its loaded outer
  // front wheel slides sideways at under 15 units/s, Havok's at 30-70 (at friction 50), and Havok's wheel locks give
  // 1-6 degrees under these loads where ours give 0.1. Havok turns less and rolls less the more friction it has
  // (friction 3: 170 deg turned, 21 deg of roll; 10: 154, 21; 50: 140, 15; 300: 141, 10.5), which Coulomb friction
  // does not give. With friction answering the joints' relax rows (see the straight at 30 fps above) ours stays on
  // its wheels up to friction 10 (3 / 4 / 10: 126 / 127 / 134 deg turned, 10 / 9 / 13 deg of roll) and still tips
  // at 50 and 300. Softer joints do not keep it up (joint hertz 60, 100 and 400: it tips at each), nor a higher angular
  // speed cap (100 -> 1000 rad/s).
  it.fails("KNOWN DEFECT: stays on its wheels where Havok's does", () => {
    // Havok's car stays upright (up.y > 0.9): ours must not pass the static tip angle.
    expect(figures.havok.minUp).toBeGreaterThan(0.9);
    expect(figures.continuum.maxRoll).toBeLessThan((Math.atan(5.8 / 1.8) * 180) / Math.PI);
  });
});

describe("the same left turn on wheels of friction 2 (grip-limited: the car slides before it can tip)", () => {
  const figures = drives(
    120,
    (kind, f) => {
      measure(kind, "demo car, wheel friction 2: heading change in the left turn (deg)", f.turn);
      measure(kind, "demo car, wheel friction 2: largest roll in the turn (deg), smallest frame up.y", f.maxRoll, f.minUp);
    },
    2,
  );

  it("stays on its wheels and turns as far as Havok's", () => {
    const c = figures.continuum,
      h = figures.havok;
    expect(c.nan).toBe(false);
    // Friction 2 bounds the tyres' side force at 2 x the car's weight, below the 2.8-3.2 g at which it tips (half
    // track 5-5.8, wheel centre to outer edge, over the centre of mass's 1.8 above the ground): both engines must
    // keep it upright (measured: 8 degrees of roll on each).
    expect(h.maxRoll).toBeLessThan(25);
    expect(c.maxRoll).toBeLessThan(25);
    expect(c.minUp).toBeGreaterThan(0.9);
    // At the grip limit the yaw rate is a / v for the same side acceleration a = 2 g at the same speed, so the
    // heading change matches Havok's to first order; 15 % for the tyres' slip, which each engine's friction model
    // resolves its own way (measured: Havok 107 degrees, ours 116).
    expect(Math.abs(c.turn - h.turn)).toBeLessThan(0.15 * h.turn);
  });
});
