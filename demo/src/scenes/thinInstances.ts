/** Thin instances: 2,000 boxes drawn by one mesh with one PhysicsAggregate, one engine body per instance. */
import "@babylonjs/core/Meshes/thinInstanceMesh.js"; // mesh.thinInstance*
import { Color4 } from "@babylonjs/core/Maths/math.color.js";
import { Matrix, Quaternion, Vector3 } from "@babylonjs/core/Maths/math.vector.js";
import { CreateBox } from "@babylonjs/core/Meshes/Builders/boxBuilder.js";
import { PhysicsShapeType } from "@babylonjs/core/Physics/v2/IPhysicsEnginePlugin.js";
import { PhysicsAggregate } from "@babylonjs/core/Physics/v2/physicsAggregate.js";
import { seededRandom } from "../random";
import type { Stage } from "../stage";
import { box, ccdControl, colorMaterial, ground, PALETTE } from "./common";
import type { DemoScene, SceneContent } from "./types";

export const INSTANCE_COUNT = 2000;
const SIDE = 10;
const ARENA = 16;

function build(stage: Stage): SceneContent {
  const { scene, physics } = stage;
  ground(stage, ARENA + 8, ARENA + 8);
  for (let i = 0; i < 4; i++) {
    const along = i < 2;
    const s = i % 2 ? 1 : -1;
    box(stage, {
      name: `rim-${i}`,
      size: along ? [ARENA + 1, 1.5, 0.5] : [0.5, 1.5, ARENA],
      position: along ? [0, 0.75, s * (ARENA / 2 + 0.25)] : [s * (ARENA / 2 + 0.25), 0.75, 0],
      color: PALETTE.wall,
      alpha: 0.35,
      cast: false,
    });
  }

  const mesh = CreateBox("thin-boxes", { size: 0.5 }, scene);
  mesh.material = colorMaterial(scene, "#ffffff", 1, 0.2);
  const random = seededRandom(11);
  const matrices = new Float32Array(16 * INSTANCE_COUNT);
  const colors = new Float32Array(4 * INSTANCE_COUNT);
  const palette = [PALETTE.red, PALETTE.orange, PALETTE.yellow, PALETTE.green, PALETTE.blue, PALETTE.violet].map((h) => Color4.FromHexString(h + "ff"));
  const startY: number[] = [];
  const m = new Matrix();
  for (let i = 0; i < INSTANCE_COUNT; i++) {
    const layer = Math.floor(i / (SIDE * SIDE));
    const x = ((i % SIDE) - (SIDE - 1) / 2) * 0.9 + (random() - 0.5) * 0.2;
    const z = (Math.floor(i / SIDE) % SIDE - (SIDE - 1) / 2) * 0.9 + (random() - 0.5) * 0.2;
    const y = 1 + layer * 0.8;
    startY.push(y);
    const q = Quaternion.RotationYawPitchRoll(random() * 6.3, random() * 6.3, random() * 6.3);
    Matrix.ComposeToRef(Vector3.OneReadOnly, q, new Vector3(x, y, z), m);
    m.copyToArray(matrices, i * 16);
    palette[layer % palette.length].toArray(colors, i * 4);
  }
  mesh.thinInstanceSetBuffer("matrix", matrices, 16, false);
  mesh.thinInstanceSetBuffer("color", colors, 4, true);
  stage.addShadows(mesh);
  const aggregate = new PhysicsAggregate(mesh, PhysicsShapeType.BOX, { mass: 1, friction: 0.5, restitution: 0.1 }, scene);

  const instanceYs = (): number[] => {
    const data = mesh.thinInstanceGetWorldMatrices();
    return data.map((w) => w.m[13]);
  };

  return {
    bodies: [],
    created: 5 + INSTANCE_COUNT,
    groundTop: 0,
    controls: [ccdControl(physics, "Continuous mode", () => [aggregate.body], "Passive")],
    probe: () => {
      const ys = instanceYs();
      let moved = 0;
      let below = 0;
      for (let i = 0; i < ys.length; i++) {
        if (Math.abs(ys[i] - startY[i]) > 0.3) moved++;
        if (ys[i] < 0.25 - 0.06) below++;
      }
      return { instances: ys.length, moved, below, minY: Math.min(...ys) };
    },
  };
}

export const thinInstances: DemoScene = {
  id: "thin-instances",
  title: "Thin instances",
  caption: `${INSTANCE_COUNT.toLocaleString("en")} boxes drawn as thin instances of one mesh, with one PhysicsAggregate: one engine body per instance, one draw call.`,
  view: { alpha: -1.1, beta: 0.95, radius: 34, target: new Vector3(-2, 1, 0) },
  build,
};
