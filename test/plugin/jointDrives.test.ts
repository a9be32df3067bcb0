/**
 * Joint drives set the Havok way (issue 21, item 4). glTF physics loaders written against HavokPlugin (the
 * public glTF_Physics_Babylon loader) drive a 6-DoF joint's axes through HavokPlugin internals:
 * `plugin._constraintAxisToNative(axis)`, `plugin._hknp.HP_Constraint_SetAxisMotor*` with
 * `_hknp.ConstraintMotorType` on `constraint._pluginData[0]`. `drive` below makes exactly the loader's calls,
 * and the same scene runs on Havok and Continuum: a body on one free axis of a 6-DoF joint to a static
 * body, no gravity, driven to a target. The spring drive's force is k (x* - x) + c (v* - v) (SPRING_FORCE) or
 * that times the axis's effective mass (SPRING_ACCELERATION), so each case has a closed form.
 */
import { describe, expect, it } from "vitest";
import { MeshBuilder, Physics6DoFConstraint, PhysicsAggregate, PhysicsShapeType, Vector3, type PhysicsConstraintAxis } from "@babylonjs/core";
import { KINDS, makeScene, type Kind } from "./helpers";

interface Drive {
  mode: "force" | "acceleration";
  positionTarget: number;
  velocityTarget: number;
  stiffness: number;
  damping: number;
}

/** The public loader's sequence of calls for one drive (KHR_physics_rigid_bodies joint drive). */
function drive(plugin: unknown, c: Physics6DoFConstraint, axis: number, d: Drive): void {
  const hp = plugin as {
    _constraintAxisToNative(a: number): unknown;
    _hknp: Record<string, (...args: unknown[]) => unknown> & { ConstraintMotorType: Record<string, unknown> };
  };
  const wasm = hp._hknp;
  const id = (c as unknown as { _pluginData: unknown[] })._pluginData[0];
  const hpAxis = hp._constraintAxisToNative(axis);
  wasm.HP_Constraint_SetAxisMotorType(id, hpAxis, d.mode === "force" ? wasm.ConstraintMotorType.SPRING_FORCE : wasm.ConstraintMotorType.SPRING_ACCELERATION);
  wasm.HP_Constraint_SetAxisMotorVelocityTarget(id, hpAxis, d.velocityTarget);
  wasm.HP_Constraint_SetAxisMotorPositionTarget(id, hpAxis, d.positionTarget);
  wasm.HP_Constraint_SetAxisMotorStiffness(id, hpAxis, d.stiffness);
  wasm.HP_Constraint_SetAxisMotorDamping(id, hpAxis, d.damping);
  c.setAxisMotorMaxForce(axis as PhysicsConstraintAxis, 3.4e38);
}

/** A 0.5 m box of `mass` on a 6-DoF joint whose only free axis is `axis`; samples its coordinate every 6 steps. */
async function run(kind: Kind, axis: number, mass: number, d: Drive, samples = 6): Promise<{ x: number[]; v: number }> {
  const t = await makeScene(kind, { gravity: new Vector3(0, 0, 0) });
  const a = MeshBuilder.CreateBox("a", { size: 0.2 }, t.scene);
  const aa = new PhysicsAggregate(a, PhysicsShapeType.BOX, { mass: 0 }, t.scene);
  const b = MeshBuilder.CreateBox("b", { size: 0.5 }, t.scene);
  b.position.y = 2;
  const ba = new PhysicsAggregate(b, PhysicsShapeType.BOX, { mass }, t.scene);
  const limits = [0, 1, 2, 3, 4, 5].filter((x) => x !== axis).map((x) => ({ axis: x as PhysicsConstraintAxis, minLimit: 0, maxLimit: 0 }));
  const c = new Physics6DoFConstraint({ pivotA: new Vector3(0, 2, 0), pivotB: new Vector3(0, 0, 0) }, limits, t.scene);
  aa.body.addConstraint(ba.body, c);
  drive(t.plugin, c, axis, d);
  const x: number[] = [];
  for (let s = 0; s < samples; s++) {
    t.step(6);
    x.push(axis === 0 ? b.position.x : 2 * Math.asin(b.rotationQuaternion!.x));
  }
  const v = axis === 0 ? ba.body.getLinearVelocity().x : ba.body.getAngularVelocity().x;
  t.dispose();
  return { x, v };
}

const times = [0.1, 0.2, 0.3, 0.4, 0.5, 0.6];
/** Critically damped approach to 1 from 0 at rest: 1 - (1 + w t) e^(-w t). */
const critical = (w: number) => times.map((t) => 1 - (1 + w * t) * Math.exp(-w * t));

describe("joint drives through the _hknp façade (glTF loader calls)", () => {
  // Linear, SPRING_FORCE, m = 1: k = 100 N/m, c = 20 N s/m is critically damped with w = 10 rad/s.
  // Linear, SPRING_ACCELERATION, m = 2: k and c are per unit mass, so the same curve as force mode at m = 1.
  // Linear, SPRING_FORCE, m = 2: w = sqrt(50) and zeta = 20 / (2 sqrt(200)) = 0.71, so it overshoots; Havok
  // measured 1.040 at 0.6 s (the closed form: 1.04).
  // Angular (ANGULAR_X), SPRING_FORCE: I = m s^2 / 6 = 1/24 kg m^2; k = 10 N m/rad, c = 2 sqrt(k I) is critical
  // with w = sqrt(240) = 15.5 rad/s.
  const I = 1 / 24;
  const cases = [
    { name: "linear, force, 1 kg", axis: 0, mass: 1, d: { mode: "force", positionTarget: 1, velocityTarget: 0, stiffness: 100, damping: 20 }, expected: critical(10) },
    { name: "linear, acceleration, 2 kg", axis: 0, mass: 2, d: { mode: "acceleration", positionTarget: 1, velocityTarget: 0, stiffness: 100, damping: 20 }, expected: critical(10) },
    { name: "angular, force", axis: 3, mass: 1, d: { mode: "force", positionTarget: 1, velocityTarget: 0, stiffness: 10, damping: 2 * Math.sqrt(10 * I) }, expected: critical(Math.sqrt(10 / I)) },
  ] as const;
  for (const cs of cases) {
    it(`${cs.name}: both engines follow the closed form`, async () => {
      const got: Record<string, number[]> = {};
      for (const kind of KINDS) {
        const { x } = await run(kind, cs.axis, cs.mass, cs.d as Drive);
        got[kind] = x;
        // The discrete solvers lag the continuous curve by a fraction of a step (Havok by up to 0.013 at
        // 0.1 s, where the curve rises 5 units per second: 0.15 of a 1/60 s step): 0.03 holds both.
        x.forEach((xi, i) => expect(Math.abs(xi - cs.expected[i]), `${kind} t=${times[i]}`).toBeLessThan(0.03));
      }
      // Side by side: the same curve within 0.03 at every sample.
      got.continuum.forEach((xi, i) => expect(Math.abs(xi - got.havok[i])).toBeLessThan(0.03));
    });
  }

  it("a pure damper drives to the velocity target: v = v* (1 - e^(-c t / m)) (Continuum; Havok differs)", async () => {
    // k = 0, c = 10 N s/m, m = 1 kg, v* = 2 m/s: after 0.6 s, v = 2 (1 - e^-6) = 1.995 m/s, and x = v* (t - (1 -
    // e^(-c t / m)) m / c) = 2 (0.6 - 0.0998) = 1.0005 m. Havok 1.3.14 settles such a drive at about 2.6 v*
    // (5.2 m/s here, 2.55 m/s for v* = 1; its rate c / m is right), which we take for a quirk, not a rule.
    const { x, v } = await run("continuum", 0, 1, { mode: "force", positionTarget: 0, velocityTarget: 2, stiffness: 0, damping: 10 });
    expect(v).toBeCloseTo(1.995, 2);
    // 0.05 m: the implicit damper lags the closed form by about one step's 1/(1 + c h / m) factor early on.
    expect(Math.abs(x[5] - 1.0005)).toBeLessThan(0.05);
  });

  it("the façade's enums and joint ids behave like Havok's", async () => {
    for (const kind of KINDS) {
      const t = await makeScene(kind);
      const p = t.plugin as unknown as { _constraintAxisToNative(a: number): unknown; _hknp: { ConstraintMotorType: Record<string, unknown> } };
      // Five motor types, distinct values.
      const types = ["NONE", "VELOCITY", "POSITION", "SPRING_FORCE", "SPRING_ACCELERATION"].map((k) => p._hknp.ConstraintMotorType[k]);
      expect(new Set(types).size).toBe(5);
      // Seven axes, distinct native values.
      expect(new Set([0, 1, 2, 3, 4, 5, 6].map((a) => p._constraintAxisToNative(a))).size).toBe(7);
      t.dispose();
    }
    const t = await makeScene("continuum");
    const p = t.plugin as unknown as { _constraintAxisToNative(a: number): unknown; _hknp: Record<string, (...a: unknown[]) => unknown> };
    expect(() => p._constraintAxisToNative(9)).toThrow(RangeError);
    expect(() => p._hknp.HP_Constraint_SetAxisMotorStiffness({}, 0, 1)).toThrow(/joint must be a ContinuumPlugin joint id/);
    t.dispose();
  });
});
