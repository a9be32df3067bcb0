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
 * - CONVEX_HULL: the engine `ConvexHull` of the vertices `MeshAccumulator` gathers from `mesh` (absolute
 *   scaling baked in, `includeChildMeshes` adds child meshes without bodies of their own). Flat meshes (a
 *   ground, a disc) make a 2 mm slab; collinear vertices a 1 mm-radius capsule, a single point a 1 mm sphere
 *   (`convexShapeOfPoints`), where Havok gives them a convex radius: the scene runs rather than throws.
 * - MESH: an engine `TriangleMesh` of the gathered vertices and triangles (triangle t = the t-th index
 *   triple gathered, which is what raycasts report as `triangleIndex`).
 * - HEIGHTFIELD: an engine `Heightfield` from the arrays or from `groundMesh` (see heightfieldOptions.ts).
 * - CONTAINER: an engine `Compound` of the children, rebuilt on every addChild / removeChild. A container
 *   whose children are all MESH / HEIGHTFIELD (or such containers) becomes one `TriangleMesh` with the
 *   children's transforms baked in; the engine's Compound holds convex shapes only, so a container mixing
 *   triangle shapes with convex ones is refused. A leaf with `isTrigger` is a trigger child (trigger events,
 *   no contacts), as Havok treats trigger shapes inside a compound, through the body's per-child surfaces
 *   (leafSurfaces.ts): the engine's one per-child mechanism, so the compound itself carries no trigger flags.
 * A primitive that is not centred and axis-aligned in its own frame becomes a one-child Compound.
 */
import type { PhysicsShape } from "@babylonjs/core/Physics/v2/physicsShape.js";
import type { PhysicsShapeParameters } from "@babylonjs/core/Physics/v2/IPhysicsEnginePlugin.js";
import {
  Box,
  Capsule,
  Compound,
  type CompoundChildDescription,
  convexShapeOfPoints,
  Cylinder,
  rotationFromY,
  type Shape,
  Sphere,
  type SurfaceMaterial,
  TriangleMesh,
} from "../src/index";
import { buildHeightfield, heightfieldGeometry, heightfieldSource } from "./heightfieldOptions";
import { defaultSurfaceMaterial } from "./materials";
import { isNodeLike, MeshAccumulator, type MeshGeometry } from "./meshAccumulator";
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

/** A run of a triangle shape's triangles that came from one leaf shape (containers of meshes). */
export interface TriangleRun {
  /** First triangle of the run in the shape's triangle numbering. */
  start: number;
  leaf: ShapeData;
}

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
  /**
   * Triangle shapes (MESH, HEIGHTFIELD, containers of them): the triangles in the shape's frame, numbered as
   * the engine numbers them (its ray hits' childIndex), and which leaf each run of triangles came from.
   */
  triangles: MeshGeometry | null = null;
  triangleRuns: TriangleRun[] = [];
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

  /**
   * Rebuilds the engine shape of a container from its children (and, recursively, of its parents). Throws,
   * leaving this container as it was, when the children mix triangle shapes with convex ones.
   */
  rebuild(): void {
    if (this.type === SHAPE_CONTAINER) {
      const descs: CompoundChildDescription[] = [];
      const leaves: ShapeData[] = [];
      const tris: ContainerChild[] = [];
      for (const c of this.children) {
        if (!c.data.engineShape) continue; // an empty nested container adds nothing
        if (c.data.triangles) {
          tris.push(c);
          continue;
        }
        descs.push({
          shape: c.data.engineShape,
          position: c.translation,
          orientation: c.rotation,
          scale: c.scale,
          density: c.data.density,
        });
        for (const l of c.data.leaves) leaves.push(l);
      }
      if (tris.length > 0 && descs.length > 0) {
        throw new TypeError(
          "addChild: newChild cannot join this CONTAINER: a container cannot mix MESH / HEIGHTFIELD children with convex children in ContinuumPlugin (the engine's compound holds convex shapes only); use separate bodies",
        );
      }
      if (tris.length > 0) {
        const merged = mergeTriangleChildren(tris);
        this.engineShape = new TriangleMesh(merged.geometry.positions, merged.geometry.indices);
        this.triangles = merged.geometry;
        this.triangleRuns = merged.runs;
        this.leaves = merged.runs.map((r) => r.leaf);
      } else {
        this.engineShape = descs.length > 0 ? new Compound(descs) : null;
        this.triangles = null;
        this.triangleRuns = [];
        this.leaves = leaves;
      }
    }
    this.notify(ShapeChange.Geometry);
  }

  /**
   * The leaf shape and its own triangle index for an engine ray hit's childIndex on this shape: for a triangle
   * shape the child index is a triangle; for a compound it is a leaf. Writes `out`, returns it.
   */
  resolveHit(childIndex: number, out: HitLeaf): HitLeaf {
    out.leaf = this;
    out.triangle = -1;
    const runs = this.triangleRuns;
    if (this.triangles && childIndex >= 0) {
      let lo = 0,
        hi = runs.length - 1;
      while (lo < hi) {
        const mid = (lo + hi + 1) >> 1;
        if (runs[mid].start <= childIndex) lo = mid;
        else hi = mid - 1;
      }
      out.leaf = runs.length > 0 ? runs[lo].leaf : this;
      out.triangle = childIndex - (runs.length > 0 ? runs[lo].start : 0);
      return out;
    }
    const leaves = this.leaves;
    if (childIndex >= 0 && leaves.length > 1) out.leaf = leaves[childIndex] ?? this;
    else if (leaves.length === 1) out.leaf = leaves[0];
    return out;
  }

  /** Tells users and parent containers (rebuilt for geometry, density and trigger flag) that this shape changed. */
  notify(what: ShapeChange): void {
    for (const u of this.users) u.onShapeChanged(this, what);
    // A container bakes its children's geometry and density into its compound. It is rebuilt on a child's
    // trigger flag too, though the flag reaches the engine through the per-child surfaces only: a new compound
    // is a changed shape, which wakes what rests on it and which a snapshot taken before refuses to restore.
    if (what === ShapeChange.Geometry || what === ShapeChange.Density || what === ShapeChange.Trigger) {
      for (const p of this.parents) p.rebuild();
    } else {
      // A leaf's material, filter or trigger flag is its containers' bodies' too (plugin/leafSurfaces.ts).
      for (const p of this.parents) p.notify(what);
    }
  }

  /** True if `other` is this shape or a descendant of it (guards against container cycles). */
  contains(other: ShapeData): boolean {
    if (other === this) return true;
    for (const c of this.children) if (c.data.contains(other)) return true;
    return false;
  }
}

/** Result of {@link ShapeData.resolveHit}. */
export class HitLeaf {
  leaf: ShapeData | null = null;
  triangle = -1;
}

/** One geometry from triangle children, each transformed by its child pose (T + R (S . v)). */
function mergeTriangleChildren(children: ContainerChild[]): { geometry: MeshGeometry; runs: TriangleRun[] } {
  let nv = 0,
    ni = 0;
  for (const c of children) {
    nv += c.data.triangles!.positions.length;
    ni += c.data.triangles!.indices.length;
  }
  const positions = new Float64Array(nv);
  const indices = new Uint32Array(ni);
  const runs: TriangleRun[] = [];
  let vo = 0,
    io = 0;
  for (const c of children) {
    const g = c.data.triangles!;
    const { x: qx, y: qy, z: qz, w: qw } = c.rotation;
    const { x: sx, y: sy, z: sz } = c.scale;
    const { x: px, y: py, z: pz } = c.translation;
    for (let i = 0; i < g.positions.length; i += 3) {
      const x = g.positions[i] * sx,
        y = g.positions[i + 1] * sy,
        z = g.positions[i + 2] * sz;
      // v' = q v q* + p
      const tx = 2 * (qy * z - qz * y),
        ty = 2 * (qz * x - qx * z),
        tz = 2 * (qx * y - qy * x);
      positions[vo + i] = x + qw * tx + (qy * tz - qz * ty) + px;
      positions[vo + i + 1] = y + qw * ty + (qz * tx - qx * tz) + py;
      positions[vo + i + 2] = z + qw * tz + (qx * ty - qy * tx) + pz;
    }
    // A mirroring scale turns the triangles over: keep their front faces outward.
    const flip = sx * sy * sz < 0;
    const base = vo / 3;
    for (let i = 0; i < g.indices.length; i += 3) {
      indices[io + i] = g.indices[i + (flip ? 2 : 0)] + base;
      indices[io + i + 1] = g.indices[i + 1] + base;
      indices[io + i + 2] = g.indices[i + (flip ? 0 : 2)] + base;
    }
    const first = io / 3;
    const childRuns = c.data.triangleRuns.length > 0 ? c.data.triangleRuns : [{ start: 0, leaf: c.data }];
    for (const r of childRuns) runs.push({ start: first + r.start, leaf: r.leaf });
    vo += g.positions.length;
    io += g.indices.length;
  }
  return { geometry: { positions, indices }, runs };
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

function normalized(q: XYZW): XYZW {
  const l = Math.sqrt(q.x * q.x + q.y * q.y + q.z * q.z + q.w * q.w);
  return { x: q.x / l, y: q.y / l, z: q.z / l, w: q.w / l };
}

/** Runs an engine constructor, prefixing its argument errors with the plugin call and option name. */
function engineCall<T>(fn: string, name: string, build: () => T): T {
  try {
    return build();
  } catch (e) {
    if (e instanceof RangeError) throw new RangeError(`${fn}: ${name}: ${e.message}`);
    if (e instanceof TypeError) throw new TypeError(`${fn}: ${name}: ${e.message}`);
    throw e;
  }
}

/** Builds the plugin data and engine shape for `initShape`. Throws (TypeError/RangeError naming the option) on bad parameters. */
export function createShapeData(type: unknown, options: PhysicsShapeParameters | undefined | null): ShapeData {
  const fn = "initShape";
  if (typeof type !== "number" || !Number.isInteger(type) || type < 0 || type > 7) {
    throw new RangeError(`${fn}: type must be a PhysicsShapeType (0..7), got ${String(type)}`);
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
      if (!(e.x >= 0 && e.y >= 0 && e.z >= 0) || (e.x === 0 && e.y === 0) || (e.y === 0 && e.z === 0) || (e.x === 0 && e.z === 0)) {
        throw new RangeError(`${fn}: options.extents must have components >= 0 with at most one of them 0, got (${e.x}, ${e.y}, ${e.z})`);
      }
      // A flat box (a BOX aggregate of CreateGround, which Havok accepts) gets a 2 mm thickness: its faces sit
      // 1 mm off the rendered plane, and speculative contacts keep fast bodies from passing it.
      const FLAT = 0.002;
      data.engineShape = posed(new Box(Math.max(e.x, FLAT) / 2, Math.max(e.y, FLAT) / 2, Math.max(e.z, FLAT) / 2), center, rotation);
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
    case SHAPE_CONVEX_HULL:
    case SHAPE_MESH: {
      const mesh = o.mesh as unknown;
      if (mesh === undefined || mesh === null) {
        throw new TypeError(`${fn}: options.mesh is required for a ${type === SHAPE_MESH ? "MESH" : "CONVEX_HULL"} shape (No mesh provided to create physics shape)`);
      }
      if (!isNodeLike(mesh)) throw new TypeError(`${fn}: options.mesh must be a Babylon Mesh, got ${String(mesh)}`);
      const acc = new MeshAccumulator(mesh as never, type === SHAPE_MESH);
      acc.addNodeMeshes(mesh as never, !!o.includeChildMeshes);
      if (acc.vertexCount === 0) {
        throw new RangeError(`${fn}: options.mesh has no vertices${o.includeChildMeshes ? " (nor have its child meshes without bodies)" : ""}`);
      }
      const g = acc.result();
      if (type === SHAPE_CONVEX_HULL) {
        data.engineShape = engineCall(fn, "options.mesh", () => convexShapeOfPoints(g.positions));
      } else {
        if (acc.triangleCount === 0) throw new RangeError(`${fn}: options.mesh has ${acc.vertexCount} vertices but no triangles`);
        data.engineShape = engineCall(fn, "options.mesh", () => new TriangleMesh(g.positions, g.indices));
        data.triangles = g;
      }
      break;
    }
    case SHAPE_HEIGHTFIELD: {
      const src = heightfieldSource(fn, o);
      if (src.kind === "grid") {
        const hf = buildHeightfield(fn, "options.heightFieldData", src);
        data.engineShape = hf;
        data.triangles = heightfieldGeometry(hf);
      } else {
        const name = o.groundMesh ? "options.groundMesh" : "options.mesh";
        data.engineShape = engineCall(fn, name, () => new TriangleMesh(src.geometry.positions, src.geometry.indices));
        data.triangles = src.geometry;
      }
      break;
    }
  }
  if (type !== SHAPE_CONTAINER) data.leaves = [data];
  return data;
}
