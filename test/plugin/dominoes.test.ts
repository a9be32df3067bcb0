/**
 * Issue 29 item 1: a domino row stopped after the first domino. A ball dropped on a domino's top back edge meets it
 * with a normal 32 degrees from vertical, inside the pin cone (pinnedContacts.ts, 37 degrees); the domino stands on
 * a static ground, so it counted as pinned and took none of the hit: the ball rebounded as off a wall and friction
 * dragged the domino's top back. A body pinned against a static one is immovable only along that pin (here: down);
 * it still takes the rest of the hit and its moment, and tips forward.
 *
 * The scene of the issue, side by side with Havok: a ground box 20 x 1 x 20 (top at y = 0); dominoes (boxes
 * 0.2 x 1.8 x 1.5, mass 1) at x = 0 and x = 1.5; a sphere of diameter 1.5 and mass 1 dropped from rest at x = -0.5,
 * centre y = 2.83: it falls 0.40 m before it touches the first domino's back top edge (0.4 m off its centre
 * horizontally, so at 0.634 m above it), at about 2.8 m/s.
 */
import { describe, expect, it } from "vitest";
import { MeshBuilder, PhysicsAggregate, PhysicsShapeType, Quaternion, Vector3 } from "@babylonjs/core";
import { KINDS, makeScene } from "./helpers";

/** The tilt (degrees) of each domino's long axis from the vertical after `seconds`. */
async function dominoTilts(kind: (typeof KINDS)[number], seconds: number): Promise<number[]> {
  const t = await makeScene(kind);
  const ground = MeshBuilder.CreateBox("ground", { width: 20, height: 1, depth: 20 }, t.scene);
  ground.position.y = -0.5;
  new PhysicsAggregate(ground, PhysicsShapeType.BOX, { mass: 0 }, t.scene);
  const dominoes = [0, 1.5].map((x, i) => {
    const m = MeshBuilder.CreateBox(`domino${i}`, { width: 0.2, height: 1.8, depth: 1.5 }, t.scene);
    m.position.set(x, 0.9, 0);
    m.rotationQuaternion = Quaternion.Identity();
    new PhysicsAggregate(m, PhysicsShapeType.BOX, { mass: 1 }, t.scene);
    return m;
  });
  const ball = MeshBuilder.CreateSphere("ball", { diameter: 1.5 }, t.scene);
  ball.position.set(-0.5, 2.83, 0);
  new PhysicsAggregate(ball, PhysicsShapeType.SPHERE, { mass: 1 }, t.scene);
  t.step(Math.round(seconds * 60));
  const up = new Vector3();
  const tilts = dominoes.map((m) => {
    Vector3.Up().rotateByQuaternionToRef(m.rotationQuaternion!, up);
    return (Math.acos(Math.min(1, Math.abs(up.y))) * 180) / Math.PI;
  });
  t.dispose();
  return tilts;
}

describe("a ball knocks over a row of dominoes (issue 29 item 1)", () => {
  for (const kind of KINDS) {
    it(`${kind}: both dominoes lie down by 2 s`, async () => {
      const tilts = await dominoTilts(kind, 2);
      // A 1.8 m domino 0.2 m thick passes its balance at atan(0.2 / 1.8) = 6 degrees and then falls until it lies
      // on the ground (90) or on the domino ahead of it (atan(1.8 / 0.2) = 84 from the vertical); one standing
      // (the defect: the first domino held, the ball rebounded) stays within a few degrees. 60 degrees.
      expect(tilts[0]).toBeGreaterThan(60);
      expect(tilts[1]).toBeGreaterThan(60);
    }, 60_000);
  }
});
