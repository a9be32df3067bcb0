/**
 * Material presets: the physical parameters given to PhysicsAggregate and the colour the body is drawn in.
 * Babylon's default combine modes apply (friction: minimum, restitution: maximum), so an ice body slides on
 * any surface and a rubber body bounces on any surface.
 */
import { Color3 } from "@babylonjs/core/Maths/math.color.js";
import { StandardMaterial } from "@babylonjs/core/Materials/standardMaterial.js";
import type { Scene } from "@babylonjs/core/scene.js";

export interface MaterialPreset {
  name: string;
  friction: number;
  restitution: number;
  /** Mass of a body of this material (kg); the shapes are all about a litre-ish in size. */
  mass: number;
  color: string;
}

export const MATERIALS: readonly MaterialPreset[] = [
  { name: "rubber", friction: 0.9, restitution: 0.8, mass: 1, color: "#e4572e" },
  { name: "ice", friction: 0.02, restitution: 0.05, mass: 1, color: "#8fd3fe" },
  { name: "wood", friction: 0.6, restitution: 0.2, mass: 0.7, color: "#d9a35b" },
  { name: "steel", friction: 0.35, restitution: 0.3, mass: 3, color: "#9aa5b1" },
];

/** One StandardMaterial per preset and scene. */
export function renderMaterial(scene: Scene, preset: MaterialPreset): StandardMaterial {
  const mat = new StandardMaterial(`mat-${preset.name}`, scene);
  mat.diffuseColor = Color3.FromHexString(preset.color);
  mat.specularColor = preset.name === "steel" || preset.name === "ice" ? new Color3(0.5, 0.5, 0.5) : new Color3(0.12, 0.12, 0.12);
  mat.specularPower = preset.name === "steel" ? 64 : 24;
  return mat;
}
