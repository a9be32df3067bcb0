/**
 * What the narrow phase and ray casts need from a shape made of triangles (TriangleMesh, Heightfield):
 * an AABB query in the shape's local frame, the triangles' corners, their active-edge flags and welded
 * vertex ids (for the reduction across triangles), and a local ray cast.
 *
 * Triangle indices here are the shape's own indices, which are also what the engine reports as the
 * manifold child index and as RayHit.childIndex (the triangle index of the input for meshes; 2 * cell +
 * k for heightfields).
 */
import type { IntList } from "../collections/intList";
import type { ChildGate } from "./childGate";

/**
 * Active-edge flags of a triangle: bit i (0..2) is set when edge i (corner i to corner i+1) is active
 * seen from the triangle's front (the side its counter-clockwise normal points to); bit 3 + i when it
 * is active seen from the back. An edge is active when it has no neighbour (a boundary, or a hole), is
 * shared by more than two triangles, or bends convexly (seen from that side) by more than the shape's
 * active-edge angle. Flat and concave edges are inactive: contacts there take the face normal.
 */
export const EDGE_FRONT_SHIFT = 0;
export const EDGE_BACK_SHIFT = 3;

/** Result of a local ray cast against a triangle shape. */
export class LocalTriangleHit {
  t = 0;
  /** Local unit normal, facing the ray (two-sided). */
  nx = 0;
  ny = 0;
  nz = 0;
  /** Triangle index. */
  triangle = -1;
}

/** Box scratch of {@link queryAabbViaBox}. */
const QUERY_BOX = new Float64Array(6);

/**
 * A triangle source's queryAabb in terms of its queryBox: the six numbers go through a scratch array (one
 * definition for both sources; per-step callers use queryBox directly).
 */
export function queryAabbViaBox(source: TriangleSource, minX: number, minY: number, minZ: number, maxX: number, maxY: number, maxZ: number, out: IntList): void {
  const q = QUERY_BOX;
  q[0] = minX;
  q[1] = minY;
  q[2] = minZ;
  q[3] = maxX;
  q[4] = maxY;
  q[5] = maxZ;
  source.queryBox(q, 0, out);
}

/** Interface implemented by TriangleMesh and Heightfield. */
export interface TriangleSource {
  /** Appends the indices of triangles whose bounds overlap the local box (conservative). */
  queryAabb(minX: number, minY: number, minZ: number, maxX: number, maxY: number, maxZ: number, out: IntList): void;
  /**
   * {@link queryAabb} with the box in box[o..o+5] (min xyz, max xyz): the form per-step callers use (doubles in
   * arrays, docs/design.md).
   */
  queryBox(box: Float64Array, o: number, out: IntList): void;
  /** Writes the 9 local coordinates of triangle t (corners 0, 1, 2, counter-clockwise about the normal). */
  getTriangle(t: number, out: Float64Array, o: number): void;
  /** Active-edge flags of triangle t (see EDGE_FRONT_SHIFT / EDGE_BACK_SHIFT). */
  edgeFlags(t: number): number;
  /** Active-vertex flags of triangle t: bit c for corner c seen from the front, 3 + c from the back (cornerFlags). */
  vertexFlags(t: number): number;
  /**
   * 0 for two-sided triangles (the side of the convex's centre is used); +1 or -1 for a closed mesh, whose
   * triangles collide only on the outward side (+1: counter-clockwise normals point out).
   */
  readonly faceSign: number;
  /** The public index of triangle t (reported as manifold child index and RayHit.childIndex). */
  triangleIndex(t: number): number;
  /** Welded vertex id of corner c of triangle t: equal ids are the same point. */
  vertexId(t: number, c: number): number;
  /**
   * Closest hit of the local ray o + t d, 0 <= t <= maxT; two-sided. False on a miss. With a gate, only the
   * triangles it passes count.
   */
  rayCastLocal(ox: number, oy: number, oz: number, dx: number, dy: number, dz: number, maxT: number, out: LocalTriangleHit, gate?: ChildGate | null): boolean;
}

/**
 * Activity of one shared edge of triangle T (unit normal n, corner `a` on the edge), with its neighbour's
 * unit normal n2 (oriented consistently with T: same winding across the edge) and the neighbour's corner q
 * off the edge. Returns the flag bits for edge `e` (front and back).
 */
export function sharedEdgeFlags(
  e: number,
  nx: number,
  ny: number,
  nz: number,
  ax: number,
  ay: number,
  az: number,
  n2x: number,
  n2y: number,
  n2z: number,
  qx: number,
  qy: number,
  qz: number,
  cosThreshold: number,
): number {
  if (nx * n2x + ny * n2y + nz * n2z >= cosThreshold) return 0; // flat enough: inactive both sides
  // Convex seen from the front when the neighbour falls away below T's plane.
  const side = (qx - ax) * nx + (qy - ay) * ny + (qz - az) * nz;
  return side <= 0 ? 1 << (EDGE_FRONT_SHIFT + e) : 1 << (EDGE_BACK_SHIFT + e);
}

/**
 * Active-vertex flags per triangle (TriangleSource.vertexFlags) from the active-edge flags: corner c of triangle t is
 * active seen from a side when any edge that meets its vertex, in any triangle, is active from that side (Jolt's
 * ActiveEdges::FixNormal reads only the triangle's own two edges at the corner). A triangle can touch a boundary or
 * a convex ridge at one corner alone, its two edges there interior: on a grid, the triangle beside each boundary
 * vertex between two boundary edges. With only its own edges it skipped GJK there and gave a convex overlapping that
 * vertex from beside the grid the face normal, with the convex's whole extent below the plane as depth (issue 29 item
 * 7: a plate 2 mm past a heightfield's boundary thrown 2.3 cm up in one step). Front and back are each triangle's own
 * (consistent winding assumed, as across an edge); `vertexOf` gives welded vertex ids below `vertexCount`.
 */
export function cornerFlags(count: number, edgeFlags: Uint8Array, vertexOf: (t: number, c: number) => number, vertexCount: number): Uint8Array {
  const at = new Uint8Array(vertexCount); // bit 0: an edge active from the front meets the vertex; bit 1: from the back
  for (let t = 0; t < count; t++) {
    const f = edgeFlags[t];
    if (f === 0) continue;
    for (let e = 0; e < 3; e++) {
      const bits = ((f >> (EDGE_FRONT_SHIFT + e)) & 1) | (((f >> (EDGE_BACK_SHIFT + e)) & 1) << 1);
      if (bits === 0) continue;
      at[vertexOf(t, e)] |= bits;
      at[vertexOf(t, e === 2 ? 0 : e + 1)] |= bits;
    }
  }
  const out = new Uint8Array(count);
  for (let t = 0; t < count; t++) {
    let v = 0;
    for (let c = 0; c < 3; c++) {
      const a = at[vertexOf(t, c)];
      v |= ((a & 1) << (EDGE_FRONT_SHIFT + c)) | (((a >> 1) & 1) << (EDGE_BACK_SHIFT + c));
    }
    out[t] = v;
  }
  return out;
}

/**
 * Möller-Trumbore ray-triangle test (two-sided). Returns t (>= 0, <= maxT) or -1; inclusive on edges with
 * a small relative tolerance so rays through shared edges and vertices hit.
 */
export function rayTriangle(
  ox: number,
  oy: number,
  oz: number,
  dx: number,
  dy: number,
  dz: number,
  ax: number,
  ay: number,
  az: number,
  bx: number,
  by: number,
  bz: number,
  cx: number,
  cy: number,
  cz: number,
  maxT: number,
): number {
  const e1x = bx - ax,
    e1y = by - ay,
    e1z = bz - az;
  const e2x = cx - ax,
    e2y = cy - ay,
    e2z = cz - az;
  const px = dy * e2z - dz * e2y,
    py = dz * e2x - dx * e2z,
    pz = dx * e2y - dy * e2x;
  const det = e1x * px + e1y * py + e1z * pz;
  if (det === 0 || det !== det) return -1;
  const inv = 1 / det;
  const sx = ox - ax,
    sy = oy - ay,
    sz = oz - az;
  const u = (sx * px + sy * py + sz * pz) * inv;
  const EPS = 1e-12;
  if (u < -EPS || u > 1 + EPS) return -1;
  const qx = sy * e1z - sz * e1y,
    qy = sz * e1x - sx * e1z,
    qz = sx * e1y - sy * e1x;
  const v = (dx * qx + dy * qy + dz * qz) * inv;
  if (v < -EPS || u + v > 1 + EPS) return -1;
  const t = (e2x * qx + e2y * qy + e2z * qz) * inv;
  if (t < 0 || t > maxT) return -1;
  return t;
}
