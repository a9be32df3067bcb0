/**
 * Issue 16 item 7: thin fast bodies in the default (Passive) mode land on static triangle meshes and
 * heightfields as they land on a static box floor. 60 plates (0.6 x 0.02 x 0.4 m, 0.2 kg), each tilted up to
 * 17 degrees, are thrown down from 20-30 m at 20-40 m/s: they arrive at 30-45 m/s, moving 0.5-0.75 m per step,
 * 25-38 times their thickness.
 */
import { describe, expect, it } from "vitest";
import {
  MeshBuilder,
  PhysicsAggregate,
  PhysicsBody,
  PhysicsMotionType,
  PhysicsShapeHeightField,
  PhysicsShapeType,
  Quaternion,
  TransformNode,
  Vector3,
  type Mesh,
} from "@babylonjs/core";
import { KINDS, makeScene, type TestScene } from "./helpers";
import { rng } from "../engine/helpers";

const SIZE = 40,
  N = 41; // 1 m cells
type Floor = "box" | "mesh" | "heightfield";

/** A static floor whose top is y = 0, 40 x 40 m. */
function floor(t: TestScene, kind: Floor): void {
  if (kind === "box") {
    const g = MeshBuilder.CreateBox("floor", { width: SIZE, height: 1, depth: SIZE }, t.scene);
    g.position.y = -0.5;
    new PhysicsAggregate(g, PhysicsShapeType.BOX, { mass: 0 }, t.scene);
  } else if (kind === "mesh") {
    const g = MeshBuilder.CreateGround("floor", { width: SIZE, height: SIZE, subdivisions: N - 1 }, t.scene);
    new PhysicsAggregate(g, PhysicsShapeType.MESH, { mass: 0 }, t.scene);
  } else {
    const body = new PhysicsBody(new TransformNode("floor", t.scene), PhysicsMotionType.STATIC, false, t.scene);
    body.shape = new PhysicsShapeHeightField(SIZE, SIZE, N, N, new Float32Array(N * N), t.scene);
  }
}

async function fallenThrough(kind: (typeof KINDS)[number], floorKind: Floor, seed: number): Promise<number> {
  const t = await makeScene(kind);
  floor(t, floorKind);
  const r = rng(seed);
  const plates: Mesh[] = [];
  for (let i = 0; i < 60; i++) {
    const m = MeshBuilder.CreateBox("plate" + i, { width: 0.6, height: 0.02, depth: 0.4 }, t.scene);
    m.position.set((r() - 0.5) * 30, 20 + r() * 10, (r() - 0.5) * 30);
    m.rotationQuaternion = Quaternion.RotationYawPitchRoll(r() * 6, (r() - 0.5) * 0.6, (r() - 0.5) * 0.6);
    const a = new PhysicsAggregate(m, PhysicsShapeType.BOX, { mass: 0.2 }, t.scene);
    a.body.setLinearVelocity(new Vector3(0, -20 - r() * 20, 0));
    plates.push(m);
  }
  t.step(120);
  // Below the floor's top by more than a plate's thickness: through (a landed plate rests at y = 0.01).
  const through = plates.filter((m) => m.position.y < -0.05).length;
  t.dispose();
  return through;
}

describe("thin fast bodies land on every floor type (issue 16 item 7)", () => {
  for (const floorKind of ["box", "mesh", "heightfield"] as const) {
    // Seeds 1, 2, 3, 5 and 6 each lost one plate through the ground mesh while speculative contacts were
    // anchored at the gap's midpoint (a plate knocked into a fast spin, or slapping flat from one edge, carried
    // its far corners through unseen: src/dynamics/contacts/contactAnchors.ts); seed 8 too, once the integration changed.
    for (const seed of [1, 2, 3, 5, 6, 7, 8]) {
      it(`continuum: 60 fast plates (Passive) on a static ${floorKind} floor, seed ${seed}: none falls through`, async () => {
        // Speculative contacts cover each plate's whole motion in the step, so every plate must land, whatever
        // the floor is made of (before: none through a box, 29 and 44 of 60 through a ground mesh, some through a heightfield).
        expect(await fallenThrough("continuum", floorKind, seed)).toBe(0);
      });
    }
  }
  // Havok, for the record: it loses plates through meshes and heightfields in this scene (a third of them
  // through a ground mesh), so it is no reference here; its box floor holds them all.
  it("havok: its box floor holds every plate", async () => {
    expect(await fallenThrough("havok", "box", 7)).toBe(0);
  });
});
