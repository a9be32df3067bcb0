/**
 * Materials: a restitution ladder (six balls from 0 to 0.95 dropped from the same height) and a friction
 * ramp (six blocks from 0 to 0.8 on a 20 degree slope, tan 20° = 0.36: the first four slide, the rest stick).
 */
import { Quaternion, Vector3 } from "@babylonjs/core/Maths/math.vector.js";
import { CreateSphere } from "@babylonjs/core/Meshes/Builders/sphereBuilder.js";
import { PhysicsShapeType } from "@babylonjs/core/Physics/v2/IPhysicsEnginePlugin.js";
import { PhysicsAggregate } from "@babylonjs/core/Physics/v2/physicsAggregate.js";
import type { Stage } from "../stage";
import { box, colorMaterial, ground, track } from "./common";
import type { DemoScene, SceneContent, TrackedBody } from "./types";

const RESTITUTION = [0, 0.2, 0.4, 0.6, 0.8, 0.95];
const FRICTION = [0, 0.1, 0.2, 0.3, 0.5, 0.8];
const DROP_HEIGHT = 6;
const RAMP_ANGLE = (20 * Math.PI) / 180;
const RAMP_CENTER = new Vector3(3, 2.4, 2.5);
const RAMP_LENGTH = 14;
/** Cold to warm, low to high value. */
const SCALE = ["#4f9dde", "#5cb5c9", "#6bbf59", "#e9d758", "#f3a712", "#e4572e"];

interface Ball {
  body: TrackedBody;
  restitution: number;
  phase: 0 | 1 | 2;
  apex: number;
}

function build(stage: Stage): SceneContent {
  const { scene } = stage;
  ground(stage, 40, 30, 0);
  const bodies: TrackedBody[] = [];

  // Restitution ladder along x at z = -5.
  const balls: Ball[] = RESTITUTION.map((e, i) => {
    const mesh = CreateSphere(`ball-e${e}`, { diameter: 0.8, segments: 16 }, scene);
    mesh.position.set(-9 + i * 1.6, DROP_HEIGHT, -5);
    mesh.material = colorMaterial(scene, SCALE[i], 1, 0.4);
    stage.addShadows(mesh);
    const aggregate = new PhysicsAggregate(mesh, PhysicsShapeType.SPHERE, { mass: 1, friction: 0.5, restitution: e }, scene);
    return { body: track(bodies, mesh, aggregate, "sphere", `restitution ${e}`), restitution: e, phase: 0, apex: NaN };
  });
  // A back board with a height scale, to read the bounces against.
  box(stage, { name: "board", size: [10.4, DROP_HEIGHT + 0.6, 0.2], position: [-5, (DROP_HEIGHT + 0.6) / 2, -5.8], color: "#2b313b", receive: true });
  for (let h = 1; h <= DROP_HEIGHT; h++) {
    box(stage, { name: `mark-${h}`, size: [10.4, 0.04, 0.05], position: [-5, h, -5.68], color: "#7d8796", cast: false });
  }

  // Friction ramp: top at -x, bottom at +x.
  const tilt = Quaternion.RotationAxis(Vector3.Forward(), -RAMP_ANGLE);
  box(stage, { name: "ramp", size: [RAMP_LENGTH, 0.4, 6], position: [RAMP_CENTER.x, RAMP_CENTER.y, RAMP_CENTER.z], rotation: tilt, color: "#4a5361", receive: true, friction: 1, restitution: 0 });
  const blocks = FRICTION.map((f, i) => {
    const local = new Vector3(-RAMP_LENGTH / 2 + 1, 0.2 + 0.4 + 0.02, -2.5 + i);
    const world = local.applyRotationQuaternion(tilt).add(RAMP_CENTER);
    const { mesh, aggregate } = box(stage, { name: `block-f${f}`, size: [0.8, 0.8, 0.8], position: [world.x, world.y, world.z], rotation: tilt, color: SCALE[i], mass: 1, friction: f, restitution: 0 });
    return { body: track(bodies, mesh, aggregate, "box", `friction ${f}`), friction: f };
  });

  const afterStep = () => {
    for (const b of balls) {
      const vy = b.body.aggregate.body.getLinearVelocity().y;
      const y = b.body.mesh.position.y;
      if (b.phase === 0 && vy > 0.05) b.phase = 1;
      if (b.phase === 1) {
        b.apex = Number.isNaN(b.apex) ? y : Math.max(b.apex, y);
        if (vy < -0.05) b.phase = 2;
      }
    }
  };

  return {
    bodies,
    created: bodies.length + 3 + DROP_HEIGHT,
    groundTop: 0,
    afterStep,
    status: () =>
      "first bounce: " + balls.map((b) => `e ${b.restitution}: ${Number.isNaN(b.apex) ? "–" : (b.apex - 0.4).toFixed(2)} m`).join(" · "),
    probe: () => ({
      balls: balls.map((b) => ({ restitution: b.restitution, apex: Number.isNaN(b.apex) ? b.body.mesh.position.y : b.apex, y: b.body.mesh.position.y })),
      blocks: blocks.map((b) => ({ friction: b.friction, slid: b.body.mesh.position.subtract(b.body.start).length() })),
    }),
  };
}

export const materialsScene: DemoScene = {
  id: "materials",
  title: "Materials",
  caption: "Restitution ladder: balls with restitution 0 to 0.95 dropped from 6 m bounce back to e² of it. Friction ramp: blocks with friction 0 to 0.8 on a 20° slope; below tan 20° = 0.36 they slide.",
  view: { alpha: -1.25, beta: 1.2, radius: 26, target: new Vector3(-1.5, 2.5, -1) },
  build,
};
