import type { Pose } from "../math/pose";
import type { Capsule } from "../shapes/capsule";
import type { ContactManifold } from "./contactManifold";
import { closestSegmentSegment, SEGMENT_PAIR_LENGTH } from "./segmentClosest";

const ST = new Float64Array(2);
const ES = new Float64Array(4);
// Doubles crossing calls travel in typed arrays: V8 boxes (heap-allocates) each double argument of a
// call that TurboFan does not inline.
/** The two core segments, for closestSegmentSegment. */
const SEG = new Float64Array(SEGMENT_PAIR_LENGTH);
/**
 * Shared inputs of endSeparation / addEnd: A's axis (0..2), B's axis (3..5), hb (6), cos(A, B) (7),
 * f (8), normal (9..11), ra (12).
 */
const END = new Float64Array(13);

/** Above this sin^2 of the angle between the axes the segments are never treated as parallel (~8 degrees). */
const PARALLEL_SIN2 = 0.02;

/**
 * Capsule (A) vs capsule (B): closest points of the two core segments (Ericson, RTCD 5.1.9) give the
 * normal and the deepest point. When the segments are nearly parallel and overlap along their length,
 * the overlap is clipped (as Box2D's capsule manifold does) and its two ends become the contacts, so a
 * capsule lying on another does not rock on one point. Feature ids: 0 for the single contact, 1 and 2
 * for the low and high ends of the clipped overlap (measured along A's axis).
 */
export function collideCapsuleCapsule(
  a: Capsule,
  pa: Pose,
  b: Capsule,
  pb: Pose,
  speculativeMargin: number | undefined,
  out: ContactManifold,
): void {
  // Called by the dispatch without a margin (see ContactManifold.margin): take it from the manifold.
  // The margin is read from the manifold (a double field) so that it stays an unboxed double: a parameter
  // that is sometimes undefined is a tagged value, and merging a double into it allocates a HeapNumber.
  if (speculativeMargin !== undefined) out.margin = speculativeMargin;
  const margin = out.margin;
  out.count = 0;
  let qx = pa.qx,
    qy = pa.qy,
    qz = pa.qz,
    qw = pa.qw;
  // Capsule axes (local +Y) in world.
  const uax = 2 * (qx * qy - qw * qz);
  const uay = 1 - 2 * (qx * qx + qz * qz);
  const uaz = 2 * (qy * qz + qw * qx);
  qx = pb.qx;
  qy = pb.qy;
  qz = pb.qz;
  qw = pb.qw;
  const ubx = 2 * (qx * qy - qw * qz);
  const uby = 1 - 2 * (qx * qx + qz * qz);
  const ubz = 2 * (qy * qz + qw * qx);
  const ha = a.halfLength,
    hb = b.halfLength;
  const ra = a.radius,
    rb = b.radius,
    rr = ra + rb;

  SEG[0] = pa.px;
  SEG[1] = pa.py;
  SEG[2] = pa.pz;
  SEG[3] = uax;
  SEG[4] = uay;
  SEG[5] = uaz;
  SEG[6] = ha;
  SEG[7] = pb.px;
  SEG[8] = pb.py;
  SEG[9] = pb.pz;
  SEG[10] = ubx;
  SEG[11] = uby;
  SEG[12] = ubz;
  SEG[13] = hb;
  closestSegmentSegment(SEG, ST, 0);
  const s = ST[0],
    t = ST[1];
  const ax = pa.px + uax * s,
    ay = pa.py + uay * s,
    az = pa.pz + uaz * s;
  const dx = pb.px + ubx * t - ax,
    dy = pb.py + uby * t - ay,
    dz = pb.pz + ubz * t - az;
  const d2 = dx * dx + dy * dy + dz * dz;
  const reach = rr + margin;
  if (d2 > reach * reach) return;
  const dist = Math.sqrt(d2);

  let nx: number, ny: number, nz: number;
  if (dist > 1e-9) {
    const inv = 1 / dist;
    nx = dx * inv;
    ny = dy * inv;
    nz = dz * inv;
  } else {
    // The cores intersect: use the common perpendicular if the axes cross, else the centre offset
    // without its axial part, else any perpendicular of A's axis; orient it from A toward B.
    const cx = pb.px - pa.px,
      cy = pb.py - pa.py,
      cz = pb.pz - pa.pz;
    nx = uay * ubz - uaz * uby;
    ny = uaz * ubx - uax * ubz;
    nz = uax * uby - uay * ubx;
    let l2 = nx * nx + ny * ny + nz * nz;
    if (l2 < 1e-12) {
      const k = cx * uax + cy * uay + cz * uaz;
      nx = cx - uax * k;
      ny = cy - uay * k;
      nz = cz - uaz * k;
      l2 = nx * nx + ny * ny + nz * nz;
      if (l2 < 1e-18) {
        if (Math.abs(uax) < 0.57735) {
          nx = 0;
          ny = uaz;
          nz = -uay;
        } else {
          nx = -uaz;
          ny = 0;
          nz = uax;
        }
        l2 = nx * nx + ny * ny + nz * nz;
      }
    }
    const inv = 1 / Math.sqrt(l2);
    nx *= inv;
    ny *= inv;
    nz *= inv;
    if (nx * cx + ny * cy + nz * cz < 0) {
      nx = -nx;
      ny = -ny;
      nz = -nz;
    }
  }
  out.normalX = nx;
  out.normalY = ny;
  out.normalZ = nz;
  const sep0 = dist - rr;

  // Two-point manifold for near-parallel, overlapping segments.
  const cosAB = uax * ubx + uay * uby + uaz * ubz;
  if (ha > 0 && hb > 0 && 1 - cosAB * cosAB < PARALLEL_SIN2) {
    const rx = pa.px - pb.px,
      ry = pa.py - pb.py,
      rz = pa.pz - pb.pz;
    const c = uax * rx + uay * ry + uaz * rz; // A's centre offset along A's axis
    const f = ubx * rx + uby * ry + ubz * rz; // A's centre offset along B's axis
    // B projected onto A's axis is [-c - hb|cos|, -c + hb|cos|]; clip it to A's segment.
    const e = hb * Math.abs(cosAB);
    const lo = -c - e > -ha ? -c - e : -ha;
    const hi = -c + e < ha ? -c + e : ha;
    if (hi - lo > 0.01 * rr) {
      END[0] = uax;
      END[1] = uay;
      END[2] = uaz;
      END[3] = ubx;
      END[4] = uby;
      END[5] = ubz;
      END[6] = hb;
      END[7] = cosAB;
      END[8] = f;
      END[9] = nx;
      END[10] = ny;
      END[11] = nz;
      END[12] = ra;
      ES[0] = lo;
      endSeparation(pa, pb, 0);
      ES[2] = hi;
      endSeparation(pa, pb, 2);
      const sepLo = ES[0] - rr,
        sepHi = ES[2] - rr;
      // Only when both ends are truly (not just along n) about as close as the closest points;
      // otherwise the axes cross or diverge and the ends would support where the surfaces do not touch.
      const tol = 0.02 * rr;
      if (ES[1] <= dist + tol && ES[3] <= dist + tol) {
        if (sepLo <= margin) {
          ES[0] = lo;
          ES[1] = sepLo;
          addEnd(out, pa, 1);
        }
        if (sepHi <= margin) {
          ES[0] = hi;
          ES[1] = sepHi;
          addEnd(out, pa, 2);
        }
        if (out.count > 0) return;
      }
    }
  }

  // Single contact at the closest points: A's surface point is a + n*ra; midpoint along n.
  const k = 0.5 * (ra - rb + dist);
  out.add(ax + nx * k, ay + ny * k, az + nz * k, -sep0, 0);
}

/**
 * For the point at parameter s = ES[o] on A's axis and its closest point on B's segment: writes their
 * offset along n to ES[o] and their distance to ES[o + 1]. Other inputs in END.
 */
function endSeparation(pa: Pose, pb: Pose, o: number): void {
  const s = ES[o];
  const uax = END[0],
    uay = END[1],
    uaz = END[2],
    ubx = END[3],
    uby = END[4],
    ubz = END[5],
    hb = END[6],
    b = END[7],
    f = END[8],
    nx = END[9],
    ny = END[10],
    nz = END[11];
  let t = f + s * b;
  if (t > hb) t = hb;
  else if (t < -hb) t = -hb;
  const dx = pb.px + ubx * t - (pa.px + uax * s);
  const dy = pb.py + uby * t - (pa.py + uay * s);
  const dz = pb.pz + ubz * t - (pa.pz + uaz * s);
  ES[o] = dx * nx + dy * ny + dz * nz;
  ES[o + 1] = Math.sqrt(dx * dx + dy * dy + dz * dz);
}

/** Adds the contact at parameter s = ES[0] on A's axis with separation sep = ES[1]; other inputs in END. */
function addEnd(out: ContactManifold, pa: Pose, id: number): void {
  const s = ES[0],
    sep = ES[1];
  const uax = END[0],
    uay = END[1],
    uaz = END[2],
    nx = END[9],
    ny = END[10],
    nz = END[11],
    ra = END[12];
  // Along n, A's surface is at ra and B's at ra + rb + sep from the axis point; take the midpoint.
  const k = ra + 0.5 * sep;
  out.add(pa.px + uax * s + nx * k, pa.py + uay * s + ny * k, pa.pz + uaz * s + nz * k, -sep, id);
}
