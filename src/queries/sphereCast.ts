/**
 * Analytic sphere casts: a sphere of radius r whose centre moves from c by d (fraction t in [0, maxT]) against
 * one convex piece at a fixed pose. The sphere first touches the piece where the ray c + t d enters the piece
 * grown by r (its Minkowski sum with the ball of radius r), so each test is a ray cast against a rounded shape
 * in the piece's local frame (Ericson, Real-Time Collision Detection, 5.5.7 "Intersecting moving sphere against
 * AABB" for the rounded box; 5.3.2 ray-sphere and 5.3.7 ray-cylinder for the capsule parts):
 *
 * - sphere: ray against the sphere of radius R + r;
 * - capsule: ray against the capsule of radius R + r (the infinite cylinder, then the end sphere);
 * - box: slab test against the box grown by r; an entry in an edge region (two axes outside the box) is
 *   resolved against that edge's capsule, in a vertex region (three axes outside) against the three edge
 *   capsules meeting there (Ericson 5.5.7);
 * - triangle (mesh and heightfield pieces): the rounded triangle is the triangle thickened by r along its
 *   normal plus its three edge capsules; the ray enters through the near offset face or else through the
 *   nearest capsule;
 * - cylinder and convex hull: a conservative bounding cast (the capped cylinder of radius R + r and half
 *   height h + r; the hull's face planes pushed out by r, Cyrus-Beck as in Ericson 5.3.8) gives the exact
 *   hit when it lands on a face region, and otherwise a start point for Newton's method on
 *   f(t) = dist(c + t d, piece) - r. The distance to a convex set is convex along a line, so Newton steps
 *   from the left never overshoot the first root (each tangent lies below f) and a non-negative slope
 *   proves a miss; the same argument as the GJK ray cast (van den Bergen, "Ray casting against general
 *   convex objects with application to continuous collision detection", 2004). The hull's closest point
 *   comes from GJK.
 *
 * The caller handles a sphere that already touches or overlaps the piece at the start ({@link CAST_FALLBACK}):
 * those cases keep the general sweep's rule (a hit at 0 only when moving into the piece).
 *
 * Doubles cross the calls through module-level Float64Arrays (docs/design.md), so a cast allocates nothing.
 */
import { GjkResult, gjkDistance } from "../collision/gjk";
import { Pose } from "../math/pose";
import type { Box } from "../shapes/box";
import type { Capsule } from "../shapes/capsule";
import type { ConvexHull } from "../shapes/convexHull";
import type { Cylinder } from "../shapes/cylinder";
import type { ConvexShape } from "../shapes/shape";
import { ShapeType } from "../shapes/shapeType";
import type { Sphere } from "../shapes/sphere";
import { closestOnTriangle } from "./poseMath";
import { rotateParts } from "../math/quat";
import { PointPiece } from "./pointPiece";

/**
 * In/out block of the casts (world space).
 * In: [0..2] sphere centre at fraction 0, [3..5] motion over fraction 1, [6] radius, [7] maxT.
 * Out on a hit: [8] fraction, [9..11] unit normal from the piece toward the sphere, [12..14] contact point on
 * the piece (the sphere touches it there, so it is also the point on the sphere).
 */
export const SPHERE_CAST = new Float64Array(16);
/** The sphere does not reach the piece within [0, maxT]. */
export const CAST_MISS = 0;
/** A hit; SPHERE_CAST[8..14] hold it. */
export const CAST_HIT = 1;
/** The sphere touches or overlaps the piece at the start (or the shape is not handled): use the general sweep. */
export const CAST_FALLBACK = 2;

/** Newton iteration cap; a grazing hit (double root) converges linearly, halving the gap to the root per step. */
const NEWTON_ITERATIONS = 64;
/** Newton stops when the sphere is this close (metres) to the piece; the fraction error is then ~ this / |d|. */
const NEWTON_GAP = 1e-10;

/**
 * Local-frame scratch. Every double passed between the helpers below goes through it (see the file comment).
 */
const L = new Float64Array(32);
/** Ray origin (3) and direction (3). */
const O = 0,
  D = 3;
/** Closest point of the piece's core to the query point Q (3), and the core's rounding radius. */
const CP = 6,
  RC = 9;
/** Query point of {@link coreClosest} (3). */
const Q = 10;
/** Ray interval [T0, T1] clipped by slabs; T: result of the ray helpers (an entry parameter, or -1). */
const T0 = 13,
  T1 = 14,
  T = 15;
/** Capsule segment start (3) and axis (3), and the radius of the ray helpers' capsule or sphere. */
const SP = 16,
  SU = 19,
  RAD = 22;
/** Box half extents (3) and the signs of the box region the ray enters (3). */
const HB = 23,
  SG = 26;

const W = new Float64Array(3);
const TRI = new Float64Array(9);
const point = new PointPiece();
const pointPose = new Pose();
const identity = new Pose();
const gjk = new GjkResult();

/** Entry parameter of the ray into the sphere of radius L[RAD] centred at L[SP..], or -1, into L[T]. */
function raySphere(): void {
  const mx = L[O] - L[SP],
    my = L[O + 1] - L[SP + 1],
    mz = L[O + 2] - L[SP + 2];
  const dx = L[D],
    dy = L[D + 1],
    dz = L[D + 2];
  const b = mx * dx + my * dy + mz * dz;
  const c = mx * mx + my * my + mz * mz - L[RAD] * L[RAD];
  // On or inside (only reached through rounding: callers start outside): an entry at 0 when heading in.
  if (c <= 0) {
    L[T] = b < 0 ? 0 : -1;
    return;
  }
  const disc = b * b - (dx * dx + dy * dy + dz * dz) * c;
  // Smaller root as c / (-b + sqrt(disc)): no cancellation since -b > 0 (Numerical Recipes 5.6).
  L[T] = b >= 0 || disc < 0 ? -1 : c / (-b + Math.sqrt(disc));
}

/**
 * Entry parameter of the ray into the capsule (segment L[SP..] + s L[SU..], s in [0, 1], radius L[RAD]), or -1,
 * into L[T]. The origin is
 * outside the capsule. The capsule lies in the infinite cylinder about the segment's line: the ray enters
 * through the side where the cylinder entry falls within the segment, and otherwise through the end sphere on
 * that side, if at all (any path into the capsule from beyond an end crosses that end's sphere).
 */
function rayCapsule(): void {
  const ux = L[SU],
    uy = L[SU + 1],
    uz = L[SU + 2];
  const uu = ux * ux + uy * uy + uz * uz;
  if (!(uu > 1e-24)) return raySphere();
  const mx = L[O] - L[SP],
    my = L[O + 1] - L[SP + 1],
    mz = L[O + 2] - L[SP + 2];
  const dx = L[D],
    dy = L[D + 1],
    dz = L[D + 2];
  const md = mx * ux + my * uy + mz * uz,
    nd = dx * ux + dy * uy + dz * uz,
    dd = dx * dx + dy * dy + dz * dz;
  const inv = 1 / uu;
  const c = mx * mx + my * my + mz * mz - md * md * inv - L[RAD] * L[RAD];
  let s = md * inv;
  if (c > 0) {
    // Outside the infinite cylinder: it must approach the axis.
    const a = dd - nd * nd * inv;
    const b = mx * dx + my * dy + mz * dz - md * nd * inv;
    const disc = b * b - a * c;
    if (b >= 0 || !(a > 1e-14 * dd) || disc < 0) {
      L[T] = -1;
      return;
    }
    const t = c / (-b + Math.sqrt(disc));
    s = (md + t * nd) * inv;
    if (s >= 0 && s <= 1) {
      L[T] = t;
      return;
    }
  }
  if (s >= 0.5) {
    L[SP] += ux;
    L[SP + 1] += uy;
    L[SP + 2] += uz;
  }
  raySphere();
}

/** rayCapsule, keeping the earliest entry so far in L[T0] (-1: none yet). */
function keepEarliestCapsule(): void {
  rayCapsule();
  const t = L[T];
  if (t >= 0 && (L[T0] < 0 || t < L[T0])) L[T0] = t;
}

/** The capsule of radius r about the triangle edge TRI[i] -> TRI[j]. */
function setTriangleEdge(i: number, j: number, r: number): void {
  for (let k = 0; k < 3; k++) {
    L[SP + k] = TRI[i + k];
    L[SU + k] = TRI[j + k] - TRI[i + k];
  }
  L[RAD] = r;
}

/**
 * The capsule of radius r about the box edge along axis `axis` through the corner of signs L[SG..] (the sign
 * along `axis` is ignored: the edge runs from -h to +h), or with `fromCorner` only from that corner to the
 * opposite end (the edges meeting at a corner).
 */
function setBoxEdge(axis: number, fromCorner: boolean, r: number): void {
  for (let k = 0; k < 3; k++) {
    const h = L[HB + k],
      c = L[SG + k] * h;
    if (k !== axis) {
      L[SP + k] = c;
      L[SU + k] = 0;
    } else if (fromCorner) {
      L[SP + k] = c;
      L[SU + k] = -2 * c;
    } else {
      L[SP + k] = -h;
      L[SU + k] = 2 * h;
    }
  }
  L[RAD] = r;
}

/**
 * Clips the ray interval [L[T0], L[T1]] to the slab |x_k| <= h (Ericson 5.3.3); false when it becomes empty.
 * A ray parallel to the slab lies inside it for all t or never (the boundary counts as inside).
 */
function clipSlab(k: number, h: number): boolean {
  const o = L[O + k],
    d = L[D + k];
  if (d === 0) return o >= -h && o <= h;
  const inv = 1 / d;
  let a = (-h - o) * inv,
    b = (h - o) * inv;
  if (a > b) {
    const s = a;
    a = b;
    b = s;
  }
  if (a > L[T0]) L[T0] = a;
  if (b < L[T1]) L[T1] = b;
  return L[T0] <= L[T1];
}

/** Ray against the box grown by r: the slab test, then the edge capsules (Ericson 5.5.7). Entry into L[T]. */
function castBox(s: Box): void {
  const r = SPHERE_CAST[6];
  L[HB] = s.halfX;
  L[HB + 1] = s.halfY;
  L[HB + 2] = s.halfZ;
  L[T0] = 0;
  L[T1] = SPHERE_CAST[7];
  if (!(clipSlab(0, L[HB] + r) && clipSlab(1, L[HB + 1] + r) && clipSlab(2, L[HB + 2] + r))) {
    L[T] = -1;
    return;
  }
  const t = L[T0];
  let outside = 0,
    inside = 0;
  for (let k = 0; k < 3; k++) {
    const x = L[O + k] + t * L[D + k],
      h = L[HB + k];
    const sg = x > h ? 1 : x < -h ? -1 : 0;
    L[SG + k] = sg;
    if (sg !== 0) outside++;
    else inside = k;
  }
  // A face region: the grown face is the rounded box's surface there.
  if (outside <= 1) {
    L[T] = t;
    return;
  }
  if (outside === 2) {
    // The edge along the axis that is inside.
    setBoxEdge(inside, false, r);
    rayCapsule();
    return;
  }
  // A vertex region: the earliest of the three edge capsules meeting at the corner.
  L[T0] = -1;
  for (let k = 0; k < 3; k++) {
    setBoxEdge(k, true, r);
    keepEarliestCapsule();
  }
  L[T] = L[T0];
}

/**
 * Entry of the ray into the capped cylinder of radius rad, axis Y, half height h, clamped to 0, into L[T] (-1 on
 * a miss): the infinite cylinder's interval clipped by the cap slab's (Ericson 5.3.7).
 */
function rayCappedCylinder(rad: number, h: number): void {
  L[T0] = 0;
  L[T1] = SPHERE_CAST[7];
  L[T] = -1;
  if (!clipSlab(1, h)) return;
  const ox = L[O],
    oz = L[O + 2],
    dx = L[D],
    dz = L[D + 2];
  const a = dx * dx + dz * dz;
  const b = ox * dx + oz * dz;
  const c = ox * ox + oz * oz - rad * rad;
  if (a === 0) {
    if (c > 0) return;
  } else {
    const disc = b * b - a * c;
    if (disc < 0) return;
    const sq = Math.sqrt(disc);
    // Both roots without cancellation: q = -(b + sign(b) sqrt(disc)), roots q / a and c / q.
    let near: number, far: number;
    if (b <= 0) {
      const q = -b + sq;
      far = q / a;
      near = q > 0 ? c / q : 0;
    } else {
      const q = -b - sq;
      near = q / a;
      far = c / q;
    }
    if (near > L[T0]) L[T0] = near;
    if (far < L[T1]) L[T1] = far;
  }
  if (L[T0] <= L[T1]) L[T] = L[T0];
}

/**
 * Writes the point of the piece's core nearest to the local point L[Q..] into L[CP..] and the core's rounding
 * radius (the sphere's and capsule's radius; 0 for the others) into L[RC]. Hulls use GJK.
 */
function coreClosest(b: ConvexShape): void {
  const x = L[Q],
    y = L[Q + 1],
    z = L[Q + 2];
  switch (b.type) {
    case ShapeType.Sphere:
      L[CP] = L[CP + 1] = L[CP + 2] = 0;
      L[RC] = (b as Sphere).radius;
      return;
    case ShapeType.Capsule: {
      const hl = (b as Capsule).halfLength;
      L[CP] = 0;
      L[CP + 1] = Math.max(-hl, Math.min(hl, y));
      L[CP + 2] = 0;
      L[RC] = (b as Capsule).radius;
      return;
    }
    case ShapeType.Box: {
      const s = b as Box;
      // Math.min / max rather than conditionals: a phi of a field load and computed doubles would box them.
      L[CP] = Math.max(-s.halfX, Math.min(s.halfX, x));
      L[CP + 1] = Math.max(-s.halfY, Math.min(s.halfY, y));
      L[CP + 2] = Math.max(-s.halfZ, Math.min(s.halfZ, z));
      L[RC] = 0;
      return;
    }
    case ShapeType.Cylinder: {
      const s = b as Cylinder;
      const rho2 = x * x + z * z;
      const k = rho2 > s.radius * s.radius ? s.radius / Math.sqrt(rho2) : 1;
      L[CP] = x * k;
      L[CP + 1] = Math.max(-s.halfHeight, Math.min(s.halfHeight, y));
      L[CP + 2] = z * k;
      L[RC] = 0;
      return;
    }
    default: {
      // Convex hull: GJK between the point and the hull, both in the hull's frame.
      pointPose.set(x, y, z, 0, 0, 0, 1);
      gjkDistance(point, pointPose, b, identity, gjk);
      L[CP] = gjk.bx;
      L[CP + 1] = gjk.by;
      L[CP + 2] = gjk.bz;
      L[RC] = 0;
    }
  }
}

/** L[Q..] = the ray point at t. */
function setQueryPoint(t: number): void {
  L[Q] = L[O] + t * L[D];
  L[Q + 1] = L[O + 1] + t * L[D + 1];
  L[Q + 2] = L[O + 2] + t * L[D + 2];
}

/**
 * Newton's method on f(t) = |p(t) - core(p(t))| - rc - r from t = L[T] (f >= 0 there), p(t) = origin + t d.
 * Leaves the first root within maxT, or -1, in L[T]. Each step lands at or before the root (f is convex),
 * so the result never passes through the piece.
 */
function newton(b: ConvexShape): void {
  const r = SPHERE_CAST[6],
    maxT = SPHERE_CAST[7];
  const dx = L[D],
    dy = L[D + 1],
    dz = L[D + 2];
  let t = L[T];
  L[T] = -1;
  for (let it = 0; it < NEWTON_ITERATIONS; it++) {
    setQueryPoint(t);
    coreClosest(b);
    const ex = L[Q] - L[CP],
      ey = L[Q + 1] - L[CP + 1],
      ez = L[Q + 2] - L[CP + 2];
    const dist = Math.sqrt(ex * ex + ey * ey + ez * ez);
    const f = dist - L[RC] - r;
    if (f <= NEWTON_GAP) {
      L[T] = t;
      return;
    }
    const slope = (ex * dx + ey * dy + ez * dz) / dist;
    if (!(slope < 0)) return;
    t -= f / slope;
    if (t > maxT) return;
  }
}

/** Cyrus-Beck entry (Ericson 5.3.8) of the ray into the hull with every face plane pushed out by r, into L[T]. */
function rayHullGrown(s: ConvexHull): void {
  const r = SPHERE_CAST[6];
  const fn = s.faceNormals,
    fo = s.faceOffsets;
  L[T0] = 0;
  L[T1] = SPHERE_CAST[7];
  L[T] = -1;
  for (let f = 0; f < fo.length; f++) {
    const fx = fn[3 * f],
      fy = fn[3 * f + 1],
      fz = fn[3 * f + 2];
    const denom = fx * L[D] + fy * L[D + 1] + fz * L[D + 2];
    const dist = fo[f] + r - (fx * L[O] + fy * L[O + 1] + fz * L[O + 2]);
    if (denom === 0) {
      if (dist < 0) return;
      continue;
    }
    const t = dist / denom;
    if (denom < 0) {
      if (t > L[T0]) L[T0] = t;
    } else if (t < L[T1]) L[T1] = t;
    if (L[T0] > L[T1]) return;
  }
  L[T] = L[T0];
}

/** The input ray into the pose's frame: L[O..] origin, L[D..] direction. */
function setLocalRay(pose: Pose): void {
  const qx = -pose.qx,
    qy = -pose.qy,
    qz = -pose.qz,
    qw = pose.qw;
  const C = SPHERE_CAST;
  rotateParts(qx, qy, qz, qw, C[0] - pose.px, C[1] - pose.py, C[2] - pose.pz, L, O);
  rotateParts(qx, qy, qz, qw, C[3], C[4], C[5], L, D);
}

/** True when L[Q..] is within r of the piece (touching counts); leaves the core's closest point in L[CP..]. */
function touches(b: ConvexShape): boolean {
  coreClosest(b);
  const ex = L[Q] - L[CP],
    ey = L[Q + 1] - L[CP + 1],
    ez = L[Q + 2] - L[CP + 2];
  const rr = L[RC] + SPHERE_CAST[6];
  return ex * ex + ey * ey + ez * ez <= rr * rr;
}

/**
 * Writes the hit at the ray point L[Q..] (parameter L[T]) into SPHERE_CAST: the normal from the nearest core
 * point L[CP..] toward the sphere's centre and the contact point on the piece's surface (core radius L[RC]),
 * both rotated to world.
 */
function writeHit(pose: Pose): number {
  const C = SPHERE_CAST;
  let nx = L[Q] - L[CP],
    ny = L[Q + 1] - L[CP + 1],
    nz = L[Q + 2] - L[CP + 2];
  const l = Math.sqrt(nx * nx + ny * ny + nz * nz);
  if (l > 0) {
    nx /= l;
    ny /= l;
    nz /= l;
  } else {
    // Only for a zero-length motion through a degenerate piece; face the motion.
    const dl = Math.sqrt(L[D] * L[D] + L[D + 1] * L[D + 1] + L[D + 2] * L[D + 2]);
    nx = -L[D] / dl;
    ny = -L[D + 1] / dl;
    nz = -L[D + 2] / dl;
  }
  const t = L[T];
  C[8] = t === 0 ? 0 : t;
  const rc = L[RC];
  rotateParts(pose.qx, pose.qy, pose.qz, pose.qw, nx, ny, nz, C, 9);
  rotateParts(pose.qx, pose.qy, pose.qz, pose.qw, L[CP] + rc * nx, L[CP + 1] + rc * ny, L[CP + 2] + rc * nz, W, 0);
  C[12] = W[0] + pose.px;
  C[13] = W[1] + pose.py;
  C[14] = W[2] + pose.pz;
  return CAST_HIT;
}

/**
 * Sphere cast (SPHERE_CAST input) against a sphere, capsule, box, cylinder or convex hull at `pose`.
 * Returns CAST_MISS, CAST_HIT (SPHERE_CAST output written) or CAST_FALLBACK (touching or overlapping at the
 * start, or another shape type).
 */
export function sphereCastConvex(b: ConvexShape, pose: Pose): number {
  const type = b.type;
  if (type !== ShapeType.Sphere && type !== ShapeType.Capsule && type !== ShapeType.Box && type !== ShapeType.Cylinder && type !== ShapeType.ConvexHull)
    return CAST_FALLBACK;
  setLocalRay(pose);
  L[Q] = L[O];
  L[Q + 1] = L[O + 1];
  L[Q + 2] = L[O + 2];
  if (touches(b)) return CAST_FALLBACK;
  const r = SPHERE_CAST[6];
  switch (type) {
    case ShapeType.Sphere:
      L.fill(0, SP, SU + 3);
      L[RAD] = (b as Sphere).radius + r;
      raySphere();
      break;
    case ShapeType.Capsule: {
      const s = b as Capsule;
      L.fill(0, SP, SU + 3);
      L[SP + 1] = -s.halfLength;
      L[SU + 1] = 2 * s.halfLength;
      L[RAD] = s.radius + r;
      rayCapsule();
      break;
    }
    case ShapeType.Box:
      castBox(b as Box);
      break;
    case ShapeType.Cylinder: {
      const s = b as Cylinder;
      rayCappedCylinder(s.radius + r, s.halfHeight + r);
      if (L[T] >= 0) newton(b);
      break;
    }
    default:
      rayHullGrown(b as ConvexHull);
      if (L[T] >= 0) newton(b);
  }
  const t = L[T];
  if (!(t >= 0 && t <= SPHERE_CAST[7])) return CAST_MISS;
  setQueryPoint(t);
  coreClosest(b);
  return writeHit(pose);
}

/**
 * Sphere cast (SPHERE_CAST input) against the triangle with corners v[0..8] in the frame of `pose` (a mesh or
 * heightfield piece, two-sided). Same returns as {@link sphereCastConvex}.
 */
export function sphereCastTriangle(v: Float64Array, pose: Pose): number {
  const r = SPHERE_CAST[6];
  setLocalRay(pose);
  for (let i = 0; i < 9; i++) TRI[i] = v[i];
  closestOnTriangle(L[O], L[O + 1], L[O + 2], TRI, 0, L, CP);
  const gx = L[O] - L[CP],
    gy = L[O + 1] - L[CP + 1],
    gz = L[O + 2] - L[CP + 2];
  if (gx * gx + gy * gy + gz * gz <= r * r) return CAST_FALLBACK;
  const ax = TRI[0],
    ay = TRI[1],
    az = TRI[2];
  const abx = TRI[3] - ax,
    aby = TRI[4] - ay,
    abz = TRI[5] - az;
  const acx = TRI[6] - ax,
    acy = TRI[7] - ay,
    acz = TRI[8] - az;
  // Unnormalized normal (ab x ac).
  const nx = aby * acz - abz * acy,
    ny = abz * acx - abx * acz,
    nz = abx * acy - aby * acx;
  const nl = Math.sqrt(nx * nx + ny * ny + nz * nz);
  L[T0] = -1;
  if (nl > 1e-30) {
    // The offset face on the origin's side, when the origin is beyond it and the ray heads toward it.
    const h = (nx * (L[O] - ax) + ny * (L[O + 1] - ay) + nz * (L[O + 2] - az)) / nl;
    const dn = (nx * L[D] + ny * L[D + 1] + nz * L[D + 2]) / nl;
    const side = h > 0 ? 1 : -1;
    if (h * side > r && dn * side < 0) {
      const tf = (h * side - r) / -(dn * side);
      setQueryPoint(tf);
      // Inside the triangle (the normal component drops out of each edge test).
      if (edgeSide(0, 3, nx, ny, nz) && edgeSide(3, 6, nx, ny, nz) && edgeSide(6, 0, nx, ny, nz)) L[T0] = tf;
    }
  }
  if (L[T0] < 0) {
    // Through the edge capsules (corner spheres included): the earliest entry.
    for (let e = 0; e < 9; e += 3) {
      setTriangleEdge(e, e === 6 ? 0 : e + 3, r);
      keepEarliestCapsule();
    }
  }
  const t = L[T0];
  if (!(t >= 0 && t <= SPHERE_CAST[7])) return CAST_MISS;
  L[T] = t;
  setQueryPoint(t);
  closestOnTriangle(L[Q], L[Q + 1], L[Q + 2], TRI, 0, L, CP);
  L[RC] = 0;
  return writeHit(pose);
}

/** True when L[Q..] is on the inner side of the edge TRI[i] -> TRI[j] (normal n): ((vj - vi) x (q - vi)) . n >= 0. */
function edgeSide(i: number, j: number, nx: number, ny: number, nz: number): boolean {
  const ux = TRI[j] - TRI[i],
    uy = TRI[j + 1] - TRI[i + 1],
    uz = TRI[j + 2] - TRI[i + 2];
  const px = L[Q] - TRI[i],
    py = L[Q + 1] - TRI[i + 1],
    pz = L[Q + 2] - TRI[i + 2];
  return (uy * pz - uz * py) * nx + (uz * px - ux * pz) * ny + (ux * py - uy * px) * nz >= 0;
}
