/**
 * The stage every demo scene is built on: a Babylon scene with Continuum or Havok as its physics engine, an
 * orbit camera, a hemispheric fill light and a shadow-casting directional light.
 */
import "@babylonjs/core/Physics/joinedPhysicsEngineComponent.js"; // scene.enablePhysics and the physics observables
import "@babylonjs/core/Lights/Shadows/shadowGeneratorSceneComponent.js"; // shadow maps rendered by the scene
import { ArcRotateCamera } from "@babylonjs/core/Cameras/arcRotateCamera.js";
import type { AbstractEngine } from "@babylonjs/core/Engines/abstractEngine.js";
import { DirectionalLight } from "@babylonjs/core/Lights/directionalLight.js";
import { HemisphericLight } from "@babylonjs/core/Lights/hemisphericLight.js";
import { ShadowGenerator } from "@babylonjs/core/Lights/Shadows/shadowGenerator.js";
import { Color3, Color4 } from "@babylonjs/core/Maths/math.color.js";
import { Vector3 } from "@babylonjs/core/Maths/math.vector.js";
import type { AbstractMesh } from "@babylonjs/core/Meshes/abstractMesh.js";
import { Scene } from "@babylonjs/core/scene.js";
import { createPhysics, type PhysicsCaps, type ScenePlugin } from "./engines";

export interface Stage {
  scene: Scene;
  /** The plugin (ContinuumPlugin or HavokPlugin): scenes use only Babylon's V2 API on it, extras through `physics`. */
  plugin: ScenePlugin;
  /** The engine and Continuum's extras (skipped on Havok). */
  physics: PhysicsCaps;
  camera: ArcRotateCamera;
  shadows: ShadowGenerator;
  /** Draws `mesh` with shadows (casting and, if `receive`, receiving). */
  addShadows(mesh: AbstractMesh, receive?: boolean): void;
}

export interface CameraView {
  alpha: number;
  beta: number;
  radius: number;
  target: Vector3;
}

/** Looks down on the whole arena, shifted right of the overlay panel. */
export const DEFAULT_VIEW: CameraView = { alpha: -1.1, beta: 0.93, radius: 48, target: new Vector3(-3, 0, -1.5) };

/** `physics`: the scene's engine (default: a new Continuum plugin). */
export function createStage(engine: AbstractEngine, canvas: HTMLCanvasElement, view: CameraView = DEFAULT_VIEW, physics: PhysicsCaps = createPhysics("continuum")): Stage {
  const scene = new Scene(engine);
  scene.clearColor = new Color4(0.075, 0.085, 0.11, 1);
  scene.ambientColor = new Color3(0.1, 0.1, 0.1);

  const plugin = physics.plugin;
  scene.enablePhysics(new Vector3(0, -9.81, 0), plugin);

  const camera = new ArcRotateCamera("camera", view.alpha, view.beta, view.radius, view.target.clone(), scene);
  camera.lowerRadiusLimit = 4;
  camera.upperRadiusLimit = 120;
  camera.upperBetaLimit = Math.PI / 2 - 0.02;
  camera.wheelDeltaPercentage = 0.02;
  camera.panningSensibility = 60;
  camera.minZ = 0.1;
  camera.attachControl(canvas, true);

  const hemi = new HemisphericLight("fill", new Vector3(0, 1, 0), scene);
  hemi.intensity = 0.5;
  hemi.groundColor = new Color3(0.18, 0.18, 0.22);

  const sun = new DirectionalLight("sun", new Vector3(-0.45, -1, -0.3), scene);
  sun.position = new Vector3(18, 40, 12);
  sun.intensity = 1.0;
  // Fit the shadow map's depth range to the casters; with the camera's 0.1..10000 range the bias would be metres.
  sun.autoCalcShadowZBounds = true;

  const shadows = new ShadowGenerator(1024, sun);
  shadows.usePercentageCloserFiltering = true;
  shadows.filteringQuality = ShadowGenerator.QUALITY_LOW;
  shadows.bias = 0.0008;
  shadows.normalBias = 0.01;
  shadows.setDarkness(0.25);

  return {
    scene,
    plugin,
    physics,
    camera,
    shadows,
    addShadows(mesh, receive = false) {
      shadows.addShadowCaster(mesh, false);
      mesh.receiveShadows = receive;
    },
  };
}

/** The camera's current view, to keep it across a reset. */
export function cameraView(camera: ArcRotateCamera): CameraView {
  return { alpha: camera.alpha, beta: camera.beta, radius: camera.radius, target: camera.target.clone() };
}
