/**
 * Shape cast: a query shape (convex or compound) moved from `start` by `delta` with a fixed orientation,
 * against a body's shape at a fixed pose. Each convex piece pair is cast on its own and the earliest piece
 * hit wins:
 * - a sphere against a sphere, capsule, box, cylinder, convex hull or mesh/heightfield triangle: the exact
 *   ray cast against the piece grown by the radius (sphereCast.ts), contact data included;
 * - any other pair: conservative advancement on GJK distances (convexCast.ts, van den Bergen's GJK ray cast),
 *   the contact data then computed at the hit pose with the proximity code.
 * Pieces already touching or overlapping at the start go through the general linear sweep (sweep.ts's
 * conservative advancement, contact tolerance SWEEP_CONTACT_TOLERANCE) and count only when the motion goes
 * into them (as Havok: a cast moving away from or along a surface it starts on is not stopped by it). The
 * point lies on the body and the normal points from the body toward the query shape. Allocation-free:
 * module-level scratch.
 */
import { IntList } from "../collections/intList";
import { SweepResult, sweepShapes } from "../collision/sweep";
import { SweptMotion } from "../math/sweptTransform";
import { Pose } from "../math/pose";
import type { ChildGate } from "../shapes/childGate";
import type { Compound } from "../shapes/compound";
import type { ConvexShape, Shape } from "../shapes/shape";
import { ShapeType } from "../shapes/shapeType";
import type { Sphere } from "../shapes/sphere";
import type { TriangleSource } from "../shapes/triangleSource";
import { transformAabb } from "../shapes/triangleMesh";
import { CONVEX_CAST, convexCast } from "./convexCast";
import { invertPose } from "./poseMath";
import { BodyPairResult, convexPairDistance, ShapePairHit } from "./shapeProximity";
import { CAST_HIT, CAST_MISS, SPHERE_CAST, sphereCastConvex, sphereCastTriangle } from "./sphereCast";
import { TrianglePiece } from "../collision/trianglePiece";

/** Result of a world shape cast (one per body). */
export class ShapeCastResult extends BodyPairResult {
  /** Fraction of start -> end at the first contact, in [0, 1]. */
  fraction = 0;
  /** Position of the query shape at the hit (start + fraction (end - start)). */
  position = { x: 0, y: 0, z: 0 };
}

/** Result of {@link castShapeAgainst}. */
export class CastPairHit {
  fraction = 0;
  readonly contact = new ShapePairHit();
}

const sweepRes = new SweepResult();
const motionA = new SweptMotion();
const motionB = new SweptMotion();
const piecePoseA = new Pose();
const piecePoseB = new Pose();
const hitPose = new Pose();
const invPose = new Pose();
const S = new Float64Array(3);
const BOX = new Float64Array(12);
const CBOX = new Float64Array(6);
const LBOX = new Float64Array(6);
/** Most pieces a cast against a mesh or heightfield is cut into, and each piece's length in query-piece boxes. */
const MESH_CHUNKS = 32;
const CHUNK_SIZES = 4;
const TRI = new Float64Array(9);
const triList = new IntList(64);
const tri = new TrianglePiece();

/**
 * The cast's motion: [0..2] the query shape's displacement at fraction 1, [3] the largest fraction of interest
 * (the caller's best so far). Written by {@link castShapeAgainst}, or by the caller of {@link castWithMotion}.
 */
export const CAST_MOTION = new Float64Array(4);
/**
 * Per-cast doubles, in a Float64Array rather than module `let`s (docs/design.md): the motion's length, the sweep's convergence threshold, the best fraction so far, the fraction bound.
 */
const ST = new Float64Array(4);
const LEN = 0,
  CONV = 1,
  BEST = 2,
  LIMIT = 3;
/** The best piece pair so far. */
let bestA = -1,
  bestB = -1,
  bestFound = false,
  /** The best pair's contact data are in BEST_CONTACT (an analytic sphere cast wrote them). */
  bestContact = false;
/** Contact of the best pair when bestContact: [0..2] normal (body -> query), [3..5] point on the body. */
const BEST_CONTACT = new Float64Array(6);

function record(t: number, aIndex: number, bIndex: number, contact: boolean): void {
  bestFound = true;
  ST[BEST] = t;
  bestA = aIndex;
  bestB = bIndex;
  bestContact = contact;
  if (contact) for (let k = 0; k < 6; k++) BEST_CONTACT[k] = SPHERE_CAST[9 + k];
}

/**
 * Casts piece a (pose pa at the start, moving by delta) against the static piece b at pb (`triangle`: b is the
 * mesh triangle scratch). Analytic for a sphere, conservative advancement on GJK otherwise, the general sweep
 * for pieces in contact at the start.
 */
function sweepPair(a: ConvexShape, pa: Pose, aIndex: number, b: ConvexShape, pb: Pose, bIndex: number, triangle: boolean): void {
  // Within one body only an earlier piece counts; the first piece may tie the caller's best (handle order).
  const maxT = bestFound ? ST[BEST] : ST[LIMIT];
  if (!(bestFound ? maxT > 0 : maxT >= 0)) return;
  let code: number;
  if (a.type === ShapeType.Sphere) {
    const C = SPHERE_CAST;
    C[0] = pa.px;
    C[1] = pa.py;
    C[2] = pa.pz;
    C[3] = CAST_MOTION[0];
    C[4] = CAST_MOTION[1];
    C[5] = CAST_MOTION[2];
    C[6] = (a as Sphere).radius;
    C[7] = maxT;
    code = triangle ? sphereCastTriangle(tri.v, pb) : sphereCastConvex(b, pb);
    if (code === CAST_HIT) {
      const t = C[8];
      if (!bestFound || t < ST[BEST]) record(t, aIndex, bIndex, true);
      return;
    }
  } else {
    const C = CONVEX_CAST;
    C[0] = CAST_MOTION[0];
    C[1] = CAST_MOTION[1];
    C[2] = CAST_MOTION[2];
    C[3] = maxT;
    code = convexCast(a, pa, b, pb);
    if (code === CAST_HIT) {
      const t = C[4];
      if (!bestFound || t < ST[BEST]) record(t, aIndex, bIndex, false);
      return;
    }
  }
  if (code === CAST_MISS) return;
  const dX = CAST_MOTION[0],
    dY = CAST_MOTION[1],
    dZ = CAST_MOTION[2];
  motionA.setVelocity(pa.px, pa.py, pa.pz, pa.qx, pa.qy, pa.qz, pa.qw, dX, dY, dZ, 0, 0, 0, 0, 0, 0);
  motionB.setStatic(pb.px, pb.py, pb.pz, pb.qx, pb.qy, pb.qz, pb.qw);
  if (!sweepShapes(a, motionA, b, motionB, maxT, 0, ST[CONV], sweepRes)) return;
  const t = sweepRes.t0 > 0 ? sweepRes.t0 : 0;
  if (t <= 0) {
    // In contact at the start: only a motion into the piece counts (normal is A -> B).
    const into = dX * sweepRes.normalX + dY * sweepRes.normalY + dZ * sweepRes.normalZ;
    if (!(into > 1e-9 * ST[LEN])) return;
  }
  if (bestFound && t >= ST[BEST]) return;
  record(t, aIndex, bIndex, false);
}

/** Streams B's pieces near the swept piece a against it. */
function pieceVsShape(a: ConvexShape, pa: Pose, aIndex: number, b: Shape, pb: Pose, gate: ChildGate | null): void {
  const t = b.type;
  if (t === ShapeType.Compound) {
    const ch = (b as Compound).children;
    for (let i = 0; i < ch.length; i++) {
      if (gate !== null && !gate.passes(i)) continue;
      const cp = ch[i].pose;
      piecePoseB.compose(pb, cp.px, cp.py, cp.pz, cp.qx, cp.qy, cp.qz, cp.qw);
      sweepPair(a, pa, aIndex, ch[i].shape, piecePoseB, i, false);
    }
    return;
  }
  if (t === ShapeType.Mesh || t === ShapeType.Heightfield) {
    const mesh = b as Shape & TriangleSource;
    // The triangles near the path, nearest part of the path first: the motion in up to MESH_CHUNKS pieces of
    // about CHUNK_SIZES piece boxes each, every piece's swept box queried on its own. A triangle first met in
    // the box of [t0, t1] cannot be touched before t0, so the walk stops once the best hit is at most t1.
    a.computeAabb(pa, BOX, 0);
    invertPose(pb, invPose, S);
    const size = Math.max(BOX[3] - BOX[0], BOX[4] - BOX[1], BOX[5] - BOX[2]);
    const n = Math.max(1, Math.min(MESH_CHUNKS, Math.ceil(ST[LEN] / (CHUNK_SIZES * size + 1e-9))));
    for (let c = 0; c < n; c++) {
      const t0 = c / n,
        t1 = (c + 1) / n;
      if (t0 > (bestFound ? ST[BEST] : ST[LIMIT])) return;
      for (let k = 0; k < 3; k++) {
        const dk = CAST_MOTION[k];
        const lo = dk < 0 ? dk * t1 : dk * t0,
          hi = dk < 0 ? dk * t0 : dk * t1;
        CBOX[k] = BOX[k] + lo - 1e-6;
        CBOX[k + 3] = BOX[k + 3] + hi + 1e-6;
      }
      transformAabb(CBOX, invPose, LBOX, 0);
      triList.clear();
      mesh.queryBox(LBOX, 0, triList);
      for (let k = 0; k < triList.count; k++) {
        const ti = triList.data[k];
        if (gate !== null && !gate.passes(mesh.triangleIndex(ti))) continue;
        mesh.getTriangle(ti, TRI, 0);
        tri.set(TRI, 0);
        sweepPair(a, pa, aIndex, tri, pb, ti, true);
      }
      if (bestFound && ST[BEST] <= t1) return;
    }
    return;
  }
  sweepPair(a, pa, aIndex, b as ConvexShape, pb, -1, false);
}

function queryPiece(q: Shape, qPose: Pose, index: number, out: Pose): ConvexShape {
  if (index < 0) {
    out.copyFrom(qPose);
    return q as ConvexShape;
  }
  const c = (q as Compound).children[index];
  const cp = c.pose;
  out.compose(qPose, cp.px, cp.py, cp.pz, cp.qx, cp.qy, cp.qz, cp.qw);
  return c.shape;
}

/**
 * First contact of the query shape q (orientation from qStart, position qStart at fraction 0, moving by
 * delta to fraction 1) with shape s at sPose, at a fraction of at most maxT (<= 1). Returns false on a miss.
 */
export function castShapeAgainst(
  q: Shape,
  qStart: Pose,
  deltaX: number,
  deltaY: number,
  deltaZ: number,
  s: Shape,
  sPose: Pose,
  out: CastPairHit,
  maxT = 1,
): boolean {
  const m = CAST_MOTION;
  m[0] = deltaX;
  m[1] = deltaY;
  m[2] = deltaZ;
  m[3] = maxT;
  return castWithMotion(q, qStart, s, sPose, out);
}

/**
 * {@link castShapeAgainst} with the motion and the fraction bound read from {@link CAST_MOTION}. With a gate,
 * only the pieces of s it passes count.
 */
export function castWithMotion(q: Shape, qStart: Pose, s: Shape, sPose: Pose, out: CastPairHit, gate: ChildGate | null = null): boolean {
  const m = CAST_MOTION;
  const dX = m[0],
    dY = m[1],
    dZ = m[2];
  ST[LIMIT] = m[3] < 1 ? m[3] : 1;
  const dLen = Math.sqrt(dX * dX + dY * dY + dZ * dZ);
  ST[LEN] = dLen;
  if (!(dLen > 0)) return false;
  // Converge to 1e-7 m along the path.
  ST[CONV] = 1e-7 / dLen;
  bestFound = false;
  ST[BEST] = Infinity;
  bestA = bestB = -1;
  if (q.type === ShapeType.Compound) {
    const ch = (q as Compound).children;
    for (let i = 0; i < ch.length; i++) {
      const cp = ch[i].pose;
      piecePoseA.compose(qStart, cp.px, cp.py, cp.pz, cp.qx, cp.qy, cp.qz, cp.qw);
      pieceVsShape(ch[i].shape, piecePoseA, i, s, sPose, gate);
    }
  } else pieceVsShape(q as ConvexShape, qStart, -1, s, sPose, gate);
  if (!bestFound) return false;
  // Contact data at the hit pose, between the winning pieces.
  const t = ST[BEST];
  hitPose.set(qStart.px + dX * t, qStart.py + dY * t, qStart.pz + dZ * t, qStart.qx, qStart.qy, qStart.qz, qStart.qw);
  const a = queryPiece(q, hitPose, bestA, piecePoseA);
  let b: ConvexShape;
  let childOut = bestB;
  if (s.type === ShapeType.Compound) {
    const c = (s as Compound).children[bestB];
    const cp = c.pose;
    piecePoseB.compose(sPose, cp.px, cp.py, cp.pz, cp.qx, cp.qy, cp.qz, cp.qw);
    b = c.shape;
  } else if (s.type === ShapeType.Mesh || s.type === ShapeType.Heightfield) {
    const mesh = s as Shape & TriangleSource;
    mesh.getTriangle(bestB, TRI, 0);
    tri.set(TRI, 0);
    piecePoseB.copyFrom(sPose);
    b = tri;
    childOut = mesh.triangleIndex(bestB);
  } else {
    piecePoseB.copyFrom(sPose);
    b = s as ConvexShape;
  }
  const c = out.contact;
  if (bestContact) {
    // A sphere touching the piece: one point on both surfaces.
    c.distance = 0;
    c.nx = BEST_CONTACT[0];
    c.ny = BEST_CONTACT[1];
    c.nz = BEST_CONTACT[2];
    c.ax = c.bx = BEST_CONTACT[3];
    c.ay = c.by = BEST_CONTACT[4];
    c.az = c.bz = BEST_CONTACT[5];
  } else convexPairDistance(a, piecePoseA, b, piecePoseB, Infinity, c);
  c.childIndex = childOut;
  c.queryChildIndex = bestA;
  out.fraction = t;
  return true;
}
