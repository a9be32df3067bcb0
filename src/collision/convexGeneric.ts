/**
 * Generic convex-convex contact generation: GJK (separated) or EPA (overlapping cores) gives the
 * normal and separation, then a full manifold is built from the two shapes' supporting features
 * along that normal (face polygon / segment / point), Sutherland-Hodgman clipping of the incident
 * feature against the reference feature's side planes, and reduction to four points. This is the
 * "one-shot manifold from support features" scheme (Gregorius, "Robust Contact Creation for Physics
 * Simulations", GDC 2015; Ericson, Real-Time Collision Detection, 8.3, for polygon clipping).
 *
 * Used for every pair involving a Cylinder or a ConvexHull. Allocation-free per call.
 */
import type { Pose } from "../math/pose";
import type { Box } from "../shapes/box";
import type { Capsule } from "../shapes/capsule";
import type { ConvexHull } from "../shapes/convexHull";
import type { Cylinder } from "../shapes/cylinder";
import type { ConvexShape } from "../shapes/shape";
import { ShapeType } from "../shapes/shapeType";
import type { ContactManifold } from "./contactManifold";
import { EpaResult, epaPenetration } from "./epa";
import { CYLINDER_CAP, CYLINDER_RIM, CYLINDER_SIDE, ClipPolygon, FEATURE_SIN_TOL, HullFeature, MAX_FEATURE_VERTICES, clipPlane, cylinderFeatureKind, hullSupportFeature, selectFourContacts, selectNormal, setSidePlane, sideEdge } from "./featureClip";
import { GjkResult, gjkDistanceFrom, supportCso } from "./gjk";
import { exactCos, exactSin } from "../math/exactMath";
import { triangleCross } from "../math/vec3";
import { rotateParts } from "../math/quat";

/** A triangle's normal and scale (triangleCross). */
const CROSS = new Float64Array(4);

/** A feature is taken as aligned with the normal within asin(0.05) ~ 2.9 degrees. */
const SIN_TOL = FEATURE_SIN_TOL;
/** Vertices of the polygon standing in for a cylinder cap (on the true circle, so never outside it). */
export const CAP_N = 8;
export const CAP_COS = new Float64Array(CAP_N);
export const CAP_SIN = new Float64Array(CAP_N);
for (let k = 0; k < CAP_N; k++) {
  // The engine's own cos/sin (the same cap polygon, to the bit, in every JavaScript engine).
  CAP_COS[k] = exactCos((2 * Math.PI * k) / CAP_N);
  CAP_SIN[k] = exactSin((2 * Math.PI * k) / CAP_N);
}
/** Box face corners in (b, c) coordinates, counter-clockwise about +axis and about -axis. */
const FACE_POS_B = [-1, 1, 1, -1];
const FACE_POS_C = [-1, -1, 1, 1];
const FACE_NEG_B = [-1, -1, 1, 1];
const FACE_NEG_C = [-1, 1, 1, -1];

/** Clip tolerance (metres): incident points this close to a side plane count as on it. */
const CLIP_EPS = 1e-7;
/** Depths within this (metres) count as equal when picking the deepest contact, so ties are stable. */
const DEPTH_TIE = 1e-4;
/** Feature-id code of the single witness contact. */
const WITNESS_CODE = 0x3fff;

/** Most vertices of a feature polygon (larger hull faces are subsampled: an inscribed polygon). */
const MAX_FV = MAX_FEATURE_VERTICES;
const MAX_CLIP = 2 * MAX_FV + 4;

/** A supporting feature in world space: 1 point, 2 (segment) or >= 3 (convex polygon, CCW about fn). */
class Feature {
  n = 0;
  code = 0;
  readonly x = new Float64Array(MAX_FV);
  readonly y = new Float64Array(MAX_FV);
  readonly z = new Float64Array(MAX_FV);
  /** Outward face normal (world) when n >= 3. */
  fnx = 0;
  fny = 0;
  fnz = 0;
  /**
   * A cylinder cap polygon farther than SIN_TOL from the direction (cylinderFeatureKind): it may only be the
   * incident feature, clipped against the other shape's face; it is never the reference (its normal is not the
   * contact normal) and is taken back for the rim point against a point or segment.
   */
  tilted = false;
}

const featA = new Feature();
const featB = new Feature();
const gjk = new GjkResult();
const epa = new EpaResult();
const csoW = new Float64Array(3);
const csoA = new Float64Array(3);
const csoB = new Float64Array(3);
const hv = new Float64Array(3);

// Doubles crossing calls travel in these arrays (docs/design.md).
/** Local point (or direction) for emit / faceNormal. */
const lv = new Float64Array(3);
/** lv turned to world (emit, faceNormal). */
const wv = new Float64Array(3);
/** World direction for computeFeature (negated for B). */
const featDir = new Float64Array(3);
/** The speculative margin, for the per-shape feature functions (cylinderFeatureKind). */
const featMargin = new Float64Array(1);
/** That direction in the shape's local frame, for the per-shape feature functions. */
const featLocal = new Float64Array(3);
/** GJK start: no warm-start direction, and the distance beyond which contacts are not needed. */
const gjkStart = new Float64Array(4);
/** Core radius and maximum radius of A ([0], [1]) and of B ([2], [3]). */
const radii = new Float64Array(4);
/**
 * The last {@link collideConvexGeneric} call's separating axis (x, y, z: unit, from A toward B) when GJK proved
 * the shapes farther apart than the margin, with [3] = 1 and [4] the gap between the shapes along it (a lower
 * bound of their distance); [3] = 0 otherwise (SeparatingAxisCache keeps it).
 */
export const separatingAxis = new Float64Array(5);
/** Probe direction of fallbackPenetration. */
const probeDir = new Float64Array(3);
/** Output of polygonArea. */
const areaOut = new Float64Array(1);
/** Offset applied by offsetFeature. */
const offsetBy = new Float64Array(3);

// Clipping buffers and contact candidates.
const clipPoly = new ClipPolygon(MAX_CLIP);
/** Hull feature scratch. */
const hullFeat = new HullFeature();

const candX = new Float64Array(MAX_CLIP + 1);
const candY = new Float64Array(MAX_CLIP + 1);
const candZ = new Float64Array(MAX_CLIP + 1);
const candD = new Float64Array(MAX_CLIP + 1);
const candId = new Int32Array(MAX_CLIP + 1);
let candN = 0;
const chosen = new Int32Array(4);

// ---- features ------------------------------------------------------------------------------------

/** Appends local point lv of the shape at pose p to f, in world space. */
function emit(f: Feature, p: Pose): void {
  p.pointToWorld(lv[0], lv[1], lv[2], wv, 0);
  const i = f.n++;
  f.x[i] = wv[0];
  f.y[i] = wv[1];
  f.z[i] = wv[2];
}

/**
 * Sets f's outward face normal from local direction lv: rotateParts's arithmetic written out, since the features
 * inline this and then ran out of inlining budget for rotateParts, whose seven double arguments were boxed (112 B
 * per cap polygon or hull face: pile-1000's 0.5 MB per 1000 steps).
 */
function faceNormal(f: Feature, p: Pose): void {
  const qx = p.qx,
    qy = p.qy,
    qz = p.qz,
    qw = p.qw,
    vx = lv[0],
    vy = lv[1],
    vz = lv[2];
  const tx = 2 * (qy * vz - qz * vy),
    ty = 2 * (qz * vx - qx * vz),
    tz = 2 * (qx * vy - qy * vx);
  f.fnx = vx + qw * tx + (qy * tz - qz * ty);
  f.fny = vy + qw * ty + (qz * tx - qx * tz);
  f.fnz = vz + qw * tz + (qx * ty - qy * tx);
}

/** Box feature along local direction featLocal. */
function boxFeature(s: Box, p: Pose, f: Feature): void {
  const lx = featLocal[0],
    ly = featLocal[1],
    lz = featLocal[2];
  hv[0] = s.halfX;
  hv[1] = s.halfY;
  hv[2] = s.halfZ;
  const sx = lx >= 0 ? 1 : -1,
    sy = ly >= 0 ? 1 : -1,
    sz = lz >= 0 ? 1 : -1;
  const zx = (lx < 0 ? -lx : lx) < SIN_TOL,
    zy = (ly < 0 ? -ly : ly) < SIN_TOL,
    zz = (lz < 0 ? -lz : lz) < SIN_TOL;
  const zeros = (zx ? 1 : 0) + (zy ? 1 : 0) + (zz ? 1 : 0);
  if (zeros >= 2) {
    // Face: the one non-negligible axis.
    const a = !zx ? 0 : !zy ? 1 : 2;
    const sgn = a === 0 ? sx : a === 1 ? sy : sz;
    const b = a === 2 ? 0 : a + 1;
    const c = b === 2 ? 0 : b + 1;
    const tb = sgn > 0 ? FACE_POS_B : FACE_NEG_B;
    const tc = sgn > 0 ? FACE_POS_C : FACE_NEG_C;
    for (let k = 0; k < 4; k++) {
      lv[a] = sgn * hv[a];
      lv[b] = tb[k] * hv[b];
      lv[c] = tc[k] * hv[c];
      emit(f, p);
    }
    lv[0] = lv[1] = lv[2] = 0;
    lv[a] = sgn;
    faceNormal(f, p);
    f.code = a * 2 + (sgn > 0 ? 1 : 0);
  } else if (zeros === 1) {
    // Edge along the negligible axis.
    const a = zx ? 0 : zy ? 1 : 2;
    lv[0] = sx * hv[0];
    lv[1] = sy * hv[1];
    lv[2] = sz * hv[2];
    lv[a] = -hv[a];
    emit(f, p);
    lv[a] = hv[a];
    emit(f, p);
    const b = a === 2 ? 0 : a + 1;
    const c = b === 2 ? 0 : b + 1;
    const sb = b === 0 ? sx : b === 1 ? sy : sz;
    const sc = c === 0 ? sx : c === 1 ? sy : sz;
    f.code = 6 + a * 4 + (sb > 0 ? 2 : 0) + (sc > 0 ? 1 : 0);
  } else {
    lv[0] = sx * hv[0];
    lv[1] = sy * hv[1];
    lv[2] = sz * hv[2];
    emit(f, p);
    f.code = 18 + (sx > 0 ? 4 : 0) + (sy > 0 ? 2 : 0) + (sz > 0 ? 1 : 0);
  }
}

/** False while a feature is recomputed without the tilted cap (see Feature.tilted). */
let tiltedCapAllowed = true;

/**
 * Cylinder feature along local direction featLocal, by the rule the mesh pairs share (cylinderFeatureKind): a
 * tilted coin landing on a box gets its cap polygon, each cap point within the margin a contact, where the rim point
 * alone stopped the near rim and spun the far rim 1.07 cm into the floor within the step.
 */
function cylinderFeature(s: Cylinder, p: Pose, f: Feature): void {
  const lx = featLocal[0],
    ly = featLocal[1],
    lz = featLocal[2];
  const r = s.radius,
    h = s.halfHeight;
  const l = Math.sqrt(lx * lx + lz * lz);
  const ay = ly < 0 ? -ly : ly;
  let kind = cylinderFeatureKind(l, ay, r, featMargin[0]);
  if (kind === CYLINDER_CAP && l >= SIN_TOL) {
    if (tiltedCapAllowed) f.tilted = true;
    else kind = ay < SIN_TOL ? CYLINDER_SIDE : CYLINDER_RIM;
  }
  if (kind === CYLINDER_CAP) {
    // Cap polygon, counter-clockwise about its outward normal (+Y: x = sin, z = cos; -Y mirrored).
    const top = ly > 0;
    const y = top ? h : -h;
    const xs = top ? r : -r;
    for (let k = 0; k < CAP_N; k++) {
      lv[0] = xs * CAP_SIN[k];
      lv[1] = y;
      lv[2] = r * CAP_COS[k];
      emit(f, p);
    }
    lv[0] = 0;
    lv[1] = top ? 1 : -1;
    lv[2] = 0;
    faceNormal(f, p);
    f.code = top ? 1 : 2;
  } else if (kind === CYLINDER_SIDE) {
    // Side line.
    const ux = (r * lx) / l,
      uz = (r * lz) / l;
    lv[0] = ux;
    lv[1] = -h;
    lv[2] = uz;
    emit(f, p);
    lv[1] = h;
    emit(f, p);
    f.code = 3;
  } else {
    // Rim point.
    lv[0] = (r * lx) / l;
    lv[1] = ly > 0 ? h : -h;
    lv[2] = (r * lz) / l;
    emit(f, p);
    f.code = ly > 0 ? 4 : 5;
  }
}

/** Capsule feature along local direction featLocal. */
function capsuleFeature(s: Capsule, p: Pose, f: Feature): void {
  const ly = featLocal[1];
  const hl = s.halfLength;
  lv[0] = 0;
  lv[2] = 0;
  if (hl > 0 && (ly < 0 ? -ly : ly) < SIN_TOL) {
    lv[1] = -hl;
    emit(f, p);
    lv[1] = hl;
    emit(f, p);
    f.code = 1;
  } else {
    lv[1] = ly >= 0 ? hl : -hl;
    emit(f, p);
    f.code = ly >= 0 ? 2 : 3;
  }
}

/**
 * Hull feature along local unit direction featLocal (see hullSupportFeature). Codes: faces 0..63, edges
 * 64..127, vertices 128..191 (indices mod 64).
 */
function hullFeature(s: ConvexHull, p: Pose, f: Feature): void {
  const vs = s.vertices;
  hullSupportFeature(s, featLocal, s.supportIndexOf(featLocal, 0), hullFeat);
  const verts = hullFeat.verts;
  for (let k = 0; k < hullFeat.n; k++) {
    const w = verts[k];
    lv[0] = vs[3 * w];
    lv[1] = vs[3 * w + 1];
    lv[2] = vs[3 * w + 2];
    emit(f, p);
  }
  const bf = hullFeat.face;
  if (bf >= 0) {
    const fn = s.faceNormals;
    lv[0] = fn[3 * bf];
    lv[1] = fn[3 * bf + 1];
    lv[2] = fn[3 * bf + 2];
    faceNormal(f, p);
  }
  f.code = hullFeat.code;
}

/**
 * Supporting feature of `s`'s core at pose p along world unit direction featDir (negated when `negate`).
 * The caller reads `type` (= s.type): a load of `s.type` here would make TurboFan infer s's maps from its map
 * check, so the inlined per-shape function would read e.g. `halfLength` polymorphically over every shape
 * class, merge it with `undefined` and box it (one heap number per call).
 */
function computeFeature(s: ConvexShape, type: ShapeType, p: Pose, negate: boolean, f: Feature): void {
  const dx = negate ? -featDir[0] : featDir[0],
    dy = negate ? -featDir[1] : featDir[1],
    dz = negate ? -featDir[2] : featDir[2];
  f.n = 0;
  f.code = 0;
  f.tilted = false;
  // Direction into the local frame (conjugate rotation).
  rotateParts(-p.qx, -p.qy, -p.qz, p.qw, dx, dy, dz, featLocal, 0);
  switch (type) {
    case ShapeType.Box:
      boxFeature(s as Box, p, f);
      return;
    case ShapeType.Cylinder:
      cylinderFeature(s as Cylinder, p, f);
      return;
    case ShapeType.Capsule:
      capsuleFeature(s as Capsule, p, f);
      return;
    case ShapeType.Sphere:
      lv[0] = lv[1] = lv[2] = 0;
      emit(f, p);
      return;
    case ShapeType.ConvexHull:
      hullFeature(s as ConvexHull, p, f);
      return;
    default: {
      // Unknown convex shape: its support point only (single witness contact).
      s.supportCoreInto(featLocal, lv);
      emit(f, p);
    }
  }
}

/**
 * Area of a polygon feature (n >= 3), from the cross products of its vertices about its face normal;
 * into areaOut[0].
 */
function polygonArea(f: Feature): void {
  let sx = 0,
    sy = 0,
    sz = 0;
  const n = f.n;
  for (let i = 0; i < n; i++) {
    const j = i + 1 === n ? 0 : i + 1;
    const ax = f.x[i] - f.x[0],
      ay = f.y[i] - f.y[0],
      az = f.z[i] - f.z[0];
    const bx = f.x[j] - f.x[0],
      by = f.y[j] - f.y[0],
      bz = f.z[j] - f.z[0];
    sx += ay * bz - az * by;
    sy += az * bx - ax * bz;
    sz += ax * by - ay * bx;
  }
  areaOut[0] = 0.5 * (sx * f.fnx + sy * f.fny + sz * f.fnz);
}

/** Moves every point of f by offsetBy. */
function offsetFeature(f: Feature): void {
  const ox = offsetBy[0],
    oy = offsetBy[1],
    oz = offsetBy[2];
  for (let i = 0; i < f.n; i++) {
    f.x[i] += ox;
    f.y[i] += oy;
    f.z[i] += oz;
  }
}

// ---- clipping ------------------------------------------------------------------------------------

/** Clip ids: CLIP_BASE | (label & CLIP_LABEL_MASK) << CLIP_LABEL_SHIFT | plane; side-plane edges are labelled CLIP_EDGE_LABEL + j. */
const CLIP_BASE = 0x2000,
  CLIP_LABEL_SHIFT = 6,
  CLIP_LABEL_MASK = 127,
  CLIP_EDGE_LABEL = 64;

/** Feature-id code of a point where incident edge/plane `label` crosses reference side plane `plane`. */
function clipCode(label: number, plane: number): number {
  return CLIP_BASE | ((label & CLIP_LABEL_MASK) << CLIP_LABEL_SHIFT) | (plane & 63);
}

/**
 * Side plane j of the reference polygon (edge j x face normal, outward, unit) into clipPlane[0..3];
 * false for a degenerate edge.
 */
function refSidePlane(ref: Feature, j: number): boolean {
  const j1 = j + 1 === ref.n ? 0 : j + 1;
  const e = sideEdge;
  e[0] = ref.x[j];
  e[1] = ref.y[j];
  e[2] = ref.z[j];
  e[3] = ref.x[j1];
  e[4] = ref.y[j1];
  e[5] = ref.z[j1];
  e[6] = ref.fnx;
  e[7] = ref.fny;
  e[8] = ref.fnz;
  return setSidePlane();
}

/**
 * Clips the incident polygon against the side planes of the reference polygon (Sutherland-Hodgman),
 * tracking for each output vertex an id (incident vertex, or incident edge x reference plane) and a
 * label for its outgoing edge, so points keep their ids while the contact rests.
 */
function clipPolygon(ref: Feature, inc: Feature): void {
  const cp = clipPoly;
  cp.n = inc.n;
  for (let i = 0; i < inc.n; i++) {
    cp.x[i] = inc.x[i];
    cp.y[i] = inc.y[i];
    cp.z[i] = inc.z[i];
    cp.id[i] = i;
    cp.lab[i] = i;
  }
  const m = ref.n;
  clipPlane[4] = CLIP_EPS;
  for (let j = 0; j < m && cp.n > 0; j++) {
    if (!refSidePlane(ref, j)) continue;
    // Crossing ids as clipCode(label, j).
    cp.clip(j & 63, CLIP_BASE, CLIP_LABEL_SHIFT, CLIP_LABEL_MASK, CLIP_EDGE_LABEL);
  }
}

/** Clips incident segment (2 points) against the reference polygon's side planes (Cyrus-Beck). */
function clipSegment(ref: Feature, inc: Feature): void {
  const cp = clipPoly;
  for (let i = 0; i < 2; i++) {
    cp.x[i] = inc.x[i];
    cp.y[i] = inc.y[i];
    cp.z[i] = inc.z[i];
    cp.id[i] = i;
  }
  cp.n = 2;
  cp.beginSegment();
  clipPlane[4] = CLIP_EPS;
  const m = ref.n;
  for (let j = 0; j < m; j++) {
    if (!refSidePlane(ref, j)) continue;
    // End ids as clipCode(end, j).
    if (!cp.clipSegment(j & 63, CLIP_BASE, CLIP_LABEL_SHIFT)) return;
  }
  cp.endSegment();
}

/**
 * Turns the clipped incident points into candidates: depth against the reference plane (point r0 =
 * ref's first vertex, outward unit normal f of the reference shape) and the midpoint position
 * p + f * depth / 2.
 */
function addClippedCandidates(ref: Feature, idBase: number): void {
  const r0x = ref.x[0],
    r0y = ref.y[0],
    r0z = ref.z[0];
  const fx = ref.fnx,
    fy = ref.fny,
    fz = ref.fnz;
  const ix = clipPoly.x,
    iy = clipPoly.y,
    iz = clipPoly.z,
    iid = clipPoly.id;
  for (let i = 0; i < clipPoly.n; i++) {
    const d = (r0x - ix[i]) * fx + (r0y - iy[i]) * fy + (r0z - iz[i]) * fz;
    const h = 0.5 * d;
    const k = candN++;
    candX[k] = ix[i] + fx * h;
    candY[k] = iy[i] + fy * h;
    candZ[k] = iz[i] + fz * h;
    candD[k] = d;
    candId[k] = idBase | iid[i];
  }
}

// ---- reduction -----------------------------------------------------------------------------------

/** Reduces the candidates to four (featureClip's selectFourContacts, with the one-sided fill) and writes them. */
function reduceAndWrite(out: ContactManifold): void {
  // The caller has set the normal on `out` (doubles in arrays, docs/design.md).
  selectNormal[0] = out.normalX;
  selectNormal[1] = out.normalY;
  selectNormal[2] = out.normalZ;
  const count = selectFourContacts(candX, candY, candZ, candD, candN, true, chosen);
  // Written in place rather than through ContactManifold.add (doubles in arrays, docs/design.md).
  for (let k = 0; k < count; k++) {
    const i = chosen[k];
    out.positionX[k] = candX[i];
    out.positionY[k] = candY[i];
    out.positionZ[k] = candZ[i];
    out.depth[k] = candD[i];
    out.featureId[k] = candId[i];
  }
  out.count = count;
}

// ---- main entry ----------------------------------------------------------------------------------

/** Smallest CSO support height over a few directions, for degenerate (flat) CSOs where EPA cannot run. */
function fallbackPenetration(a: ConvexShape, pa: Pose, b: ConvexShape, pb: Pose): void {
  let bestH = Infinity;
  for (let k = 0; k < 8; k++) {
    let dx = 0, dy = 0, dz = 0;
    if (k < 6) {
      const ax = k >> 1,
        s = (k & 1) === 0 ? 1 : -1;
      dx = ax === 0 ? s : 0;
      dy = ax === 1 ? s : 0;
      dz = ax === 2 ? s : 0;
    } else if (k === 6) {
      dx = pb.px - pa.px;
      dy = pb.py - pa.py;
      dz = pb.pz - pa.pz;
    } else {
      // Normal of GJK's final triangle (if any): the flat CSO's own normal.
      if (gjk.simplexCount !== 3) continue;
      const N = CROSS;
      triangleCross(gjk.simplexW, 0, 3, 6, N, 0);
      dx = N[0];
      dy = N[1];
      dz = N[2];
    }
    const l = Math.sqrt(dx * dx + dy * dy + dz * dz);
    if (!(l > 1e-12)) continue;
    dx /= l;
    dy /= l;
    dz /= l;
    for (let s = 0; s < 2; s++) {
      if (s === 1) {
        if (k < 6) break; // axes already come in both signs
        dx = -dx;
        dy = -dy;
        dz = -dz;
      }
      probeDir[0] = dx;
      probeDir[1] = dy;
      probeDir[2] = dz;
      supportCso(a, pa, b, pb, probeDir, csoW, csoA, csoB, 0);
      const h = csoW[0] * dx + csoW[1] * dy + csoW[2] * dz;
      if (h < bestH) {
        bestH = h;
        epa.depth = h > 0 ? h : 0;
        epa.nx = dx;
        epa.ny = dy;
        epa.nz = dz;
        epa.ax = csoA[0];
        epa.ay = csoA[1];
        epa.az = csoA[2];
        epa.bx = csoB[0];
        epa.by = csoB[1];
        epa.bz = csoB[2];
      }
    }
  }
  if (bestH === Infinity) {
    epa.depth = 0;
    epa.nx = 0;
    epa.ny = 1;
    epa.nz = 0;
    epa.ax = epa.bx = pa.px;
    epa.ay = epa.by = pa.py;
    epa.az = epa.bz = pa.pz;
  }
}

/**
 * Contacts between two convex shapes at poses pa and pb, written into `out` (normal from A toward B,
 * midpoint positions, depth > 0 penetrating, speculative contacts down to -speculativeMargin, up to four
 * contacts with stable feature ids). Leaves `out.count = 0` when the shapes are farther apart than the margin.
 *
 * Feature id layout: bits 24..31 A's feature code, 16..23 B's, bit 14 set when B is the reference, low
 * 14 bits the clip-point code (incident vertex index, or incident edge x reference side plane).
 */
export function collideConvexGeneric(a: ConvexShape, pa: Pose, b: ConvexShape, pb: Pose, speculativeMargin: number | undefined, out: ContactManifold): void {
  // Called by the dispatch without a margin (see ContactManifold.margin): then it is in the manifold.
  if (speculativeMargin !== undefined) out.margin = speculativeMargin;
  collideConvexGenericInto(a, pa, b, pb, out);
}

/** {@link collideConvexGeneric} with the margin in out.margin (docs/design.md, doubles). */
function collideConvexGenericInto(a: ConvexShape, pa: Pose, b: ConvexShape, pb: Pose, out: ContactManifold): void {
  const margin = out.margin;
  out.count = 0;
  separatingAxis[3] = 0;
  a.radiiInto(radii, 0);
  b.radiiInto(radii, 2);
  const rA = radii[0],
    rB = radii[2];
  let nx = 0, ny = 0, nz = 0, sep = 0;
  let wax = 0, way = 0, waz = 0, wbx = 0, wby = 0, wbz = 0;
  gjkStart[0] = gjkStart[1] = gjkStart[2] = 0;
  gjkStart[3] = margin + rA + rB;
  if (gjkDistanceFrom(a, pa, b, pb, gjk, gjkStart)) {
    if (!gjk.exact || gjk.distance - rA - rB > margin) {
      separatingAxis[0] = gjk.nx;
      separatingAxis[1] = gjk.ny;
      separatingAxis[2] = gjk.nz;
      separatingAxis[3] = 1;
      separatingAxis[4] = gjk.distance - rA - rB;
      return;
    }
    sep = gjk.distance - rA - rB;
    nx = gjk.nx;
    ny = gjk.ny;
    nz = gjk.nz;
    wax = gjk.ax;
    way = gjk.ay;
    waz = gjk.az;
    wbx = gjk.bx;
    wby = gjk.by;
    wbz = gjk.bz;
  } else {
    if (!epaPenetration(a, pa, b, pb, gjk, epa)) fallbackPenetration(a, pa, b, pb);
    sep = -epa.depth - rA - rB;
    nx = epa.nx;
    ny = epa.ny;
    nz = epa.nz;
    wax = epa.ax;
    way = epa.ay;
    waz = epa.az;
    wbx = epa.bx;
    wby = epa.by;
    wbz = epa.bz;
  }
  // Core witness points moved onto the rounded surfaces.
  wax += nx * rA;
  way += ny * rA;
  waz += nz * rA;
  wbx -= nx * rB;
  wby -= ny * rB;
  wbz -= nz * rB;

  featDir[0] = nx;
  featDir[1] = ny;
  featDir[2] = nz;
  featMargin[0] = margin;
  computeFeature(a, a.type, pa, false, featA);
  computeFeature(b, b.type, pb, true, featB);
  // A tilted cap is clipped against the other shape's face only: against a point, a segment or another tilted cap
  // the cylinder takes its rim point (or side line) as before.
  if (featA.tilted && (featB.n < 3 || featB.tilted)) {
    tiltedCapAllowed = false;
    computeFeature(a, a.type, pa, false, featA);
    tiltedCapAllowed = true;
  }
  if (featB.tilted && featA.n < 3) {
    tiltedCapAllowed = false;
    computeFeature(b, b.type, pb, true, featB);
    tiltedCapAllowed = true;
  }
  const idBase = ((featA.code & 0xff) << 24) | ((featB.code & 0xff) << 16);
  candN = 0;
  let snapped = false,
    refIsA = true;
  const nA = featA.n,
    nB = featB.n;
  if (nA >= 2 && nB >= 2) {
    if (nA >= 3 || nB >= 3) {
      // Reference = the polygon whose face normal is closest to the contact normal (A on ties, for
      // stability); the contact normal snaps to that face normal so resting contacts are exact. Two
      // polygons are both within the face tolerance of the normal, so nearly parallel: then, as in
      // boxBox, the larger face is the reference, so a resting body's tiny tilts do not flip the choice
      // (and the feature ids) from step to step.
      if (featA.tilted || featB.tilted) {
        // The tilted cap is incident (the other feature is a face: see above).
        refIsA = !featA.tilted;
      } else if (nA >= 3 && nB >= 3) {
        polygonArea(featA);
        const areaA = areaOut[0];
        polygonArea(featB);
        refIsA = areaA * (1 + 1e-6) >= areaOut[0];
      } else {
        refIsA = nA >= 3;
      }
      snapped = true;
      const ref = refIsA ? featA : featB;
      const inc = refIsA ? featB : featA;
      if (refIsA) {
        nx = featA.fnx;
        ny = featA.fny;
        nz = featA.fnz;
      } else {
        nx = -featB.fnx;
        ny = -featB.fny;
        nz = -featB.fnz;
      }
      if (rA > 0) {
        offsetBy[0] = nx * rA;
        offsetBy[1] = ny * rA;
        offsetBy[2] = nz * rA;
        offsetFeature(featA);
      }
      if (rB > 0) {
        offsetBy[0] = -nx * rB;
        offsetBy[1] = -ny * rB;
        offsetBy[2] = -nz * rB;
        offsetFeature(featB);
      }
      if (inc.n === 2) clipSegment(ref, inc);
      else clipPolygon(ref, inc);
      addClippedCandidates(ref, idBase | (refIsA ? 0 : 0x4000));
    } else {
      // Two segments: a line contact only when they are parallel; else the witness point suffices.
      const ax = featA.x[1] - featA.x[0],
        ay = featA.y[1] - featA.y[0],
        az = featA.z[1] - featA.z[0];
      const bx = featB.x[1] - featB.x[0],
        by = featB.y[1] - featB.y[0],
        bz = featB.z[1] - featB.z[0];
      const la = Math.sqrt(ax * ax + ay * ay + az * az),
        lb = Math.sqrt(bx * bx + by * by + bz * bz);
      const cx = ay * bz - az * by,
        cy = az * bx - ax * bz,
        cz = ax * by - ay * bx;
      if (la > 0 && lb > 0 && Math.sqrt(cx * cx + cy * cy + cz * cz) < SIN_TOL * la * lb) {
        const ux = ax / la,
          uy = ay / la,
          uz = az / la;
        // The normal of a line contact is perpendicular to the lines: remove EPA's residual tilt
        // (its tolerance on curved sides).
        const nu = nx * ux + ny * uy + nz * uz;
        const px = nx - nu * ux,
          py = ny - nu * uy,
          pz = nz - nu * uz;
        const pl = Math.sqrt(px * px + py * py + pz * pz);
        if (pl > 0.5) {
          nx = px / pl;
          ny = py / pl;
          nz = pz / pl;
        }
        if (rA > 0) {
          offsetBy[0] = nx * rA;
          offsetBy[1] = ny * rA;
          offsetBy[2] = nz * rA;
          offsetFeature(featA);
        }
        if (rB > 0) {
          offsetBy[0] = -nx * rB;
          offsetBy[1] = -ny * rB;
          offsetBy[2] = -nz * rB;
          offsetFeature(featB);
        }
        // Clip B's segment to A's extent along A's direction.
        const sMin = ux * featA.x[0] + uy * featA.y[0] + uz * featA.z[0];
        const sMax = sMin + la;
        const s0 = ux * featB.x[0] + uy * featB.y[0] + uz * featB.z[0];
        const s1 = ux * featB.x[1] + uy * featB.y[1] + uz * featB.z[1];
        const ds = s1 - s0;
        let t0 = 0,
          t1 = 1,
          id0 = 0,
          id1 = 1;
        if (ds > 1e-12 || ds < -1e-12) {
          let ta = (sMin - s0) / ds,
            tb = (sMax - s0) / ds;
          let pa0 = 0,
            pb0 = 1;
          if (ta > tb) {
            const t = ta;
            ta = tb;
            tb = t;
            pa0 = 1;
            pb0 = 0;
          }
          if (ta > t0) {
            t0 = ta;
            id0 = clipCode(0, pa0);
          }
          if (tb < t1) {
            t1 = tb;
            id1 = clipCode(1, pb0);
          }
        }
        if (t0 <= t1) {
          for (let k = 0; k < 2; k++) {
            const t = k === 0 ? t0 : t1;
            const px = featB.x[0] + t * bx,
              py = featB.y[0] + t * by,
              pz = featB.z[0] + t * bz;
            const d = (featA.x[0] - px) * nx + (featA.y[0] - py) * ny + (featA.z[0] - pz) * nz;
            const i = candN++;
            candX[i] = px + nx * 0.5 * d;
            candY[i] = py + ny * 0.5 * d;
            candZ[i] = pz + nz * 0.5 * d;
            candD[i] = d;
            candId[i] = idBase | (k === 0 ? id0 : id1);
            if (t1 - t0 < 1e-9) break;
          }
        }
      }
    }
  }
  // Drop candidates beyond the margin (keep the array packed).
  let m = 0;
  let maxD = -Infinity;
  for (let i = 0; i < candN; i++) {
    if (candD[i] >= -margin) {
      candX[m] = candX[i];
      candY[m] = candY[i];
      candZ[m] = candZ[i];
      candD[m] = candD[i];
      candId[m] = candId[i];
      if (candD[i] > maxD) maxD = candD[i];
      m++;
    }
  }
  candN = m;
  // The GJK/EPA witness is the true deepest point: use it when the feature contacts miss it (a point
  // feature, non-parallel segments, or a curved rim deeper than the inscribed cap polygon).
  const wDepth = -sep;
  if ((candN === 0 || wDepth > maxD + DEPTH_TIE) && wDepth >= -margin) {
    const i = candN++;
    candId[i] = idBase | WITNESS_CODE;
    if (m === 0) {
      // Witness alone: it defines the normal too.
      nx = gjk.separated ? gjk.nx : epa.nx;
      ny = gjk.separated ? gjk.ny : epa.ny;
      nz = gjk.separated ? gjk.nz : epa.nz;
      candX[i] = 0.5 * (wax + wbx);
      candY[i] = 0.5 * (way + wby);
      candZ[i] = 0.5 * (waz + wbz);
      candD[i] = wDepth;
    } else if (snapped) {
      // Next to face contacts the normal is the reference face's: treat the witness on the incident
      // shape like a clipped point, measured against the reference plane.
      const ref = refIsA ? featA : featB;
      const px = refIsA ? wbx : wax,
        py = refIsA ? wby : way,
        pz = refIsA ? wbz : waz;
      const d = (ref.x[0] - px) * ref.fnx + (ref.y[0] - py) * ref.fny + (ref.z[0] - pz) * ref.fnz;
      candX[i] = px + ref.fnx * 0.5 * d;
      candY[i] = py + ref.fny * 0.5 * d;
      candZ[i] = pz + ref.fnz * 0.5 * d;
      candD[i] = d;
      if (d < -margin || d <= maxD) candN--;
    } else {
      // Parallel segments: the normal is perpendicular to both lines; measure the witness along it.
      const d = (wax - wbx) * nx + (way - wby) * ny + (waz - wbz) * nz;
      candX[i] = wbx + nx * 0.5 * d;
      candY[i] = wby + ny * 0.5 * d;
      candZ[i] = wbz + nz * 0.5 * d;
      candD[i] = d;
      if (d < -margin || d <= maxD) candN--;
    }
  }
  if (candN === 0) return;
  out.normalX = nx;
  out.normalY = ny;
  out.normalZ = nz;
  reduceAndWrite(out);
}
