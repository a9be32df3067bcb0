/**
 * Feature clipping shared by the convex-convex (convexGeneric) and convex-triangle (convexMesh) manifold
 * builders: Sutherland-Hodgman clipping of an incident polygon against the side planes of a reference
 * polygon (Ericson, Real-Time Collision Detection, 8.3.4; Gregorius, "Robust Contact Creation for Physics
 * Simulations", GDC 2015; the same scheme as Box2D v3's b2ClipPolygons), and the supporting feature of a
 * convex hull along a direction (face, edge or vertex, read from the hull's topology).
 *
 * Every clipped vertex carries a feature id (an incident vertex, or "incident edge x reference plane")
 * and a label naming the edge that leaves it, so contacts keep their ids while a body rests.
 *
 * Allocation-free: the buffers are preallocated, doubles cross calls through typed arrays
 * (docs/design.md).
 */
import type { ConvexHull } from "../shapes/convexHull";

/** A polygon being clipped, in two ping-pong buffers (the current one in x/y/z/id/lab). */
export class ClipPolygon {
  n = 0;
  x: Float64Array;
  y: Float64Array;
  z: Float64Array;
  id: Int32Array;
  lab: Int32Array;
  private ox: Float64Array;
  private oy: Float64Array;
  private oz: Float64Array;
  private oid: Int32Array;
  private olab: Int32Array;
  readonly capacity: number;

  constructor(capacity: number) {
    this.capacity = capacity;
    this.x = new Float64Array(capacity);
    this.y = new Float64Array(capacity);
    this.z = new Float64Array(capacity);
    this.id = new Int32Array(capacity);
    this.lab = new Int32Array(capacity);
    this.ox = new Float64Array(capacity);
    this.oy = new Float64Array(capacity);
    this.oz = new Float64Array(capacity);
    this.oid = new Int32Array(capacity);
    this.olab = new Int32Array(capacity);
  }

  /**
   * Clips the polygon against the plane in clipPlane (outward unit normal [0..2], offset [3], tolerance
   * [4]): points with s . p - offset <= tolerance are kept. A crossing point gets the id
   * crossBase | ((label of the incident edge & labMask) << labShift) | plane; the edge that then runs
   * along the plane gets the label leaveBase + plane.
   */
  clip(plane: number, crossBase: number, labShift: number, labMask: number, leaveBase: number): void {
    const sx = clipPlane[0],
      sy = clipPlane[1],
      sz = clipPlane[2],
      off = clipPlane[3],
      eps = clipPlane[4];
    const ix = this.x,
      iy = this.y,
      iz = this.z,
      iid = this.id,
      ilab = this.lab;
    const qx = this.ox,
      qy = this.oy,
      qz = this.oz,
      qid = this.oid,
      qlab = this.olab;
    const cap = this.capacity;
    const cn = this.n;
    let n = 0;
    if (cn > 0) {
      let u = cn - 1;
      let du = sx * ix[u] + sy * iy[u] + sz * iz[u] - off;
      for (let v = 0; v < cn; v++) {
        const dv = sx * ix[v] + sy * iy[v] + sz * iz[v] - off;
        if (dv <= eps) {
          if (du > eps && dv < -eps && n < cap) {
            // Entering: the crossing continues along the incident edge u->v.
            const t = du / (du - dv);
            qx[n] = ix[u] + t * (ix[v] - ix[u]);
            qy[n] = iy[u] + t * (iy[v] - iy[u]);
            qz[n] = iz[u] + t * (iz[v] - iz[u]);
            qid[n] = crossBase | ((ilab[u] & labMask) << labShift) | plane;
            qlab[n] = ilab[u];
            n++;
          }
          if (n < cap) {
            qx[n] = ix[v];
            qy[n] = iy[v];
            qz[n] = iz[v];
            qid[n] = iid[v];
            qlab[n] = ilab[v];
            n++;
          }
        } else if (du < -eps && n < cap) {
          // Leaving: the polygon now runs along the side plane.
          const t = du / (du - dv);
          qx[n] = ix[u] + t * (ix[v] - ix[u]);
          qy[n] = iy[u] + t * (iy[v] - iy[u]);
          qz[n] = iz[u] + t * (iz[v] - iz[u]);
          qid[n] = crossBase | ((ilab[u] & labMask) << labShift) | plane;
          qlab[n] = leaveBase + plane;
          n++;
        }
        u = v;
        du = dv;
      }
    }
    this.n = n;
    this.x = qx;
    this.y = qy;
    this.z = qz;
    this.id = qid;
    this.lab = qlab;
    this.ox = ix;
    this.oy = iy;
    this.oz = iz;
    this.oid = iid;
    this.olab = ilab;
  }

  /** Parameter range and end ids of the segment being clipped (Cyrus-Beck). */
  private t0 = 0.5;
  private t1 = 0.5;
  private id0 = 0;
  private id1 = 0;

  /** Starts Cyrus-Beck clipping of the polygon's first two points as a segment. */
  beginSegment(): void {
    this.t0 = 0;
    this.t1 = 1;
    this.id0 = this.id[0];
    this.id1 = this.id[1];
  }

  /**
   * Clips the segment against the plane in clipPlane (as {@link clip}); an end moved onto the plane gets
   * the id crossBase | (end << labShift) | plane. False (and n = 0) when the segment is wholly outside.
   */
  clipSegment(plane: number, crossBase: number, labShift: number): boolean {
    const sx = clipPlane[0],
      sy = clipPlane[1],
      sz = clipPlane[2],
      off = clipPlane[3],
      eps = clipPlane[4];
    const x = this.x,
      y = this.y,
      z = this.z;
    const d0 = sx * x[0] + sy * y[0] + sz * z[0] - off;
    const d1 = sx * x[1] + sy * y[1] + sz * z[1] - off;
    if (d0 > eps && d1 > eps) {
      this.n = 0;
      return false;
    }
    if (d0 > eps) {
      const t = d0 / (d0 - d1);
      if (t > this.t0) {
        this.t0 = t;
        this.id0 = crossBase | (0 << labShift) | plane;
      }
    } else if (d1 > eps) {
      const t = d0 / (d0 - d1);
      if (t < this.t1) {
        this.t1 = t;
        this.id1 = crossBase | (1 << labShift) | plane;
      }
    }
    return true;
  }

  /** Writes the clipped segment: two points, one when they coincide within clipPlane[4], none when empty. */
  endSegment(): void {
    const t0 = this.t0,
      t1 = this.t1;
    if (t0 > t1) {
      this.n = 0;
      return;
    }
    const x = this.x,
      y = this.y,
      z = this.z;
    const p0x = x[0],
      p0y = y[0],
      p0z = z[0];
    const dx = x[1] - p0x,
      dy = y[1] - p0y,
      dz = z[1] - p0z;
    x[0] = p0x + t0 * dx;
    y[0] = p0y + t0 * dy;
    z[0] = p0z + t0 * dz;
    x[1] = p0x + t1 * dx;
    y[1] = p0y + t1 * dy;
    z[1] = p0z + t1 * dz;
    this.id[0] = this.id0;
    this.id[1] = this.id1;
    const l = t1 - t0,
      eps = clipPlane[4];
    this.n = l * l * (dx * dx + dy * dy + dz * dz) > eps * eps ? 2 : 1;
  }
}

/** The plane for {@link ClipPolygon.clip}: unit normal x, y, z, offset, tolerance. */
export const clipPlane = new Float64Array(5);

/** Input of {@link setSidePlane}: edge start a [0..2], edge end b [3..5], polygon normal n [6..8]. */
export const sideEdge = new Float64Array(9);

/**
 * The side plane through the edge a->b of a polygon wound counter-clockwise about its unit normal n
 * (all in sideEdge): outward unit normal (b - a) x n and offset into clipPlane[0..3]. False for a
 * degenerate edge.
 */
export function setSidePlane(): boolean {
  const e = sideEdge;
  const ex = e[3] - e[0],
    ey = e[4] - e[1],
    ez = e[5] - e[2];
  const nx = e[6],
    ny = e[7],
    nz = e[8];
  let sx = ey * nz - ez * ny,
    sy = ez * nx - ex * nz,
    sz = ex * ny - ey * nx;
  const sl = Math.sqrt(sx * sx + sy * sy + sz * sz);
  if (!(sl > 0)) return false;
  sx /= sl;
  sy /= sl;
  sz /= sl;
  clipPlane[0] = sx;
  clipPlane[1] = sy;
  clipPlane[2] = sz;
  clipPlane[3] = sx * e[0] + sy * e[1] + sz * e[2];
  return true;
}

/** Cosine and sine tolerance of "the feature is aligned with the direction" (asin(0.05) ~ 2.9 degrees). */
export const FEATURE_SIN_TOL = 0.05;
export const FEATURE_COS_TOL = Math.sqrt(1 - FEATURE_SIN_TOL * FEATURE_SIN_TOL);

/** {@link cylinderFeatureKind}: the cap polygon. */
export const CYLINDER_CAP = 0;
/** {@link cylinderFeatureKind}: the side line (two points, one on each rim). */
export const CYLINDER_SIDE = 1;
/** {@link cylinderFeatureKind}: the one rim point farthest along the direction. */
export const CYLINDER_RIM = 2;

/**
 * Which supporting feature of a cylinder the contact pairs take along a unit direction whose local components are
 * `l` (perpendicular to the axis, >= 0) and `ay` (along the axis, absolute): the cap polygon when the direction is
 * nearer the axis than the side, as Jolt's CylinderShape::GetSupportingFace, and also for a tilted cylinder whose
 * speculative margin exceeds its radius (it moves farther than its size in a step); else the side line within
 * FEATURE_SIN_TOL of perpendicular; else the rim point. The rim point alone is one contact: it stops that point, and
 * the impulse spins the rest of the cap through the other shape within the step (a coin landing tilted, 1 rad a
 * step); every cap point within the margin gets a contact of its own. Shared by convexGeneric (boxes, hulls) and
 * convexMesh (triangles), so a coin lands the same way on all of them.
 */
export function cylinderFeatureKind(l: number, ay: number, radius: number, margin: number): number {
  const side = ay < FEATURE_SIN_TOL;
  if (l <= ay || (!side && margin > radius)) return CYLINDER_CAP;
  return side ? CYLINDER_SIDE : CYLINDER_RIM;
}
/**
 * A flat hull (a slab around coplanar points) supports with one of its two large faces up to 60 degrees from the
 * direction, not only within FEATURE_SIN_TOL: its rim is only the slab's thickness wide, so the face is the feature
 * that carries its contacts. A tilted disc landing on its rim then gets the far rim as speculative contacts (within
 * the margin) instead of a two-point edge contact: swinging down 12 cm a step (a 2 m disc turning at 4 rad/s), the
 * far rim passed through a thin floor, the next step's normal flipped and the disc fell through.
 */
export const FLAT_FACE_COS_TOL = 0.5;
/** Most vertices reported for one hull face (larger faces are subsampled: an inscribed polygon). */
export const MAX_FEATURE_VERTICES = 64;

/** A hull's supporting feature: vertex indices (a face polygon CCW from outside, an edge, or one vertex). */
export class HullFeature {
  n = 0;
  /** Face f (0..), edge (64 + e) or vertex (128 + v), each index mod 64: a feature code for contact ids. */
  code = 0;
  /** The face index when n >= 3, else -1. */
  face = -1;
  readonly verts = new Int32Array(MAX_FEATURE_VERTICES);
}

/**
 * Supporting feature of hull s along local unit direction d[0..2], given its supporting vertex v: the face
 * around v whose normal is within FEATURE_COS_TOL of d, else v's edge most perpendicular to d (within
 * FEATURE_SIN_TOL), else v. On a polytope the supporting face contains the supporting vertex, so only the
 * faces and edges around v are examined (Gregorius, "The Separating Axis Test between Convex Polyhedra",
 * GDC 2013, for the Gauss-map view).
 */
export function hullSupportFeature(s: ConvexHull, d: Float64Array, v: number, out: HullFeature): void {
  const lx = d[0],
    ly = d[1],
    lz = d[2];
  // The faces and edges around v, with their normals and unit directions, in one block (see featureData).
  const fd = s.featureData;
  let k = s.featureStart[v];
  const nf = fd[k++];
  let bf = -1,
    bd = -Infinity;
  for (let i = 0; i < nf; i++, k += 4) {
    const dd = fd[k] * lx + fd[k + 1] * ly + fd[k + 2] * lz;
    if (dd > bd) {
      bd = dd;
      bf = fd[k + 3];
    }
  }
  if (bf >= 0 && bd >= (s.flatHalfThickness > 0 ? FLAT_FACE_COS_TOL : FEATURE_COS_TOL)) {
    const f = bf | 0;
    const k0 = s.faceStart[f],
      n = s.faceStart[f + 1] - k0;
    const step = n <= MAX_FEATURE_VERTICES ? 1 : Math.ceil(n / MAX_FEATURE_VERTICES);
    let c = 0;
    for (let j = 0; j < n; j += step) out.verts[c++] = s.faceVertices[k0 + j];
    out.n = c;
    out.face = f;
    out.code = f & 63;
    return;
  }
  out.face = -1;
  const ne = fd[k++];
  let be = -1,
    bw = -1,
    bs = FEATURE_SIN_TOL;
  for (let i = 0; i < ne; i++, k += 5) {
    const c = fd[k] * lx + fd[k + 1] * ly + fd[k + 2] * lz;
    const ac = c < 0 ? -c : c;
    if (ac < bs) {
      bs = ac;
      bw = fd[k + 3];
      be = fd[k + 4];
    }
  }
  if (be >= 0) {
    // Edge in a fixed vertex order, so its clip ids do not depend on which end supported.
    const w = bw | 0;
    out.verts[0] = v < w ? v : w;
    out.verts[1] = v < w ? w : v;
    out.n = 2;
    out.code = 64 + ((be | 0) & 63);
    return;
  }
  out.verts[0] = v;
  out.n = 1;
  out.code = 128 + (v & 63);
}

/** The contact normal for {@link selectFourContacts} (x, y, z), in an array (docs/design.md, doubles). */
export const selectNormal = new Float64Array(3);

/**
 * Picks up to four of the n candidate contacts (x, y, z, depth d) into `chosen`, about the normal in
 * {@link selectNormal}: the deepest (ties within 1e-4 go to the lower index, so a flat resting contact keeps the
 * same choice every step), the one farthest from it, then the two that extend the area most on either side of
 * that diagonal (the max-area set, as Box2D's and bepu's manifold reduction). With `fillOneSided`, a set with
 * points on one side only (or collinear) gets the point farthest from those chosen as its fourth. Returns the
 * count. Shared by the generic convex tester and the convex-triangle tester.
 */
export function selectFourContacts(
  x: Float64Array,
  y: Float64Array,
  z: Float64Array,
  d: Float64Array,
  n: number,
  fillOneSided: boolean,
  chosen: Int32Array,
): number {
  if (n <= 4) {
    for (let i = 0; i < n; i++) chosen[i] = i;
    return n;
  }
  const nx = selectNormal[0],
    ny = selectNormal[1],
    nz = selectNormal[2];
  let i0 = 0;
  for (let i = 1; i < n; i++) if (d[i] > d[i0] + 1e-4) i0 = i;
  let i1 = i0,
    best = -1;
  for (let i = 0; i < n; i++) {
    const dx = x[i] - x[i0],
      dy = y[i] - y[i0],
      dz = z[i] - z[i0];
    const dd = dx * dx + dy * dy + dz * dz;
    if (dd > best * (1 + 1e-6) + 1e-18) {
      best = dd;
      i1 = i;
    }
  }
  const ex = x[i1] - x[i0],
    ey = y[i1] - y[i0],
    ez = z[i1] - z[i0];
  let i2 = -1,
    i3 = -1,
    aMax = 0,
    aMin = 0;
  const tie = 1e-6 * best;
  for (let i = 0; i < n; i++) {
    const px = x[i] - x[i0],
      py = y[i] - y[i0],
      pz = z[i] - z[i0];
    // Signed area about the normal of triangle (i0, i1, i).
    const sa = (ey * pz - ez * py) * nx + (ez * px - ex * pz) * ny + (ex * py - ey * px) * nz;
    if (sa > aMax + tie) {
      aMax = sa;
      i2 = i;
    }
    if (sa < aMin - tie) {
      aMin = sa;
      i3 = i;
    }
  }
  let count = 0;
  chosen[count++] = i0;
  if (i1 !== i0) chosen[count++] = i1;
  if (i2 >= 0) chosen[count++] = i2;
  if (i3 >= 0) chosen[count++] = i3;
  if (fillOneSided && count < 4) {
    // One-sided (or collinear) set: add the point farthest from those chosen.
    let bi = -1,
      bd = 0;
    for (let i = 0; i < n; i++) {
      let dsum = 0,
        used = false;
      for (let k = 0; k < count; k++) {
        const c = chosen[k];
        if (c === i) used = true;
        const dx = x[i] - x[c],
          dy = y[i] - y[c],
          dz = z[i] - z[c];
        dsum += Math.sqrt(dx * dx + dy * dy + dz * dz);
      }
      if (!used && dsum > bd + 1e-9) {
        bd = dsum;
        bi = i;
      }
    }
    if (bi >= 0) chosen[count++] = bi;
  }
  return count;
}
