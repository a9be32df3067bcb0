/**
 * A glTF physics material with static friction 0.9 and dynamic friction 0.3 (issue 29, "tests the suite
 * lacks"): a box at rest on a 25 degree slope of the same material holds (tan 25 = 0.47 < 0.9), where the
 * dynamic coefficient alone (0.3) would let it slide. A loader that dropped the static friction let the box
 * slide 2.97 m, and every test let it through.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { AppendSceneAsync, type TransformNode } from "@babylonjs/core";
import "@babylonjs/loaders/glTF/index.js";
import { registerGltfPhysics } from "../../plugin/gltf/index";
import { KINDS, makeScene, type Kind } from "./helpers";

const DEG = Math.PI / 180;

/** The slope and the box, both of material `material`, as a glTF file (see gltfPhysics.test.ts). */
function doc(material: Record<string, unknown>): Record<string, unknown> {
  const th = 25 * DEG;
  const q = [0, 0, Math.sin(th / 2), Math.cos(th / 2)];
  // The slope is a 20 x 1 x 20 box turned 25 degrees about z; its top's normal is (-sin, cos, 0). The 0.6 m
  // box lies on it, turned alike, 1 mm above the surface.
  const d = 0.5 + 0.3 + 0.001;
  const rb = (ext: Record<string, unknown>) => ({ KHR_physics_rigid_bodies: ext });
  return {
    asset: { version: "2.0" },
    extensionsUsed: ["KHR_physics_rigid_bodies", "KHR_implicit_shapes"],
    extensions: {
      KHR_implicit_shapes: { shapes: [{ type: "box", box: { size: [20, 1, 20] } }, { type: "box", box: { size: [0.6, 0.6, 0.6] } }] },
      KHR_physics_rigid_bodies: { physicsMaterials: [material] },
    },
    scene: 0,
    scenes: [{ nodes: [0, 1] }],
    nodes: [
      { name: "slope", rotation: q, extensions: rb({ collider: { geometry: { shape: 0 }, physicsMaterial: 0 } }) },
      { name: "box", rotation: q, translation: [-Math.sin(th) * d, Math.cos(th) * d, 0], extensions: rb({ motion: { mass: 1 }, collider: { geometry: { shape: 1 }, physicsMaterial: 0 } }) },
    ],
  };
}

async function slide(kind: Kind, material: Record<string, unknown>): Promise<number> {
  const t = await makeScene(kind);
  await AppendSceneAsync("data:" + JSON.stringify(doc(material)), t.scene, { pluginExtension: ".gltf" });
  const box = t.scene.getNodeByName("box") as TransformNode;
  t.step(1);
  const start = box.absolutePosition.clone();
  t.step(120);
  const moved = box.absolutePosition.subtract(start).length();
  t.dispose();
  return moved;
}

beforeAll(() => registerGltfPhysics());

describe("glTF static friction", () => {
  for (const kind of KINDS) {
    it(`${kind}: static 0.9, dynamic 0.3: a box at rest on a 25 degree slope holds; dynamic 0.3 alone slides`, async () => {
      const held = await slide(kind, { staticFriction: 0.9, dynamicFriction: 0.3 });
      const slid = await slide(kind, { staticFriction: 0.3, dynamicFriction: 0.3 });
      console.log(`[measure] ${kind} moved in 2 s: static 0.9 / dynamic 0.3 ${(held * 1000).toFixed(2)} mm; 0.3 / 0.3 ${slid.toFixed(3)} m`);
      // Holding (measured 0.17 mm on Havok, 0.05 on Continuum): 5 mm over 2 s.
      expect(held).toBeLessThan(0.005);
      // Sliding at g (sin 25 - 0.3 cos 25) = 1.48 m/s^2 for 2 s: 2.96 m (measured 3.08 on both); 2.5 m bounds
      // it from a hold.
      expect(slid).toBeGreaterThan(2.5);
    });
  }
});
