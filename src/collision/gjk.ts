/**
 * GJK distance between the cores of two convex shapes (van den Bergen, "A Fast and Robust GJK
 * Implementation for Collision Detection of Convex Objects", 1999), with the signed-volume
 * sub-simplex solver of Montanari, Petrinic and Barbieri ("Improving the GJK algorithm for faster and
 * more reliable distance queries between convex objects", ACM TOG 2017) instead of Johnson's
 * determinant recursion, which loses precision on thin simplices.
 *
 * GJK runs on the *core* shapes (`supportCore`): a sphere is its centre and a capsule its segment, so
 * the distance between the rounded shapes is the core distance minus both core radii, exactly.
 *
 * The configuration-space obstacle (CSO) is A - B: a CSO point is w = sA - sB. Its point v closest to
 * the origin gives the core distance |v|, and -v/|v| is the unit direction from A toward B.
 *
 * Allocation-free: all scratch is module-level typed arrays; callers keep one GjkResult.
 */
import type { Pose } from "../math/pose";
import { PointPair } from "./pointPair";
import { triangleCross } from "../math/vec3";
import { rotateParts } from "../math/quat";
import { ConvexHull } from "../shapes/convexHull";
import type { ConvexShape } from "../shapes/shape";

/**
 * Result of {@link gjkDistance}: the closest points on A's and B's cores and the unit direction from A toward B
 * (valid when separated). Preallocate one and reuse it.
 */
export class GjkResult extends PointPair {
  /** True when the cores are disjoint (distance > 0); false when they overlap or touch. */
  separated = false;
  /**
   * False when GJK stopped early because the cores are provably farther apart than `maxDistance`;
   * then `distance` is only a lower bound and the closest points are not filled.
   */
  exact = true;
  /** Distance between the cores (0 when overlapping). */
  distance = 0;
  /** Number of GJK iterations used. */
  iterations = 0;
  /** The final simplex (CSO points w, and their support points on A and B), for EPA seeding. */
  simplexCount = 0;
  readonly simplexW = new Float64Array(12);
  readonly simplexA = new Float64Array(12);
  readonly simplexB = new Float64Array(12);
}

const MAX_ITERATIONS = 64;
/** Relative termination: stop when |v|^2 - v.w <= REL_EPS * |v|^2 (van den Bergen's criterion). */
const REL_EPS = 1e-10;
/** Overlap: |v|^2 below this fraction of the largest |w|^2 seen counts as touching. */
const OVERLAP_EPS = 1e-13;

// The helpers below take vectors in Float64Arrays: doubles in arrays (docs/design.md); the call into the
// shape is megamorphic.

/** Local-frame direction passed to ConvexShape.supportCoreInto, and the local support point it writes. */
const localDir = new Float64Array(3);
const localSup = new Float64Array(3);

/**
 * World-space support of `s`'s core at pose `p` along world direction dir[0..2] (negated when
 * `negate`); written into out[o..o+2]. Rotates the direction into the local frame, queries, rotates
 * back.
 */
function supportCoreAlong(s: ConvexShape, p: Pose, dir: Float64Array, negate: boolean, out: Float64Array, o: number): void {
  const dx = negate ? -dir[0] : dir[0],
    dy = negate ? -dir[1] : dir[1],
    dz = negate ? -dir[2] : dir[2];
  // local = conj(q) * d
  rotateParts(-p.qx, -p.qy, -p.qz, p.qw, dx, dy, dz, localDir, 0);
  s.supportCoreInto(localDir, localSup);
  p.pointToWorld(localSup[0], localSup[1], localSup[2], out, o);
}

/** Direction scratch of the scalar-argument wrapper {@link supportCoreWorld}. */
const wrapperDir = new Float64Array(3);

/**
 * World-space support of `s`'s core at pose `p` along world direction (dx, dy, dz); written into
 * out[o..o+2]. Convenience form for queries; hot paths use {@link supportCsoFramed}.
 */
export function supportCoreWorld(s: ConvexShape, p: Pose, dx: number, dy: number, dz: number, out: Float64Array, o: number): void {
  wrapperDir[0] = dx;
  wrapperDir[1] = dy;
  wrapperDir[2] = dz;
  supportCoreAlong(s, p, wrapperDir, false, out, o);
}

/**
 * CSO support along dir[0..2]: sA(d) on A's core, sB(-d) on B's core and w = sA - sB, written at
 * offset o of the three arrays.
 */
export function supportCso(
  a: ConvexShape,
  pa: Pose,
  b: ConvexShape,
  pb: Pose,
  dir: Float64Array,
  w: Float64Array,
  sa: Float64Array,
  sb: Float64Array,
  o: number,
): void {
  setPairFrames(pa, pb);
  supportCsoFramed(a, b, dir, w, sa, sb, o);
}

/**
 * The current pair's poses as rotation matrix + position (A: [0..8] and [9..11], B: [12..20] and
 * [21..23]), set by {@link setPairFrames}. GJK and EPA make many support queries on one pair: with the
 * matrices, a query costs two 3x3 products instead of two quaternion rotations.
 */
const pairRot = new Float64Array(24);
/**
 * Last support vertex of each side when it is a ConvexHull (-1: none yet). Successive GJK/EPA directions
 * are coherent, so the next query hill-climbs from the previous answer (ConvexHull.supportIndexFrom)
 * instead of scanning every vertex. Reset per pair, so results depend only on the pair's inputs.
 */
const warmVertex = new Int32Array(2);
/**
 * Hulls with more vertices than this warm-start their support queries. Small hulls scan: GJK's directions jump
 * more than a micro-benchmark's, and the climb reads two more arrays (bench/RESULTS.md, "Measurements behind
 * constants").
 */
const WARM_START_VERTICES = 32;

/** Computes the rotation matrices that {@link supportCsoFramed} uses for the poses pa and pb. */
export function setPairFrames(pa: Pose, pb: Pose): void {
  pa.rotationMatrix(pairRot, 0);
  pairRot[9] = pa.px;
  pairRot[10] = pa.py;
  pairRot[11] = pa.pz;
  pb.rotationMatrix(pairRot, 12);
  pairRot[21] = pb.px;
  pairRot[22] = pb.py;
  pairRot[23] = pb.pz;
  warmVertex[0] = -1;
  warmVertex[1] = -1;
}

/** World support of `s` (frame pairRot[m..m+11]) along dir (negated when `negate`), into out[o..o+2]. */
function supportFramed(s: ConvexShape, m: number, dir: Float64Array, negate: boolean, out: Float64Array, o: number): void {
  const R = pairRot;
  const sg = negate ? -1 : 1;
  const dx = sg * dir[0],
    dy = sg * dir[1],
    dz = sg * dir[2];
  // local = R^T d
  localDir[0] = R[m] * dx + R[m + 3] * dy + R[m + 6] * dz;
  localDir[1] = R[m + 1] * dx + R[m + 4] * dy + R[m + 7] * dz;
  localDir[2] = R[m + 2] * dx + R[m + 5] * dy + R[m + 8] * dz;
  if (s instanceof ConvexHull && s.vertices.length > 3 * WARM_START_VERTICES) {
    const side = m === 0 ? 0 : 1;
    const w = warmVertex[side];
    const v = w < 0 ? s.supportIndexOf(localDir, 0) : s.supportIndexFrom(localDir, 0, w);
    warmVertex[side] = v;
    const vs = s.vertices;
    localSup[0] = vs[3 * v];
    localSup[1] = vs[3 * v + 1];
    localSup[2] = vs[3 * v + 2];
  } else {
    s.supportCoreInto(localDir, localSup);
  }
  const vx = localSup[0],
    vy = localSup[1],
    vz = localSup[2];
  out[o] = R[m + 9] + R[m] * vx + R[m + 1] * vy + R[m + 2] * vz;
  out[o + 1] = R[m + 10] + R[m + 3] * vx + R[m + 4] * vy + R[m + 5] * vz;
  out[o + 2] = R[m + 11] + R[m + 6] * vx + R[m + 7] * vy + R[m + 8] * vz;
}

/** {@link supportCso} for the poses of the last {@link setPairFrames}. */
export function supportCsoFramed(a: ConvexShape, b: ConvexShape, dir: Float64Array, w: Float64Array, sa: Float64Array, sb: Float64Array, o: number): void {
  supportFramed(a, 0, dir, false, sa, o);
  supportFramed(b, 12, dir, true, sb, o);
  w[o] = sa[o] - sb[o];
  w[o + 1] = sa[o + 1] - sb[o + 1];
  w[o + 2] = sa[o + 2] - sb[o + 2];
}

// ---- simplex and signed-volume sub-algorithm scratch --------------------------------------------

const sW = new Float64Array(12);
const sA = new Float64Array(12);
const sB = new Float64Array(12);
const tW = new Float64Array(12);
const tA = new Float64Array(12);
const tB = new Float64Array(12);

/** Output of the sub-algorithm: which simplex vertices remain, with their barycentric weights. */
const subIdx = new Int32Array(4);
/** s2d's triangle normal and scale (triangleCross). */
const CROSS = new Float64Array(4);
const subLam = new Float64Array(4);
let subN = 0;
// Per-level "best so far" (S2D and S3D each keep their own while calling the level below).
const best2Idx = new Int32Array(4);
const best2Lam = new Float64Array(4);
const best3Idx = new Int32Array(4);
const best3Lam = new Float64Array(4);

/**
 * Best |v|^2 so far of each level: [0] S2D over its edges, [1] S3D over its faces. Kept in a typed
 * array, not passed and returned as doubles, so the calls below never box.
 */
const bestDist2 = new Float64Array(2);

/** |sum lam_k W[idx_k]|^2 for the current sub-algorithm output, into subDist2Out[0]. */
const subDist2Out = new Float64Array(1);
function subDist2(): void {
  let x = 0,
    y = 0,
    z = 0;
  for (let k = 0; k < subN; k++) {
    const o = subIdx[k] * 3,
      l = subLam[k];
    x += l * sW[o];
    y += l * sW[o + 1];
    z += l * sW[o + 2];
  }
  subDist2Out[0] = x * x + y * y + z * z;
}

/** Closest point of segment (i0, i1) to the origin (parametric clamp). */
function s1d(i0: number, i1: number): void {
  const o0 = i0 * 3,
    o1 = i1 * 3;
  const ax = sW[o0],
    ay = sW[o0 + 1],
    az = sW[o0 + 2];
  const ex = sW[o1] - ax,
    ey = sW[o1 + 1] - ay,
    ez = sW[o1 + 2] - az;
  const ee = ex * ex + ey * ey + ez * ez;
  const t = ee > 1e-300 ? -(ax * ex + ay * ey + az * ez) / ee : 0;
  if (t <= 0) {
    subN = 1;
    subIdx[0] = i0;
    subLam[0] = 1;
  } else if (t >= 1) {
    subN = 1;
    subIdx[0] = i1;
    subLam[0] = 1;
  } else {
    subN = 2;
    subIdx[0] = i0;
    subIdx[1] = i1;
    subLam[0] = 1 - t;
    subLam[1] = t;
  }
}

/** Keeps the sub-algorithm output in best2 when it is closer than bestDist2[0]. */
function keep2(): void {
  subDist2();
  const d = subDist2Out[0];
  if (d < bestDist2[0]) {
    for (let k = 0; k < subN; k++) {
      best2Idx[k] = subIdx[k];
      best2Lam[k] = subLam[k];
    }
    best2N = subN;
    bestDist2[0] = d;
  }
}
let best2N = 0;

/** Keeps the sub-algorithm output in best3 when it is closer than bestDist2[1]. */
function keep3(): void {
  subDist2();
  const d = subDist2Out[0];
  if (d < bestDist2[1]) {
    for (let k = 0; k < subN; k++) {
      best3Idx[k] = subIdx[k];
      best3Lam[k] = subLam[k];
    }
    best3N = subN;
    bestDist2[1] = d;
  }
}
let best3N = 0;

/**
 * Closest point of triangle (i0, i1, i2) to the origin: project the origin onto the plane, then
 * compare signed sub-areas in the coordinate plane where the triangle's projection is largest.
 */
function s2d(i0: number, i1: number, i2: number): void {
  const o0 = i0 * 3,
    o1 = i1 * 3,
    o2 = i2 * 3;
  const x0 = sW[o0],
    y0 = sW[o0 + 1],
    z0 = sW[o0 + 2];
  const N = CROSS;
  triangleCross(sW, o0, o1, o2, N, 0);
  const nx = N[0], ny = N[1], nz = N[2];
  const nn = nx * nx + ny * ny + nz * nz;
  const scale = N[3];
  bestDist2[0] = Infinity;
  if (!(nn > 1e-24 * scale * scale)) {
    // Degenerate (collinear) triangle: best of its edges.
    s1d(i0, i1);
    keep2();
    s1d(i1, i2);
    keep2();
    s1d(i0, i2);
    keep2();
  } else {
    // Origin projected onto the triangle's plane.
    const s = (x0 * nx + y0 * ny + z0 * nz) / nn;
    const px = nx * s,
      py = ny * s,
      pz = nz * s;
    // Drop the axis along which the normal is largest; (u, v) are the other two, cyclic order so
    // that the 2D area of (s0, s1, s2) equals that normal component.
    const ax = nx < 0 ? -nx : nx,
      ay = ny < 0 ? -ny : ny,
      az = nz < 0 ? -nz : nz;
    let u0 = 0, v0 = 0, u1 = 0, v1 = 0, u2 = 0, v2 = 0, pu = 0, pv = 0, mu = 0;
    if (ax >= ay && ax >= az) {
      u0 = y0;
      v0 = z0;
      u1 = sW[o1 + 1];
      v1 = sW[o1 + 2];
      u2 = sW[o2 + 1];
      v2 = sW[o2 + 2];
      pu = py;
      pv = pz;
      mu = nx;
    } else if (ay >= az) {
      u0 = z0;
      v0 = x0;
      u1 = sW[o1 + 2];
      v1 = sW[o1];
      u2 = sW[o2 + 2];
      v2 = sW[o2];
      pu = pz;
      pv = px;
      mu = ny;
    } else {
      u0 = x0;
      v0 = y0;
      u1 = sW[o1];
      v1 = sW[o1 + 1];
      u2 = sW[o2];
      v2 = sW[o2 + 1];
      pu = px;
      pv = py;
      mu = nz;
    }
    // Signed areas of the sub-triangles with vertex j replaced by p.
    const c0 = (u1 - pu) * (v2 - pv) - (v1 - pv) * (u2 - pu);
    const c1 = (pu - u0) * (v2 - v0) - (pv - v0) * (u2 - u0);
    const c2 = (u1 - u0) * (pv - v0) - (v1 - v0) * (pu - u0);
    if (c0 * mu > 0 && c1 * mu > 0 && c2 * mu > 0) {
      const inv = 1 / (c0 + c1 + c2);
      subN = 3;
      subIdx[0] = i0;
      subIdx[1] = i1;
      subIdx[2] = i2;
      subLam[0] = c0 * inv;
      subLam[1] = c1 * inv;
      subLam[2] = c2 * inv;
      return;
    }
    // Origin outside: only edges whose opposite sub-area flips sign can hold the closest point.
    if (!(c0 * mu > 0)) {
      s1d(i1, i2);
      keep2();
    }
    if (!(c1 * mu > 0)) {
      s1d(i0, i2);
      keep2();
    }
    if (!(c2 * mu > 0)) {
      s1d(i0, i1);
      keep2();
    }
  }
  subN = best2N;
  for (let k = 0; k < subN; k++) {
    subIdx[k] = best2Idx[k];
    subLam[k] = best2Lam[k];
  }
}

/**
 * Closest point of tetrahedron (0, 1, 2, 3) to the origin. Returns true when the origin is inside.
 * Cofactor C_j is the signed volume with vertex j replaced by the origin.
 */
function s3d(): boolean {
  const x0 = sW[0],
    y0 = sW[1],
    z0 = sW[2],
    x1 = sW[3],
    y1 = sW[4],
    z1 = sW[5],
    x2 = sW[6],
    y2 = sW[7],
    z2 = sW[8],
    x3 = sW[9],
    y3 = sW[10],
    z3 = sW[11];
  // det3(a, b, c) = a . (b x c), written out (no double returned from a call: docs/design.md).
  const c0 = x1 * (y2 * z3 - z2 * y3) + y1 * (z2 * x3 - x2 * z3) + z1 * (x2 * y3 - y2 * x3);
  const c1 = -(x0 * (y2 * z3 - z2 * y3) + y0 * (z2 * x3 - x2 * z3) + z0 * (x2 * y3 - y2 * x3));
  const c2 = x0 * (y1 * z3 - z1 * y3) + y0 * (z1 * x3 - x1 * z3) + z0 * (x1 * y3 - y1 * x3);
  const c3 = -(x0 * (y1 * z2 - z1 * y2) + y0 * (z1 * x2 - x1 * z2) + z0 * (x1 * y2 - y1 * x2));
  const mu = c0 + c1 + c2 + c3;
  if (c0 * mu > 0 && c1 * mu > 0 && c2 * mu > 0 && c3 * mu > 0) {
    const inv = 1 / mu;
    subN = 4;
    subIdx[0] = 0;
    subIdx[1] = 1;
    subIdx[2] = 2;
    subIdx[3] = 3;
    subLam[0] = c0 * inv;
    subLam[1] = c1 * inv;
    subLam[2] = c2 * inv;
    subLam[3] = c3 * inv;
    return true;
  }
  const degenerate = !(mu * mu > 0);
  bestDist2[1] = Infinity;
  if (degenerate || !(c0 * mu > 0)) {
    s2d(1, 2, 3);
    keep3();
  }
  if (degenerate || !(c1 * mu > 0)) {
    s2d(0, 2, 3);
    keep3();
  }
  if (degenerate || !(c2 * mu > 0)) {
    s2d(0, 1, 3);
    keep3();
  }
  if (degenerate || !(c3 * mu > 0)) {
    s2d(0, 1, 2);
    keep3();
  }
  subN = best3N;
  for (let k = 0; k < subN; k++) {
    subIdx[k] = best3Idx[k];
    subLam[k] = best3Lam[k];
  }
  return false;
}

/** Keeps only the simplex vertices named by the sub-algorithm, in order. */
function compactSimplex(): void {
  for (let k = 0; k < subN; k++) {
    const s = subIdx[k] * 3,
      d = k * 3;
    tW[d] = sW[s];
    tW[d + 1] = sW[s + 1];
    tW[d + 2] = sW[s + 2];
    tA[d] = sA[s];
    tA[d + 1] = sA[s + 1];
    tA[d + 2] = sA[s + 2];
    tB[d] = sB[s];
    tB[d + 1] = sB[s + 1];
    tB[d + 2] = sB[s + 2];
  }
  const n3 = subN * 3;
  for (let i = 0; i < n3; i++) {
    sW[i] = tW[i];
    sA[i] = tA[i];
    sB[i] = tB[i];
  }
}

/** Start scratch of the scalar-argument wrapper {@link gjkDistance}. */
const wrapperStart = new Float64Array(4);

/**
 * Distance between the cores of `a` at `pa` and `b` at `pb`.
 *
 * (dirX, dirY, dirZ) warm-starts the search with a guess of the direction from A toward B (for
 * example last step's contact normal); zero means "use the centre offset".
 * When the cores are provably farther apart than `maxDistance`, GJK stops early with
 * `exact = false`.
 *
 * Returns `out.separated`. Convenience form; the narrow phase calls {@link gjkDistanceFrom} (doubles in
 * arrays, docs/design.md).
 */
export function gjkDistance(
  a: ConvexShape,
  pa: Pose,
  b: ConvexShape,
  pb: Pose,
  out: GjkResult,
  dirX = 0,
  dirY = 0,
  dirZ = 0,
  maxDistance = Infinity,
): boolean {
  wrapperStart[0] = dirX;
  wrapperStart[1] = dirY;
  wrapperStart[2] = dirZ;
  wrapperStart[3] = maxDistance;
  return gjkDistanceFrom(a, pa, b, pb, out, wrapperStart);
}

/** Search direction (-v) handed to supportCsoFramed. */
const searchDir = new Float64Array(3);

/**
 * {@link gjkDistance} with the warm-start direction in start[0..2] and maxDistance in start[3]
 * (Infinity for none), so no double crosses the call.
 */
export function gjkDistanceFrom(a: ConvexShape, pa: Pose, b: ConvexShape, pb: Pose, out: GjkResult, start: Float64Array): boolean {
  const maxDistance = start[3];
  // v is the current CSO point closest to the origin; we search along -v. A direction A->B guess d
  // means v ~ -d.
  let vx = -start[0],
    vy = -start[1],
    vz = -start[2];
  if (!(vx * vx + vy * vy + vz * vz > 1e-30)) {
    vx = pa.px - pb.px;
    vy = pa.py - pb.py;
    vz = pa.pz - pb.pz;
    if (!(vx * vx + vy * vy + vz * vz > 1e-30)) {
      vx = 1;
      vy = 0;
      vz = 0;
    }
  }
  setPairFrames(pa, pb);
  let n = 0;
  let vv = Infinity;
  let maxWW = 0;
  let overlap = false;
  let iter = 0;
  out.exact = true;
  const maxD2 = maxDistance * maxDistance;
  for (; iter < MAX_ITERATIONS; iter++) {
    const o = n * 3;
    searchDir[0] = -vx;
    searchDir[1] = -vy;
    searchDir[2] = -vz;
    supportCsoFramed(a, b, searchDir, sW, sA, sB, o);
    const wx = sW[o],
      wy = sW[o + 1],
      wz = sW[o + 2];
    const ww = wx * wx + wy * wy + wz * wz;
    if (ww > maxWW) maxWW = ww;
    if (n > 0) {
      const vw = vx * wx + vy * wy + vz * wz;
      // v.w / |v| is a lower bound on the distance: early out when beyond maxDistance.
      if (vw > 0 && vw * vw > vv * maxD2) {
        out.separated = true;
        out.exact = false;
        const len = Math.sqrt(vv);
        out.distance = vw / len;
        // -v / |v|: a separating axis, from A toward B, along which the shapes are at least `distance` apart.
        out.nx = -vx / len;
        out.ny = -vy / len;
        out.nz = -vz / len;
        out.iterations = iter + 1;
        out.simplexCount = 0;
        return true;
      }
      // Converged: the new support point does not improve the bound.
      if (vv - vw <= REL_EPS * vv) break;
      // Repeated vertex: no progress possible.
      let dup = false;
      for (let k = 0; k < n; k++) {
        const q = k * 3;
        const dx = sW[q] - wx,
          dy = sW[q + 1] - wy,
          dz = sW[q + 2] - wz;
        if (dx * dx + dy * dy + dz * dz <= 1e-24 * maxWW) {
          dup = true;
          break;
        }
      }
      if (dup) break;
    }
    n++;
    let inside = false;
    if (n === 1) {
      subN = 1;
      subIdx[0] = 0;
      subLam[0] = 1;
    } else if (n === 2) s1d(0, 1);
    else if (n === 3) s2d(0, 1, 2);
    else inside = s3d();
    // Fold the weights into v before compacting (the indices refer to the uncompacted simplex).
    let nvx = 0,
      nvy = 0,
      nvz = 0;
    for (let k = 0; k < subN; k++) {
      const q = subIdx[k] * 3,
        l = subLam[k];
      nvx += l * sW[q];
      nvy += l * sW[q + 1];
      nvz += l * sW[q + 2];
    }
    compactSimplex();
    n = subN;
    const nvv = nvx * nvx + nvy * nvy + nvz * nvz;
    if (inside || nvv <= OVERLAP_EPS * maxWW) {
      vx = nvx;
      vy = nvy;
      vz = nvz;
      vv = nvv;
      overlap = true;
      iter++;
      break;
    }
    const stalled = nvv >= vv;
    vx = nvx;
    vy = nvy;
    vz = nvz;
    vv = nvv;
    // No progress (numerical stagnation on curved shapes): v is as good as it gets.
    if (stalled) {
      iter++;
      break;
    }
  }
  // Copy the simplex and closest points out.
  out.iterations = iter;
  out.simplexCount = n;
  let ax = 0,
    ay = 0,
    az = 0,
    bx = 0,
    by = 0,
    bz = 0;
  for (let k = 0; k < n; k++) {
    const q = k * 3;
    out.simplexW[q] = sW[q];
    out.simplexW[q + 1] = sW[q + 1];
    out.simplexW[q + 2] = sW[q + 2];
    out.simplexA[q] = sA[q];
    out.simplexA[q + 1] = sA[q + 1];
    out.simplexA[q + 2] = sA[q + 2];
    out.simplexB[q] = sB[q];
    out.simplexB[q + 1] = sB[q + 1];
    out.simplexB[q + 2] = sB[q + 2];
  }
  // The weights of v over the compacted simplex are the last sub-algorithm output (compaction keeps
  // their order); a convergence or duplicate stop happens before a new vertex is added, so they still
  // match.
  for (let k = 0; k < n; k++) {
    const q = k * 3,
      l = subLam[k];
    ax += l * sA[q];
    ay += l * sA[q + 1];
    az += l * sA[q + 2];
    bx += l * sB[q];
    by += l * sB[q + 1];
    bz += l * sB[q + 2];
  }
  out.ax = ax;
  out.ay = ay;
  out.az = az;
  out.bx = bx;
  out.by = by;
  out.bz = bz;
  if (overlap) {
    out.separated = false;
    out.distance = 0;
    return false;
  }
  const d = Math.sqrt(vv);
  out.separated = true;
  out.distance = d;
  const inv = 1 / d;
  out.nx = -vx * inv;
  out.ny = -vy * inv;
  out.nz = -vz * inv;
  return true;
}
