import { describe, expect, it } from "vitest";
import { Box, Compound, ConvexHull, Heightfield, MotionType, TriangleMesh, type World } from "../../src/index";
import { addGround, makeWorld, pos, steps } from "./helpers";

// The contact cache keeps a convex pair's manifold while the pair's relative pose has barely changed
// (ContactSolver.findReusable). A resting pair never moves, so these tests check that what the cache keeps
// is dropped when the geometry changes without a pose change (World.setShape calls ContactSolver.forgetBody).
// Today setShape also re-creates the body's broad-phase proxy and the pair is absent for one step, which drops
// the kept manifold as well, so these tests pass without forgetBody; they guard the behaviour, whichever path
// provides it.
describe("contact cache", () => {
  it("a resting box given a slightly lower shape drops onto the ground at its new half height", () => {
    const world = makeWorld({ sleepingEnabled: false });
    addGround(world);
    const h = world.createBody({ position: { x: 0, y: 0.5, z: 0 }, collidable: { shape: new Box(0.5, 0.5, 0.5) } });
    steps(world, 60);
    // Resting on its 0.5 m half height (within the soft contact's sag under gravity: under 1 mm at 60 Hz x 2).
    expect(Math.abs(pos(world, h).y - 0.5)).toBeLessThan(0.002);
    // Same origin, same pose, 2 cm lower (still within the pair's speculative margin, so the pair stays in
    // the narrow phase): last step's manifold, kept at the old bottom face, would hold the box 2 cm up.
    world.setShape(h, new Box(0.5, 0.48, 0.5));
    steps(world, 60);
    // A 2 cm drop takes 0.06 s; after 1 s it rests at 0.48 m (same sag bound as above).
    expect(Math.abs(pos(world, h).y - 0.48)).toBeLessThan(0.002);
  });

  it("a resting box given a larger shape is pushed up to its new half height", () => {
    const world = makeWorld({ sleepingEnabled: false });
    addGround(world);
    const h = world.createBody({ position: { x: 0, y: 0.25, z: 0 }, collidable: { shape: new Box(0.25, 0.25, 0.25) } });
    steps(world, 60);
    world.setShape(h, new Box(0.5, 0.5, 0.5));
    // The new box starts 0.25 m into the ground; recovery at up to 3 m/s (the default maximum recovery
    // velocity) takes under 0.1 s; 2 s settles it.
    steps(world, 120);
    expect(Math.abs(pos(world, h).y - 0.5)).toBeLessThan(0.002);
  });
});

// Pairs against meshes, heightfields and compounds are cached as a run of manifolds (one per triangle or child
// pair): the whole run is kept or the narrow phase runs again.
describe("contact cache: runs of manifolds", () => {
  /** A flat 2-triangle mesh, a 1-cell heightfield and a box ground, side by side; a hull on the mesh, a cube on
   * the heightfield and a two-box compound on the box ground. */
  function build(): World {
    const world = makeWorld({ sleepingEnabled: false });
    world.createBody({
      motionType: MotionType.Static,
      position: { x: -4, y: 0, z: 0 },
      collidable: { shape: new TriangleMesh([-2, 0, -2, 2, 0, -2, 2, 0, 2, -2, 0, 2], [0, 2, 1, 0, 3, 2]) },
    });
    world.createBody({
      motionType: MotionType.Static,
      position: { x: 0, y: 0, z: 0 },
      collidable: { shape: new Heightfield(4, 4, 2, 2, new Float64Array(4)) },
    });
    world.createBody({ motionType: MotionType.Static, position: { x: 4, y: -0.5, z: 0 }, collidable: { shape: new Box(2, 0.5, 2) } });
    const hull = new ConvexHull([-0.4, 0, -0.4, 0.4, 0, -0.4, 0.4, 0, 0.4, -0.4, 0, 0.4, 0, 0.5, 0, 0.1, 0.3, -0.2]);
    world.createBody({ position: { x: -4, y: 0.05, z: 0 }, collidable: { shape: hull } });
    world.createBody({ position: { x: 0, y: 0.3, z: 0 }, collidable: { shape: new Box(0.25, 0.25, 0.25) } });
    const compound = new Compound([
      { shape: new Box(0.2, 0.2, 0.2), position: { x: -0.3, y: 0, z: 0 } },
      { shape: new Box(0.2, 0.2, 0.2), position: { x: 0.3, y: 0, z: 0 } },
    ]);
    world.createBody({ position: { x: 4, y: 0.25, z: 0 }, collidable: { shape: compound } });
    return world;
  }

  it("resting bodies on a mesh, a heightfield and as a compound reuse all their manifolds", () => {
    const world = build();
    steps(world, 120);
    // After 2 s at rest each pair's relative pose stays within the cache's 1 mm / 2 degree limits of the pose
    // its manifolds were made at: every manifold of the step is a kept one. The hull's base face lies on one
    // or two triangles, the cube's on the heightfield's two, the compound's two children on the box: at least 4.
    expect(world.stats.manifolds).toBeGreaterThanOrEqual(4);
    expect(world.stats.reusedManifolds).toBe(world.stats.manifolds);
  });

  it("a snapshot restores the kept manifolds: the replay after it hashes as the original run", () => {
    const world = build();
    steps(world, 30);
    const snap = world.snapshot();
    const original: number[] = [];
    steps(world, 60, () => original.push(world.stateHash()));
    world.restore(snap);
    const replay: number[] = [];
    steps(world, 60, () => replay.push(world.stateHash()));
    expect(replay).toEqual(original);
  });
});
