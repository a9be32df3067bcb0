import { describe, expect, it } from "vitest";
import { AxisMode, JointAxis, type JointAxisDescription } from "../../src/dynamics/joints/joint6dof";
import { MotionType } from "../../src/index";
import { JointHarness } from "./harness";

const NAMES = ["LINEAR_X", "LINEAR_Y", "LINEAR_Z", "ANGULAR_X", "ANGULAR_Y", "ANGULAR_Z"];
const UNIT = [
  { x: 1, y: 0, z: 0 },
  { x: 0, y: 1, z: 0 },
  { x: 0, y: 0, z: 1 },
];

/**
 * One 6DoF joint between a static anchor and a body, frames aligned with the world; every axis but
 * `axis` is LOCKED, and `axis` gets `mode` (LIMITED = [-0.1, 0.2] m or rad). A constant force (or
 * torque) pushes along +axis for 1 s, then along -axis for 2 s.
 */
function run(axis: number, mode: number) {
  const H = new JointHarness({ gravity: { x: 0, y: 0, z: 0 } });
  const anchor = H.body({ position: { x: 0, y: 0, z: 0 }, motionType: MotionType.Static, mass: 0 });
  const b = H.body({ position: { x: 0, y: 0, z: 0 }, mass: 1, inertia: { x: 0.1, y: 0.1, z: 0.1 } });
  const axes: JointAxisDescription[] = [];
  for (let k = 0; k < 6; k++) {
    if (k === axis) axes.push({ axis: k as JointAxis, mode: mode as AxisMode, min: -0.1, max: 0.2 });
    else axes.push({ axis: k as JointAxis, mode: AxisMode.Locked });
  }
  const y = { x: 0, y: 1, z: 0 }; // frames = world axes (the default perp of X would be -Y)
  const j = H.joint({ bodyA: anchor, bodyB: b, perpAxisA: y, perpAxisB: y, axes });
  let hi = -Infinity,
    lo = Infinity,
    maxOther = 0;
  for (let s = 0; s < 180; s++) {
    const sign = s < 30 ? 1 : -1;
    const u = UNIT[axis % 3];
    if (axis < 3) H.world.applyForce(b, { x: 2 * sign * u.x, y: 2 * sign * u.y, z: 2 * sign * u.z });
    else H.world.applyTorque(b, { x: 0.2 * sign * u.x, y: 0.2 * sign * u.y, z: 0.2 * sign * u.z });
    H.step();
    const p = H.joints.getAxisPosition(j, axis as JointAxis);
    hi = Math.max(hi, p);
    lo = Math.min(lo, p);
    for (let k = 0; k < 6; k++) if (k !== axis) maxOther = Math.max(maxOther, Math.abs(H.joints.getAxisPosition(j, k as JointAxis)));
  }
  return { hi, lo, maxOther };
}

describe("6DoF: FREE, LIMITED and LOCKED on each axis separately", () => {
  for (let axis = 0; axis < 6; axis++) {
    it(`${NAMES[axis]}`, () => {
      const free = run(axis, AxisMode.Free);
      const lim = run(axis, AxisMode.Limited);
      const lock = run(axis, AxisMode.Locked);
      console.log(
        `${NAMES[axis]}: FREE range [${free.lo.toFixed(3)}, ${free.hi.toFixed(3)}]; LIMITED [-0.1, 0.2] range [${lim.lo.toFixed(4)}, ${lim.hi.toFixed(4)}]; LOCKED |max| ${Math.max(Math.abs(lock.lo), Math.abs(lock.hi)).toExponential(2)}; other axes max ${Math.max(free.maxOther, lim.maxOther, lock.maxOther).toExponential(2)}`,
      );
      // FREE: a = 2 m/s^2 (rad/s^2) for 0.5 s then -2 for 2.5 s: x peaks at 0.5 and ends at -1.75 (minus the twist/swing coupling for large angles).
      expect(free.hi).toBeGreaterThan(0.45);
      expect(free.lo).toBeLessThan(-1);
      // LIMITED: stops at the limits.
      expect(lim.hi).toBeLessThan(0.2 + (axis < 3 ? 0.005 : 0.0175));
      expect(lim.hi).toBeGreaterThan(0.19);
      expect(lim.lo).toBeGreaterThan(-0.1 - (axis < 3 ? 0.005 : 0.0175));
      expect(lim.lo).toBeLessThan(-0.09);
      // LOCKED: does not move.
      expect(Math.max(Math.abs(lock.lo), Math.abs(lock.hi))).toBeLessThan(axis < 3 ? 0.001 : 0.002);
      expect(Math.max(free.maxOther, lim.maxOther, lock.maxOther)).toBeLessThan(0.005);
    });
  }
});
