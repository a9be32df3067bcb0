/**
 * Convex hull of a point cloud.
 *
 * Construction is Quickhull (Barber, Dobkin and Huhdanpaa, "The Quickhull Algorithm for Convex Hulls",
 * ACM TOMS 1996; Gregorius, "Implementing Quickhull", GDC 2014) on triangles, with an exact orientation
 * predicate (a floating-point filter backed by exact BigInt arithmetic when the filter cannot decide), so
 * the triangulated hull is always a valid closed convex mesh whatever duplicates and coplanar points the
 * input holds. Triangles are then merged into polygons when they are coplanar within a tolerance relative
 * to the cloud's size (nearly-degenerate input, float32 vertex data), and vertices left on the straight
 * edge between two merged faces are removed.
 *
 * Mass properties are those of the solid hull, exactly: tetrahedra from an interior point to each face's
 * fan triangles, with the canonical-tetrahedron covariance (Blow and Binstock, "How to find the inertia
 * tensor (or other mass properties) of a 3D solid body represented by a triangle mesh", 2004; Tonon,
 * "Explicit exact formulas for the 3-D tetrahedron inertia tensor", 2004).
 *
 * Per-call queries (support, AABB, features) allocate nothing.
 */
import type { Pose } from "../math/pose";
import { ConvexShape, type MutableVec3 } from "./shape";
import { ShapeType } from "./shapeType";
import { triangleCross } from "../math/vec3";

/** A triangle's normal and scale (triangleCross). */
const CROSS = new Float64Array(4);

/** Merge tolerance relative to the largest extent of the point cloud. */
const RELATIVE_TOLERANCE = 1e-6;
/**
 * Hulls with at most this many vertices answer support queries by brute force, larger ones by hill climbing
 * from the best of six axis-extreme vertices: up to where the two cost the same (bench/RESULTS.md,
 * "Measurements behind constants").
 */
export const BRUTE_FORCE_SUPPORT = 64;
/** The AABB pass finds all six extents in one sweep over the vertices: brute force pays off longer. */
const BRUTE_FORCE_AABB = 256;

// ---- exact orientation ---------------------------------------------------------------------------

/** Relative error bound of the floating-point determinant (Shewchuk's orient3d bound A, rounded up). */
const ORIENT_BOUND = 1e-15;

function exactParts(x: number, out: { m: bigint; k: number }): void {
  // x = m / 2^k with m an integer: doubling is exact, and a non-integer double has |x| < 2^52.
  let k = 0;
  while (!Number.isInteger(x)) {
    x *= 2;
    k++;
  }
  out.m = BigInt(x);
  out.k = k;
}

const partScratch = { m: 0n, k: 0 };

/** Sign of det[a - p, b - p, c - p] evaluated exactly (the points are given by their coordinates). */
function exactDet(c: number[]): number {
  const ms: bigint[] = [];
  const ks: number[] = [];
  let kMax = 0;
  for (let i = 0; i < 12; i++) {
    exactParts(c[i], partScratch);
    ms.push(partScratch.m);
    ks.push(partScratch.k);
    if (partScratch.k > kMax) kMax = partScratch.k;
  }
  const v: bigint[] = [];
  for (let i = 0; i < 12; i++) v.push(ms[i] << BigInt(kMax - ks[i]));
  const ux = v[0] - v[9],
    uy = v[1] - v[10],
    uz = v[2] - v[11];
  const vx = v[3] - v[9],
    vy = v[4] - v[10],
    vz = v[5] - v[11];
  const wx = v[6] - v[9],
    wy = v[7] - v[10],
    wz = v[8] - v[11];
  const d = ux * (vy * wz - vz * wy) + uy * (vz * wx - vx * wz) + uz * (vx * wy - vy * wx);
  return d > 0n ? 1 : d < 0n ? -1 : 0;
}

/**
 * Exact sign of ((b - a) x (c - a)) . (p - a) for points given by index into `pts` (xyz triples):
 * +1 when p is above the plane of the counter-clockwise triangle (a, b, c), 0 when coplanar.
 */
function orient(pts: Float64Array, a: number, b: number, c: number, p: number): number {
  const px = pts[3 * p],
    py = pts[3 * p + 1],
    pz = pts[3 * p + 2];
  const ux = pts[3 * a] - px,
    uy = pts[3 * a + 1] - py,
    uz = pts[3 * a + 2] - pz;
  const vx = pts[3 * b] - px,
    vy = pts[3 * b + 1] - py,
    vz = pts[3 * b + 2] - pz;
  const wx = pts[3 * c] - px,
    wy = pts[3 * c + 1] - py,
    wz = pts[3 * c + 2] - pz;
  const c1 = vy * wz,
    c2 = vz * wy,
    c3 = vz * wx,
    c4 = vx * wz,
    c5 = vx * wy,
    c6 = vy * wx;
  const det = ux * (c1 - c2) + uy * (c3 - c4) + uz * (c5 - c6);
  const perm =
    Math.abs(ux) * (Math.abs(c1) + Math.abs(c2)) +
    Math.abs(uy) * (Math.abs(c3) + Math.abs(c4)) +
    Math.abs(uz) * (Math.abs(c5) + Math.abs(c6));
  const bound = ORIENT_BOUND * perm;
  // det[a-p, b-p, c-p] = -orient
  if (det > bound) return -1;
  if (det < -bound) return 1;
  if (perm === 0) return 0;
  const coords = [
    pts[3 * a],
    pts[3 * a + 1],
    pts[3 * a + 2],
    pts[3 * b],
    pts[3 * b + 1],
    pts[3 * b + 2],
    pts[3 * c],
    pts[3 * c + 1],
    pts[3 * c + 2],
    px,
    py,
    pz,
  ];
  return -exactDet(coords);
}

// ---- quickhull on triangles ------------------------------------------------------------------------

class Tri {
  /** Vertex indices, counter-clockwise seen from outside; edge k runs v[k] -> v[(k + 1) % 3]. */
  readonly v: [number, number, number];
  /** Neighbour across edge k. */
  readonly adj: (Tri | null)[] = [null, null, null];
  nx = 0;
  ny = 0;
  nz = 0;
  d = 0;
  outside: number[] = [];
  alive = true;
  /** Iteration stamp of the last visibility test, and its result. */
  stamp = -1;
  visible = false;

  constructor(pts: Float64Array, a: number, b: number, c: number) {
    this.v = [a, b, c];
    const ax = pts[3 * a],
      ay = pts[3 * a + 1],
      az = pts[3 * a + 2];
    triangleCross(pts, 3 * a, 3 * b, 3 * c, CROSS, 0);
    let nx = CROSS[0],
      ny = CROSS[1],
      nz = CROSS[2];
    const l = Math.sqrt(nx * nx + ny * ny + nz * nz);
    if (l > 0) {
      nx /= l;
      ny /= l;
      nz /= l;
    }
    this.nx = nx;
    this.ny = ny;
    this.nz = nz;
    this.d = nx * ax + ny * ay + nz * az;
  }

  distance(pts: Float64Array, p: number): number {
    return this.nx * pts[3 * p] + this.ny * pts[3 * p + 1] + this.nz * pts[3 * p + 2] - this.d;
  }

  above(pts: Float64Array, p: number): boolean {
    return orient(pts, this.v[0], this.v[1], this.v[2], p) > 0;
  }

  edgeTo(a: number, b: number): number {
    const v = this.v;
    for (let k = 0; k < 3; k++) if (v[k] === a && v[k === 2 ? 0 : k + 1] === b) return k;
    return -1;
  }
}

function link(t: Tri, k: number, u: Tri): void {
  t.adj[k] = u;
  const a = t.v[k],
    b = t.v[k === 2 ? 0 : k + 1];
  const j = u.edgeTo(b, a);
  if (j < 0) throw new Error("ConvexHull: internal error (inconsistent adjacency)");
  u.adj[j] = t;
}

/** Assigns point p to the outside set of the triangle it is farthest above (exactly above); false if none. */
function assign(pts: Float64Array, p: number, tris: Tri[]): boolean {
  let best: Tri | null = null;
  let bestD = -Infinity;
  for (const t of tris) {
    if (!t.above(pts, p)) continue;
    const d = t.distance(pts, p);
    if (best === null || d > bestD) {
      best = t;
      bestD = d;
    }
  }
  if (best === null) return false;
  best.outside.push(p);
  return true;
}

/**
 * What the points span, found as Quickhull's initial simplex is: the two farthest-apart axis extremes, the
 * point farthest from their line, the point farthest from that plane. Returns 0 (all points coincide within
 * `tol`), 1 (collinear), 2 (coplanar: thinner than 4 tol, which face merging would fold) or 3 (a volume).
 * Writes the simplex's point indices to `idx[0..3]` (as far as found) and, from span 2 on, the unit normal of
 * the plane through the first three to `normal`.
 */
function pointSpan(pts: Float64Array, n: number, tol: number, idx: Int32Array, normal: Float64Array): number {
  const X = (i: number): number => pts[3 * i],
    Y = (i: number): number => pts[3 * i + 1],
    Z = (i: number): number => pts[3 * i + 2];
  const ext = [0, 0, 0, 0, 0, 0];
  for (let i = 1; i < n; i++) {
    for (let a = 0; a < 3; a++) {
      if (pts[3 * i + a] < pts[3 * ext[2 * a] + a]) ext[2 * a] = i;
      if (pts[3 * i + a] > pts[3 * ext[2 * a + 1] + a]) ext[2 * a + 1] = i;
    }
  }
  let i0 = 0,
    i1 = 0,
    best = -1;
  for (let a = 0; a < 6; a++) {
    for (let b = a + 1; b < 6; b++) {
      const p = ext[a],
        q = ext[b];
      const dx = X(p) - X(q),
        dy = Y(p) - Y(q),
        dz = Z(p) - Z(q);
      const d = dx * dx + dy * dy + dz * dz;
      if (d > best) {
        best = d;
        i0 = p;
        i1 = q;
      }
    }
  }
  idx[0] = i0;
  idx[1] = i1;
  if (!(Math.sqrt(best) > tol)) return 0;
  const lx = X(i1) - X(i0),
    ly = Y(i1) - Y(i0),
    lz = Z(i1) - Z(i0);
  const ll = Math.sqrt(lx * lx + ly * ly + lz * lz);
  let i2 = -1;
  best = -1;
  for (let i = 0; i < n; i++) {
    const px = X(i) - X(i0),
      py = Y(i) - Y(i0),
      pz = Z(i) - Z(i0);
    const cx = py * lz - pz * ly,
      cy = pz * lx - px * lz,
      cz = px * ly - py * lx;
    const d = Math.sqrt(cx * cx + cy * cy + cz * cz) / ll;
    if (d > best) {
      best = d;
      i2 = i;
    }
  }
  idx[2] = i2;
  if (!(best > tol)) return 1;
  const e2x = X(i2) - X(i0),
    e2y = Y(i2) - Y(i0),
    e2z = Z(i2) - Z(i0);
  let pnx = ly * e2z - lz * e2y,
    pny = lz * e2x - lx * e2z,
    pnz = lx * e2y - ly * e2x;
  const pl = Math.sqrt(pnx * pnx + pny * pny + pnz * pnz);
  pnx /= pl;
  pny /= pl;
  pnz /= pl;
  normal[0] = pnx;
  normal[1] = pny;
  normal[2] = pnz;
  let i3 = -1;
  best = -1;
  for (let i = 0; i < n; i++) {
    const d = Math.abs(pnx * (X(i) - X(i0)) + pny * (Y(i) - Y(i0)) + pnz * (Z(i) - Z(i0)));
    if (d > best) {
      best = d;
      i3 = i;
    }
  }
  idx[3] = i3;
  // A hull thinner than a few merge tolerances would have its faces merged across: call it flat.
  return best > 4 * tol ? 3 : 2;
}

const SPAN_NAMES = ["coincide", "are collinear", "are coplanar"];

function quickhull(pts: Float64Array, n: number, tol: number): Tri[] {
  const idx = new Int32Array(4);
  const span = pointSpan(pts, n, tol, idx, new Float64Array(3));
  if (span < 3) throw new RangeError(`points must span a volume (all ${n} points ${SPAN_NAMES[span]})`);
  const i0 = idx[0],
    i1 = idx[1],
    i2 = idx[2],
    i3 = idx[3];
  // Orient the tetrahedron so i3 is below the base (a, b, c) counter-clockwise from outside.
  let a = i0,
    b = i1;
  const c = i2;
  if (orient(pts, a, b, c, i3) > 0) {
    const t = a;
    a = b;
    b = t;
  }
  const f0 = new Tri(pts, a, b, c);
  const f1 = new Tri(pts, a, i3, b);
  const f2 = new Tri(pts, b, i3, c);
  const f3 = new Tri(pts, c, i3, a);
  const tris: Tri[] = [f0, f1, f2, f3];
  for (const t of tris) {
    for (let k = 0; k < 3; k++) {
      if (t.adj[k] !== null) continue;
      const u = t.v[k],
        w = t.v[k === 2 ? 0 : k + 1];
      for (const s of tris) {
        if (s !== t && s.edgeTo(w, u) >= 0) {
          link(t, k, s);
          break;
        }
      }
    }
  }
  for (let i = 0; i < n; i++) {
    if (i === a || i === b || i === c || i === i3) continue;
    assign(pts, i, tris);
  }

  // Main loop.
  let stamp = 0;
  const horizonA: number[] = [];
  const horizonB: number[] = [];
  const horizonT: Tri[] = [];
  const visible: Tri[] = [];
  const stack: Tri[] = tris.slice();
  const newTris: Tri[] = [];
  for (;;) {
    let face: Tri | null = null;
    while (stack.length > 0) {
      const t = stack.pop() as Tri;
      if (t.alive && t.outside.length > 0) {
        face = t;
        break;
      }
    }
    if (face === null) break;
    // Eye: the farthest outside point.
    let eye = face.outside[0];
    let ed = face.distance(pts, eye);
    for (let k = 1; k < face.outside.length; k++) {
      const q = face.outside[k];
      const d = face.distance(pts, q);
      if (d > ed) {
        ed = d;
        eye = q;
      }
    }
    stamp++;
    horizonA.length = 0;
    horizonB.length = 0;
    horizonT.length = 0;
    visible.length = 0;
    face.stamp = stamp;
    face.visible = true;
    visible.push(face);
    // Depth-first walk over the visible faces, crossing edges in counter-clockwise order, so the horizon
    // edges come out as one ordered loop.
    const walk = (t: Tri, enter: number): void => {
      for (let s = 0; s < 3; s++) {
        const k = enter < 0 ? s : (enter + 1 + s) % 3;
        if (enter >= 0 && s === 2) break; // the entry edge itself
        const u = t.adj[k] as Tri;
        if (u.stamp !== stamp) {
          u.stamp = stamp;
          u.visible = u.above(pts, eye);
          if (u.visible) {
            visible.push(u);
            walk(u, u.edgeTo(t.v[k === 2 ? 0 : k + 1], t.v[k]));
            continue;
          }
        }
        if (!u.visible) {
          horizonA.push(t.v[k]);
          horizonB.push(t.v[k === 2 ? 0 : k + 1]);
          horizonT.push(u);
        }
      }
    };
    walk(face, -1);
    const h = horizonA.length;
    for (let k = 0; k < h; k++) {
      if (horizonB[k] !== horizonA[(k + 1) % h]) throw new Error("ConvexHull: internal error (broken horizon)");
    }
    // Cone of new triangles from the eye to the horizon.
    newTris.length = 0;
    for (let k = 0; k < h; k++) {
      const t = new Tri(pts, horizonA[k], horizonB[k], eye);
      link(t, 0, horizonT[k]);
      newTris.push(t);
      tris.push(t);
    }
    for (let k = 0; k < h; k++) link(newTris[k], 1, newTris[(k + 1) % h]);
    for (const t of visible) t.alive = false;
    // Reassign the orphaned outside points.
    for (const t of visible) {
      for (const q of t.outside) {
        if (q !== eye) assign(pts, q, newTris);
      }
      t.outside = [];
    }
    for (const t of newTris) stack.push(t);
  }
  return tris.filter((t) => t.alive);
}

// ---- the shape ---------------------------------------------------------------------------------------

/** Reads an xyz triple list, checking it; throws RangeError naming `points`. */
function readPoints(points: ArrayLike<number>): Float64Array {
  if (points === null || typeof points !== "object" || typeof points.length !== "number") {
    throw new TypeError(`points must be an array of xyz triples, got ${String(points)}`);
  }
  if (points.length % 3 !== 0) {
    throw new RangeError(`points must hold xyz triples (length a multiple of 3), got length ${points.length}`);
  }
  const n = points.length / 3;
  if (n < 1) throw new RangeError("points must hold at least one point, got 0 points");
  const pts = new Float64Array(points.length);
  for (let i = 0; i < points.length; i++) {
    const v = points[i];
    if (typeof v !== "number" || !Number.isFinite(v)) {
      throw new RangeError(`points[${i}] must be a finite number, got ${String(v)}`);
    }
    pts[i] = v === 0 ? 0 : v; // fold -0
  }
  return pts;
}

/**
 * The points with each one closer than `tol` to an earlier kept point dropped (kept in input order, so the
 * result is deterministic). Mesh data holds near-duplicates (a UV sphere's pole and seam vertices differ by
 * float rounding): kept as separate hull vertices, they form zero-size faces on which hill climbing stalls,
 * so support queries would return a vertex far from the extreme one. Welding within the hull's tolerance is
 * Gregorius's advice ("Implementing Quickhull", GDC 2014). A grid of cells of size `tol` finds the
 * neighbours: a point within `tol` lies in one of the 27 cells around the query's cell.
 */
function weldPoints(pts: Float64Array, tol: number): Float64Array {
  const n = pts.length / 3;
  if (!(tol > 0)) return pts;
  const cells = new Map<string, number[]>();
  const kept: number[] = [];
  const tol2 = tol * tol;
  for (let i = 0; i < n; i++) {
    const x = pts[3 * i],
      y = pts[3 * i + 1],
      z = pts[3 * i + 2];
    const cx = Math.floor(x / tol),
      cy = Math.floor(y / tol),
      cz = Math.floor(z / tol);
    let near = false;
    for (let dx = -1; dx <= 1 && !near; dx++) {
      for (let dy = -1; dy <= 1 && !near; dy++) {
        for (let dz = -1; dz <= 1 && !near; dz++) {
          const list = cells.get(`${cx + dx},${cy + dy},${cz + dz}`);
          if (!list) continue;
          for (const k of list) {
            const ex = kept[k] - x,
              ey = kept[k + 1] - y,
              ez = kept[k + 2] - z;
            if (ex * ex + ey * ey + ez * ez < tol2) {
              near = true;
              break;
            }
          }
        }
      }
    }
    if (near) continue;
    const key = `${cx},${cy},${cz}`;
    const list = cells.get(key);
    if (list) list.push(kept.length);
    else cells.set(key, [kept.length]);
    kept.push(x, y, z);
  }
  return kept.length === pts.length ? pts : new Float64Array(kept);
}

/** The merge tolerance of a point cloud: {@link RELATIVE_TOLERANCE} times its largest extent. */
function cloudTolerance(pts: Float64Array): number {
  let extent = 0;
  for (let a = 0; a < 3; a++) {
    let lo = Infinity,
      hi = -Infinity;
    for (let i = a; i < pts.length; i += 3) {
      if (pts[i] < lo) lo = pts[i];
      if (pts[i] > hi) hi = pts[i];
    }
    if (hi - lo > extent) extent = hi - lo;
  }
  return RELATIVE_TOLERANCE * extent;
}

/**
 * What a point cloud (x, y, z, ...) spans, as {@link ConvexHull} judges it: 0 when the points coincide,
 * 1 collinear, 2 coplanar (a flat hull), 3 a volume. Throws as the constructor does on bad input.
 */
export function pointCloudSpan(points: ArrayLike<number>): number {
  const pts = readPoints(points);
  const tol = cloudTolerance(pts);
  const welded = weldPoints(pts, tol);
  return pointSpan(welded, welded.length / 3, tol, new Int32Array(4), new Float64Array(3));
}

/**
 * Default half thickness of the slab a flat point cloud becomes (m): 1 mm, so the surface lies 1 mm off the
 * rendered polygon, as the Babylon plugin's flat BOX does.
 */
export const FLAT_HULL_HALF_THICKNESS = 0.001;

/** The points copied to both sides of their plane (unit `normal`), `h` away: a slab of thickness 2h. */
function extrudeFlat(pts: Float64Array, normal: Float64Array, h: number): Float64Array {
  const out = new Float64Array(pts.length * 2);
  const ox = normal[0] * h,
    oy = normal[1] * h,
    oz = normal[2] * h;
  for (let i = 0; i < pts.length; i += 3) {
    out[2 * i] = pts[i] + ox;
    out[2 * i + 1] = pts[i + 1] + oy;
    out[2 * i + 2] = pts[i + 2] + oz;
    out[2 * i + 3] = pts[i] - ox;
    out[2 * i + 4] = pts[i + 1] - oy;
    out[2 * i + 5] = pts[i + 2] - oz;
  }
  return out;
}

/** Direction scratch for supportIndex (see supportIndexOf). */
const hullDir = new Float64Array(3);

/**
 * A convex polyhedron: the convex hull of a point cloud, with its faces merged into convex polygons.
 *
 * Topology is kept in flat arrays: `vertices` (xyz), faces as index lists (`faceStart` / `faceVertices`,
 * counter-clockwise seen from outside) with outward unit normals and plane offsets (n . x <= offset
 * inside), edges with their two vertices and two adjacent faces, and per-vertex incident edges and faces.
 */
export class ConvexHull extends ConvexShape {
  readonly type = ShapeType.ConvexHull;
  /** Vertex positions, xyz triples (local frame). */
  readonly vertices: Float64Array;
  /** Face f's vertices are faceVertices[faceStart[f] .. faceStart[f + 1] - 1], counter-clockwise from outside. */
  readonly faceStart: Int32Array;
  readonly faceVertices: Int32Array;
  /** Outward unit normal of each face (xyz triples). */
  readonly faceNormals: Float64Array;
  /** Plane offset of each face: points x of the hull satisfy n . x <= offset. */
  readonly faceOffsets: Float64Array;
  /** Edge e joins vertices edgeVertices[2e], edgeVertices[2e + 1]; edgeFaces[2e] has it in that order. */
  readonly edgeVertices: Int32Array;
  readonly edgeFaces: Int32Array;
  /** Incident edges of vertex v: vertexEdges[vertexEdgeStart[v] .. vertexEdgeStart[v + 1] - 1]. */
  readonly vertexEdgeStart: Int32Array;
  /** The other end of each of those edges: vertexNeighbors[k] for vertexEdges[k] (hill climbing reads only this). */
  readonly vertexNeighbors: Int32Array;
  /**
   * What a supporting-feature query at vertex v reads, in one contiguous block from featureStart[v] (one
   * or two cache lines per query instead of a line in each of six arrays): the number of incident faces,
   * then per face its outward unit normal and index (4 numbers); the number of incident edges, then per
   * edge its unit direction from v, the other vertex and the edge index (5 numbers).
   */
  readonly featureStart: Int32Array;
  readonly featureData: Float64Array;
  readonly vertexEdges: Int32Array;
  /** Incident faces of vertex v: vertexFaces[vertexFaceStart[v] .. vertexFaceStart[v + 1] - 1]. */
  readonly vertexFaceStart: Int32Array;
  readonly vertexFaces: Int32Array;
  /** Distance within which points count as coplanar while merging faces (relative to the cloud's size). */
  readonly tolerance: number;
  readonly maximumRadius: number;
  readonly minimumRadius: number;

  private readonly vol: number;
  private readonly cx: number;
  private readonly cy: number;
  private readonly cz: number;
  private readonly inertia = new Float64Array(6);
  /** Hill-climbing starts: the vertices extreme along +-x, +-y, +-z. */
  private readonly starts = new Int32Array(6);

  /**
   * Half the thickness of a flat hull's slab (see the constructor); 0 for a hull of points that span a volume.
   */
  readonly flatHalfThickness: number;

  /**
   * Builds the hull of `points` (x, y, z, x, y, z, ...). Duplicate (within the tolerance), interior and
   * coplanar points are dropped.
   *
   * Points that all lie in one plane (a ground, a disc, a card) make a thin solid: the polygon extruded by
   * `flatHalfThickness` to both sides of its plane (default {@link FLAT_HULL_HALF_THICKNESS}; at least 8
   * merge tolerances on very large clouds), so it rests on and supports other bodies as Havok's and Jolt's
   * flat hulls do with their convex radius. Throws RangeError when the points are collinear or coincide (use
   * a Capsule or a Sphere; the Babylon plugin does that for CONVEX_HULL shapes).
   */
  constructor(points: ArrayLike<number>, flatHalfThickness = FLAT_HULL_HALF_THICKNESS) {
    super();
    const pts = readPoints(points);
    const n = pts.length / 3;
    const tol = cloudTolerance(pts);
    this.tolerance = tol;
    let welded = weldPoints(pts, tol);
    const idx = new Int32Array(4),
      normal = new Float64Array(3);
    const span = pointSpan(welded, welded.length / 3, tol, idx, normal);
    if (span < 2) {
      throw new RangeError(`points must span a plane or a volume (all ${n} points ${SPAN_NAMES[span]}): use a Sphere or a Capsule`);
    }
    if (!(flatHalfThickness > 0 && flatHalfThickness < Infinity)) {
      throw new RangeError(`flatHalfThickness must be a finite number > 0, got ${String(flatHalfThickness)}`);
    }
    this.flatHalfThickness = 0;
    if (span === 2) {
      // Thicker than the flatness threshold (4 tol) so the slab is a volume for Quickhull.
      const h = Math.max(flatHalfThickness, 8 * tol);
      welded = extrudeFlat(welded, normal, h);
      this.flatHalfThickness = h;
    }
    const tris = quickhull(welded, welded.length / 3, tol);
    const polys = mergeFaces(welded, tris, tol);
    removeCollinearVertices(polys);

    // Compact the vertices, in order of first use.
    const remap = new Map<number, number>();
    const verts: number[] = [];
    for (const poly of polys) {
      for (let k = 0; k < poly.length; k++) {
        let r = remap.get(poly[k]);
        if (r === undefined) {
          r = verts.length / 3;
          remap.set(poly[k], r);
          verts.push(welded[3 * poly[k]], welded[3 * poly[k] + 1], welded[3 * poly[k] + 2]);
        }
        poly[k] = r;
      }
    }
    const V = verts.length / 3;
    const F = polys.length;
    this.vertices = new Float64Array(verts);
    const vs = this.vertices;
    this.faceStart = new Int32Array(F + 1);
    let total = 0;
    for (let f = 0; f < F; f++) {
      this.faceStart[f] = total;
      total += polys[f].length;
    }
    this.faceStart[F] = total;
    this.faceVertices = new Int32Array(total);
    this.faceNormals = new Float64Array(3 * F);
    this.faceOffsets = new Float64Array(F);
    for (let f = 0; f < F; f++) {
      const poly = polys[f];
      this.faceVertices.set(poly, this.faceStart[f]);
      // Newell's normal, then the plane through the outermost of the face's vertices.
      let nx = 0,
        ny = 0,
        nz = 0;
      for (let k = 0; k < poly.length; k++) {
        const p = poly[k],
          q = poly[(k + 1) % poly.length];
        const px = vs[3 * p],
          py = vs[3 * p + 1],
          pz = vs[3 * p + 2];
        const qx = vs[3 * q],
          qy = vs[3 * q + 1],
          qz = vs[3 * q + 2];
        nx += (py - qy) * (pz + qz);
        ny += (pz - qz) * (px + qx);
        nz += (px - qx) * (py + qy);
      }
      const l = Math.sqrt(nx * nx + ny * ny + nz * nz);
      nx /= l;
      ny /= l;
      nz /= l;
      let d = -Infinity;
      for (const p of poly) d = Math.max(d, nx * vs[3 * p] + ny * vs[3 * p + 1] + nz * vs[3 * p + 2]);
      this.faceNormals[3 * f] = nx;
      this.faceNormals[3 * f + 1] = ny;
      this.faceNormals[3 * f + 2] = nz;
      this.faceOffsets[f] = d;
    }

    // Edges: each undirected edge once, from the face that has it with the smaller vertex first.
    const half = new Map<number, number>();
    for (let f = 0; f < F; f++) {
      const poly = polys[f];
      for (let k = 0; k < poly.length; k++) half.set(poly[k] * V + poly[(k + 1) % poly.length], f);
    }
    const ev: number[] = [];
    const ef: number[] = [];
    for (let f = 0; f < F; f++) {
      const poly = polys[f];
      for (let k = 0; k < poly.length; k++) {
        const a = poly[k],
          b = poly[(k + 1) % poly.length];
        const g = half.get(b * V + a);
        if (g === undefined) throw new Error("ConvexHull: internal error (open edge)");
        if (a < b) {
          ev.push(a, b);
          ef.push(f, g);
        }
      }
    }
    const E = ev.length / 2;
    if (V - E + F !== 2) throw new Error(`ConvexHull: internal error (Euler characteristic ${V - E + F})`);
    this.edgeVertices = new Int32Array(ev);
    this.edgeFaces = new Int32Array(ef);
    this.vertexEdgeStart = new Int32Array(V + 1);
    this.vertexEdges = new Int32Array(2 * E);
    this.vertexFaceStart = new Int32Array(V + 1);
    this.vertexFaces = new Int32Array(total);
    csr(V, E, (e, emit) => {
      emit(ev[2 * e]);
      emit(ev[2 * e + 1]);
    }, this.vertexEdgeStart, this.vertexEdges);
    this.vertexNeighbors = new Int32Array(2 * E);
    for (let v = 0; v < V; v++) {
      for (let k = this.vertexEdgeStart[v]; k < this.vertexEdgeStart[v + 1]; k++) {
        const e = this.vertexEdges[k];
        this.vertexNeighbors[k] = ev[2 * e] === v ? ev[2 * e + 1] : ev[2 * e];
      }
    }
    csr(V, F, (f, emit) => {
      for (const p of polys[f]) emit(p);
    }, this.vertexFaceStart, this.vertexFaces);
    this.featureStart = new Int32Array(V + 1);
    this.featureData = new Float64Array(2 * V + 4 * total + 5 * 2 * E);
    {
      const fd = this.featureData;
      let k = 0;
      for (let v = 0; v < V; v++) {
        this.featureStart[v] = k;
        fd[k++] = this.vertexFaceStart[v + 1] - this.vertexFaceStart[v];
        for (let j = this.vertexFaceStart[v]; j < this.vertexFaceStart[v + 1]; j++) {
          const f = this.vertexFaces[j];
          fd[k++] = this.faceNormals[3 * f];
          fd[k++] = this.faceNormals[3 * f + 1];
          fd[k++] = this.faceNormals[3 * f + 2];
          fd[k++] = f;
        }
        fd[k++] = this.vertexEdgeStart[v + 1] - this.vertexEdgeStart[v];
        for (let j = this.vertexEdgeStart[v]; j < this.vertexEdgeStart[v + 1]; j++) {
          const w = this.vertexNeighbors[j];
          const ex = vs[3 * w] - vs[3 * v],
            ey = vs[3 * w + 1] - vs[3 * v + 1],
            ez = vs[3 * w + 2] - vs[3 * v + 2];
          const el = Math.sqrt(ex * ex + ey * ey + ez * ez);
          // A zero-length edge gets a NaN direction: never the most perpendicular.
          fd[k++] = ex / el;
          fd[k++] = ey / el;
          fd[k++] = ez / el;
          fd[k++] = w;
          fd[k++] = this.vertexEdges[j];
        }
      }
      this.featureStart[V] = k;
    }

    // Radii and hill-climbing starts.
    let maxR2 = 0;
    for (let a = 0; a < 6; a++) this.starts[a] = 0;
    for (let v = 0; v < V; v++) {
      const x = vs[3 * v],
        y = vs[3 * v + 1],
        z = vs[3 * v + 2];
      maxR2 = Math.max(maxR2, x * x + y * y + z * z);
      for (let a = 0; a < 3; a++) {
        if (vs[3 * v + a] < vs[3 * this.starts[2 * a] + a]) this.starts[2 * a] = v;
        if (vs[3 * v + a] > vs[3 * this.starts[2 * a + 1] + a]) this.starts[2 * a + 1] = v;
      }
    }
    this.maximumRadius = Math.sqrt(maxR2);
    let minR = Infinity;
    for (let f = 0; f < F; f++) minR = Math.min(minR, this.faceOffsets[f]);
    this.minimumRadius = minR > 0 ? minR : 0;

    // Mass properties.
    const mp = solidProperties(vs, polys);
    this.vol = mp[0];
    this.cx = mp[1];
    this.cy = mp[2];
    this.cz = mp[3];
    for (let k = 0; k < 6; k++) this.inertia[k] = mp[4 + k];
  }

  /** Number of vertices. */
  get vertexCount(): number {
    return this.vertices.length / 3;
  }
  /** Number of faces (merged polygons). */
  get faceCount(): number {
    return this.faceOffsets.length;
  }
  /** Number of edges. */
  get edgeCount(): number {
    return this.edgeFaces.length / 2;
  }

  /** Number of vertices of face f. */
  faceVertexCount(f: number): number {
    return this.faceStart[f + 1] - this.faceStart[f];
  }

  /** Vertex indices of face f, counter-clockwise seen from outside (a new array; not for per-step code). */
  getFacePolygon(f: number): number[] {
    return Array.from(this.faceVertices.subarray(this.faceStart[f], this.faceStart[f + 1]));
  }

  /**
   * The face whose outward normal is most aligned with local direction (dx, dy, dz): all faces are
   * compared for small hulls; large hulls compare the faces around the supporting vertex.
   */
  mostAlignedFace(dx: number, dy: number, dz: number): number {
    const fn = this.faceNormals;
    let best = 0,
      bestDot = -Infinity;
    if (this.faceCount <= 64) {
      for (let f = 0; f < this.faceCount; f++) {
        const d = fn[3 * f] * dx + fn[3 * f + 1] * dy + fn[3 * f + 2] * dz;
        if (d > bestDot) {
          bestDot = d;
          best = f;
        }
      }
      return best;
    }
    const v = this.supportIndex(dx, dy, dz);
    for (let k = this.vertexFaceStart[v]; k < this.vertexFaceStart[v + 1]; k++) {
      const f = this.vertexFaces[k];
      const d = fn[3 * f] * dx + fn[3 * f + 1] * dy + fn[3 * f + 2] * dz;
      if (d > bestDot) {
        bestDot = d;
        best = f;
      }
    }
    return best;
  }

  /** Index of the vertex farthest along local direction (dx, dy, dz) (the lowest index on ties for small hulls). */
  supportIndex(dx: number, dy: number, dz: number): number {
    hullDir[0] = dx;
    hullDir[1] = dy;
    hullDir[2] = dz;
    return this.supportIndexOf(hullDir, 0);
  }

  /**
   * {@link supportIndex} along the direction d[o..o+2]. Hot callers use this form: supportIndex is too
   * large to inline (doubles in arrays, docs/design.md).
   */
  supportIndexOf(d: Float64Array, o: number): number {
    const dx = d[o],
      dy = d[o + 1],
      dz = d[o + 2];
    const vs = this.vertices;
    const V = vs.length / 3;
    if (V <= BRUTE_FORCE_SUPPORT) {
      let best = 0,
        bd = vs[0] * dx + vs[1] * dy + vs[2] * dz;
      for (let v = 1; v < V; v++) {
        const d = vs[3 * v] * dx + vs[3 * v + 1] * dy + vs[3 * v + 2] * dz;
        if (d > bd) {
          bd = d;
          best = v;
        }
      }
      return best;
    }
    // Start at the best axis-extreme vertex, then climb.
    let v = this.starts[0],
      bd = -Infinity;
    for (let a = 0; a < 6; a++) {
      const s = this.starts[a];
      const d = vs[3 * s] * dx + vs[3 * s + 1] * dy + vs[3 * s + 2] * dz;
      if (d > bd) {
        bd = d;
        v = s;
      }
    }
    return this.supportIndexFrom(d, o, v);
  }

  /**
   * {@link supportIndexOf} by hill climbing from vertex `start`: along edges while some neighbour is farther
   * along d; on a convex polytope a local maximum of a linear function over the vertex graph is the global
   * one. A start near the answer (the previous answer of a query sequence with coherent directions) costs
   * ~25-40 ns against 60-100 ns for brute force at 8-16 vertices in an isolated measurement; inside GJK on
   * small hulls it measured slower (gjk.ts, WARM_START_VERTICES), so GJK climbs only on larger hulls. Ties
   * keep the current vertex.
   */
  supportIndexFrom(d: Float64Array, o: number, start: number): number {
    const dx = d[o],
      dy = d[o + 1],
      dz = d[o + 2];
    const vs = this.vertices;
    const es = this.vertexEdgeStart,
      nb = this.vertexNeighbors;
    let v = start;
    let bd = vs[3 * v] * dx + vs[3 * v + 1] * dy + vs[3 * v + 2] * dz;
    for (;;) {
      let next = -1;
      for (let k = es[v]; k < es[v + 1]; k++) {
        const w = nb[k];
        const dw = vs[3 * w] * dx + vs[3 * w + 1] * dy + vs[3 * w + 2] * dz;
        if (dw > bd) {
          bd = dw;
          next = w;
        }
      }
      if (next < 0) return v;
      v = next;
    }
  }

  supportLocal(dx: number, dy: number, dz: number, out: MutableVec3): void {
    const v = this.supportIndex(dx, dy, dz);
    out.x = this.vertices[3 * v];
    out.y = this.vertices[3 * v + 1];
    out.z = this.vertices[3 * v + 2];
  }

  override supportCoreInto(dir: Float64Array, out: Float64Array): void {
    const v = this.supportIndexOf(dir, 0);
    out[0] = this.vertices[3 * v];
    out[1] = this.vertices[3 * v + 1];
    out[2] = this.vertices[3 * v + 2];
  }

  override radiiInto(out: Float64Array, o: number): void {
    out[o] = 0;
    out[o + 1] = this.maximumRadius;
  }

  computeAabb(pose: Pose, out: Float64Array, o: number): void {
    // Rows of the rotation matrix: world axis i in the local frame.
    const M = HULL_ROT;
    pose.rotationMatrix(M, 0);
    const r00 = M[0],
      r01 = M[1],
      r02 = M[2];
    const r10 = M[3],
      r11 = M[4],
      r12 = M[5];
    const r20 = M[6],
      r21 = M[7],
      r22 = M[8];
    const vs = this.vertices;
    const V = vs.length / 3;
    let lo0 = 0, lo1 = 0, lo2 = 0, hi0 = 0, hi1 = 0, hi2 = 0;
    if (V <= BRUTE_FORCE_AABB) {
      lo0 = lo1 = lo2 = Infinity;
      hi0 = hi1 = hi2 = -Infinity;
      for (let v = 0; v < V; v++) {
        const x = vs[3 * v],
          y = vs[3 * v + 1],
          z = vs[3 * v + 2];
        const a = r00 * x + r01 * y + r02 * z,
          b = r10 * x + r11 * y + r12 * z,
          c = r20 * x + r21 * y + r22 * z;
        if (a < lo0) lo0 = a;
        if (a > hi0) hi0 = a;
        if (b < lo1) lo1 = b;
        if (b > hi1) hi1 = b;
        if (c < lo2) lo2 = c;
        if (c > hi2) hi2 = c;
      }
    } else {
      let v = this.supportIndex(r00, r01, r02);
      hi0 = r00 * vs[3 * v] + r01 * vs[3 * v + 1] + r02 * vs[3 * v + 2];
      v = this.supportIndex(-r00, -r01, -r02);
      lo0 = r00 * vs[3 * v] + r01 * vs[3 * v + 1] + r02 * vs[3 * v + 2];
      v = this.supportIndex(r10, r11, r12);
      hi1 = r10 * vs[3 * v] + r11 * vs[3 * v + 1] + r12 * vs[3 * v + 2];
      v = this.supportIndex(-r10, -r11, -r12);
      lo1 = r10 * vs[3 * v] + r11 * vs[3 * v + 1] + r12 * vs[3 * v + 2];
      v = this.supportIndex(r20, r21, r22);
      hi2 = r20 * vs[3 * v] + r21 * vs[3 * v + 1] + r22 * vs[3 * v + 2];
      v = this.supportIndex(-r20, -r21, -r22);
      lo2 = r20 * vs[3 * v] + r21 * vs[3 * v + 1] + r22 * vs[3 * v + 2];
    }
    out[o] = pose.px + lo0;
    out[o + 1] = pose.py + lo1;
    out[o + 2] = pose.pz + lo2;
    out[o + 3] = pose.px + hi0;
    out[o + 4] = pose.py + hi1;
    out[o + 5] = pose.pz + hi2;
  }

  volume(): number {
    return this.vol;
  }

  override centroid(out: MutableVec3): void {
    out.x = this.cx;
    out.y = this.cy;
    out.z = this.cz;
  }

  /** Inertia per unit mass about the local origin (not the centroid), as the Shape contract says. */
  unitInertia(out: Float64Array, o: number): void {
    for (let k = 0; k < 6; k++) out[o + k] = this.inertia[k];
  }

  /** True when local point (x, y, z) is inside the hull or on its surface. */
  containsLocal(x: number, y: number, z: number): boolean {
    const fn = this.faceNormals,
      fo = this.faceOffsets;
    for (let f = 0; f < fo.length; f++) {
      if (fn[3 * f] * x + fn[3 * f + 1] * y + fn[3 * f + 2] * z > fo[f]) return false;
    }
    return true;
  }
}

/** Fills a compressed adjacency (start offsets + items) mapping vertices to the items that use them. */
function csr(V: number, count: number, each: (i: number, emit: (v: number) => void) => void, start: Int32Array, items: Int32Array): void {
  const deg = new Int32Array(V);
  for (let i = 0; i < count; i++) each(i, (v) => deg[v]++);
  start[0] = 0;
  for (let v = 0; v < V; v++) start[v + 1] = start[v] + deg[v];
  const fill = start.slice(0, V);
  for (let i = 0; i < count; i++) each(i, (v) => (items[fill[v]++] = i));
}

/**
 * Groups the hull's triangles into coplanar polygons: seeds in order of decreasing area grow over
 * neighbours whose three vertices lie within `tol` of the seed's plane. A group whose outline is not
 * one simple loop is split back into its triangles. Returns the polygons (counter-clockwise from outside).
 */
function mergeFaces(pts: Float64Array, tris: Tri[], tol: number): number[][] {
  const T = tris.length;
  const index = new Map<Tri, number>();
  for (let i = 0; i < T; i++) index.set(tris[i], i);
  const area = new Float64Array(T);
  for (let i = 0; i < T; i++) {
    const [a, b, c] = tris[i].v;
    triangleCross(pts, 3 * a, 3 * b, 3 * c, CROSS, 0);
    area[i] = Math.sqrt(CROSS[0] * CROSS[0] + CROSS[1] * CROSS[1] + CROSS[2] * CROSS[2]);
  }
  const order = Array.from({ length: T }, (_, i) => i).sort((p, q) => area[q] - area[p] || p - q);
  const group = new Int32Array(T).fill(-1);
  const groups: number[][] = [];
  for (const seed of order) {
    if (group[seed] >= 0) continue;
    const g = groups.length;
    const s = tris[seed];
    const members = [seed];
    group[seed] = g;
    for (let m = 0; m < members.length; m++) {
      const t = tris[members[m]];
      for (let k = 0; k < 3; k++) {
        const u = index.get(t.adj[k] as Tri) as number;
        if (group[u] >= 0) continue;
        const ut = tris[u];
        if (ut.nx * s.nx + ut.ny * s.ny + ut.nz * s.nz <= 0) continue;
        let ok = true;
        for (const p of ut.v) {
          if (Math.abs(s.distance(pts, p)) > tol) {
            ok = false;
            break;
          }
        }
        if (!ok) continue;
        group[u] = g;
        members.push(u);
      }
    }
    groups.push(members);
  }
  const polys: number[][] = [];
  for (let g = 0; g < groups.length; g++) {
    const members = groups[g];
    if (members.length === 1) {
      polys.push(tris[members[0]].v.slice());
      continue;
    }
    // Outline: directed edges of member triangles whose neighbour is outside the group.
    const next = new Map<number, number>();
    let simple = true;
    let count = 0;
    for (const i of members) {
      const t = tris[i];
      for (let k = 0; k < 3; k++) {
        if (group[index.get(t.adj[k] as Tri) as number] === g) continue;
        const a = t.v[k];
        if (next.has(a)) simple = false; // the outline passes twice through a vertex
        next.set(a, t.v[k === 2 ? 0 : k + 1]);
        count++;
      }
    }
    const loop: number[] = [];
    if (simple && count >= 3) {
      const start = next.keys().next().value as number;
      let v = start;
      do {
        loop.push(v);
        v = next.get(v) as number;
      } while (v !== start && loop.length <= count);
      if (loop.length !== count) simple = false;
    } else simple = false;
    if (simple) polys.push(loop);
    else for (const i of members) polys.push(tris[i].v.slice());
  }
  return polys;
}

/**
 * Removes vertices that belong to only two faces (they lie on the straight edge between them, left over
 * from merging), as long as both faces keep at least three vertices.
 */
function removeCollinearVertices(polys: number[][]): void {
  const faceCount = new Map<number, number>();
  for (const p of polys) for (const v of p) faceCount.set(v, (faceCount.get(v) ?? 0) + 1);
  for (const [v, c] of faceCount) {
    if (c !== 2) continue;
    const owners = polys.filter((p) => p.includes(v));
    if (owners.length !== 2 || owners[0].length <= 3 || owners[1].length <= 3) continue;
    for (const p of owners) p.splice(p.indexOf(v), 1);
  }
}

/**
 * Volume, centroid and inertia per unit mass about the origin of the solid bounded by the polygons:
 * tetrahedra from the mean vertex to each fan triangle. Returns [V, cx, cy, cz, Ixx, Iyy, Izz, Ixy, Ixz, Iyz].
 */
function solidProperties(vs: Float64Array, polys: number[][]): number[] {
  const V = vs.length / 3;
  let rx = 0,
    ry = 0,
    rz = 0;
  for (let v = 0; v < V; v++) {
    rx += vs[3 * v];
    ry += vs[3 * v + 1];
    rz += vs[3 * v + 2];
  }
  rx /= V;
  ry /= V;
  rz /= V;
  let vol = 0,
    mx = 0,
    my = 0,
    mz = 0;
  // Second moments about r: C = integral of x x^T (x relative to r).
  let cxx = 0,
    cyy = 0,
    czz = 0,
    cxy = 0,
    cxz = 0,
    cyz = 0;
  for (const poly of polys) {
    const a = poly[0];
    const ax = vs[3 * a] - rx,
      ay = vs[3 * a + 1] - ry,
      az = vs[3 * a + 2] - rz;
    for (let k = 1; k + 1 < poly.length; k++) {
      const b = poly[k],
        c = poly[k + 1];
      const bx = vs[3 * b] - rx,
        by = vs[3 * b + 1] - ry,
        bz = vs[3 * b + 2] - rz;
      const cx = vs[3 * c] - rx,
        cy = vs[3 * c + 1] - ry,
        cz = vs[3 * c + 2] - rz;
      // det[a, b, c] = 6 * signed volume of the tetrahedron (r, a, b, c).
      const det = ax * (by * cz - bz * cy) + ay * (bz * cx - bx * cz) + az * (bx * cy - by * cx);
      vol += det / 6;
      const sx = ax + bx + cx,
        sy = ay + by + cy,
        sz = az + bz + cz;
      mx += (det / 24) * sx;
      my += (det / 24) * sy;
      mz += (det / 24) * sz;
      // Canonical tetrahedron: integral x x^T = det / 120 * (sum v v^T + s s^T) over the vertices a, b, c.
      const k120 = det / 120;
      cxx += k120 * (ax * ax + bx * bx + cx * cx + sx * sx);
      cyy += k120 * (ay * ay + by * by + cy * cy + sy * sy);
      czz += k120 * (az * az + bz * bz + cz * cz + sz * sz);
      cxy += k120 * (ax * ay + bx * by + cx * cy + sx * sy);
      cxz += k120 * (ax * az + bx * bz + cx * cz + sx * sz);
      cyz += k120 * (ay * az + by * bz + cy * cz + sy * sz);
    }
  }
  // Centroid relative to r, then second moments about the local origin: x_o = x + r.
  const gx = mx / vol,
    gy = my / vol,
    gz = mz / vol;
  const oxx = cxx + 2 * rx * mx + vol * rx * rx;
  const oyy = cyy + 2 * ry * my + vol * ry * ry;
  const ozz = czz + 2 * rz * mz + vol * rz * rz;
  const oxy = cxy + rx * my + ry * mx + vol * rx * ry;
  const oxz = cxz + rx * mz + rz * mx + vol * rx * rz;
  const oyz = cyz + ry * mz + rz * my + vol * ry * rz;
  // Inertia I = tr(C) E - C, per unit mass (divide by the volume).
  return [
    vol,
    gx + rx,
    gy + ry,
    gz + rz,
    (oyy + ozz) / vol,
    (oxx + ozz) / vol,
    (oxx + oyy) / vol,
    -oxy / vol,
    -oxz / vol,
    -oyz / vol,
  ];
}

const HULL_ROT = new Float64Array(9);
