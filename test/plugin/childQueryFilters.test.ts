/**
 * Container children's own filters and trigger flags in queries (issue 21, item 1): raycast, pointProximity,
 * shapeProximity, shapeCast and Babylon's character controller (which queries through the `_hknp` façade)
 * test each child's masks, as Havok does, not the union of the children's masks that gates the body.
 * Havok filters a shape query (and so the character controller) with the query shape's own masks.
 */
import { describe, expect, it } from "vitest";
import {
  CharacterSupportedState,
  HavokPlugin,
  Mesh,
  PhysicsBody,
  PhysicsCharacterController,
  PhysicsMotionType,
  PhysicsRaycastResult,
  PhysicsShapeBox,
  PhysicsShapeContainer,
  PhysicsShapeSphere,
  ProximityCastResult,
  Quaternion,
  ShapeCastResult,
  Vector3,
  type PhysicsShape,
} from "@babylonjs/core";
import { KINDS, makeScene, type TestScene } from "./helpers";

/** A static container body at y = -0.5 with 2 x 1 x 2 box children; returns the children. */
function floorOf(t: TestScene, kids: [x: number, membership: number, collide: number, trigger?: boolean][]): PhysicsShape[] {
  const n = new Mesh("floor", t.scene);
  n.position.set(0, -0.5, 0);
  const body = new PhysicsBody(n, PhysicsMotionType.STATIC, false, t.scene);
  const c = new PhysicsShapeContainer(t.scene);
  const shapes = kids.map(([x, m, col, trig]) => {
    const s = new PhysicsShapeBox(Vector3.Zero(), Quaternion.Identity(), new Vector3(2, 1, 2), t.scene);
    s.filterMembershipMask = m;
    s.filterCollideMask = col;
    if (trig) s.isTrigger = true;
    c.addChild(s, new Vector3(x, 0, 0));
    return s;
  });
  body.shape = c;
  return shapes;
}

describe("queries see container children by their own filters", () => {
  for (const kind of KINDS) {
    it(`${kind}: rays, point and shape proximity and shape casts against children of membership 2 (x = -3) and 4 (x = +3)`, async () => {
      const t = await makeScene(kind);
      floorOf(t, [
        [-3, 2, 2],
        [3, 4, 4],
      ]);
      t.step(1);
      // Both plugins have Havok's query methods beyond the V2 interface.
      const p = t.plugin as unknown as HavokPlugin;
      const r = new PhysicsRaycastResult();
      const ray = (x: number, mask: number) => {
        p.raycast(new Vector3(x, 5, 0), new Vector3(x, -5, 0), r, { membership: mask, collideWith: mask });
        return r.hasHit;
      };
      // A ray filtered to one membership hits only that child (the body's union 6 would see both).
      expect([ray(-3, 2), ray(3, 2), ray(-3, 4), ray(3, 4), ray(3, 1), ray(3, 6)]).toEqual([true, false, false, true, false, true]);
      // Along the floor from +x with mask 2: through child 4 (faces x = 2..4) to child 2's near face at x = -2.
      p.raycast(new Vector3(10, -0.5, 0), new Vector3(-10, -0.5, 0), r, { membership: 2, collideWith: 2 });
      expect(r.hasHit).toBe(true);
      expect(r.hitPointWorld.x).toBeCloseTo(-2, 5);
      // Point proximity from (3, 1, 0): child 4's top is 1 m below; child 2 (nearest corner 5.1 m off) is beyond 5 m.
      const pr = new ProximityCastResult();
      const point = (mask: number) => {
        p.pointProximity({ position: new Vector3(3, 1, 0), maxDistance: 5, shouldHitTriggers: false, collisionFilter: { membership: mask, collideWith: mask } }, pr);
        return pr.hasHit ? pr.hitDistance : -1;
      };
      expect(point(4)).toBeCloseTo(1, 5);
      expect(point(2)).toBe(-1);
      // Shape queries take the query shape's masks: a 0.25 m sphere at (3, 1, 0).
      for (const [mask, near, fraction] of [
        // Child 2's corner (-2, 0) is sqrt(5^2 + 1^2) - 0.25 = 4.849 m away; no cast down x = 3 reaches it.
        [2, Math.sqrt(26) - 0.25, -1],
        // Child 4's top: 1 - 0.25 = 0.75 m; the cast from y = 3 to -3 touches it at y = 0.25, fraction 2.75 / 6.
        [4, 0.75, 2.75 / 6],
        [1, -1, -1],
      ]) {
        const s = new PhysicsShapeSphere(Vector3.Zero(), 0.25, t.scene);
        s.filterMembershipMask = mask;
        s.filterCollideMask = mask;
        const inp = new ProximityCastResult(),
          hit = new ProximityCastResult();
        p.shapeProximity({ shape: s, position: new Vector3(3, 1, 0), rotation: Quaternion.Identity(), maxDistance: 5, shouldHitTriggers: false }, inp, hit);
        // Havok's convex distances carry a few mm of its convex radius; 5 mm covers it.
        if (near < 0) expect(hit.hasHit).toBe(false);
        else expect(hit.hitDistance).toBeCloseTo(near, 2);
        const ci = new ShapeCastResult(),
          ch = new ShapeCastResult();
        p.shapeCast({ shape: s, rotation: Quaternion.Identity(), startPosition: new Vector3(3, 3, 0), endPosition: new Vector3(3, -3, 0), shouldHitTriggers: false }, ci, ch);
        if (fraction < 0) expect(ch.hasHit).toBe(false);
        else expect(ch.hitFraction).toBeCloseTo(fraction, 2);
      }
      t.dispose();
    });

    it(`${kind}: a ray skips a trigger child unless it asks for triggers`, async () => {
      const t = await makeScene(kind);
      floorOf(t, [
        [-3, -1, -1, true],
        [3, -1, -1],
      ]);
      t.step(1);
      const r = new PhysicsRaycastResult();
      t.plugin.raycast(new Vector3(-3, 5, 0), new Vector3(-3, -5, 0), r, { shouldHitTriggers: false });
      expect(r.hasHit).toBe(false);
      t.plugin.raycast(new Vector3(-3, 5, 0), new Vector3(-3, -5, 0), r, { shouldHitTriggers: true });
      expect(r.hasHit).toBe(true);
      expect(r.hitPointWorld.y).toBeCloseTo(0, 5);
      t.dispose();
    });

    it(`${kind}: the character controller falls through a child whose collide mask excludes it and stands on its sibling`, async () => {
      const t = await makeScene(kind);
      // Under x = -3 a child that collides with membership 2 only; under x = +3 a child that collides with all.
      floorOf(t, [
        [-3, 2, 2],
        [3, -1, -1],
      ]);
      const DT = 1 / 60;
      const G = new Vector3(0, -9.81, 0);
      const down = new Vector3(0, -1, 0);
      const run = (x: number) => {
        const cc = new PhysicsCharacterController(new Vector3(x, 3, 0), { capsuleHeight: 1.8, capsuleRadius: 0.4 }, t.scene);
        cc.shape.filterMembershipMask = 1;
        cc.shape.filterCollideMask = 1;
        let supported = 0;
        for (let i = 0; i < 90; i++) {
          const s = cc.checkSupport(DT, down);
          if (s.supportedState === CharacterSupportedState.SUPPORTED) supported++;
          const v = cc.getVelocity().clone();
          if (s.supportedState === CharacterSupportedState.SUPPORTED) v.set(0, 0, 0);
          else v.addInPlace(G.scale(DT));
          cc.setVelocity(v);
          cc.integrate(DT, s, G);
          t.step(1);
          (t.scene as unknown as { _frameId: number })._frameId++;
        }
        const y = cc.getPosition().y;
        cc.dispose();
        return { y, supported };
      };
      // Over the solid child: lands (after a 2.1 m fall, 0.65 s) with the capsule's centre 0.9 m above the top
      // (y = 0); 0.1 m covers the keep distance and the landing frame (characterController.test.ts).
      const solid = run(3);
      expect(Math.abs(solid.y - 0.9)).toBeLessThan(0.1);
      expect(solid.supported).toBeGreaterThan(40);
      // Over the excluded child: 1.5 s of free fall from 3 m ends 11 m lower, never supported.
      const through = run(-3);
      expect(through.y).toBeLessThan(-5);
      expect(through.supported).toBe(0);
      t.dispose();
    });
  }
});
