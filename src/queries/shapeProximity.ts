/**
 * Shape proximity: the closest points between a posed query shape (convex or compound) and a body's shape
 * (any type), within a maximum distance. Convex piece pairs use GJK on the cores (minus the core radii) and
 * EPA when the cores overlap, so the distance is signed (negative when penetrating). Compounds split into
 * children, meshes and heightfields into the triangles near the query piece.
 * Allocation-free: module-level scratch.
 */
import { IntList } from "../collections/intList";
import { epaPenetration, EpaResult } from "../collision/epa";
import { gjkDistance, GjkResult, supportCoreWorld } from "../collision/gjk";
import { PointPair } from "../collision/pointPair";
import { Pose } from "../math/pose";
import type { ChildGate } from "../shapes/childGate";
import type { Compound } from "../shapes/compound";
import type { ConvexShape, Shape } from "../shapes/shape";
import { ShapeType } from "../shapes/shapeType";
import type { TriangleSource } from "../shapes/triangleSource";
import { transformAabb } from "../shapes/triangleMesh";
import { invertPose } from "./poseMath";
import { TrianglePiece } from "../collision/trianglePiece";
import { triangleCross } from "../math/vec3";
import { rotateParts } from "../math/quat";

/** A triangle's normal and scale (triangleCross). */
const CROSS = new Float64Array(4);

/**
 * Closest points between two posed shapes (world space): a point on the query shape (A), one on the other
 * shape (B), and the unit normal from B toward A.
 */
export class ShapePairHit extends PointPair {
  /** Signed gap (negative when penetrating). */
  distance = 0;
  /** Piece index on B (compound child or triangle index; -1 for a plain convex shape). */
  childIndex = -1;
  /** Piece index on A (compound child; -1 for a plain convex shape). */
  queryChildIndex = -1;

  copyFrom(o: ShapePairHit): this {
    this.distance = o.distance;
    this.ax = o.ax;
    this.ay = o.ay;
    this.az = o.az;
    this.bx = o.bx;
    this.by = o.by;
    this.bz = o.bz;
    this.nx = o.nx;
    this.ny = o.ny;
    this.nz = o.nz;
    this.childIndex = o.childIndex;
    this.queryChildIndex = o.queryChildIndex;
    return this;
  }
}

/** What a world shape query (proximity, cast) says of one body: which, where and which pieces. */
export class BodyPairResult {
  /** Body handle. */
  body = -1;
  /** Closest (proximity) or contact (cast) point on the body's surface (world). */
  point = { x: 0, y: 0, z: 0 };
  /** The same on the query shape (world; for a cast, at the hit position). */
  pointOnShape = { x: 0, y: 0, z: 0 };
  /** Unit normal from the body toward the query shape (world). */
  normal = { x: 0, y: 1, z: 0 };
  /** Compound child or mesh/heightfield triangle index of the body's shape; -1 for convex shapes. */
  childIndex = -1;
  /** Compound child index of the query shape; -1 for a convex query shape. */
  queryChildIndex = -1;
}

/** Result of a world shape proximity query (one per body). */
export class ShapeProximityResult extends BodyPairResult {
  /** Signed gap between the query shape and the body (negative when penetrating). */
  distance = 0;
}

const gjk = new GjkResult();
const epa = new EpaResult();
const S = new Float64Array(6);
const BOX = new Float64Array(6);
const LBOX = new Float64Array(6);
const TRI = new Float64Array(9);
const triList = new IntList(64);
const tri = new TrianglePiece();
const invPose = new Pose();
const piecePoseA = new Pose();
const piecePoseB = new Pose();
const pairHit = new ShapePairHit();

/** True for shapes usable as the query side (convex or compound). */
export function isQueryShape(s: Shape): boolean {
  return typeof (s as ConvexShape).supportCore === "function" || s.type === ShapeType.Compound;
}

/**
 * `out` from GJK's or EPA's points on the cores (normal from A toward B) at signed distance d: each point moved
 * out by its core radius, the normal turned to point from B toward A. Infinity when d > maxDistance.
 */
function fromCores(r: PointPair, d: number, ra: number, rb: number, maxDistance: number, out: ShapePairHit): number {
  if (d > maxDistance) return Infinity;
  const nx = r.nx,
    ny = r.ny,
    nz = r.nz;
  out.distance = d;
  out.ax = r.ax + nx * ra;
  out.ay = r.ay + ny * ra;
  out.az = r.az + nz * ra;
  out.bx = r.bx - nx * rb;
  out.by = r.by - ny * rb;
  out.bz = r.bz - nz * rb;
  out.nx = -nx;
  out.ny = -ny;
  out.nz = -nz;
  return d;
}

/**
 * Distance between convex pieces a at pa and b at pb; fills out (normal B -> A) and returns the signed
 * distance, or Infinity when farther than maxDistance.
 */
export function convexPairDistance(a: ConvexShape, pa: Pose, b: ConvexShape, pb: Pose, maxDistance: number, out: ShapePairHit): number {
  const ra = a.coreRadius,
    rb = b.coreRadius;
  if (gjkDistance(a, pa, b, pb, gjk, 0, 0, 0, maxDistance + ra + rb)) {
    if (!gjk.exact) return Infinity;
    return fromCores(gjk, gjk.distance - ra - rb, ra, rb, maxDistance, out);
  }
  if (epaPenetration(a, pa, b, pb, gjk, epa)) return fromCores(epa, -epa.depth - ra - rb, ra, rb, maxDistance, out);
  // Degenerate overlap (flat CSO, e.g. a sphere core on a triangle): separation along one axis, the
  // triangle's normal or the centre offset.
  let nx = pa.px - pb.px,
    ny = pa.py - pb.py,
    nz = pa.pz - pb.pz;
  if (b instanceof TrianglePiece) {
    // local normal, rotated to world
    triangleCross(b.v, 0, 3, 6, CROSS, 0);
    rotateParts(pb.qx, pb.qy, pb.qz, pb.qw, CROSS[0], CROSS[1], CROSS[2], CROSS, 0);
    const wx = CROSS[0],
      wy = CROSS[1],
      wz = CROSS[2];
    const s = wx * nx + wy * ny + wz * nz >= 0 ? 1 : -1;
    nx = s * wx;
    ny = s * wy;
    nz = s * wz;
  }
  let l = Math.sqrt(nx * nx + ny * ny + nz * nz);
  if (!(l > 0)) {
    nx = 0;
    ny = 1;
    nz = 0;
    l = 1;
  }
  nx /= l;
  ny /= l;
  nz /= l;
  supportCoreWorld(a, pa, -nx, -ny, -nz, S, 0);
  supportCoreWorld(b, pb, nx, ny, nz, S, 3);
  const ax = S[0] - nx * ra,
    ay = S[1] - ny * ra,
    az = S[2] - nz * ra;
  const d = ax * nx + ay * ny + az * nz - (S[3] * nx + S[4] * ny + S[5] * nz + rb);
  if (d > maxDistance) return Infinity;
  out.distance = d;
  out.ax = ax;
  out.ay = ay;
  out.az = az;
  out.bx = ax - d * nx;
  out.by = ay - d * ny;
  out.bz = az - d * nz;
  out.nx = nx;
  out.ny = ny;
  out.nz = nz;
  return d;
}

/** Nearest piece of B to the convex piece a at pa; updates out when closer than best. Returns the new best. */
function pieceVsShape(
  a: ConvexShape,
  pa: Pose,
  aIndex: number,
  b: Shape,
  pb: Pose,
  best: number,
  found: { v: boolean },
  out: ShapePairHit,
  gate: ChildGate | null,
): number {
  const t = b.type;
  if (t === ShapeType.Compound) {
    const ch = (b as Compound).children;
    for (let i = 0; i < ch.length; i++) {
      if (gate !== null && !gate.passes(i)) continue;
      const cp = ch[i].pose;
      piecePoseB.compose(pb, cp.px, cp.py, cp.pz, cp.qx, cp.qy, cp.qz, cp.qw);
      const d = convexPairDistance(a, pa, ch[i].shape, piecePoseB, best, pairHit);
      if (d === Infinity || (found.v && d >= best)) continue;
      best = d;
      found.v = true;
      out.copyFrom(pairHit);
      out.childIndex = i;
      out.queryChildIndex = aIndex;
    }
    return best;
  }
  if (t === ShapeType.Mesh || t === ShapeType.Heightfield) {
    const mesh = b as Shape & TriangleSource;
    a.computeAabb(pa, BOX, 0);
    const m = best < 1e30 ? (best > 0 ? best : 0) : 1e30;
    BOX[0] -= m;
    BOX[1] -= m;
    BOX[2] -= m;
    BOX[3] += m;
    BOX[4] += m;
    BOX[5] += m;
    transformAabb(BOX, invertPose(pb, invPose, S), LBOX, 0);
    triList.clear();
    mesh.queryBox(LBOX, 0, triList);
    for (let k = 0; k < triList.count; k++) {
      const tIdx = triList.data[k];
      if (gate !== null && !gate.passes(mesh.triangleIndex(tIdx))) continue;
      mesh.getTriangle(tIdx, TRI, 0);
      tri.set(TRI, 0);
      const d = convexPairDistance(a, pa, tri, pb, best, pairHit);
      if (d === Infinity || (found.v && d >= best)) continue;
      best = d;
      found.v = true;
      out.copyFrom(pairHit);
      out.childIndex = mesh.triangleIndex(tIdx);
      out.queryChildIndex = aIndex;
    }
    return best;
  }
  const d = convexPairDistance(a, pa, b as ConvexShape, pb, best, pairHit);
  if (d === Infinity || (found.v && d >= best)) return best;
  found.v = true;
  out.copyFrom(pairHit);
  out.childIndex = -1;
  out.queryChildIndex = aIndex;
  return d;
}

const foundFlag = { v: false };

/**
 * Closest points between the query shape q at qPose (convex or compound) and shape s at sPose, when within
 * maxDistance. Returns false when farther. With a gate, only the pieces of s it passes count.
 */
export function shapeShapeDistance(q: Shape, qPose: Pose, s: Shape, sPose: Pose, maxDistance: number, out: ShapePairHit, gate: ChildGate | null = null): boolean {
  foundFlag.v = false;
  let best = maxDistance;
  if (q.type === ShapeType.Compound) {
    const ch = (q as Compound).children;
    for (let i = 0; i < ch.length; i++) {
      const cp = ch[i].pose;
      piecePoseA.compose(qPose, cp.px, cp.py, cp.pz, cp.qx, cp.qy, cp.qz, cp.qw);
      best = pieceVsShape(ch[i].shape, piecePoseA, i, s, sPose, best, foundFlag, out, gate);
    }
  } else {
    best = pieceVsShape(q as ConvexShape, qPose, -1, s, sPose, best, foundFlag, out, gate);
  }
  return foundFlag.v;
}
