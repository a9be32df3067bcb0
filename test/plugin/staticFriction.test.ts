/**
 * Issue 16 item 2: `PhysicsMaterial.staticFriction` is Coulomb's static coefficient. A box at rest on a ramp
 * steeper than its dynamic coefficient but below its static one stays; pushed into sliding it slides with the
 * dynamic one. Both coefficients combine with the pair's friction combine mode.
 */
import { describe, expect, it } from "vitest";
import { MeshBuilder, PhysicsAggregate, PhysicsShapeType, Quaternion, Vector3, type PhysicsMaterial } from "@babylonjs/core";
import { KINDS, makeScene, type TestScene } from "./helpers";

const angle = (20 * Math.PI) / 180; // tan(20 deg) = 0.364
const g = 9.81;
const normal = new Vector3(-Math.sin(angle), Math.cos(angle), 0);
const downSlope = new Vector3(-Math.cos(angle), -Math.sin(angle), 0);

/** A 1 m, 1 kg box at rest on the top face of a static ramp tilted 20 degrees, 2 mm above it. */
function rampScene(t: TestScene, rampMat: PhysicsMaterial, boxMat: PhysicsMaterial) {
  const ramp = MeshBuilder.CreateBox("ramp", { width: 30, height: 1, depth: 4 }, t.scene);
  ramp.rotationQuaternion = Quaternion.RotationAxis(new Vector3(0, 0, 1), angle);
  const r = new PhysicsAggregate(ramp, PhysicsShapeType.BOX, { mass: 0 }, t.scene);
  r.shape.material = rampMat;
  const box = MeshBuilder.CreateBox("box", { size: 1 }, t.scene);
  box.rotationQuaternion = ramp.rotationQuaternion.clone();
  box.position.copyFrom(normal.scale(1.0 + 0.002));
  const b = new PhysicsAggregate(box, PhysicsShapeType.BOX, { mass: 1 }, t.scene);
  b.shape.material = boxMat;
  return { box, body: b.body };
}

describe("static friction (issue 16 item 2)", () => {
  const mat = { friction: 0.1, staticFriction: 0.9, restitution: 0 };
  for (const kind of KINDS) {
    it(`${kind}: { friction 0.1, staticFriction 0.9 } holds at rest on tan = 0.364, slides with 0.1 once pushed`, async () => {
      const t = await makeScene(kind);
      const { box, body } = rampScene(t, mat, mat);
      const start = box.position.clone();
      t.step(120);
      // Held by static friction: Havok creeps 3 mm, and sliding with mu = 0.1 would cover
      // g (sin - 0.1 cos) t^2 / 2 = 4.9 m in these 2 s. 1 cm.
      expect(Vector3.Distance(start, box.position)).toBeLessThan(0.01);
      // Pushed down the slope at 2 m/s it slides, so the dynamic coefficient applies: after 1 s it has covered
      // v0 t + a t^2 / 2 with a = g (sin - 0.1 cos) = 2.43 m/s^2, i.e. 3.22 m (static friction 0.9 would stop
      // it within 0.6 m). Havok covers 7 % less; 10 %.
      body.setLinearVelocity(downSlope.scale(2));
      const p1 = box.position.clone();
      t.step(60);
      const a = g * (Math.sin(angle) - 0.1 * Math.cos(angle));
      const expected = 2 + 0.5 * a;
      const d = Vector3.Distance(p1, box.position);
      expect(Math.abs(d - expected) / expected).toBeLessThan(0.1);
      t.dispose();
    });
  }

  // Static coefficients 0.9 (ramp) and 0.2 (box), dynamic 0.1 on both: the combined static coefficient is
  // 0.2 < tan(20 deg) under MINIMUM (slides) and 0.9 under MAXIMUM (holds), as the combine mode decides.
  for (const kind of KINDS) {
    for (const mode of [1, 2] as const) {
      it(`${kind}: static coefficients combine with the friction combine mode (${mode === 1 ? "MINIMUM" : "MAXIMUM"})`, async () => {
        const t = await makeScene(kind);
        const { box } = rampScene(
          t,
          { friction: 0.1, staticFriction: 0.9, restitution: 0, frictionCombine: mode },
          { friction: 0.1, staticFriction: 0.2, restitution: 0, frictionCombine: mode },
        );
        const start = box.position.clone();
        t.step(60);
        const d = Vector3.Distance(start, box.position);
        if (mode === 2) expect(d).toBeLessThan(0.01); // held, as above
        // Sliding from rest with mu = 0.1 covers a t^2 / 2 = 1.22 m in 1 s (a static 0.9 would hold it, as it
        // does under MAXIMUM): more than 1 m.
        else expect(d).toBeGreaterThan(1);
        t.dispose();
      });
    }
  }
});
