/**
 * Babylon's own PhysicsCharacterController (unmodified, from @babylonjs/core) on ContinuumPlugin, side by side
 * with Havok: it talks to the plugin through the Havok-shaped `_hknp` façade (plugin/hknpFacade.ts).
 */
import { describe, expect, it } from "vitest";
import {
  CharacterSupportedState,
  MeshBuilder,
  PhysicsAggregate,
  PhysicsCharacterController,
  PhysicsMotionType,
  PhysicsShapeType,
  Quaternion,
  Vector3,
  type CharacterSurfaceInfo,
} from "@babylonjs/core";
import { KINDS, makeScene, type Kind, type TestScene } from "./helpers";

const DT = 1 / 60;
const G = new Vector3(0, -9.81, 0);
const DOWN = new Vector3(0, -1, 0);

function staticBox(t: TestScene, name: string, size: Vector3, pos: Vector3, rot?: Quaternion, motion: "static" | "animated" | "dynamic" = "static", mass = 0) {
  const m = MeshBuilder.CreateBox(name, { width: size.x, height: size.y, depth: size.z }, t.scene);
  m.position.copyFrom(pos);
  if (rot) m.rotationQuaternion = rot.clone();
  const agg = new PhysicsAggregate(m, PhysicsShapeType.BOX, { mass: motion === "dynamic" ? mass : 0 }, t.scene);
  if (motion === "animated") {
    agg.body.setMotionType(PhysicsMotionType.ANIMATED);
    agg.body.disablePreStep = false;
  }
  return agg;
}

/** The usual per-frame loop: support check, velocity (desired + surface velocity when supported, gravity otherwise), integrate, physics step. */
function frame(t: TestScene, cc: PhysicsCharacterController, desired: Vector3, before?: () => void): CharacterSurfaceInfo {
  const support = cc.checkSupport(DT, DOWN);
  const v = cc.getVelocity().clone();
  if (support.supportedState === CharacterSupportedState.SUPPORTED) {
    v.copyFrom(desired).addInPlace(support.averageSurfaceVelocity);
  } else {
    v.x = desired.x;
    v.z = desired.z;
    v.addInPlace(G.scale(DT));
  }
  cc.setVelocity(v);
  cc.integrate(DT, support, G);
  before?.();
  t.step(1);
  (t.scene as unknown as { _frameId: number })._frameId++;
  return support;
}

function ground(t: TestScene) {
  // 40 x 1 x 40, top face at y = 0.
  return staticBox(t, "ground", new Vector3(40, 1, 40), new Vector3(0, -0.5, 0));
}

const report: Record<string, string[]> = {};
const log = (k: string, kind: Kind, v: string) => (report[k] ??= []).push(`${kind}: ${v}`);
const REST_Y = 0.9; // capsule height 1.8 on a floor at y = 0 (plus keepDistance)

describe("PhysicsCharacterController on both plugins", () => {
  for (const kind of KINDS) {
    it(`${kind}: lands on a static box and reports SUPPORTED within 2 s`, async () => {
      const t = await makeScene(kind);
      ground(t);
      const cc = new PhysicsCharacterController(new Vector3(0, 3, 0), { capsuleHeight: 1.8, capsuleRadius: 0.4 }, t.scene);
      let supportedAt = -1;
      for (let i = 0; i < 120; i++) {
        const s = frame(t, cc, Vector3.Zero());
        if (supportedAt < 0 && s.supportedState === CharacterSupportedState.SUPPORTED) supportedAt = i;
      }
      const s = cc.checkSupport(DT, DOWN);
      log("landing", kind, `supported at frame ${supportedAt}, y=${cc.getPosition().y.toFixed(4)}, state ${s.supportedState}`);
      expect(s.supportedState).toBe(CharacterSupportedState.SUPPORTED);
      expect(supportedAt).toBeGreaterThan(0);
      expect(supportedAt).toBeLessThan(120);
      expect(Math.abs(cc.getPosition().y - REST_Y)).toBeLessThan(0.1);
      expect(s.averageSurfaceNormal.y).toBeCloseTo(1, 3);
      cc.dispose();
      t.dispose();
    });

    it(`${kind}: walks across a floor at the commanded speed and stops at a wall`, async () => {
      const t = await makeScene(kind);
      ground(t);
      // Wall: face at x = 5.
      staticBox(t, "wall", new Vector3(1, 3, 6), new Vector3(5.5, 1.5, 0));
      const cc = new PhysicsCharacterController(new Vector3(0, REST_Y + 0.05, 0), { capsuleHeight: 1.8, capsuleRadius: 0.4 }, t.scene);
      for (let i = 0; i < 30; i++) frame(t, cc, Vector3.Zero());
      const speed = new Vector3(2, 0, 0);
      const x0 = cc.getPosition().x;
      for (let i = 0; i < 60; i++) frame(t, cc, speed);
      const x1 = cc.getPosition().x;
      const measured = (x1 - x0) / 1;
      for (let i = 0; i < 180; i++) frame(t, cc, speed);
      const xEnd = cc.getPosition().x;
      log("walk + wall", kind, `speed ${measured.toFixed(4)} m/s (commanded 2), stopped at x=${xEnd.toFixed(4)} (wall face 5, radius 0.4), y=${cc.getPosition().y.toFixed(4)}`);
      expect(Math.abs(measured - 2) / 2).toBeLessThan(0.02);
      expect(xEnd).toBeLessThan(5 - 0.4 + 0.005);
      expect(xEnd).toBeGreaterThan(5 - 0.4 - 0.15);
      expect(Math.abs(cc.getPosition().y - REST_Y)).toBeLessThan(0.1);
      cc.dispose();
      t.dispose();
    });

    for (const [deg, walkable] of [
      [30, true],
      [60, false],
    ] as const) {
      it(`${kind}: ${walkable ? "walks up" : "is blocked by"} a ${deg} degree ramp`, async () => {
        const t = await makeScene(kind);
        ground(t);
        // A long thin slab turned about z; its upper surface rises along +x from about x = 2.
        const a = (deg * Math.PI) / 180;
        const L = 12,
          th = 0.5;
        const rot = Quaternion.RotationAxis(new Vector3(0, 0, 1), a);
        const center = new Vector3(2 + (L / 2) * Math.cos(a) + (th / 2) * Math.sin(a), (L / 2) * Math.sin(a) - (th / 2) * Math.cos(a), 0);
        staticBox(t, "ramp", new Vector3(L, th, 4), center, rot);
        const cc = new PhysicsCharacterController(new Vector3(0, REST_Y + 0.05, 0), { capsuleHeight: 1.8, capsuleRadius: 0.4 }, t.scene);
        // 50 degrees: between the two ramps, away from the default's 60 degree borderline.
        cc.maxSlopeCosine = Math.cos((50 * Math.PI) / 180);
        for (let i = 0; i < 20; i++) frame(t, cc, Vector3.Zero());
        for (let i = 0; i < 240; i++) frame(t, cc, new Vector3(2, 0, 0));
        const p = cc.getPosition();
        log(`ramp ${deg}`, kind, `after 4 s at 2 m/s: x=${p.x.toFixed(3)} y=${p.y.toFixed(3)}`);
        if (walkable) {
          // Climbed: several metres along, above the floor by the ramp's height there.
          expect(p.x).toBeGreaterThan(6);
          expect(p.y).toBeGreaterThan(REST_Y + (p.x - 2.5) * Math.tan(a) - 0.5);
        } else {
          expect(p.x).toBeLessThan(2.5);
          expect(p.y).toBeLessThan(REST_Y + 0.6);
        }
        cc.dispose();
        t.dispose();
      });
    }

    for (const [h, climbs] of [
      [0.1, true],
      [0.6, false],
    ] as const) {
      it(`${kind}: ${climbs ? "steps up" : "is stopped by"} a ${h} m step (maxStepHeight 0.35)`, async () => {
        const t = await makeScene(kind);
        ground(t);
        // Step face at x = 2, top at y = h.
        staticBox(t, "step", new Vector3(6, h, 4), new Vector3(5, h / 2, 0));
        const cc = new PhysicsCharacterController(new Vector3(0, REST_Y + 0.05, 0), { capsuleHeight: 1.8, capsuleRadius: 0.4 }, t.scene);
        cc.maxStepHeight = 0.35;
        for (let i = 0; i < 20; i++) frame(t, cc, Vector3.Zero());
        // Step-up needs a per-frame stride above keepDistance (0.05 m): 4 m/s at 60 Hz.
        for (let i = 0; i < 60; i++) frame(t, cc, new Vector3(4, 0, 0));
        const p = cc.getPosition();
        log(`step ${h}`, kind, `after 1 s at 4 m/s: x=${p.x.toFixed(3)} y=${p.y.toFixed(3)}`);
        if (climbs) {
          expect(p.x).toBeGreaterThan(3);
          expect(Math.abs(p.y - (h + REST_Y))).toBeLessThan(0.1);
        } else {
          expect(p.x).toBeLessThan(2 - 0.3);
          expect(Math.abs(p.y - REST_Y)).toBeLessThan(0.1);
        }
        cc.dispose();
        t.dispose();
      });
    }

    it(`${kind}: rides a moving ANIMATED platform`, async () => {
      const t = await makeScene(kind);
      ground(t);
      const platform = staticBox(t, "platform", new Vector3(4, 0.5, 4), new Vector3(0, 1, 0), undefined, "animated");
      const cc = new PhysicsCharacterController(new Vector3(0, 1.25 + REST_Y + 0.05, 0), { capsuleHeight: 1.8, capsuleRadius: 0.4 }, t.scene);
      const pos = new Vector3(0, 1, 0);
      const move = () => {
        pos.x += 1 * DT;
        platform.transformNode.position.copyFrom(pos);
        // The controller reads the platform's world matrix to track its motion (no scene.render here).
        platform.transformNode.computeWorldMatrix(true);
      };
      for (let i = 0; i < 30; i++) frame(t, cc, Vector3.Zero());
      const x0 = cc.getPosition().x,
        px0 = pos.x;
      for (let i = 0; i < 120; i++) frame(t, cc, Vector3.Zero(), move);
      const dx = cc.getPosition().x - x0,
        dp = pos.x - px0;
      log("platform", kind, `platform moved ${dp.toFixed(3)}, character ${dx.toFixed(3)}, y=${cc.getPosition().y.toFixed(3)}`);
      expect(Math.abs(dx - dp)).toBeLessThan(0.1 * dp);
      expect(cc.getPosition().y).toBeGreaterThan(1.25 + REST_Y - 0.1);
      cc.dispose();
      t.dispose();
    });

    it(`${kind}: pushes a dynamic box`, async () => {
      const t = await makeScene(kind);
      ground(t);
      const box = staticBox(t, "crate", new Vector3(1, 1, 1), new Vector3(2, 0.5, 0), undefined, "dynamic", 10);
      const cc = new PhysicsCharacterController(new Vector3(0, REST_Y + 0.05, 0), { capsuleHeight: 1.8, capsuleRadius: 0.4 }, t.scene);
      cc.characterMass = 80;
      for (let i = 0; i < 20; i++) frame(t, cc, Vector3.Zero());
      const bx0 = box.transformNode.position.x;
      for (let i = 0; i < 180; i++) frame(t, cc, new Vector3(2, 0, 0));
      const bx = box.transformNode.position.x,
        x = cc.getPosition().x;
      log("push", kind, `box moved ${(bx - bx0).toFixed(3)} m, character at x=${x.toFixed(3)}`);
      expect(bx - bx0).toBeGreaterThan(1);
      expect(x).toBeGreaterThan(2.5);
      expect(bx - x).toBeGreaterThan(0.5 + 0.4 - 0.2);
      cc.dispose();
      t.dispose();
    });
  }
  it("report", () => {
    for (const [k, v] of Object.entries(report)) console.log(k + "\n  " + v.join("\n  "));
  });
});
