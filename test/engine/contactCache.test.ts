import { describe, expect, it } from "vitest";
import { Box } from "../../src/index";
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
