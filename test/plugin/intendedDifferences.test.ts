/**
 * What stays different from Havok on purpose (issue 29; README's differences table and
 * docs/babylon-differences.md give these numbers): each scene on both plugins, each side's number checked,
 * so that the documentation stays true.
 */
import { describe, expect, it } from "vitest";
import {
  DistanceConstraint,
  MeshBuilder,
  Physics6DoFConstraint,
  PhysicsAggregate,
  PhysicsConstraintAxis,
  PhysicsShapeType,
  Quaternion,
  Vector3,
} from "@babylonjs/core";
import { KINDS, makeScene, type Kind } from "./helpers";

const DEG = Math.PI / 180;

function measure(kind: Kind, what: string, ...values: number[]): void {
  console.log(`[measure] ${kind.padEnd(9)} ${what}: ${values.map((v) => +v.toPrecision(4)).join(" ")}`);
}

describe("differences kept on purpose", () => {
  for (const kind of KINDS) {
    it(`${kind}: a flat BOX (extents 4 x 0 x 4) as the ground: the rest height of a 0.25 m sphere`, async () => {
      const t = await makeScene(kind);
      const g = MeshBuilder.CreateGround("ground", { width: 4, height: 4 }, t.scene);
      new PhysicsAggregate(g, PhysicsShapeType.BOX, { mass: 0 }, t.scene);
      const s = MeshBuilder.CreateSphere("ball", { diameter: 0.5 }, t.scene);
      s.position.y = 0.5;
      new PhysicsAggregate(s, PhysicsShapeType.SPHERE, { mass: 1 }, t.scene);
      t.step(120);
      const above = s.position.y - 0.25;
      measure(kind, "sphere's bottom above the flat box (mm)", above * 1000);
      // Continuum gives the flat box 2 mm of thickness (1 mm each side): the sphere rests 1 mm up (the soft
      // contact's sag is far below 0.1 mm here). Havok rests on the plane itself.
      if (kind === "continuum") expect(Math.abs(above - 0.001)).toBeLessThan(0.0002);
      else expect(Math.abs(above)).toBeLessThan(0.0005);
      t.dispose();
    });

    it(`${kind}: a distance constraint that starts 3 m from its 1 m length: the pair's momentum`, async () => {
      const t = await makeScene(kind, { gravity: Vector3.Zero() });
      const ball = (x: number) => {
        const m = MeshBuilder.CreateSphere("b", { diameter: 0.2 }, t.scene);
        m.position.x = x;
        const a = new PhysicsAggregate(m, PhysicsShapeType.SPHERE, { mass: 1 }, t.scene);
        a.body.setLinearDamping(0);
        a.body.setAngularDamping(0);
        return a;
      };
      const a = ball(0),
        b = ball(4);
      // The pair moves at 1 m/s along z (momentum 2 kg m/s) and B also at 1 m/s along x, away from A.
      a.body.setLinearVelocity(new Vector3(0, 0, 1));
      b.body.setLinearVelocity(new Vector3(1, 0, 1));
      a.body.addConstraint(b.body, new DistanceConstraint(1, t.scene));
      t.step(60);
      const p = a.body.getLinearVelocity().add(b.body.getLinearVelocity());
      const gap = b.transformNode.position.subtract(a.transformNode.position).length();
      measure(kind, "momentum x, z after 1 s (kg m/s; before: 1, 2); the gap (m)", p.x, p.z, gap);
      // Both pull the pair to the rod's length; Continuum keeps the momentum (the constraint is internal),
      // Havok's pull removes part of it.
      expect(Math.abs(gap - 1)).toBeLessThan(0.01);
      if (kind === "continuum") {
        expect(Math.abs(p.x - 1)).toBeLessThan(1e-6);
        expect(Math.abs(p.z - 2)).toBeLessThan(1e-6);
      } else expect(Math.abs(p.x - 1) + Math.abs(p.z - 2)).toBeGreaterThan(0.05);
      t.dispose();
    });

    it(`${kind}: a body on a joint with a hard linear limit hitting its stop at 2 m/s`, async () => {
      const t = await makeScene(kind, { gravity: Vector3.Zero() });
      const anchorMesh = MeshBuilder.CreateBox("anchor", { size: 0.1 }, t.scene);
      const anchor = new PhysicsAggregate(anchorMesh, PhysicsShapeType.BOX, { mass: 0 }, t.scene);
      const m = MeshBuilder.CreateBox("slider", { size: 0.2 }, t.scene);
      m.rotationQuaternion = Quaternion.Identity();
      const body = new PhysicsAggregate(m, PhysicsShapeType.BOX, { mass: 1 }, t.scene);
      body.body.setLinearDamping(0);
      body.body.setAngularDamping(0);
      const c = new Physics6DoFConstraint(
        {},
        [
          { axis: PhysicsConstraintAxis.LINEAR_X, minLimit: -0.5, maxLimit: 0.5 },
          { axis: PhysicsConstraintAxis.LINEAR_Y, minLimit: 0, maxLimit: 0 },
          { axis: PhysicsConstraintAxis.LINEAR_Z, minLimit: 0, maxLimit: 0 },
          { axis: PhysicsConstraintAxis.ANGULAR_X, minLimit: 0, maxLimit: 0 },
          { axis: PhysicsConstraintAxis.ANGULAR_Y, minLimit: 0, maxLimit: 0 },
          { axis: PhysicsConstraintAxis.ANGULAR_Z, minLimit: 0, maxLimit: 0 },
        ],
        t.scene,
      );
      anchor.body.addConstraint(body.body, c);
      body.body.setLinearVelocity(new Vector3(2, 0, 0));
      let back = 0;
      for (let k = 0; k < 60; k++) {
        t.step();
        back = Math.min(back, body.body.getLinearVelocity().x);
      }
      const v = body.body.getLinearVelocity().length();
      measure(kind, "hard stop at 2 m/s: fastest return speed, speed after 1 s (m/s)", -back, v);
      // Both stop dead at a hard limit (measured 0 and 0 on both): an inelastic stop, no energy gained. The
      // issue's "Havok gains energy at a limit stop" is not this scene (docs/babylon-differences.md).
      expect(-back).toBeLessThan(0.01);
      expect(v).toBeLessThan(0.01);
      t.dispose();
    });

    for (const extra of [0.5, 1, 2]) {
    it(`${kind}: a box at rest on a slope ${extra} degrees steeper than its friction angle (mu 0.5)`, async () => {
      const t = await makeScene(kind);
      const th = (Math.atan(0.5) / DEG + extra) * DEG;
      const q = Quaternion.RotationAxis(new Vector3(0, 0, 1), th);
      const g = MeshBuilder.CreateBox("slope", { width: 20, height: 1, depth: 20 }, t.scene);
      g.rotationQuaternion = q;
      new PhysicsAggregate(g, PhysicsShapeType.BOX, { mass: 0, friction: 0.5 }, t.scene);
      const m = MeshBuilder.CreateBox("box", { size: 0.5 }, t.scene);
      m.rotationQuaternion = q.clone();
      const d = 0.5 + 0.25;
      m.position.set(-Math.sin(th) * d, Math.cos(th) * d, 0);
      new PhysicsAggregate(m, PhysicsShapeType.BOX, { mass: 1, friction: 0.5 }, t.scene);
      t.step(1);
      const start = m.position.clone();
      t.step(120);
      const moved = m.position.subtract(start).length();
      const coulomb = 0.5 * 9.81 * (Math.sin(th) - 0.5 * Math.cos(th)) * 4;
      measure(kind, "slid in 2 s (m); Coulomb's 1/2 g (sin - mu cos) t^2", moved, coulomb);
      // Coulomb: the box slides at g (sin - mu cos), 1/2 a t^2 in 2 s = 0.19, 0.38, 0.77 m at +0.5, +1, +2
      // degrees; Continuum measured 0.205, 0.400, 0.788 (10 %: the step's discretisation of the start).
      // Havok's box, at rest, holds up to about a degree past the friction angle (measured 1.2 and 2.4 cm of
      // creep at +0.5 and +1) and slides at +2 (0.74 m).
      if (kind === "continuum") expect(Math.abs(moved - coulomb)).toBeLessThan(0.1 * coulomb);
      else if (extra < 2) expect(moved).toBeLessThan(0.05);
      else expect(moved).toBeGreaterThan(0.5);
      t.dispose();
    });
    }
  }
});
