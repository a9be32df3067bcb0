/**
 * Stress: keeps adding bodies while a physics step stays inside its budget (8 ms: half of a 60 fps frame,
 * leaving the rest to rendering) and stops when it does not. The count it settles at is what this machine
 * runs at 60 fps.
 */
import "@babylonjs/core/Meshes/instancedMesh.js"; // mesh.createInstance
import { Vector3, Quaternion } from "@babylonjs/core/Maths/math.vector.js";
import type { Mesh } from "@babylonjs/core/Meshes/mesh.js";
import { CreateBox } from "@babylonjs/core/Meshes/Builders/boxBuilder.js";
import { CreateSphere } from "@babylonjs/core/Meshes/Builders/sphereBuilder.js";
import { PhysicsShapeType } from "@babylonjs/core/Physics/v2/IPhysicsEnginePlugin.js";
import { PhysicsAggregate } from "@babylonjs/core/Physics/v2/physicsAggregate.js";
import { seededRandom } from "../random";
import type { Stage } from "../stage";
import { box, colorMaterial, ground, PALETTE } from "./common";
import type { DemoScene, SceneContent } from "./types";

export const BUDGET_MS = 8;
const BATCH = 40;
/** Steps between batches, and the window the step time is averaged over. */
const EVERY = 20;
const MAX_BODIES = 6000;
const ARENA = 30;

function build(stage: Stage): SceneContent {
  const { scene } = stage;
  ground(stage, ARENA + 4, ARENA + 4);
  for (let i = 0; i < 4; i++) {
    const along = i < 2;
    const s = i % 2 ? 1 : -1;
    box(stage, {
      name: `rim-${i}`,
      size: along ? [ARENA + 1, 2, 0.5] : [0.5, 2, ARENA],
      position: along ? [0, 1, s * (ARENA / 2 + 0.25)] : [s * (ARENA / 2 + 0.25), 1, 0],
      color: PALETTE.wall,
      alpha: 0.3,
      cast: false,
    });
  }
  const random = seededRandom(99);
  const colors = [PALETTE.red, PALETTE.orange, PALETTE.yellow, PALETTE.green, PALETTE.blue, PALETTE.violet];
  const sources: Mesh[] = colors.flatMap((c, i) => {
    const b = CreateBox(`src-box-${i}`, { size: 0.7 }, scene);
    const s = CreateSphere(`src-sphere-${i}`, { diameter: 0.75, segments: 8 }, scene);
    for (const m of [b, s]) {
      m.material = colorMaterial(scene, c, 1, 0.2);
      m.setEnabled(false);
    }
    return [b, s];
  });

  let count = 0;
  let full = false;
  let window = 0;
  let windowSteps = 0;
  let lastMean = 0;
  let stepStart = 0;

  const spawn = () => {
    for (let i = 0; i < BATCH && count < MAX_BODIES; i++, count++) {
      const k = Math.floor(random() * sources.length);
      const mesh = sources[k].createInstance(`body-${count}`);
      mesh.position.set((random() - 0.5) * (ARENA - 3), 8 + random() * 6, (random() - 0.5) * (ARENA - 3));
      mesh.rotationQuaternion = Quaternion.RotationYawPitchRoll(random() * 6, random() * 6, 0);
      stage.addShadows(mesh);
      new PhysicsAggregate(mesh, k % 2 ? PhysicsShapeType.SPHERE : PhysicsShapeType.BOX, { mass: 1, friction: 0.5, restitution: 0.1 }, scene);
    }
  };
  spawn();

  return {
    bodies: [],
    created: 5 + count,
    groundTop: 0,
    beforeStep: () => {
      stepStart = performance.now();
    },
    afterStep: () => {
      window += performance.now() - stepStart;
      windowSteps++;
      if (windowSteps < EVERY) return;
      lastMean = window / windowSteps;
      window = 0;
      windowSteps = 0;
      if (lastMean < BUDGET_MS && count < MAX_BODIES) spawn();
      else full = true;
    },
    status: () => `${count} bodies · ${lastMean.toFixed(2)} ms/step of a ${BUDGET_MS} ms budget · ${full ? "at the limit" : "adding " + BATCH + " every " + EVERY + " steps"}`,
    probe: () => ({ count, full, meanMs: lastMean, budget: BUDGET_MS }),
  };
}

export const stress: DemoScene = {
  id: "stress",
  title: "Stress",
  caption: `Adds ${BATCH} bodies every ${EVERY} steps while a physics step takes under ${BUDGET_MS} ms (half a 60 fps frame) and stops at the limit: the count is what this machine simulates at 60 fps.`,
  view: { alpha: -1.1, beta: 0.9, radius: 44, target: new Vector3(-4, 0, 0) },
  build,
};
