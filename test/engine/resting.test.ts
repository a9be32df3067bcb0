import { describe, expect, it } from "vitest";
import { Box, Capsule, Compound, Cylinder, Sphere, type Shape } from "../../src/index";
import { addGround, angVel, axisAngle, makeWorld, pos, steps, vel } from "./helpers";

const lying = axisAngle(0, 0, 1, Math.PI / 2);

const cases: { name: string; shape: Shape; rest: number; q?: { x: number; y: number; z: number; w: number } }[] = [
  { name: "sphere r 0.5", shape: new Sphere(0.5), rest: 0.5 },
  { name: "box 2 x 0.5 x 1", shape: new Box(1, 0.25, 0.5), rest: 0.25 },
  { name: "capsule upright", shape: new Capsule(0.3, 0.5), rest: 0.8 },
  { name: "capsule lying", shape: new Capsule(0.3, 0.5), rest: 0.3, q: lying },
  { name: "cylinder upright", shape: new Cylinder(0.4, 0.6), rest: 0.6 },
  { name: "cylinder lying", shape: new Cylinder(0.4, 0.6), rest: 0.4, q: lying },
  {
    // A dumbbell: two spheres of radius 0.3 joined by a thin box; it rests on the spheres.
    name: "compound dumbbell",
    shape: new Compound([
      { shape: new Sphere(0.3), position: { x: -0.6, y: 0, z: 0 } },
      { shape: new Sphere(0.3), position: { x: 0.6, y: 0, z: 0 } },
      { shape: new Box(0.6, 0.1, 0.1) },
    ]),
    rest: 0.3,
  },
];

describe("resting heights", () => {
  for (const c of cases) {
    it(`${c.name} settles at ${c.rest} m within 5 mm and stays still`, () => {
      const world = makeWorld({ sleepingEnabled: false });
      addGround(world);
      const h = world.createBody({ position: { x: 0, y: c.rest + 0.2, z: 0 }, orientation: c.q, collidable: { shape: c.shape } });
      steps(world, 120);
      let maxSpeed = 0;
      steps(world, 60, () => {
        const v = vel(world, h),
          w = angVel(world, h);
        maxSpeed = Math.max(maxSpeed, Math.hypot(v.x, v.y, v.z), Math.hypot(w.x, w.y, w.z) * 0.5);
      });
      expect(Math.abs(pos(world, h).y - c.rest)).toBeLessThan(0.005);
      // No jitter: below 1 mm/s (angular speed counted at 0.5 m).
      expect(maxSpeed).toBeLessThan(0.001);
    });
  }
});
