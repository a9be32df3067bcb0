/**
 * Issue 29 item 9: a dynamic body with mass 0 (infinite mass) and a finite inertia (0, 1, 0) is a wheel on a
 * fixed axle (glTF and Babylon both allow it). Havok spins it; the plugin multiplied the per-unit inertia by
 * the mass (0), and the engine zeroed every moment of a mass-0 body, so it never turned.
 */
import { describe, expect, it } from "vitest";
import { MeshBuilder, PhysicsAggregate, PhysicsShapeType, Quaternion, Vector3 } from "@babylonjs/core";
import { KINDS, makeScene } from "./helpers";

describe("infinite mass with finite inertia", () => {
  for (const kind of KINDS) {
    // A unit box, no gravity, no damping; a 1 N s impulse along +z at (0.5, 0.3, 0): angular impulse
    // r x J = (0.3, -0.5, 0) N m s. Expected w = L / I on each axis with a finite moment, 0 where it is 0:
    // Havok measured -0.5 rad/s about y for inertia (0, 1, 0); -3.0 = -0.5 / (1/6) (and 1.8 about x) with the
    // shape's per-unit inertia; -0.25 with mass 2. The mass-0 bodies do not translate.
    for (const [mass, inertia, wx, wy, vz] of [
      [0, new Vector3(0, 1, 0), 0, -0.5, 0],
      [0, undefined, 1.8, -3, 0],
      [2, new Vector3(0, 1, 0), 0, -0.25, 0.5],
    ] as const) {
      it(`${kind}: mass ${mass}, inertia ${inertia ? inertia.toString() : "from the shape"}: w = (${wx}, ${wy}, 0)`, async () => {
        const t = await makeScene(kind, { gravity: new Vector3(0, 0, 0) });
        const m = MeshBuilder.CreateBox("wheel", { size: 1 }, t.scene);
        m.rotationQuaternion = Quaternion.Identity();
        const agg = new PhysicsAggregate(m, PhysicsShapeType.BOX, { mass: 1 }, t.scene);
        agg.body.setLinearDamping(0);
        agg.body.setAngularDamping(0);
        agg.body.setMassProperties(inertia ? { mass, inertia } : { mass });
        agg.body.applyImpulse(new Vector3(0, 0, 1), new Vector3(0.5, 0.3, 0));
        t.step(10);
        const w = agg.body.getAngularVelocity();
        const v = agg.body.getLinearVelocity();
        console.log(`[measure] ${kind} mass ${mass} inertia ${inertia?.toString() ?? "shape"}: w ${w.toString()} v ${v.toString()}`);
        // Free rotation about one principal axis (or, for the shape's isotropic inertia, any axis) keeps w
        // exactly; 1e-4 is float32 round-off in Havok.
        expect(w.x).toBeCloseTo(wx, 4);
        expect(w.y).toBeCloseTo(wy, 4);
        expect(w.z).toBeCloseTo(0, 4);
        expect(v.z).toBeCloseTo(vz, 4);
        expect(Math.abs(v.x) + Math.abs(v.y)).toBeLessThan(1e-6);
        t.dispose();
      });
    }
  }
});
