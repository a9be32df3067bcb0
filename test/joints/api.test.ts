import { describe, expect, it } from "vitest";
import { AxisMode, JointAxis, MotorType } from "../../src/dynamics/joints/joint6dof";
import { JointSolver } from "../../src/dynamics/joints/jointSolver";
import { Box, MotionType, World } from "../../src/index";
import { JointHarness } from "./harness";

const LOCK3 = [0, 1, 2].map((axis) => ({ axis: axis as 0 | 1 | 2, mode: AxisMode.Locked }));

describe("joint API", () => {
  it("validates descriptions with errors naming the argument and value", () => {
    const H = new JointHarness();
    const a = H.body({ position: { x: 0, y: 0, z: 0 } });
    const J = H.joints;
    expect(() => J.create({ bodyA: 12345, bodyB: null })).toThrow(/desc\.bodyA.*12345/);
    expect(() => J.create({ bodyA: a, bodyB: a })).toThrow(RangeError);
    expect(() => J.create({ bodyA: a, bodyB: null, pivotA: { x: NaN, y: 0, z: 0 } })).toThrow(/desc\.pivotA/);
    expect(() => J.create({ bodyA: a, bodyB: null, axisA: { x: 0, y: 0, z: 0 } })).toThrow(/desc\.axisA/);
    expect(() => J.create({ bodyA: a, bodyB: null, axisA: { x: 1, y: 0, z: 0 }, perpAxisA: { x: 2, y: 0, z: 0 } })).toThrow(/perpAxisA/);
    expect(() => J.create({ bodyA: a, bodyB: null, axes: [{ axis: 7 as 0, mode: AxisMode.Free }] })).toThrow(/desc\.axes\[0\]\.axis.*7/);
    expect(() => J.create({ bodyA: a, bodyB: null, axes: [{ axis: 0, mode: 3 as 0 }] })).toThrow(/mode/);
    expect(() => J.create({ bodyA: a, bodyB: null, axes: [{ axis: 0, mode: 1, stiffness: -1 }] })).toThrow(/stiffness.*-1/);
    expect(() => J.create({ bodyA: a, bodyB: null, enabled: 1 as unknown as boolean })).toThrow(TypeError);
    expect(J.count).toBe(0);
  });

  it("handles are generational; stale handles throw; getters read back setters", () => {
    const H = new JointHarness();
    const a = H.body({ position: { x: 0, y: 0, z: 0 } });
    const b = H.body({ position: { x: 1, y: 0, z: 0 } });
    const J = H.joints;
    const j = H.joint({ bodyA: a, bodyB: b, axes: LOCK3 });
    expect(J.isAlive(j)).toBe(true);
    expect(J.getBodies(j)).toEqual({ bodyA: a, bodyB: b });
    J.setAxisMode(j, JointAxis.AngularX, AxisMode.Limited);
    J.setAxisLimits(j, JointAxis.AngularX, -0.5, 0.7);
    J.setAxisFriction(j, JointAxis.AngularX, 3);
    J.setAxisMotorType(j, JointAxis.AngularX, MotorType.Velocity);
    J.setAxisMotorTarget(j, JointAxis.AngularX, 2);
    J.setAxisMotorMaxForce(j, JointAxis.AngularX, 9);
    J.setAxisSpring(j, JointAxis.AngularX, 10, 1);
    expect(J.getAxisMode(j, JointAxis.AngularX)).toBe(AxisMode.Limited);
    expect(J.getAxisMinLimit(j, JointAxis.AngularX)).toBe(-0.5);
    expect(J.getAxisMaxLimit(j, JointAxis.AngularX)).toBe(0.7);
    expect(J.getAxisFriction(j, JointAxis.AngularX)).toBe(3);
    expect(J.getAxisMotorType(j, JointAxis.AngularX)).toBe(MotorType.Velocity);
    expect(J.getAxisMotorTarget(j, JointAxis.AngularX)).toBe(2);
    expect(J.getAxisMotorMaxForce(j, JointAxis.AngularX)).toBe(9);
    expect(J.getAxisStiffness(j, JointAxis.AngularX)).toBe(10);
    expect(J.getAxisDamping(j, JointAxis.AngularX)).toBe(1);
    expect(J.getEnabled(j)).toBe(true);
    J.setEnabled(j, false);
    expect(J.getEnabled(j)).toBe(false);
    expect(() => J.setAxisMode(j, 9 as 0, AxisMode.Free)).toThrow(/axis.*9/);
    J.remove(j);
    expect(J.isAlive(j)).toBe(false);
    expect(() => J.getEnabled(j)).toThrow(/not alive/);
    const j2 = H.joint({ bodyA: a, bodyB: b });
    expect(j2).not.toBe(j); // same slot, new generation
    expect(J.isAlive(j)).toBe(false);
  });

  it("collisions between jointed bodies are off unless enabled; the pair table follows enable/remove", () => {
    const H = new JointHarness();
    const a = H.body({ position: { x: 0, y: 0, z: 0 } });
    const b = H.body({ position: { x: 1, y: 0, z: 0 } });
    const J = H.joints;
    const j = H.joint({ bodyA: a, bodyB: b });
    expect(J.isCollisionDisabled(a, b)).toBe(true);
    expect(J.isCollisionDisabled(b, a)).toBe(true);
    J.setCollisionsEnabled(j, true);
    expect(J.getCollisionsEnabled(j)).toBe(true);
    expect(J.isCollisionDisabled(a, b)).toBe(false);
    J.setCollisionsEnabled(j, false);
    J.setEnabled(j, false);
    expect(J.isCollisionDisabled(a, b)).toBe(false);
    J.setEnabled(j, true);
    expect(J.isCollisionDisabled(a, b)).toBe(true);
    J.remove(j);
    expect(J.isCollisionDisabled(a, b)).toBe(false);
  });

  it("removing a body removes its joints", () => {
    const H = new JointHarness();
    const a = H.body({ position: { x: 0, y: 0, z: 0 } });
    const b = H.body({ position: { x: 1, y: 0, z: 0 } });
    const c = H.body({ position: { x: 2, y: 0, z: 0 } });
    const j1 = H.joint({ bodyA: a, bodyB: b });
    const j2 = H.joint({ bodyA: b, bodyB: c });
    const j3 = H.joint({ bodyA: c, bodyB: null });
    if (H.useWorld) H.world.removeBody(b);
    else H.joints.onBodyRemoved(b);
    expect(H.joints.isAlive(j1)).toBe(false);
    expect(H.joints.isAlive(j2)).toBe(false);
    expect(H.joints.isAlive(j3)).toBe(true);
    expect(H.joints.count).toBe(1);
    H.steps(5); // still steps with the remaining joint
  });

  it("setters wake sleeping bodies", () => {
    const w = new World();
    const a = w.createBody({ position: { x: 0, y: 0, z: 0 }, massProperties: { mass: 1, inertia: { x: 1, y: 1, z: 1 } } });
    const J = (w as unknown as { joints?: JointSolver }).joints ?? new JointSolver(w.bodies, (h) => w.wake(h));
    const j = J.create({ bodyA: a, bodyB: null });
    w.sleep(a);
    expect(w.isSleeping(a)).toBe(true);
    J.setAxisMotorTarget(j, JointAxis.AngularX, 1);
    expect(w.isSleeping(a)).toBe(false);
  });

  it("is deterministic: the same scene twice gives bit-identical states", () => {
    const run = () => {
      const H = new JointHarness();
      const anchor = H.body({ position: { x: 0, y: 0, z: 0 }, motionType: MotionType.Static, mass: 0 });
      let prev = anchor;
      for (let i = 0; i < 6; i++) {
        const b = H.body({ position: { x: 0.5 * (i + 1), y: 0, z: 0 }, mass: 1 + i });
        H.joint({ bodyA: prev, bodyB: b, pivotA: { x: prev === anchor ? 0 : 0.25, y: 0, z: 0 }, pivotB: { x: -0.25, y: 0, z: 0 }, axes: [...LOCK3, { axis: JointAxis.AngularX, mode: AxisMode.Limited, min: -0.3, max: 0.3 }] });
        prev = b;
      }
      H.steps(120);
      return H.world.stateHash();
    };
    expect(run()).toBe(run());
  });
});

describe("joints in the world", () => {
  it("jointed overlapping boxes do not collide; enabling collisions makes them push apart", () => {
    for (const collide of [false, true]) {
      const w = new World({ gravity: { x: 0, y: 0, z: 0 } });
      if (!(w as unknown as { joints?: unknown }).joints) return; // before the lead wires joints in
      const a = w.createBody({ position: { x: 0, y: 0, z: 0 }, collidable: { shape: new Box(0.5, 0.5, 0.5) } });
      const b = w.createBody({ position: { x: 0.6, y: 0, z: 0 }, collidable: { shape: new Box(0.5, 0.5, 0.5) } });
      const wj = w as unknown as { createJoint: (d: object) => number };
      // A rope-like range: free within [0.5, 3] m.
      wj.createJoint({ bodyA: a, bodyB: b, collisionsEnabled: collide, axes: [{ axis: JointAxis.LinearDistance, mode: AxisMode.Limited, min: 0.5, max: 3 }] });
      for (let i = 0; i < 60; i++) w.step(1 / 60);
      const pa = w.getPosition(a, { x: 0, y: 0, z: 0 }),
        pb = w.getPosition(b, { x: 0, y: 0, z: 0 });
      const d = pb.x - pa.x;
      if (collide) expect(d).toBeGreaterThan(0.95);
      else expect(d).toBeCloseTo(0.6, 3);
    }
  });
});
