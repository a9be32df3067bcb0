import type { Pose } from "../math/pose";
import type { Box } from "../shapes/box";
import type { Capsule } from "../shapes/capsule";
import { CONTACT_POINT as CP, type ContactManifold } from "./contactManifold";
import { closestSegmentSegment, SEGMENT_PAIR_LENGTH } from "./segmentClosest";

const R = new Float64Array(9);
/** The capsule's axis in world, its centre in box space. */
const AXIS = new Float64Array(3);
const CENTRE = new Float64Array(3);
/** Breakpoints of the piecewise-quadratic segment-to-box distance (2 ends + up to 6 slab crossings). */
const BP = new Float64Array(8);
const ST = new Float64Array(2);
/** Clipped parameter interval [lo, hi] of the segment. */
const CL = new Float64Array(2);
// Doubles crossing calls travel in typed arrays (docs/design.md).
/**
 * Box-space inputs of the helpers and of closestSegmentSegment: [0..6] the capsule core (centre c,
 * unit axis u, half length hl), [7..13] a box edge (set only for the edge case).
 */
const SEG = new Float64Array(SEGMENT_PAIR_LENGTH);
/** Box half extents. */
const HALF = new Float64Array(3);
/** closestSegmentBoxParam's result t. */
const PARAM = new Float64Array(1);
/** addEnds inputs: normal n (0..2), face point q (3..5), r (6), margin (7), maxSep (8). */
const ENDS = new Float64Array(9);

/** An unbounded clip parameter (finite, so no infinity reaches arithmetic). */
const BIG = 1e30;
const NEG_BIG = -1e30;
/** Cos of the largest angle between the segment and a box edge still treated as parallel (2 contacts). */
const EDGE_PARALLEL_COS = 0.995;
/** An edge axis must beat the best face axis by this much (metres) to be chosen: faces give coherent manifolds. */
const EDGE_BIAS = 1e-3;

/**
 * Capsule (A) vs box (B), in the box's frame.
 *
 * When the core segment is outside the box, the exact closest points of segment and box (the squared
 * distance is a convex piecewise quadratic in the segment parameter; each piece is minimised in closed
 * form) give the normal and the true gap, so speculative contacts are as far as the real distance.
 * When the core touches the box, SAT over the 3 box face normals and the 3 axes segment x box-edge
 * (Ericson, RTCD 5.2.1 / Gregorius, "The Separating Axis Test", GDC 2013) gives the normal.
 *
 * Contacts: when the normal is a box face normal the segment is clipped to that face's rectangle and
 * both ends are kept (2 contacts for a capsule lying on a face, as in bepu's capsule-box and parry's
 * cuboid-capsule). When it rests along a box edge parallel to the segment, the segment is clipped to the
 * edge's extent. Otherwise one contact at the closest points.
 * Feature ids: face f (0..5 = +X,-X,+Y,-Y,+Z,-Z) end e (0, 1): 1 + 2f + e; edge ends 16 + 2*edge + e;
 * single contact 0.
 */
export function collideCapsuleBox(a: Capsule, pa: Pose, b: Box, pb: Pose, speculativeMargin: number | undefined, out: ContactManifold): void {
  out.begin(speculativeMargin);
  const margin = out.margin;
  // Capsule centre and axis in box space (R^T (pa - pb), R^T u_world).
  pb.localPositionOf(pa, R, CENTRE, 0);
  const cx = CENTRE[0], cy = CENTRE[1], cz = CENTRE[2];
  pa.axisY(AXIS, 0);
  const awx = AXIS[0], awy = AXIS[1], awz = AXIS[2];
  const ux = R[0] * awx + R[3] * awy + R[6] * awz;
  const uy = R[1] * awx + R[4] * awy + R[7] * awz;
  const uz = R[2] * awx + R[5] * awy + R[8] * awz;
  const hl = a.halfLength,
    r = a.radius;
  const hx = b.halfX,
    hy = b.halfY,
    hz = b.halfZ;
  SEG[0] = cx;
  SEG[1] = cy;
  SEG[2] = cz;
  SEG[3] = ux;
  SEG[4] = uy;
  SEG[5] = uz;
  SEG[6] = hl;
  HALF[0] = hx;
  HALF[1] = hy;
  HALF[2] = hz;

  // ---- Exact closest point of the core segment to the box.
  closestSegmentBoxParam();
  const t = PARAM[0];
  const px = cx + ux * t,
    py = cy + uy * t,
    pz = cz + uz * t;
  const bx = px > hx ? hx : px < -hx ? -hx : px;
  const by = py > hy ? hy : py < -hy ? -hy : py;
  const bz = pz > hz ? hz : pz < -hz ? -hz : pz;
  const ex = px - bx,
    ey = py - by,
    ez = pz - bz;
  const d2 = ex * ex + ey * ey + ez * ez;

  // n: unit normal in box space from the box (B) toward the capsule (A).
  let nx: number, ny: number, nz: number, sep: number;
  // The box feature: -1 for a face axis / closest point; for an SAT edge axis, the edge direction index.
  let edgeAxis = -1;
  if (d2 > 1e-12) {
    const reach = r + margin;
    if (d2 > reach * reach) return;
    const dist = Math.sqrt(d2);
    const inv = 1 / dist;
    nx = ex * inv;
    ny = ey * inv;
    nz = ez * inv;
    sep = dist - r;
  } else {
    // Core touches or crosses the box: least-penetration axis. Face axes first.
    const sxF = Math.abs(cx) - hl * Math.abs(ux) - hx;
    const syF = Math.abs(cy) - hl * Math.abs(uy) - hy;
    const szF = Math.abs(cz) - hl * Math.abs(uz) - hz;
    let best = sxF;
    nx = cx >= 0 ? 1 : -1;
    ny = 0;
    nz = 0;
    if (syF > best) {
      best = syF;
      nx = 0;
      ny = cy >= 0 ? 1 : -1;
      nz = 0;
    }
    if (szF > best) {
      best = szF;
      nx = 0;
      ny = 0;
      nz = cz >= 0 ? 1 : -1;
    }
    const faceBest = best;
    // Edge axes u x e_j (the segment has no faces).
    for (let j = 0; j < 3; j++) {
      let lx: number, ly: number, lz: number;
      if (j === 0) {
        lx = 0;
        ly = uz;
        lz = -uy;
      } else if (j === 1) {
        lx = -uz;
        ly = 0;
        lz = ux;
      } else {
        lx = uy;
        ly = -ux;
        lz = 0;
      }
      const l2 = lx * lx + ly * ly + lz * lz;
      if (l2 < 1e-8) continue; // segment parallel to this edge: axis repeats a face axis
      const inv = 1 / Math.sqrt(l2);
      lx *= inv;
      ly *= inv;
      lz *= inv;
      // u . L = 0 by construction, so the segment projects to a point.
      const cl = cx * lx + cy * ly + cz * lz;
      const s = Math.abs(cl) - (hx * Math.abs(lx) + hy * Math.abs(ly) + hz * Math.abs(lz));
      if (s > best && s > faceBest + EDGE_BIAS) {
        best = s;
        const sg = cl >= 0 ? 1 : -1;
        nx = lx * sg;
        ny = ly * sg;
        nz = lz * sg;
        edgeAxis = j;
      }
    }
    sep = best - r;
    if (sep > margin) return;
  }

  // World normal from A (capsule) toward B (box) is -R n.
  out.normalX = -(R[0] * nx + R[1] * ny + R[2] * nz);
  out.normalY = -(R[3] * nx + R[4] * ny + R[5] * nz);
  out.normalZ = -(R[6] * nx + R[7] * ny + R[8] * nz);

  // ---- Face contact: clip the segment to the face rectangle, keep both ends.
  const anx = Math.abs(nx),
    any = Math.abs(ny),
    anz = Math.abs(nz);
  const FACE = 1 - 1e-9;
  if (edgeAxis < 0 && (anx > FACE || any > FACE || anz > FACE)) {
    const k = anx > FACE ? 0 : any > FACE ? 1 : 2;
    const sg = (k === 0 ? nx : k === 1 ? ny : nz) > 0 ? 1 : -1;
    CL[0] = -hl;
    CL[1] = hl;
    if (k !== 0) clipSlab(0);
    if (k !== 1) clipSlab(1);
    if (k !== 2) clipSlab(2);
    if (CL[1] - CL[0] > 1e-9) {
      // Snap to the exact face normal so a resting capsule sees the same normal every step.
      nx = k === 0 ? sg : 0;
      ny = k === 1 ? sg : 0;
      nz = k === 2 ? sg : 0;
      out.normalX = -(R[0] * nx + R[1] * ny + R[2] * nz);
      out.normalY = -(R[3] * nx + R[4] * ny + R[5] * nz);
      out.normalZ = -(R[6] * nx + R[7] * ny + R[8] * nz);
      const hk = k === 0 ? hx : k === 1 ? hy : hz;
      const face = 2 * k + (sg > 0 ? 0 : 1);
      // Face plane point: sg*hk along axis k.
      ENDS[0] = nx;
      ENDS[1] = ny;
      ENDS[2] = nz;
      ENDS[3] = nx * hk;
      ENDS[4] = ny * hk;
      ENDS[5] = nz * hk;
      ENDS[6] = r;
      ENDS[7] = margin;
      ENDS[8] = Infinity;
      addEnds(out, pb, 1 + 2 * face);
      if (out.count > 0) return;
    }
  } else if (d2 > 1e-12) {
    // ---- Resting along a box edge parallel to the segment: clip to the edge's extent.
    const clampX = ex !== 0,
      clampY = ey !== 0,
      clampZ = ez !== 0;
    let j = -1;
    if (!clampX && clampY && clampZ) j = 0;
    else if (clampX && !clampY && clampZ) j = 1;
    else if (clampX && clampY && !clampZ) j = 2;
    const uj = j === 0 ? ux : j === 1 ? uy : uz;
    if (j >= 0 && Math.abs(uj) >= EDGE_PARALLEL_COS) {
      CL[0] = -hl;
      CL[1] = hl;
      clipSlab(j);
      if (CL[1] - CL[0] > 1e-9) {
        // Edge index: direction j, then the signs of the two other coordinates.
        const s1 = (j === 0 ? by : bx) > 0 ? 1 : 0;
        const s2 = (j === 2 ? by : bz) > 0 ? 1 : 0;
        const edge = 4 * j + 2 * s1 + s2;
        ENDS[0] = nx;
        ENDS[1] = ny;
        ENDS[2] = nz;
        ENDS[3] = bx;
        ENDS[4] = by;
        ENDS[5] = bz;
        ENDS[6] = r;
        ENDS[7] = margin;
        ENDS[8] = sep + 0.02 * r;
        addEnds(out, pb, 16 + 2 * edge);
        if (out.count > 0) return;
      }
    }
  }

  // ---- One contact at the closest points.
  let sx = px,
    sy = py,
    sz = pz;
  if (edgeAxis >= 0) {
    // SAT chose segment x edge j: the box edge on the side of n, closest to the segment.
    const ecx = edgeAxis === 0 ? 0 : nx >= 0 ? hx : -hx;
    const ecy = edgeAxis === 1 ? 0 : ny >= 0 ? hy : -hy;
    const ecz = edgeAxis === 2 ? 0 : nz >= 0 ? hz : -hz;
    const eh = edgeAxis === 0 ? hx : edgeAxis === 1 ? hy : hz;
    SEG[7] = ecx;
    SEG[8] = ecy;
    SEG[9] = ecz;
    SEG[10] = edgeAxis === 0 ? 1 : 0;
    SEG[11] = edgeAxis === 1 ? 1 : 0;
    SEG[12] = edgeAxis === 2 ? 1 : 0;
    SEG[13] = eh;
    closestSegmentSegment(SEG, ST, 0);
    sx = cx + ux * ST[0];
    sy = cy + uy * ST[0];
    sz = cz + uz * ST[0];
  }
  // Midpoint between the capsule surface (P - n r) and the box surface (P - n (r + sep)).
  const k = r + 0.5 * sep;
  const lx = sx - nx * k,
    ly = sy - ny * k,
    lz = sz - nz * k;
  CP[0] = pb.px + R[0] * lx + R[1] * ly + R[2] * lz;
  CP[1] = pb.py + R[3] * lx + R[4] * ly + R[5] * lz;
  CP[2] = pb.pz + R[6] * lx + R[7] * ly + R[8] * lz;
  CP[3] = -sep;
  out.addPoint(CP, 0);
}

/** Intersects CL with the parameters t where |c + t u| <= h along box axis k (Liang-Barsky slab clip). */
function clipSlab(k: number): void {
  const c = SEG[k],
    u = SEG[3 + k],
    h = HALF[k];
  // A segment parallel to the slab is all inside it or all outside. Both cases go through the general
  // clip below (an unbounded interval, or an empty one) rather than a branch of their own: a branch first
  // taken late in a run would deoptimise the capsule-box tester, and unoptimised code allocates.
  const outside = c > h || c < -h;
  const parallel = (u < 0 ? -u : u) < 1e-12;
  const inv = parallel ? 0 : 1 / u;
  let t1 = parallel ? (outside ? BIG : NEG_BIG) : (-h - c) * inv,
    t2 = parallel ? (outside ? NEG_BIG : BIG) : (h - c) * inv;
  if (t1 > t2 && !parallel) {
    const tmp = t1;
    t1 = t2;
    t2 = tmp;
  }
  if (t1 > CL[0]) CL[0] = t1;
  if (t2 < CL[1]) CL[1] = t2;
}

/**
 * Adds contacts at the ends CL[0], CL[1] of the clipped segment (box space; the segment c + t u in SEG).
 * q is a point on the box feature's plane (perpendicular to n), so the gap at a segment point p is
 * (p - q) . n - r. Nothing is added unless both ends are within `maxSep` (then the ends describe the
 * contact well). n, q, r, margin and maxSep come from ENDS.
 */
function addEnds(out: ContactManifold, pb: Pose, idBase: number): void {
  const cx = SEG[0],
    cy = SEG[1],
    cz = SEG[2],
    ux = SEG[3],
    uy = SEG[4],
    uz = SEG[5];
  const nx = ENDS[0],
    ny = ENDS[1],
    nz = ENDS[2],
    qx = ENDS[3],
    qy = ENDS[4],
    qz = ENDS[5],
    r = ENDS[6],
    margin = ENDS[7],
    maxSep = ENDS[8];
  const t0 = CL[0],
    t1 = CL[1];
  const base = (cx - qx) * nx + (cy - qy) * ny + (cz - qz) * nz - r;
  const un = ux * nx + uy * ny + uz * nz;
  const sep0 = base + t0 * un,
    sep1 = base + t1 * un;
  if (sep0 > maxSep || sep1 > maxSep) return;
  for (let e = 0; e < 2; e++) {
    const t = e === 0 ? t0 : t1;
    const sep = e === 0 ? sep0 : sep1;
    if (sep > margin) continue;
    const k = r + 0.5 * sep;
    const lx = cx + ux * t - nx * k,
      ly = cy + uy * t - ny * k,
      lz = cz + uz * t - nz * k;
    CP[0] = pb.px + R[0] * lx + R[1] * ly + R[2] * lz;
    CP[1] = pb.py + R[3] * lx + R[4] * ly + R[5] * lz;
    CP[2] = pb.pz + R[6] * lx + R[7] * ly + R[8] * lz;
    CP[3] = -sep;
    out.addPoint(CP, idBase + e);
  }
}

/**
 * Parameter t in [-hl, hl] of the point of segment c + t u (SEG) closest to the box |x_i| <= h_i (HALF),
 * written to PARAM[0].
 * The squared distance is sum_i excess_i(t)^2, a convex piecewise quadratic whose pieces end where
 * the segment crosses a slab plane; each piece's minimiser is -sum(a_i u_i) / sum(u_i^2) over the axes
 * that are outside on that piece. Ties keep the first (lowest-t) piece, and a flat piece returns its
 * middle, so a segment lying parallel to a face gets a stable point.
 */
function closestSegmentBoxParam(): void {
  const cx = SEG[0],
    cy = SEG[1],
    cz = SEG[2],
    ux = SEG[3],
    uy = SEG[4],
    uz = SEG[5],
    hl = SEG[6];
  const hx = HALF[0],
    hy = HALF[1],
    hz = HALF[2];
  if (hl <= 0) {
    PARAM[0] = 0;
    return;
  }
  let n = 0;
  BP[n++] = -hl;
  BP[n++] = hl;
  n = addCrossings(n, 0);
  n = addCrossings(n, 1);
  n = addCrossings(n, 2);
  // Insertion sort (at most 8 values).
  for (let i = 1; i < n; i++) {
    const v = BP[i];
    let j = i - 1;
    while (j >= 0 && BP[j] > v) {
      BP[j + 1] = BP[j];
      j--;
    }
    BP[j + 1] = v;
  }
  let bestT = 0,
    bestF = Infinity;
  for (let i = 0; i + 1 < n; i++) {
    const t0 = BP[i],
      t1 = BP[i + 1];
    if (t1 - t0 <= 0 && i + 2 < n) continue;
    const tm = 0.5 * (t0 + t1);
    // Active axes on this piece, linear excess a + u t.
    let num = 0,
      den = 0;
    let p = cx + ux * tm;
    if (p > hx) {
      num += (cx - hx) * ux;
      den += ux * ux;
    } else if (p < -hx) {
      num += (cx + hx) * ux;
      den += ux * ux;
    }
    p = cy + uy * tm;
    if (p > hy) {
      num += (cy - hy) * uy;
      den += uy * uy;
    } else if (p < -hy) {
      num += (cy + hy) * uy;
      den += uy * uy;
    }
    p = cz + uz * tm;
    if (p > hz) {
      num += (cz - hz) * uz;
      den += uz * uz;
    } else if (p < -hz) {
      num += (cz + hz) * uz;
      den += uz * uz;
    }
    let t = den > 1e-18 ? -num / den : tm;
    if (t < t0) t = t0;
    else if (t > t1) t = t1;
    // Squared distance of the segment point at t to the box (written out: docs/design.md, doubles).
    const x = cx + ux * t,
      y = cy + uy * t,
      z = cz + uz * t;
    const dx = x > hx ? x - hx : x < -hx ? x + hx : 0;
    const dy = y > hy ? y - hy : y < -hy ? y + hy : 0;
    const dz = z > hz ? z - hz : z < -hz ? z + hz : 0;
    const f = dx * dx + dy * dy + dz * dz;
    if (f < bestF - 1e-15) {
      bestF = f;
      bestT = t;
    }
  }
  PARAM[0] = bestT;
}

/** Appends to BP (holding n values) where the segment crosses the two slab planes of box axis k. */
function addCrossings(n: number, k: number): number {
  const c = SEG[k],
    u = SEG[3 + k],
    h = HALF[k],
    hl = SEG[6];
  if (Math.abs(u) < 1e-12) return n;
  const inv = 1 / u;
  const t1 = (h - c) * inv,
    t2 = (-h - c) * inv;
  if (t1 > -hl && t1 < hl) BP[n++] = t1;
  if (t2 > -hl && t2 < hl) BP[n++] = t2;
  return n;
}
