/**
 * Rolling resistance per material (issue 20, "beyond Havok"): ContinuumPlugin reads an optional
 * `rollingResistance` on the material object given to `shape.material` (ContinuumPhysicsMaterial). A ball or a
 * wheel coasting on a level floor feels the torque C N r about its contact and slows at C g m / (m + I / r^2);
 * coefficient 0 leaves its motion as it was. Havok has no such field (it ignores it): no side-by-side.
 */
import { describe, expect, it } from "vitest";
import { Mesh, MeshBuilder, PhysicsBody, PhysicsMotionType, PhysicsShapeBox, PhysicsShapeContainer, PhysicsShapeCylinder, PhysicsShapeSphere, Quaternion, Vector3 } from "@babylonjs/core";
import type { ContinuumPhysicsMaterial, ContinuumPlugin } from "../../plugin/index";
import "../../plugin/snapshot"; // installs plugin.snapshot / restore
import { makeScene, type TestScene } from "./helpers";

const G = 9.81;
const R = 0.5;
const MASS = 2;

function floor(t: TestScene, material: ContinuumPhysicsMaterial): void {
  const m = MeshBuilder.CreateBox("floor", { width: 200, height: 1, depth: 20 }, t.scene);
  m.position.y = -0.5;
  const b = new PhysicsBody(m, PhysicsMotionType.STATIC, false, t.scene);
  const sh = new PhysicsShapeBox(Vector3.Zero(), Quaternion.Identity(), new Vector3(200, 1, 20), t.scene);
  sh.material = material;
  b.shape = sh;
}

/**
 * A ball (or a cylinder, its axis along Z) resting on the floor at x = -80, then rolling toward +X at v0 without
 * slipping. Returns the body.
 */
function roller(t: TestScene, kind: "sphere" | "cylinder", material: ContinuumPhysicsMaterial, v0: number): PhysicsBody {
  const m = kind === "sphere" ? MeshBuilder.CreateSphere("ball", { diameter: 2 * R }, t.scene) : MeshBuilder.CreateCylinder("wheel", { diameter: 2 * R, height: 0.3 }, t.scene);
  m.position = new Vector3(-80, R, 0);
  const b = new PhysicsBody(m, PhysicsMotionType.DYNAMIC, false, t.scene);
  const sh =
    kind === "sphere"
      ? new PhysicsShapeSphere(Vector3.Zero(), R, t.scene)
      : new PhysicsShapeCylinder(new Vector3(0, 0, -0.15), new Vector3(0, 0, 0.15), R, t.scene);
  sh.material = material;
  b.shape = sh;
  b.setMassProperties({ mass: MASS });
  b.setLinearDamping(0);
  b.setAngularDamping(0);
  t.step(30);
  b.setLinearVelocity(new Vector3(v0, 0, 0));
  // Rolling toward +X: spin about -Z at v0 / R.
  b.setAngularVelocity(new Vector3(0, 0, -v0 / R));
  return b;
}

/** Speed lost per second over `seconds` of rolling, after 0.25 s to settle. */
function deceleration(t: TestScene, b: PhysicsBody, seconds: number): number {
  t.step(15);
  const v0 = b.getLinearVelocity().x;
  t.step(60 * seconds);
  return (v0 - b.getLinearVelocity().x) / seconds;
}

describe("rolling resistance per material (ContinuumPlugin extension)", () => {
  // Rolling without slip under a resisting couple C N r: m a = f, I alpha = f r - C N r with alpha = a / r give
  // a = C g m / (m + I / r^2): C g / 1.4 for a solid ball (I = 2/5 m r^2), C g / 1.5 for a solid cylinder.
  const cases = [
    { kind: "sphere", inertia: 0.4 },
    { kind: "cylinder", inertia: 0.5 },
  ] as const;
  for (const { kind, inertia } of cases) {
    it(`a ${kind} coasting on a level floor slows at C g / (1 + ${inertia}) (C = 0.05 on the roller)`, async () => {
      const t = await makeScene("continuum");
      try {
        const C = 0.05;
        floor(t, { friction: 0.8, restitution: 0 });
        const b = roller(t, kind, { friction: 0.8, restitution: 0, rollingResistance: C }, 5);
        const a = deceleration(t, b, 1);
        const predicted = (C * G) / (1 + inertia);
        console.log(`[measure] ${kind} rolling with C ${C}: ${a.toFixed(4)} m/s^2 (predicted ${predicted.toFixed(4)})`);
        // The bound uses the lever arm to the contact (r less the contact's sub-millimetre penetration) and the
        // substeps' normal impulses (the weight, within the contact spring's ripple): 2 % covers both.
        expect(Math.abs(a - predicted)).toBeLessThan(0.02 * predicted);
        // It still rolls (no slip): v = omega r within 1 %.
        const v = b.getLinearVelocity().x,
          w = -b.getAngularVelocity().z;
        expect(Math.abs(v - w * R)).toBeLessThan(0.01 * v);
      } finally {
        t.dispose();
      }
    });
  }

  it("a pair uses the larger coefficient: C on the floor alone slows the ball as C on the ball", async () => {
    const t = await makeScene("continuum");
    try {
      const C = 0.05;
      floor(t, { friction: 0.8, restitution: 0, rollingResistance: C });
      const b = roller(t, "sphere", { friction: 0.8, restitution: 0, rollingResistance: 0.01 }, 5);
      const a = deceleration(t, b, 1);
      const predicted = (C * G) / 1.4;
      console.log(`[measure] ball with C 0.01 on a floor with C ${C}: ${a.toFixed(4)} m/s^2 (predicted ${predicted.toFixed(4)})`);
      expect(Math.abs(a - predicted)).toBeLessThan(0.02 * predicted);
    } finally {
      t.dispose();
    }
  });

  it("coefficient 0 (or none) leaves the rolling as it was: no loss, the same motion bit for bit", async () => {
    const run = async (material: ContinuumPhysicsMaterial): Promise<{ a: number; x: number }> => {
      const t = await makeScene("continuum");
      try {
        floor(t, { friction: 0.8, restitution: 0 });
        const b = roller(t, "sphere", material, 5);
        const a = deceleration(t, b, 2);
        return { a, x: b.transformNode.position.x };
      } finally {
        t.dispose();
      }
    };
    const none = await run({ friction: 0.8, restitution: 0 });
    const zero = await run({ friction: 0.8, restitution: 0, rollingResistance: 0 });
    console.log(`[measure] ball without rolling resistance: ${none.a.toExponential(3)} m/s^2`);
    // C = 0.01 would lose 0.07 m/s^2; a ball on a box floor loses nothing measurable without it.
    expect(Math.abs(none.a)).toBeLessThan(1e-3);
    expect(zero.x).toBe(none.x);
  });

  it("holds a ball still on a slope shallower than its rolling resistance allows, and lets it roll on a steeper one", async () => {
    // On a slope of angle s a ball rolls when g sin s exceeds what the couple C g cos s r / r can hold: tan s > C.
    const roll = async (slopeDeg: number): Promise<number> => {
      const t = await makeScene("continuum");
      try {
        const s = (slopeDeg * Math.PI) / 180;
        t.scene.getPhysicsEngine()!.setGravity(new Vector3(G * Math.sin(s), -G * Math.cos(s), 0));
        floor(t, { friction: 0.8, restitution: 0 });
        const b = roller(t, "sphere", { friction: 0.8, restitution: 0, rollingResistance: 0.05 }, 0);
        const x0 = b.transformNode.position.x;
        t.step(120);
        return b.transformNode.position.x - x0;
      } finally {
        t.dispose();
      }
    };
    const held = await roll(2); // tan 2 deg = 0.035 < 0.05
    const rolls = await roll(5); // tan 5 deg = 0.087 > 0.05
    // Rolling down 5 degrees: a = g (sin s - C cos s) / 1.4 = 0.26 m/s^2, 0.52 m in 2 s.
    const predicted = (0.5 * G * (Math.sin((5 * Math.PI) / 180) - 0.05 * Math.cos((5 * Math.PI) / 180))) / 1.4 * 4;
    console.log(`[measure] ball with C 0.05: ${(held * 1000).toFixed(3)} mm on 2 degrees, ${rolls.toFixed(4)} m on 5 degrees (predicted ${predicted.toFixed(4)})`);
    // Held: a free ball would roll g sin(2 deg) / 1.4 x 2 s^2 = 0.49 m; 1 mm is the contact settling.
    expect(Math.abs(held)).toBeLessThan(0.001);
    expect(Math.abs(rolls - predicted)).toBeLessThan(0.05 * predicted);
  });

  it("reads back through getMaterial, survives a snapshot, and rejects bad values naming the field", async () => {
    const t = await makeScene("continuum");
    try {
      const m = MeshBuilder.CreateSphere("ball", { diameter: 1 }, t.scene);
      const b = new PhysicsBody(m, PhysicsMotionType.DYNAMIC, false, t.scene);
      const sh = new PhysicsShapeSphere(Vector3.Zero(), 0.5, t.scene);
      sh.material = { friction: 0.6, rollingResistance: 0.02 } as ContinuumPhysicsMaterial;
      b.shape = sh;
      expect((t.plugin.getMaterial(sh) as ContinuumPhysicsMaterial).rollingResistance).toBe(0.02);
      // A snapshot taken with 0.02 brings 0.02 back after the material changed.
      const p = t.plugin as ContinuumPlugin;
      const snap = p.snapshot();
      t.plugin.setMaterial(sh, { friction: 0.6, rollingResistance: 0.3 } as ContinuumPhysicsMaterial);
      expect((t.plugin.getMaterial(sh) as ContinuumPhysicsMaterial).rollingResistance).toBe(0.3);
      p.restore(snap);
      expect((t.plugin.getMaterial(sh) as ContinuumPhysicsMaterial).rollingResistance).toBe(0.02);
      // Without it, getMaterial's object has Havok's fields only.
      const plain = new PhysicsShapeSphere(Vector3.Zero(), 0.5, t.scene);
      expect("rollingResistance" in t.plugin.getMaterial(plain)).toBe(false);
      expect(() => t.plugin.setMaterial(sh, { rollingResistance: -1 } as ContinuumPhysicsMaterial)).toThrow(/rollingResistance/);
      expect(() => t.plugin.setMaterial(sh, { rollingResistance: NaN } as ContinuumPhysicsMaterial)).toThrow(RangeError);
      expect((t.plugin.getMaterial(sh) as ContinuumPhysicsMaterial).rollingResistance).toBe(0.02);
    } finally {
      t.dispose();
    }
  });
});

describe("rolling resistance on the leaves of a container (issue 28: one material equality)", () => {
  it("two leaves that differ only in rolling resistance keep their own: a ball on the second slows at C g / 1.4", async () => {
    // The floor is a static container of two boxes: the first (x 90..100, far from the ball) has C = 0, the
    // second (x -100..80, under the ball) has C = 0.05. When the leaves' materials were compared without
    // rollingResistance they were taken as one surface and the whole floor got the first leaf's C = 0: no loss.
    const t = await makeScene("continuum");
    try {
      const C = 0.05;
      const n = new Mesh("floor", t.scene);
      const body = new PhysicsBody(n, PhysicsMotionType.STATIC, false, t.scene);
      const c = new PhysicsShapeContainer(t.scene);
      const leaf = (width: number, x: number, material: ContinuumPhysicsMaterial): void => {
        const s = new PhysicsShapeBox(Vector3.Zero(), Quaternion.Identity(), new Vector3(width, 1, 20), t.scene);
        s.material = material;
        c.addChild(s, new Vector3(x, -0.5, 0), Quaternion.Identity(), new Vector3(1, 1, 1));
      };
      leaf(10, 95, { friction: 0.8, restitution: 0, rollingResistance: 0 });
      leaf(180, -10, { friction: 0.8, restitution: 0, rollingResistance: C });
      body.shape = c;
      const b = roller(t, "sphere", { friction: 0.8, restitution: 0 }, 5);
      const a = deceleration(t, b, 1);
      const predicted = (C * G) / 1.4;
      console.log(`[measure] ball on a container leaf with C ${C}: ${a.toFixed(4)} m/s^2 (predicted ${predicted.toFixed(4)})`);
      // As for one box floor with C (above): 2 % covers the lever arm and the contact spring's ripple.
      expect(Math.abs(a - predicted)).toBeLessThan(0.02 * predicted);
    } finally {
      t.dispose();
    }
  });
});
