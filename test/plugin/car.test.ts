/**
 * Cars through Babylon (issue 20): the 6-DoF car pattern of ./carScene on ContinuumPlugin side by side with
 * HavokPlugin, the motors under it, and a lone cylinder wheel rolling on a triangle mesh and a heightfield.
 * Measured numbers are printed with a "[measure]" prefix.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { MeshBuilder, Physics6DoFConstraint, PhysicsAggregate, PhysicsConstraintAxis, PhysicsConstraintMotorType, PhysicsShapeType, Quaternion, Vector3 } from "@babylonjs/core";
import { CAR, CAR_GRAVITY, CAR_STEP, carScene, driveScript, rollWheel, type CarFigures, type GroundKind, type RollFigures } from "./carScene";
import { KINDS, type Kind } from "./helpers";

function measure(kind: Kind, what: string, ...values: (number | string)[]): void {
  console.log(`[measure] ${kind.padEnd(9)} ${what}: ${values.map((v) => (typeof v === "number" ? +v.toPrecision(4) : v)).join(" ")}`);
}

/**
 * A box (1 unit, 15 kg) held to a static anchor by a 6-DoF joint: linear axes and ANGULAR_X/Z locked, ANGULAR_Y a
 * POSITION motor at 0 with `maxForce`; a steady torque `torque` about world Y (angular impulses of torque x dt
 * before each 1/500 s step). Returns the largest |angle| over the last 0.4 s of 0.5 s.
 */
async function motorHold(kind: Kind, torque: number, maxForce: number): Promise<number> {
  const t = await carScene(kind);
  try {
    t.scene.getPhysicsEngine()!.setGravity(Vector3.Zero());
    const anchorMesh = MeshBuilder.CreateBox("anchor", { size: 0.2 }, t.scene);
    new PhysicsAggregate(anchorMesh, PhysicsShapeType.BOX, { mass: 0 }, t.scene);
    const m = MeshBuilder.CreateBox("rotor", { size: 1 }, t.scene);
    m.rotationQuaternion = Quaternion.Identity();
    const rotor = new PhysicsAggregate(m, PhysicsShapeType.BOX, { mass: 15 }, t.scene).body;
    rotor.setAngularDamping(0);
    const { LINEAR_X, LINEAR_Y, LINEAR_Z, ANGULAR_X, ANGULAR_Y, ANGULAR_Z } = PhysicsConstraintAxis;
    const c = new Physics6DoFConstraint(
      {},
      [LINEAR_X, LINEAR_Y, LINEAR_Z, ANGULAR_X, ANGULAR_Z].map((axis) => ({ axis, minLimit: 0, maxLimit: 0 })),
      t.scene,
    );
    (anchorMesh.physicsBody ?? rotor).addConstraint(rotor, c);
    c.setAxisMotorType(ANGULAR_Y, PhysicsConstraintMotorType.POSITION);
    c.setAxisMotorTarget(ANGULAR_Y, 0);
    c.setAxisMotorMaxForce(ANGULAR_Y, maxForce);
    let worst = 0;
    for (let i = 0; i < 250; i++) {
      rotor.applyAngularImpulse(new Vector3(0, torque * CAR_STEP, 0));
      t.step(1);
      const f = Vector3.Forward().applyRotationQuaternion(m.rotationQuaternion);
      if (i >= 50) worst = Math.max(worst, Math.abs(Math.atan2(f.x, f.z)));
    }
    return worst;
  } finally {
    t.dispose();
  }
}

describe("motors hold their target rigidly up to maxForce (as Havok)", () => {
  for (const kind of KINDS) {
    it(`${kind}: a POSITION motor with maxForce 3e7 holds within 0.001 rad against 1e5, 1e6 and 1e7 N m`, async () => {
      // Havok holds within 0.001 rad up to 1e7 (issue 20). A 30 Hz spring capped by maxForce (Continuum before)
      // gave way by torque / (I omega^2): ~0.07 rad at 1e5 on this 2.5 kg m^2 box.
      for (const torque of [1e5, 1e6, 1e7]) {
        const err = await motorHold(kind, torque, 3e7);
        measure(kind, `position motor error under ${torque.toExponential(0)} N m (rad)`, err);
        expect(err).toBeLessThan(0.001);
      }
    });
    it(`${kind}: above maxForce the motor gives way`, async () => {
      // 2e4 N m against at most 1e4: the net 1e4 N m turns the 2.5 kg m^2 box ~ 0.5 * 4000 * 0.5^2 = 500 rad in
      // 0.5 s: far beyond any hold.
      const err = await motorHold(kind, 2e4, 1e4);
      measure(kind, "position motor error under 2e4 N m with maxForce 1e4 (rad)", err);
      expect(err).toBeGreaterThan(0.5);
    });
  }
});

describe("the 6-DoF car pattern drives as on Havok (mesh ground, gravity -240, 1/500 s steps)", () => {
  const figures = {} as Record<Kind, CarFigures>;
  beforeAll(async () => {
    for (const kind of KINDS) {
      figures[kind] = await driveScript(kind);
      const f = figures[kind];
      measure(kind, "car settle height", f.settleHeight);
      measure(kind, "car heading drift on the straight (deg)", f.headingDrift);
      measure(kind, "car front-axle yaw error on the straight (rad)", f.frontYawError);
      measure(kind, "car throttle distance in 4 s", f.throttleDistance);
      measure(kind, "car wheel-to-axle separation", f.wheelAxleSeparation);
      measure(kind, "car locked-axis drift", f.lockedAxisDrift);
      measure(kind, "car heading change in 1 s steered at 0.3 rad (deg)", f.steerTurn);
      measure(kind, "car speed after 1 s of braking", f.brakeSpeed);
      measure(kind, "car reverse distance in 1 s", f.reverseDistance);
      measure(kind, "car smallest chassis up.y", f.minUp);
    }
  }, 120_000);

  it("settles the same, never flips, no NaN", () => {
    const c = figures.continuum,
      h = figures.havok;
    // Wheel centres at the radius, the axles 0.5 below the chassis centre, the free travel (0.1) taken up and
    // each spring carrying a quarter of the chassis's weight: 1 + 0.5 - 0.1 - 100 * 240 / 4 / 5e4 = 1.28.
    const expected = CAR.wheel.radius - CAR.wheelAt[0].y - CAR.suspension.travel - (CAR.chassis.mass * -CAR_GRAVITY) / 4 / CAR.suspension.stiffness;
    expect(Math.abs(c.settleHeight - expected)).toBeLessThan(0.003);
    // Havok's spring beyond a limit is ~10 % stiffer than its stiffness says (0.089 for 0.1 in a probe), 1.2 mm
    // of the 12 cm here, and its wheels rest ~1 cm into the ground: within 5 mm.
    expect(Math.abs(c.settleHeight - h.settleHeight)).toBeLessThan(0.005);
    expect(c.nan).toBe(false);
    expect(c.minUp).toBeGreaterThan(0.95);
  });

  it("goes straight: heading drift <= 0.5 degree, front axles within 0.002 rad of their target", () => {
    // Before: 24 degrees and 0.31 rad (the steering motor was a 30 Hz spring and the front wheels folded over).
    expect(figures.continuum.headingDrift).toBeLessThan(0.5);
    expect(figures.continuum.frontYawError).toBeLessThan(0.002);
  });

  it("covers >= 97 % of Havok's throttle distance", () => {
    expect(figures.continuum.throttleDistance).toBeGreaterThan(0.97 * figures.havok.throttleDistance);
  });

  it("keeps its joints: wheel-to-axle separation <= 1.5x Havok's, locked-axis drift <= 2x Havok's", () => {
    expect(figures.continuum.wheelAxleSeparation).toBeLessThan(1.5 * figures.havok.wheelAxleSeparation);
    expect(figures.continuum.lockedAxisDrift).toBeLessThan(2 * figures.havok.lockedAxisDrift);
  });

  it("steers the same way as Havok, brakes to a stop and reverses", () => {
    const c = figures.continuum,
      h = figures.havok;
    // Same sign and within 30 % (tyre slip differs between the engines' friction models).
    expect(Math.sign(c.steerTurn)).toBe(Math.sign(h.steerTurn));
    expect(Math.abs(c.steerTurn - h.steerTurn)).toBeLessThan(0.3 * Math.abs(h.steerTurn));
    expect(c.brakeSpeed).toBeLessThan(0.5);
    // Reversing at 20 units/s for 1 s from rest: Havok covers ~16.
    expect(c.reverseDistance).toBeGreaterThan(0.9 * h.reverseDistance);
  });
});

describe("a cylinder wheel rolls on a triangle mesh and a heightfield as on a box floor", () => {
  const roll = {} as Record<string, RollFigures>;
  const key = (k: Kind, g: GroundKind, s: number) => `${k}/${g}/${s}`;
  beforeAll(async () => {
    for (const kind of KINDS)
      for (const g of ["mesh", "heightfield", "box"] as const)
        for (const s of [40, 150]) {
          const r = await rollWheel(kind, s, g);
          roll[key(kind, g, s)] = r;
          measure(kind, `lone wheel at ${s} on ${g}: deceleration, sideways wander`, r.deceleration, r.wander);
        }
  }, 120_000);

  for (const g of ["mesh", "heightfield"] as const)
    for (const s of [40, 150]) {
      it(`${g}, ${s} units/s: loses speed within 2x Havok's and within 25 % of its own box-floor loss`, () => {
        const c = roll[key("continuum", g, s)];
        // Before: 7.6 at 40 and 40 at 150 on the mesh (Havok 1.4 and 32): rim points ahead of the contact line
        // pushed back against the rolling.
        expect(c.deceleration).toBeLessThan(2 * roll[key("havok", g, s)].deceleration);
        expect(Math.abs(c.deceleration - roll[key("continuum", "box", s)].deceleration)).toBeLessThan(0.25 * roll[key("continuum", "box", s)].deceleration);
      });
    }

  it("wanders sideways less than 0.25 units in 1 s at 40 units/s", () => {
    // Before: 0.54 on the mesh. Havok: 0.06 on the mesh, 0.21 on the heightfield.
    expect(roll[key("continuum", "mesh", 40)].wander).toBeLessThan(0.25);
    expect(roll[key("continuum", "heightfield", 40)].wander).toBeLessThan(0.25);
  });
});
