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
function drives(
  turnFrames: number,
  log: (kind: Kind, f: DemoDrive) => void,
  wheelFriction = 50,
  frameMs = 1000 / 60,
  kinds: Kind[] = KINDS,
  sphereWheels = false,
): Record<Kind, DemoDrive> {
  const figures = {} as Record<Kind, DemoDrive>;
  beforeAll(async () => {
    for (const kind of kinds) {
      figures[kind] = await demoDrive(kind, 60, turnFrames, wheelFriction, frameMs, sphereWheels);
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

  // Issue 29 item 3. The driven axles' camber mode was only marginally stable here: over 140 units at 30 / 60 / 90 /
  // 144 render frames a second (the throttle steps +8 a frame, so the drive differs), Havok wanders 0.09 / 0.24 /
  // 0.24 / 0.31 degrees; ours with joint damping ratio 5 0.003 / 1.2 / 1.8 / 2.6, with 10 0.80 / 0.002 / 0.001 /
  // 0.07, with 20 0.003 / 0.003 / 0.14 / 2.0, with a 0.15 substep cap 0.004 / 0.002 / 0.003 / 0.43.
  // Cause (session 9): friction did not have the last word at the wheels. Each substep the joints' relax pass
  // (rigid rows, after the position update) moves the wheels' contact points again after the biased pass's
  // friction held them, and the contacts' relax pass solved friction only for resting jointed bodies. Four wheels
  // held by friction 50 are an overconstrained set: the unanswered slip fed a mirror-image toe mode (front toe
  // locks and rear yaw locks +-x and -+x, the rear axles' lateral rows squeezing the track) whose internal yaw
  // torques grew from ~10 to ~900 kN m over 1.5 s at ~2.5 Hz. The axles sit at their pitch limit (ANGULAR_X 0.25
  // rad, on both engines), so a yaw lock's torque about the axle's Y has 25 % about the forward axis, where the
  // axle's camber is free: one rim lifted, the camber ran to +-0.05 in 8 frames and toed the wheel by 0.7 deg.
  // Fix (sessions 13-14): the contacts' relax pass solves friction for every manifold with a jointed body every
  // second substep (src/dynamics/contacts/contactConstraints.ts, relax): this test 0.0022 degrees (was 0.80), 60
  // fps 0.0013. Every substep gave 0.0023 / 0.0024 at twice the cost; gated by each contact's slip it held 30 fps
  // (0.0021) but yawed the car 0.40 degrees at 60. Its first trial (session 10) was reverted for the playground's
  // rope-bridge ragdoll (test/e2e/scenes.test.ts, constraints), which slid off the bridge: that drop was a knife
  // edge on every engine (moved to 45 points within 0.35 m, off the bridge by 4 s 12 times on main, 16 with this,
  // 27 on Havok), not pushed sideways by this friction; the scene now drops the ragdoll lying along wider planks
  // (0 of 45 on all three: demo/src/scenes/constraints.ts). Same bound as at 60 fps.
  it("keeps its heading over 140 units within Havok's wander", () => {
    expect(figures.continuum.nan).toBe(false);
    expect(figures.continuum.straightDrift).toBeLessThan(Math.max(figures.havok.straightDrift, 0.05));
  });
});

describe("the Havok demo's car in the left turn (forward and left held for 120 frames after the straight)", () => {
  const figures = drives(120, (kind, f) => {
    measure(kind, "demo car: heading change in the left turn (deg)", f.turn);
    measure(kind, "demo car: largest roll in the turn (deg), smallest frame up.y, peak g", f.maxRoll, f.minUp, f.peakG);
  });

  it("turns left, no NaN", () => {
    // The steering reaches 30 degrees (average) in 52 frames: both engines turn left by more than 90 degrees.
    expect(figures.continuum.nan).toBe(false);
    expect(figures.havok.turn).toBeGreaterThan(90);
    expect(figures.continuum.turn).toBeGreaterThan(90);
  });

  // Issue 29 item 3 asked why Havok's car stays on its wheels where ours tips (81-83 degrees of roll, up.y -0.97).
  // Not friction: both engines combine the wheels' 50 with the ground's 300 by MINIMUM (50), and on Havok as on ours
  // a flat box or a rotation-locked wheel cylinder on this ground holds under sideways gravity of 49 x its weight
  // (the box slides at 51); a box sliding at 30 units/s loses 23.4 of them in its first step (mu g dt = 24), at
  // friction 2 0.96 a step (= mu g dt). Havok's cylinders are 16-sided prisms: a rotation-locked cylinder of radius 2
  // set down at roll angles 0, 0.1, 0.2, 0.3, 0.4 rad rests 0, 9.9, 36.7, 8.5, 0.1 mm below its radius (corner down
  // at 0, flat down at 0.2: 2 (1 - cos(pi / 16)) = 38 mm), and rolled at 20 units/s rides up and down between the
  // two; ours rests 0.1 mm low at every angle. At the demo's 150 units/s the wheels hop off the corners: on the
  // straight each wheel touches the ground in 1 of 3 steps; in the turn the loaded outer front wheel is in the air
  // in half of its steps, lands with 6-12 x its static share of the weight, sits 4-10 cm low, and between landings
  // its contact slides sideways at 20-60 units/s (ours: in contact every step at 2-6 x its share, sliding at under
  // 0.3). So Havok's car peaks at 2.5 g of side acceleration (speed x yaw rate) where the
  // steering asks for v^2 tan(30 deg) / 16 = 3.4 g at full lock, past the 3.2 g at which the car tips (half track
  // 5.8 over the centre of mass's 1.8). On round wheels (spheres of the same radius) Havok's car reaches 3.5 g and
  // tips as ours does (88 degrees of roll, up.y -0.94). Ours tipping is what rigid wheels with Coulomb friction of
  // 50 give; Havok's grip here comes from its cylinders' facets, and is not copied (docs/babylon-differences.md).
  const round = drives(
    120,
    (kind, f) => measure(kind, "demo car on sphere wheels: turned (deg), largest roll (deg), smallest up.y, peak g", f.turn, f.maxRoll, f.minUp, f.peakG),
    50,
    1000 / 60,
    ["havok"],
    true,
  );

  it("tips as Havok's car does on round wheels (Havok's cylinders are polygonal: their hop keeps its car up)", () => {
    const tip = (Math.atan(5.8 / 1.8) * 180) / Math.PI;
    // Havok's own car stays up (its faceted wheels slide, up.y > 0.9 measured 0.97); on sphere wheels it rolls past
    // the static tip angle, as ours does on the demo's cylinders.
    expect(figures.havok.minUp).toBeGreaterThan(0.9);
    expect(round.havok.maxRoll).toBeGreaterThan(tip);
    expect(figures.continuum.maxRoll).toBeGreaterThan(tip);
    // The side acceleration: Havok's faceted car stays below the 3.2 g tip threshold (measured 2.55 g); round wheels
    // (Havok 3.48 g) and ours (rigid Coulomb wheels) pass it.
    expect(figures.havok.peakG).toBeLessThan(3.2);
    expect(round.havok.peakG).toBeGreaterThan(3.2);
    expect(figures.continuum.peakG).toBeGreaterThan(3.2);
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
