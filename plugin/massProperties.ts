/**
 * Mass properties: Babylon/Havok <-> engine.
 *
 * Babylon (Havok) inertia is principal moments *per unit mass*; the engine's is absolute (kg m^2). Both use
 * mass 0 = infinite mass and a 0 inertia component = infinite inertia about that axis; the two are
 * independent (mass 0 with inertia (0, 1, 0) turns about y only, with the inertia taken as absolute).
 *
 * Havok's rule (HK `_internalUpdateMassProperties`): the applied properties are the shape-computed ones with
 * each *defined* user field replacing the computed one, recomputed on every shape change. Since inertia is
 * per unit mass, setting only `mass` scales the total inertia with it. The plugin keeps the user overrides
 * (by reference, as Havok does) and always hands the engine a complete set, so the engine's own override
 * merging does not matter.
 */
import { Quaternion, Vector3 } from "@babylonjs/core/Maths/math.vector.js";
import type { PhysicsMassProperties } from "@babylonjs/core/Physics/v2/IPhysicsEnginePlugin.js";
import type { MassProperties, World } from "../src/index";
import type { ShapeData } from "./shapeMapping";
import { nonNegativeNumber, quaternion, vector3 } from "./validation";

/** Babylon-side mass properties in effect: inertia per unit mass. Plain numbers, no allocation to update. */
export class EffectiveMass {
  mass = 1;
  cx = 0;
  cy = 0;
  cz = 0;
  /** per unit mass */
  ix = 1;
  iy = 1;
  iz = 1;
  qx = 0;
  qy = 0;
  qz = 0;
  qw = 1;

  toBabylon(): PhysicsMassProperties {
    return {
      mass: this.mass,
      centerOfMass: new Vector3(this.cx, this.cy, this.cz),
      inertia: new Vector3(this.ix, this.iy, this.iz),
      inertiaOrientation: new Quaternion(this.qx, this.qy, this.qz, this.qw),
    };
  }

  /**
   * The engine's complete mass properties (absolute inertia). Mass 0 (infinite) keeps the inertia as given,
   * as Havok does: a 1 N s impulse 0.5 m off the axis of a mass-0 box with inertia (0, 1, 0) spins it at
   * 0.5 rad/s there (a wheel on a fixed axle); scaling by the mass would make it infinite too.
   */
  toEngine(): MassProperties {
    const m = this.mass;
    const s = m > 0 ? m : 1;
    return {
      mass: m,
      centerOfMass: { x: this.cx, y: this.cy, z: this.cz },
      inertia: { x: this.ix * s, y: this.iy * s, z: this.iz * s },
      inertiaOrientation: { x: this.qx, y: this.qy, z: this.qz, w: this.qw },
    };
  }
}

/**
 * Shape-derived mass properties (no user overrides) into `out`. A body without a shape, or with an empty
 * container, gets Havok's shapeless default: mass 1, inertia (1, 1, 1), centre 0, identity.
 */
export function computeShapeMass(world: World, shape: ShapeData | null, out: EffectiveMass): EffectiveMass {
  const s = shape?.engineShape ?? null;
  if (s === null) {
    out.mass = 1;
    out.cx = out.cy = out.cz = 0;
    out.ix = out.iy = out.iz = 1;
    out.qx = out.qy = out.qz = 0;
    out.qw = 1;
    return out;
  }
  const mp = world.computeMassProperties(s, shape!.density);
  const m = mp.mass;
  out.mass = m;
  out.cx = mp.centerOfMass.x;
  out.cy = mp.centerOfMass.y;
  out.cz = mp.centerOfMass.z;
  const inv = m > 0 ? 1 / m : 0;
  out.ix = mp.inertia.x * inv;
  out.iy = mp.inertia.y * inv;
  out.iz = mp.inertia.z * inv;
  out.qx = mp.inertiaOrientation.x;
  out.qy = mp.inertiaOrientation.y;
  out.qz = mp.inertiaOrientation.z;
  out.qw = mp.inertiaOrientation.w;
  return out;
}

/** Replaces the fields of `out` that the user defined. */
export function applyOverrides(user: PhysicsMassProperties | undefined, out: EffectiveMass): EffectiveMass {
  if (!user) return out;
  if (user.centerOfMass) {
    out.cx = user.centerOfMass.x;
    out.cy = user.centerOfMass.y;
    out.cz = user.centerOfMass.z;
  }
  if (user.mass !== undefined && user.mass !== null) out.mass = user.mass;
  if (user.inertia) {
    out.ix = user.inertia.x;
    out.iy = user.inertia.y;
    out.iz = user.inertia.z;
  }
  if (user.inertiaOrientation) {
    const q = user.inertiaOrientation;
    const l = Math.sqrt(q.x * q.x + q.y * q.y + q.z * q.z + q.w * q.w);
    out.qx = q.x / l;
    out.qy = q.y / l;
    out.qz = q.z / l;
    out.qw = q.w / l;
  }
  return out;
}

/** Validates user mass properties (throws before anything is stored). */
export function validateMassProps(fn: string, p: PhysicsMassProperties): void {
  if (p === null || typeof p !== "object") throw new TypeError(`${fn}: massProps must be an object, got ${String(p)}`);
  if (p.mass !== undefined && p.mass !== null) nonNegativeNumber(fn, "massProps.mass", p.mass);
  if (p.centerOfMass) vector3(fn, "massProps.centerOfMass", p.centerOfMass);
  if (p.inertia) {
    const v = vector3(fn, "massProps.inertia", p.inertia);
    if (v.x < 0 || v.y < 0 || v.z < 0) throw new RangeError(`${fn}: massProps.inertia must have components >= 0, got (${v.x}, ${v.y}, ${v.z})`);
  }
  if (p.inertiaOrientation) quaternion(fn, "massProps.inertiaOrientation", p.inertiaOrientation);
}
