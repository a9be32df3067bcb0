/**
 * HEIGHTFIELD parameters -> engine shape (docs/babylon-differences.md 1.9, with the Decisions' fixes).
 *
 * From arrays (`heightFieldSizeX/Z`, `numHeightFieldSamplesX/Z`, `heightFieldData`): Babylon's layout, the
 * height at column xi (from -X) and row zi (from -Z) is `data[(nZ - 1 - zi) * nX + xi]`, the grid centred on
 * the body origin. Rectangular grids are read with that formula (Havok garbles them).
 *
 * From a ground mesh (`groundMesh`, or `mesh` as PhysicsAggregate passes it): the mesh's own vertices scaled
 * by its `absoluteScaling` (the body's frame, as for MESH shapes), heights kept as they are, so the collision
 * surface is the rendered ground (Havok drops the lowest world Y and assumes a square grid). The grid's
 * columns and rows are read from the vertices' distinct X and Z values, so a CreateGround with
 * subdivisionsX != subdivisionsY works. When the vertices are not a regular grid centred on the node, or the
 * index buffer is not the full grid split along Babylon's diagonal (holes from CreateGroundFromHeightMap's
 * alpha filter, tiled grounds, other tessellations), the ground's triangles become a triangle mesh instead:
 * still exactly the rendered surface.
 *
 * Construction-time code: it allocates freely.
 */
import type { PhysicsShapeParameters } from "@babylonjs/core/Physics/v2/IPhysicsEnginePlugin.js";
import { Heightfield } from "../src/index";
import { MeshAccumulator, isNodeLike, geometrySourceOf, type MeshGeometry } from "./meshAccumulator";

/** What a HEIGHTFIELD's parameters build: a heightfield, or (irregular ground meshes) a triangle soup. */
export type HeightfieldSource =
  | { kind: "grid"; sizeX: number; sizeZ: number; samplesX: number; samplesZ: number; heights: Float64Array }
  | { kind: "mesh"; geometry: MeshGeometry };

const ARRAY_FIELDS = ["heightFieldSizeX", "heightFieldSizeZ", "numHeightFieldSamplesX", "numHeightFieldSamplesZ", "heightFieldData"] as const;

/** Reads the HEIGHTFIELD parameters; throws TypeError/RangeError naming the offending option. */
export function heightfieldSource(fn: string, o: PhysicsShapeParameters): HeightfieldSource {
  const rec = o as Record<string, unknown>;
  const anyArray = ARRAY_FIELDS.some((k) => rec[k] !== undefined && rec[k] !== null);
  if (anyArray) return fromArrays(fn, o);
  const ground = o.groundMesh ?? o.mesh;
  if (ground !== undefined && ground !== null) {
    const name = o.groundMesh ? "options.groundMesh" : "options.mesh";
    return fromGroundMesh(fn, name, ground);
  }
  throw new TypeError(
    `${fn}: a HEIGHTFIELD needs options.heightFieldSizeX, heightFieldSizeZ, numHeightFieldSamplesX, numHeightFieldSamplesZ and heightFieldData, or options.groundMesh (Missing required heightfield parameters)`,
  );
}

function fromArrays(fn: string, o: PhysicsShapeParameters): HeightfieldSource {
  const rec = o as Record<string, unknown>;
  for (const k of ARRAY_FIELDS) {
    if (rec[k] === undefined || rec[k] === null) {
      throw new TypeError(`${fn}: options.${k} is required for a HEIGHTFIELD given as arrays (got ${String(rec[k])})`);
    }
  }
  const size = (k: string): number => {
    const v = rec[k];
    if (typeof v !== "number" || !Number.isFinite(v) || v <= 0) throw new RangeError(`${fn}: options.${k} must be a finite number > 0, got ${String(v)}`);
    return v;
  };
  const count = (k: string): number => {
    const v = rec[k];
    if (typeof v !== "number" || !Number.isInteger(v) || v < 2) throw new RangeError(`${fn}: options.${k} must be an integer >= 2, got ${String(v)}`);
    return v;
  };
  const sizeX = size("heightFieldSizeX"),
    sizeZ = size("heightFieldSizeZ");
  const nX = count("numHeightFieldSamplesX"),
    nZ = count("numHeightFieldSamplesZ");
  const data = o.heightFieldData as unknown;
  if (data === null || typeof data !== "object" || typeof (data as ArrayLike<number>).length !== "number") {
    throw new TypeError(`${fn}: options.heightFieldData must be a Float32Array (or number array), got ${String(data)}`);
  }
  const d = data as ArrayLike<number>;
  if (d.length < nX * nZ) {
    throw new RangeError(`${fn}: options.heightFieldData must hold numHeightFieldSamplesX * numHeightFieldSamplesZ = ${nX * nZ} heights, got ${d.length}`);
  }
  const heights = new Float64Array(nX * nZ);
  for (let i = 0; i < heights.length; i++) {
    const v = d[i];
    // NaN is a hole (engine extension); infinities and non-numbers are errors.
    if (typeof v !== "number" || v === Infinity || v === -Infinity) {
      throw new RangeError(`${fn}: options.heightFieldData[${i}] must be a finite number, got ${String(v)}`);
    }
    heights[i] = v;
  }
  return { kind: "grid", sizeX, sizeZ, samplesX: nX, samplesZ: nZ, heights };
}

function fromGroundMesh(fn: string, name: string, ground: unknown): HeightfieldSource {
  if (!isNodeLike(ground)) throw new TypeError(`${fn}: ${name} must be a Babylon Mesh, got ${String(ground)}`);
  const src = geometrySourceOf(ground);
  const acc = new MeshAccumulator(ground as never, true);
  acc.addNodeMeshes(ground as never, false);
  const g = acc.result();
  if (!src || g.positions.length === 0) throw new RangeError(`${fn}: ${name} has no vertices`);
  // A mesh without an index buffer is a triangle list; the accumulator already read it that way.
  const hasIndexBuffer = src.getIndices() !== null;
  return asGrid(g, hasIndexBuffer) ?? { kind: "mesh", geometry: g };
}

/** Sorted distinct values (values closer than tol to the previous kept one merge into it). */
function distinct(values: number[], tol: number): number[] {
  values.sort((a, b) => a - b);
  const out: number[] = [];
  for (const v of values) if (out.length === 0 || v - out[out.length - 1] > tol) out.push(v);
  return out;
}

/**
 * The ground's vertices as a heightfield grid when they form a regular grid centred on the origin whose
 * triangles (if `checkTriangles`) are exactly the cells split along the (-X, +Z) -> (+X, -Z) diagonal
 * (the engine heightfield's and Babylon's ground builders' split); null otherwise.
 */
function asGrid(g: MeshGeometry, checkTriangles: boolean): HeightfieldSource | null {
  const p = g.positions;
  const n = p.length / 3;
  if (n < 4) return null;
  let minX = Infinity,
    maxX = -Infinity,
    minZ = Infinity,
    maxZ = -Infinity;
  const xs: number[] = [],
    zs: number[] = [];
  for (let i = 0; i < n; i++) {
    const x = p[3 * i],
      z = p[3 * i + 2];
    xs.push(x);
    zs.push(z);
    if (x < minX) minX = x;
    if (x > maxX) maxX = x;
    if (z < minZ) minZ = z;
    if (z > maxZ) maxZ = z;
  }
  const sizeX = maxX - minX,
    sizeZ = maxZ - minZ;
  if (!(sizeX > 0 && sizeZ > 0)) return null;
  // Float32 vertex data: 1e-5 of the extent is far above rounding and far below any sample spacing.
  const tol = 1e-5 * Math.max(sizeX, sizeZ);
  if (Math.abs(minX + maxX) > 2 * tol || Math.abs(minZ + maxZ) > 2 * tol) return null; // not centred
  const ux = distinct(xs, tol),
    uz = distinct(zs, tol);
  const nX = ux.length,
    nZ = uz.length;
  if (nX < 2 || nZ < 2 || nX * nZ !== n) return null;
  const dx = sizeX / (nX - 1),
    dz = sizeZ / (nZ - 1);
  for (let i = 0; i < nX; i++) if (Math.abs(ux[i] - (minX + i * dx)) > tol) return null;
  for (let i = 0; i < nZ; i++) if (Math.abs(uz[i] - (minZ + i * dz)) > tol) return null;
  const heights = new Float64Array(nX * nZ).fill(NaN);
  const cellOf = new Int32Array(2 * n); // (xi, zi) per vertex
  for (let i = 0; i < n; i++) {
    const xi = Math.round((p[3 * i] - minX) / dx),
      zi = Math.round((p[3 * i + 2] - minZ) / dz);
    const k = (nZ - 1 - zi) * nX + xi;
    if (!Number.isNaN(heights[k])) return null; // two vertices on one sample
    heights[k] = p[3 * i + 1];
    cellOf[2 * i] = xi;
    cellOf[2 * i + 1] = zi;
  }
  if (checkTriangles) {
    const cx = nX - 1,
      cz = nZ - 1;
    const seen = new Uint8Array(cx * cz);
    const idx = g.indices;
    if (idx.length !== 6 * cx * cz) return null;
    for (let t = 0; t < idx.length; t += 3) {
      let x0 = Infinity,
        z0 = Infinity;
      for (let c = 0; c < 3; c++) {
        x0 = Math.min(x0, cellOf[2 * idx[t + c]]);
        z0 = Math.min(z0, cellOf[2 * idx[t + c] + 1]);
      }
      if (x0 >= cx || z0 >= cz) return null;
      // Which of the cell's four corners is missing: (x0+1, z0+1) for the lower triangle, (x0, z0) for the upper.
      let mask = 0;
      for (let c = 0; c < 3; c++) {
        const ox = cellOf[2 * idx[t + c]] - x0,
          oz = cellOf[2 * idx[t + c] + 1] - z0;
        if (ox > 1 || oz > 1) return null;
        mask |= 1 << (ox + 2 * oz);
      }
      const bit = mask === 0b0111 ? 1 : mask === 0b1110 ? 2 : 0;
      const cell = z0 * cx + x0;
      if (bit === 0 || seen[cell] & bit) return null;
      seen[cell] |= bit;
    }
  }
  return { kind: "grid", sizeX, sizeZ, samplesX: nX, samplesZ: nZ, heights };
}

/** Builds the engine heightfield of a grid source; throws RangeError naming `name` (engine messages kept). */
export function buildHeightfield(fn: string, name: string, s: Extract<HeightfieldSource, { kind: "grid" }>): Heightfield {
  try {
    return new Heightfield(s.sizeX, s.sizeZ, s.samplesX, s.samplesZ, s.heights);
  } catch (e) {
    if (e instanceof RangeError || e instanceof TypeError) {
      const E = e instanceof RangeError ? RangeError : TypeError;
      throw new E(`${fn}: ${name}: ${e.message}`);
    }
    throw e;
  }
}

/**
 * The triangle geometry of a heightfield grid in engine triangle order (triangle 2c + k of cell
 * c = zi * (nX - 1) + xi, k = 0 the corner at (-X, -Z)), vertex zi * nX + xi. Hole triangles (a NaN corner)
 * are degenerate (all three corners one vertex) so indices keep their numbering; NaN heights become 0.
 */
export function heightfieldGeometry(hf: Heightfield): MeshGeometry {
  const nX = hf.samplesX,
    nZ = hf.samplesZ;
  const positions = new Float64Array(3 * nX * nZ);
  for (let zi = 0; zi < nZ; zi++) {
    for (let xi = 0; xi < nX; xi++) {
      const v = zi * nX + xi;
      const h = hf.heightAt(xi, zi);
      positions[3 * v] = -hf.sizeX / 2 + xi * hf.cellSizeX;
      positions[3 * v + 1] = h === h ? h : 0;
      positions[3 * v + 2] = -hf.sizeZ / 2 + zi * hf.cellSizeZ;
    }
  }
  const cells = (nX - 1) * (nZ - 1);
  const indices = new Uint32Array(6 * cells);
  for (let t = 0; t < 2 * cells; t++) {
    const cell = t >> 1;
    const zi = (cell / (nX - 1)) | 0,
      xi = cell - zi * (nX - 1);
    const hole = hf.isHole(xi, zi);
    for (let c = 0; c < 3; c++) indices[3 * t + c] = hole ? 0 : hf.vertexId(t, c);
  }
  return { positions, indices };
}
