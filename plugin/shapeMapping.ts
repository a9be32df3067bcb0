/**
 * Babylon shapes -> engine shapes.
 *
 * A Babylon `PhysicsShape` is mutable (material, filter masks, trigger flag, density, container children) and
 * may be shared by many bodies; engine shapes are immutable and those properties live on the engine body. So
 * each `PhysicsShape` gets a {@link ShapeData} (its `_pluginData`) holding the Babylon-side state, the engine
 * shape built from it, and the set of engine bodies using it; any change is pushed to those bodies.
 *
 * Parameter mapping (Havok's reading of `PhysicsShapeParameters`):
 * - SPHERE: `center`, `radius || 1` (0 -> 1 as in Havok; a negative or non-finite radius throws).
 * - BOX: `center`, `rotation`, `extents` = full edge lengths (default 1, 1, 1).
 * - CAPSULE / CYLINDER: segment `pointA` (default 0,0,0) -> `pointB` (default 0,1,0), `radius`; the capsule's
 *   hemispheres are centred on the points, the cylinder's caps lie on them.
 * - CONTAINER: an engine `Compound` of the children, rebuilt on every addChild / removeChild.
 * A primitive that is not centred and axis-aligned in its own frame becomes a one-child Compound.
 */
import type { PhysicsShape } from "@babylonjs/core/Physics/v2/physicsShape.js";
import type { PhysicsShapeParameters } from "@babylonjs/core/Physics/v2/IPhysicsEnginePlugin.js";
import { Box } from "../src/shapes/box";
import { Capsule } from "../src/shapes/capsule";
import { Compound, type CompoundChildDescription } from "../src/shapes/compound";
import { Cylinder } from "../src/shapes/cylinder";
import type { Shape } from "../src/shapes/shape";
import { Sphere } from "../src/shapes/sphere";
import type { SurfaceMaterial } from "../src/world/descriptions";
import { defaultSurfaceMaterial } from "./materials";
import { vector3, quaternion, positiveNumber, type XYZ, type XYZW } from "./validation";

/** Babylon's PhysicsShapeType values. */
export const SHAPE_SPHERE = 0,
  SHAPE_CAPSULE = 1,
  SHAPE_CYLINDER = 2,
  SHAPE_BOX = 3,
  SHAPE_CONVEX_HULL = 4,
  SHAPE_CONTAINER = 5,
  SHAPE_MESH = 6,
  SHAPE_HEIGHTFIELD = 7;

const TYPE_NAMES = ["SPHERE", "CAPSULE", "CYLINDER", "BOX", "CONVEX_HULL", "CONTAINER", "MESH", "HEIGHTFIELD"];

/** A child of a container, with its transform relative to the container's frame. */
export interface ContainerChild {
  data: ShapeData;
  translation: XYZ;
  rotation: XYZW;
  scale: XYZ;
}

/** Anything that uses a shape and must hear about its changes (engine body records). */
export interface ShapeUser {
  onShapeChanged(data: ShapeData, what: ShapeChange): void;
}

/** What changed on a shape. */
export const ShapeChange = { Geometry: 0, Material: 1, Filter: 2, Trigger: 3, Density: 4 } as const;
/** One of {@link ShapeChange}'s values. */
export type ShapeChange = (typeof ShapeChange)[keyof typeof ShapeChange];

let nextShapeId = 1;

/** The plugin-side state of one Babylon shape (`shape._pluginData`). */
export class ShapeData {
  /** Stable id (for debugging and maps). */
  readonly id = nextShapeId++;
  /** The Babylon shape that created this data (raycast results report it). */
  owner: PhysicsShape | null = null;
  /** The engine shape; null for an empty container. */
  engineShape: Shape | null = null;
  /** Leaf shapes in the engine compound's flattened child order (a primitive lists itself). */
  leaves: ShapeData[] = [];
  material: SurfaceMaterial = defaultSurfaceMaterial();
  membership = -1;
  collideWith = -1;
  isTrigger = false;
  density = 1000;
  disposed = false;
  /** Container children (CONTAINER only). */
  readonly children: ContainerChild[] = [];
  /** Containers holding this shape as a child. */
  readonly parents = new Set<ShapeData>();
  /** Engine bodies using this shape directly. */
  readonly users = new Set<ShapeUser>();

  constructor(readonly type: number) {}

  /** Rebuilds the engine shape of a container from its children (and, recursively, of its parents). */
  rebuild(): void {
    if (this.type === SHAPE_CONTAINER) {
      const descs: CompoundChildDescription[] = [];
      const leaves: ShapeData[] = [];
      for (const c of this.children) {
        if (!c.data.engineShape) continue; // an empty nested container adds nothing
        descs.push({
          shape: c.data.engineShape,
          position: c.translation,
          orientation: c.rotation,
          scale: c.scale,
          density: c.data.density,
        });
        for (const l of c.data.leaves) leaves.push(l);
      }
      this.engineShape = descs.length > 0 ? new Compound(descs) : null;
      this.leaves = leaves;
    }
    this.notify(ShapeChange.Geometry);
  }

  /** Tells users and (for geometry/density) parent containers that this shape changed. */
  notify(what: ShapeChange): void {
    for (const u of this.users) u.onShapeChanged(this, what);
    if (what === ShapeChange.Geometry || what === ShapeChange.Density) {
      for (const p of this.parents) p.rebuild();
    }
  }

  /** True if `other` is this shape or a descendant of it (guards against container cycles). */
  contains(other: ShapeData): boolean {
    if (other === this) return true;
    for (const c of this.children) if (c.data.contains(other)) return true;
    return false;
  }
}

/** Returns the shape's plugin data, or throws if the shape is missing or disposed. */
export function shapeDataOf(fn: string, name: string, shape: PhysicsShape | null | undefined): ShapeData {
  if (shape === null || shape === undefined || typeof shape !== "object") {
    throw new TypeError(`${fn}: ${name} must be a PhysicsShape, got ${String(shape)}`);
  }
  const d = shape._pluginData as unknown;
  if (!(d instanceof ShapeData)) {
    throw new TypeError(`${fn}: ${name} is not a ContinuumPlugin shape (disposed, or created by another plugin)`);
  }
  if (d.disposed) throw new TypeError(`${fn}: ${name} is disposed`);
  return d;
}

const ORIGIN: XYZ = { x: 0, y: 0, z: 0 };
const IDENTITY: XYZW = { x: 0, y: 0, z: 0, w: 1 };

function isOrigin(v: XYZ): boolean {
  return v.x === 0 && v.y === 0 && v.z === 0;
}
function isIdentity(q: XYZW): boolean {
  return q.x === 0 && q.y === 0 && q.z === 0 && Math.abs(q.w) === 1;
}

function posed(shape: Shape, center: XYZ, rotation: XYZW): Shape {
  if (isOrigin(center) && isIdentity(rotation)) return shape;
  return new Compound([{ shape, position: { x: center.x, y: center.y, z: center.z }, orientation: rotation }]);
}

/** The unit quaternion rotating +Y onto the unit direction (dx, dy, dz). */
export function rotationFromY(dx: number, dy: number, dz: number): XYZW {
  if (dy > 1 - 1e-12) return { x: 0, y: 0, z: 0, w: 1 };
  if (dy < -1 + 1e-12) return { x: 1, y: 0, z: 0, w: 0 };
  // axis = Y x d = (dz, 0, -dx); q = normalize(axis, 1 + Y.d)
  const x = dz,
    z = -dx,
    w = 1 + dy;
  const l = Math.sqrt(x * x + z * z + w * w);
  return { x: x / l, y: 0, z: z / l, w: w / l };
}

function normalized(q: XYZW): XYZW {
  const l = Math.sqrt(q.x * q.x + q.y * q.y + q.z * q.z + q.w * q.w);
  return { x: q.x / l, y: q.y / l, z: q.z / l, w: q.w / l };
}

/**
 * Builds the plugin data and engine shape for `initShape`. Throws (TypeError/RangeError naming the option)
 * on bad parameters, and an Error naming the type for the types a later issue adds.
 */
export function createShapeData(type: unknown, options: PhysicsShapeParameters | undefined | null): ShapeData {
  const fn = "initShape";
  if (typeof type !== "number" || !Number.isInteger(type) || type < 0 || type > 7) {
    throw new RangeError(`${fn}: type must be a PhysicsShapeType (0..7), got ${String(type)}`);
  }
  if (type === SHAPE_CONVEX_HULL || type === SHAPE_MESH || type === SHAPE_HEIGHTFIELD) {
    throw new Error(`${fn}: PhysicsShapeType.${TYPE_NAMES[type]} is not supported yet by ContinuumPlugin`);
  }
  const o = (options ?? {}) as PhysicsShapeParameters;
  if (typeof o !== "object") throw new TypeError(`${fn}: options must be an object, got ${String(options)}`);
  const data = new ShapeData(type);
  switch (type) {
    case SHAPE_SPHERE: {
      const center = o.center ? vector3(fn, "options.center", o.center) : ORIGIN;
      // Havok reads `radius || 1`: 0 or missing means 1.
      const radius = o.radius === undefined || o.radius === 0 ? 1 : positiveNumber(fn, "options.radius", o.radius);
      data.engineShape = posed(new Sphere(radius), center, IDENTITY);
      break;
    }
    case SHAPE_BOX: {
      const center = o.center ? vector3(fn, "options.center", o.center) : ORIGIN;
      const rotation = o.rotation ? normalized(quaternion(fn, "options.rotation", o.rotation)) : IDENTITY;
      const e = o.extents ? vector3(fn, "options.extents", o.extents) : { x: 1, y: 1, z: 1 };
      if (!(e.x > 0 && e.y > 0 && e.z > 0)) {
        throw new RangeError(`${fn}: options.extents must have components > 0, got (${e.x}, ${e.y}, ${e.z})`);
      }
      data.engineShape = posed(new Box(e.x / 2, e.y / 2, e.z / 2), center, rotation);
      break;
    }
    case SHAPE_CAPSULE:
    case SHAPE_CYLINDER: {
      const a = o.pointA ? vector3(fn, "options.pointA", o.pointA) : ORIGIN;
      const b = o.pointB ? vector3(fn, "options.pointB", o.pointB) : { x: 0, y: 1, z: 0 };
      const radius = positiveNumber(fn, "options.radius", o.radius);
      const dx = b.x - a.x,
        dy = b.y - a.y,
        dz = b.z - a.z;
      const len = Math.sqrt(dx * dx + dy * dy + dz * dz);
      const center = { x: (a.x + b.x) / 2, y: (a.y + b.y) / 2, z: (a.z + b.z) / 2 };
      if (type === SHAPE_CYLINDER && !(len > 0)) {
        throw new RangeError(`${fn}: options.pointA and options.pointB must differ for a CYLINDER, both are (${a.x}, ${a.y}, ${a.z})`);
      }
      const rot = len > 0 ? rotationFromY(dx / len, dy / len, dz / len) : IDENTITY;
      const prim = type === SHAPE_CAPSULE ? new Capsule(radius, len / 2) : new Cylinder(radius, len / 2);
      data.engineShape = posed(prim, center, rot);
      break;
    }
    case SHAPE_CONTAINER:
      data.engineShape = null;
      break;
  }
  if (type !== SHAPE_CONTAINER) data.leaves = [data];
  return data;
}
