import { describe, expect, it } from "vitest";
import { AxisMode, JointAxis, MotorType, type JointAxisDescription } from "../../src/dynamics/joints/joint6dof";
import { MotionType } from "../../src/index";
import { angleBetween, dist, JointHarness, rotate } from "./harness";

const D = Math.PI / 180;

/** HINGE in docs/babylon-differences.md 1.10: linear XYZ, angular Y and Z locked; angular X (about the axis) free. */
function hingeAxes(extra: Partial<JointAxisDescription> = {}): JointAxisDescription[] {
  return [
    { axis: JointAxis.LinearX, mode: AxisMode.Locked },
    { axis: JointAxis.LinearY, mode: AxisMode.Locked },
    { axis: JointAxis.LinearZ, mode: AxisMode.Locked },
    { axis: JointAxis.AngularX, mode: AxisMode.Free, ...extra },
    { axis: JointAxis.AngularY, mode: AxisMode.Locked },
    { axis: JointAxis.AngularZ, mode: AxisMode.Locked },
  ];
}

/** A static anchor (A) at the origin and an arm (B) reaching along +x from a hinge about world z. */
function arm(H: JointHarness, extra: Partial<JointAxisDescription> = {}, armLen = 0.8) {
  const anchor = H.body({ position: { x: 0, y: 0, z: 0 }, motionType: MotionType.Static, mass: 0 });
  // Anisotropic inertia so off-axis coupling shows up if the hinge leaks.
  const body = H.body({ position: { x: armLen, y: 0, z: 0 }, mass: 2, inertia: { x: 0.02, y: 0.5, z: 0.45 } });
  const j = H.joint({
    bodyA: anchor,
    bodyB: body,
    pivotA: { x: 0, y: 0, z: 0 },
    pivotB: { x: -armLen, y: 0, z: 0 },
    axisA: { x: 0, y: 0, z: 1 },
    axisB: { x: 0, y: 0, z: 1 },
    perpAxisA: { x: 1, y: 0, z: 0 },
    perpAxisB: { x: 1, y: 0, z: 0 },
    axes: hingeAxes(extra),
  });
  return { anchor, body, j };
}

/** Sets a rigid rotation of the arm about the hinge (world z through the origin) at w rad/s. */
function spin(H: JointHarness, body: number, w: number): void {
  const p = H.pos(body);
  H.world.setAngularVelocity(body, { x: 0, y: 0, z: w });
  H.world.setLinearVelocity(body, { x: -w * p.y, y: w * p.x, z: 0 });
}

describe("hinge", () => {
  it("rotates only about its axis: off-axis drift < 0.5 degree while swinging", () => {
    const H = new JointHarness();
    const { body, j: jh } = arm(H);
    // Kick it off-axis too: the hinge must remove that.
    H.world.setAngularVelocity(body, { x: 2, y: -3, z: 1 });
    let maxDrift = 0,
      maxPivot = 0,
      minAngle = 0;
    H.steps(60 * 5, () => {
      const ax = rotate(H.rot(body), { x: 0, y: 0, z: 1 });
      maxDrift = Math.max(maxDrift, angleBetween(ax, { x: 0, y: 0, z: 1 }));
      maxPivot = Math.max(maxPivot, dist(H.point(body, { x: -0.8, y: 0, z: 0 }), { x: 0, y: 0, z: 0 }));
      minAngle = Math.min(minAngle, H.joints.getAxisPosition(jh, JointAxis.AngularX));
    });
    console.log(`hinge: max off-axis drift=${(maxDrift / D).toFixed(4)} deg, max pivot error=${(maxPivot * 1000).toFixed(3)} mm, lowest twist=${(minAngle / D).toFixed(1)} deg`);
    expect(maxDrift).toBeLessThan(0.5 * D);
    expect(maxPivot).toBeLessThan(0.005);
    expect(minAngle).toBeLessThan(-150 * D); // it really swings (through the bottom)
  });

  it("limits are respected within 1 degree", () => {
    const H = new JointHarness();
    const { body, j } = arm(H, { mode: AxisMode.Limited, min: -30 * D, max: 45 * D });
    let lo = Infinity,
      hi = -Infinity;
    // Falls onto the lower limit under gravity.
    H.steps(120, () => {
      const a = H.joints.getAxisPosition(j, JointAxis.AngularX);
      lo = Math.min(lo, a);
    });
    // Thrown upward onto the upper limit.
    spin(H, body, 12);
    H.steps(120, () => {
      const a = H.joints.getAxisPosition(j, JointAxis.AngularX);
      hi = Math.max(hi, a);
    });
    // Geometric check independent of the joint's own angle: the arm's direction.
    const d = rotate(H.rot(body), { x: 1, y: 0, z: 0 });
    const geo = Math.atan2(d.y, d.x);
    console.log(`hinge limits [-30, 45]: lowest=${(lo / D).toFixed(3)} deg, highest=${(hi / D).toFixed(3)} deg, final=${(geo / D).toFixed(3)} deg`);
    expect(lo).toBeGreaterThan(-31 * D);
    expect(lo).toBeLessThan(-29 * D);
    expect(hi).toBeLessThan(46 * D);
    expect(hi).toBeGreaterThan(44 * D);
    expect(geo).toBeGreaterThan(-31 * D);
  });

  it("the twist angle follows the right-hand rule about axisA", () => {
    const H = new JointHarness({ gravity: { x: 0, y: 0, z: 0 } });
    const { body, j } = arm(H);
    spin(H, body, 1);
    H.steps(30);
    expect(H.joints.getAxisPosition(j, JointAxis.AngularX)).toBeCloseTo(0.5, 2);
  });

  it("VELOCITY motor reaches its target within 2 % in 1 s", () => {
    const H = new JointHarness({ gravity: { x: 0, y: 0, z: 0 } });
    const { body } = arm(H, { motorType: MotorType.Velocity, motorTarget: 3, motorMaxForce: 50 });
    H.steps(60);
    const w = H.angVel(body).z;
    console.log(`hinge velocity motor: omega after 1 s = ${w.toFixed(5)} rad/s (target 3)`);
    expect(Math.abs(w - 3) / 3).toBeLessThan(0.02);
  });

  it("VELOCITY motor with a small maximum torque stalls against a load as the torque balance predicts", () => {
    // Load: a constant external torque -tau about the axis. I about the pivot = Izz + m r^2.
    const tau = 4;
    const Ipivot = 0.45 + 2 * 0.8 * 0.8;
    for (const T of [4, 2, 8]) {
      const H = new JointHarness({ gravity: { x: 0, y: 0, z: 0 } });
      const { body } = arm(H, { motorType: MotorType.Velocity, motorTarget: 10, motorMaxForce: T });
      for (let s = 0; s < 60; s++) {
        H.world.applyTorque(body, { x: 0, y: 0, z: -tau });
        H.step();
      }
      const w = H.angVel(body).z;
      const expected = (T - tau) / Ipivot; // after 1 s from rest (the target is never reached)
      console.log(`hinge motor maxTorque=${T} vs load ${tau}: omega(1 s)=${w.toFixed(5)} rad/s, predicted ${expected.toFixed(5)}`);
      if (T === tau) expect(Math.abs(w)).toBeLessThan(0.01);
      else expect(Math.abs(w - expected)).toBeLessThan(0.02 * Math.abs(expected));
    }
  });

  it("POSITION motor drives the hinge to a target angle", () => {
    const H = new JointHarness({ gravity: { x: 0, y: 0, z: 0 } });
    const { j } = arm(H, { motorType: MotorType.Position, motorTarget: 60 * D, motorMaxForce: 100 });
    H.steps(120);
    const a = H.joints.getAxisPosition(j, JointAxis.AngularX);
    console.log(`hinge position motor: angle after 2 s = ${(a / D).toFixed(4)} deg (target 60)`);
    expect(Math.abs(a - 60 * D)).toBeLessThan(0.5 * D);
  });

  it("friction on the axis decelerates at friction / I", () => {
    const H = new JointHarness({ gravity: { x: 0, y: 0, z: 0 } });
    const Ipivot = 0.45 + 2 * 0.8 * 0.8;
    const f = 1.5;
    const { body } = arm(H, { friction: f });
    H.world.setAngularVelocity(body, { x: 0, y: 0, z: 4 });
    H.world.setLinearVelocity(body, { x: 0, y: 4 * 0.8, z: 0 });
    H.steps(60);
    const w1 = H.angVel(body).z;
    const pred = 4 - f / Ipivot;
    H.steps(60 * 5);
    const w6 = H.angVel(body).z;
    console.log(`hinge friction: omega(1 s)=${w1.toFixed(5)} predicted ${pred.toFixed(5)}; omega(6 s)=${w6.toExponential(2)}`);
    expect(Math.abs(w1 - pred)).toBeLessThan(0.02 * (4 - pred));
    expect(Math.abs(w6)).toBeLessThan(1e-3);
  });
});
