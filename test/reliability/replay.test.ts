import { describe, expect, it } from "vitest";
import { Box, MotionType, Sphere, World } from "../../src/index";
import { buildMixedScene, stepMixedScene, type MixedScene } from "./mixedScene";
import "../../src/snapshot"; // installs World.snapshot / restore

/** The mixed scene (./mixedScene.ts) with a 4 x 4 x 3 pile. */
function build(): MixedScene {
  return buildMixedScene(new World(), 4, 3, 6);
}

/** Steps from `from` to `to`, driving the paddle as a function of the step index; hashes every 100 steps. */
function run(scene: MixedScene, from: number, to: number, hashes: number[]): void {
  for (let s = from; s < to; s++) {
    // Input that depends only on the step index (a replayable input stream).
    stepMixedScene(scene, s);
    if ((s + 1) % 100 === 0) hashes.push(scene.world.stateHash());
  }
}

describe("determinism and replay", () => {
  it("a 2,000-step mixed scene hashes identically over 3 runs and after snapshot/restore at step 1,000", () => {
    const runs: number[][] = [];
    for (let r = 0; r < 3; r++) {
      const h: number[] = [];
      run(build(), 0, 2000, h);
      runs.push(h);
    }
    expect(runs[0].length).toBe(20);
    expect(runs[1]).toEqual(runs[0]);
    expect(runs[2]).toEqual(runs[0]);
    // The scene is alive: the hashes change over time.
    expect(new Set(runs[0]).size).toBeGreaterThan(10);

    // Snapshot at 1,000, run on (and diverge the world with extra bodies), restore, replay 1,000 -> 2,000.
    const scene = build();
    const world = scene.world;
    const first: number[] = [];
    run(scene, 0, 1000, first);
    const snap = world.snapshot();
    const after: number[] = [];
    run(scene, 1000, 1500, after);
    world.createBody({ position: { x: 0, y: 8, z: 0 }, collidable: { shape: new Sphere(1) } });
    run(scene, 1500, 1600, after);
    world.restore(snap);
    const replay: number[] = [];
    run(scene, 1000, 2000, replay);
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
