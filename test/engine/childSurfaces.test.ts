/**
 * One per-child mechanism (issue 21): a compound's trigger children (CompoundChildDescription.isTrigger) and
 * the surfaces given with World.setChildSurfaces are folded into the same per-child runs, read by the narrow
 * phase and by the queries alike.
 */
import { describe, expect, it } from "vitest";
import { Box, Compound, MotionType, PointProximityResult, RayResult, Sphere, TriggerEventType } from "../../src/index";
import { makeWorld, pos, steps } from "./helpers";

/** A static floor (top at y = 0) of two 2 x 1 x 2 boxes, a trigger child at x = -3 and a solid one at x = +3. */
function floor() {
  return new Compound([
    { shape: new Box(1, 0.5, 1), position: { x: -3, y: 0, z: 0 }, isTrigger: true },
    { shape: new Box(1, 0.5, 1), position: { x: 3, y: 0, z: 0 } },
  ]);
}

describe("trigger children and child surfaces are one mechanism", () => {
  it("a compound's trigger child stays a trigger next to given surfaces, and the given material applies to its sibling", () => {
    const world = makeWorld({ sleepingEnabled: false });
    const f = world.createBody({ motionType: MotionType.Static, position: { x: 0, y: -0.5, z: 0 }, collidable: { shape: floor() } });
    // Given surfaces say nothing of triggers; child 1 gets a bouncy material.
    world.setChildSurfaces(f, [{ start: 0 }, { start: 1, material: { restitution: 0.9, restitutionCombine: 2 } }]);
    const ball = (x: number) => world.createBody({ position: { x, y: 2.25, z: 0 }, collidable: { shape: new Sphere(0.25) } });
    const a = ball(-3),
      b = ball(3);
    let entered = 0,
      apex = 0;
    steps(world, 90, (i) => {
      const ev = world.triggerEvents;
      for (let k = 0; k < ev.count; k++) if (ev.type[k] === TriggerEventType.Entered && (ev.bodyA[k] === a || ev.bodyB[k] === a)) entered++;
      if (i > 45) apex = Math.max(apex, pos(world, b).y);
    });
    // Trigger child: no contact, 1.5 s of free fall from 2.25 m ends below -5 m; it entered once.
    expect(pos(world, a).y).toBeLessThan(-5);
    expect(entered).toBe(1);
    // Bouncy child (e = 0.9, MAXIMUM): rebound to about 0.81 * 2 m above the floor; 1.2 m is far above a dead stop.
    expect(apex).toBeGreaterThan(1.2);
  });

  it("a kinematic body's trigger child senses a static body (a pair with nothing dynamic)", () => {
    const world = makeWorld();
    world.createBody({ motionType: MotionType.Static, position: { x: 0, y: 0, z: 0 }, collidable: { shape: new Box(0.5, 0.5, 0.5) } });
    const k = world.createBody({ motionType: MotionType.Kinematic, position: { x: 3, y: 0.5, z: 0 }, linearVelocity: { x: -3, y: 0, z: 0 }, collidable: { shape: floor() } });
    let entered = 0;
    // Child 0 (x = -3 in the body) reaches the box at the origin after about 1.7 s at 3 m/s.
    steps(world, 150, () => {
      for (let e = 0; e < world.triggerEvents.count; e++) if (world.triggerEvents.type[e] === TriggerEventType.Entered) entered++;
    });
    expect(world.hasChildSurfaces(k)).toBe(true);
    expect(entered).toBe(1);
  });

  it("queries skip a compound's trigger children unless they hit triggers", () => {
    const world = makeWorld();
    world.createBody({ motionType: MotionType.Static, position: { x: 0, y: -0.5, z: 0 }, collidable: { shape: floor() } });
    const r = new RayResult();
    const down = { x: 0, y: -1, z: 0 };
    expect(world.raycast({ x: -3, y: 5, z: 0 }, down, 10, {}, r)).toBe(false);
    expect(world.raycast({ x: -3, y: 5, z: 0 }, down, 10, { hitTriggers: true }, r)).toBe(true);
    expect(r.childIndex).toBe(0);
    expect(r.distance).toBeCloseTo(5, 9);
    expect(world.raycast({ x: 3, y: 5, z: 0 }, down, 10, {}, r)).toBe(true);
    const p = new PointProximityResult();
    // From (-3, 1, 0): the trigger child's top is 1 m away, the solid child's corner sqrt(5^2 + 1^2) = 5.10 m.
    expect(world.queries.pointProximity({ x: -3, y: 1, z: 0 }, 10, {}, p)).toBe(true);
    expect(p.distance).toBeCloseTo(Math.sqrt(26), 6);
    expect(world.queries.pointProximity({ x: -3, y: 1, z: 0 }, 10, { hitTriggers: true }, p)).toBe(true);
    expect(p.distance).toBeCloseTo(1, 6);
  });
});
