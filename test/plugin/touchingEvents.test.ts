/**
 * Issue 29 item 5: two spheres side by side (radius 0.25, centres 0.5 apart) moving in parallel raised
 * COLLISION_STARTED and then CONTINUED every step with distance 0 and impulse 0; Havok raises none. No impulse,
 * no event. The same pair, once it really collides, gets one STARTED and one FINISHED.
 */
import { describe, expect, it } from "vitest";
import { MeshBuilder, PhysicsAggregate, PhysicsShapeType, Vector3, type IPhysicsCollisionEvent } from "@babylonjs/core";
import { KINDS, makeScene, type TestScene } from "./helpers";

function sphere(t: TestScene, x: number): PhysicsAggregate {
  const m = MeshBuilder.CreateSphere("s", { diameter: 0.5 }, t.scene);
  m.position.set(x, 1, 0);
  const a = new PhysicsAggregate(m, PhysicsShapeType.SPHERE, { mass: 1, restitution: 0.5, friction: 0 }, t.scene);
  a.body.setLinearDamping(0);
  a.body.setAngularDamping(0);
  return a;
}

describe("bodies that only touch raise no events", () => {
  for (const kind of KINDS) {
    it(`${kind}: side by side in parallel: nothing; then a real hit: STARTED once, FINISHED once`, async () => {
      const t = await makeScene(kind, { gravity: Vector3.Zero() });
      const a = sphere(t, 0);
      const b = sphere(t, 0.5);
      a.body.setCollisionCallbackEnabled(true);
      const events: { type: string; step: number; impulse: number; distance: number }[] = [];
      let step = 0;
      const record = (e: IPhysicsCollisionEvent | { type: string }) =>
        events.push({ type: e.type, step, impulse: (e as IPhysicsCollisionEvent).impulse ?? NaN, distance: (e as IPhysicsCollisionEvent).distance ?? NaN });
      t.plugin.onCollisionObservable.add(record);
      t.plugin.onCollisionEndedObservable.add(record);
      const run = (n: number) => {
        for (let k = 0; k < n; k++, step++) t.step();
      };
      // 1. Touching (distance 0), moving together at 2 m/s: no impulse between them, no event.
      a.body.setLinearVelocity(new Vector3(0, 0, 2));
      b.body.setLinearVelocity(new Vector3(0, 0, 2));
      run(30);
      expect(events).toEqual([]);
      // 2. Apart at 1 m/s for 0.5 s (0.5 m of gap), then back at 2 m/s: the hit at 3 m/s closing speed, and
      // with restitution 0.5 they part at 1.5 m/s.
      b.body.setLinearVelocity(new Vector3(1, 0, 2));
      run(30);
      b.body.setLinearVelocity(new Vector3(-2, 0, 2));
      run(60);
      const types = events.map((e) => e.type);
      console.log(`[measure] ${kind}`, JSON.stringify(events.slice(0, 3)), types.length, "events");
      expect(types.filter((x) => x === "COLLISION_STARTED").length).toBe(1);
      expect(types.filter((x) => x === "COLLISION_FINISHED").length).toBe(1);
      expect(types[0]).toBe("COLLISION_STARTED");
      expect(types[types.length - 1]).toBe("COLLISION_FINISHED");
      // The hit was real: momentum along x (-2 kg m/s) is shared and they part (Havok measured 0.92 m/s,
      // its restitution rule is not ours; the events are what this test is about).
      const va = a.body.getLinearVelocity(),
        vb = b.body.getLinearVelocity();
      expect(va.x + vb.x).toBeCloseTo(-2, 3);
      expect(vb.x - va.x).toBeGreaterThan(0.5);
      t.dispose();
    });
  }
});
