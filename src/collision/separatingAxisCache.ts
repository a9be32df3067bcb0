/**
 * A per-pair cache of separating axes for convex pairs that are near (their bounds overlap) but apart.
 *
 * A broad-phase pair whose shapes are farther apart than the speculative margin gives no contact, yet the
 * generic tester runs GJK on it every step. When GJK proves the pair apart, the cache keeps its direction (A
 * toward B) in A's frame, the gap g it proved along it, and B's pose relative to A's. Next step:
 *
 * 1. B has moved relative to A by at most d = |dp| + 2 sin(theta / 2) rB (its origin's displacement in A's frame
 *    and the relative turn theta acting on B's farthest point, at rB from B's origin). The shapes are still more
 *    than g - d apart; while that exceeds the margin the pair is apart without any query.
 * 2. Otherwise one support query per shape along the kept axis measures the gap anew (the cached separating
 *    axis of Gregorius, "The Separating Axis Test between Convex Polyhedra", GDC 2013); while it exceeds the
 *    margin the pair is apart, and the gap and pose become the new reference.
 * 3. Otherwise the narrow phase runs as before.
 *
 * Both tests are exact bounds (a gap along any axis bounds the distance from below; no point of B moves
 * farther than d), so a pair the cache calls apart is apart.
 *
 * The axes are state (snapshots save them) like the contact cache's manifolds; double-buffered by step,
 * so a pair that leaves the broad phase loses its axis.
 */
import { PairTable } from "../collections/pairTable";
import type { Pose } from "../math/pose";
import { rotateParts } from "../math/quat";
import type { ConvexShape } from "../shapes/shape";
import { collideConvexGeneric, separatingAxis } from "./convexGeneric";
import { setPairFrames, supportCsoFramed } from "./gjk";
import { convexTesterFor } from "./narrowPhase";

/** Payload per pair: the axis in A's frame (3), the gap proved along it (1), B's pose in A's frame then (7). */
const P_AXIS = 0,
  P_GAP = 3,
  P_REL = 4,
  PAYLOAD = 11;

const dir = new Float64Array(3);
const w = new Float64Array(3);
const sa = new Float64Array(3);
const sb = new Float64Array(3);
const radii = new Float64Array(4);
/** B's pose in A's frame now: position (3), orientation (4). */
const rel = new Float64Array(7);
/** The axis in A's frame (3) and the gap (1) to keep (an array, not arguments: docs/design.md). */
const kept = new Float64Array(4);

/**
 * Turns v[vo..vo+2] by pose p's orientation (sign 1) or its conjugate (sign -1) into out[oo..oo+2]
 * (v + 2w(q x v) + 2 q x (q x v); arrays and a small integer in: docs/design.md).
 */
function turn(p: Pose, sign: number, v: Float64Array, vo: number, out: Float64Array, oo: number): void {
  rotateParts(sign * p.qx, sign * p.qy, sign * p.qz, p.qw, v[vo], v[vo + 1], v[vo + 2], out, oo);
}

/** B's origin pose in A's origin frame, into rel: position conj(qA) (pB - pA), orientation conj(qA) qB. */
function relativePose(pa: Pose, pb: Pose): void {
  const ax = pa.qx,
    ay = pa.qy,
    az = pa.qz,
    aw = pa.qw;
  const vx = pb.px - pa.px,
    vy = pb.py - pa.py,
    vz = pb.pz - pa.pz;
  const tx = 2 * (-ay * vz + az * vy),
    ty = 2 * (-az * vx + ax * vz),
    tz = 2 * (-ax * vy + ay * vx);
  rel[0] = vx + aw * tx + (-ay * tz + az * ty);
  rel[1] = vy + aw * ty + (-az * tx + ax * tz);
  rel[2] = vz + aw * tz + (-ax * ty + ay * tx);
  const bx = pb.qx,
    by = pb.qy,
    bz = pb.qz,
    bw = pb.qw;
  rel[3] = aw * bx - bw * ax - ay * bz + az * by;
  rel[4] = aw * by - bw * ay - az * bx + ax * bz;
  rel[5] = aw * bz - bw * az - ax * by + ay * bx;
  rel[6] = aw * bw + ax * bx + ay * by + az * bz;
}

/** Separating axes of the convex pairs that were apart last step (see the module comment). */
export class SeparatingAxisCache {
  private cur = new PairTable(PAYLOAD);
  private prev = new PairTable(PAYLOAD);
  /**
   * The pair of the next {@link separates} or {@link record}: handles of A and B, and the pair's speculative
   * margin (in an array, not arguments: docs/design.md).
   */
  readonly query = new Float64Array(3);

  /** Starts a step: this step's axes become the previous ones. */
  beginStep(): void {
    const t = this.prev;
    this.prev = this.cur;
    this.cur = t;
    this.cur.clear();
  }

  /** True for shape pairs whose tester is the generic GJK one (the only one that reports an axis). */
  static handles(a: ConvexShape, b: ConvexShape): boolean {
    return convexTesterFor(a.type, b.type) === collideConvexGeneric;
  }

  /**
   * True when what the cache kept of the pair in {@link query} last step still shows `a` at `pa` and `b` at
   * `pb` farther apart than the margin; it is then kept for the next step.
   */
  separates(a: ConvexShape, pa: Pose, b: ConvexShape, pb: Pose): boolean {
    const q = this.query;
    const e = this.prev.find(q[0], q[1]);
    if (e < 0) return false;
    const p = this.prev.payload;
    const o = e * PAYLOAD;
    relativePose(pa, pb);
    b.radiiInto(radii, 2);
    const dx = rel[0] - p[o + P_REL],
      dy = rel[1] - p[o + P_REL + 1],
      dz = rel[2] - p[o + P_REL + 2];
    const dq = rel[3] * p[o + P_REL + 3] + rel[4] * p[o + P_REL + 4] + rel[5] * p[o + P_REL + 5] + rel[6] * p[o + P_REL + 6];
    // 2 sin(theta / 2) = 2 sqrt(1 - cos^2(theta / 2)), cos(theta / 2) = |dq|.
    const s2 = 1 - dq * dq;
    const moved = Math.sqrt(dx * dx + dy * dy + dz * dz) + 2 * Math.sqrt(s2 > 0 ? s2 : 0) * radii[3];
    if (p[o + P_GAP] - moved > q[2]) {
      const co = this.cur.insert(q[0], q[1]) * PAYLOAD;
      const c = this.cur.payload;
      for (let k = 0; k < PAYLOAD; k++) c[co + k] = p[o + k];
      return true;
    }
    // The kept axis, turned with A, measures the gap at the current poses.
    turn(pa, 1, p, o + P_AXIS, dir, 0);
    const nx = dir[0],
      ny = dir[1],
      nz = dir[2];
    // A's farthest core point along n and B's along -n: the cores' gap along n is n . (sB - sA) = -n . w.
    setPairFrames(pa, pb);
    supportCsoFramed(a, b, dir, w, sa, sb, 0);
    a.radiiInto(radii, 0);
    const gap = -(w[0] * nx + w[1] * ny + w[2] * nz) - radii[0] - radii[2];
    // Not apart along it: the narrow phase runs (and may record a new axis).
    if (!(gap > q[2])) return false;
    for (let k = 0; k < 3; k++) kept[k] = p[o + P_AXIS + k];
    kept[3] = gap;
    this.keep();
    return true;
  }

  /**
   * Keeps the axis of the generic tester's last call, when it proved the pair in {@link query} apart
   * ({@link separatingAxis}: world, from A toward B), in the frame of A at `pa`, with B at `pb`.
   */
  record(pa: Pose, pb: Pose): void {
    if (separatingAxis[3] !== 1) return;
    turn(pa, -1, separatingAxis, 0, kept, 0);
    kept[3] = separatingAxis[4];
    relativePose(pa, pb);
    this.keep();
  }

  /** This step's entry of the pair in {@link query}: the axis and gap in `kept`, the pose in `rel`. */
  private keep(): void {
    const q = this.query;
    const co = this.cur.insert(q[0], q[1]) * PAYLOAD;
    const c = this.cur.payload;
    for (let k = 0; k < 4; k++) c[co + k] = kept[k];
    for (let k = 0; k < 7; k++) c[co + P_REL + k] = rel[k];
  }
}

/**
 * What {@link SeparatingAxisCache.separates} would answer for the pair (ha, hb) with margin `margin`, without
 * keeping anything: the threaded narrow phase's forecast of which pairs need a tester (src/parallel/). The
 * library's step does not call it, so its bundle does not carry it.
 */
export function wouldSeparate(cache: SeparatingAxisCache, ha: number, hb: number, margin: number, a: ConvexShape, pa: Pose, b: ConvexShape, pb: Pose): boolean {
  const prev = (cache as unknown as { prev: PairTable }).prev;
  const e = prev.find(ha, hb);
  if (e < 0) return false;
  const p = prev.payload;
  const o = e * PAYLOAD;
  relativePose(pa, pb);
  b.radiiInto(radii, 2);
  const dx = rel[0] - p[o + P_REL],
    dy = rel[1] - p[o + P_REL + 1],
    dz = rel[2] - p[o + P_REL + 2];
  const dq = rel[3] * p[o + P_REL + 3] + rel[4] * p[o + P_REL + 4] + rel[5] * p[o + P_REL + 5] + rel[6] * p[o + P_REL + 6];
  const s2 = 1 - dq * dq;
  const moved = Math.sqrt(dx * dx + dy * dy + dz * dz) + 2 * Math.sqrt(s2 > 0 ? s2 : 0) * radii[3];
  if (p[o + P_GAP] - moved > margin) return true;
  turn(pa, 1, p, o + P_AXIS, dir, 0);
  const nx = dir[0],
    ny = dir[1],
    nz = dir[2];
  setPairFrames(pa, pb);
  supportCsoFramed(a, b, dir, w, sa, sb, 0);
  a.radiiInto(radii, 0);
  const gap = -(w[0] * nx + w[1] * ny + w[2] * nz) - radii[0] - radii[2];
  return gap > margin;
}
