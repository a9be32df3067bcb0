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
 * Doubles cross the calls through module-level Float64Arrays (V8 boxes double arguments and returns of calls
 * it does not inline), so a cast allocates nothing.
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
import { closestOnTriangle, rotate } from "./poseMath";
import { PointPiece } from "./trianglePiece";

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
 * Local-frame scratch: [0..2] ray origin, [3..5] ray direction, [6..8] closest point on the piece's core,
 * [13..14] the ray interval clipped by slabs.
 */
const L = new Float64Array(16);
const W = new Float64Array(3);
const TRI = new Float64Array(9);
const point = new PointPiece();
const pointPose = new Pose();
const identity = new Pose();
const gjk = new GjkResult();

/** Entry parameter of the ray (L origin, L direction) into the sphere of radius rad at (cx, cy, cz), or -1. */
function raySphere(cx: number, cy: number, cz: number, rad: number): number {
  const mx = L[0] - cx,
    my = L[1] - cy,
    mz = L[2] - cz;
  const dx = L[3],
    dy = L[4],
    dz = L[5];
  const b = mx * dx + my * dy + mz * dz;
  const c = mx * mx + my * my + mz * mz - rad * rad;
  // On or inside (only reached through rounding: callers start outside): an entry at 0 when heading in.
  if (c <= 0) return b < 0 ? 0 : -1;
  if (b >= 0) return -1;
  const disc = b * b - (dx * dx + dy * dy + dz * dz) * c;
  if (disc < 0) return -1;
  // Smaller root as c / (-b + sqrt(disc)): no cancellation since -b > 0 (Numerical Recipes 5.6).
  return c / (-b + Math.sqrt(disc));
}

/**
 * Entry parameter of the ray into the capsule of radius rad about the segment p + s u, s in [0, 1], or -1.
 * The origin is outside the capsule. The capsule lies in the infinite cylinder about the segment's line: the
 * ray enters through the side where the cylinder entry falls within the segment, and otherwise through the
 * end sphere on that side, if at all (any path into the capsule from beyond an end crosses that end's sphere).
 */
function rayCapsule(px: number, py: number, pz: number, ux: number, uy: number, uz: number, rad: number): number {
  const uu = ux * ux + uy * uy + uz * uz;
  if (!(uu > 1e-24)) return raySphere(px, py, pz, rad);
  const mx = L[0] - px,
    my = L[1] - py,
    mz = L[2] - pz;
  const dx = L[3],
    dy = L[4],
    dz = L[5];
  const md = mx * ux + my * uy + mz * uz,
    nd = dx * ux + dy * uy + dz * uz,
    dd = dx * dx + dy * dy + dz * dz;
  const inv = 1 / uu;
  const c = mx * mx + my * my + mz * mz - md * md * inv - rad * rad;
  let s: number;
  if (c > 0) {
    // Outside the infinite cylinder: it must approach the axis.
    const a = dd - nd * nd * inv;
    const b = mx * dx + my * dy + mz * dz - md * nd * inv;
    if (b >= 0 || !(a > 1e-14 * dd)) return -1;
    const disc = b * b - a * c;
    if (disc < 0) return -1;
    const t = c / (-b + Math.sqrt(disc));
    s = (md + t * nd) * inv;
    if (s >= 0 && s <= 1) return t;
  } else s = md * inv;
  return s < 0.5 ? raySphere(px, py, pz, rad) : raySphere(px + ux, py + uy, pz + uz, rad);
}

/**
 * Clips the ray interval [L[13], L[14]] to the slab |x_k| <= h (Ericson 5.3.3); false when it becomes empty. A
 * ray parallel to the slab lies inside it for all t or never (the boundary counts as inside).
 */
function clipSlab(k: number, h: number): boolean {
  const o = L[k],
    d = L[3 + k];
  if (d === 0) return o >= -h && o <= h;
  const inv = 1 / d;
  let a = (-h - o) * inv,
    b = (h - o) * inv;
  if (a > b) {
    const s = a;
    a = b;
    b = s;
  }
  if (a > L[13]) L[13] = a;
  if (b < L[14]) L[14] = b;
  return L[13] <= L[14];
}

/** Slab entry of the ray into the box of half extents (hx, hy, hz), clamped to 0; -1 on a miss. */
function raySlabs(hx: number, hy: number, hz: number, maxT: number): number {
  L[13] = 0;
  L[14] = maxT;
  return clipSlab(0, hx) && clipSlab(1, hy) && clipSlab(2, hz) ? L[13] : -1;
}

/** Ray against the box (hx, hy, hz) grown by r: the slab test, then the edge capsules (Ericson 5.5.7). */
function castBox(hx: number, hy: number, hz: number, r: number, maxT: number): number {
  const t = raySlabs(hx + r, hy + r, hz + r, maxT);
  if (t < 0) return -1;
  const x = L[0] + t * L[3],
    y = L[1] + t * L[4],
    z = L[2] + t * L[5];
  const sx = x > hx ? 1 : x < -hx ? -1 : 0,
    sy = y > hy ? 1 : y < -hy ? -1 : 0,
    sz = z > hz ? 1 : z < -hz ? -1 : 0;
  const outside = (sx !== 0 ? 1 : 0) + (sy !== 0 ? 1 : 0) + (sz !== 0 ? 1 : 0);
  // A face region: the grown face is the rounded box's surface there.
  if (outside <= 1) return t;
  if (outside === 2) {
    // The edge along the axis that is inside.
    if (sx === 0) return rayCapsule(-hx, sy * hy, sz * hz, 2 * hx, 0, 0, r);
    if (sy === 0) return rayCapsule(sx * hx, -hy, sz * hz, 0, 2 * hy, 0, r);
    return rayCapsule(sx * hx, sy * hy, -hz, 0, 0, 2 * hz, r);
  }
  // A vertex region: the earliest of the three edge capsules meeting at the corner.
  const vx = sx * hx,
    vy = sy * hy,
    vz = sz * hz;
  let best = -1;
  let e = rayCapsule(vx, vy, vz, -2 * vx, 0, 0, r);
  if (e >= 0) best = e;
  e = rayCapsule(vx, vy, vz, 0, -2 * vy, 0, r);
  if (e >= 0 && (best < 0 || e < best)) best = e;
  e = rayCapsule(vx, vy, vz, 0, 0, -2 * vz, r);
  if (e >= 0 && (best < 0 || e < best)) best = e;
  return best;
}

/**
 * Entry of the ray into the capped cylinder of radius rad, axis Y, half height h, clamped to 0 (-1 on a miss):
 * the infinite cylinder's interval clipped by the cap slab's (Ericson 5.3.7).
 */
function rayCappedCylinder(rad: number, h: number, maxT: number): number {
  L[13] = 0;
  L[14] = maxT;
  if (!clipSlab(1, h)) return -1;
  const ox = L[0],
    oz = L[2],
    dx = L[3],
    dz = L[5];
  const a = dx * dx + dz * dz;
  const b = ox * dx + oz * dz;
  const c = ox * ox + oz * oz - rad * rad;
  if (a === 0) {
    if (c > 0) return -1;
  } else {
    const disc = b * b - a * c;
    if (disc < 0) return -1;
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
    if (near > L[13]) L[13] = near;
    if (far < L[14]) L[14] = far;
  }
  return L[13] <= L[14] ? L[13] : -1;
}

/**
 * Writes the point of the piece's core nearest to the local point (x, y, z) into L[6..8] and returns the
 * core's rounding radius (the sphere's and capsule's radius; 0 for the others). Hulls use GJK.
 */
function coreClosest(b: ConvexShape, x: number, y: number, z: number): number {
  switch (b.type) {
    case ShapeType.Sphere:
      L[6] = L[7] = L[8] = 0;
      return (b as Sphere).radius;
    case ShapeType.Capsule: {
      const hl = (b as Capsule).halfLength;
      L[6] = 0;
      L[7] = y > hl ? hl : y < -hl ? -hl : y;
      L[8] = 0;
      return (b as Capsule).radius;
    }
    case ShapeType.Box: {
      const s = b as Box;
      L[6] = x > s.halfX ? s.halfX : x < -s.halfX ? -s.halfX : x;
      L[7] = y > s.halfY ? s.halfY : y < -s.halfY ? -s.halfY : y;
      L[8] = z > s.halfZ ? s.halfZ : z < -s.halfZ ? -s.halfZ : z;
      return 0;
    }
    case ShapeType.Cylinder: {
      const s = b as Cylinder;
      const rho2 = x * x + z * z;
      const k = rho2 > s.radius * s.radius ? s.radius / Math.sqrt(rho2) : 1;
      L[6] = x * k;
      L[7] = y > s.halfHeight ? s.halfHeight : y < -s.halfHeight ? -s.halfHeight : y;
      L[8] = z * k;
      return 0;
    }
    default: {
      // Convex hull: GJK between the point and the hull, both in the hull's frame.
      pointPose.set(x, y, z, 0, 0, 0, 1);
      gjkDistance(point, pointPose, b, identity, gjk);
      L[6] = gjk.bx;
      L[7] = gjk.by;
      L[8] = gjk.bz;
      return 0;
    }
  }
}

/**
 * Newton's method on f(t) = |p(t) - core(p(t))| - rc - r from t (f(t) >= 0), p(t) = origin + t d. Returns the
 * first root within maxT or -1. Each step lands at or before the root (f is convex), so the result never
 * passes through the piece.
 */
function newton(b: ConvexShape, t: number, r: number, maxT: number): number {
  const dx = L[3],
    dy = L[4],
    dz = L[5];
  for (let it = 0; it < NEWTON_ITERATIONS; it++) {
    const x = L[0] + t * dx,
      y = L[1] + t * dy,
      z = L[2] + t * dz;
    const rc = coreClosest(b, x, y, z);
    const ex = x - L[6],
      ey = y - L[7],
      ez = z - L[8];
    const dist = Math.sqrt(ex * ex + ey * ey + ez * ez);
    const f = dist - rc - r;
    if (f <= NEWTON_GAP) return t;
    const slope = (ex * dx + ey * dy + ez * dz) / dist;
    if (!(slope < 0)) return -1;
    t -= f / slope;
    if (t > maxT) return -1;
  }
  return -1;
}

/** Cyrus-Beck entry (Ericson 5.3.8) of the ray into the hull with every face plane pushed out by r; -1 on a miss. */
function rayHullGrown(s: ConvexHull, r: number, maxT: number): number {
  const fn = s.faceNormals,
    fo = s.faceOffsets;
  let t0 = 0,
    t1 = maxT;
  for (let f = 0; f < fo.length; f++) {
    const fx = fn[3 * f],
      fy = fn[3 * f + 1],
      fz = fn[3 * f + 2];
    const denom = fx * L[3] + fy * L[4] + fz * L[5];
    const dist = fo[f] + r - (fx * L[0] + fy * L[1] + fz * L[2]);
    if (denom === 0) {
      if (dist < 0) return -1;
      continue;
    }
    const t = dist / denom;
    if (denom < 0) {
      if (t > t0) t0 = t;
    } else if (t < t1) t1 = t;
    if (t0 > t1) return -1;
  }
  return t0;
}

/** The input ray into the pose's frame: L[0..2] origin, L[3..5] direction. */
function setLocalRay(pose: Pose): void {
  const qx = -pose.qx,
    qy = -pose.qy,
    qz = -pose.qz,
    qw = pose.qw;
  const C = SPHERE_CAST;
  rotate(qx, qy, qz, qw, C[0] - pose.px, C[1] - pose.py, C[2] - pose.pz, L, 0);
  rotate(qx, qy, qz, qw, C[3], C[4], C[5], L, 3);
}

/** True when the local point (x, y, z) is within r + the core radius of the piece's core (touching counts). */
function touches(b: ConvexShape, x: number, y: number, z: number, r: number): boolean {
  const rc = coreClosest(b, x, y, z);
  const ex = x - L[6],
    ey = y - L[7],
    ez = z - L[8];
  const rr = rc + r;
  return ex * ex + ey * ey + ez * ez <= rr * rr;
}

/**
 * Writes the hit at local parameter t into SPHERE_CAST: the normal from the nearest core point toward the
 * sphere's centre, the contact point on the piece's surface, both rotated to world. rc is the core radius.
 */
function writeHit(pose: Pose, t: number, rc: number): number {
  const C = SPHERE_CAST;
  const x = L[0] + t * L[3],
    y = L[1] + t * L[4],
    z = L[2] + t * L[5];
  let nx = x - L[6],
    ny = y - L[7],
    nz = z - L[8];
  const l = Math.sqrt(nx * nx + ny * ny + nz * nz);
  if (l > 0) {
    nx /= l;
    ny /= l;
    nz /= l;
  } else {
    // Only for a zero-length motion through a degenerate piece; face the motion.
    const dl = Math.sqrt(L[3] * L[3] + L[4] * L[4] + L[5] * L[5]);
    nx = -L[3] / dl;
    ny = -L[4] / dl;
    nz = -L[5] / dl;
  }
  C[8] = t === 0 ? 0 : t;
  rotate(pose.qx, pose.qy, pose.qz, pose.qw, nx, ny, nz, C, 9);
  rotate(pose.qx, pose.qy, pose.qz, pose.qw, L[6] + rc * nx, L[7] + rc * ny, L[8] + rc * nz, W, 0);
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
  const r = SPHERE_CAST[6],
    maxT = SPHERE_CAST[7];
  setLocalRay(pose);
  if (touches(b, L[0], L[1], L[2], r)) return CAST_FALLBACK;
  let t: number;
  switch (type) {
    case ShapeType.Sphere:
      t = raySphere(0, 0, 0, (b as Sphere).radius + r);
      break;
    case ShapeType.Capsule: {
      const s = b as Capsule;
      t = rayCapsule(0, -s.halfLength, 0, 0, 2 * s.halfLength, 0, s.radius + r);
      break;
    }
    case ShapeType.Box: {
      const s = b as Box;
      t = castBox(s.halfX, s.halfY, s.halfZ, r, maxT);
      break;
    }
    case ShapeType.Cylinder: {
      const s = b as Cylinder;
      t = rayCappedCylinder(s.radius + r, s.halfHeight + r, maxT);
      if (t >= 0) t = newton(b, t, r, maxT);
      break;
    }
    default:
      t = rayHullGrown(b as ConvexHull, r, maxT);
      if (t >= 0) t = newton(b, t, r, maxT);
  }
  if (!(t >= 0 && t <= maxT)) return CAST_MISS;
  const x = L[0] + t * L[3],
    y = L[1] + t * L[4],
    z = L[2] + t * L[5];
  return writeHit(pose, t, coreClosest(b, x, y, z));
}

/**
 * Sphere cast (SPHERE_CAST input) against the triangle with corners v[0..8] in the frame of `pose` (a mesh or
 * heightfield piece, two-sided). Same returns as {@link sphereCastConvex}.
 */
export function sphereCastTriangle(v: Float64Array, pose: Pose): number {
  const r = SPHERE_CAST[6],
    maxT = SPHERE_CAST[7];
  setLocalRay(pose);
  for (let i = 0; i < 9; i++) TRI[i] = v[i];
  closestOnTriangle(L[0], L[1], L[2], TRI, 0, L, 6);
  let ex = L[0] - L[6],
    ey = L[1] - L[7],
    ez = L[2] - L[8];
  if (ex * ex + ey * ey + ez * ez <= r * r) return CAST_FALLBACK;
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
  let t = -1;
  if (nl > 1e-30) {
    // The offset face on the origin's side, when the origin is beyond it and the ray heads toward it.
    const h = (nx * (L[0] - ax) + ny * (L[1] - ay) + nz * (L[2] - az)) / nl;
    const dn = (nx * L[3] + ny * L[4] + nz * L[5]) / nl;
    const side = h > 0 ? 1 : -1;
    if (h * side > r && dn * side < 0) {
      const tf = (h * side - r) / -(dn * side);
      const x = L[0] + tf * L[3],
        y = L[1] + tf * L[4],
        z = L[2] + tf * L[5];
      // Inside the triangle (the normal component drops out of each edge test).
      if (edgeSide(0, 3, x, y, z, nx, ny, nz) && edgeSide(3, 6, x, y, z, nx, ny, nz) && edgeSide(6, 0, x, y, z, nx, ny, nz)) t = tf;
    }
  }
  if (t < 0) {
    // Through the edge capsules (corner spheres included): the earliest entry.
    let e = rayCapsule(ax, ay, az, abx, aby, abz, r);
    if (e >= 0) t = e;
    e = rayCapsule(TRI[3], TRI[4], TRI[5], TRI[6] - TRI[3], TRI[7] - TRI[4], TRI[8] - TRI[5], r);
    if (e >= 0 && (t < 0 || e < t)) t = e;
    e = rayCapsule(TRI[6], TRI[7], TRI[8], -acx, -acy, -acz, r);
    if (e >= 0 && (t < 0 || e < t)) t = e;
  }
  if (!(t >= 0 && t <= maxT)) return CAST_MISS;
  ex = L[0] + t * L[3];
  ey = L[1] + t * L[4];
  ez = L[2] + t * L[5];
  closestOnTriangle(ex, ey, ez, TRI, 0, L, 6);
  return writeHit(pose, t, 0);
}

/** True when (x, y, z) is on the inner side of the edge TRI[i] -> TRI[j] (normal n): ((vj - vi) x (p - vi)) . n >= 0. */
function edgeSide(i: number, j: number, x: number, y: number, z: number, nx: number, ny: number, nz: number): boolean {
  const ux = TRI[j] - TRI[i],
    uy = TRI[j + 1] - TRI[i + 1],
    uz = TRI[j + 2] - TRI[i + 2];
  const px = x - TRI[i],
    py = y - TRI[i + 1],
    pz = z - TRI[i + 2];
  return (uy * pz - uz * py) * nx + (uz * px - ux * pz) * ny + (ux * py - uy * px) * nz >= 0;
}
