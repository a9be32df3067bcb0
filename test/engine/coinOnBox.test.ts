/**
 * Coins (cylinders of radius 1.2 cm, a few mm thick, a few grams) on a BOX floor: the convex-convex path
 * (convexGeneric's cylinder feature). A tilted landing coin's rim point alone was the one speculative contact: it
 * stopped that point, the impulse spun the coin ~1 rad a step, and the far rim turned into the box within the step
 * (contacts are built once per step at the start pose). The coin ended 1.07 cm inside the floor and slept there.
 * With the cap polygon (Jolt's CylinderShape::GetSupportingFace) every cap point within the margin has a contact.
 * 50 coins from 20 m onto a box floor: test/engine/meshCcd.test.ts (with the mesh and the heightfield).
 */
import { describe, expect, it } from "vitest";
import { Cylinder } from "../../src/index";
import { addGround, axisAngle, makeWorld, pos, steps } from "./helpers";

describe("coins on a box floor", () => {
  const half = 0.00125; // 2.5 mm thick
  for (const deg of [5, 20, 45, 60]) {
    it(`a coin dropped 5 cm at a tilt of ${deg} deg ends lying on the surface`, () => {
      const world = makeWorld();
      addGround(world);
      const coin = world.createBody({
        position: { x: 0, y: 0.05 + 0.012, z: 0 },
        orientation: axisAngle(1, 0, 0, (deg * Math.PI) / 180),
        massProperties: { mass: 0.006 },
        collidable: { shape: new Cylinder(0.012, half) },
      });
      steps(world, 240);
      const y = pos(world, coin).y;
      console.log("[coinOnBox]", deg, y);
      // Lying on its cap the centre is half the thickness (1.25 mm) up, less the contact's sag under the coin's weight
      // (a 60 Hz contact spring: g / (2 pi 60)^2 = 0.07 mm, measured 0.02 mm); 1 mm either way is resting and excludes
      // both the old 1.08 cm inside and a coin standing on its rim (1.2 cm up).
      expect(Math.abs(y - half)).toBeLessThan(0.001);
    });
  }
});
