/**
 * Expanding Polytope Algorithm (van den Bergen, "Proximity Queries and Penetration Depth Computation
 * on 3D Game Objects", GDC 2001; Ericson, Real-Time Collision Detection, 9.5) for the penetration of two
 * overlapping convex cores: grows a polytope inside the CSO A - B from GJK's final simplex, always
 * expanding the face nearest the origin, until that face is (within tolerance) on the CSO boundary.
 *
 * The result normal points from A toward B: translating B by depth * normal separates the cores.
 * Curved CSO parts (cylinder sides, capsule caps) converge with a relative tolerance and an iteration cap.
 *
 * Allocation-free: fixed-capacity typed arrays at module level.
 */
import type { Pose } from "../math/pose";
import { PointPair } from "./pointPair";
import type { ConvexShape } from "../shapes/shape";
import { type GjkResult, setPairFrames, supportCsoFramed } from "./gjk";
import { triangleCross } from "../math/vec3";

/** A face's normal and scale (triangleCross). */
const CROSS = new Float64Array(4);

/**
 * Result of {@link epaPenetration}: the deepest point of A's core along the normal and of B's core against it,
 * and the unit normal from A toward B. Preallocate one and reuse it.
 */
export class EpaResult extends PointPair {
  /** Core penetration depth (>= 0). */
  depth = 0;
  iterations = 0;
}

const MAX_V = 128;
const MAX_F = 2 * MAX_V;
const MAX_E = 3 * MAX_F;
const MAX_ITERATIONS = MAX_V - 4;
/** Stop when the support along the nearest face's normal lies within this of the face (scaled). */
const TOLERANCE = 1e-9;

const vW = new Float64Array(MAX_V * 3);
const vA = new Float64Array(MAX_V * 3);
const vB = new Float64Array(MAX_V * 3);
let nv = 0;

const fV = new Int32Array(MAX_F * 3);
const fN = new Float64Array(MAX_F * 3);
const fD = new Float64Array(MAX_F);
const fAlive = new Uint8Array(MAX_F);
let nf = 0;

const eFrom = new Int32Array(MAX_E);
const eTo = new Int32Array(MAX_E);
let ne = 0;

const hW = new Float64Array(3);
const hA = new Float64Array(3);
const hB = new Float64Array(3);

// Doubles crossing calls travel in these arrays (docs/design.md).
/** Support direction handed to supportCsoFramed. */
const probeDir = new Float64Array(3);
/** Core radius and maximum radius of A ([0], [1]) and of B ([2], [3]), from ConvexShape.radiiInto. */
const radii = new Float64Array(4);
/** buildTetrahedron's size scale (input). */
const tetraScale = new Float64Array(1);
/** The face finish() reports: distance d, then normal (nx, ny, nz). */
const finishFace = new Float64Array(4);

/** Adds face (i, j, k) (counter-clockwise seen from outside). Returns false when degenerate or full. */
function addFace(i: number, j: number, k: number): boolean {
  let f = -1;
  for (let g = 0; g < nf; g++) {
    if (fAlive[g] === 0) {
      f = g;
      break;
    }
  }
  if (f < 0) {
    if (nf >= MAX_F) return false;
    f = nf++;
  }
  const oi = i * 3,
    oj = j * 3,
    ok = k * 3;
  const x0 = vW[oi],
    y0 = vW[oi + 1],
    z0 = vW[oi + 2];
  const N = CROSS;
  triangleCross(vW, oi, oj, ok, N, 0);
  const nx = N[0], ny = N[1], nz = N[2];
  const l2 = nx * nx + ny * ny + nz * nz;
  const s2 = N[3];
  if (!(l2 > 1e-28 * s2 * s2)) return false;
  const inv = 1 / Math.sqrt(l2);
  const f3 = f * 3;
  fV[f3] = i;
  fV[f3 + 1] = j;
  fV[f3 + 2] = k;
  fN[f3] = nx * inv;
  fN[f3 + 1] = ny * inv;
  fN[f3 + 2] = nz * inv;
  fD[f] = (nx * x0 + ny * y0 + nz * z0) * inv;
  fAlive[f] = 1;
  return true;
}

/** Records horizon edge (i, j); an edge seen twice (once per direction) is interior and cancels. */
function addEdge(i: number, j: number): void {
  for (let e = 0; e < ne; e++) {
    if (eFrom[e] === j && eTo[e] === i) {
      ne--;
      eFrom[e] = eFrom[ne];
      eTo[e] = eTo[ne];
      return;
    }
  }
  if (ne < MAX_E) {
    eFrom[ne] = i;
    eTo[ne] = j;
    ne++;
  }
}

function copyVertexFrom(src: GjkResult, k: number): void {
  const s = k * 3,
    d = nv * 3;
  vW[d] = src.simplexW[s];
  vW[d + 1] = src.simplexW[s + 1];
  vW[d + 2] = src.simplexW[s + 2];
  vA[d] = src.simplexA[s];
  vA[d + 1] = src.simplexA[s + 1];
  vA[d + 2] = src.simplexA[s + 2];
  vB[d] = src.simplexB[s];
  vB[d + 1] = src.simplexB[s + 1];
  vB[d + 2] = src.simplexB[s + 2];
  nv++;
}

/** Squared distance of vertex `k` from the line through vertices 0 and 1, into distToLine2Out[0]. */
const distToLine2Out = new Float64Array(1);
function distToLine2(k: number): void {
  const ex = vW[3] - vW[0],
    ey = vW[4] - vW[1],
    ez = vW[5] - vW[2];
  const o = k * 3;
  const px = vW[o] - vW[0],
    py = vW[o + 1] - vW[1],
    pz = vW[o + 2] - vW[2];
  const cx = py * ez - pz * ey,
    cy = pz * ex - px * ez,
    cz = px * ey - py * ex;
  const ee = ex * ex + ey * ey + ez * ez;
  distToLine2Out[0] = ee > 0 ? (cx * cx + cy * cy + cz * cz) / ee : px * px + py * py + pz * pz;
}

/**
 * Grows GJK's (possibly degenerate) final simplex into a tetrahedron by probing support directions
 * around it (the libccd / Bullet approach). Returns false when the CSO is flat (no volume). Supports are
 * taken at the poses of the last setPairFrames (epaPenetration sets them).
 */
function buildTetrahedron(a: ConvexShape, b: ConvexShape): boolean {
  const eps = 1e-9 * tetraScale[0];
  if (nv === 0) {
    probeDir[0] = 1;
    probeDir[1] = 0;
    probeDir[2] = 0;
    supportCsoFramed(a, b, probeDir, vW, vA, vB, 0);
    nv = 1;
  }
  if (nv === 1) {
    // Any support point distinct from the first.
    for (let k = 0; k < 6 && nv === 1; k++) {
      const ax = k >> 1;
      const s = (k & 1) === 0 ? 1 : -1;
      probeDir[0] = ax === 0 ? s : 0;
      probeDir[1] = ax === 1 ? s : 0;
      probeDir[2] = ax === 2 ? s : 0;
      supportCsoFramed(a, b, probeDir, vW, vA, vB, 3);
      const dx = vW[3] - vW[0],
        dy = vW[4] - vW[1],
        dz = vW[5] - vW[2];
      if (dx * dx + dy * dy + dz * dz > eps * eps) nv = 2;
    }
    if (nv === 1) return false;
  }
  if (nv === 2) {
    // Probe four directions perpendicular to the segment.
    const ex = vW[3] - vW[0],
      ey = vW[4] - vW[1],
      ez = vW[5] - vW[2];
    const ax = ex < 0 ? -ex : ex,
      ay = ey < 0 ? -ey : ey,
      az = ez < 0 ? -ez : ez;
    // p1 = e x (axis least aligned with e), p2 = e x p1
    let p1x = 0, p1y = 0, p1z = 0;
    if (ax <= ay && ax <= az) {
      p1x = 0;
      p1y = ez;
      p1z = -ey;
    } else if (ay <= az) {
      p1x = -ez;
      p1y = 0;
      p1z = ex;
    } else {
      p1x = ey;
      p1y = -ex;
      p1z = 0;
    }
    const p2x = ey * p1z - ez * p1y,
      p2y = ez * p1x - ex * p1z,
      p2z = ex * p1y - ey * p1x;
    for (let k = 0; k < 4 && nv === 2; k++) {
      const s = k < 2 ? 1 : -1;
      const dx = (k & 1) === 0 ? p1x * s : p2x * s;
      const dy = (k & 1) === 0 ? p1y * s : p2y * s;
      const dz = (k & 1) === 0 ? p1z * s : p2z * s;
      probeDir[0] = dx;
      probeDir[1] = dy;
      probeDir[2] = dz;
      supportCsoFramed(a, b, probeDir, vW, vA, vB, 6);
      distToLine2(2);
      if (distToLine2Out[0] > eps * eps) nv = 3;
    }
    if (nv === 2) return false;
  }
  if (nv === 3) {
    const N = CROSS;
    triangleCross(vW, 0, 3, 6, N, 0);
    const nx = N[0], ny = N[1], nz = N[2];
    const nl = Math.sqrt(nx * nx + ny * ny + nz * nz);
    if (!(nl > 0)) return false;
    for (let k = 0; k < 2 && nv === 3; k++) {
      const s = k === 0 ? 1 : -1;
      probeDir[0] = nx * s;
      probeDir[1] = ny * s;
      probeDir[2] = nz * s;
      supportCsoFramed(a, b, probeDir, vW, vA, vB, 9);
      const h = ((vW[9] - vW[0]) * nx + (vW[10] - vW[1]) * ny + (vW[11] - vW[2]) * nz) / nl;
      if (Math.abs(h) > eps) nv = 4;
    }
    if (nv === 3) return false;
  }
  // Four faces, each wound so its normal points away from the centroid.
  const cx = (vW[0] + vW[3] + vW[6] + vW[9]) * 0.25;
  const cy = (vW[1] + vW[4] + vW[7] + vW[10]) * 0.25;
  const cz = (vW[2] + vW[5] + vW[8] + vW[11]) * 0.25;
  nf = 0;
  for (let k = 0; k < 4; k++) {
    // Face opposite vertex k.
    const i = k === 0 ? 1 : 0;
    const j = k <= 1 ? 2 : 1;
    const l = k <= 2 ? 3 : 2;
    if (!addFace(i, j, l)) return false;
    const f3 = (nf - 1) * 3;
    const o = i * 3;
    if (fN[f3] * (cx - vW[o]) + fN[f3 + 1] * (cy - vW[o + 1]) + fN[f3 + 2] * (cz - vW[o + 2]) > 0) {
      fAlive[nf - 1] = 0;
      nf--;
      if (!addFace(i, l, j)) return false;
    }
  }
  return true;
}

/**
 * Penetration of the overlapping cores of a and b, seeded by GJK's final simplex (`gjk` must come from
 * a {@link gjkDistance} call on the same pair that reported overlap).
 *
 * Returns false when the CSO is degenerate (flat, e.g. two parallel segments) and no polytope can
 * be built; the caller then needs a fallback direction.
 */
export function epaPenetration(a: ConvexShape, pa: Pose, b: ConvexShape, pb: Pose, gjk: GjkResult, out: EpaResult): boolean {
  setPairFrames(pa, pb);
  nv = 0;
  nf = 0;
  let scale = 0;
  for (let k = 0; k < gjk.simplexCount; k++) {
    copyVertexFrom(gjk, k);
    const o = k * 3;
    const s = Math.abs(vW[o]) + Math.abs(vW[o + 1]) + Math.abs(vW[o + 2]);
    if (s > scale) scale = s;
  }
  // Rough size of the CSO for the tolerances.
  a.radiiInto(radii, 0);
  b.radiiInto(radii, 2);
  const rx = Math.abs(pa.px - pb.px) + Math.abs(pa.py - pb.py) + Math.abs(pa.pz - pb.pz) + radii[1] + radii[3];
  if (rx > scale) scale = rx;
  tetraScale[0] = scale;
  if (!buildTetrahedron(a, b)) return false;
  const tol = TOLERANCE * scale;
  // The nearest face of the latest iteration, copied out: its slot may be reused by addFace before the loop
  // ends. Every exit finishes from these (one exit path: a branch first taken late in a run would
  // deoptimise this function, and the unoptimised code allocates).
  let outD = 0,
    nx = 0,
    ny = 0,
    nz = 0,
    vi = 0,
    vj = 0,
    vk = 0;
  let brokeDown = false;
  let iter = 0;
  for (; iter < MAX_ITERATIONS; iter++) {
    // Nearest face to the origin.
    let best = -1;
    let bestD = Infinity;
    for (let f = 0; f < nf; f++) {
      if (fAlive[f] !== 0 && fD[f] < bestD) {
        bestD = fD[f];
        best = f;
      }
    }
    if (best < 0) return false;
    const b3 = best * 3;
    outD = bestD;
    nx = fN[b3];
    ny = fN[b3 + 1];
    nz = fN[b3 + 2];
    vi = fV[b3];
    vj = fV[b3 + 1];
    vk = fV[b3 + 2];
    if (nv >= MAX_V) break;
    const w = nv * 3;
    probeDir[0] = nx;
    probeDir[1] = ny;
    probeDir[2] = nz;
    supportCsoFramed(a, b, probeDir, vW, vA, vB, w);
    const wx = vW[w],
      wy = vW[w + 1],
      wz = vW[w + 2];
    if (wx * nx + wy * ny + wz * nz - bestD <= tol) break;
    // Remove every face the new point sees; their boundary is the horizon.
    ne = 0;
    for (let f = 0; f < nf; f++) {
      if (fAlive[f] === 0) continue;
      const f3 = f * 3;
      const o = fV[f3] * 3;
      if (fN[f3] * (wx - vW[o]) + fN[f3 + 1] * (wy - vW[o + 1]) + fN[f3 + 2] * (wz - vW[o + 2]) > 1e-12 * scale) {
        fAlive[f] = 0;
        addEdge(fV[f3], fV[f3 + 1]);
        addEdge(fV[f3 + 1], fV[f3 + 2]);
        addEdge(fV[f3 + 2], fV[f3]);
      }
    }
    const newV = nv++;
    let ok = ne >= 3;
    for (let e = 0; e < ne && ok; e++) ok = addFace(eFrom[e], eTo[e], newV);
    // Polytope broke down numerically: answer with the last good nearest face (copied out above).
    if (!ok) {
      brokeDown = true;
      break;
    }
  }
  finishFace[0] = outD;
  finishFace[1] = nx;
  finishFace[2] = ny;
  finishFace[3] = nz;
  return finish(a, b, out, vi, vj, vk, iter + (brokeDown ? 1 : 0));
}

const bary = new Float64Array(3);
/** Barycentric tolerance, relative to the face area. */
const BARY_EPS = 1e-9;

/**
 * Normalised barycentric coordinates of the point n * d in face (i, j, k), into `bary` (may be < 0);
 * d and n are read from baryQuery (d, nx, ny, nz).
 */
const baryQuery = new Float64Array(4);
function computeBary(i: number, j: number, k: number): void {
  const d = baryQuery[0],
    nx = baryQuery[1],
    ny = baryQuery[2],
    nz = baryQuery[3];
  const px = nx * d,
    py = ny * d,
    pz = nz * d;
  const oi = i * 3,
    oj = j * 3,
    ok = k * 3;
  const ax = vW[oi] - px,
    ay = vW[oi + 1] - py,
    az = vW[oi + 2] - pz;
  const bx = vW[oj] - px,
    by = vW[oj + 1] - py,
    bz = vW[oj + 2] - pz;
  const cx = vW[ok] - px,
    cy = vW[ok + 1] - py,
    cz = vW[ok + 2] - pz;
  // Signed areas of (p, j, k), (p, k, i), (p, i, j) along n.
  const l0 = (by * cz - bz * cy) * nx + (bz * cx - bx * cz) * ny + (bx * cy - by * cx) * nz;
  const l1 = (cy * az - cz * ay) * nx + (cz * ax - cx * az) * ny + (cx * ay - cy * ax) * nz;
  const l2 = (ay * bz - az * by) * nx + (az * bx - ax * bz) * ny + (ax * by - ay * bx) * nz;
  const s = l0 + l1 + l2;
  const inv = s > 0 ? 1 / s : 0;
  bary[0] = l0 * inv;
  bary[1] = l1 * inv;
  bary[2] = l2 * inv;
}

/**
 * Writes the result for face (i, j, k) at distance d along n (finishFace: d, nx, ny, nz): witness
 * points from barycentrics. The
 * reported depth is the CSO support height along n (an upper bound that is exact for this normal:
 * moving B by depth * n just separates the cores), so an EPA stopped by its iteration cap on a
 * curved CSO still answers consistently. Supports at the poses of the last setPairFrames.
 */
function finish(
  a: ConvexShape,
  b: ConvexShape,
  out: EpaResult,
  i: number,
  j: number,
  k: number,
  iter: number,
): boolean {
  let d = finishFace[0];
  const nx = finishFace[1],
    ny = finishFace[2],
    nz = finishFace[3];
  probeDir[0] = nx;
  probeDir[1] = ny;
  probeDir[2] = nz;
  supportCsoFramed(a, b, probeDir, hW, hA, hB, 0);
  const h = hW[0] * nx + hW[1] * ny + hW[2] * nz;
  if (d < 0) d = 0;
  baryQuery[0] = d;
  baryQuery[1] = nx;
  baryQuery[2] = ny;
  baryQuery[3] = nz;
  // The nearest face may share its plane with neighbours (flat CSO regions: box faces, a cylinder's
  // side line swept by a segment); the origin's projection then lies in one of those. Find it, so
  // the witness points are right.
  computeBary(i, j, k);
  let worst = bary[0] < bary[1] ? bary[0] : bary[1];
  if (bary[2] < worst) worst = bary[2];
  if (worst < -BARY_EPS) {
    // Among (nearly) coplanar faces, take the one whose barycentrics are least negative.
    let bi = i,
      bj = j,
      bk = k;
    for (let f = 0; f < nf && worst < -BARY_EPS; f++) {
      if (fAlive[f] === 0) continue;
      const f3 = f * 3;
      if (fN[f3] * nx + fN[f3 + 1] * ny + fN[f3 + 2] * nz < 1 - 1e-6) continue;
      const df = fD[f] - d;
      if (df > 1e-7 || df < -1e-7) continue;
      computeBary(fV[f3], fV[f3 + 1], fV[f3 + 2]);
      let w = bary[0] < bary[1] ? bary[0] : bary[1];
      if (bary[2] < w) w = bary[2];
      if (w > worst) {
        worst = w;
        bi = fV[f3];
        bj = fV[f3 + 1];
        bk = fV[f3 + 2];
      }
    }
    i = bi;
    j = bj;
    k = bk;
    computeBary(i, j, k);
  }
  let l0 = bary[0] > 0 ? bary[0] : 0,
    l1 = bary[1] > 0 ? bary[1] : 0,
    l2 = bary[2] > 0 ? bary[2] : 0;
  let s = l0 + l1 + l2;
  if (!(s > 0)) {
    l0 = l1 = l2 = 1;
    s = 3;
  }
  const inv = 1 / s;
  l0 *= inv;
  l1 *= inv;
  l2 *= inv;
  const oi = i * 3,
    oj = j * 3,
    ok = k * 3;
  out.depth = h > d ? h : d;
  out.nx = nx;
  out.ny = ny;
  out.nz = nz;
  out.ax = l0 * vA[oi] + l1 * vA[oj] + l2 * vA[ok];
  out.ay = l0 * vA[oi + 1] + l1 * vA[oj + 1] + l2 * vA[ok + 1];
  out.az = l0 * vA[oi + 2] + l1 * vA[oj + 2] + l2 * vA[ok + 2];
  out.bx = l0 * vB[oi] + l1 * vB[oj] + l2 * vB[ok];
  out.by = l0 * vB[oi + 1] + l1 * vB[oj + 1] + l2 * vB[ok + 1];
  out.bz = l0 * vB[oi + 2] + l1 * vB[oj + 2] + l2 * vB[ok + 2];
  out.iterations = iter;
  return true;
}
