/**
 * Mesh against mesh and mesh against heightfield (issue 21, item 3). glTF files give bodies MESH colliders
 * without the user choosing them; a dynamic MESH body fell through a static MESH floor (489 m in 10 s) where
 * Havok holds it. Each triangle of the moving mesh now collides with the other shape as a convex piece
 * (src/collision/meshMesh.ts).
 */
import { describe, expect, it } from "vitest";
import { MeshBuilder, PhysicsAggregate, PhysicsShapeType, Quaternion, Vector3, type PhysicsAggregateParameters } from "@babylonjs/core";
import { KINDS, makeScene } from "./helpers";

describe("a dynamic MESH box on a static MESH or HEIGHTFIELD ground", () => {
  for (const kind of KINDS) {
    for (const floor of ["MESH", "HEIGHTFIELD"] as const) {
      for (const tilt of [0, 0.3]) {
        it(`${kind}: on ${floor}, dropped ${tilt === 0 ? "flat" : "tilted 0.3 rad"}, rests on a face`, async () => {
          const t = await makeScene(kind);
          const g = MeshBuilder.CreateGround("g", { width: 20, height: 20, subdivisions: 8 }, t.scene);
          // groundMesh: Havok's HEIGHTFIELD needs it in the options (PhysicsAggregate passes only `mesh`).
          const opts = { mass: 0, groundMesh: g } as PhysicsAggregateParameters;
          new PhysicsAggregate(g, floor === "MESH" ? PhysicsShapeType.MESH : PhysicsShapeType.HEIGHTFIELD, opts, t.scene);
          const b = MeshBuilder.CreateBox("b", { size: 1 }, t.scene);
          b.position.y = 2;
          b.rotationQuaternion = Quaternion.RotationAxis(new Vector3(1, 0, 1).normalize(), tilt);
          const ba = new PhysicsAggregate(b, PhysicsShapeType.MESH, { mass: 1 }, t.scene);
          t.step(600);
          // At rest on a face: the centre 0.5 m above the ground (1 cm: contact softness and slop), no speed,
          // and a face normal up (an edge or corner landing would rest higher, up to 0.87 m).
          expect(b.position.y).toBeCloseTo(0.5, 1);
          expect(Math.abs(b.position.y - 0.5)).toBeLessThan(0.01);
          expect(ba.body.getLinearVelocity().length()).toBeLessThan(0.01);
          // Some body axis is vertical: the largest |y| of the rotated axes is 1.
          const q = b.rotationQuaternion!;
          const faceUp = Math.max(...[Vector3.Right(), Vector3.Up(), Vector3.Forward()].map((a) => Math.abs(a.applyRotationQuaternion(q).y)));
          expect(faceUp).toBeGreaterThan(0.999);
          t.dispose();
        });
      }
    }
  }
});
