/**
 * Constraints: a swinging chain (ball-and-socket), a motorized hinge paddle, a rope bridge (distance
 * constraints) and a ragdoll (ball-and-socket hips, shoulders, neck and spine, hinge knees and elbows) that
 * falls onto the bridge.
 */
import { Quaternion, Vector3 } from "@babylonjs/core/Maths/math.vector.js";
import type { Mesh } from "@babylonjs/core/Meshes/mesh.js";
import { CreateBox } from "@babylonjs/core/Meshes/Builders/boxBuilder.js";
import { CreateCapsule } from "@babylonjs/core/Meshes/Builders/capsuleBuilder.js";
import { CreateSphere } from "@babylonjs/core/Meshes/Builders/sphereBuilder.js";
import {
  PhysicsConstraintAxis,
  PhysicsConstraintMotorType,
  PhysicsConstraintType,
  PhysicsShapeType,
} from "@babylonjs/core/Physics/v2/IPhysicsEnginePlugin.js";
import { PhysicsAggregate } from "@babylonjs/core/Physics/v2/physicsAggregate.js";
import { BallAndSocketConstraint, HingeConstraint, PhysicsConstraint } from "@babylonjs/core/Physics/v2/physicsConstraint.js";
import type { Stage } from "../stage";
import { box, colorMaterial, ground, PALETTE, track } from "./common";
import type { DemoScene, SceneContent, TrackedBody } from "./types";

const CHAIN_LINKS = 12;
const LINK = 0.5;
const CHAIN_ANCHOR = new Vector3(-9, 8, -4);
const PLANKS = 12;
const PLANK_GAP = 0.1;
const BRIDGE_Y = 3.5;
const BRIDGE_X0 = 1;
const HINGE_AT = new Vector3(-7, 2.6, 5);
/** The planks' width across the bridge, and the ropes' offset from its centre line. */
const PLANK_D = 2.4;
const ROPE_Z = 1.05;
/** The planks' linear and angular damping: the bridge's sway dies out within seconds. */
const PLANK_DAMPING = 0.3;
/** The ragdoll's drop: its pelvis this far above the bridge. */
const DROP_H = 1.5;

function build(stage: Stage): SceneContent {
  const { scene } = stage;
  ground(stage, 44, 30);
  const bodies: TrackedBody[] = [];
  const constraints: PhysicsConstraint[] = [];
  let statics = 1;

  /** Joins a and b at body-local pivots `pa` and `pb`, about `axis` in both bodies' frames. */
  const link = (a: PhysicsAggregate, b: PhysicsAggregate, pa: Vector3, pb: Vector3, kind: "ball" | "hinge", axis = new Vector3(1, 0, 0)) => {
    const c = kind === "ball" ? new BallAndSocketConstraint(pa, pb, axis, axis, scene) : new HingeConstraint(pa, pb, axis, axis, scene);
    a.body.addConstraint(b.body, c);
    constraints.push(c);
    return c;
  };
  /** Joins a and b at the world point `at` (for bodies not rotated at start: world offsets are body-local). */
  const join = (a: PhysicsAggregate, b: PhysicsAggregate, at: Vector3, kind: "ball" | "hinge", axis?: Vector3) =>
    link(a, b, at.subtract(a.transformNode.position), at.subtract(b.transformNode.position), kind, axis);

  // --- Chain: links laid out horizontally from a fixed anchor, so it swings down.
  const anchor = box(stage, { name: "chain-anchor", size: [0.5, 0.5, 0.5], position: [CHAIN_ANCHOR.x, CHAIN_ANCHOR.y, CHAIN_ANCHOR.z], color: PALETTE.groundDark, cast: true });
  statics++;
  box(stage, { name: "chain-post", size: [0.3, CHAIN_ANCHOR.y, 0.3], position: [CHAIN_ANCHOR.x - 0.4, CHAIN_ANCHOR.y / 2, CHAIN_ANCHOR.z], color: PALETTE.groundDark, cast: true });
  statics++;
  let prev = anchor.aggregate;
  const chainLinks: PhysicsAggregate[] = [];
  for (let i = 0; i < CHAIN_LINKS; i++) {
    const x = CHAIN_ANCHOR.x + 0.25 + (i + 0.5) * LINK;
    const { mesh, aggregate } = box(stage, { name: `link-${i}`, size: [LINK - 0.04, 0.16, 0.16], position: [x, CHAIN_ANCHOR.y, CHAIN_ANCHOR.z], color: i % 2 ? PALETTE.steel : "#c7ced6", mass: 0.5 });
    track(bodies, mesh, aggregate, "box", "chain");
    join(prev, aggregate, new Vector3(x - LINK / 2, CHAIN_ANCHOR.y, CHAIN_ANCHOR.z), "ball");
    chainLinks.push(aggregate);
    prev = aggregate;
  }

  // --- Motorized hinge: a paddle turning about z on a fixed axle.
  const axle = box(stage, { name: "axle", size: [0.4, 0.4, 0.4], position: [HINGE_AT.x, HINGE_AT.y, HINGE_AT.z - 0.6], color: PALETTE.groundDark, cast: true });
  statics++;
  box(stage, { name: "axle-post", size: [0.3, HINGE_AT.y, 0.3], position: [HINGE_AT.x, HINGE_AT.y / 2 - 0.2, HINGE_AT.z - 0.8], color: PALETTE.groundDark, cast: true });
  statics++;
  const paddle = box(stage, { name: "paddle", size: [4, 0.3, 0.6], position: [HINGE_AT.x, HINGE_AT.y, HINGE_AT.z], color: PALETTE.blue, mass: 4, friction: 0.8 });
  track(bodies, paddle.mesh, paddle.aggregate, "box", "paddle");
  const motor = join(axle.aggregate, paddle.aggregate, HINGE_AT.clone(), "hinge", new Vector3(0, 0, 1));
  let motorSpeed = 2.5;
  // HingeConstraint has no motor methods of its own (only Physics6DoFConstraint does): ask the plugin, as Havok users do.
  const { plugin } = stage;
  plugin.setAxisMotorType(motor, PhysicsConstraintAxis.ANGULAR_X, PhysicsConstraintMotorType.VELOCITY);
  plugin.setAxisMotorTarget(motor, PhysicsConstraintAxis.ANGULAR_X, motorSpeed);
  plugin.setAxisMotorMaxForce(motor, PhysicsConstraintAxis.ANGULAR_X, 2000);
  for (let i = 0; i < 6; i++) {
    const { mesh, aggregate } = box(stage, { name: `crate-${i}`, size: [0.5, 0.5, 0.5], position: [HINGE_AT.x - 1.2 + (i % 3) * 1.2, 4.5 + Math.floor(i / 3) * 0.8, HINGE_AT.z], color: PALETTE.wood, mass: 0.3 });
    track(bodies, mesh, aggregate, "box", "crate");
  }

  // --- Rope bridge: planks hung on two ropes (distance constraints at both edges) between two posts.
  const plankW = 1;
  const span = PLANKS * plankW + (PLANKS + 1) * PLANK_GAP;
  const postL = box(stage, { name: "post-l", size: [0.6, BRIDGE_Y + 0.4, 2.4], position: [BRIDGE_X0 - 0.3, (BRIDGE_Y + 0.4) / 2, 0], color: PALETTE.groundDark, cast: true });
  const postR = box(stage, { name: "post-r", size: [0.6, BRIDGE_Y + 0.4, 2.4], position: [BRIDGE_X0 + span + 0.3, (BRIDGE_Y + 0.4) / 2, 0], color: PALETTE.groundDark, cast: true });
  statics += 2;
  const rope = (a: PhysicsAggregate, b: PhysicsAggregate, ax: number, bx: number) => {
    for (const z of [-ROPE_Z, ROPE_Z]) {
      const pa = new Vector3(ax, BRIDGE_Y, z).subtract(a.transformNode.position);
      const pb = new Vector3(bx, BRIDGE_Y, z).subtract(b.transformNode.position);
      const c = new PhysicsConstraint(PhysicsConstraintType.DISTANCE, { pivotA: pa, pivotB: pb, maxDistance: PLANK_GAP * 1.1 }, scene);
      a.body.addConstraint(b.body, c);
      constraints.push(c);
    }
  };
  let left = postL.aggregate;
  let leftEdge = BRIDGE_X0;
  const planks: PhysicsAggregate[] = [];
  for (let i = 0; i < PLANKS; i++) {
    const x0 = BRIDGE_X0 + PLANK_GAP + i * (plankW + PLANK_GAP);
    const { mesh, aggregate } = box(stage, { name: `plank-${i}`, size: [plankW, 0.12, PLANK_D], position: [x0 + plankW / 2, BRIDGE_Y, 0], color: i % 2 ? PALETTE.wood : "#c58c45", mass: 1.2, friction: 0.9 });
    track(bodies, mesh, aggregate, "box", "plank");
    aggregate.body.setLinearDamping(PLANK_DAMPING);
    aggregate.body.setAngularDamping(PLANK_DAMPING);
    rope(left, aggregate, leftEdge, x0);
    planks.push(aggregate);
    left = aggregate;
    leftEdge = x0 + plankW;
  }
  rope(left, postR.aggregate, leftEdge, BRIDGE_X0 + span);

  // --- Ragdoll, dropped lying on its back along the middle of the bridge, head toward +x, arms at its sides.
  // Its parts are laid out standing (offsets from the pelvis: y up, arms along x), then the whole layout is
  // turned by R, which takes y to x, x to z and z to y: every part gets R and the position origin + R offset, so
  // the joints' pivots and axes, taken in the standing layout, are the bodies' local ones.
  // Dropped standing from 4 m onto 1.8 m wide planks (as this scene did before), it was a knife edge: moved to 45
  // points within 0.35 m of the drop point, it was off the bridge by 3 s / 4 s in 7 / 12 drops on Continuum, 19 / 27
  // on Havok. Lying, from 1.5 m, onto 2.4 m wide damped planks: 0 / 0 on both, and none off by 8 s (Node, Babylon's
  // NullEngine at the page's 1/60 s steps).
  const R = new Quaternion(-0.5, -0.5, -0.5, 0.5);
  const skin = colorMaterial(scene, "#eef1f5", 1, 0.3);
  const origin = new Vector3(BRIDGE_X0 + span / 2, BRIDGE_Y + DROP_H, 0);
  const layout = new Map<PhysicsAggregate, Vector3>();
  const part = (name: string, mesh: Mesh, at: Vector3, type: PhysicsShapeType, mass: number) => {
    mesh.rotationQuaternion = R.clone();
    mesh.position.copyFrom(origin.add(at.applyRotationQuaternion(R)));
    mesh.material = skin;
    stage.addShadows(mesh);
    const aggregate = new PhysicsAggregate(mesh, type, { mass, friction: 0.8, restitution: 0.05 }, scene);
    track(bodies, mesh, aggregate, type === PhysicsShapeType.BOX ? "box" : type === PhysicsShapeType.SPHERE ? "sphere" : "capsule", "ragdoll");
    layout.set(aggregate, at);
    return aggregate;
  };
  const limb = (name: string, len: number, r: number, at: Vector3, mass: number) =>
    part(name, CreateCapsule(name, { radius: r, height: len, tessellation: 10, subdivisions: 1 }, scene), at, PhysicsShapeType.CAPSULE, mass);
  const boxPart = (name: string, w: number, h: number, d: number, at: Vector3, mass: number) =>
    part(name, CreateBox(name, { width: w, height: h, depth: d }, scene), at, PhysicsShapeType.BOX, mass);
  const pelvis = boxPart("pelvis", 0.5, 0.3, 0.3, new Vector3(0, 0, 0), 3);
  const torso = boxPart("torso", 0.56, 0.62, 0.32, new Vector3(0, 0.5, 0), 5);
  const head = part("head", CreateSphere("head", { diameter: 0.36, segments: 12 }, scene), new Vector3(0, 1.05, 0), PhysicsShapeType.SPHERE, 1.5);
  /** Joins a and b at `off` from a's place in the standing layout. */
  const joint = (a: PhysicsAggregate, b: PhysicsAggregate, off: Vector3, kind: "ball" | "hinge") => {
    const at = layout.get(a)!.add(off);
    link(a, b, off, at.subtract(layout.get(b)!), kind);
  };
  joint(pelvis, torso, new Vector3(0, 0.17, 0), "ball");
  joint(torso, head, new Vector3(0, 0.36, 0), "ball");
  for (const s of [-1, 1]) {
    const upperArm = limb(`upper-arm-${s}`, 0.42, 0.08, new Vector3(s * 0.4, 0.55, 0), 1);
    const foreArm = limb(`fore-arm-${s}`, 0.4, 0.07, new Vector3(s * 0.4, 0.12, 0), 0.8);
    joint(torso, upperArm, new Vector3(s * 0.32, 0.27, 0), "ball");
    joint(upperArm, foreArm, new Vector3(0, -0.21, 0), "hinge");
    const thigh = limb(`thigh-${s}`, 0.5, 0.1, new Vector3(s * 0.15, -0.43, 0), 2);
    const shin = limb(`shin-${s}`, 0.48, 0.09, new Vector3(s * 0.15, -0.93, 0), 1.5);
    joint(pelvis, thigh, new Vector3(s * 0.15, -0.17, 0), "ball");
    joint(thigh, shin, new Vector3(0, -0.25, 0), "hinge");
  }

  const startHeight = pelvis.transformNode.position.y;
  return {
    bodies,
    created: statics + bodies.length,
    groundTop: 0,
    constraints,
    controls: [
      {
        kind: "slider",
        id: "motor",
        label: "Motor",
        min: -6,
        max: 6,
        step: 0.5,
        value: motorSpeed,
        format: (v) => `${v} rad/s`,
        onInput: (v) => {
          motorSpeed = v;
          plugin.setAxisMotorTarget(motor, PhysicsConstraintAxis.ANGULAR_X, v);
        },
      },
    ],
    probe: () => {
      // Largest gap between consecutive chain links' shared ends (0 when the joints hold).
      let chainGap = 0;
      const end = (a: PhysicsAggregate, s: number) => Vector3.TransformCoordinates(new Vector3((s * LINK) / 2, 0, 0), a.transformNode.getWorldMatrix());
      for (let i = 1; i < chainLinks.length; i++) chainGap = Math.max(chainGap, Vector3.Distance(end(chainLinks[i - 1], 1), end(chainLinks[i], -1)));
      const tip = chainLinks[chainLinks.length - 1].transformNode.position;
      const plankYs = planks.map((p) => p.transformNode.position.y);
      return {
        chainGap,
        chainTipY: tip.y,
        chainTipDistance: Vector3.Distance(tip, CHAIN_ANCHOR),
        paddleSpin: paddle.aggregate.body.getAngularVelocity().z,
        motorSpeed,
        bridgeMinY: Math.min(...plankYs),
        bridgeMaxY: Math.max(...plankYs),
        ragdollDrop: startHeight - pelvis.transformNode.position.y,
        ragdollY: pelvis.transformNode.position.y,
        constraints: constraints.length,
      };
    },
  };
}

export const constraintsScene: DemoScene = {
  id: "constraints",
  title: "Constraints",
  caption: "A chain of ball-and-socket joints swings from its anchor, a velocity motor turns a hinge paddle, and a ragdoll (ball-and-socket and hinge joints) drops onto a rope bridge of distance constraints.",
  view: { alpha: -1.42, beta: 0.92, radius: 29, target: new Vector3(-1.5, 2, 0) },
  build,
};
