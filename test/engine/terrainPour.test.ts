import { describe, expect, it } from "vitest";
import { Box, Capsule, ConvexHull, Cylinder, MotionType, RayResult, Sphere, type Shape } from "../../src/index";
import { makeWorld, rng } from "./helpers";
import { gridMesh } from "./terrainHelpers";

describe("pouring onto a terrain mesh", () => {
  it("500 mixed hulls and primitives poured onto a 10k-triangle terrain: none falls through in 20 s", () => {
    const world = makeWorld();
    // 71 x 71 quads of 0.6 m = 10,082 triangles of rolling hills over a 42.6 m square.
    const hills = (x: number, z: number) => 0.8 * Math.sin(x * 0.35) * Math.cos(z * 0.3) + 0.3 * Math.sin(x * 1.1 + z * 0.7);
    // A terrain is one-sided: bodies pressed deep into it are pushed back up, never through.
    const terrainShape = gridMesh(71, 0.6, hills, { doubleSided: false });
    const terrain = world.createBody({ motionType: MotionType.Static, collidable: { shape: terrainShape, membership: 2, collideWith: -1 } });
    // Walls keep everything on the terrain.
    for (const [x, z, hx, hz] of [
      [21.6, 0, 0.3, 22],
      [-21.6, 0, 0.3, 22],
      [0, 21.6, 22, 0.3],
      [0, -21.6, 22, 0.3],
    ]) {
      world.createBody({ motionType: MotionType.Static, position: { x, y: 2, z }, collidable: { shape: new Box(hx, 5, hz) } });
    }
    const r = rng(5);
    const hullPoints = (n: number, s: number) => {
      const p: number[] = [];
      for (let k = 0; k < n; k++) p.push((r() - 0.5) * s, (r() - 0.5) * s, (r() - 0.5) * s);
      return p;
    };
    const bodies: number[] = [];
    for (let n = 0; n < 500; n++) {
      const kind = n % 5;
      let shape: Shape;
      if (kind === 0) shape = new ConvexHull(hullPoints(12, 0.9));
      else if (kind === 1) shape = new Box(0.25, 0.2, 0.3);
      else if (kind === 2) shape = new Sphere(0.3);
      else if (kind === 3) shape = new Capsule(0.2, 0.25);
      else shape = new Cylinder(0.3, 0.2);
      bodies.push(
        world.createBody({
          position: { x: ((n % 20) - 9.5) * 1.6, y: 4 + Math.floor(n / 100) * 1.5, z: (Math.floor(n / 20) % 5 - 2) * 6 + (r() - 0.5) },
          angularVelocity: { x: r() - 0.5, y: r() - 0.5, z: r() - 0.5 },
          collidable: { shape, membership: 1 },
        }),
      );
    }
    for (let s = 0; s < 1200; s++) world.step(1 / 60);
    // Each centre must be above the terrain surface beneath it: a ray down from high above, hitting only the
    // terrain (membership 2), finds the surface height there.
    const hit = new RayResult();
    let below = 0;
    const p = { x: 0, y: 0, z: 0 };
    for (const h of bodies) {
      world.getCenterOfMass(h, p);
      if (!world.raycast({ x: p.x, y: 50, z: p.z }, { x: 0, y: -1, z: 0 }, 100, { collideWith: 2 }, hit)) {
        below++;
        continue;
      }
      expect(hit.body).toBe(terrain);
      if (p.y < hit.point.y) below++;
    }
    expect(below).toBe(0);
  }, 180_000);
});
