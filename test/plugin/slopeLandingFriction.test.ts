/**
 * Friction during an impact (issue 21, item 5: the glTF friction sample). A box falls onto a 29.3 degree
 * slope whose surface has friction 0 (combine MAXIMUM, as the glTF loaders write it); the box's friction is
 * 0.547, so the pair's friction is max(0.547, 0) = 0.547, just under tan(29.3) = 0.561: once down, the box
 * creeps with a = g (sin - mu cos) = 0.12 m/s^2. At impact Coulomb friction is bounded by mu times the impulse
 * that stops the fall, mu v_n = 0.547 * 4.85 = 2.65 m/s, about the tangential speed v_t = 2.72 m/s, so the
 * landing nearly stops the box along the slope. Havok does; Continuum kept 2 m/s when the stopping impulse was
 * taken in the solver's relax pass, which solved no friction, and the box slid off the sample's floor.
 */
import { describe, expect, it } from "vitest";
import { MeshBuilder, PhysicsAggregate, PhysicsShapeType, Quaternion, Vector3 } from "@babylonjs/core";
import { KINDS, makeScene, type Kind, type TestScene } from "./helpers";

const theta = 0.5114; // 29.3 degrees: the friction sample's floor

/** The sample's slope and its box, released 2 m up, tilted `tilt` radians more than the slope about the same axis. */
async function landing(kind: Kind, tilt: number): Promise<{ t: TestScene; ba: PhysicsAggregate }> {
  const t = await makeScene(kind);
  const ramp = MeshBuilder.CreateBox("ramp", { width: 10, height: 0.34, depth: 10 }, t.scene);
  ramp.rotationQuaternion = Quaternion.RotationAxis(new Vector3(1, 0, 0), theta);
  const ra = new PhysicsAggregate(ramp, PhysicsShapeType.BOX, { mass: 0 }, t.scene);
  ra.shape.material = { friction: 0, staticFriction: 0, restitution: 0, frictionCombine: 2, restitutionCombine: 1 };
  const box = MeshBuilder.CreateBox("box", { width: 1.46, height: 0.3, depth: 2.24 }, t.scene);
  box.rotationQuaternion = Quaternion.RotationAxis(new Vector3(1, 0, 0), theta + tilt);
  box.position.set(0, 2, 0);
  const ba = new PhysicsAggregate(box, PhysicsShapeType.BOX, { mass: 1 }, t.scene);
  ba.shape.material = { friction: 0.547, staticFriction: 0.547, restitution: 0, frictionCombine: 2, restitutionCombine: 1 };
  return { t, ba };
}

describe("friction at impact (box landing on a slope)", () => {
  for (const kind of KINDS) {
    for (const tilt of [0, 0.35]) {
      it(`${kind}: lands ${tilt === 0 ? "flat" : "on an edge"} and creeps instead of sliding on`, async () => {
        const { t, ba } = await landing(kind, tilt);
        t.step(180);
        const v = ba.body.getLinearVelocity().length();
        // Creeping from rest after landing at ~0.6 s: 0.12 m/s^2 * 2.4 s = 0.29 m/s, plus what the landing
        // left (Havok: up to 0.2 m/s). Without friction at impact the box keeps ~2 m/s (measured 2.19 before
        // the fix); with a minimum-combined friction of 0 it would slide at g sin(theta) * 2.4 s = 11.5 m/s.
        expect(v).toBeLessThan(0.6);
        // And it does slide: tan(theta) > mu, so static friction cannot hold it (0.12 m/s^2 for 2.4 s).
        expect(v).toBeGreaterThan(0.2);
        t.dispose();
      });
    }
    // Continuum only: Havok lands this box with 0.29 rad/s of spin (its sideways speed stays within the bound).
    if (kind !== "continuum") continue;
    it(`${kind}: a flat, square landing throws the box neither across the slope nor into a spin`, async () => {
      const { t, ba } = await landing(kind, 0);
      // The first step whose contact stops the 5.6 m/s fall (the box is still falling freely at 0.55 s).
      t.step(20);
      let steps = 20;
      while (ba.body.getLinearVelocity().length() > 1 && steps < 60) {
        t.step(1);
        steps++;
      }
      expect(steps).toBeGreaterThan(30);
      const v = ba.body.getLinearVelocity(),
        w = ba.body.getAngularVelocity();
      // The landing is symmetric about the slope's fall line (x = 0): no impulse has a reason to point across the
      // slope or to turn the box. The friction impulse per unit mass at impact is up to mu v_n = 2.65 m/s; one
      // sequential pass over the four corners left 0.18 m/s across and 0.15 rad/s (0.29 and 0.31 at 4 substeps).
      // Allowed: 2 % of that impulse across, and the spin that 2 % at the corners (1.3 m away) would give.
      expect(Math.abs(v.x)).toBeLessThan(0.053);
      expect(w.length()).toBeLessThan(0.053 / 1.3 * 2);
      t.dispose();
    });
  }
});
