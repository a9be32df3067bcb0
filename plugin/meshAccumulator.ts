/**
 * Vertex and triangle gathering from Babylon meshes for CONVEX_HULL and MESH shapes (docs/babylon-differences.md 1.9, as
 * HavokPlugin's MeshAccumulator reads them; written anew here):
 *
 * - The root's vertices are scaled by its `absoluteScaling` only: shapes are in the body's frame, and the
 *   body carries the node's position and rotation but not its scale, so the world scale is baked in.
 * - With `includeChildMeshes`, every descendant mesh *without a physicsBody of its own* is added through
 *   `childWorld x inverse(rootWorld) x scaling(rootAbsoluteScaling)` (row-vector matrices, Babylon's order).
 * - An `InstancedMesh` contributes its `sourceMesh`'s geometry (at the instance's own transform).
 * - Triangles are the mesh's index triples, reversed to (i+2, i+1, i) unless the scene is right-handed, so
 *   that the engine's counter-clockwise (right-hand rule) normal is the rendered front face. A mesh without
 *   an index buffer draws its vertices as consecutive triangles, and is read that way.
 *
 * Construction-time code: it allocates freely.
 */
import { Matrix, Vector3 } from "@babylonjs/core/Maths/math.vector.js";
import type { AbstractMesh } from "@babylonjs/core/Meshes/abstractMesh.js";
import type { TransformNode } from "@babylonjs/core/Meshes/transformNode.js";

/** Positions (xyz, body frame) and triangle indices gathered from meshes. */
export interface MeshGeometry {
  positions: Float64Array;
  /** Three vertex indices per triangle (empty when indices were not collected). */
  indices: Uint32Array;
}

/** The parts of a Babylon node the accumulator reads (Mesh, InstancedMesh, TransformNode all fit). */
interface NodeLike {
  computeWorldMatrix(force?: boolean): Matrix;
  absoluteScaling: Vector3;
  getScene(): { useRightHandedSystem: boolean };
  getChildMeshes?(directDescendantsOnly?: boolean): AbstractMesh[];
  physicsBody?: unknown;
}

interface GeometrySource {
  getVerticesData(kind: string): ArrayLike<number> | null;
  getIndices(): ArrayLike<number> | null;
}

/** The geometry-bearing mesh of a node: an InstancedMesh's source, a Mesh itself, or null (a TransformNode). */
export function geometrySourceOf(node: unknown): GeometrySource | null {
  if (node === null || typeof node !== "object") return null;
  const src = (node as { sourceMesh?: unknown }).sourceMesh;
  const m = (src && typeof src === "object" ? src : node) as Partial<GeometrySource>;
  if (typeof m.getVerticesData !== "function" || typeof m.getIndices !== "function") return null;
  return m as GeometrySource;
}

/** True for objects that look like a Babylon node (what `options.mesh` / `groundMesh` must be). */
export function isNodeLike(node: unknown): boolean {
  return (
    node !== null &&
    typeof node === "object" &&
    typeof (node as NodeLike).computeWorldMatrix === "function" &&
    (node as NodeLike).absoluteScaling !== undefined &&
    typeof (node as NodeLike).getScene === "function"
  );
}

/** Gathers vertices (and optionally triangles) of a node and, optionally, its child meshes. */
export class MeshAccumulator {
  private readonly positions: number[] = [];
  private readonly indices: number[] = [];
  private readonly rightHanded: boolean;

  constructor(
    root: TransformNode | AbstractMesh,
    private readonly collectIndices: boolean,
  ) {
    this.rightHanded = !!(root as unknown as NodeLike).getScene().useRightHandedSystem;
  }

  /** Adds `root` (scaled by its absolute scaling) and, with `includeChildren`, its child meshes without bodies. */
  addNodeMeshes(root: TransformNode | AbstractMesh, includeChildren: boolean): void {
    const r = root as unknown as NodeLike;
    r.computeWorldMatrix(true);
    const s = r.absoluteScaling;
    const rootScaled = Matrix.Scaling(s.x, s.y, s.z);
    const src = geometrySourceOf(root);
    if (src) this.addGeometry(src, rootScaled);
    if (!includeChildren || typeof r.getChildMeshes !== "function") return;
    const worldToRootScaled = r.computeWorldMatrix(true).clone().invert().multiply(rootScaled);
    for (const child of r.getChildMeshes(false)) {
      if ((child as unknown as NodeLike).physicsBody) continue; // it collides on its own
      const csrc = geometrySourceOf(child);
      if (!csrc) continue;
      const toRoot = child.computeWorldMatrix(true).multiply(worldToRootScaled);
      this.addGeometry(csrc, toRoot);
    }
  }

  private addGeometry(src: GeometrySource, toRoot: Matrix): void {
    const pos = src.getVerticesData("position");
    if (!pos || pos.length < 3) return;
    const n = Math.floor(pos.length / 3);
    const base = this.positions.length / 3;
    const m = toRoot.m;
    for (let i = 0; i < n; i++) {
      const x = pos[3 * i],
        y = pos[3 * i + 1],
        z = pos[3 * i + 2];
      // Row vector times matrix (Vector3.TransformCoordinates).
      const w = x * m[3] + y * m[7] + z * m[11] + m[15];
      const iw = w !== 0 && w !== 1 ? 1 / w : 1;
      this.positions.push(
        (x * m[0] + y * m[4] + z * m[8] + m[12]) * iw,
        (x * m[1] + y * m[5] + z * m[9] + m[13]) * iw,
        (x * m[2] + y * m[6] + z * m[10] + m[14]) * iw,
      );
    }
    if (!this.collectIndices) return;
    const idx = src.getIndices();
    const count = idx ? idx.length - (idx.length % 3) : n - (n % 3);
    for (let i = 0; i < count; i += 3) {
      const a = idx ? idx[i] : i,
        b = idx ? idx[i + 1] : i + 1,
        c = idx ? idx[i + 2] : i + 2;
      if (this.rightHanded) this.indices.push(a + base, b + base, c + base);
      else this.indices.push(c + base, b + base, a + base);
    }
  }

  get vertexCount(): number {
    return this.positions.length / 3;
  }

  get triangleCount(): number {
    return this.indices.length / 3;
  }

  result(): MeshGeometry {
    return { positions: new Float64Array(this.positions), indices: new Uint32Array(this.indices) };
  }
}
