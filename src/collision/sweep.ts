/**
 * Time of impact between two moving shapes over swept transforms: conservative advancement from both
 * ends of the interval with several samples per iteration, after bepuphysics2's
 * `CollisionDetection/SweepTasks/ConvexSweepTaskCommon.cs`, with Box2D v3's `b2TimeOfImpact` (src/distance.c)
 * separating-plane bound; docs/design.md, Continuous modes. Written for Continuum; no code copied.
 *
 * Per convex pair:
 * 1. Bracket: the bounding spheres (about the centres of mass, or about the linearly moving piece
 *    centre when rotation is small) against the relative linear motion give [tEnter, tExit]; a miss
 *    ends the test.
 * 2. Each iteration places 4 samples evenly on [t0, t1] and measures the surface distance d with GJK
 *    (core distance minus both core radii) and the unit normal n (A toward B).
 * 3. Safe intervals: the separating-plane gap along n closes at most at
 *    approach = (vA - vB) . n + |wA| rA + |wB| rB (rX: farthest point of the piece from its body's
 *    centre of mass), so no contact in [s, s + d / approach]; symmetrically back in time with
 *    retreat = (vB - vA) . n + |wA| rA + |wB| rB. A non-positive rate proves the whole half-line free.
 * 4. t0 advances through the chain of safe intervals from the first sample (gaps shorter than
 *    `minimumSweepTimestep` are skipped: collisions lasting less than it may be missed); the first
 *    sample in contact (d <= {@link SWEEP_CONTACT_TOLERANCE}) becomes t1; when no sample is in contact,
 *    t1 is pulled back through the chain of safe intervals from the last sample.
 * 5. Stops when the interval inverts with no contact seen (proved miss: returns false), when a contact
 *    was seen and t1 - t0 <= convergenceThreshold, when an unresolved contact-free interval is shorter
 *    than minimumSweepTimestep (miss), or after 25 iterations.
 *
 * A hit is reported only when some sample was actually in contact (or the iteration cap left an
 * unresolved interval; then `converged` is false and t1 = t0), so bodies passing each other close by do
 * not report hits (no ghost collisions).
 *
 * Non-convex shapes are split into convex pieces: compounds into their children, and any shape type
 * with a {@link registerSweepPieceEnumerator enumerator} (meshes, heightfields: triangles) into the
 * pieces that overlap a conservative local query box. Piece pairs whose swept bounds do not overlap
 * are skipped; the earliest hit wins.
 *
 * Allocation-free per call: module-level scratch only (piece lists grow once, then are reused).
 */
import { grown } from "../collections/growth";
import type { ChildPairGate } from "../shapes/childGate";
import { Pose } from "../math/pose";
import { rotateParts } from "../math/quat";
import { SweptMotion } from "../math/sweptTransform";
import type { Compound } from "../shapes/compound";
import type { ConvexShape, Shape } from "../shapes/shape";
import { ShapeType } from "../shapes/shapeType";
import { EpaResult, epaPenetration } from "./epa";
import { GjkResult, gjkDistanceFrom } from "./gjk";
import type { PointPair } from "./pointPair";

/** Iteration cap of the interval narrowing (bepu: "fixed but high iteration threshold"). */
export const SWEEP_MAX_ITERATIONS = 25;
/** Samples per iteration (bepu uses the SIMD width; a scalar loop of 4 here). */
const SAMPLES = 4;
/**
 * A sample whose surface distance is at most this (metres) counts as in contact. Small and positive so
 * conservative advancement (which approaches contact asymptotically when bodies rotate) terminates.
 */
export const SWEEP_CONTACT_TOLERANCE = 1e-5;

/** Result of {@link sweepShapes}. Preallocate one and reuse it; `reset` gives every field its initial value. */
export class SweepResult {
  /** True when an impact was found in [0, maxT]. */
  hit!: boolean;
  /** Last time known to be free of contact before the impact (the safe time). */
  t0!: number;
  /** Upper bound of the impact time (a time at which the shapes were seen in contact). */
  t1!: number;
  /** Unit normal from A toward B, at t0 (near the impact). */
  normalX!: number;
  normalY!: number;
  normalZ!: number;
  /** Contact point at t0: midway between the two closest surface points. */
  pointX!: number;
  pointY!: number;
  pointZ!: number;
  /** Surface distance at t0 (negative when the shapes already overlapped at t0). */
  distance!: number;
  /** Compound child (or mesh triangle) index of A and of B for the earliest hit (0 for convex). */
  childA!: number;
  childB!: number;
  /** Distance queries spent, over all piece pairs. */
  distanceQueries!: number;
  /** Interval-narrowing iterations spent, over all piece pairs. */
  iterations!: number;
  /** Convex piece pairs that ran the interval narrowing. */
  piecePairs!: number;
  /** False when the winning pair hit the iteration cap before proving contact (then t1 = t0). */
  converged!: boolean;

  constructor() {
    this.reset();
  }

  reset(): void {
    this.hit = false;
    this.t0 = 0;
    this.t1 = 0;
    this.normalX = 0;
    this.normalY = 1;
    this.normalZ = 0;
    this.pointX = 0;
    this.pointY = 0;
    this.pointZ = 0;
    this.distance = 0;
    this.childA = 0;
    this.childB = 0;
    this.distanceQueries = 0;
    this.iterations = 0;
    this.piecePairs = 0;
    this.converged = true;
  }
}

// ------------------------------------------------------------------ piece enumeration (meshes plug in)

/**
 * Receives convex pieces of a non-convex shape during a sweep. `add` runs the sweeps of the piece
 * immediately, so the enumerator may reuse one scratch shape and pose for every piece.
 */
export interface SweepPieceSink {
  /**
   * A convex piece at pose (px..qw) in the parent shape's frame; `index` is reported back as
   * SweepResult.childA / childB.
   */
  add(piece: ConvexShape, px: number, py: number, pz: number, qx: number, qy: number, qz: number, qw: number, index: number): void;
}

/**
 * Lists the convex pieces of `shape` that may touch the shape-local box [min, max] (for a triangle
 * mesh: the triangles whose bounds overlap it), calling sink.add for each. Must not allocate per call
 * and must not re-enter the sweep.
 */
export type SweepPieceEnumerator = (shape: Shape, minX: number, minY: number, minZ: number, maxX: number, maxY: number, maxZ: number, sink: SweepPieceSink) => void;

const ENUMERATORS: (SweepPieceEnumerator | null)[] = [null, null, null, null, null, null, null, null];

/**
 * Registers how a non-convex shape type (mesh 6, heightfield 7, ...) is split into convex pieces for
 * sweeps. Compounds are built in. Pass null to unregister.
 */
export function registerSweepPieceEnumerator(type: number, fn: SweepPieceEnumerator | null): void {
  while (ENUMERATORS.length <= type) ENUMERATORS.push(null);
  ENUMERATORS[type] = fn;
}

function enumerateCompound(
  shape: Shape,
  _minX: number,
  _minY: number,
  _minZ: number,
  _maxX: number,
  _maxY: number,
  _maxZ: number,
  sink: SweepPieceSink,
): void {
  const ch = (shape as Compound).children;
  // Trigger children are enumerated like any other: the world's per-child surfaces hold them (a compound's
  // trigger children are folded in, childSurfaces.ts) and the sweep's child-pair gate passes none of them.
  for (let i = 0; i < ch.length; i++) {
    const p = ch[i].pose;
    sink.add(ch[i].shape, p.px, p.py, p.pz, p.qx, p.qy, p.qz, p.qw, i);
  }
}
ENUMERATORS[ShapeType.Compound] = enumerateCompound;

function isConvex(s: Shape): s is ConvexShape {
  return typeof (s as ConvexShape).supportCore === "function";
}

// ------------------------------------------------------------------ scratch

const gjk = new GjkResult();
const epa = new EpaResult();
const bodyA = new Pose();
const bodyB = new Pose();
const poseA = new Pose();
const poseB = new Pose();
const AABB = new Float64Array(6);

/** Sample scratch. */
const S = new Float64Array(SAMPLES);
const LO = new Float64Array(SAMPLES);
const HI = new Float64Array(SAMPLES);
const HIT = new Uint8Array(SAMPLES);

/**
 * The sweep's scalar state between its helpers: distanceAt's output (surface distance, unit normal A -> B,
 * closest surface points), the current piece pair's bounding radii, the last piece pair's and the best hit's
 * times, normal and point, bracket and rotation outputs. Fields of one object rather than module-level
 * `let`s (docs/design.md, doubles).
 */
class SweepScratch {
  dDist = 0.5;
  dNx = 0.5;
  dNy = 1.5;
  dNz = 0.5;
  dAx = 0.5;
  dAy = 0.5;
  dAz = 0.5;
  dBx = 0.5;
  dBy = 0.5;
  dBz = 0.5;
  rhoA = 0.5;
  rhoB = 0.5;
  pairT0 = 0.5;
  pairT1 = 0.5;
  brEnter = 0.5;
  brExit = 0.5;
  bestT0 = 0.5;
  bestT1 = 0.5;
  sweepMinProg = 0.5;
  sweepConv = 0.5;
  sweepMaxT = 0.5;
  bestNx = 0.5;
  bestNy = 1.5;
  bestNz = 0.5;
  bestDist = 0.5;
  bestPx = 0.5;
  bestPy = 0.5;
  bestPz = 0.5;
  constructor() {
    // Initialised with non-integers above so every field starts as a double field; the real initial values:
    this.dDist = this.dNx = this.dNz = this.dAx = this.dAy = this.dAz = this.dBx = this.dBy = this.dBz = 0;
    this.dNy = this.bestNy = 1;
    this.rhoA = this.rhoB = this.pairT0 = this.pairT1 = this.brEnter = this.brExit = 0;
    this.bestT0 = this.bestT1 = 0;
    this.sweepMinProg = this.sweepConv = this.sweepMaxT = 0;
    this.bestNx = this.bestNz = this.bestDist = this.bestPx = this.bestPy = this.bestPz = 0;
  }
}
const st = new SweepScratch();

let queries = 0;

/** The current piece pair: shapes, local poses in their bodies, motions, bounding radii about the COM. */
let pA: ConvexShape | null = null;
let pB: ConvexShape | null = null;
const localA = new Pose();
const localB = new Pose();
let identityA = true;
let identityB = true;
let motA: SweptMotion = new SweptMotion();
let motB: SweptMotion = new SweptMotion();

/** Result of the last sweepPiecePair. */
let pairConverged = true,
  pairIterations = 0;

function posePieces(t: number): void {
  if (identityA) motA.poseAt(t, poseA);
  else {
    motA.poseAt(t, bodyA);
    poseA.compose(bodyA, localA.px, localA.py, localA.pz, localA.qx, localA.qy, localA.qz, localA.qw);
  }
  if (identityB) motB.poseAt(t, poseB);
  else {
    motB.poseAt(t, bodyB);
    poseB.compose(bodyB, localB.px, localB.py, localB.pz, localB.qx, localB.qy, localB.qz, localB.qw);
  }
}

/** GJK's start for distanceAt: the last normal (A -> B) as warm-start direction, no distance limit. */
const gjkStart = new Float64Array([0, 0, 0, Infinity]);

/**
 * Surface distance of the current piece pair at time t into st.dDist (negative or 0 when overlapping),
 * with the normal and closest points when `full` or when separated. Results stay in `st` (docs/design.md,
 * doubles).
 */
function distanceAt(t: number, full: boolean): void {
  const a = pA!,
    b = pB!;
  posePieces(t);
  queries++;
  const ra = a.coreRadius,
    rb = b.coreRadius;
  CORES[0] = ra;
  CORES[1] = rb;
  gjkStart[0] = st.dNx;
  gjkStart[1] = st.dNy;
  gjkStart[2] = st.dNz;
  const sep = gjkDistanceFrom(a, poseA, b, poseB, gjk, gjkStart);
  if (sep) {
    CORES[2] = gjk.distance;
    fromCores(gjk);
    return;
  }
  // Cores overlap: penetration (EPA) only when the caller wants the normal.
  st.dDist = -(ra + rb);
  if (full) {
    if (epaPenetration(a, poseA, b, poseB, gjk, epa)) {
      CORES[2] = -epa.depth;
      fromCores(epa);
    } else {
      // Degenerate: centre offset as the normal.
      let nx = poseB.px - poseA.px,
        ny = poseB.py - poseA.py,
        nz = poseB.pz - poseA.pz;
      const l = Math.sqrt(nx * nx + ny * ny + nz * nz);
      if (l > 0) {
        nx /= l;
        ny /= l;
        nz /= l;
      } else {
        nx = 0;
        ny = 1;
        nz = 0;
      }
      st.dNx = nx;
      st.dNy = ny;
      st.dNz = nz;
      st.dAx = st.dBx = 0.5 * (poseA.px + poseB.px);
      st.dAy = st.dBy = 0.5 * (poseA.py + poseB.py);
      st.dAz = st.dBz = 0.5 * (poseA.pz + poseB.pz);
    }
  }
}

/** distanceAt's core radii of A and B, then the distance between the cores (negative: EPA's depth). */
const CORES = new Float64Array(3);

/**
 * distanceAt's result from GJK's or EPA's points on the cores (normal from A toward B), with the radii and
 * core distance in CORES: each point moved out along the normal by its core radius.
 */
function fromCores(r: PointPair): void {
  const ra = CORES[0],
    rb = CORES[1];
  st.dNx = r.nx;
  st.dNy = r.ny;
  st.dNz = r.nz;
  st.dDist = CORES[2] - ra - rb;
  st.dAx = r.ax + st.dNx * ra;
  st.dAy = r.ay + st.dNy * ra;
  st.dAz = r.az + st.dNz * ra;
  st.dBx = r.bx - st.dNx * rb;
  st.dBy = r.by - st.dNy * rb;
  st.dBz = r.bz - st.dNz * rb;
}

/**
 * The times in [tStart, tEnd] when the relative linear motion P + U t is within distance R: false
 * when never.
 */
function bracket(px: number, py: number, pz: number, ux: number, uy: number, uz: number, R: number, tStart: number, tEnd: number): boolean {
  const a = ux * ux + uy * uy + uz * uz;
  const b = px * ux + py * uy + pz * uz; // half of the linear coefficient
  const c = px * px + py * py + pz * pz - R * R;
  if (!(a > 1e-300)) {
    if (c > 0) return false;
    st.brEnter = tStart;
    st.brExit = tEnd;
    return true;
  }
  const disc = b * b - a * c;
  if (disc < 0) return false;
  const sq = Math.sqrt(disc);
  let enter = (-b - sq) / a,
    exit = (-b + sq) / a;
  if (enter < tStart) enter = tStart;
  if (exit > tEnd) exit = tEnd;
  if (enter > exit) return false;
  st.brEnter = enter;
  st.brExit = exit;
  return true;
}

/**
 * Bracket of the current piece pair over [0, tEnd]: each piece lies within its maximumRadius rX of its
 * origin, whose offset from the centre of mass is d = piece origin - localCom (body frame).
 */
function pieceBracket(tEnd: number, rA: number, rB: number): boolean {
  pieceSphere(motA, localA, identityA, rA, tEnd, 0);
  pieceSphere(motB, localB, identityB, rB, tEnd, 4);
  const c = PIECE_SPHERES;
  return bracket(c[4] - c[0], c[5] - c[1], c[6] - c[2], motB.vx - motA.vx, motB.vy - motA.vy, motB.vz - motA.vz, c[3] + c[7], 0, tEnd);
}

/** pieceSphere's output: centre (x, y, z) and radius of A's sphere, then of B's. */
const PIECE_SPHERES = new Float64Array(8);
/** A vector turned by a motion's or pose's orientation (rotateParts). */
const TURNED = new Float64Array(3);

/**
 * A sphere that holds the piece at `local` (identity: at the body origin) of a body moving by m over [0, tEnd],
 * moving with the linear part of m: into PIECE_SPHERES[o..o+3]. The piece lies within r of its centre, which
 * is offset by d = piece origin - localCom (body frame) from the centre of mass; that centre lies within
 * min(w T |d|, 2|d|) of the linearly moving point com(t) + R(0) d, and within |d| of com(t): the smaller sphere.
 */
function pieceSphere(m: SweptMotion, local: Pose, identity: boolean, r: number, tEnd: number, o: number): void {
  const dx = (identity ? 0 : local.px) - m.localComX,
    dy = (identity ? 0 : local.py) - m.localComY,
    dz = (identity ? 0 : local.pz) - m.localComZ;
  const l = Math.sqrt(dx * dx + dy * dy + dz * dz);
  const out = PIECE_SPHERES;
  out[o] = m.comX;
  out[o + 1] = m.comY;
  out[o + 2] = m.comZ;
  out[o + 3] = r + l;
  const dev = m.angularSpeed * tEnd * l;
  if (dev < l) {
    rotateParts(m.qx, m.qy, m.qz, m.qw, dx, dy, dz, TURNED, 0);
    out[o] += TURNED[0];
    out[o + 1] += TURNED[1];
    out[o + 2] += TURNED[2];
    out[o + 3] = r + dev;
  }
}

/**
 * Interval narrowing for the current piece pair over [0, tEnd]. Returns true on hit with st.pairT0 /
 * st.pairT1 set.
 */
function sweepPiecePair(tEnd: number, minProg: number, conv: number): boolean {
  pairIterations = 0;
  pairConverged = true;
  if (!pieceBracket(tEnd, pA!.maximumRadius, pB!.maximumRadius)) return false;
  let t0 = st.brEnter,
    t1 = st.brExit;
  const rvx = motB.vx - motA.vx,
    rvy = motB.vy - motA.vy,
    rvz = motB.vz - motA.vz;
  const ang = motA.angularSpeed * st.rhoA + motB.angularSpeed * st.rhoB;
  let hitSeen = false;
  // Warm-start direction for GJK: the relative centre offset.
  st.dNx = st.dNy = st.dNz = 0;
  for (let iter = 0; iter < SWEEP_MAX_ITERATIONS; iter++) {
    pairIterations = iter + 1;
    const span = t1 - t0;
    let k = SAMPLES;
    for (let i = 0; i < SAMPLES; i++) {
      // Evenly spaced; the ends are exactly t0 and t1. A zero-width interval needs one sample.
      const s = i === SAMPLES - 1 ? t1 : t0 + (span * i) / (SAMPLES - 1);
      S[i] = s;
      distanceAt(s, false);
      const d = st.dDist;
      if (d <= SWEEP_CONTACT_TOLERANCE) {
        HIT[i] = 1;
        k = i;
        break; // later samples are not needed: t1 becomes this sample
      }
      HIT[i] = 0;
      const rel = rvx * st.dNx + rvy * st.dNy + rvz * st.dNz; // separation rate of the plane, linear part
      const approach = ang - rel;
      const retreat = ang + rel;
      HI[i] = approach > 0 ? s + d / approach : Infinity;
      LO[i] = retreat > 0 ? s - d / retreat : -Infinity;
      if (span <= 0) break;
    }
    if (k === 0) {
      // In contact at t0 (initial overlap, or advancement reached the contact tolerance).
      t1 = t0;
      hitSeen = true;
      break;
    }
    const last = span <= 0 ? 0 : k === SAMPLES ? SAMPLES - 1 : k - 1; // last free sample evaluated
    // Advance t0 through the chain of safe intervals (gaps under minProg skipped).
    let reach = HI[0];
    for (let i = 1; i <= last; i++) {
      if (LO[i] <= reach + minProg) {
        if (HI[i] > reach) reach = HI[i];
      } else break;
    }
    let nt1 = t1;
    if (k < SAMPLES) {
      nt1 = S[k];
      hitSeen = true;
    } else {
      // Pull t1 back through the chain of safe intervals from the last sample.
      let back = LO[last];
      for (let i = last - 1; i >= 0; i--) {
        if (HI[i] + minProg >= back) {
          if (LO[i] < back) back = LO[i];
        } else break;
      }
      if (back < nt1) nt1 = back;
    }
    let nt0 = reach < nt1 ? reach : nt1;
    if (nt0 < t0) nt0 = t0;
    const progressed = nt0 > t0 || nt1 < t1;
    t0 = nt0;
    t1 = nt1;
    if (hitSeen) {
      if (t1 - t0 <= conv) break;
    } else {
      // Proved free, or the unresolved part is shorter than the minimum progression.
      if (t1 - t0 <= 0 || t1 - t0 < minProg) {
        st.pairT0 = t0;
        st.pairT1 = t1;
        return false;
      }
    }
    if (!progressed) break; // precision exhausted
    if (iter === SWEEP_MAX_ITERATIONS - 1 && !hitSeen) {
      // Unresolved after the cap: report a conservative hit at the safe time (not proved).
      pairConverged = false;
      t1 = t0;
      hitSeen = true;
    }
  }
  if (!hitSeen) {
    // Precision exhausted without contact: treat as the cap.
    if (t1 - t0 > 0) {
      pairConverged = false;
      t1 = t0;
      hitSeen = true;
    } else return false;
  }
  st.pairT0 = t0;
  st.pairT1 = t1;
  return true;
}

// ------------------------------------------------------------------ piece lists and swept bounds

/** Gathered pieces of side A: shape, local pose, index, radius about the COM, swept world box. */
const listShapes: (ConvexShape | null)[] = [];
const listPoses: Pose[] = [];
let listIndex = new Int32Array(16);
let listRho = new Float64Array(16);
let listBox = new Float64Array(16 * 6);
let listIdentity = new Uint8Array(16);
let listCount = 0;

function growLists(n: number): void {
  while (listPoses.length < n) {
    listPoses.push(new Pose());
    listShapes.push(null);
  }
  listIndex = grown(listIndex, n, listCount);
  listRho = grown(listRho, listIndex.length, listCount);
  listBox = grown(listBox, 6 * listIndex.length, 6 * listCount);
  listIdentity = grown(listIdentity, listIndex.length, listCount);
}

/** Distance from the body's centre of mass to the farthest point of a piece at local pose (px, py, pz). */
function pieceRho(m: SweptMotion, piece: ConvexShape, px: number, py: number, pz: number): number {
  const dx = px - m.localComX,
    dy = py - m.localComY,
    dz = pz - m.localComZ;
  return Math.sqrt(dx * dx + dy * dy + dz * dz) + piece.maximumRadius;
}

/**
 * World box containing the piece over [0, T]: its box at t = 0, swept by the centre of mass's
 * displacement, grown by the rotation bound min(w T rho, 2 rho).
 */
function sweptPieceBox(m: SweptMotion, piece: ConvexShape, lp: Pose, identity: boolean, rho: number, T: number, out: Float64Array, o: number): void {
  m.poseAt(0, bodyA);
  if (identity) piece.computeAabb(bodyA, out, o);
  else {
    poseA.compose(bodyA, lp.px, lp.py, lp.pz, lp.qx, lp.qy, lp.qz, lp.qw);
    piece.computeAabb(poseA, out, o);
  }
  let dev = m.angularSpeed * T * rho;
  if (dev > 2 * rho) dev = 2 * rho;
  const dx = m.vx * T,
    dy = m.vy * T,
    dz = m.vz * T;
  out[o] += (dx < 0 ? dx : 0) - dev;
  out[o + 1] += (dy < 0 ? dy : 0) - dev;
  out[o + 2] += (dz < 0 ? dz : 0) - dev;
  out[o + 3] += (dx > 0 ? dx : 0) + dev;
  out[o + 4] += (dy > 0 ? dy : 0) + dev;
  out[o + 5] += (dz > 0 ? dz : 0) + dev;
}

function boxesOverlap(p: Float64Array, i: number, q: Float64Array, j: number): boolean {
  return p[i] <= q[j + 3] && q[j] <= p[i + 3] && p[i + 1] <= q[j + 4] && q[j + 1] <= p[i + 4] && p[i + 2] <= q[j + 5] && q[j + 2] <= p[i + 5];
}

/** Collects side A's pieces (the gathered side). */
class GatherSink implements SweepPieceSink {
  motion: SweptMotion = new SweptMotion();
  T = 0;
  add(piece: ConvexShape, px: number, py: number, pz: number, qx: number, qy: number, qz: number, qw: number, index: number): void {
    const n = listCount;
    growLists(n + 1);
    listShapes[n] = piece;
    listPoses[n].set(px, py, pz, qx, qy, qz, qw);
    const identity = px === 0 && py === 0 && pz === 0 && qx === 0 && qy === 0 && qz === 0 && qw === 1;
    listIdentity[n] = identity ? 1 : 0;
    listIndex[n] = index;
    const rho = pieceRho(this.motion, piece, px, py, pz);
    listRho[n] = rho;
    sweptPieceBox(this.motion, piece, listPoses[n], identity, rho, this.T, listBox, n * 6);
    listCount = n + 1;
  }
}

let tunnelGuard = true;

/**
 * The tunnel guard (on by default) lowers a piece pair's minimum sweep timestep to
 * (minimumRadiusA + minimumRadiusB) / (maximum relative point speed), so a collision in which one
 * piece's inner ball passes through the other's -- a bullet through a thin wall -- is never skipped,
 * while brief grazing contacts (corner clips) shorter than minimumSweepTimestep still may be.
 * Turn it off for bepu's exact semantics.
 */
export function setSweepTunnelGuard(enabled: boolean): void {
  tunnelGuard = enabled;
}

/** The current sweep's piece-pair gate (sweepShapes' `gate`). */
let pairGate: ChildPairGate | null = null;

/** A gate asked with its pieces swapped: sweepShapes swaps its shapes so the enumerated one streams as B. */
class SwappedGate implements ChildPairGate {
  inner: ChildPairGate | null = null;
  passes(childA: number, childB: number): boolean {
    return this.inner!.passes(childB, childA);
  }
}
const swappedGate = new SwappedGate();

/** Best hit so far over all piece pairs. */
let bestHit = false,
  bestConverged = true,
  bestA = 0,
  bestB = 0;
let sweepIterations = 0,
  sweepPairs = 0;
const pieceBoxB = new Float64Array(6);

/** Streams side B's pieces: each is swept against every gathered A piece whose swept box it overlaps. */
class SweepSink implements SweepPieceSink {
  motionA: SweptMotion = new SweptMotion();
  motionB: SweptMotion = new SweptMotion();
  add(piece: ConvexShape, px: number, py: number, pz: number, qx: number, qy: number, qz: number, qw: number, index: number): void {
    const mB = this.motionB;
    const identity = px === 0 && py === 0 && pz === 0 && qx === 0 && qy === 0 && qz === 0 && qw === 1;
    localB.set(px, py, pz, qx, qy, qz, qw);
    const rhoPiece = pieceRho(mB, piece, px, py, pz);
    const T = st.sweepMaxT;
    sweptPieceBox(mB, piece, localB, identity, rhoPiece, T, pieceBoxB, 0);
    const gate = pairGate;
    for (let i = 0; i < listCount; i++) {
      if (!boxesOverlap(listBox, i * 6, pieceBoxB, 0)) continue;
      if (gate !== null && !gate.passes(listIndex[i], index)) continue;
      // Only impacts earlier than the best so far matter.
      const tEnd = bestHit ? st.bestT1 : T;
      pA = listShapes[i];
      pB = piece;
      localA.copyFrom(listPoses[i]);
      localB.set(px, py, pz, qx, qy, qz, qw);
      identityA = listIdentity[i] === 1;
      identityB = identity;
      motA = this.motionA;
      motB = mB;
      st.rhoA = listRho[i];
      st.rhoB = rhoPiece;
      sweepPairs++;
      // Tunnel guard: never skip a gap that a full pass-through of the pieces' inner balls could fit in.
      let mp = st.sweepMinProg;
      if (tunnelGuard && mp > 0) {
        const dvx = mB.vx - this.motionA.vx,
          dvy = mB.vy - this.motionA.vy,
          dvz = mB.vz - this.motionA.vz;
        const speed = Math.sqrt(dvx * dvx + dvy * dvy + dvz * dvz) + this.motionA.angularSpeed * st.rhoA + mB.angularSpeed * st.rhoB;
        const inner = pA!.minimumRadius + piece.minimumRadius;
        if (inner < mp * speed) mp = inner / speed;
      }
      const hit = sweepPiecePair(tEnd, mp, st.sweepConv);
      sweepIterations += pairIterations;
      if (!hit) continue;
      if (!bestHit || st.pairT1 < st.bestT1 || (st.pairT1 === st.bestT1 && st.pairT0 < st.bestT0)) {
        bestHit = true;
        st.bestT0 = st.pairT0;
        st.bestT1 = st.pairT1;
        bestConverged = pairConverged;
        bestA = listIndex[i];
        bestB = index;
        // Normal and contact point now: an enumerator may reuse its piece object for the next piece.
        st.dNx = st.dNy = st.dNz = 0;
        distanceAt(st.pairT0, true);
        st.bestNx = st.dNx;
        st.bestNy = st.dNy;
        st.bestNz = st.dNz;
        st.bestDist = st.dDist;
        st.bestPx = 0.5 * (st.dAx + st.dBx);
        st.bestPy = 0.5 * (st.dAy + st.dBy);
        st.bestPz = 0.5 * (st.dAz + st.dBz);
      }
    }
  }
}

const gatherSink = new GatherSink();
const sweepSink = new SweepSink();
const QUERY = new Float64Array(6);
/** B's rotation matrix (row-major), for the query box. */
const ROT = new Float64Array(9);

/**
 * The shape-local box of B that may come within reach of A during [0, T]: A's whole swept world box,
 * grown by B's own motion (displacement and rotation bound), expressed in B's frame at t = 0.
 */
function queryBoxInB(a: Shape, mA: SweptMotion, b: Shape, mB: SweptMotion, T: number): void {
  const rhoA0 = a.maximumRadius + Math.sqrt(mA.localComX * mA.localComX + mA.localComY * mA.localComY + mA.localComZ * mA.localComZ);
  mA.poseAt(0, bodyA);
  a.computeAabb(bodyA, AABB, 0);
  let dev = mA.angularSpeed * T * rhoA0;
  if (dev > 2 * rhoA0) dev = 2 * rhoA0;
  let dx = mA.vx * T,
    dy = mA.vy * T,
    dz = mA.vz * T;
  let minX = AABB[0] + (dx < 0 ? dx : 0) - dev,
    minY = AABB[1] + (dy < 0 ? dy : 0) - dev,
    minZ = AABB[2] + (dz < 0 ? dz : 0) - dev,
    maxX = AABB[3] + (dx > 0 ? dx : 0) + dev,
    maxY = AABB[4] + (dy > 0 ? dy : 0) + dev,
    maxZ = AABB[5] + (dz > 0 ? dz : 0) + dev;
  // B's motion, reversed: a B-local point moves by at most its displacement plus B's rotation bound.
  const rhoB0 = b.maximumRadius + Math.sqrt(mB.localComX * mB.localComX + mB.localComY * mB.localComY + mB.localComZ * mB.localComZ);
  let devB = mB.angularSpeed * T * rhoB0;
  if (devB > 2 * rhoB0) devB = 2 * rhoB0;
  dx = -mB.vx * T;
  dy = -mB.vy * T;
  dz = -mB.vz * T;
  minX += (dx < 0 ? dx : 0) - devB;
  minY += (dy < 0 ? dy : 0) - devB;
  minZ += (dz < 0 ? dz : 0) - devB;
  maxX += (dx > 0 ? dx : 0) + devB;
  maxY += (dy > 0 ? dy : 0) + devB;
  maxZ += (dz > 0 ? dz : 0) + devB;
  // Into B's frame at t = 0: local = R^T (world - origin); the AABB of the rotated box.
  mB.poseAt(0, bodyB);
  const cx = 0.5 * (minX + maxX) - bodyB.px,
    cy = 0.5 * (minY + maxY) - bodyB.py,
    cz = 0.5 * (minZ + maxZ) - bodyB.pz;
  const ex = 0.5 * (maxX - minX),
    ey = 0.5 * (maxY - minY),
    ez = 0.5 * (maxZ - minZ);
  rotateParts(-bodyB.qx, -bodyB.qy, -bodyB.qz, bodyB.qw, cx, cy, cz, TURNED, 0);
  // R^T (the conjugate's matrix, the same numbers), absolute values, times the extents.
  const r = ROT;
  bodyB.rotationMatrix(r, 0);
  const hx = Math.abs(r[0]) * ex + Math.abs(r[3]) * ey + Math.abs(r[6]) * ez;
  const hy = Math.abs(r[1]) * ex + Math.abs(r[4]) * ey + Math.abs(r[7]) * ez;
  const hz = Math.abs(r[2]) * ex + Math.abs(r[5]) * ey + Math.abs(r[8]) * ez;
  QUERY[0] = TURNED[0] - hx;
  QUERY[1] = TURNED[1] - hy;
  QUERY[2] = TURNED[2] - hz;
  QUERY[3] = TURNED[0] + hx;
  QUERY[4] = TURNED[1] + hy;
  QUERY[5] = TURNED[2] + hz;
}

/** True when `s` can be gathered as side A (convex, or pieces that stay valid: compounds). */
function gatherable(s: Shape): boolean {
  return isConvex(s) || s.type === ShapeType.Compound;
}

/**
 * Time of impact of shape `a` moving by `motionA` and shape `b` moving by `motionB` over t in [0, maxT].
 *
 * - `minimumSweepTimestep`: gaps between proved-free intervals shorter than this are skipped, so
 *   collisions lasting less than it may be missed (bepu semantics; 0 never skips).
 * - `convergenceThreshold`: stop once the impact is bracketed in an interval [t0, t1] this narrow.
 *
 * Returns true on hit, with out.t0 (safe time), out.t1 (time seen in contact, >= impact), the normal
 * (A toward B) and contact point at t0, and the piece indices (compound children, mesh triangles).
 * Shapes: convex, compounds, and types registered with {@link registerSweepPieceEnumerator}; at least
 * one side must be convex or a compound. `gate`, when given, skips the piece pairs it refuses (per-child
 * filters and triggers); trigger children of a compound are skipped always.
 */
export function sweepShapes(
  a: Shape,
  motionA: SweptMotion,
  b: Shape,
  motionB: SweptMotion,
  maxT: number,
  minimumSweepTimestep: number,
  convergenceThreshold: number,
  out: SweepResult,
  gate: ChildPairGate | null = null,
): boolean {
  out.reset();
  pairGate = gate;
  if (!(maxT > 0)) return false;
  if (!gatherable(a)) {
    if (!gatherable(b)) throw new TypeError(`sweepShapes: no sweep for shape types ${a.type} and ${b.type}`);
    // Swap so the piece-enumerated shape streams as B, then flip the result back.
    swappedGate.inner = gate;
    const hit = sweepShapes(b, motionB, a, motionA, maxT, minimumSweepTimestep, convergenceThreshold, out, gate === null ? null : swappedGate);
    swappedGate.inner = null;
    if (hit) {
      out.normalX = -out.normalX;
      out.normalY = -out.normalY;
      out.normalZ = -out.normalZ;
      const c = out.childA;
      out.childA = out.childB;
      out.childB = c;
    }
    return hit;
  }
  // Whole-body bracket: the bounding spheres about the centres of mass.
  const ra = a.maximumRadius + Math.sqrt(motionA.localComX * motionA.localComX + motionA.localComY * motionA.localComY + motionA.localComZ * motionA.localComZ);
  const rb = b.maximumRadius + Math.sqrt(motionB.localComX * motionB.localComX + motionB.localComY * motionB.localComY + motionB.localComZ * motionB.localComZ);
  if (
    !bracket(
      motionB.comX - motionA.comX,
      motionB.comY - motionA.comY,
      motionB.comZ - motionA.comZ,
      motionB.vx - motionA.vx,
      motionB.vy - motionA.vy,
      motionB.vz - motionA.vz,
      ra + rb,
      0,
      maxT,
    )
  ) {
    return false;
  }
  bestHit = false;
  bestConverged = true;
  bestA = bestB = 0;
  st.sweepMinProg = minimumSweepTimestep > 0 ? minimumSweepTimestep : 0;
  st.sweepConv = convergenceThreshold > 0 ? convergenceThreshold : 0;
  st.sweepMaxT = maxT;
  sweepIterations = 0;
  sweepPairs = 0;
  queries = 0;
  // Gather A's pieces.
  listCount = 0;
  gatherSink.motion = motionA;
  gatherSink.T = maxT;
  if (isConvex(a)) gatherSink.add(a, 0, 0, 0, 0, 0, 0, 1, 0);
  else enumerateCompound(a, 0, 0, 0, 0, 0, 0, gatherSink);
  // Stream B's pieces against them.
  sweepSink.motionA = motionA;
  sweepSink.motionB = motionB;
  if (isConvex(b)) sweepSink.add(b, 0, 0, 0, 0, 0, 0, 1, 0);
  else {
    const en = ENUMERATORS[b.type];
    if (!en) throw new TypeError(`sweepShapes: no sweep piece enumerator for shape type ${b.type}`);
    if (b.type === ShapeType.Compound) en(b, 0, 0, 0, 0, 0, 0, sweepSink);
    else {
      queryBoxInB(a, motionA, b, motionB, maxT);
      en(b, QUERY[0], QUERY[1], QUERY[2], QUERY[3], QUERY[4], QUERY[5], sweepSink);
    }
  }
  for (let i = 0; i < listCount; i++) listShapes[i] = null;
  out.iterations = sweepIterations;
  out.piecePairs = sweepPairs;
  pA = pB = null;
  if (!bestHit) {
    out.distanceQueries = queries;
    return false;
  }
  out.hit = true;
  out.t0 = st.bestT0;
  out.t1 = st.bestT1;
  out.converged = bestConverged;
  out.childA = bestA;
  out.childB = bestB;
  out.normalX = st.bestNx;
  out.normalY = st.bestNy;
  out.normalZ = st.bestNz;
  out.distance = st.bestDist;
  out.pointX = st.bestPx;
  out.pointY = st.bestPy;
  out.pointZ = st.bestPz;
  out.distanceQueries = queries;
  return true;
}

/**
 * The post-solve TOI check: motions given as swept transforms in endpoint mode
 * ({@link SweptMotion.setEndpoints} with duration 1), so t is the fraction alpha of the step in [0, 1]
 * and `minimumSweepTimestep` / `convergenceThreshold` are fractions of the step too (divide the
 * seconds values by dt). Same result conventions as {@link sweepShapes}.
 */
export function sweepShapeLinear(
  a: Shape,
  motionA: SweptMotion,
  b: Shape,
  motionB: SweptMotion,
  minimumSweepFraction: number,
  convergenceFraction: number,
  out: SweepResult,
  gate: ChildPairGate | null = null,
): boolean {
  return sweepShapes(a, motionA, b, motionB, 1, minimumSweepFraction, convergenceFraction, out, gate);
}
