/**
 * Terrain: rolling hills as a heightfield (PhysicsShapeGroundMesh over a Babylon ground mesh) on the left,
 * a triangle-mesh valley with a torus in it (PhysicsShapeType.MESH) on the right; spheres, boxes and
 * capsules rain onto both.
 */
import { Vector3 } from "@babylonjs/core/Maths/math.vector.js";
import { VertexBuffer } from "@babylonjs/core/Buffers/buffer.js";
import { VertexData } from "@babylonjs/core/Meshes/mesh.vertexData.js";
import type { Mesh } from "@babylonjs/core/Meshes/mesh.js";
import { CreateBox } from "@babylonjs/core/Meshes/Builders/boxBuilder.js";
import { CreateCapsule } from "@babylonjs/core/Meshes/Builders/capsuleBuilder.js";
import { CreateGround } from "@babylonjs/core/Meshes/Builders/groundBuilder.js";
import { CreateSphere } from "@babylonjs/core/Meshes/Builders/sphereBuilder.js";
import { CreateTorus } from "@babylonjs/core/Meshes/Builders/torusBuilder.js";
import { PhysicsMotionType, PhysicsShapeType } from "@babylonjs/core/Physics/v2/IPhysicsEnginePlugin.js";
import { PhysicsAggregate } from "@babylonjs/core/Physics/v2/physicsAggregate.js";
import { PhysicsBody } from "@babylonjs/core/Physics/v2/physicsBody.js";
import { PhysicsShapeGroundMesh } from "@babylonjs/core/Physics/v2/physicsShape.js";
import { seededRandom } from "../random";
import type { Stage } from "../stage";
import { box, colorMaterial, PALETTE, track } from "./common";
import type { DemoScene, SceneContent, TrackedBody } from "./types";

const SIZE = 22;
const HF_X = -11.5;
const MESH_X = 11.5;
/** Hills (heightfield), in the heightfield's local x, z. */
export const hills = (x: number, z: number) => 1.4 * Math.sin(x * 0.45) * Math.cos(z * 0.38) + 0.6 * Math.sin(z * 0.9 + x * 0.2) + 1.8;
/** A valley (triangle mesh), local x, z. */
export const valley = (x: number, z: number) => 0.018 * (x * x + z * z) * (1 + 0.15 * Math.sin(x * 0.8)) + 0.3;

function shapedGround(stage: Stage, name: string, x: number, f: (x: number, z: number) => number, color: string): Mesh {
  const g = CreateGround(name, { width: SIZE, height: SIZE, subdivisions: 44, updatable: true }, stage.scene);
  const pos = g.getVerticesData(VertexBuffer.PositionKind)!;
  for (let i = 0; i < pos.length; i += 3) pos[i + 1] = f(pos[i], pos[i + 2]);
  g.updateVerticesData(VertexBuffer.PositionKind, pos);
  const normals: number[] = [];
  VertexData.ComputeNormals(pos, g.getIndices()!, normals);
  g.updateVerticesData(VertexBuffer.NormalKind, normals);
  g.refreshBoundingInfo();
  g.position.x = x;
  g.material = colorMaterial(stage.scene, color, 1, 0.05);
  g.receiveShadows = true;
  return g;
}

function build(stage: Stage): SceneContent {
  const { scene } = stage;
  const bodies: TrackedBody[] = [];

  // A floor under both, for whatever rolls off an edge.
  box(stage, { name: "floor", size: [2 * SIZE + 16, 1, SIZE + 14], position: [0, -0.8, 0], color: PALETTE.groundDark, receive: true });

  const hf = shapedGround(stage, "heightfield", HF_X, hills, "#5d7a55");
  const hfBody = new PhysicsBody(hf, PhysicsMotionType.STATIC, false, scene);
  hfBody.shape = new PhysicsShapeGroundMesh(hf as never, scene);

  const valleyMesh = shapedGround(stage, "valley", MESH_X, valley, "#6b6257");
  new PhysicsAggregate(valleyMesh, PhysicsShapeType.MESH, { mass: 0, friction: 0.6 }, scene);
  const torus = CreateTorus("torus", { diameter: 6, thickness: 1.2, tessellation: 32 }, scene);
  torus.position.set(MESH_X, valley(0, 0) + 0.9, 0);
  torus.rotation.x = 0.35;
  torus.material = colorMaterial(scene, PALETTE.violet, 1, 0.3);
  stage.addShadows(torus, true);
  new PhysicsAggregate(torus, PhysicsShapeType.MESH, { mass: 0, friction: 0.5 }, scene);

  const random = seededRandom(5);
  const colors = [PALETTE.red, PALETTE.orange, PALETTE.yellow, PALETTE.blue, "#e8ebf0"];
  const N = 64;
  for (let i = 0; i < N; i++) {
    const onHills = i % 2 === 0;
    const lx = (random() - 0.5) * (SIZE - 4);
    const lz = (random() - 0.5) * (SIZE - 4);
    const x = (onHills ? HF_X : MESH_X) + lx;
    const y = (onHills ? hills(lx, lz) : valley(lx, lz)) + 3 + random() * 6;
    const kind = i % 3;
    const name = `${onHills ? "hf" : "mesh"}-${i}`;
    const mesh =
      kind === 0
        ? CreateSphere(name, { diameter: 0.8, segments: 10 }, scene)
        : kind === 1
          ? CreateBox(name, { width: 0.8, height: 0.6, depth: 0.7 }, scene)
          : CreateCapsule(name, { radius: 0.25, height: 1.1, tessellation: 10, subdivisions: 1 }, scene);
    mesh.position.set(x, y, lz);
    mesh.rotation.set(random() * 3, random() * 3, 0);
    mesh.material = colorMaterial(scene, colors[i % colors.length], 1, 0.3);
    stage.addShadows(mesh);
    const type = [PhysicsShapeType.SPHERE, PhysicsShapeType.BOX, PhysicsShapeType.CAPSULE][kind];
    const aggregate = new PhysicsAggregate(mesh, type, { mass: 1, friction: 0.5, restitution: 0.2 }, scene);
    track(bodies, mesh, aggregate, ["sphere", "box", "capsule"][kind], onHills ? "heightfield" : "mesh");
  }

  // Height of each body's centre above the surface under it (negative: it went through).
  const clearance = () =>
    bodies.map((b) => {
      const p = b.mesh.position;
      const onHills = b.material === "heightfield";
      const lx = p.x - (onHills ? HF_X : MESH_X);
      const inside = Math.abs(lx) < SIZE / 2 && Math.abs(p.z) < SIZE / 2;
      return { name: b.name, surface: b.material, inside, clearance: inside ? p.y - (onHills ? hills(lx, p.z) : valley(lx, p.z)) : p.y };
    });
  return {
    bodies,
    created: 4 + N,
    groundTop: -Infinity,
    // Centre under the surface (inside the terrain's square), or under the floor (its top is at -0.3).
    through: () => clearance().filter((c) => (c.inside && c.clearance < 0) || (!c.inside && c.clearance < -0.3)).length,
    probe: () => ({ clearance: clearance() }),
  };
}

export const terrain: DemoScene = {
  id: "terrain",
  title: "Terrain",
  caption: "Left: rolling hills as a heightfield (PhysicsShapeGroundMesh). Right: a triangle-mesh valley and torus (PhysicsShapeType.MESH). Spheres, boxes and capsules rain onto both.",
  view: { alpha: -1.57, beta: 0.95, radius: 40, target: new Vector3(-2, 1, 0) },
  build,
};
