/**
 * Character controller: Babylon's PhysicsCharacterController (through the plugin's Havok-shaped query
 * façade) walks a loop up a ramp, across a platform, down stairs and through a pile of crates. WASD / arrow
 * keys take over; it goes back to the loop when the keys are released.
 */
import { Vector3, Quaternion } from "@babylonjs/core/Maths/math.vector.js";
import { CreateCapsule } from "@babylonjs/core/Meshes/Builders/capsuleBuilder.js";
import { CreateSphere } from "@babylonjs/core/Meshes/Builders/sphereBuilder.js";
import { CharacterSupportedState, PhysicsCharacterController } from "@babylonjs/core/Physics/v2/characterController.js";
import type { Stage } from "../stage";
import { box, colorMaterial, ground, heldKeys, PALETTE, track } from "./common";
import type { DemoScene, SceneContent, TrackedBody } from "./types";

const G = new Vector3(0, -9.81, 0);
const DOWN = new Vector3(0, -1, 0);
const SPEED = 3.5;
const HEIGHT = 1.8;
const PLATFORM_TOP = 1.5;
const WAYPOINTS = [new Vector3(-7, 0, 1), new Vector3(-2.5, 0, 1), new Vector3(8, 0, 1), new Vector3(7, 0, -1.4), new Vector3(7, 0, -7), new Vector3(-7, 0, -7)];

function build(stage: Stage): SceneContent {
  const { scene, camera } = stage;
  ground(stage, 30, 26);
  const bodies: TrackedBody[] = [];
  let statics = 1;

  // Platform, ramp up to it, stairs down from it.
  box(stage, { name: "platform", size: [6, PLATFORM_TOP, 6], position: [7, PLATFORM_TOP / 2, 1], color: "#4a5361", receive: true, cast: true });
  const rampLen = Math.hypot(6.4, PLATFORM_TOP);
  const angle = Math.atan2(PLATFORM_TOP, 6.4);
  const tilt = Quaternion.RotationAxis(Vector3.Forward(), angle);
  const rampCenter = new Vector3(0.8, PLATFORM_TOP / 2, 1).add(new Vector3(0, -0.1, 0).applyRotationQuaternion(tilt));
  box(stage, { name: "ramp", size: [rampLen, 0.2, 4], position: [rampCenter.x, rampCenter.y, rampCenter.z], rotation: tilt, color: "#5a6474", receive: true, cast: true });
  statics += 2;
  for (let k = 0; k < 6; k++) {
    const top = PLATFORM_TOP - 0.25 * (k + 1);
    box(stage, { name: `step-${k}`, size: [4, top, 0.5], position: [7, top / 2, -2 - 0.25 - 0.5 * k], color: k % 2 ? "#5a6474" : "#4a5361", receive: true, cast: true });
    statics++;
  }
  // Crates to push.
  for (let i = 0; i < 9; i++) {
    const { mesh, aggregate } = box(stage, { name: `crate-${i}`, size: [0.7, 0.7, 0.7], position: [-7 + ((i % 3) - 1) * 0.8, 0.35 + Math.floor(i / 3) * 0.72, -3.2], color: PALETTE.wood, mass: 0.4, friction: 0.5 });
    track(bodies, mesh, aggregate, "box", "crate");
  }

  const start = new Vector3(-7, HEIGHT / 2 + 0.3, 1);
  const cc = new PhysicsCharacterController(start, { capsuleHeight: HEIGHT, capsuleRadius: 0.4 }, scene);
  const avatar = CreateCapsule("character", { height: HEIGHT, radius: 0.4, tessellation: 16, subdivisions: 1 }, scene);
  avatar.material = colorMaterial(scene, PALETTE.accent, 1, 0.3);
  stage.addShadows(avatar);
  const nose = CreateSphere("nose", { diameter: 0.25, segments: 8 }, scene);
  nose.parent = avatar;
  nose.position.set(0, 0.5, 0.38);
  nose.material = colorMaterial(scene, PALETTE.groundDark, 1, 0.3);
  avatar.position.copyFrom(start);

  const keys = heldKeys(scene, ["w", "a", "s", "d", "arrowup", "arrowdown", "arrowleft", "arrowright"]);

  let target = 1;
  let reached = 0;
  let walked = 0;
  let maxY = -Infinity;
  let minY = Infinity;
  let supportedSteps = 0;
  let stepCount = 0;
  let lastState = CharacterSupportedState.UNSUPPORTED;
  const desired = new Vector3();
  const last = start.clone();

  const beforeStep = (dt: number) => {
    const pos = cc.getPosition();
    if (keys.size) {
      // Camera-relative input.
      const fwd = camera.getForwardRay().direction;
      const f = new Vector3(fwd.x, 0, fwd.z).normalize();
      const r = new Vector3(f.z, 0, -f.x);
      desired.setAll(0);
      if (keys.has("w") || keys.has("arrowup")) desired.addInPlace(f);
      if (keys.has("s") || keys.has("arrowdown")) desired.subtractInPlace(f);
      if (keys.has("d") || keys.has("arrowright")) desired.addInPlace(r);
      if (keys.has("a") || keys.has("arrowleft")) desired.subtractInPlace(r);
    } else {
      const wp = WAYPOINTS[target];
      desired.set(wp.x - pos.x, 0, wp.z - pos.z);
      if (desired.length() < 0.5) {
        target = (target + 1) % WAYPOINTS.length;
        reached++;
      }
    }
    if (desired.lengthSquared() > 1e-6) desired.normalize().scaleInPlace(SPEED);

    const support = cc.checkSupport(dt, DOWN);
    lastState = support.supportedState;
    const v = cc.getVelocity().clone();
    if (support.supportedState === CharacterSupportedState.SUPPORTED) {
      v.copyFrom(desired).addInPlace(support.averageSurfaceVelocity);
      supportedSteps++;
    } else {
      v.x = desired.x;
      v.z = desired.z;
      v.addInPlace(G.scale(dt));
    }
    cc.setVelocity(v);
    cc.integrate(dt, support, G);
    stepCount++;

    const p = cc.getPosition();
    walked += Math.hypot(p.x - last.x, p.z - last.z);
    last.copyFrom(p);
    maxY = Math.max(maxY, p.y);
    minY = Math.min(minY, p.y);
    avatar.position.copyFrom(p);
    if (desired.lengthSquared() > 1e-6) avatar.rotation.y = Math.atan2(desired.x, desired.z);
  };

  return {
    bodies,
    created: statics + bodies.length + 1,
    groundTop: 0,
    beforeStep,
    status: () => `walked ${walked.toFixed(1)} m · ${["unsupported", "sliding", "supported"][lastState]} · feet at ${(cc.getPosition().y - HEIGHT / 2).toFixed(2)} m`,
    probe: () => ({
      walked,
      reached,
      /** Highest and lowest foot height. */
      maxFeet: maxY - HEIGHT / 2,
      minFeet: minY - HEIGHT / 2,
      supportedFraction: stepCount ? supportedSteps / stepCount : 0,
      cratesMoved: bodies.filter((b) => b.mesh.position.subtract(b.start).length() > 0.2).length,
      platformTop: PLATFORM_TOP,
    }),
  };
}

export const character: DemoScene = {
  id: "character",
  title: "Character controller",
  caption: "Babylon's PhysicsCharacterController on Continuum walks up a ramp, across a platform, down stairs and through crates (shape casts and proximity queries every step). WASD / arrows take over.",
  view: { alpha: -2.1, beta: 0.9, radius: 26, target: new Vector3(0, 0.5, -2) },
  build,
};
