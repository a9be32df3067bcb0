/** Building blocks shared by the demo scenes: coloured materials, static boxes, tracked dynamic bodies. */
import { StandardMaterial } from "@babylonjs/core/Materials/standardMaterial.js";
import { Color3 } from "@babylonjs/core/Maths/math.color.js";
import { Quaternion, Vector3 } from "@babylonjs/core/Maths/math.vector.js";
import type { AbstractMesh } from "@babylonjs/core/Meshes/abstractMesh.js";
import { CreateBox } from "@babylonjs/core/Meshes/Builders/boxBuilder.js";
import type { Mesh } from "@babylonjs/core/Meshes/mesh.js";
import type { PhysicsBody } from "@babylonjs/core/Physics/v2/physicsBody.js";
import { PhysicsShapeType } from "@babylonjs/core/Physics/v2/IPhysicsEnginePlugin.js";
import { PhysicsAggregate } from "@babylonjs/core/Physics/v2/physicsAggregate.js";
import type { Scene } from "@babylonjs/core/scene.js";
import { ContinuousDetection } from "../../../plugin/index";
import type { PhysicsCaps } from "../engines";
import type { Stage } from "../stage";
import type { SceneControl, TrackedBody } from "./types";

export const PALETTE = {
  ground: "#565e6b",
  groundDark: "#3f4652",
  wall: "#8ea6cc",
  accent: "#7fd1ae",
  red: "#e4572e",
  orange: "#f3a712",
  yellow: "#e9d758",
  green: "#6bbf59",
  blue: "#4f9dde",
  violet: "#9b72cf",
  wood: "#d9a35b",
  steel: "#9aa5b1",
};

/** A plain coloured material (cached per scene and colour). */
export function colorMaterial(scene: Scene, hex: string, alpha = 1, specular = 0.12): StandardMaterial {
  const name = `color-${hex}-${alpha}-${specular}`;
  const found = scene.getMaterialByName(name);
  if (found) return found as StandardMaterial;
  const mat = new StandardMaterial(name, scene);
  mat.diffuseColor = Color3.FromHexString(hex);
  mat.specularColor = new Color3(specular, specular, specular);
  mat.alpha = alpha;
  return mat;
}

export interface BoxOptions {
  name: string;
  size: [number, number, number];
  position: [number, number, number];
  rotation?: Quaternion;
  color?: string;
  alpha?: number;
  friction?: number;
  restitution?: number;
  /** 0: static. */
  mass?: number;
  /** Receives shadows (grounds, ramps). */
  receive?: boolean;
  /** Casts shadows (default: true for dynamic bodies). */
  cast?: boolean;
}

/** A box mesh with a box body. */
export function box(stage: Stage, o: BoxOptions): { mesh: Mesh; aggregate: PhysicsAggregate } {
  const mesh = CreateBox(o.name, { width: o.size[0], height: o.size[1], depth: o.size[2] }, stage.scene);
  mesh.position.set(...o.position);
  if (o.rotation) mesh.rotationQuaternion = o.rotation.clone();
  mesh.material = colorMaterial(stage.scene, o.color ?? PALETTE.ground, o.alpha ?? 1);
  const mass = o.mass ?? 0;
  if (o.cast ?? mass > 0) stage.addShadows(mesh, o.receive ?? false);
  else mesh.receiveShadows = o.receive ?? false;
  const aggregate = new PhysicsAggregate(mesh, PhysicsShapeType.BOX, { mass, friction: o.friction ?? 0.6, restitution: o.restitution ?? 0.1 }, stage.scene);
  return { mesh, aggregate };
}

/** A static ground slab whose top face is at y = `top`. */
export function ground(stage: Stage, width: number, depth: number, top = 0, color = PALETTE.ground, x = 0, z = 0): Mesh {
  return box(stage, { name: "ground", size: [width, 1, depth], position: [x, top - 0.5, z], color, receive: true, friction: 0.7, restitution: 0 }).mesh;
}

/** Tracks `mesh` (with its aggregate) for the test hook. */
export function track(list: TrackedBody[], mesh: AbstractMesh, aggregate: PhysicsAggregate, shape: string, material = "-"): TrackedBody {
  const body: TrackedBody = { name: mesh.name, shape, material, mesh, aggregate, start: mesh.getAbsolutePosition().clone() };
  list.push(body);
  return body;
}

export const CCD_MODES = ["Discrete", "Passive", "Continuous"] as const;
export type CcdMode = (typeof CCD_MODES)[number];

export function ccdValue(mode: CcdMode): ContinuousDetection {
  return mode === "Discrete" ? ContinuousDetection.discrete() : mode === "Passive" ? ContinuousDetection.passive() : ContinuousDetection.continuous();
}

/** Sets the continuous mode of every body (thin instances: all instances); Continuum only, skipped on Havok. */
export function setCcd(physics: PhysicsCaps, bodies: Iterable<PhysicsBody>, mode: CcdMode): void {
  const cd = ccdValue(mode);
  for (const b of bodies) physics.setContinuousDetection(b, cd);
}

/** A "continuous mode" toggle for a set of bodies. */
export function ccdControl(physics: PhysicsCaps, label: string, bodies: () => Iterable<PhysicsBody>, initial: CcdMode = "Passive"): SceneControl {
  return {
    kind: "choice",
    id: "ccd",
    label,
    options: CCD_MODES,
    value: initial,
    onChange: (v) => setCcd(physics, bodies(), v as CcdMode),
  };
}

export const v3 = (x: number, y: number, z: number) => new Vector3(x, y, z);

/** The keys of `watched` (lower-case `KeyboardEvent.key` values) held down now; the listeners go with the scene. */
export function heldKeys(scene: Scene, watched: readonly string[]): Set<string> {
  const keys = new Set<string>();
  const onKey = (e: KeyboardEvent) => {
    const k = e.key.toLowerCase();
    if (!watched.includes(k)) return;
    if (e.type === "keydown") keys.add(k);
    else keys.delete(k);
  };
  window.addEventListener("keydown", onKey);
  window.addEventListener("keyup", onKey);
  scene.onDisposeObservable.addOnce(() => {
    window.removeEventListener("keydown", onKey);
    window.removeEventListener("keyup", onKey);
  });
  return keys;
}
