import { describe, expect, it } from "vitest";
import {
  AxisMode,
  Box,
  Capsule,
  ContinuousDetection,
  ConvexHull,
  Cylinder,
  JointAxis,
  MotionType,
  Sphere,
  World,
} from "../../src/index";
import "../../src/snapshot"; // installs World.snapshot / restore

/** A mixed scene: a pile of every convex kind, a hull, a jointed chain, a kinematic paddle and Continuous bullets. */
function build(): { world: World; paddle: number } {
  const world = new World();
  world.createBody({ motionType: MotionType.Static, position: { x: 0, y: -0.5, z: 0 }, collidable: { shape: new Box(20, 0.5, 20) } });
  let n = 0;
  for (let i = 0; i < 4; i++)
    for (let j = 0; j < 4; j++)
      for (let k = 0; k < 3; k++) {
        const kind = n++ % 5;
        const shape =
          kind === 0
            ? new Box(0.3, 0.25, 0.35)
            : kind === 1
              ? new Sphere(0.3)
              : kind === 2
                ? new Capsule(0.2, 0.3)
                : kind === 3
                  ? new Cylinder(0.3, 0.25)
                  : new ConvexHull([0, 0.4, 0, 0.35, -0.2, 0.2, -0.35, -0.2, 0.2, 0, -0.2, -0.4, 0.1, 0.1, 0.1]);
        world.createBody({
          position: { x: (i - 1.5) * 1.1, y: 0.5 + k * 1.1, z: (j - 1.5) * 1.1 },
          angularVelocity: { x: 0.3 * i, y: 0.2 * j, z: 0.1 * k },
          collidable: { shape, material: { friction: 0.4 + 0.1 * (n % 3), restitution: 0.1 * (n % 4) } },
        });
      }
  // A chain of 6 links hanging from a static anchor.
  let prev = world.createBody({ motionType: MotionType.Static, position: { x: 6, y: 6, z: 0 }, collidable: { shape: new Sphere(0.1) } });
  for (let l = 0; l < 6; l++) {
    const link = world.createBody({ position: { x: 6 + 0.5 * (l + 1), y: 6, z: 0 }, collidable: { shape: new Box(0.2, 0.05, 0.05) } });
    world.createJoint({
      bodyA: prev,
      bodyB: link,
      pivotA: { x: l === 0 ? 0 : 0.25, y: 0, z: 0 },
      pivotB: { x: -0.25, y: 0, z: 0 },
      axes: [
        { axis: JointAxis.LinearX, mode: AxisMode.Locked },
        { axis: JointAxis.LinearY, mode: AxisMode.Locked },
        { axis: JointAxis.LinearZ, mode: AxisMode.Locked },
      ],
    });
    prev = link;
  }
  const paddle = world.createBody({ motionType: MotionType.Kinematic, position: { x: -6, y: 0.5, z: 0 }, collidable: { shape: new Box(0.2, 0.5, 2) } });
  for (let b = 0; b < 3; b++) {
    world.createBody({
      position: { x: -10, y: 1 + b, z: -1 + b },
      linearVelocity: { x: 120, y: 0, z: 0 },
      collidable: { shape: new Sphere(0.05), continuity: ContinuousDetection.continuous() },
    });
  }
  return { world, paddle };
}

/** Steps from `from` to `to`, driving the paddle as a function of the step index; hashes every 100 steps. */
function run(world: World, paddle: number, from: number, to: number, hashes: number[]): void {
  for (let s = from; s < to; s++) {
    // Input that depends only on the step index (a replayable input stream).
    const x = -6 + 2 * Math.sin(s * 0.02);
    world.moveKinematic(paddle, { x, y: 0.5, z: 0 }, { x: 0, y: 0, z: 0, w: 1 }, 1 / 60);
    world.step(1 / 60);
    if ((s + 1) % 100 === 0) hashes.push(world.stateHash());
  }
}

describe("determinism and replay", () => {
  it("a 2,000-step mixed scene hashes identically over 3 runs and after snapshot/restore at step 1,000", () => {
    const runs: number[][] = [];
    for (let r = 0; r < 3; r++) {
      const { world, paddle } = build();
      const h: number[] = [];
      run(world, paddle, 0, 2000, h);
      runs.push(h);
    }
    expect(runs[0].length).toBe(20);
    expect(runs[1]).toEqual(runs[0]);
    expect(runs[2]).toEqual(runs[0]);
    // The scene is alive: the hashes change over time.
    expect(new Set(runs[0]).size).toBeGreaterThan(10);

    // Snapshot at 1,000, run on (and diverge the world with extra bodies), restore, replay 1,000 -> 2,000.
    const { world, paddle } = build();
    const first: number[] = [];
    run(world, paddle, 0, 1000, first);
    const snap = world.snapshot();
    const after: number[] = [];
    run(world, paddle, 1000, 1500, after);
    world.createBody({ position: { x: 0, y: 8, z: 0 }, collidable: { shape: new Sphere(1) } });
    run(world, paddle, 1500, 1600, after);
    world.restore(snap);
    const replay: number[] = [];
    run(world, paddle, 1000, 2000, replay);
    expect(first.concat(replay)).toEqual(runs[0]);
  }, 120_000);
});

describe("numerical guards", () => {
  it("a body driven to a non-finite state by an extreme force is put to rest and reported; others stay finite", () => {
    const world = new World();
    world.createBody({ motionType: MotionType.Static, position: { x: 0, y: -0.5, z: 0 }, collidable: { shape: new Box(10, 0.5, 10) } });
    const low = world.createBody({ position: { x: 0, y: 0.5, z: 0 }, collidable: { shape: new Box(0.5, 0.5, 0.5) } });
    const high = world.createBody({ position: { x: 0, y: 1.5, z: 0 }, collidable: { shape: new Box(0.5, 0.5, 0.5) } });
    for (let s = 0; s < 10; s++) world.step(1 / 60);
    const before = world.getPosition(high, { x: 0, y: 0, z: 0 });
    // 1e308 N is finite, but the velocity it makes overflows to Infinity.
    world.applyForce(high, { x: 1e308, y: 1e308, z: 0 });
    world.applyForce(high, { x: 1e308, y: 1e308, z: 0 });
    world.step(1 / 60);
    expect(world.nonFiniteBodies).toEqual([high]);
    expect(world.stats.nonFiniteBodies).toBe(1);
    const p = world.getPosition(high, { x: 0, y: 0, z: 0 });
    expect(p.x).toBeCloseTo(before.x, 6);
    expect(p.y).toBeCloseTo(before.y, 2);
    for (let s = 0; s < 60; s++) world.step(1 / 60);
    for (const h of world.getBodyHandles()) {
      const q = world.getPosition(h, { x: 0, y: 0, z: 0 });
      const v = world.getLinearVelocity(h, { x: 0, y: 0, z: 0 });
      expect(Number.isFinite(q.x + q.y + q.z + v.x + v.y + v.z)).toBe(true);
    }
    expect(world.getPosition(low, { x: 0, y: 0, z: 0 }).y).toBeCloseTo(0.5, 2);
  });
});
