import { describe, expect, it } from "vitest";
import { Box, ContinuousDetection, Cylinder, Heightfield, MotionType, type Shape } from "../../src/index";
import { gridMesh } from "./terrainHelpers";
import { makeWorld, pos, rng, steps } from "./helpers";

describe("continuous sweeps against meshes and heightfields", () => {
  // Each ground's top surface is at y = 0 (the box is placed half its height down).
  const grounds: [string, () => Shape, number][] = [
    ["box floor", () => new Box(10, 0.5, 10), -0.5],
    ["mesh", () => gridMesh(20, 1), 0],
    ["heightfield", () => new Heightfield(20, 20, 21, 21, new Float64Array(21 * 21)), 0],
  ];
  for (const [name, make, groundY] of grounds) {
    it(`thin coins dropped from 20 m onto a ${name} in Continuous mode never end below it (30 trials)`, () => {
      const r = rng(17);
      const ground = make();
      let below = 0;
      for (let trial = 0; trial < 30; trial++) {
        const world = makeWorld({ sleepingEnabled: false });
        world.createBody({ motionType: MotionType.Static, position: { x: 0, y: groundY, z: 0 }, collidable: { shape: ground } });
        const coin = world.createBody({
          position: { x: (r() - 0.5) * 10, y: 20, z: (r() - 0.5) * 10 },
          orientation: { x: r() - 0.5, y: r() - 0.5, z: r() - 0.5, w: r() - 0.5 },
          linearVelocity: { x: 0, y: -5, z: 0 },
          angularVelocity: { x: (r() - 0.5) * 20, y: 0, z: (r() - 0.5) * 20 },
          collidable: { shape: new Cylinder(0.012, 0.001), continuity: ContinuousDetection.continuous() },
        });
        steps(world, 150);
        if (pos(world, coin).y < -0.001) below++;
      }
      expect(below).toBe(0);
    });
  }

  // The default (Passive) mode: no sweep, only speculative contacts from the velocity-expanded bounds. A coin meets the
  // ground at 20.4 m/s, 0.34 m a step, 28 times its radius. Its tilted cap's rim point alone was one speculative contact:
  // it stopped that point, and the impulse spun the rest of the coin through the triangle within the step (45 of 50
  // below the mesh, 40 below the heightfield; on the box floor, through convexGeneric's cylinder feature, 44 below).
  // With every cap point within the margin a contact of its own, none.
  for (const [name, make, groundY] of grounds) {
    it(`thin coins dropped from 20 m onto a ${name} in the default Passive mode never end below it (50 trials)`, () => {
      const r = rng(29);
      const ground = make();
      let below = 0;
      for (let trial = 0; trial < 50; trial++) {
        const world = makeWorld({ sleepingEnabled: false });
        world.createBody({ motionType: MotionType.Static, position: { x: 0, y: groundY, z: 0 }, collidable: { shape: ground } });
        const coin = world.createBody({
          position: { x: (r() - 0.5) * 10, y: 20, z: (r() - 0.5) * 10 },
          orientation: { x: r() - 0.5, y: r() - 0.5, z: r() - 0.5, w: r() - 0.5 },
          linearVelocity: { x: 0, y: -5, z: 0 },
          angularVelocity: { x: (r() - 0.5) * 20, y: 0, z: (r() - 0.5) * 20 },
          collidable: { shape: new Cylinder(0.012, 0.001) },
        });
        steps(world, 150);
        // Lying flat its centre is 1 mm up; 1 mm below is through the surface.
        if (pos(world, coin).y < -0.001) below++;
      }
      expect(below).toBe(0);
    });
  }
});
