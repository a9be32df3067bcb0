/** What a demo scene is and what it hands back, so the page (its picker, controls and test hook) can drive any scene. */
import type { AbstractMesh } from "@babylonjs/core/Meshes/abstractMesh.js";
import type { Vector3 } from "@babylonjs/core/Maths/math.vector.js";
import type { PhysicsAggregate } from "@babylonjs/core/Physics/v2/physicsAggregate.js";
import type { PhysicsConstraint } from "@babylonjs/core/Physics/v2/physicsConstraint.js";
import type { CameraView, Stage } from "../stage";

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

/** A scene-specific control shown under the page's buttons. */
export type SceneControl =
  | {
      kind: "slider";
      id: string;
      label: string;
      min: number;
      max: number;
      step: number;
      value: number;
      /** Text shown next to the slider. */
      format?(value: number): string;
      onInput(value: number): void;
    }
  | {
      /** A segmented toggle: one of `options` is selected. */
      kind: "choice";
      id: string;
      label: string;
      options: readonly string[];
      value: string;
      onChange(value: string): void;
    };

export interface SceneContent {
  /** The dynamic bodies the hook reports (may be empty for scenes that report through probe()). */
  bodies: TrackedBody[];
  /** Number of physics bodies created in all (dynamic and static) when the scene was built. */
  created: number;
  /** World y of the ground's top face. */
  groundTop: number;
  /** Extra controls for this scene. */
  controls?: SceneControl[];
  /** Constraints to draw in the physics viewer. */
  constraints?: PhysicsConstraint[];
  /** Runs before every physics step (`dt`: the step's simulated seconds). */
  beforeStep?(dt: number): void;
  /** Runs after every physics step. */
  afterStep?(dt: number): void;
  /** Runs before every rendered frame (drawing of queries etc.). */
  frame?(): void;
  /** Scene-specific numbers for the test hook (window.__continuum.probe()). */
  probe?(): Record<string, unknown>;
  /** One extra line under the caption (live scene-specific status), refreshed with the stats. */
  status?(): string;
  /**
   * Bodies that passed through something they should not have (shots past a wall, bodies under the
   * terrain or the ground): the split view shows it under each engine's side.
   */
  through?(): number;
}

export interface DemoScene {
  id: string;
  title: string;
  /** One line: what the scene shows. */
  caption: string;
  /** Camera view when the scene is opened from the picker. */
  view?: CameraView;
  /** Show the rubber / ice / wood / steel colour legend. */
  legend?: boolean;
  build(stage: Stage): SceneContent;
}
