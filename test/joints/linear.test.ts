import { describe, expect, it } from "vitest";
import { AxisMode, JointAxis, MotorType, type JointAxisDescription } from "../../src/dynamics/joints/joint6dof";
import { MotionType, type Vec3Like } from "../../src/index";
import { angleBetween, axisAngle, dist, JointHarness, rotate } from "./harness";

const D = Math.PI / 180;
const L = AxisMode.Locked,
  F = AxisMode.Free;

function axes(modes: number[], extra: Record<number, Partial<JointAxisDescription>> = {}): JointAxisDescription[] {
  return modes.map((mode, axis) => ({ axis: axis as JointAxisDescription["axis"], mode: mode as JointAxisDescription["mode"], ...(extra[axis] ?? {}) }));
}

/** A static anchor (A) and a box (B) at (0, 1, 0); the joint axis is the tilted direction `dir`. */
function rig(H: JointHarness, modes: number[], extra: Record<number, Partial<JointAxisDescription>> = {}) {
  const anchor = H.body({ position: { x: 0, y: 1, z: 0 }, motionType: MotionType.Static, mass: 0 });
  const body = H.body({ position: { x: 0, y: 1, z: 0 }, mass: 2, inertia: { x: 0.05, y: 0.1, z: 0.08 } });
  const dir = { x: Math.SQRT1_2, y: Math.SQRT1_2, z: 0 }; // 45 degrees up: gravity has a component along it
  const perp = { x: -Math.SQRT1_2, y: Math.SQRT1_2, z: 0 };
  const j = H.joint({ bodyA: anchor, bodyB: body, axisA: dir, axisB: dir, perpAxisA: perp, perpAxisB: perp, axes: axes(modes, extra) });
  return { anchor, body, j, dir };
}

function offAxis(H: JointHarness, body: number, dir: { x: number; y: number; z: number }): number {
  const p = H.pos(body);
  const d = { x: p.x, y: p.y - 1, z: p.z };
  const along = d.x * dir.x + d.y * dir.y + d.z * dir.z;
  return Math.hypot(d.x - along * dir.x, d.y - along * dir.y, d.z - along * dir.z);
}

describe("prismatic and slider", () => {
  it("PRISMATIC: translation only along the axis, limits within 5 mm, POSITION motor within 1 cm", () => {
    const H = new JointHarness();
    const { body, j, dir } = rig(H, [F, L, L, L, L, L], { 0: { mode: AxisMode.Limited, min: -0.4, max: 0.3 } });
    // Disturb: sideways velocity and a spin.
    H.world.setLinearVelocity(body, { x: 1, y: -2, z: 3 });
    H.world.setAngularVelocity(body, { x: 3, y: -2, z: 1 });
    let maxOff = 0,
      maxRot = 0,
      lo = Infinity,
      hi = -Infinity;
    const track = () => {
      maxOff = Math.max(maxOff, offAxis(H, body, dir));
      maxRot = Math.max(maxRot, angleBetween(rotate(H.rot(body), { x: 1, y: 0, z: 0 }), { x: 1, y: 0, z: 0 }));
      const x = H.joints.getAxisPosition(j, JointAxis.LinearX);
      lo = Math.min(lo, x);
      hi = Math.max(hi, x);
    };
    H.steps(120, track); // slides down onto the lower limit
    H.world.setLinearVelocity(body, { x: 4 * dir.x, y: 4 * dir.y, z: 0 });
    H.steps(30, track); // thrown onto the upper limit
    console.log(`prismatic: max off-axis=${(maxOff * 1000).toFixed(3)} mm, max rotation=${(maxRot / D).toFixed(4)} deg, travel [${lo.toFixed(4)}, ${hi.toFixed(4)}] for limits [-0.4, 0.3]`);
    expect(maxOff).toBeLessThan(0.005);
    expect(maxRot).toBeLessThan(0.5 * D);
    expect(lo).toBeGreaterThan(-0.405);
    expect(hi).toBeLessThan(0.305);
    // POSITION motor against gravity's pull along the axis.
    H.joints.setAxisMotorType(j, JointAxis.LinearX, MotorType.Position);
    H.joints.setAxisMotorTarget(j, JointAxis.LinearX, 0.1);
    H.joints.setAxisMotorMaxForce(j, JointAxis.LinearX, 200);
    H.steps(120);
    const x = H.joints.getAxisPosition(j, JointAxis.LinearX);
    console.log(`prismatic position motor: x=${x.toFixed(5)} (target 0.1)`);
    expect(Math.abs(x - 0.1)).toBeLessThan(0.01);
  });

  it("SLIDER: translates along and rotates about the axis, nothing else", () => {
    const H = new JointHarness({ gravity: { x: 0, y: 0, z: 0 } });
    const { body, j, dir } = rig(H, [F, L, L, F, L, L]);
    // Screw-like start: spin about the axis and move along it, plus off-axis disturbances.
    H.world.setAngularVelocity(body, { x: 2 * dir.x + 1, y: 2 * dir.y, z: -1 });
    H.world.setLinearVelocity(body, { x: 0.5 * dir.x, y: 0.5 * dir.y, z: 1 });
    let maxOff = 0,
      maxTilt = 0;
    H.steps(60, () => {
      maxOff = Math.max(maxOff, offAxis(H, body, dir));
      maxTilt = Math.max(maxTilt, angleBetween(rotate(H.rot(body), dir), dir));
    });
    const x = H.joints.getAxisPosition(j, JointAxis.LinearX);
    const a = H.joints.getAxisPosition(j, JointAxis.AngularX);
    console.log(`slider: off-axis=${(maxOff * 1000).toFixed(3)} mm, axis tilt=${(maxTilt / D).toFixed(4)} deg, travel=${x.toFixed(4)} m, twist=${(a / D).toFixed(2)} deg`);
    expect(maxOff).toBeLessThan(0.005);
    expect(maxTilt).toBeLessThan(0.5 * D);
    expect(Math.abs(x)).toBeGreaterThan(0.1);
    expect(Math.abs(a)).toBeGreaterThan(20 * D);
  });

  it("linear friction decelerates at friction / m", () => {
    const H = new JointHarness({ gravity: { x: 0, y: 0, z: 0 } });
    const { body, dir } = rig(H, [F, L, L, L, L, L], { 0: { friction: 4 } });
    H.world.setLinearVelocity(body, { x: 3 * dir.x, y: 3 * dir.y, z: 0 });
    H.steps(60);
    const v = H.vel(body);
    const s = v.x * dir.x + v.y * dir.y;
    console.log(`slider friction: v(1 s)=${s.toFixed(5)} m/s, predicted 1 (3 - 4 N / 2 kg x 1 s)`);
    expect(Math.abs(s - 1)).toBeLessThan(0.02 * 2);
    H.steps(120);
    expect(Math.abs(H.vel(body).x)).toBeLessThan(1e-6);
  });

  it("VELOCITY motor on a linear axis", () => {
    const H = new JointHarness();
    const { body, dir } = rig(H, [F, L, L, L, L, L], { 0: { motorType: MotorType.Velocity, motorTarget: 0.5, motorMaxForce: 100 } });
    H.steps(60);
    const v = H.vel(body);
    expect(v.x * dir.x + v.y * dir.y).toBeCloseTo(0.5, 3);
  });
});

describe("lock", () => {
  // At 8 (default), 6 and 4 substeps: joints iterate more per substep when there are fewer (jointPassesPerStep).
  for (const substeps of [8, 6, 4])
  it(`keeps the relative pose within 5 mm / 0.5 degree under a 10 m/s impact (${substeps} substeps)`, () => {
    const H = new JointHarness({ substeps });
    const a = H.body({ position: { x: 0, y: 0, z: 0 }, mass: 3, inertia: { x: 0.1, y: 0.2, z: 0.15 } });
    const q = axisAngle(0, 1, 0, 0.6);
    const b = H.body({ position: { x: 0.6, y: 0.2, z: 0 }, orientation: q, mass: 1, inertia: { x: 0.02, y: 0.03, z: 0.04 } });
    // Frames chosen so they coincide now: pivot at (0.3, 0.1, 0) in A; the same world point in B.
    const pw = { x: 0.3, y: 0.1, z: 0 };
    const inv = { x: -q.x, y: -q.y, z: -q.z, w: q.w };
    const pB = rotate(inv, { x: pw.x - 0.6, y: pw.y - 0.2, z: 0 });
    const axB = rotate(inv, { x: 1, y: 0, z: 0 });
    const ppB = rotate(inv, { x: 0, y: 1, z: 0 });
    H.joint({ bodyA: a, bodyB: b, pivotA: pw, pivotB: pB, axisA: { x: 1, y: 0, z: 0 }, perpAxisA: { x: 0, y: 1, z: 0 }, axisB: axB, perpAxisB: ppB, axes: axes([L, L, L, L, L, L]) });
    // Impact: B hit at 10 m/s sideways (off-centre: also spins).
    H.world.setLinearVelocity(b, { x: 0, y: 0, z: 10 });
    H.world.setAngularVelocity(b, { x: 5, y: 0, z: 0 });
    let maxD = 0,
      maxA = 0;
    const relRot = () => {
      const qa = H.rot(a),
        qb = H.rot(b);
      // angle of conj(qa) * qb vs q
      const w = qa.w * qb.w + qa.x * qb.x + qa.y * qb.y + qa.z * qb.z;
      const rx = qa.w * qb.x - qa.x * qb.w - qa.y * qb.z + qa.z * qb.y;
      const ry = qa.w * qb.y + qa.x * qb.z - qa.y * qb.w - qa.z * qb.x;
      const rz = qa.w * qb.z - qa.x * qb.y + qa.y * qb.x - qa.z * qb.w;
      const d = Math.abs(w * q.w + rx * q.x + ry * q.y + rz * q.z);
      return 2 * Math.acos(Math.min(1, d));
    };
    H.steps(120, () => {
      maxD = Math.max(maxD, dist(H.point(a, pw), H.point(b, pB)));
      maxA = Math.max(maxA, relRot());
    });
    console.log(`lock after 10 m/s impact: max pivot gap=${(maxD * 1000).toFixed(3)} mm, max relative rotation=${(maxA / D).toFixed(4)} deg`);
    expect(maxD).toBeLessThan(0.005);
    expect(maxA).toBeLessThan(0.5 * D);
  });
});

describe("distance", () => {
  it("DISTANCE (min = max) is a rigid rod: bodies 1 m apart are pushed to 2 m and held", () => {
    const H = new JointHarness({ gravity: { x: 0, y: 0, z: 0 } });
    const a = H.body({ position: { x: 0, y: 0, z: 0 }, mass: 1 });
    const b = H.body({ position: { x: 1, y: 0, z: 0 }, mass: 1 });
    H.joint({ bodyA: a, bodyB: b, axes: [{ axis: JointAxis.LinearDistance, mode: AxisMode.Limited, min: 2, max: 2 }] });
    H.steps(60);
    const d1 = dist(H.pos(a), H.pos(b));
    H.world.setLinearVelocity(b, { x: 0, y: 3, z: 0 }); // swing about each other
    let maxErr = 0;
    H.steps(120, () => (maxErr = Math.max(maxErr, Math.abs(dist(H.pos(a), H.pos(b)) - 2))));
    console.log(`distance rod: after 1 s=${d1.toFixed(5)} m (target 2), max error while spinning=${(maxErr * 1000).toFixed(3)} mm`);
    expect(Math.abs(d1 - 2)).toBeLessThan(0.005);
    expect(maxErr).toBeLessThan(0.005);
  });

  it("LINEAR_DISTANCE limited [1, 2] is a rope-like range: slack inside, stops at 2", () => {
    const H = new JointHarness({ gravity: { x: 0, y: 0, z: 0 } });
    const a = H.body({ position: { x: 0, y: 0, z: 0 }, motionType: MotionType.Static, mass: 0 });
    const b = H.body({ position: { x: 1.5, y: 0, z: 0 }, mass: 1, linearVelocity: { x: 2, y: 0, z: 0 } });
    H.joint({ bodyA: a, bodyB: b, axes: [{ axis: JointAxis.LinearDistance, mode: AxisMode.Limited, min: 1, max: 2 }] });
    let maxD = 0;
    H.steps(60, () => (maxD = Math.max(maxD, H.pos(b).x)));
    expect(maxD).toBeLessThan(2.005);
    expect(maxD).toBeGreaterThan(1.99);
  });

  it("a spring on LINEAR_DISTANCE (k = 100 N/m, 1 kg) oscillates with period 2 pi sqrt(m/k)", () => {
    const H = new JointHarness({ gravity: { x: 0, y: 0, z: 0 } });
    const b = H.body({ position: { x: 1.2, y: 0, z: 0 }, mass: 1 });
    H.joint({ bodyA: b, bodyB: null, axes: [{ axis: JointAxis.LinearDistance, mode: AxisMode.Limited, min: 1, max: 1, stiffness: 100, damping: 0 }] });
    const ups: number[] = [];
    let prev = H.pos(b).x - 1,
      t = 0;
    let amp = 0;
    while (ups.length < 6 && t < 10) {
      H.step();
      t += 1 / 60;
      const x = H.pos(b).x - 1;
      if (prev < 0 && x >= 0) ups.push(t - 1 / 60 + ((1 / 60) * -prev) / (x - prev));
      prev = x;
      if (ups.length >= 4) amp = Math.max(amp, Math.abs(x));
    }
    const T = (ups[5] - ups[0]) / 5;
    const T0 = 2 * Math.PI * Math.sqrt(1 / 100);
    console.log(`distance spring: period=${T.toFixed(5)} s, predicted ${T0.toFixed(5)} s, amplitude after 4 periods=${amp.toFixed(4)} (0.2 at start)`);
    expect(Math.abs(T - T0) / T0).toBeLessThan(0.02);
    expect(amp).toBeGreaterThan(0.18);
  });
});

describe("LINEAR_DISTANCE held at 0", () => {
  /** A 1 m pendulum (pivot 1 m from the bob's centre, at the static anchor) on `axes`; the bob's path and the largest pivot gap. */
  function swing(axes: { axis: number; mode: number; min?: number; max?: number }[]): { path: Vec3Like[]; gap: number } {
    const H = new JointHarness();
    const a = H.body({ position: { x: 0, y: 0, z: 0 }, motionType: MotionType.Static, mass: 0 });
    const b = H.body({ position: { x: 1, y: 0, z: 0 }, mass: 1, linearVelocity: { x: 0, y: 0, z: 2 }, angularVelocity: { x: 0, y: 0, z: 3 } });
    H.joint({ bodyA: a, bodyB: b, pivotA: { x: 0, y: 0, z: 0 }, pivotB: { x: -1, y: 0, z: 0 }, axes: axes as JointAxisDescription[] });
    const path: Vec3Like[] = [];
    let gap = 0;
    H.steps(120, () => {
      path.push(H.pos(b));
      gap = Math.max(gap, Math.hypot(...Object.values(H.point(b, { x: -1, y: 0, z: 0 }))));
    });
    return { path, gap };
  }

  it("is the ball-and-socket: the same path as LINEAR_X, Y and Z locked, and the pivots stay together", () => {
    // Pivots that coincide are a point constraint (Havok holds the car demo's wheels so). One row along the
    // separation cannot be that: at zero length its direction is undefined, so the pivot slid across it and a
    // wheel on such a joint wobbled on its axle (issue 29 item 3: before, this pendulum's pivot opened 18.6 mm
    // and its path left the ball joint's by 49 mm within 2 s; now 0.38 mm, as the ball joint's own).
    const ball = swing([JointAxis.LinearX, JointAxis.LinearY, JointAxis.LinearZ].map((axis) => ({ axis, mode: AxisMode.Locked })));
    for (const d of [
      [{ axis: JointAxis.LinearDistance, mode: AxisMode.Locked }],
      [{ axis: JointAxis.LinearDistance, mode: AxisMode.Limited, min: 0, max: 0 }],
    ]) {
      const r = swing(d);
      let off = 0;
      for (let i = 0; i < r.path.length; i++) off = Math.max(off, dist(r.path[i], ball.path[i]));
      console.log(`distance 0 (${d[0].mode === AxisMode.Locked ? "LOCKED" : "LIMITED 0..0"}): pivot gap ${(r.gap * 1000).toFixed(3)} mm, path off the ball joint's by ${(off * 1000).toFixed(4)} mm`);
      // The same rows in the same order: the same numbers.
      expect(off).toBe(0);
      expect(r.gap).toBeLessThan(0.001);
    }
  });
});
