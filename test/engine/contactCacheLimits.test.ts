/**
 * The contact cache's reuse limits, tested directly through the World API and its stats (issue 29, "tests the
 * suite lacks"): a pair whose relative pose has turned less than 2 degrees and moved less than 1 mm since its
 * manifolds were made keeps them (Jolt's body pair cache limits); past either limit the narrow phase runs
 * again. The relative pose is the ground's in the box's frame: a turn about the contact normal through the
 * box's centre changes only its orientation.
 */
import { describe, expect, it } from "vitest";
import { Box } from "../../src/index";
import { addGround, axisAngle, makeWorld, steps } from "./helpers";

const DEG = Math.PI / 180;

/**
 * A box resting on the ground without gravity (no impulses, no motion), its manifold made once and kept; then
 * teleported by `turn` radians about `axis` and `shift` m along x. Returns the next step's kept and total
 * manifold counts.
 */
function afterMove(turn: number, axis: [number, number, number], shift: number): { reused: number; manifolds: number } {
  const world = makeWorld({ gravity: { x: 0, y: 0, z: 0 }, sleepingEnabled: false });
  addGround(world);
  const h = world.createBody({ position: { x: 0, y: 0.25, z: 0 }, collidable: { shape: new Box(0.25, 0.25, 0.25) } });
  steps(world, 5);
  // At rest at the pose its manifold was made at: every step keeps it.
  expect(world.stats.manifolds).toBe(1);
  expect(world.stats.reusedManifolds).toBe(1);
  world.setPose(h, { x: shift, y: 0.25, z: 0 }, axisAngle(axis[0], axis[1], axis[2], turn));
  steps(world, 1);
  return { reused: world.stats.reusedManifolds, manifolds: world.stats.manifolds };
}

describe("contact cache reuse limits (2 degrees, 1 mm)", () => {
  it("turned 1.5 degrees about the normal keeps the manifold; 2.5 degrees collides again", () => {
    expect(afterMove(1.5 * DEG, [0, 1, 0], 0)).toEqual({ reused: 1, manifolds: 1 });
    expect(afterMove(2.5 * DEG, [0, 1, 0], 0)).toEqual({ reused: 0, manifolds: 1 });
  });
  it("moved 0.9 mm keeps the manifold; 1.1 mm collides again", () => {
    expect(afterMove(0, [0, 1, 0], 0.0009)).toEqual({ reused: 1, manifolds: 1 });
    expect(afterMove(0, [0, 1, 0], 0.0011)).toEqual({ reused: 0, manifolds: 1 });
  });
});
