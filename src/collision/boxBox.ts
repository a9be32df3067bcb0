import type { Pose } from "../math/pose";
import type { Box } from "../shapes/box";
import { CONTACT_POINT as CP, type ContactManifold } from "./contactManifold";
import { closestSegmentSegment, SEGMENT_PAIR_LENGTH } from "./segmentClosest";

// Module scratch: rotation matrices (row-major; column i is the box's local axis i in world space).
const RA = new Float64Array(9);
const RB = new Float64Array(9);
// Two polygon buffers of up to 8 vertices (Sutherland-Hodgman ping-pong), in reference-face
// coordinates (x, y along the face, z = height above the face plane).
const PX = new Float64Array(16);
const PY = new Float64Array(16);
const PZ = new Float64Array(16);
/**
 * Vertex code: 0..3 an incident vertex; 8 + 4*line + plane an intersection (see clipPolygon);
 * 48 + vertex the fallback contact of an empty clip.
 */
const PCODE = new Int32Array(16);
/** Label of the line the polygon edge leaving this vertex lies on: 0..3 incident edge, 4 + c clip plane c. */
const PLABEL = new Int32Array(16);
const KEEP = new Uint8Array(8);
/** The unclipped incident face (x[4], y[4], z[4]) in reference-face coordinates. */
const INC = new Float64Array(12);
const ST = new Float64Array(2);
// Doubles crossing calls travel in typed arrays (docs/design.md).
/** Half extents of A and of B. */
const HA = new Float64Array(3);
const HB = new Float64Array(3);
/** faceContact inputs: [0] sMax, [1] margin. edgeContact inputs: [0..2] axis L in A's frame, [3] sE, [4] margin. */
const ARGS = new Float64Array(5);
/** clipPolygon's clip-plane offset h. */
const CLIP_H = new Float64Array(1);
/** The two supporting edges, for closestSegmentSegment. */
const SEG = new Float64Array(SEGMENT_PAIR_LENGTH);

/** Box B's face must beat box A's by this much to become the reference face (temporal coherence). */
const FACE_B_BIAS = 1e-3;
/** An edge-edge axis must beat the best face axis by this much (Gregorius: prefer faces, they are stable). */
const EDGE_BIAS = 2e-3;
/** Best faces of A and B closer to parallel than this (|cos|, about 10 degrees) are a face-on-face contact. */
const FACE_PARALLEL_COS = 0.985;
/** |a_i . b_j| by 3 i + j, for picking the reference face's entry without a branch per axis pair. */
const ABS_C = new Float64Array(9);
/** Face areas (up to a factor 4) of A's faces normal to x, y, z ([0..2]) and of B's ([3..5]). */
const FACE_AREA = new Float64Array(6);
/** Edge axes whose edges are this close to parallel (|a x b|) repeat a face axis and are skipped. */
const PARALLEL_EPS = 1e-5;

/**
 * Box (A) vs box (B): separating-axis test over the 15 axes (3 + 3 face normals, 9 edge cross
 * products; Ericson, RTCD 4.4.1 and Gregorius, "The Separating Axis Test between Convex Polyhedra",
 * GDC 2013), with a bias towards face axes, and for face-on-face contact a reference face chosen by
 * size rather than by separation, so the choice stays the same from step to step.
 *
 * Face axis: the face of the other box most anti-parallel to the reference normal is the incident face;
 * it is clipped against the four side planes of the reference face (Sutherland-Hodgman, as Box2D does in
 * 2D), points higher than the margin above the reference plane are dropped, and more than 4 points are
 * reduced to 4 (deepest, farthest from it, then the largest triangles on either side: max-area set).
 * Edge axis: one contact midway between the closest points of the two supporting edges.
 *
 * Speculative: the largest separation s along any axis is a lower bound on the distance; s > margin
 * means no contact, otherwise contacts come out of the clip with per-point depth = -height (negative
 * when apart).
 *
 * Feature ids, face case: refIsB | refFace << 1 | incidentFace << 4 | vertexCode << 7, faces numbered
 * +X,-X,+Y,-Y,+Z,-Z = 0..5, vertex code from the clip (incident vertex, or incident edge/clip line crossing a
 * clip plane). Edge case: 1 << 13 | edgeA | edgeB << 4, edges numbered 4*axis + sign bits.
 */
export function collideBoxBox(a: Box, pa: Pose, b: Box, pb: Pose, speculativeMargin: number | undefined, out: ContactManifold): void {
  out.begin(speculativeMargin);
  const margin = out.margin;
  pa.rotationMatrix(RA, 0);
  pb.rotationMatrix(RB, 0);
  const dx = pb.px - pa.px,
    dy = pb.py - pa.py,
    dz = pb.pz - pa.pz;
  const ax = a.halfX,
    ay = a.halfY,
    az = a.halfZ;
  const bx = b.halfX,
    by = b.halfY,
    bz = b.halfZ;
  HA[0] = ax;
  HA[1] = ay;
  HA[2] = az;
  HB[0] = bx;
  HB[1] = by;
  HB[2] = bz;

  // C[i][j] = a_i . b_j
  const c00 = RA[0] * RB[0] + RA[3] * RB[3] + RA[6] * RB[6];
  const c01 = RA[0] * RB[1] + RA[3] * RB[4] + RA[6] * RB[7];
  const c02 = RA[0] * RB[2] + RA[3] * RB[5] + RA[6] * RB[8];
  const c10 = RA[1] * RB[0] + RA[4] * RB[3] + RA[7] * RB[6];
  const c11 = RA[1] * RB[1] + RA[4] * RB[4] + RA[7] * RB[7];
  const c12 = RA[1] * RB[2] + RA[4] * RB[5] + RA[7] * RB[8];
  const c20 = RA[2] * RB[0] + RA[5] * RB[3] + RA[8] * RB[6];
  const c21 = RA[2] * RB[1] + RA[5] * RB[4] + RA[8] * RB[7];
  const c22 = RA[2] * RB[2] + RA[5] * RB[5] + RA[8] * RB[8];
  const e00 = Math.abs(c00),
    e01 = Math.abs(c01),
    e02 = Math.abs(c02);
  const e10 = Math.abs(c10),
    e11 = Math.abs(c11),
    e12 = Math.abs(c12);
  const e20 = Math.abs(c20),
    e21 = Math.abs(c21),
    e22 = Math.abs(c22);

  // Centre offset in A's frame and in B's frame.
  const ta0 = RA[0] * dx + RA[3] * dy + RA[6] * dz;
  const ta1 = RA[1] * dx + RA[4] * dy + RA[7] * dz;
  const ta2 = RA[2] * dx + RA[5] * dy + RA[8] * dz;
  const tb0 = RB[0] * dx + RB[3] * dy + RB[6] * dz;
  const tb1 = RB[1] * dx + RB[4] * dy + RB[7] * dz;
  const tb2 = RB[2] * dx + RB[5] * dy + RB[8] * dz;

  // ---- A's face axes.
  let s = Math.abs(ta0) - (ax + e00 * bx + e01 * by + e02 * bz);
  if (s > margin) return;
  let sA = s,
    iA = 0;
  s = Math.abs(ta1) - (ay + e10 * bx + e11 * by + e12 * bz);
  if (s > margin) return;
  if (s > sA) {
    sA = s;
    iA = 1;
  }
  s = Math.abs(ta2) - (az + e20 * bx + e21 * by + e22 * bz);
  if (s > margin) return;
  if (s > sA) {
    sA = s;
    iA = 2;
  }
  // ---- B's face axes.
  s = Math.abs(tb0) - (e00 * ax + e10 * ay + e20 * az + bx);
  if (s > margin) return;
  let sB = s,
    iB = 0;
  s = Math.abs(tb1) - (e01 * ax + e11 * ay + e21 * az + by);
  if (s > margin) return;
  if (s > sB) {
    sB = s;
    iB = 1;
  }
  s = Math.abs(tb2) - (e02 * ax + e12 * ay + e22 * az + bz);
  if (s > margin) return;
  if (s > sB) {
    sB = s;
    iB = 2;
  }

  // ---- Edge axes a_i x b_j, in A's frame: L = e_i x C_col_j. Projection radii follow Ericson 4.4.1.
  let sE = -Infinity,
    iE = -1,
    jE = -1;
  let lxE = 0,
    lyE = 0,
    lzE = 0;
  for (let i = 0; i < 3; i++) {
    for (let j = 0; j < 3; j++) {
      // Column j of C: b_j in A's frame.
      const cj0 = j === 0 ? c00 : j === 1 ? c01 : c02;
      const cj1 = j === 0 ? c10 : j === 1 ? c11 : c12;
      const cj2 = j === 0 ? c20 : j === 1 ? c21 : c22;
      // L = e_i x (cj0, cj1, cj2) in A's frame.
      let l0: number, l1: number, l2: number;
      if (i === 0) {
        l0 = 0;
        l1 = -cj2;
        l2 = cj1;
      } else if (i === 1) {
        l0 = cj2;
        l1 = 0;
        l2 = -cj0;
      } else {
        l0 = -cj1;
        l1 = cj0;
        l2 = 0;
      }
      const len = Math.sqrt(l0 * l0 + l1 * l1 + l2 * l2);
      if (len < PARALLEL_EPS) continue;
      const inv = 1 / len;
      l0 *= inv;
      l1 *= inv;
      l2 *= inv;
      // Radius of A: sum_k h_k |L_k|. Radius of B: sum_k h_k |b_k . L| with b_k = column k of C.
      const rA = ax * Math.abs(l0) + ay * Math.abs(l1) + az * Math.abs(l2);
      const rB =
        bx * Math.abs(c00 * l0 + c10 * l1 + c20 * l2) +
        by * Math.abs(c01 * l0 + c11 * l1 + c21 * l2) +
        bz * Math.abs(c02 * l0 + c12 * l1 + c22 * l2);
      const tl = ta0 * l0 + ta1 * l1 + ta2 * l2;
      s = Math.abs(tl) - rA - rB;
      if (s > margin) return;
      if (s > sE) {
        sE = s;
        iE = i;
        jE = j;
        const sg = tl >= 0 ? 1 : -1;
        lxE = l0 * sg;
        lyE = l1 * sg;
        lzE = l2 * sg;
      }
    }
  }

  if (iE >= 0 && sE > (sA > sB ? sA : sB) + EDGE_BIAS) {
    ARGS[0] = lxE;
    ARGS[1] = lyE;
    ARGS[2] = lzE;
    ARGS[3] = sE;
    ARGS[4] = margin;
    edgeContact(pa, pb, iE, jE, out);
    return;
  }
  // Reference face. When the two best faces are nearly parallel (face on face, possibly tilted), their
  // separations differ mostly by (face size x tilt), so comparing them would flip the reference from
  // step to step on a resting box and lose the feature ids. Then the larger face is the reference:
  // the smaller box's corners rest on it, and its normal is the right one for a box tipping on an
  // edge. Otherwise the larger separation wins, with a bias towards A.
  // Both tests are evaluated and the values picked by index: an operation first reached late in a run (a face
  // pair not met before) would deoptimise this tester, and unoptimised code allocates.
  ABS_C[0] = e00;
  ABS_C[1] = e01;
  ABS_C[2] = e02;
  ABS_C[3] = e10;
  ABS_C[4] = e11;
  ABS_C[5] = e12;
  ABS_C[6] = e20;
  ABS_C[7] = e21;
  ABS_C[8] = e22;
  FACE_AREA[0] = ay * az;
  FACE_AREA[1] = ax * az;
  FACE_AREA[2] = ax * ay;
  FACE_AREA[3] = by * bz;
  FACE_AREA[4] = bx * bz;
  FACE_AREA[5] = bx * by;
  const cAB = ABS_C[iA * 3 + iB];
  const byArea = FACE_AREA[3 + iB] > FACE_AREA[iA] * (1 + 1e-6);
  const bySeparation = sB > sA + FACE_B_BIAS;
  const refIsB = cAB >= FACE_PARALLEL_COS ? byArea : bySeparation;
  // The largest separation over all axes: a lower bound of the distance between the boxes.
  let sMax = sA > sB ? sA : sB;
  if (sE > sMax) sMax = sE;
  ARGS[0] = sMax;
  ARGS[1] = margin;
  if (refIsB) {
    // Reference face on B; its outward normal points from B toward A.
    const tb = iB === 0 ? tb0 : iB === 1 ? tb1 : tb2;
    faceContact(pb, RB, HB, iB, tb >= 0 ? -1 : 1, pa, RA, HA, 1, out);
  } else {
    const ta = iA === 0 ? ta0 : iA === 1 ? ta1 : ta2;
    faceContact(pa, RA, HA, iA, ta >= 0 ? 1 : -1, pb, RB, HB, 0, out);
  }
}

/**
 * Reference face (axis k, sign sg) of the reference box (pose pr, rotation RR, half extents HR) against
 * the incident face of the other box (pi, RI, HI). refIsB says the reference box is B, in which case the
 * manifold normal (A toward B) is the reverse of the face normal. sMax and margin come in ARGS.
 */
function faceContact(
  pr: Pose,
  RR: Float64Array,
  HR: Float64Array,
  k: number,
  sg: number,
  pi: Pose,
  RI: Float64Array,
  HI: Float64Array,
  refIsB: number,
  out: ContactManifold,
): void {
  const sMax = ARGS[0],
    margin = ARGS[1];
  const k1 = k === 2 ? 0 : k + 1;
  const k2 = k === 0 ? 2 : k - 1;
  // Reference face frame: normal n, in-face axes u (k1) and v (k2), centre f.
  const nx = sg * RR[k],
    ny = sg * RR[3 + k],
    nz = sg * RR[6 + k];
  const ux = RR[k1],
    uy = RR[3 + k1],
    uz = RR[6 + k1];
  const vx = RR[k2],
    vy = RR[3 + k2],
    vz = RR[6 + k2];
  const hk = HR[k],
    hu = HR[k1],
    hv = HR[k2];
  const fx = pr.px + nx * hk,
    fy = pr.py + ny * hk,
    fz = pr.pz + nz * hk;

  // Incident face: the face of `inc` whose outward normal is most anti-parallel to n.
  const d0 = RI[0] * nx + RI[3] * ny + RI[6] * nz;
  const d1 = RI[1] * nx + RI[4] * ny + RI[7] * nz;
  const d2 = RI[2] * nx + RI[5] * ny + RI[8] * nz;
  let m = 0,
    dm = d0;
  if (Math.abs(d1) > Math.abs(dm)) {
    m = 1;
    dm = d1;
  }
  if (Math.abs(d2) > Math.abs(dm)) {
    m = 2;
    dm = d2;
  }
  const ms = dm > 0 ? -1 : 1;
  const m1 = m === 2 ? 0 : m + 1;
  const m2 = m === 0 ? 2 : m - 1;
  const hm = HI[m],
    hm1 = HI[m1],
    hm2 = HI[m2];
  // Incident face centre and in-face half axes, in world space.
  const gx = pi.px + ms * hm * RI[m],
    gy = pi.py + ms * hm * RI[3 + m],
    gz = pi.pz + ms * hm * RI[6 + m];
  const px = hm1 * RI[m1],
    py = hm1 * RI[3 + m1],
    pz = hm1 * RI[6 + m1];
  const qx = hm2 * RI[m2],
    qy = hm2 * RI[3 + m2],
    qz = hm2 * RI[6 + m2];
  // Incident face centre and half axes in the reference-face frame (relative to f).
  const rx = gx - fx,
    ry = gy - fy,
    rz = gz - fz;
  const cu = rx * ux + ry * uy + rz * uz,
    cv = rx * vx + ry * vy + rz * vz,
    cn = rx * nx + ry * ny + rz * nz;
  const pu = px * ux + py * uy + pz * uz,
    pv = px * vx + py * vy + pz * vz,
    pn = px * nx + py * ny + pz * nz;
  const qu = qx * ux + qy * uy + qz * uz,
    qv = qx * vx + qy * vy + qz * vz,
    qn = qx * nx + qy * ny + qz * nz;
  // Vertices in cyclic order: (+p+q), (-p+q), (-p-q), (+p-q); edge i runs from vertex i to i+1.
  for (let i = 0; i < 4; i++) {
    const sp = i === 0 || i === 3 ? 1 : -1;
    const sq = i < 2 ? 1 : -1;
    PX[i] = INC[i] = cu + sp * pu + sq * qu;
    PY[i] = INC[4 + i] = cv + sp * pv + sq * qv;
    PZ[i] = INC[8 + i] = cn + sp * pn + sq * qn;
    PCODE[i] = i;
    PLABEL[i] = i;
  }
  // Clip against the 4 side planes: x <= hu, -x <= hu, y <= hv, -y <= hv.
  let n = 4,
    src = 0;
  for (let c = 0; c < 4 && n > 0; c++) {
    CLIP_H[0] = c < 2 ? hu : hv;
    n = clipPolygon(src, n, c);
    src = 8 - src;
  }

  const face = 2 * k + (sg > 0 ? 0 : 1);
  const incFace = 2 * m + (ms > 0 ? 0 : 1);
  const idBase = refIsB | (face << 1) | (incFace << 4);
  const flip = refIsB === 1 ? -1 : 1;

  // Separated with no lateral overlap of the faces (the boxes pass by each other's corners), the clip is
  // empty although the SAT gap is within the margin: then keep one conservative speculative contact at gap
  // sMax, under the incident vertex nearest the reference face, clamped onto it (the clip passes overwrote
  // buffer 0, so it reads the incident face from INC). It is computed on every call and enters the clip
  // buffer by selects, not in a branch of its own: that branch is first taken late in a run, and it would
  // deoptimise this function (unoptimised code allocates). sMax <= margin (the SAT tests above), so the
  // point is kept below, and as the only point it needs no gap correction.
  let best = 0;
  for (let i = 1; i < 4; i++) if (INC[8 + i] < INC[8 + best]) best = i;
  // (Math.min / max rather than comparisons inside the selects: those would run only when the clip is empty.)
  const fallbackX = Math.max(-hu, Math.min(hu, INC[best])),
    fallbackY = Math.max(-hv, Math.min(hv, INC[4 + best]));
  const fallbackCode = 48 + best;
  const empty = n === 0;
  PX[src] = empty ? fallbackX : PX[src];
  PY[src] = empty ? fallbackY : PY[src];
  PZ[src] = empty ? sMax : PZ[src];
  PCODE[src] = empty ? fallbackCode : PCODE[src];
  n = empty ? 1 : n;

  // The clip measures gaps from the reference plane. When the supporting vertex of the incident box was
  // clipped away, the smallest of them can exceed the true distance; a speculative contact must never
  // claim more gap than there is, so when separated, lower all gaps until the smallest equals the SAT
  // separation (a lower bound of the distance). A resting or approaching face pair has min z = sMax.
  if (sMax > 0) {
    let minZ = Infinity;
    for (let i = 0; i < n; i++) if (PZ[src + i] < minZ) minZ = PZ[src + i];
    if (minZ > sMax) {
      const shift = minZ - sMax;
      for (let i = 0; i < n; i++) PZ[src + i] -= shift;
    }
  }

  // Keep points within the margin above the reference plane (z is the signed gap).
  let kept = 0;
  for (let i = 0; i < n; i++) {
    const keep = PZ[src + i] <= margin ? 1 : 0;
    KEEP[i] = keep;
    kept += keep;
  }
  if (kept === 0) return;
  if (kept > 4) reduceToFour(src, n);

  out.normalX = nx * flip;
  out.normalY = ny * flip;
  out.normalZ = nz * flip;
  for (let i = 0; i < n; i++) {
    if (KEEP[i] === 0) continue;
    const x = PX[src + i],
      y = PY[src + i],
      h = 0.5 * PZ[src + i];
    // Midway between the incident point (height z) and its projection on the reference face.
    CP[0] = fx + ux * x + vx * y + nx * h;
    CP[1] = fy + uy * x + vy * y + ny * h;
    CP[2] = fz + uz * x + vz * y + nz * h;
    CP[3] = -PZ[src + i];
    out.addPoint(CP, idBase | (PCODE[src + i] << 7));
  }
}

/**
 * One Sutherland-Hodgman pass of the polygon at buffer offset `src` (n vertices) against clip plane c
 * (c = 0: x <= h, 1: -x <= h, 2: y <= h, 3: -y <= h; h = CLIP_H[0]), written to the other buffer. Each new vertex gets
 * code 8 + 4*label + c, where label names the line (incident edge or earlier clip plane) it lies on, so
 * the same geometric vertex keeps its code while the configuration changes continuously.
 */
function clipPolygon(src: number, n: number, c: number): number {
  const h = CLIP_H[0];
  const dst = 8 - src;
  let w = 0;
  for (let i = 0; i < n; i++) {
    const ip = src + i;
    const iq = src + (i + 1 === n ? 0 : i + 1);
    // Signed distances to the clip plane (written out: a helper returning a double could box it).
    const dp = (c === 0 ? PX[ip] : c === 1 ? -PX[ip] : c === 2 ? PY[ip] : -PY[ip]) - h;
    const dq = (c === 0 ? PX[iq] : c === 1 ? -PX[iq] : c === 2 ? PY[iq] : -PY[iq]) - h;
    const label = PLABEL[ip];
    if (dp <= 0) {
      PX[dst + w] = PX[ip];
      PY[dst + w] = PY[ip];
      PZ[dst + w] = PZ[ip];
      PCODE[dst + w] = PCODE[ip];
      PLABEL[dst + w] = label;
      w++;
    }
    if ((dp <= 0) !== (dq <= 0)) {
      const lam = dp / (dp - dq);
      PX[dst + w] = PX[ip] + (PX[iq] - PX[ip]) * lam;
      PY[dst + w] = PY[ip] + (PY[iq] - PY[ip]) * lam;
      PZ[dst + w] = PZ[ip] + (PZ[iq] - PZ[ip]) * lam;
      PCODE[dst + w] = 8 + 4 * label + c;
      // Leaving the plane's inside: the next edge runs along the clip plane; entering: along this line.
      PLABEL[dst + w] = dp <= 0 ? 4 + c : label;
      w++;
    }
  }
  return w;
}

/**
 * Marks at most 4 of the kept points (KEEP) so the set keeps the deepest point and spans the largest
 * area: deepest, farthest from it, then the points making the largest triangles on either side of that
 * diagonal (Gregorius, "Robust Contact Creation for Physics Simulations", GDC 2015).
 */
function reduceToFour(src: number, n: number): void {
  let i1 = -1;
  for (let i = 0; i < n; i++) {
    if (KEEP[i] === 1 && (i1 < 0 || PZ[src + i] < PZ[src + i1])) i1 = i;
  }
  const x1 = PX[src + i1],
    y1 = PY[src + i1];
  let i2 = -1,
    best = -1;
  for (let i = 0; i < n; i++) {
    if (KEEP[i] === 0 || i === i1) continue;
    const ex = PX[src + i] - x1,
      ey = PY[src + i] - y1;
    const d2 = ex * ex + ey * ey;
    if (d2 > best) {
      best = d2;
      i2 = i;
    }
  }
  const ex = PX[src + i2] - x1,
    ey = PY[src + i2] - y1;
  let i3 = -1,
    i4 = -1,
    amax = 0,
    amin = 0;
  for (let i = 0; i < n; i++) {
    if (KEEP[i] === 0 || i === i1 || i === i2) continue;
    const area = ex * (PY[src + i] - y1) - ey * (PX[src + i] - x1);
    if (area > amax) {
      amax = area;
      i3 = i;
    }
    if (area < amin) {
      amin = area;
      i4 = i;
    }
  }
  for (let i = 0; i < n; i++) {
    KEEP[i] = i === i1 || i === i2 || i === i3 || i === i4 ? 1 : 0;
  }
}

/**
 * Edge-edge contact: one point midway between the closest points of the two supporting edges (A's
 * along a_i, B's along b_j). The axis L (A's frame), its separation sE and the margin come in ARGS.
 */
function edgeContact(pa: Pose, pb: Pose, i: number, j: number, out: ContactManifold): void {
  const l0 = ARGS[0],
    l1 = ARGS[1],
    l2 = ARGS[2],
    sE = ARGS[3],
    margin = ARGS[4];
  // Axis from A's frame to world, oriented from A toward B.
  const nx = RA[0] * l0 + RA[1] * l1 + RA[2] * l2;
  const ny = RA[3] * l0 + RA[4] * l1 + RA[5] * l2;
  const nz = RA[6] * l0 + RA[7] * l1 + RA[8] * l2;
  // A's supporting edge along a_i: the other two coordinates at the corner farthest along n.
  let ex = pa.px,
    ey = pa.py,
    ez = pa.pz;
  let edgeA = 4 * i,
    bit = 2;
  for (let k = 0; k < 3; k++) {
    if (k === i) continue;
    const d = RA[k] * nx + RA[3 + k] * ny + RA[6 + k] * nz;
    const sg = d >= 0 ? 1 : -1;
    const h = sg * HA[k];
    ex += RA[k] * h;
    ey += RA[3 + k] * h;
    ez += RA[6 + k] * h;
    if (sg > 0) edgeA |= bit;
    bit >>= 1;
  }
  // B's supporting edge along b_j: the corner farthest along -n.
  let fx = pb.px,
    fy = pb.py,
    fz = pb.pz;
  let edgeB = 4 * j;
  bit = 2;
  for (let k = 0; k < 3; k++) {
    if (k === j) continue;
    const d = RB[k] * nx + RB[3 + k] * ny + RB[6 + k] * nz;
    const sg = d > 0 ? -1 : 1;
    const h = sg * HB[k];
    fx += RB[k] * h;
    fy += RB[3 + k] * h;
    fz += RB[6 + k] * h;
    if (sg > 0) edgeB |= bit;
    bit >>= 1;
  }
  SEG[0] = ex;
  SEG[1] = ey;
  SEG[2] = ez;
  SEG[3] = RA[i];
  SEG[4] = RA[3 + i];
  SEG[5] = RA[6 + i];
  SEG[6] = HA[i];
  SEG[7] = fx;
  SEG[8] = fy;
  SEG[9] = fz;
  SEG[10] = RB[j];
  SEG[11] = RB[3 + j];
  SEG[12] = RB[6 + j];
  SEG[13] = HB[j];
  closestSegmentSegment(SEG, ST, 0);
  const s = ST[0],
    t = ST[1];
  const ax = ex + RA[i] * s,
    ay = ey + RA[3 + i] * s,
    az = ez + RA[6 + i] * s;
  const bx = fx + RB[j] * t,
    by = fy + RB[3 + j] * t,
    bz = fz + RB[6 + j] * t;
  // Equal to the SAT separation when the edges' closest points are inside both edges; when an end is
  // clamped the offset along n can exceed the true distance, so keep the SAT bound (conservative).
  let sep = (bx - ax) * nx + (by - ay) * ny + (bz - az) * nz;
  if (sE < sep) sep = sE;
  if (sep > margin) return;
  out.normalX = nx;
  out.normalY = ny;
  out.normalZ = nz;
  CP[0] = 0.5 * (ax + bx);
  CP[1] = 0.5 * (ay + by);
  CP[2] = 0.5 * (az + bz);
  CP[3] = -sep;
  out.addPoint(CP, (1 << 13) | edgeA | (edgeB << 4));
}
