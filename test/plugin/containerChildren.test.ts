/**
 * Materials, filters and trigger flags of container children (issue 21, item 1). glTF physics loaders wrap
 * every collider in a PhysicsShapeContainer and set the material and the filter masks on the child shape.
 * Havok takes them per leaf shape and ignores the container's own (probed: a container's masks, trigger flag
 * and material change nothing; its children's do); Continuum took them from the container for the whole body.
 */
import { describe, expect, it } from "vitest";
import {
  Mesh,
  PhysicsBody,
  PhysicsEventType,
  PhysicsMotionType,
  PhysicsShapeBox,
  PhysicsShapeContainer,
  PhysicsShapeSphere,
  Quaternion,
  Vector3,
  type PhysicsMaterial,
} from "@babylonjs/core";
import { KINDS, makeScene, type TestScene } from "./helpers";

/** A body at `pos` whose shape is a container of `children` (shape, translation). */
function containerBody(t: TestScene, pos: Vector3, motion: PhysicsMotionType, children: [PhysicsShapeBox | PhysicsShapeSphere, Vector3][], rot?: Quaternion): PhysicsBody {
  const n = new Mesh("n", t.scene);
  n.position.copyFrom(pos);
  if (rot) n.rotationQuaternion = rot;
  const body = new PhysicsBody(n, motion, false, t.scene);
  const c = new PhysicsShapeContainer(t.scene);
  for (const [s, p] of children) c.addChild(s, p, Quaternion.Identity(), new Vector3(1, 1, 1));
  body.shape = c;
  if (motion === PhysicsMotionType.DYNAMIC) body.setMassProperties({ mass: 1 });
  return body;
}

describe("container children carry their own material, filter and trigger flag", () => {
  for (const kind of KINDS) {
    it(`${kind}: one static container floor, four children, four outcomes`, async () => {
      const t = await makeScene(kind);
      const box = () => new PhysicsShapeBox(Vector3.Zero(), Quaternion.Identity(), new Vector3(3, 1, 3), t.scene);
      const bouncy = box(),
        filtered = box(),
        trigger = box(),
        plain = box();
      bouncy.material = { restitution: 0.9, restitutionCombine: 2 } as PhysicsMaterial; // MAXIMUM
      filtered.filterMembershipMask = 4;
      filtered.filterCollideMask = 4;
      trigger.isTrigger = true;
      // Floor top at y = 0; the children side by side along x.
      const floor = containerBody(t, new Vector3(0, -0.5, 0), PhysicsMotionType.STATIC, [
        [bouncy, new Vector3(-6, 0, 0)],
        [filtered, new Vector3(-2, 0, 0)],
        [trigger, new Vector3(2, 0, 0)],
        [plain, new Vector3(6, 0, 0)],
      ]);
      // The container's own settings are ignored, as on Havok: a mask that would keep every ball out.
      floor.shape!.filterMembershipMask = 8;
      floor.shape!.filterCollideMask = 8;
      const balls = [-6, -2, 2, 6].map((x) => {
        const s = new PhysicsShapeSphere(Vector3.Zero(), 0.25, t.scene);
        s.filterMembershipMask = 1;
        s.filterCollideMask = 1;
        return containerBody(t, new Vector3(x, 2.25, 0), PhysicsMotionType.DYNAMIC, [[s, Vector3.Zero()]]);
      });
      const triggered: string[] = [];
      t.plugin.onTriggerCollisionObservable.add((e) => {
        const ball = balls.indexOf(e.collider === floor ? (e.collidedAgainst as PhysicsBody) : (e.collider as PhysicsBody));
        triggered.push(`${e.type === PhysicsEventType.TRIGGER_ENTERED ? "in" : "out"}:${ball}`);
      });
      // Fall of 2 m: v = 6.26 m/s at impact after 0.64 s.
      t.step(45);
      let apex = 0;
      for (let s = 0; s < 45; s++) {
        t.step(1);
        apex = Math.max(apex, balls[0].transformNode.position.y);
      }
      const y = balls.map((b) => b.transformNode.position.y);
      // Bouncy child (e = max(0.9, 0) = 0.9): the ball rebounds to about e^2 * 2 m = 1.62 m above the floor
      // (centre 1.87 m); 1.2 m bounds it well away from a dead landing (0.25).
      expect(apex).toBeGreaterThan(1.2);
      // Filtered child (membership 4 vs the ball's collide mask 1): the ball falls through, 1.5 s of free
      // fall from 2.25 m ends below -5 m.
      expect(y[1]).toBeLessThan(-5);
      // Trigger child: no contact, the ball falls through, and the trigger reports it entering (and leaving).
      expect(y[2]).toBeLessThan(-5);
      expect(triggered).toContain("in:2");
      // Plain child: the ball rests on it (centre 0.25 m above the top).
      expect(y[3]).toBeCloseTo(0.25, 1);
      t.dispose();
    });

    it(`${kind}: the friction sample with its materials on the children (box 0.547, floor 0, MAXIMUM)`, async () => {
      // Materials_Friction.gltf: a 29.3 degree floor and a box, each a container with one child carrying the
      // material (dynamic = static friction, frictionCombine MAXIMUM from the loader's default). The pair's
      // friction is 0.547 < tan(29.3) = 0.561: it creeps at 0.12 m/s^2. With the children's materials dropped
      // the container defaults (0.5, MINIMUM) made it slide at 0.5 m/s^2 and off the floor (40 m/s at 10 s).
      const t = await makeScene(kind);
      const mat = (f: number): PhysicsMaterial => ({ friction: f, staticFriction: f, restitution: 0, frictionCombine: 2, restitutionCombine: 1 });
      const floorShape = new PhysicsShapeBox(Vector3.Zero(), Quaternion.Identity(), new Vector3(10.37, 0.34, 10.37), t.scene);
      floorShape.material = mat(0);
      containerBody(t, new Vector3(0, 1.28, -1.07), PhysicsMotionType.STATIC, [[floorShape, Vector3.Zero()]], new Quaternion(0.2529, 0, 0, 0.9675));
      const boxShape = new PhysicsShapeBox(Vector3.Zero(), Quaternion.Identity(), new Vector3(1.46, 0.3, 2.24), t.scene);
      boxShape.material = mat(0.547);
      const body = containerBody(t, new Vector3(1.66, 4.29, -3.76), PhysicsMotionType.DYNAMIC, [[boxShape, Vector3.Zero()]], new Quaternion(0.413, 0, 0, 0.9107));
      t.step(600);
      // Havok: 1.29 m/s after 10 s (landing, then 0.12 m/s^2 for ~9 s = 1.1 m/s, plus what the landing left).
      const v = body.getLinearVelocity().length();
      expect(v).toBeGreaterThan(0.8);
      expect(v).toBeLessThan(1.8);
      t.dispose();
    });
  }
});

describe("a container child's trigger flag goes through the per-child surfaces only (issue 28)", () => {
  it("continuum: the engine compound carries no trigger flag; a leaf made a trigger drops what rests on it", async () => {
    const t = await makeScene("continuum");
    try {
      const solid = new PhysicsShapeBox(Vector3.Zero(), Quaternion.Identity(), new Vector3(3, 1, 3), t.scene);
      const leaf = new PhysicsShapeBox(Vector3.Zero(), Quaternion.Identity(), new Vector3(3, 1, 3), t.scene);
      const floor = containerBody(t, new Vector3(0, -0.5, 0), PhysicsMotionType.STATIC, [
        [solid, new Vector3(-2, 0, 0)],
        [leaf, new Vector3(2, 0, 0)],
      ]);
      const s = new PhysicsShapeSphere(Vector3.Zero(), 0.25, t.scene);
      const ball = containerBody(t, new Vector3(2, 0.5, 0), PhysicsMotionType.DYNAMIC, [[s, Vector3.Zero()]]);
      let entered = 0;
      t.plugin.onTriggerCollisionObservable.add((e) => {
        if (e.type === PhysicsEventType.TRIGGER_ENTERED) entered++;
      });
      t.step(60);
      // Resting on the solid leaf: centre one radius (0.25 m) above the floor's top, within the contact's slop.
      expect(ball.transformNode.position.y).toBeCloseTo(0.25, 1);
      const world = (t.plugin as unknown as { world: { getShape(h: number): unknown; hasChildSurfaces(h: number): boolean } }).world;
      const h = (floor._pluginData as { handle: number }).handle;
      leaf.isTrigger = true;
      // One path: the trigger child is a per-child surface of the body, not a flag baked into the compound.
      expect((world.getShape(h) as { triggerChildCount: number }).triggerChildCount).toBe(0);
      expect(world.hasChildSurfaces(h)).toBe(true);
      t.step(60);
      // No contact any more: 1 s of free fall from rest ends 4.9 m lower (below -4 m), and the leaf reports it.
      expect(ball.transformNode.position.y).toBeLessThan(-4);
      expect(entered).toBe(1);
    } finally {
      t.dispose();
    }
  });
});
