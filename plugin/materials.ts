/**
 * Babylon `PhysicsMaterial` <-> engine `SurfaceMaterial`. Both use Babylon's combine-mode numbering, and the
 * engine combines the two sides of a pair (the larger mode wins) and turns the result into a contact spring,
 * so the plugin only fills Havok's defaults and validates.
 */
import type { PhysicsMaterial } from "@babylonjs/core/Physics/v2/physicsMaterial.js";
import type { CombineMode, SurfaceMaterial } from "../src/index";
import { enumValue, nonNegativeNumber } from "./validation";

const COMBINE_MODES = [0, 1, 2, 3, 4] as const;

/**
 * A Babylon `PhysicsMaterial` with ContinuumPlugin's extension: `rollingResistance`, the rolling resistance
 * coefficient (dimensionless, like a tyre's C_rr; default 0). Babylon's material has no such field and passes
 * the object it is given to the plugin unchanged, so `shape.material = { friction: 0.8, rollingResistance: 0.02 }`
 * works; HavokPlugin ignores the field. A contact resists the relative rolling of its bodies with a torque up
 * to this x its normal force x the rolling body's radius (a ball or wheel coasting on a level floor slows at
 * about this x g); a pair uses the larger of its two materials' values.
 */
export interface ContinuumPhysicsMaterial extends PhysicsMaterial {
  rollingResistance?: number;
}

/** Havok's fresh-shape material: friction 0.5/0.5, restitution 0, MINIMUM / MAXIMUM (and no rolling resistance). */
export function defaultSurfaceMaterial(): SurfaceMaterial {
  return { friction: 0.5, staticFriction: 0.5, restitution: 0, frictionCombine: 1, restitutionCombine: 2, rollingResistance: 0 };
}

/**
 * Fills Havok's `setMaterial` defaults (`friction ?? 0.5`, `staticFriction ?? friction`, `restitution ?? 0`,
 * MINIMUM, MAXIMUM) and validates every field; throws before anything changes.
 */
export function toSurfaceMaterial(fn: string, m: ContinuumPhysicsMaterial): SurfaceMaterial {
  if (m === null || typeof m !== "object") throw new TypeError(`${fn}: material must be a PhysicsMaterial object, got ${String(m)}`);
  const friction = m.friction ?? 0.5;
  nonNegativeNumber(fn, "material.friction", friction);
  const staticFriction = m.staticFriction ?? friction;
  nonNegativeNumber(fn, "material.staticFriction", staticFriction);
  const restitution = m.restitution ?? 0;
  nonNegativeNumber(fn, "material.restitution", restitution);
  const frictionCombine = enumValue(fn, "material.frictionCombine", m.frictionCombine ?? 1, COMBINE_MODES, "PhysicsMaterialCombineMode") as CombineMode;
  const restitutionCombine = enumValue(fn, "material.restitutionCombine", m.restitutionCombine ?? 2, COMBINE_MODES, "PhysicsMaterialCombineMode") as CombineMode;
  const rollingResistance = m.rollingResistance ?? 0;
  nonNegativeNumber(fn, "material.rollingResistance", rollingResistance);
  return { friction, staticFriction, restitution, frictionCombine, restitutionCombine, rollingResistance };
}

/** A Babylon material object (a fresh copy) from a surface material; `rollingResistance` only when set. */
export function toPhysicsMaterial(s: SurfaceMaterial): ContinuumPhysicsMaterial {
  const m: ContinuumPhysicsMaterial = {
    friction: s.friction,
    staticFriction: s.staticFriction,
    restitution: s.restitution,
    frictionCombine: s.frictionCombine as number,
    restitutionCombine: s.restitutionCombine as number,
  };
  if (s.rollingResistance > 0) m.rollingResistance = s.rollingResistance;
  return m;
}
