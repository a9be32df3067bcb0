import type { Pose } from "../math/pose";
import type { Capsule } from "../shapes/capsule";
import { CONTACT_POINT as CP, type ContactManifold } from "./contactManifold";
import { closestSegmentSegment, SEGMENT_PAIR_LENGTH } from "./segmentClosest";
import { perpendicularTo } from "../math/vec3";

const ST = new Float64Array(2);
const ES = new Float64Array(4);
/** A's and B's axes in world. */
const AXES = new Float64Array(6);
// Doubles crossing calls travel in typed arrays (docs/design.md).
/** The two core segments, for closestSegmentSegment. */
const SEG = new Float64Array(SEGMENT_PAIR_LENGTH);

/** Above this sin^2 of the angle between the axes the segments are never treated as parallel (~8 degrees). */
const PARALLEL_SIN2 = 0.02;
/** A normal perpendicular to A's axis (perpendicularTo), for coincident axes. */
const PERP = new Float64Array(3);

/**
 * Capsule (A) vs capsule (B): closest points of the two core segments (Ericson, RTCD 5.1.9) give the
 * normal and the deepest point. When the segments are nearly parallel and overlap along their length,
 * the overlap is clipped (as Box2D's capsule manifold does) and its two ends become the contacts, so a
 * capsule lying on another does not rock on one point. Feature ids: 0 for the single contact, 1 and 2
 * for the low and high ends of the clipped overlap (measured along A's axis).
 */
export function collideCapsuleCapsule(a: Capsule, pa: Pose, b: Capsule, pb: Pose, speculativeMargin: number | undefined, out: ContactManifold): void {
  out.begin(speculativeMargin);
  const margin = out.margin;
  // Capsule axes (local +Y) in world.
  pa.axisY(AXES, 0);
  pb.axisY(AXES, 3);
  const uax = AXES[0], uay = AXES[1], uaz = AXES[2];
  const ubx = AXES[3], uby = AXES[4], ubz = AXES[5];
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
        perpendicularTo(AXES, 0, PERP, 0);
        nx = PERP[0];
        ny = PERP[1];
        nz = PERP[2];
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
      // Each end s of the overlap (on A's axis) and its closest point on B's segment: their offset along n
      // (ES[2e]) and distance (ES[2e + 1]). Written inline, not in a helper: a helper this rarely called
      // stays unoptimised long after the tester is, and unoptimised code allocates every double it makes.
      for (let e = 0; e < 2; e++) {
        const s = e === 0 ? lo : hi;
        let t = f + s * cosAB;
        if (t > hb) t = hb;
        else if (t < -hb) t = -hb;
        const dx = pb.px + ubx * t - (pa.px + uax * s);
        const dy = pb.py + uby * t - (pa.py + uay * s);
        const dz = pb.pz + ubz * t - (pa.pz + uaz * s);
        ES[2 * e] = dx * nx + dy * ny + dz * nz;
        ES[2 * e + 1] = Math.sqrt(dx * dx + dy * dy + dz * dz);
      }
      // Only when both ends are truly (not just along n) about as close as the closest points;
      // otherwise the axes cross or diverge and the ends would support where the surfaces do not touch.
      const tol = 0.02 * rr;
      if (ES[1] <= dist + tol && ES[3] <= dist + tol) {
        for (let e = 0; e < 2; e++) {
          const s = e === 0 ? lo : hi;
          const sep = ES[2 * e] - rr;
          if (sep > margin) continue;
          // Along n, A's surface is at ra and B's at ra + rb + sep from the axis point; take the midpoint.
          const k = ra + 0.5 * sep;
          CP[0] = pa.px + uax * s + nx * k;
          CP[1] = pa.py + uay * s + ny * k;
          CP[2] = pa.pz + uaz * s + nz * k;
          CP[3] = -sep;
          out.addPoint(CP, e + 1);
        }
        if (out.count > 0) return;
      }
    }
  }

  // Single contact at the closest points: A's surface point is a + n*ra; midpoint along n.
  const k = 0.5 * (ra - rb + dist);
  CP[0] = ax + nx * k;
  CP[1] = ay + ny * k;
  CP[2] = az + nz * k;
  CP[3] = -sep0;
  out.addPoint(CP, 0);
}
