/**
 * Convex shapes against triangle meshes and heightfields.
 *
 * Per call: the convex's bounding box, expanded by the speculative margin, is taken into the mesh's
 * local frame and the triangles under it are gathered (BVH or grid cells). Each triangle is then
 * collided on its own, in a frame centred on the convex (precision on large terrains):
 *
 * 1. The side: closed and one-sided meshes use their outward faces; on an open (two-sided) mesh the side
 *    that needs the smaller push, from the convex's extent along the face normal, picks nS, the front side
 *    until the convex is three quarters through (a body below a ground mesh is pushed down).
 * 2. The normal: GJK (separated, speculative) or EPA (overlapping) between the convex and the triangle
 *    gives the closest features. When the triangle's witness lies on an edge or vertex that is not
 *    active from that side (flat and concave edges, precomputed like Jolt's active edges), the normal
 *    becomes nS; an active edge or vertex keeps its own, whichever side it points to (a convex beside the
 *    triangle). A vertex is active when any edge meeting it is (cornerFlags), not only the triangle's own two.
 *    Triangles whose edges and corners are all inactive from that side skip GJK: their normal is always nS.
 * 3. Contacts: with a face normal, the convex's supporting feature along -nS (a polygon, segment or
 *    point: from the hull's topology for hulls, the incident face for boxes, from a ring of perturbed
 *    support queries for other shapes) is clipped against the triangle's side planes, each point measured against the triangle's
 *    plane, and reduced to four. With an active edge or vertex normal, the witness pair gives one contact.
 * 4. Reduction across triangles (Terdiman / Jolt enhanced internal edge removal, bepu MeshReduction):
 *    face manifolds claim their triangle's vertices; edge and vertex manifolds whose feature is already
 *    claimed are redundant and dropped.
 *
 * 5. With ManifoldBuffer.mergeTriangles (the world's narrow phase, for meshes without per-triangle surfaces),
 *    a hull's or box's manifolds whose normals agree within five degrees become one of at most four contacts
 *    (triangleManifoldMerge.ts, Jolt's manifold reduction).
 *
 * One manifold per touching triangle (or per merged group); the mesh side's child index is the triangle index,
 * so the world's per-(childA, childB) manifolds persist per triangle. Allocation-free in steady state.
 */
import { grown } from "../collections/growth";
import { IntList } from "../collections/intList";
import { Pose } from "../math/pose";
import type { Compound } from "../shapes/compound";
import type { Box } from "../shapes/box";
import { BRUTE_FORCE_SUPPORT, ConvexHull } from "../shapes/convexHull";
import type { Cylinder } from "../shapes/cylinder";
import { ConvexShape, type Shape } from "../shapes/shape";
import { ShapeType } from "../shapes/shapeType";
import { TriangleMesh } from "../shapes/triangleMesh";
import { EDGE_BACK_SHIFT, EDGE_FRONT_SHIFT, type TriangleSource } from "../shapes/triangleSource";
import type { ContactManifold, ManifoldBuffer } from "./contactManifold";
import { CAP_COS, CAP_N, CAP_SIN } from "./convexGeneric";
import { EpaResult, epaPenetration } from "./epa";
import { CYLINDER_CAP, CYLINDER_SIDE, ClipPolygon, FEATURE_SIN_TOL, HullFeature, MAX_FEATURE_VERTICES, clipPlane, hullSupportFeature, selectFourContacts, selectNormal, setSidePlane, cylinderFeatureKind, sideEdge } from "./featureClip";
import { GjkResult, gjkDistanceFrom } from "./gjk";
import { registerSweepPieceEnumerator, type SweepPieceSink } from "./sweep";
import { mergeTriangleManifolds } from "./triangleManifoldMerge";
import { TrianglePiece } from "./trianglePiece";
import { exactCos, exactSin } from "../math/exactMath";
import { triangleCross } from "../math/vec3";

/** A triangle's normal and scale (triangleCross). */
const CROSS = new Float64Array(4);

// ---- scratch -------------------------------------------------------------------------------------

const tri = new TrianglePiece();
const IDENTITY = new Pose();
const relPose = new Pose(); // the convex in the shifted mesh frame (position 0)
const gjk = new GjkResult();
const epa = new EpaResult();
const triList = new IntList(64);
const tv = new Float64Array(9);
const aabb = new Float64Array(6);
/** Rotation matrices of the mesh (world) and of the convex in the mesh frame (relPose). */
const MR = new Float64Array(9);
const RR = new Float64Array(9);
/**
 * coreSupport: direction in (shifted frame), support point out; and their local-frame copies. supOut also
 * takes the convex's radii (radiiInto) once per call.
 */
const supDir = new Float64Array(3);
const supOut = new Float64Array(3);
const locDir = new Float64Array(3);
const locSup = new Float64Array(3);
/** GJK start: warm-start direction and the distance beyond which contacts are not needed. */
const gjkStart = new Float64Array(4);
/** A hull's supporting feature (vertex indices). */
const hullFeat = new HullFeature();
/** Lowest and highest hull vertex along the triangle normal: [0] low index, [1] high index. */
const hullExt = new Int32Array(2);

/**
 * The doubles of one call. Fields of one object are written in place; module-level `let` doubles (context
 * slots) and double arguments of calls V8 does not inline are boxed, one heap number per write.
 */
class MeshScratch {
  // Mesh pose (position) and the shift: the convex's position in the mesh frame.
  mpx = 0.5;
  mpy = 0.5;
  mpz = 0.5;
  sx0 = 0.5;
  sy0 = 0.5;
  sz0 = 0.5;
  // Triangle: unit face normal, twice its area, the side normal nS and the margin / core radius.
  fnx = 0.5;
  fny = 0.5;
  fnz = 0.5;
  fl = 0.5;
  nsx = 0.5;
  nsy = 0.5;
  nsz = 0.5;
  margin = 0.5;
  rA = 0.5;
  size = 0.5;
  // Hull extent along the face normal.
  lo = 0.5;
  hi = 0.5;
  // Result of runGjk: the contact normal (from the triangle toward the convex), the depth along it and
  // the witness points on the convex's surface (pa) and on the triangle (pb), shifted frame.
  nx = 0.5;
  ny = 0.5;
  nz = 0.5;
  wDepth = 0.5;
  pax = 0.5;
  pay = 0.5;
  paz = 0.5;
  pbx = 0.5;
  pby = 0.5;
  pbz = 0.5;
  /** Support height of the convex core along the feature direction. */
  featH0 = 0.5;
  /** Direction of the cached ring feature (NaN: none). */
  featDx = NaN;
  featDy = NaN;
  featDz = NaN;
}
const st = new MeshScratch();

/** Perturbation of the support direction (tan of ~2.9 degrees): faces this aligned count as faces. */
const PERTURB = 0.05;
/** A feature point belongs to the supporting face when it drops below the support plane by at most this slope. */
const FACE_SLOPE = 0.06;
const RING = 8;
const RING_COS = new Float64Array(RING);
const RING_SIN = new Float64Array(RING);
for (let k = 0; k < RING; k++) {
  // Offset by half a step so axis-aligned boxes never sit on a tie. The engine's own cos/sin: the same
  // directions, to the bit, in every JavaScript engine.
  RING_COS[k] = exactCos(((k + 0.5) * 2 * Math.PI) / RING);
  RING_SIN[k] = exactSin(((k + 0.5) * 2 * Math.PI) / RING);
}

// The convex's supporting feature along the last direction (shifted frame, core points).
const MAX_FEAT = MAX_FEATURE_VERTICES;
const featX = new Float64Array(MAX_FEAT);
const featY = new Float64Array(MAX_FEAT);
const featZ = new Float64Array(MAX_FEAT);
const featId = new Int32Array(MAX_FEAT);
let featN = 0;

// Clipping buffer and candidates.
const MAX_CLIP = 2 * MAX_FEAT + 8;
const clipPoly = new ClipPolygon(MAX_CLIP);

const candX = new Float64Array(MAX_CLIP);
const candY = new Float64Array(MAX_CLIP);
const candZ = new Float64Array(MAX_CLIP);
const candD = new Float64Array(MAX_CLIP);
const candId = new Int32Array(MAX_CLIP);
let candN = 0;
const chosen = new Int32Array(4);

// Per-manifold reduction data (indexed from the call's first manifold).
const KIND_FACE = 0,
  KIND_EDGE = 1,
  KIND_VERTEX = 2;
let mKind = new Int8Array(64);
let mV0 = new Int32Array(64);
let mV1 = new Int32Array(64);
const claimed = new IntList(64);

const CLIP_EPS = 1e-9;
/** A face-normal contact may be this much deeper than the GJK/EPA penetration (plus the margin). */
const DEPTH_SLACK = 0.05;
const WITNESS_ID = 0x3fff;
const EDGE_WITNESS_ID = 0x3ffe;
/** Clip ids: crossing points 0x400 | (incident label << 2) | side plane; the edge along side plane e is labelled 0x80 + e. */
const CROSS_BASE = 0x400;
const LEAVE_BASE = 0x80;

/** locDir = R^T supDir: a shifted-frame direction in the convex's local frame. */
function supDirToLocal(): void {
  const R = RR;
  const dx = supDir[0],
    dy = supDir[1],
    dz = supDir[2];
  locDir[0] = R[0] * dx + R[3] * dy + R[6] * dz;
  locDir[1] = R[1] * dx + R[4] * dy + R[7] * dz;
  locDir[2] = R[2] * dx + R[5] * dy + R[8] * dz;
}

/** Support of the convex core in the shifted frame (rotation RR, position 0) along supDir, into supOut. */
function coreSupport(c: ConvexShape): void {
  const R = RR;
  supDirToLocal();
  c.supportCoreInto(locDir, locSup);
  const vx = locSup[0],
    vy = locSup[1],
    vz = locSup[2];
  supOut[0] = R[0] * vx + R[1] * vy + R[2] * vz;
  supOut[1] = R[3] * vx + R[4] * vy + R[5] * vz;
  supOut[2] = R[6] * vx + R[7] * vy + R[8] * vz;
}

/**
 * Supporting feature of the convex core along unit direction (st.featDx, featDy, featDz) (shifted frame),
 * for shapes without topology: the support point and the supports of a ring of directions tilted by
 * PERTURB around d, deduplicated and kept when they lie on (or within FACE_SLOPE of) the support plane.
 * Cached per direction within a call (the caller compares and sets the direction).
 */
function ringFeature(c: ConvexShape): void {
  const dx = st.featDx,
    dy = st.featDy,
    dz = st.featDz;
  const size = st.size;
  // Tangent basis (deterministic in d).
  let ux = 0,
    uy = 0,
    uz = 0;
  if (Math.abs(dx) < 0.57735) {
    // u = normalize(X x d) = (0, -dz, dy)
    const l = Math.sqrt(dy * dy + dz * dz);
    uy = -dz / l;
    uz = dy / l;
  } else {
    // u = normalize(Y x d) = (dz, 0, -dx)
    const l = Math.sqrt(dx * dx + dz * dz);
    ux = dz / l;
    uz = -dx / l;
  }
  const vx = dy * uz - dz * uy,
    vy = dz * ux - dx * uz,
    vz = dx * uy - dy * ux;
  supDir[0] = dx;
  supDir[1] = dy;
  supDir[2] = dz;
  coreSupport(c);
  const s0x = supOut[0],
    s0y = supOut[1],
    s0z = supOut[2];
  const h0 = s0x * dx + s0y * dy + s0z * dz;
  st.featH0 = h0;
  const dup2 = 1e-18 * (1 + size * size);
  featN = 0;
  for (let k = 0; k < RING; k++) {
    const cs = RING_COS[k] * PERTURB,
      sn = RING_SIN[k] * PERTURB;
    supDir[0] = dx + cs * ux + sn * vx;
    supDir[1] = dy + cs * uy + sn * vy;
    supDir[2] = dz + cs * uz + sn * vz;
    coreSupport(c);
    const px = supOut[0],
      py = supOut[1],
      pz = supOut[2];
    // On the support plane (within the face slope)?
    const drop = h0 - (px * dx + py * dy + pz * dz);
    const ex = px - s0x,
      ey = py - s0y,
      ez = pz - s0z;
    const lateral2 = ex * ex + ey * ey + ez * ez - drop * drop;
    if (drop > 1e-12 * (1 + size) && drop * drop > FACE_SLOPE * FACE_SLOPE * (lateral2 > 0 ? lateral2 : 0)) continue;
    if (featN > 0) {
      const qx = px - featX[featN - 1],
        qy = py - featY[featN - 1],
        qz = pz - featZ[featN - 1];
      if (qx * qx + qy * qy + qz * qz <= dup2) continue;
      const rx = px - featX[0],
        ry = py - featY[0],
        rz = pz - featZ[0];
      if (rx * rx + ry * ry + rz * rz <= dup2) continue;
    }
    featX[featN] = px;
    featY[featN] = py;
    featZ[featN] = pz;
    featId[featN] = k;
    featN++;
  }
  if (featN === 0) {
    featX[0] = s0x;
    featY[0] = s0y;
    featZ[0] = s0z;
    featId[0] = RING;
    featN = 1;
  }
}

/** featX/Y/Z[featN] = R (x, y, z): a cylinder-local point into the shifted frame, with feature id `id`. */
function emitLocal(x: number, y: number, z: number, id: number): void {
  const R = RR;
  featX[featN] = R[0] * x + R[1] * y + R[2] * z;
  featY[featN] = R[3] * x + R[4] * y + R[5] * z;
  featZ[featN] = R[6] * x + R[7] * y + R[8] * z;
  featId[featN] = id;
  featN++;
}

/**
 * Supporting feature of a cylinder along (st.featDx, featDy, featDz) from its exact shape, chosen by the rule the
 * convex pairs share (featureClip's cylinderFeatureKind, also convexGeneric's cylinderFeature): the cap polygon when
 * the direction is nearer the axis than the side (or the cylinder is fast), the side line when it is within
 * FEATURE_SIN_TOL of perpendicular, else the rim point.
 * The ring of perturbed supports (ringFeature) would return a patch of rim points around the side line,
 * and a rolling wheel's rim points ahead of the line move into the ground at omega r sin(tilt): they
 * pushed back against the rolling (7 units/s^2 of loss at 40 units/s, Havok 1.2) and, off-centre, steered
 * the wheel sideways. Ids: cap vertices 0..7, side line 8 and 9, rim point 10 (stable while rolling).
 */
function cylinderMeshFeature(c: Cylinder): void {
  supDir[0] = st.featDx;
  supDir[1] = st.featDy;
  supDir[2] = st.featDz;
  supDirToLocal();
  const lx = locDir[0],
    ly = locDir[1],
    lz = locDir[2];
  const r = c.radius,
    h = c.halfHeight;
  const l = Math.sqrt(lx * lx + lz * lz);
  const y = ly > 0 ? h : -h;
  st.featH0 = r * l + (ly < 0 ? -ly : ly) * h;
  featN = 0;
  const kind = cylinderFeatureKind(l, ly < 0 ? -ly : ly, r, st.margin);
  if (kind === CYLINDER_CAP) {
    // Cap polygon about its outward normal (+Y: x = sin, z = cos; -Y mirrored), see cylinderFeatureKind (a coin
    // falling at 0.33 m a step, or settling on a thin heightfield). The triangle is always the reference here.
    const xs = ly > 0 ? r : -r;
    for (let k = 0; k < CAP_N; k++) emitLocal(xs * CAP_SIN[k], y, r * CAP_COS[k], k);
    return;
  }
  const ux = (r * lx) / l,
    uz = (r * lz) / l;
  if (kind === CYLINDER_SIDE) {
    emitLocal(ux, -h, uz, CAP_N);
    emitLocal(ux, h, uz, CAP_N + 1);
  } else emitLocal(ux, y, uz, CAP_N + 2);
}

/**
 * The incident face of a box along unit direction (st.featDx, featDy, featDz) (shifted frame): the face whose
 * outward normal is closest to the direction, its four corners (as the box-box clip takes the incident face,
 * Box2D's b2CollidePolygons / Jolt's ManifoldBetweenTwoFaces). A tilted box gets all four corners, each with
 * its own separation, so a thin box falling at a slant onto a mesh has speculative contacts at the corners
 * that land after the first, as it has on a box; the ring of supports gives the lowest corner alone there.
 */
function boxFeature(box: Box): void {
  const R = RR;
  const dx = st.featDx,
    dy = st.featDy,
    dz = st.featDz;
  supDir[0] = dx;
  supDir[1] = dy;
  supDir[2] = dz;
  supDirToLocal();
  const lx = locDir[0],
    ly = locDir[1],
    lz = locDir[2];
  const ax = Math.abs(lx),
    ay = Math.abs(ly),
    az = Math.abs(lz);
  // Face axis (0, 1, 2) and the two in-plane axes; ties go to the lower axis (deterministic).
  const axis = ax >= ay && ax >= az ? 0 : ay >= az ? 1 : 2;
  const sign = (axis === 0 ? lx : axis === 1 ? ly : lz) >= 0 ? 1 : -1;
  const hx = box.halfX,
    hy = box.halfY,
    hz = box.halfZ;
  let h0 = -Infinity;
  for (let k = 0; k < 4; k++) {
    // Corners q = 0, 1, 3, 2 (bit 0: + along the first in-plane axis, bit 1: the second): around the face.
    const q = k === 2 ? 3 : k === 3 ? 2 : k;
    const uq = q & 1 ? 1 : -1,
      vq = q & 2 ? 1 : -1;
    const x = axis === 0 ? sign * hx : uq * hx,
      y = axis === 1 ? sign * hy : axis === 0 ? uq * hy : vq * hy,
      z = axis === 2 ? sign * hz : vq * hz;
    const px = R[0] * x + R[1] * y + R[2] * z,
      py = R[3] * x + R[4] * y + R[5] * z,
      pz = R[6] * x + R[7] * y + R[8] * z;
    featX[k] = px;
    featY[k] = py;
    featZ[k] = pz;
    // Distinct ids per face corner, above the ring's (0..RING) and below the clip's label bases.
    featId[k] = 16 + ((axis * 2 + (sign > 0 ? 1 : 0)) << 2) + q;
    const h = px * dx + py * dy + pz * dz;
    if (h > h0) h0 = h;
  }
  featN = 4;
  st.featH0 = h0;
}

/**
 * A hull's lowest and highest vertex along the triangle normal st.fn, into hullExt and st.lo / st.hi: one pass
 * over the vertices while the hull is small enough for ConvexHull's own queries to be brute force (the same
 * threshold), two hill climbs for larger ones.
 */
function hullExtent(h: ConvexHull): void {
  const R = RR;
  const dx = st.fnx,
    dy = st.fny,
    dz = st.fnz;
  const lx = R[0] * dx + R[3] * dy + R[6] * dz,
    ly = R[1] * dx + R[4] * dy + R[7] * dz,
    lz = R[2] * dx + R[5] * dy + R[8] * dz;
  const vs = h.vertices;
  const V = vs.length / 3;
  let iLo = 0,
    iHi = 0;
  if (V <= BRUTE_FORCE_SUPPORT) {
    let lo = vs[0] * lx + vs[1] * ly + vs[2] * lz,
      hi = lo;
    for (let v = 1; v < V; v++) {
      const d = vs[3 * v] * lx + vs[3 * v + 1] * ly + vs[3 * v + 2] * lz;
      if (d > hi) {
        hi = d;
        iHi = v;
      }
      if (d < lo) {
        lo = d;
        iLo = v;
      }
    }
  } else {
    locDir[0] = lx;
    locDir[1] = ly;
    locDir[2] = lz;
    iHi = h.supportIndexOf(locDir, 0);
    locDir[0] = -lx;
    locDir[1] = -ly;
    locDir[2] = -lz;
    iLo = h.supportIndexOf(locDir, 0);
  }
  hullExt[0] = iLo;
  hullExt[1] = iHi;
  st.lo = vs[3 * iLo] * lx + vs[3 * iLo + 1] * ly + vs[3 * iLo + 2] * lz;
  st.hi = vs[3 * iHi] * lx + vs[3 * iHi + 1] * ly + vs[3 * iHi + 2] * lz;
}

/**
 * The convex core's lowest and highest point along the triangle normal st.fn (shifted frame), into st.lo /
 * st.hi: two support queries. Its own function, as hullExtent is for hulls: inline in the triangle loop, its
 * doubles were boxed.
 */
function coreExtent(c: ConvexShape): void {
  const fnx = st.fnx,
    fny = st.fny,
    fnz = st.fnz;
  supDir[0] = -fnx;
  supDir[1] = -fny;
  supDir[2] = -fnz;
  coreSupport(c);
  st.lo = supOut[0] * fnx + supOut[1] * fny + supOut[2] * fnz;
  supDir[0] = fnx;
  supDir[1] = fny;
  supDir[2] = fnz;
  coreSupport(c);
  st.hi = supOut[0] * fnx + supOut[1] * fny + supOut[2] * fnz;
}

/**
 * Supporting feature of a hull along -nS (shifted frame) from its topology (hullSupportFeature: the face,
 * edge or vertex around the supporting vertex v), its vertices moved into the shifted frame. `down` is
 * +1 when -nS = -fn (v the lowest vertex along fn), -1 when -nS = +fn.
 */
function hullMeshFeature(h: ConvexHull, v: number, down: number): void {
  const R = RR;
  const dx = -down * st.fnx,
    dy = -down * st.fny,
    dz = -down * st.fnz;
  locDir[0] = R[0] * dx + R[3] * dy + R[6] * dz;
  locDir[1] = R[1] * dx + R[4] * dy + R[7] * dz;
  locDir[2] = R[2] * dx + R[5] * dy + R[8] * dz;
  hullSupportFeature(h, locDir, v, hullFeat);
  const vs = h.vertices;
  const verts = hullFeat.verts;
  const n = hullFeat.n;
  for (let k = 0; k < n; k++) {
    const w = verts[k];
    const x = vs[3 * w],
      y = vs[3 * w + 1],
      z = vs[3 * w + 2];
    featX[k] = R[0] * x + R[1] * y + R[2] * z;
    featY[k] = R[3] * x + R[4] * y + R[5] * z;
    featZ[k] = R[6] * x + R[7] * y + R[8] * z;
    featId[k] = w & 0x3ff; // the vertex index, below CROSS_BASE: distinct ids for hulls of up to 1024 vertices
  }
  featN = n;
  st.featH0 = down > 0 ? -st.lo : st.hi;
}

// ---- clipping against the triangle's side planes -------------------------------------------------

/** Side plane e of the triangle tv (CCW about unit normal st.fn): outward unit normal and offset into clipPlane. */
function sidePlane(e: number): void {
  const a = 3 * e,
    b = e === 2 ? 0 : 3 * (e + 1);
  const s = sideEdge;
  s[0] = tv[a];
  s[1] = tv[a + 1];
  s[2] = tv[a + 2];
  s[3] = tv[b];
  s[4] = tv[b + 1];
  s[5] = tv[b + 2];
  s[6] = st.fnx;
  s[7] = st.fny;
  s[8] = st.fnz;
  setSidePlane();
}

/** Clips the feature (offset by -nS * rA: the core onto the surface) against the triangle's three side planes. */
function clipFeature(): void {
  const rA = st.rA;
  const ox = -st.nsx * rA,
    oy = -st.nsy * rA,
    oz = -st.nsz * rA;
  const eps = CLIP_EPS * (1 + st.size);
  const cp = clipPoly;
  cp.n = featN;
  for (let i = 0; i < featN; i++) {
    cp.x[i] = featX[i] + ox;
    cp.y[i] = featY[i] + oy;
    cp.z[i] = featZ[i] + oz;
    cp.id[i] = featId[i];
    cp.lab[i] = i;
  }
  if (featN === 1) {
    for (let e = 0; e < 3; e++) {
      sidePlane(e);
      if (clipPlane[0] * cp.x[0] + clipPlane[1] * cp.y[0] + clipPlane[2] * cp.z[0] - clipPlane[3] > eps) {
        cp.n = 0;
        return;
      }
    }
    return;
  }
  clipPlane[4] = eps;
  if (featN === 2) {
    // Cyrus-Beck on the segment.
    cp.beginSegment();
    for (let e = 0; e < 3; e++) {
      sidePlane(e);
      if (!cp.clipSegment(e, CROSS_BASE, 2)) return;
    }
    cp.endSegment();
    return;
  }
  // Sutherland-Hodgman; labels track the incident edge (or plane) each output edge runs along.
  for (let e = 0; e < 3 && cp.n > 0; e++) {
    sidePlane(e);
    cp.clip(e, CROSS_BASE, 2, 0xff, LEAVE_BASE);
  }
}

/** Picks up to four candidates (deepest, farthest from it, then the widest on either side), about normal st.n. */
function reduce(): number {
  selectNormal[0] = st.nx;
  selectNormal[1] = st.ny;
  selectNormal[2] = st.nz;
  return selectFourContacts(candX, candY, candZ, candD, candN, false, chosen);
}

// ---- main ----------------------------------------------------------------------------------------

/** Writes the candidates (shifted frame, normal st.n from the triangle toward the convex) into a new manifold. */
function emitManifold(out: ManifoldBuffer, convexIsA: boolean, convexChild: number, triIndex: number): ContactManifold {
  const m = out.push();
  const count = reduce();
  const R = MR;
  const nx = st.nx,
    ny = st.ny,
    nz = st.nz;
  const s = convexIsA ? -1 : 1;
  m.normalX = s * (R[0] * nx + R[1] * ny + R[2] * nz);
  m.normalY = s * (R[3] * nx + R[4] * ny + R[5] * nz);
  m.normalZ = s * (R[6] * nx + R[7] * ny + R[8] * nz);
  const sx = st.sx0,
    sy = st.sy0,
    sz = st.sz0;
  const px = st.mpx,
    py = st.mpy,
    pz = st.mpz;
  // Written in place rather than through ContactManifold.add: a call V8 does not inline boxes its doubles.
  for (let k = 0; k < count; k++) {
    const i = chosen[k];
    const x = candX[i] + sx,
      y = candY[i] + sy,
      z = candZ[i] + sz;
    m.positionX[k] = px + R[0] * x + R[1] * y + R[2] * z;
    m.positionY[k] = py + R[3] * x + R[4] * y + R[5] * z;
    m.positionZ[k] = pz + R[6] * x + R[7] * y + R[8] * z;
    m.depth[k] = candD[i];
    m.featureId[k] = candId[i];
  }
  m.count = count;
  if (convexIsA) {
    m.childA = convexChild;
    m.childB = triIndex;
  } else {
    m.childA = triIndex;
    m.childB = convexChild;
  }
  return m;
}


/**
 * Collides a convex shape (pose pc) with a triangle shape (pose pm), appending one manifold per touching
 * triangle to `out`, within the speculative margin out.margin (a field, not an argument: no double to box).
 * With convexIsA the normal points from the convex to the mesh and childA is `convexChild`, childB the
 * triangle index; otherwise the reverse.
 */
export function collideConvexTrianglesInto(
  convex: ConvexShape,
  pc: Pose,
  convexChild: number,
  mesh: Shape & TriangleSource,
  pm: Pose,
  convexIsA: boolean,
  out: ManifoldBuffer,
): void {
  const margin = out.margin;
  st.margin = margin;
  pm.rotationMatrix(MR, 0);
  st.mpx = pm.px;
  st.mpy = pm.py;
  st.mpz = pm.pz;
  // Convex in the mesh frame: position R^T (pc - pm), orientation conj(qm) qc.
  {
    const x = pc.px - pm.px,
      y = pc.py - pm.py,
      z = pc.pz - pm.pz;
    st.sx0 = MR[0] * x + MR[3] * y + MR[6] * z;
    st.sy0 = MR[1] * x + MR[4] * y + MR[7] * z;
    st.sz0 = MR[2] * x + MR[5] * y + MR[8] * z;
    const qx = -pm.qx,
      qy = -pm.qy,
      qz = -pm.qz,
      qw = pm.qw;
    const cqx = pc.qx,
      cqy = pc.qy,
      cqz = pc.qz,
      cqw = pc.qw;
    relPose.set(
      0,
      0,
      0,
      qw * cqx + qx * cqw + qy * cqz - qz * cqy,
      qw * cqy - qx * cqz + qy * cqw + qz * cqx,
      qw * cqz + qx * cqy - qy * cqx + qz * cqw,
      qw * cqw - qx * cqx - qy * cqy - qz * cqz,
    );
    relPose.rotationMatrix(RR, 0);
  }
  const sx0 = st.sx0,
    sy0 = st.sy0,
    sz0 = st.sz0;
  convex.computeAabb(relPose, aabb, 0);
  triList.clear();
  aabb[0] += sx0 - margin;
  aabb[1] += sy0 - margin;
  aabb[2] += sz0 - margin;
  aabb[3] += sx0 + margin;
  aabb[4] += sy0 + margin;
  aabb[5] += sz0 + margin;
  mesh.queryBox(aabb, 0, triList);
  if (triList.count === 0) return;
  st.featDx = NaN; // invalidate the feature cache
  convex.radiiInto(supOut, 0);
  const rA = supOut[0];
  st.rA = rA;
  st.size = supOut[1];
  // Hulls answer features from their topology (face / edge / vertex), other shapes from a ring of supports.
  const hull = convex instanceof ConvexHull ? convex : null;
  const start = out.count;
  const faceSign = mesh.faceSign;
  for (let li = 0; li < triList.count; li++) {
    const t = triList.data[li];
    mesh.getTriangle(t, tv, 0);
    for (let c = 0; c < 3; c++) {
      tv[3 * c] -= sx0;
      tv[3 * c + 1] -= sy0;
      tv[3 * c + 2] -= sz0;
    }
    // Face normal and side.
    const N = CROSS;
    triangleCross(tv, 0, 3, 6, N, 0);
    let fnx = N[0],
      fny = N[1],
      fnz = N[2];
    const fl = Math.sqrt(fnx * fnx + fny * fny + fnz * fnz);
    if (!(fl > 0)) continue;
    fnx /= fl;
    fny /= fl;
    fnz /= fl;
    st.fnx = fnx;
    st.fny = fny;
    st.fnz = fnz;
    st.fl = fl;
    const planeT = fnx * tv[0] + fny * tv[1] + fnz * tv[2]; // the convex's centre is at 0
    // Two-sided (open meshes): the side that needs the smaller push, from the convex's extent along the
    // normal (the minimum translation). The centre's side is not enough: a body whose centre of mass sits
    // near one end (a flat hull) crosses the plane with its centre long before most of it has. Closed and
    // one-sided meshes use their outward faces, so a large convex at a small closed mesh is never pushed
    // through it.
    let centreFront = planeT <= 0;
    if (hull !== null) hullExtent(hull);
    else if (faceSign === 0) coreExtent(convex);
    // The front (the winding's side: where a ground mesh's bodies are) wins until the convex is three quarters
    // through: a thin body that lands a little past half its thickness deep (fast, at a slant) is pushed back
    // out, not on through the ground, as a box floor would push it.
    if (faceSign === 0) centreFront = planeT - (st.lo - rA) <= st.hi + rA - planeT + 0.5 * (st.hi - st.lo + 2 * rA);
    const front = faceSign !== 0 ? faceSign > 0 : centreFront;
    const behind = centreFront !== front;
    // The side's sign multiplies rather than a negation in one arm of a conditional: a pair that meets a
    // triangle's back for the first time mid-run would otherwise deoptimise this function (no type feedback
    // for the negation), and the contact cache calls it too seldom to be optimised again soon.
    const side = front ? 1 : -1;
    const nsx = side * fnx,
      nsy = side * fny,
      nsz = side * fnz;
    st.nsx = nsx;
    st.nsy = nsy;
    st.nsz = nsz;
    const plane = side * planeT; // dot(v0, nS) <= 0
    // Plane cull: the convex's lowest point along -nS is above the plane by more than the margin (a hull's
    // extent is known already: cull before building its feature).
    if (hull !== null && side * (front ? st.lo : st.hi) - rA - side * planeT > margin) continue;
    // The convex's supporting feature along -nS.
    if (hull !== null) {
      hullMeshFeature(hull, front ? hullExt[0] : hullExt[1], side);
    } else if (st.featDx !== -nsx || st.featDy !== -nsy || st.featDz !== -nsz) {
      st.featDx = -nsx;
      st.featDy = -nsy;
      st.featDz = -nsz;
      if (convex.type === ShapeType.Cylinder) cylinderMeshFeature(convex as Cylinder);
      else if (convex.type === ShapeType.Box) boxFeature(convex as Box);
      else ringFeature(convex);
    }
    const low = -st.featH0 - rA;
    if (low - plane > margin) continue;
    const sideShift = front ? EDGE_FRONT_SHIFT : EDGE_BACK_SHIFT;
    const flags = (mesh.edgeFlags(t) >> sideShift) & 7;
    // Corners on an active edge of any triangle (a boundary vertex this triangle touches with two interior edges).
    const vflags = (mesh.vertexFlags(t) >> sideShift) & 7;
    const triIndex = mesh.triangleIndex(t);

    // Normal from GJK/EPA when an edge or a vertex could be active.
    let face = true;
    haveWitness = false;
    st.nx = nsx;
    st.ny = nsy;
    st.nz = nsz;
    let kind = KIND_FACE,
      fv0 = -1,
      fv1 = -1;
    if (flags !== 0 || vflags !== 0 || behind) {
      if (!runGjk(convex)) {
        if (!haveWitness && gjk.separated) continue; // beyond the margin
      }
      if (haveWitness) {
        // Which triangle feature holds the witness (barycentric, with a relative tolerance)?
        classify();
        // An active edge or vertex keeps the GJK/EPA normal whichever side it points to (Jolt's
        // ActiveEdges::FixNormal replaces only an inactive feature's normal by the face's): a convex beside the
        // triangle, across its edge or behind it, is pushed along the true nearest feature, not through the
        // face plane by its whole extent (a plate beside a cube's top edge, a sphere beyond a free edge).
        const align = st.nx * nsx + st.ny * nsy + st.nz * nsz;
        if (align > 1 - 1e-6 || baryKind === KIND_FACE) {
          face = true;
        } else {
          let active = false;
          if (baryKind === KIND_EDGE) active = ((flags >> baryFeature) & 1) !== 0;
          else active = ((vflags >> baryFeature) & 1) !== 0; // includes this triangle's two edges at the corner
          face = !active;
        }
        kind = baryKind;
      }
    }
    candN = 0;
    if (face) {
      // Clip the convex's feature along -nS against the triangle.
      clipFeature();
      const cp = clipPoly;
      const ix = cp.x,
        iy = cp.y,
        iz = cp.z,
        iid = cp.id;
      for (let i = 0; i < cp.n; i++) {
        const d = plane - (ix[i] * nsx + iy[i] * nsy + iz[i] * nsz);
        if (d < -margin) continue;
        const k = candN++;
        candX[k] = ix[i] + nsx * 0.5 * d;
        candY[k] = iy[i] + nsy * 0.5 * d;
        candZ[k] = iz[i] + nsz * 0.5 * d;
        candD[k] = d;
        candId[k] = iid[i];
      }
      let maxD = -Infinity;
      for (let i = 0; i < candN; i++) if (candD[i] > maxD) maxD = candD[i];
      if (candN > 0 && haveWitness && maxD > st.wDepth + margin + DEPTH_SLACK) {
        // The face normal would push far deeper than the true (GJK/EPA) penetration: the convex is
        // beside the triangle, not over it (a large convex at a small mesh). Use the witness pair.
        face = false;
        candN = 0;
      } else if (candN > 0) {
        kind = KIND_FACE;
      } else {
        // The feature misses the triangle: keep one witness contact with the face normal, so a body
        // over a slightly convex (inactive) ridge still has support. Redundant ones are dropped below.
        if (!haveWitness) {
          if (!runGjk(convex)) continue;
          classify();
          kind = baryKind;
        }
        // Along the face normal (the gap to the plane a flat neighbour continues), but no penetration from a
        // triangle GJK proves the convex apart from: beside it (or beyond a closed mesh's far face, behind its plane)
        // the witness is off to the side, where the offset along the normal is no depth at all.
        let d = (st.pbx - st.pax) * nsx + (st.pby - st.pay) * nsy + (st.pbz - st.paz) * nsz;
        if (d > 0 && st.wDepth < 0) d = st.wDepth;
        if (d < -margin) continue;
        candX[0] = st.pax + nsx * 0.5 * d;
        candY[0] = st.pay + nsy * 0.5 * d;
        candZ[0] = st.paz + nsz * 0.5 * d;
        candD[0] = d;
        candId[0] = WITNESS_ID;
        candN = 1;
      }
      if (face) {
        st.nx = nsx;
        st.ny = nsy;
        st.nz = nsz;
      }
    }
    if (!face) {
      // Active edge or vertex: the witness pair.
      const wDepth = st.wDepth;
      if (wDepth < -margin) continue;
      candX[0] = st.pax + st.nx * 0.5 * wDepth;
      candY[0] = st.pay + st.ny * 0.5 * wDepth;
      candZ[0] = st.paz + st.nz * 0.5 * wDepth;
      candD[0] = wDepth;
      candId[0] = EDGE_WITNESS_ID;
      candN = 1;
    }
    if (kind === KIND_EDGE) {
      fv0 = mesh.vertexId(t, baryFeature);
      fv1 = mesh.vertexId(t, baryFeature === 2 ? 0 : baryFeature + 1);
    } else if (kind === KIND_VERTEX) {
      fv0 = mesh.vertexId(t, baryFeature);
    }
    const slot = out.count - start;
    mKind = grown(mKind, slot + 1);
    mV0 = grown(mV0, mKind.length);
    mV1 = grown(mV1, mKind.length);
    mKind[slot] = kind;
    if (kind === KIND_FACE) {
      mV0[slot] = t;
    } else {
      mV0[slot] = fv0;
      mV1[slot] = fv1;
    }
    emitManifold(out, convexIsA, convexChild, triIndex);
  }
  dropRedundant(out, start, mesh);
  // Polytopes only: their points are clipped face patches. A round shape's manifolds hold one point each, and
  // merged, a rolling sphere's speculative witness on the next triangle joins its contact's manifold and turns it
  // into a two-point impact (the solver's centroid pass): it sank 8 mm into a slope at each cell edge.
  if (out.mergeTriangles && (hull !== null || convex.type === ShapeType.Box) && out.count > start) mergeTriangleManifolds(out, start, convexIsA);
}

/**
 * Reduction across triangles: face manifolds claim their triangles' vertices; edge/vertex manifolds on claimed
 * features are redundant, and so is an edge or vertex reached again from its other triangle.
 */
function dropRedundant(out: ManifoldBuffer, start: number, mesh: TriangleSource): void {
  const total = out.count - start;
  if (total <= 1) return;
  claimed.clear();
  let anyOther = false;
  for (let s = 0; s < total; s++) {
    if (mKind[s] === KIND_FACE) {
      const t = mV0[s];
      claimed.push(mesh.vertexId(t, 0));
      claimed.push(mesh.vertexId(t, 1));
      claimed.push(mesh.vertexId(t, 2));
    } else anyOther = true;
  }
  if (!anyOther) return;
  let w = start;
  const items = out.items;
  for (let s = 0; s < total; s++) {
    const kind = mKind[s],
      v0 = mV0[s],
      v1 = mV1[s];
    if (kind !== KIND_FACE) {
      // On a feature a face manifold claimed: redundant.
      if (isClaimed(v0) && (kind === KIND_VERTEX || isClaimed(v1))) continue;
      // The same edge or vertex reached from its other triangle: keep the first.
      let dup = false;
      for (let k = 0; k < w - start && !dup; k++) {
        if (mKind[k] !== kind) continue;
        dup = kind === KIND_VERTEX ? mV0[k] === v0 : (mV0[k] === v0 && mV1[k] === v1) || (mV0[k] === v1 && mV1[k] === v0);
      }
      if (dup) continue;
    }
    const r = start + s;
    if (r !== w) {
      const tmp = items[w];
      items[w] = items[r];
      items[r] = tmp;
    }
    const k = w - start;
    mKind[k] = kind;
    mV0[k] = v0;
    mV1[k] = v1;
    w++;
  }
  out.count = w;
}

let haveWitness = false;

/**
 * GJK/EPA between the convex (relPose) and `tri` (loaded from tv), starting along -nS; results in st.
 * False when beyond the margin or degenerate.
 */
function runGjk(convex: ConvexShape): boolean {
  const rA = st.rA;
  tri.set(tv);
  gjkStart[0] = -st.nsx;
  gjkStart[1] = -st.nsy;
  gjkStart[2] = -st.nsz;
  gjkStart[3] = st.margin + rA;
  let nx = 0,
    ny = 0,
    nz = 0;
  if (gjkDistanceFrom(convex, relPose, tri, IDENTITY, gjk, gjkStart)) {
    if (!gjk.exact) return false;
    const sep = gjk.distance - rA;
    if (sep > st.margin) return false;
    nx = -gjk.nx;
    ny = -gjk.ny;
    nz = -gjk.nz;
    st.wDepth = -sep;
    st.pax = gjk.ax;
    st.pay = gjk.ay;
    st.paz = gjk.az;
    st.pbx = gjk.bx;
    st.pby = gjk.by;
    st.pbz = gjk.bz;
  } else {
    if (!epaPenetration(convex, relPose, tri, IDENTITY, gjk, epa)) {
      st.nx = st.nsx;
      st.ny = st.nsy;
      st.nz = st.nsz;
      return false;
    }
    nx = -epa.nx;
    ny = -epa.ny;
    nz = -epa.nz;
    st.wDepth = epa.depth + rA;
    st.pax = epa.ax;
    st.pay = epa.ay;
    st.paz = epa.az;
    st.pbx = epa.bx;
    st.pby = epa.by;
    st.pbz = epa.bz;
  }
  st.nx = nx;
  st.ny = ny;
  st.nz = nz;
  // Convex witness on its surface.
  st.pax -= nx * rA;
  st.pay -= ny * rA;
  st.paz -= nz * rA;
  haveWitness = true;
  return true;
}

function isClaimed(v: number): boolean {
  const d = claimed.data;
  for (let i = 0; i < claimed.count; i++) if (d[i] === v) return true;
  return false;
}

// Barycentric classification of the triangle witness st.pb on the triangle tv: kind and feature (edge
// index or corner).
let baryKind = KIND_FACE;
let baryFeature = 0;
function classify(): void {
  const px = st.pbx,
    py = st.pby,
    pz = st.pbz;
  const nx = st.fnx,
    ny = st.fny,
    nz = st.fnz;
  // Sub-triangle areas opposite each corner (signed along n), normalised by twice the area.
  const twiceArea = st.fl;
  let ax = tv[3] - px,
    ay = tv[4] - py,
    az = tv[5] - pz;
  let bx = tv[6] - px,
    by = tv[7] - py,
    bz = tv[8] - pz;
  const l0 = ((ay * bz - az * by) * nx + (az * bx - ax * bz) * ny + (ax * by - ay * bx) * nz) / twiceArea;
  ax = tv[6] - px;
  ay = tv[7] - py;
  az = tv[8] - pz;
  bx = tv[0] - px;
  by = tv[1] - py;
  bz = tv[2] - pz;
  const l1 = ((ay * bz - az * by) * nx + (az * bx - ax * bz) * ny + (ax * by - ay * bx) * nz) / twiceArea;
  const l2 = 1 - l0 - l1;
  const eps = 1e-6;
  const z0 = l0 < eps,
    z1 = l1 < eps,
    z2 = l2 < eps;
  const zeros = (z0 ? 1 : 0) + (z1 ? 1 : 0) + (z2 ? 1 : 0);
  if (zeros === 0) {
    baryKind = KIND_FACE;
    baryFeature = 0;
  } else if (zeros === 1) {
    baryKind = KIND_EDGE;
    // lambda_2 ~ 0: edge 0 (c0-c1); lambda_0 ~ 0: edge 1 (c1-c2); lambda_1 ~ 0: edge 2 (c2-c0).
    baryFeature = z2 ? 0 : z0 ? 1 : 2;
  } else {
    baryKind = KIND_VERTEX;
    baryFeature = !z0 ? 0 : !z1 ? 1 : 2;
  }
}

/** True for the shapes collideConvexTrianglesInto accepts as the mesh side. */
export function isTriangleShape(s: Shape): s is Shape & TriangleSource {
  return s.type === ShapeType.Mesh || s.type === ShapeType.Heightfield;
}

const childPose = new Pose();

/**
 * Collides a pair in which at least one shape is a TriangleMesh or Heightfield: convex vs mesh (either
 * order) and compound children vs mesh, within the speculative margin out.margin (the narrow phase's
 * per-pair path: no boxed double). Mesh-mesh (and mesh-heightfield) pairs go to meshMesh.ts instead.
 */
export function collideWithTrianglesInto(a: Shape, pa: Pose, b: Shape, pb: Pose, out: ManifoldBuffer): void {
  const aTri = isTriangleShape(a),
    bTri = isTriangleShape(b);
  if (aTri === bTri) return; // both triangle shapes (or neither): nothing to do here
  const mesh = (aTri ? a : b) as Shape & TriangleSource;
  const pm = aTri ? pa : pb;
  const other = aTri ? b : a;
  const po = aTri ? pb : pa;
  const convexIsA = !aTri;
  if (other.type === ShapeType.Compound) {
    const ch = (other as Compound).children;
    for (let i = 0; i < ch.length; i++) {
      const c = ch[i];
      const cp = c.pose;
      childPose.compose(po, cp.px, cp.py, cp.pz, cp.qx, cp.qy, cp.qz, cp.qw);
      collideConvexTrianglesInto(c.shape, childPose, i, mesh, pm, convexIsA, out);
    }
    return;
  }
  if (!(other instanceof ConvexShape)) return;
  collideConvexTrianglesInto(other, po, 0, mesh, pm, convexIsA, out);
}

// ---- continuous sweeps: meshes and heightfields as triangle pieces ------------------------------

const sweepTri = new TrianglePiece();
const sweepList = new IntList(64);

/** Feeds the triangles under a shape-local box to a sweep as convex pieces (one reused triangle shape). */
function enumerateTriangles(shape: Shape, minX: number, minY: number, minZ: number, maxX: number, maxY: number, maxZ: number, sink: SweepPieceSink): void {
  const mesh = shape as Shape & TriangleSource;
  sweepList.clear();
  mesh.queryAabb(minX, minY, minZ, maxX, maxY, maxZ, sweepList);
  for (let i = 0; i < sweepList.count; i++) {
    const t = sweepList.data[i];
    mesh.getTriangle(t, tv, 0);
    sweepTri.set(tv);
    sink.add(sweepTri, 0, 0, 0, 0, 0, 0, 1, mesh.triangleIndex(t));
  }
}
registerSweepPieceEnumerator(ShapeType.Mesh, enumerateTriangles);
registerSweepPieceEnumerator(ShapeType.Heightfield, enumerateTriangles);
