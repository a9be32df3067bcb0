/**
 * Issue 29 item 4: the 6-DoF joint of Babylon's physics documentation gives `perpAxisA`/`perpAxisB` (1, 0, 0)
 * and no `axisA`/`axisB`, which default to (1, 0, 0). Havok accepts the parallel pair and holds the limit; the
 * plugin threw "perpAxisA must not be parallel to options.axisA". It now takes the perpendicular an omitted
 * one gets (`axis.getNormalToRef()`).
 */
import { describe, expect, it } from "vitest";
import {
  MeshBuilder,
  Physics6DoFConstraint,
  PhysicsAggregate,
  PhysicsConstraintAxis,
  PhysicsShapeType,
  Quaternion,
  Vector3,
  type Physics6DoFLimit,
} from "@babylonjs/core";
import { KINDS, makeScene, type Kind, type TestScene } from "./helpers";

const { LINEAR_DISTANCE, ANGULAR_X, ANGULAR_Y, ANGULAR_Z } = PhysicsConstraintAxis;

function box(t: TestScene, pos: Vector3, mass: number): PhysicsAggregate {
  const m = MeshBuilder.CreateBox("box", { size: 1 }, t.scene);
  m.position.copyFrom(pos);
  m.rotationQuaternion = Quaternion.Identity();
  return new PhysicsAggregate(m, PhysicsShapeType.BOX, { mass }, t.scene);
}

/**
 * A static box at y = 3, a 1 kg box hanging 1 m below it on the documentation's joint (pivots at the facing
 * faces), kicked with (4, 0, 3) rad/s; 3 s. Returns the largest pivot gap, twist about x and swing of x.
 */
async function run(kind: Kind, limits: Physics6DoFLimit[]): Promise<{ gap: number; twist: number; swing: number }> {
  const t = await makeScene(kind);
  const a = box(t, new Vector3(0, 3, 0), 0);
  const b = box(t, new Vector3(0, 1.5, 0), 1);
  const c = new Physics6DoFConstraint(
    { pivotA: new Vector3(0, -0.5, 0), pivotB: new Vector3(0, 0.5, 0), perpAxisA: new Vector3(1, 0, 0), perpAxisB: new Vector3(1, 0, 0) },
    limits,
    t.scene,
  );
  a.body.addConstraint(b.body, c); // threw "perpAxisA must not be parallel to options.axisA"
  b.body.setAngularVelocity(new Vector3(4, 0, 3));
  let gap = 0,
    twist = 0,
    swing = 0;
  const pa = new Vector3(0, 2.5, 0);
  for (let i = 0; i < 180; i++) {
    t.step();
    const w = b.transformNode.computeWorldMatrix(true);
    const q = b.transformNode.rotationQuaternion!;
    gap = Math.max(gap, Vector3.TransformCoordinates(new Vector3(0, 0.5, 0), w).subtract(pa).length());
    // A is static at identity, so B's orientation is the joint's relative rotation: twist about x from the
    // swing-twist split, swing as the angle of B's x axis off world x.
    twist = Math.max(twist, Math.abs(2 * Math.atan2(q.x, q.w)));
    swing = Math.max(swing, Math.acos(Math.min(1, Vector3.TransformNormal(new Vector3(1, 0, 0), w).x)));
  }
  console.log(`[measure] ${kind} max pivot gap ${gap.toFixed(4)} m, max twist ${twist.toFixed(3)} rad, max swing ${swing.toFixed(3)} rad`);
  t.dispose();
  return { gap, twist, swing };
}

describe("the documentation's 6-DoF joint (perpAxis parallel to the default axis)", () => {
  for (const kind of KINDS) {
    it(`${kind}: the documented LINEAR_DISTANCE [1, 2] joint is accepted and holds`, async () => {
      // Measured: Havok 2.0000 m, Continuum 2.0004 m. The box falls 1 m onto the 2 m stop (4.4 m/s);
      // 5 mm is far more than either solver leaves at the stop, far less than a missing limit (it would fall).
      const r = await run(kind, [{ axis: LINEAR_DISTANCE, minLimit: 1, maxLimit: 2 }]);
      expect(r.gap).toBeLessThan(2.005);
      expect(r.gap).toBeGreaterThan(1.99); // it fell onto the stop
      expect(r.twist).toBeGreaterThan(0.5); // angular axes free: the kick turns it
    });
  }

  it("continuum: with angular limits the frame is well defined and the limits hold", async () => {
    // Equal Y/Z limits, so the result does not depend on which perpendicular about x is taken. Havok, given
    // the same parallel pair, does not hold them (measured: twist 4.8 rad against the 0.3 limit, swing 1.02
    // against 0.28, pivot gap 2.16 m): its frame degenerates; with perpAxis (0, 1, 0) it holds 0.300 / 0.203.
    const r = await run("continuum", [
      { axis: LINEAR_DISTANCE, minLimit: 1, maxLimit: 2 },
      { axis: ANGULAR_X, minLimit: -0.3, maxLimit: 0.3 },
      { axis: ANGULAR_Y, minLimit: -0.2, maxLimit: 0.2 },
      { axis: ANGULAR_Z, minLimit: -0.2, maxLimit: 0.2 },
    ]);
    expect(r.gap).toBeLessThan(2.005);
    // Twist 0.3 rad; swing at most hypot(0.2, 0.2) = 0.283 with both swing stops reached; 0.01 rad of stop
    // slack at 1/60 s. The kick (4 rad/s about x, 3 about z) drives both into their stops.
    expect(r.twist).toBeLessThan(0.31);
    expect(r.twist).toBeGreaterThan(0.25);
    expect(r.swing).toBeLessThan(0.283 + 0.01);
    expect(r.swing).toBeGreaterThan(0.15);
  });
});
