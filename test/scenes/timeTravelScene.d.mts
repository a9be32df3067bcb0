import type { Mesh, PhysicsBody, Scene, Physics6DoFConstraint } from "@babylonjs/core";

/** The time-travel scene (timeTravelScene.mjs). */
export interface TimeTravelScene {
  scene: Scene;
  plugin: any;
  dynamic: PhysicsBody[];
  bullets: PhysicsBody[];
  hinge: Physics6DoFConstraint;
  /** A mesh with four thin instances and their instanced body. */
  crates: Mesh;
  cratesBody: PhysicsBody;
  readonly triggerEvents: number;
  /** The next step index. */
  stepIndex: number;
  inputs(i: number): void;
  /** Applies the inputs of the current step index, steps 1/60 s, returns the plugin's state hash. */
  step(): number;
}

/** Builds the scene on `engine` from the Babylon namespace `B` and the Continuum namespace `C`. */
export declare function buildTimeTravelScene(B: unknown, C: unknown, engine: unknown): TimeTravelScene;
