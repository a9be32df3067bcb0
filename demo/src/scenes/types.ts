/** What a demo scene is and what it hands back, so the page (and later the scene picker) can drive any scene. */
import type { AbstractMesh } from "@babylonjs/core/Meshes/abstractMesh.js";
import type { Vector3 } from "@babylonjs/core/Maths/math.vector.js";
import type { PhysicsAggregate } from "@babylonjs/core/Physics/v2/physicsAggregate.js";
import type { Stage } from "../stage";

/** A dynamic body the page watches (the test hook reports on these). */
export interface TrackedBody {
  name: string;
  /** "sphere" | "box" | "capsule" | "cylinder" | ... */
  shape: string;
  material: string;
  mesh: AbstractMesh;
  aggregate: PhysicsAggregate;
  /** World position when created. */
  start: Vector3;
}

export interface SceneContent {
  /** The dynamic bodies. */
  bodies: TrackedBody[];
  /** Number of physics bodies created in all (dynamic and static). */
  created: number;
  /** World y of the ground's top face. */
  groundTop: number;
}

export interface DemoScene {
  id: string;
  title: string;
  /** One line: what the scene shows. */
  caption: string;
  build(stage: Stage): SceneContent;
}
