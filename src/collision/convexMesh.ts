/**
 * Convex shapes against triangle meshes and heightfields.
 *
 * Per call: the convex's bounding box, expanded by the speculative margin, is taken into the mesh's
 * local frame and the triangles under it are gathered (BVH or grid cells). Each triangle is then
 * collided on its own, in a frame centred on the convex (precision on large terrains):
 *
 * 1. The side: triangles are two-sided; the side the convex's centre is on picks the face normal nS
 *    (a body below a ground mesh is pushed down).
 * 2. The normal: GJK (separated, speculative) or EPA (overlapping) between the convex and the triangle
 *    gives the closest features. When the triangle's witness lies on an edge or vertex that is not
 *    active from that side (flat and concave edges, precomputed like Jolt's active edges), or the normal
 *    is on the wrong side, the normal becomes nS. Triangles whose edges are all inactive from that side
 *    skip GJK: their normal is always nS.
 * 3. Contacts: with a face normal, the convex's supporting feature along -nS (a polygon, segment or
 *    point, found from a ring of perturbed support queries so every convex shape works) is clipped
 *    against the triangle's side planes, each point measured against the triangle's plane, and reduced
 *    to four. With an active edge or vertex normal, the witness pair gives one contact.
 * 4. Reduction across triangles (Terdiman / Jolt enhanced internal edge removal, bepu MeshReduction):
 *    face manifolds claim their triangle's vertices; edge and vertex manifolds whose feature is already
 *    claimed are redundant and dropped.
 *
 * One manifold per touching triangle; the mesh side's child index is the triangle index, so the world's
 * per-(childA, childB) manifolds persist per triangle. Allocation-free in steady state.
 */
import { IntList } from "../collections/intList";
import { Pose } from "../math/pose";
import type { Compound } from "../shapes/compound";
import { ConvexShape, type MutableVec3, type Shape } from "../shapes/shape";
import { ShapeType } from "../shapes/shapeType";
import { EDGE_BACK_SHIFT, EDGE_FRONT_SHIFT, type TriangleSource } from "../shapes/triangleSource";
import type { ContactManifold, ManifoldBuffer } from "./contactManifold";
import { EpaResult, epaPenetration } from "./epa";
import { GjkResult, gjkDistance } from "./gjk";
import { registerSweepPieceEnumerator, type SweepPieceSink } from "./sweep";

/** A triangle as a convex shape for GJK/EPA (internal; never registered as a public shape). */
class TriangleShape extends ConvexShape {
  readonly type = ShapeType.ConvexHull;
  readonly minimumRadius = 0;
  maximumRadius = 0;
  readonly v = new Float64Array(9);

  set(s: Float64Array): void {
    let r = 0;
    for (let i = 0; i < 9; i++) this.v[i] = s[i];
    for (let c = 0; c < 3; c++) {
      const x = s[3 * c],
        y = s[3 * c + 1],
        z = s[3 * c + 2];
      const d = x * x + y * y + z * z;
      if (d > r) r = d;
    }
    this.maximumRadius = Math.sqrt(r);
  }

  computeAabb(pose: Pose, out: Float64Array, o: number): void {
    const v = this.v;
    const qx = pose.qx,
      qy = pose.qy,
      qz = pose.qz,
      qw = pose.qw;
    out[o] = out[o + 1] = out[o + 2] = Infinity;
    out[o + 3] = out[o + 4] = out[o + 5] = -Infinity;
    for (let c = 0; c < 3; c++) {
      const x = v[3 * c],
        y = v[3 * c + 1],
        z = v[3 * c + 2];
      const tx = 2 * (qy * z - qz * y);
      const ty = 2 * (qz * x - qx * z);
      const tz = 2 * (qx * y - qy * x);
      const wx = pose.px + x + qw * tx + (qy * tz - qz * ty);
      const wy = pose.py + y + qw * ty + (qz * tx - qx * tz);
      const wz = pose.pz + z + qw * tz + (qx * ty - qy * tx);
      if (wx < out[o]) out[o] = wx;
      if (wy < out[o + 1]) out[o + 1] = wy;
      if (wz < out[o + 2]) out[o + 2] = wz;
      if (wx > out[o + 3]) out[o + 3] = wx;
      if (wy > out[o + 4]) out[o + 4] = wy;
      if (wz > out[o + 5]) out[o + 5] = wz;
    }
  }

  volume(): number {
    return 0;
  }

  unitInertia(out: Float64Array, o: number): void {
    for (let k = 0; k < 6; k++) out[o + k] = 0;
  }

  supportLocal(dx: number, dy: number, dz: number, out: MutableVec3): void {
    const v = this.v;
    const d0 = v[0] * dx + v[1] * dy + v[2] * dz,
      d1 = v[3] * dx + v[4] * dy + v[5] * dz,
      d2 = v[6] * dx + v[7] * dy + v[8] * dz;
    const k = d0 >= d1 ? (d0 >= d2 ? 0 : 2) : d1 >= d2 ? 1 : 2;
    out.x = v[3 * k];
    out.y = v[3 * k + 1];
    out.z = v[3 * k + 2];
  }
}

// ---- scratch -------------------------------------------------------------------------------------

const tri = new TriangleShape();
const IDENTITY = new Pose();
const relPose = new Pose(); // the convex in the shifted mesh frame (position 0)
const gjk = new GjkResult();
const epa = new EpaResult();
const triList = new IntList(64);
const tv = new Float64Array(9);
const aabb = new Float64Array(6);
const sup = { x: 0, y: 0, z: 0 };

/** Perturbation of the support direction (tan of ~2.9 degrees): faces this aligned count as faces. */
const PERTURB = 0.05;
/** A feature point belongs to the supporting face when it drops below the support plane by at most this slope. */
const FACE_SLOPE = 0.06;
const RING = 8;
const RING_COS = new Float64Array(RING);
const RING_SIN = new Float64Array(RING);
for (let k = 0; k < RING; k++) {
  // Module load only; offset by half a step so axis-aligned boxes never sit on a tie.
  RING_COS[k] = Math.cos(((k + 0.5) * 2 * Math.PI) / RING);
  RING_SIN[k] = Math.sin(((k + 0.5) * 2 * Math.PI) / RING);
}

// The convex's supporting feature along the last direction (shifted frame, core points).
const featX = new Float64Array(RING);
const featY = new Float64Array(RING);
const featZ = new Float64Array(RING);
const featId = new Int32Array(RING);
let featN = 0;
/** Support height of the convex core along the feature direction. */
let featH0 = 0;
let featDx = NaN,
  featDy = NaN,
  featDz = NaN;

// Clipping buffers.
const MAX_CLIP = 2 * RING + 8;
const c0x = new Float64Array(MAX_CLIP);
const c0y = new Float64Array(MAX_CLIP);
const c0z = new Float64Array(MAX_CLIP);
const c0id = new Int32Array(MAX_CLIP);
const c0lab = new Int32Array(MAX_CLIP);
const c1x = new Float64Array(MAX_CLIP);
const c1y = new Float64Array(MAX_CLIP);
const c1z = new Float64Array(MAX_CLIP);
const c1id = new Int32Array(MAX_CLIP);
const c1lab = new Int32Array(MAX_CLIP);
let clipN = 0;
let clipInOne = false;

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

// Mesh pose rotation and the shift, for writing world results.
let mqx = 0,
  mqy = 0,
  mqz = 0,
  mqw = 1,
  mpx = 0,
  mpy = 0,
  mpz = 0;
let sx0 = 0,
  sy0 = 0,
  sz0 = 0;
let wx = 0,
  wy = 0,
  wz = 0;

/** Rotates (x, y, z) by the mesh orientation into wx, wy, wz. */
function rotM(x: number, y: number, z: number): void {
  const tx = 2 * (mqy * z - mqz * y);
  const ty = 2 * (mqz * x - mqx * z);
  const tz = 2 * (mqx * y - mqy * x);
  wx = x + mqw * tx + (mqy * tz - mqz * ty);
  wy = y + mqw * ty + (mqz * tx - mqx * tz);
  wz = z + mqw * tz + (mqx * ty - mqy * tx);
}

/** Support of the convex core in the shifted frame (rotation relPose.q, position 0), into sup. */
function coreSupport(c: ConvexShape, dx: number, dy: number, dz: number): void {
  const qx = relPose.qx,
    qy = relPose.qy,
    qz = relPose.qz,
    qw = relPose.qw;
  // local = conj(q) d
  let tx = 2 * (-qy * dz + qz * dy);
  let ty = 2 * (-qz * dx + qx * dz);
  let tz = 2 * (-qx * dy + qy * dx);
  const lx = dx + qw * tx + (-qy * tz + qz * ty);
  const ly = dy + qw * ty + (-qz * tx + qx * tz);
  const lz = dz + qw * tz + (-qx * ty + qy * tx);
  c.supportCore(lx, ly, lz, sup);
  const vx = sup.x,
    vy = sup.y,
    vz = sup.z;
  tx = 2 * (qy * vz - qz * vy);
  ty = 2 * (qz * vx - qx * vz);
  tz = 2 * (qx * vy - qy * vx);
  sup.x = vx + qw * tx + (qy * tz - qz * ty);
  sup.y = vy + qw * ty + (qz * tx - qx * tz);
  sup.z = vz + qw * tz + (qx * ty - qy * tx);
}

/**
 * Supporting feature of the convex core along unit direction d (shifted frame): the support point and
 * the supports of a ring of directions tilted by PERTURB around d, deduplicated and kept when they lie
 * on (or within FACE_SLOPE of) the support plane. Cached per direction within a call.
 */
function convexFeature(c: ConvexShape, dx: number, dy: number, dz: number, size: number): void {
  if (dx === featDx && dy === featDy && dz === featDz) return;
  featDx = dx;
  featDy = dy;
  featDz = dz;
  // Tangent basis (deterministic in d).
  let ux: number, uy: number, uz: number;
  if (Math.abs(dx) < 0.57735) {
    // u = normalize(X x d) = (0, -dz, dy)
    const l = Math.sqrt(dy * dy + dz * dz);
    ux = 0;
    uy = -dz / l;
    uz = dy / l;
  } else {
    // u = normalize(Y x d) = (dz, 0, -dx)
    const l = Math.sqrt(dx * dx + dz * dz);
    ux = dz / l;
    uy = 0;
    uz = -dx / l;
  }
  const vx = dy * uz - dz * uy,
    vy = dz * ux - dx * uz,
    vz = dx * uy - dy * ux;
  coreSupport(c, dx, dy, dz);
  const s0x = sup.x,
    s0y = sup.y,
    s0z = sup.z;
  const h0 = s0x * dx + s0y * dy + s0z * dz;
  featH0 = h0;
  const dup2 = 1e-18 * (1 + size * size);
  featN = 0;
  for (let k = 0; k < RING; k++) {
    const cs = RING_COS[k] * PERTURB,
      sn = RING_SIN[k] * PERTURB;
    coreSupport(c, dx + cs * ux + sn * vx, dy + cs * uy + sn * vy, dz + cs * uz + sn * vz);
    const px = sup.x,
      py = sup.y,
      pz = sup.z;
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

// ---- clipping against the triangle's side planes -------------------------------------------------

/** Side plane e of the triangle tv (CCW about unit normal n): outward unit normal into pl, returns offset. */
const pl = new Float64Array(3);
function sidePlane(e: number, nx: number, ny: number, nz: number): number {
  const a = 3 * e,
    b = e === 2 ? 0 : 3 * (e + 1);
  const ex = tv[b] - tv[a],
    ey = tv[b + 1] - tv[a + 1],
    ez = tv[b + 2] - tv[a + 2];
  let sx = ey * nz - ez * ny,
    sy = ez * nx - ex * nz,
    sz = ex * ny - ey * nx;
  const l = Math.sqrt(sx * sx + sy * sy + sz * sz);
  sx /= l;
  sy /= l;
  sz /= l;
  pl[0] = sx;
  pl[1] = sy;
  pl[2] = sz;
  return sx * tv[a] + sy * tv[a + 1] + sz * tv[a + 2];
}

/** Clips the feature (offset by (ox, oy, oz)) against the triangle's three side planes (triangle normal n, CCW). */
function clipFeature(nx: number, ny: number, nz: number, ox: number, oy: number, oz: number, size: number): void {
  const eps = CLIP_EPS * (1 + size);
  clipInOne = false;
  clipN = featN;
  for (let i = 0; i < featN; i++) {
    c0x[i] = featX[i] + ox;
    c0y[i] = featY[i] + oy;
    c0z[i] = featZ[i] + oz;
    c0id[i] = featId[i];
    c0lab[i] = i;
  }
  if (featN === 1) {
    for (let e = 0; e < 3; e++) {
      const off = sidePlane(e, nx, ny, nz);
      if (pl[0] * c0x[0] + pl[1] * c0y[0] + pl[2] * c0z[0] - off > eps) {
        clipN = 0;
        return;
      }
    }
    return;
  }
  if (featN === 2) {
    const p0x = c0x[0],
      p0y = c0y[0],
      p0z = c0z[0];
    const dx = c0x[1] - p0x,
      dy = c0y[1] - p0y,
      dz = c0z[1] - p0z;
    let t0 = 0,
      t1 = 1,
      id0 = c0id[0],
      id1 = c0id[1];
    for (let e = 0; e < 3; e++) {
      const off = sidePlane(e, nx, ny, nz);
      const d0 = pl[0] * p0x + pl[1] * p0y + pl[2] * p0z - off;
      const d1 = d0 + pl[0] * dx + pl[1] * dy + pl[2] * dz;
      if (d0 > eps && d1 > eps) {
        clipN = 0;
        return;
      }
      if (d0 > eps) {
        const t = d0 / (d0 - d1);
        if (t > t0) {
          t0 = t;
          id0 = 0x100 | (0 << 3) | e;
        }
      } else if (d1 > eps) {
        const t = d0 / (d0 - d1);
        if (t < t1) {
          t1 = t;
          id1 = 0x100 | (1 << 3) | e;
        }
      }
    }
    if (t0 > t1) {
      clipN = 0;
      return;
    }
    c0x[0] = p0x + t0 * dx;
    c0y[0] = p0y + t0 * dy;
    c0z[0] = p0z + t0 * dz;
    c0id[0] = id0;
    c0x[1] = p0x + t1 * dx;
    c0y[1] = p0y + t1 * dy;
    c0z[1] = p0z + t1 * dz;
    c0id[1] = id1;
    clipN = t1 - t0 > 1e-9 ? 2 : 1;
    return;
  }
  // Sutherland-Hodgman; labels track the incident edge (or plane) each output edge runs along.
  for (let e = 0; e < 3 && clipN > 0; e++) {
    const off = sidePlane(e, nx, ny, nz);
    const sx = pl[0],
      sy = pl[1],
      sz = pl[2];
    const ix = clipInOne ? c1x : c0x,
      iy = clipInOne ? c1y : c0y,
      iz = clipInOne ? c1z : c0z,
      iid = clipInOne ? c1id : c0id,
      ilab = clipInOne ? c1lab : c0lab;
    const qx = clipInOne ? c0x : c1x,
      qy = clipInOne ? c0y : c1y,
      qz = clipInOne ? c0z : c1z,
      qid = clipInOne ? c0id : c1id,
      qlab = clipInOne ? c0lab : c1lab;
    let n = 0;
    let u = clipN - 1;
    let du = sx * ix[u] + sy * iy[u] + sz * iz[u] - off;
    for (let v = 0; v < clipN; v++) {
      const dv = sx * ix[v] + sy * iy[v] + sz * iz[v] - off;
      if (dv <= eps) {
        if (du > eps && dv < -eps && n < MAX_CLIP) {
          const t = du / (du - dv);
          qx[n] = ix[u] + t * (ix[v] - ix[u]);
          qy[n] = iy[u] + t * (iy[v] - iy[u]);
          qz[n] = iz[u] + t * (iz[v] - iz[u]);
          qid[n] = 0x100 | ((ilab[u] & 31) << 3) | e;
          qlab[n] = ilab[u];
          n++;
        }
        if (n < MAX_CLIP) {
          qx[n] = ix[v];
          qy[n] = iy[v];
          qz[n] = iz[v];
          qid[n] = iid[v];
          qlab[n] = ilab[v];
          n++;
        }
      } else if (du < -eps && n < MAX_CLIP) {
        const t = du / (du - dv);
        qx[n] = ix[u] + t * (ix[v] - ix[u]);
        qy[n] = iy[u] + t * (iy[v] - iy[u]);
        qz[n] = iz[u] + t * (iz[v] - iz[u]);
        qid[n] = 0x100 | ((ilab[u] & 31) << 3) | e;
        qlab[n] = 16 + e;
        n++;
      }
      u = v;
      du = dv;
    }
    clipN = n;
    clipInOne = !clipInOne;
  }
}

/** Picks up to four candidates (deepest, farthest from it, then the widest on either side). */
function reduce(nx: number, ny: number, nz: number): number {
  const n = candN;
  if (n <= 4) {
    for (let i = 0; i < n; i++) chosen[i] = i;
    return n;
  }
  let i0 = 0;
  for (let i = 1; i < n; i++) if (candD[i] > candD[i0] + 1e-4) i0 = i;
  let i1 = i0,
    best = -1;
  for (let i = 0; i < n; i++) {
    const dx = candX[i] - candX[i0],
      dy = candY[i] - candY[i0],
      dz = candZ[i] - candZ[i0];
    const d = dx * dx + dy * dy + dz * dz;
    if (d > best * (1 + 1e-6) + 1e-18) {
      best = d;
      i1 = i;
    }
  }
  const ex = candX[i1] - candX[i0],
    ey = candY[i1] - candY[i0],
    ez = candZ[i1] - candZ[i0];
  let i2 = -1,
    i3 = -1,
    aMax = 0,
    aMin = 0;
  const tie = 1e-6 * best;
  for (let i = 0; i < n; i++) {
    const px = candX[i] - candX[i0],
      py = candY[i] - candY[i0],
      pz = candZ[i] - candZ[i0];
    const s = (ey * pz - ez * py) * nx + (ez * px - ex * pz) * ny + (ex * py - ey * px) * nz;
    if (s > aMax + tie) {
      aMax = s;
      i2 = i;
    }
    if (s < aMin - tie) {
      aMin = s;
      i3 = i;
    }
  }
  let count = 0;
  chosen[count++] = i0;
  if (i1 !== i0) chosen[count++] = i1;
  if (i2 >= 0) chosen[count++] = i2;
  if (i3 >= 0) chosen[count++] = i3;
  return count;
}

// ---- main ----------------------------------------------------------------------------------------

function growMeta(n: number): void {
  if (n <= mKind.length) return;
  const cap = Math.max(n, 2 * mKind.length);
  const k = new Int8Array(cap);
  k.set(mKind);
  mKind = k;
  const a = new Int32Array(cap);
  a.set(mV0);
  mV0 = a;
  const b = new Int32Array(cap);
  b.set(mV1);
  mV1 = b;
}

/** Writes the candidates (shifted frame, normal n from the triangle toward the convex) into a new manifold. */
function emitManifold(
  out: ManifoldBuffer,
  nx: number,
  ny: number,
  nz: number,
  convexIsA: boolean,
  convexChild: number,
  triIndex: number,
): ContactManifold {
  const m = out.push();
  const count = reduce(nx, ny, nz);
  rotM(nx, ny, nz);
  const s = convexIsA ? -1 : 1;
  m.normalX = s * wx;
  m.normalY = s * wy;
  m.normalZ = s * wz;
  for (let k = 0; k < count; k++) {
    const i = chosen[k];
    rotM(candX[i] + sx0, candY[i] + sy0, candZ[i] + sz0);
    m.add(wx + mpx, wy + mpy, wz + mpz, candD[i], candId[i]);
  }
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
 * triangle to `out`. With convexIsA the normal points from the convex to the mesh and childA is
 * `convexChild`, childB the triangle index; otherwise the reverse.
 */
export function collideConvexTriangles(
  convex: ConvexShape,
  pc: Pose,
  convexChild: number,
  mesh: Shape & TriangleSource,
  pm: Pose,
  margin: number,
  convexIsA: boolean,
  out: ManifoldBuffer,
): void {
  mqx = pm.qx;
  mqy = pm.qy;
  mqz = pm.qz;
  mqw = pm.qw;
  mpx = pm.px;
  mpy = pm.py;
  mpz = pm.pz;
  // Convex in the mesh frame: position R^T (pc - pm), orientation conj(qm) qc.
  {
    const x = pc.px - pm.px,
      y = pc.py - pm.py,
      z = pc.pz - pm.pz;
    const qx = -mqx,
      qy = -mqy,
      qz = -mqz,
      qw = mqw;
    const tx = 2 * (qy * z - qz * y);
    const ty = 2 * (qz * x - qx * z);
    const tz = 2 * (qx * y - qy * x);
    sx0 = x + qw * tx + (qy * tz - qz * ty);
    sy0 = y + qw * ty + (qz * tx - qx * tz);
    sz0 = z + qw * tz + (qx * ty - qy * tx);
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
  }
  convex.computeAabb(relPose, aabb, 0);
  triList.clear();
  mesh.queryAabb(
    aabb[0] + sx0 - margin,
    aabb[1] + sy0 - margin,
    aabb[2] + sz0 - margin,
    aabb[3] + sx0 + margin,
    aabb[4] + sy0 + margin,
    aabb[5] + sz0 + margin,
    triList,
  );
  if (triList.count === 0) return;
  featDx = NaN; // invalidate the feature cache
  const rA = convex.coreRadius;
  const size = convex.maximumRadius;
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
    const e1x = tv[3] - tv[0],
      e1y = tv[4] - tv[1],
      e1z = tv[5] - tv[2];
    const e2x = tv[6] - tv[0],
      e2y = tv[7] - tv[1],
      e2z = tv[8] - tv[2];
    let fnx = e1y * e2z - e1z * e2y,
      fny = e1z * e2x - e1x * e2z,
      fnz = e1x * e2y - e1y * e2x;
    const fl = Math.sqrt(fnx * fnx + fny * fny + fnz * fnz);
    if (!(fl > 0)) continue;
    fnx /= fl;
    fny /= fl;
    fnz /= fl;
    const planeT = fnx * tv[0] + fny * tv[1] + fnz * tv[2]; // the convex's centre is at 0
    // Two-sided (open meshes): the side that needs the smaller push, from the convex's extent along the
    // normal (the minimum translation). The centre's side is not enough: a body whose centre of mass sits
    // near one end (a flat hull) crosses the plane with its centre long before most of it has. Closed and
    // one-sided meshes use their outward faces, so a large convex at a small closed mesh is never pushed
    // through it.
    let centreFront = planeT <= 0;
    if (faceSign === 0) {
      coreSupport(convex, -fnx, -fny, -fnz);
      const low = sup.x * fnx + sup.y * fny + sup.z * fnz - rA;
      coreSupport(convex, fnx, fny, fnz);
      const high = sup.x * fnx + sup.y * fny + sup.z * fnz + rA;
      centreFront = planeT - low <= high - planeT;
    }
    const front = faceSign !== 0 ? faceSign > 0 : centreFront;
    const behind = centreFront !== front;
    const nsx = front ? fnx : -fnx,
      nsy = front ? fny : -fny,
      nsz = front ? fnz : -fnz;
    const plane = front ? planeT : -planeT; // dot(v0, nS) <= 0
    // Plane cull: the convex's lowest point along -nS is above the plane by more than the margin.
    convexFeature(convex, -nsx, -nsy, -nsz, size);
    const low = -featH0 - rA;
    if (low - plane > margin) continue;
    const flags = (mesh.edgeFlags(t) >> (front ? EDGE_FRONT_SHIFT : EDGE_BACK_SHIFT)) & 7;
    const triIndex = mesh.triangleIndex(t);

    // Normal from GJK/EPA when an edge could be active.
    let face = true;
    haveWitness = false;
    nx = nsx;
    ny = nsy;
    nz = nsz;
    let kind = KIND_FACE,
      fv0 = -1,
      fv1 = -1;
    if (flags !== 0 || behind) {
      if (!runGjk(convex, margin, rA, nsx, nsy, nsz)) {
        if (!haveWitness && gjk.separated) continue; // beyond the margin
      }
      if (haveWitness) {
        // Which triangle feature holds the witness (barycentric, with a relative tolerance)?
        classify(pbx, pby, pbz, fnx, fny, fnz, fl);
        const align = nx * nsx + ny * nsy + nz * nsz;
        if (align > 1 - 1e-6 || align <= 0 || baryKind === KIND_FACE) {
          face = true;
        } else {
          let active = false;
          if (baryKind === KIND_EDGE) active = ((flags >> baryFeature) & 1) !== 0;
          else active = ((flags >> baryFeature) & 1) !== 0 || ((flags >> (baryFeature === 0 ? 2 : baryFeature - 1)) & 1) !== 0;
          face = !active;
        }
        kind = baryKind;
      }
    }
    candN = 0;
    if (face) {
      // Clip the convex's feature along -nS against the triangle.
      clipFeature(fnx, fny, fnz, -nsx * rA, -nsy * rA, -nsz * rA, size);
      const ix = clipInOne ? c1x : c0x,
        iy = clipInOne ? c1y : c0y,
        iz = clipInOne ? c1z : c0z,
        iid = clipInOne ? c1id : c0id;
      for (let i = 0; i < clipN; i++) {
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
      if (candN > 0 && haveWitness && maxD > wDepth + margin + DEPTH_SLACK) {
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
          if (!runGjk(convex, margin, rA, nsx, nsy, nsz)) continue;
          classify(pbx, pby, pbz, fnx, fny, fnz, fl);
          kind = baryKind;
        }
        const d = (pbx - pax) * nsx + (pby - pay) * nsy + (pbz - paz) * nsz;
        if (d < -margin) continue;
        candX[0] = pax + nsx * 0.5 * d;
        candY[0] = pay + nsy * 0.5 * d;
        candZ[0] = paz + nsz * 0.5 * d;
        candD[0] = d;
        candId[0] = WITNESS_ID;
        candN = 1;
      }
      if (face) {
        nx = nsx;
        ny = nsy;
        nz = nsz;
      }
    }
    if (!face) {
      // Active edge or vertex: the witness pair.
      if (wDepth < -margin) continue;
      candX[0] = pax + nx * 0.5 * wDepth;
      candY[0] = pay + ny * 0.5 * wDepth;
      candZ[0] = paz + nz * 0.5 * wDepth;
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
    growMeta(slot + 1);
    mKind[slot] = kind;
    if (kind === KIND_FACE) {
      mV0[slot] = t;
    } else {
      mV0[slot] = fv0;
      mV1[slot] = fv1;
    }
    emitManifold(out, nx, ny, nz, convexIsA, convexChild, triIndex);
  }

  // Reduction: face manifolds claim their triangles' vertices; edge/vertex manifolds on claimed
  // features are redundant.
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

// Result of runGjk: the contact normal (from the triangle toward the convex), the depth along it and the
// witness points on the convex's surface (pa) and on the triangle (pb), shifted frame.
let haveWitness = false;
let nx = 0,
  ny = 1,
  nz = 0,
  wDepth = 0,
  pax = 0,
  pay = 0,
  paz = 0,
  pbx = 0,
  pby = 0,
  pbz = 0;

/** GJK/EPA between the convex (relPose) and `tri` (loaded from tv); false when beyond the margin or degenerate. */
function runGjk(convex: ConvexShape, margin: number, rA: number, nsx: number, nsy: number, nsz: number): boolean {
  tri.set(tv);
  if (gjkDistance(convex, relPose, tri, IDENTITY, gjk, -nsx, -nsy, -nsz, margin + rA)) {
    if (!gjk.exact) return false;
    const sep = gjk.distance - rA;
    if (sep > margin) return false;
    nx = -gjk.nx;
    ny = -gjk.ny;
    nz = -gjk.nz;
    wDepth = -sep;
    pax = gjk.ax;
    pay = gjk.ay;
    paz = gjk.az;
    pbx = gjk.bx;
    pby = gjk.by;
    pbz = gjk.bz;
  } else {
    if (!epaPenetration(convex, relPose, tri, IDENTITY, gjk, epa)) {
      nx = nsx;
      ny = nsy;
      nz = nsz;
      return false;
    }
    nx = -epa.nx;
    ny = -epa.ny;
    nz = -epa.nz;
    wDepth = epa.depth + rA;
    pax = epa.ax;
    pay = epa.ay;
    paz = epa.az;
    pbx = epa.bx;
    pby = epa.by;
    pbz = epa.bz;
  }
  // Convex witness on its surface.
  pax -= nx * rA;
  pay -= ny * rA;
  paz -= nz * rA;
  haveWitness = true;
  return true;
}

function isClaimed(v: number): boolean {
  const d = claimed.data;
  for (let i = 0; i < claimed.count; i++) if (d[i] === v) return true;
  return false;
}

// Barycentric classification of a point on the triangle tv: kind and feature (edge index or corner).
let baryKind = KIND_FACE;
let baryFeature = 0;
function classify(px: number, py: number, pz: number, nx: number, ny: number, nz: number, twiceArea: number): void {
  // Sub-triangle areas opposite each corner (signed along n), normalised.
  const l0 = subArea(px, py, pz, 3, 6, nx, ny, nz) / twiceArea;
  const l1 = subArea(px, py, pz, 6, 0, nx, ny, nz) / twiceArea;
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

function subArea(px: number, py: number, pz: number, a: number, b: number, nx: number, ny: number, nz: number): number {
  const ax = tv[a] - px,
    ay = tv[a + 1] - py,
    az = tv[a + 2] - pz;
  const bx = tv[b] - px,
    by = tv[b + 1] - py,
    bz = tv[b + 2] - pz;
  return (ay * bz - az * by) * nx + (az * bx - ax * bz) * ny + (ax * by - ay * bx) * nz;
}

/** True for the shapes collideConvexTriangles accepts as the mesh side. */
export function isTriangleShape(s: Shape): s is Shape & TriangleSource {
  return s.type === ShapeType.Mesh || s.type === ShapeType.Heightfield;
}

const childPose = new Pose();

/**
 * Collides a pair in which at least one shape is a TriangleMesh or Heightfield: convex vs mesh (either
 * order) and compound children vs mesh. Mesh-mesh (and mesh-heightfield) pairs do not collide: give
 * dynamic meshes a convex hull or a compound.
 */
export function collideWithTriangles(a: Shape, pa: Pose, b: Shape, pb: Pose, margin: number, out: ManifoldBuffer): void {
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
      collideConvexTriangles(c.shape, childPose, i, mesh, pm, margin, convexIsA, out);
    }
    return;
  }
  if (!(other instanceof ConvexShape)) return;
  collideConvexTriangles(other, po, 0, mesh, pm, margin, convexIsA, out);
}

// ---- continuous sweeps: meshes and heightfields as triangle pieces ------------------------------

const sweepTri = new TriangleShape();
const sweepList = new IntList(64);

/** Feeds the triangles under a shape-local box to a sweep as convex pieces (one reused triangle shape). */
function enumerateTriangles(
  shape: Shape,
  minX: number,
  minY: number,
  minZ: number,
  maxX: number,
  maxY: number,
  maxZ: number,
  sink: SweepPieceSink,
): void {
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
