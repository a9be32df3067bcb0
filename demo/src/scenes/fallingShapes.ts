/**
 * A few hundred spheres, boxes, capsules and cylinders of four materials dropped onto a walled ground.
 */
import "@babylonjs/core/Meshes/instancedMesh.js"; // mesh.createInstance
import { StandardMaterial } from "@babylonjs/core/Materials/standardMaterial.js";
import { Color3 } from "@babylonjs/core/Maths/math.color.js";
import { Quaternion } from "@babylonjs/core/Maths/math.vector.js";
import type { AbstractMesh } from "@babylonjs/core/Meshes/abstractMesh.js";
import { CreateBox } from "@babylonjs/core/Meshes/Builders/boxBuilder.js";
import { CreateCapsule } from "@babylonjs/core/Meshes/Builders/capsuleBuilder.js";
import { CreateCylinder } from "@babylonjs/core/Meshes/Builders/cylinderBuilder.js";
import { CreateSphere } from "@babylonjs/core/Meshes/Builders/sphereBuilder.js";
import type { Mesh } from "@babylonjs/core/Meshes/mesh.js";
import { PhysicsShapeType } from "@babylonjs/core/Physics/v2/IPhysicsEnginePlugin.js";
import { PhysicsAggregate } from "@babylonjs/core/Physics/v2/physicsAggregate.js";
import type { Scene } from "@babylonjs/core/scene.js";
import { MATERIALS, renderMaterial } from "../materials";
import { seededRandom } from "../random";
import type { Stage } from "../stage";
import type { DemoScene, SceneContent, TrackedBody } from "./types";

export const BODY_COUNT = 300;
const GROUND_SIZE = 32;
const WALL_HEIGHT = 2.5;

interface ShapeKind {
  name: string;
  type: PhysicsShapeType;
  mesh(name: string, scene: Scene): Mesh;
}

// Sizes come from the meshes: PhysicsAggregate measures the mesh's bounding box, as in any Babylon scene.
const SHAPES: readonly ShapeKind[] = [
  { name: "sphere", type: PhysicsShapeType.SPHERE, mesh: (n, s) => CreateSphere(n, { diameter: 1, segments: 12 }, s) },
  { name: "box", type: PhysicsShapeType.BOX, mesh: (n, s) => CreateBox(n, { width: 1, height: 0.8, depth: 0.9 }, s) },
  { name: "capsule", type: PhysicsShapeType.CAPSULE, mesh: (n, s) => CreateCapsule(n, { radius: 0.3, height: 1.4, tessellation: 12, subdivisions: 1 }, s) },
  { name: "cylinder", type: PhysicsShapeType.CYLINDER, mesh: (n, s) => CreateCylinder(n, { diameter: 0.9, height: 0.8, tessellation: 18 }, s) },
];

function buildArena(stage: Stage): number {
  const { scene } = stage;
  const ground = CreateBox("ground", { width: GROUND_SIZE, height: 1, depth: GROUND_SIZE }, scene);
  ground.position.y = -0.5;
  const groundMat = new StandardMaterial("mat-ground", scene);
  groundMat.diffuseColor = new Color3(0.34, 0.37, 0.42);
  groundMat.specularColor = new Color3(0.05, 0.05, 0.05);
  ground.material = groundMat;
  ground.receiveShadows = true;
  new PhysicsAggregate(ground, PhysicsShapeType.BOX, { mass: 0, friction: 0.6, restitution: 0.2 }, scene);

  const wallMat = new StandardMaterial("mat-wall", scene);
  wallMat.diffuseColor = new Color3(0.55, 0.65, 0.8);
  wallMat.alpha = 0.22;
  const h = GROUND_SIZE / 2;
  const walls: [number, number, number, number][] = [
    [0, h + 0.25, GROUND_SIZE + 1, 0.5],
    [0, -h - 0.25, GROUND_SIZE + 1, 0.5],
    [h + 0.25, 0, 0.5, GROUND_SIZE],
    [-h - 0.25, 0, 0.5, GROUND_SIZE],
  ];
  walls.forEach(([x, z, w, d], i) => {
    const wall = CreateBox(`wall-${i}`, { width: w, height: WALL_HEIGHT, depth: d }, scene);
    wall.position.set(x, WALL_HEIGHT / 2, z);
    wall.material = wallMat;
    new PhysicsAggregate(wall, PhysicsShapeType.BOX, { mass: 0, friction: 0.3, restitution: 0.2 }, scene);
  });
  return 1 + walls.length;
}

function build(stage: Stage): SceneContent {
  const { scene } = stage;
  const statics = buildArena(stage);
  const random = seededRandom(7);
  const renderMats = MATERIALS.map((m) => renderMaterial(scene, m));

  // One source mesh per (shape, material); the first body of each pair is the source, the rest are instances.
  const sources = new Map<string, Mesh>();
  const meshFor = (kind: ShapeKind, matIndex: number, name: string): AbstractMesh => {
    const key = `${kind.name}/${matIndex}`;
    const source = sources.get(key);
    if (source) return source.createInstance(name);
    const mesh = kind.mesh(name, scene);
    mesh.material = renderMats[matIndex];
    sources.set(key, mesh);
    return mesh;
  };

  // A column of layers, 6 x 6 bodies each, spaced so nothing overlaps at the start.
  const perRow = 6;
  const spacing = 1.75;
  const bodies: TrackedBody[] = [];
  for (let i = 0; i < BODY_COUNT; i++) {
    const layer = Math.floor(i / (perRow * perRow));
    const col = i % perRow;
    const row = Math.floor(i / perRow) % perRow;
    const kind = SHAPES[Math.floor(random() * SHAPES.length)];
    const matIndex = Math.floor(random() * MATERIALS.length);
    const preset = MATERIALS[matIndex];
    const name = `${kind.name}-${preset.name}-${i}`;

    const mesh = meshFor(kind, matIndex, name);
    // Every caster is listed (instances too), so the light's shadow frustum fits all of them. Only the ground
    // receives shadows: no self-shadowing acne on the small curved bodies.
    stage.addShadows(mesh);
    mesh.position.set(
      (col - (perRow - 1) / 2) * spacing + (random() - 0.5) * 0.3,
      3 + layer * 1.8 + (random() - 0.5) * 0.3,
      (row - (perRow - 1) / 2) * spacing + (random() - 0.5) * 0.3,
    );
    mesh.rotationQuaternion = Quaternion.RotationYawPitchRoll(random() * Math.PI * 2, random() * Math.PI, random() * Math.PI);

    const aggregate = new PhysicsAggregate(
      mesh,
      kind.type,
      { mass: preset.mass, friction: preset.friction, restitution: preset.restitution },
      scene,
    );
    bodies.push({ name, shape: kind.name, material: preset.name, mesh, aggregate, start: mesh.position.clone() });
  }

  const limit = GROUND_SIZE / 2 + 0.5; // the walls' outer faces
  return {
    bodies,
    created: statics + bodies.length,
    groundTop: 0,
    // Below the ground or outside the walls.
    through: () => bodies.filter((b) => b.mesh.position.y < -0.3 || Math.abs(b.mesh.position.x) > limit || Math.abs(b.mesh.position.z) > limit).length,
  };
}

export const fallingShapes: DemoScene = {
  legend: true,
  id: "falling-shapes",
  title: "Falling shapes",
  caption: `${BODY_COUNT} spheres, boxes, capsules and cylinders in rubber (bouncy), ice (slippery), wood and steel.`,
  build,
};
