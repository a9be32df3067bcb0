/**
 * Babylon `PhysicsMaterial` <-> engine `SurfaceMaterial`. Both use Babylon's combine-mode numbering, and the
 * engine combines the two sides of a pair (the larger mode wins) and turns the result into a contact spring,
 * so the plugin only fills Havok's defaults and validates.
 */
import type { PhysicsMaterial } from "@babylonjs/core/Physics/v2/physicsMaterial.js";
import type { SurfaceMaterial, CombineMode } from "../src/world/descriptions";
import { enumValue, nonNegativeNumber } from "./validation";

const COMBINE_MODES = [0, 1, 2, 3, 4] as const;

/** Havok's fresh-shape material: friction 0.5/0.5, restitution 0, MINIMUM / MAXIMUM. */
export function defaultSurfaceMaterial(): SurfaceMaterial {
  return { friction: 0.5, staticFriction: 0.5, restitution: 0, frictionCombine: 1, restitutionCombine: 2 };
}

/**
 * Fills Havok's `setMaterial` defaults (`friction ?? 0.5`, `staticFriction ?? friction`, `restitution ?? 0`,
 * MINIMUM, MAXIMUM) and validates every field; throws before anything changes.
 */
export function toSurfaceMaterial(fn: string, m: PhysicsMaterial): SurfaceMaterial {
  if (m === null || typeof m !== "object") throw new TypeError(`${fn}: material must be a PhysicsMaterial object, got ${String(m)}`);
  const friction = m.friction ?? 0.5;
  nonNegativeNumber(fn, "material.friction", friction);
  const staticFriction = m.staticFriction ?? friction;
  nonNegativeNumber(fn, "material.staticFriction", staticFriction);
  const restitution = m.restitution ?? 0;
  nonNegativeNumber(fn, "material.restitution", restitution);
  const frictionCombine = enumValue(fn, "material.frictionCombine", m.frictionCombine ?? 1, COMBINE_MODES, "PhysicsMaterialCombineMode") as CombineMode;
  const restitutionCombine = enumValue(fn, "material.restitutionCombine", m.restitutionCombine ?? 2, COMBINE_MODES, "PhysicsMaterialCombineMode") as CombineMode;
  return { friction, staticFriction, restitution, frictionCombine, restitutionCombine };
}

/** A Babylon material object (a fresh copy) from a surface material. */
export function toPhysicsMaterial(s: SurfaceMaterial): PhysicsMaterial {
  return {
    friction: s.friction,
    staticFriction: s.staticFriction,
    restitution: s.restitution,
    frictionCombine: s.frictionCombine as number,
    restitutionCombine: s.restitutionCombine as number,
  };
}
