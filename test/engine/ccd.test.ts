import { describe, expect, it } from "vitest";
import { Box, ContinuousDetection, ContinuousDetectionMode, MotionType, Sphere, type World } from "../../src/index";
import { makeWorld, pos, rng, vel } from "./helpers";

const FAST = { maxLinearSpeed: 5000, maxAngularSpeed: 500, sleepingEnabled: false };
const continuous = () => ContinuousDetection.continuous();
const passive = () => ContinuousDetection.passive();

/** A static wall 0.05 m thick (x in [-0.025, 0.025]), 10 x 10 m. */
function wall(world: World): number {
  return world.createBody({ motionType: MotionType.Static, collidable: { shape: new Box(0.025, 5, 5) } });
}

describe("continuous collision: no tunnelling", () => {
  for (const speed of [100, 300, 1000]) {
    for (const mode of ["Continuous", "Passive"] as const) {
      it(`a sphere r 0.1 at ${speed} m/s never passes a 5 cm static wall in ${mode} (50 shots)`, () => {
        const r = rng(speed);
        let tunnels = 0;
        for (let shot = 0; shot < 50; shot++) {
          const world = makeWorld({ ...FAST, gravity: { x: 0, y: 0, z: 0 } });
          wall(world);
          // Varied offsets across the wall and varied phase of arrival within a step.
          const y = (r() - 0.5) * 8,
            z = (r() - 0.5) * 8,
            x0 = -3 - r() * (speed / 60);
          const ball = world.createBody({
            position: { x: x0, y, z },
            linearVelocity: { x: speed, y: 0, z: 0 },
            collidable: { shape: new Sphere(0.1), continuity: mode === "Continuous" ? continuous() : passive() },
          });
          let maxX = -Infinity;
          for (let s = 0; s < 40; s++) {
            world.step(1 / 60);
            maxX = Math.max(maxX, pos(world, ball).x);
          }
          if (maxX > 0) tunnels++;
        }
        expect(tunnels).toBe(0);
      });
    }
  }

  it("a thin spinning box (1.0 x 0.02 x 0.3) at 40 m/s and 30 rad/s never passes a 5 cm wall in Continuous (30 trials)", () => {
    const r = rng(11);
    let tunnels = 0;
    for (let trial = 0; trial < 30; trial++) {
      const world = makeWorld({ ...FAST, gravity: { x: 0, y: 0, z: 0 } });
      wall(world);
      const ax = r() - 0.5,
        ay = r() - 0.5,
        az = r() - 0.5;
      const al = Math.hypot(ax, ay, az);
      const q = [r() - 0.5, r() - 0.5, r() - 0.5, r() - 0.5];
      const ql = Math.hypot(...q);
      const plate = world.createBody({
        position: { x: -2 - r(), y: (r() - 0.5) * 4, z: (r() - 0.5) * 4 },
        orientation: { x: q[0] / ql, y: q[1] / ql, z: q[2] / ql, w: q[3] / ql },
        linearVelocity: { x: 40, y: 0, z: 0 },
        angularVelocity: { x: (30 * ax) / al, y: (30 * ay) / al, z: (30 * az) / al },
        collidable: { shape: new Box(0.5, 0.01, 0.15), continuity: continuous() },
      });
      let maxX = -Infinity;
      for (let s = 0; s < 40; s++) {
        world.step(1 / 60);
        maxX = Math.max(maxX, pos(world, plate).x);
      }
      if (maxX > 0) tunnels++;
    }
    expect(tunnels).toBe(0);
  });

  it("a sphere r 0.05 at 300 m/s into a floating 2 x 2 x 0.03 plank: no pass-through, momentum transferred", () => {
    const world = makeWorld({ ...FAST, gravity: { x: 0, y: 0, z: 0 } });
    const plank = world.createBody({ position: { x: 0, y: 0, z: 0 }, collidable: { shape: new Box(0.015, 1, 1), continuity: continuous() } });
    const ball = world.createBody({
      position: { x: -3, y: 0, z: 0 },
      linearVelocity: { x: 300, y: 0, z: 0 },
      collidable: { shape: new Sphere(0.05), continuity: continuous() },
    });
    const mBall = world.getMassProperties(ball).mass,
      mPlank = world.getMassProperties(plank).mass;
    let passed = false;
    for (let s = 0; s < 30; s++) {
      world.step(1 / 60);
      if (pos(world, ball).x > pos(world, plank).x) passed = true;
    }
    expect(passed).toBe(false);
    // Restitution 0: a perfectly inelastic impact, both leave at the common velocity m1 v1 / (m1 + m2).
    const expected = (mBall * 300) / (mBall + mPlank);
    expect(Math.abs(vel(world, plank).x - expected) / expected).toBeLessThan(0.1);
  });

  it("secondary impact: a box knocked into a wall 5 cm behind it never ends beyond the wall when Continuous", () => {
    for (const mode of [ContinuousDetectionMode.Continuous] as const) {
      const world = makeWorld({ ...FAST, gravity: { x: 0, y: 0, z: 0 } });
      wall(world);
      // A light box resting 5 cm in front of the wall; a heavy fast sphere hits it, and the box's new
      // velocity (about 270 m/s, 4.5 m per step) would carry it through the wall within the same step. Its
      // speculative margin is capped at 1 cm so that the margin of the push it is about to get
      // (src/dynamics/partnerPush.ts) cannot reach the wall: only the continuous pass can catch it.
      const box = world.createBody({
        position: { x: -0.025 - 0.05 - 0.25, y: 0, z: 0 },
        massProperties: { mass: 1 },
        collidable: {
          shape: new Box(0.25, 0.25, 0.25),
          maximumSpeculativeMargin: 0.01,
          continuity: { mode, minimumSweepTimestep: 1e-3, sweepConvergenceThreshold: 1e-3 },
        },
      });
      const ball = world.createBody({
        position: { x: -4, y: 0, z: 0 },
        linearVelocity: { x: 300, y: 0, z: 0 },
        massProperties: { mass: 10 },
        collidable: { shape: new Sphere(0.1), continuity: continuous() },
      });
      let maxBox = -Infinity;
      let toi = 0;
      for (let s = 0; s < 30; s++) {
        world.step(1 / 60);
        maxBox = Math.max(maxBox, pos(world, box).x);
        toi += world.stats.toiEvents;
      }
      expect(pos(world, ball).x).toBeLessThan(pos(world, box).x);
      // The box's centre never crosses the wall's mid-plane.
      expect(maxBox).toBeLessThan(0);
      expect(toi).toBeGreaterThan(0);
    }
  });
});

describe("continuous collision: no ghost collisions", () => {
  /** Deflection (degrees) of a sphere r 0.1 at 100 m/s passing 0.15 m beside the top face of a static unit box, past its corner. */
  function deflection(mode: "Continuous" | "Passive"): number {
    const world = makeWorld({ ...FAST, gravity: { x: 0, y: 0, z: 0 } });
    world.createBody({ motionType: MotionType.Static, collidable: { shape: new Box(0.5, 0.5, 0.5) } });
    const ball = world.createBody({
      position: { x: -3.3, y: 0.5 + 0.15 + 0.1, z: 0 },
      linearVelocity: { x: 100, y: 0, z: 0 },
      collidable: { shape: new Sphere(0.1), continuity: mode === "Continuous" ? continuous() : passive() },
    });
    for (let s = 0; s < 10; s++) world.step(1 / 60);
    const v = vel(world, ball);
    return (Math.atan2(Math.hypot(v.y, v.z), v.x) * 180) / Math.PI;
  }

  it("a sphere passing a box corner at 100 m/s is deflected less than 0.1 degree in Continuous", () => {
    expect(deflection("Continuous")).toBeLessThan(0.1);
  });

  it("records what Passive does with the same shot (a ghost contact from the speculative margin)", () => {
    const passiveDeflection = deflection("Passive");
    // Passive makes a speculative contact at t0 with the corner whose plane the solver treats as unbounded:
    // documented, not a requirement. It must at least stay finite.
    expect(Number.isFinite(passiveDeflection)).toBe(true);
    console.info(`[ccd] Passive deflection past a corner at 100 m/s: ${passiveDeflection.toFixed(3)} degrees`);
  });
});

describe("continuous modes: bounds, pair margins, sweeps", () => {
  it("Discrete bounds are clamped to the margin; Passive and Continuous bounds cover the whole motion", () => {
    const aabb = new Float64Array(6);
    const spans: Record<string, number> = {};
    for (const [name, cd] of [
      ["Discrete", ContinuousDetection.discrete()],
      ["Passive", passive()],
      ["Continuous", continuous()],
    ] as const) {
      const world = makeWorld({ ...FAST, gravity: { x: 0, y: 0, z: 0 } });
      const h = world.createBody({
        linearVelocity: { x: 60, y: 0, z: 0 },
        collidable: { shape: new Sphere(0.5), continuity: cd, maximumSpeculativeMargin: 0.2 },
      });
      world.step(1 / 60);
      // The stored expanded bounds are those the broad phase used for this step (from the step's start pose).
      const b = world.bodies;
      const i = b.indexOf(h);
      aabb.set(b.aabb.subarray(i * 6, i * 6 + 6));
      spans[name] = aabb[3] - aabb[0];
    }
    // 1 m of sphere plus the motion: 60 m/s for 1/60 s = 1 m, or the 0.2 m margin for Discrete.
    expect(spans.Discrete).toBeCloseTo(1.2, 9);
    expect(spans.Passive).toBeCloseTo(2, 9);
    expect(spans.Continuous).toBeCloseTo(2, 9);
  });

  it("the pair margin is the sum of the bodies' margins; statics add nothing", () => {
    const world = makeWorld({ ...FAST, gravity: { x: 0, y: 0, z: 0 } });
    const a = world.createBody({ position: { x: -1.3, y: 0, z: 0 }, linearVelocity: { x: 12, y: 0, z: 0 }, collidable: { shape: new Sphere(0.5) } });
    const b = world.createBody({ position: { x: 1.3, y: 0, z: 0 }, linearVelocity: { x: -12, y: 0, z: 0 }, collidable: { shape: new Sphere(0.5) } });
    world.step(1 / 60);
    // Each margin is 12/60 = 0.2; the gap was 1.6 - 0.4 (moved) ... a contact exists only if gap <= 0.4.
    expect(world.getSpeculativeMargin(a)).toBeCloseTo(0.2, 12);
    expect(world.getSpeculativeMargin(b)).toBeCloseTo(0.2, 12);
    const st = world.createBody({ motionType: MotionType.Static, position: { x: 0, y: 5, z: 0 }, collidable: { shape: new Sphere(0.5) } });
    expect(world.getSpeculativeMargin(st)).toBe(0);
  });

  it("sweeps run only for Continuous pairs whose relative motion exceeds the pair margin (counted)", () => {
    const count = (cd: ReturnType<typeof continuous>, speed: number, maxMargin: number) => {
      const world = makeWorld({ ...FAST, gravity: { x: 0, y: 0, z: 0 } });
      wall(world);
      world.createBody({
        position: { x: -0.5, y: 0, z: 0 },
        linearVelocity: { x: speed, y: 0, z: 0 },
        collidable: { shape: new Sphere(0.1), continuity: cd, maximumSpeculativeMargin: maxMargin },
      });
      world.step(1 / 60);
      return world.stats.sweeps;
    };
    // Unbounded margin: the margin covers the motion, no sweep is needed (bepu's gate).
    expect(count(continuous(), 30, Infinity)).toBe(0);
    // A small maximum margin and a fast body: the narrow phase sweeps the pair.
    expect(count(continuous(), 30, 0.01)).toBeGreaterThan(0);
    // Passive never sweeps.
    expect(count(passive(), 30, 0.01)).toBe(0);
  });
});
