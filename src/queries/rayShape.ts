/**
 * Exact ray casts against the convex shapes (convex hulls included) and compounds, and point containment.
 *
 * The ray is origin + t * d with d of any non-zero length; t is in units of d. Each test transforms the
 * ray into the shape's local frame (rotation preserves t), runs a closed-form local test and rotates the
 * normal back. References: Ericson, Real-Time Collision Detection, 5.3.2 (ray-sphere), 5.3.3 (slab test),
 * 5.3.7 (ray-cylinder); Press et al., Numerical Recipes 5.6 for the cancellation-free quadratic roots.
 *
 * Inside rule (what Babylon users see from Havok): a ray whose origin is strictly inside a convex shape
 * does not hit it, nor does a ray starting on the surface unless it heads inward (then t = 0). Touching
 * (grazing) contacts count as hits. For compounds the rule is applied per child.
 *
 * Allocation-free: the local ray and the local normal live in module-level scratch.
 */
import { clipSlab } from "../math/aabb";
import { Pose } from "../math/pose";
import { Quat, rotateVec, rotateVecInv } from "../math/quat";
import { Vec3 } from "../math/vec3";
import type { Box } from "../shapes/box";
import type { Capsule } from "../shapes/capsule";
import type { ChildGate } from "../shapes/childGate";
import type { Compound } from "../shapes/compound";
import type { ConvexHull } from "../shapes/convexHull";
import type { Cylinder } from "../shapes/cylinder";
import type { Shape } from "../shapes/shape";
import { ShapeType } from "../shapes/shapeType";
import type { Sphere } from "../shapes/sphere";
import { LocalTriangleHit, type TriangleSource } from "../shapes/triangleSource";

/** A ray hit: parameter t along the ray, world unit outward normal, and the compound child (or -1). */
export class RayHit {
  t = 0;
  normalX = 0;
  normalY = 0;
  normalZ = 0;
  childIndex = -1;
}

/** Returned by the local tests for "no hit"; valid hits have t >= 0. */
const MISS = -1;

/**
 * The local-frame ray (origin, direction; written by setLocalRay) and the outward normal of the last hit (not
 * necessarily unit until normalized by the dispatcher). Fields of one object, created with doubles, rather than
 * module-level `let`s (docs/design.md).
 */
class LocalRay {
  ox = 0.5;
  oy = 0.5;
  oz = 0.5;
  dx = 0.5;
  dy = 0.5;
  dz = 0.5;
  nx = 0.5;
  ny = 0.5;
  nz = 0.5;
}
const lr = new LocalRay();

const scratchQuat = new Quat();
const scratchVec = new Vec3();
const childPose = new Pose();
const childHit = new RayHit();

function setQuat(pose: Pose): Quat {
  return scratchQuat.set(pose.qx, pose.qy, pose.qz, pose.qw);
}

function setLocalRay(pose: Pose, wox: number, woy: number, woz: number, wdx: number, wdy: number, wdz: number): void {
  const q = setQuat(pose);
  rotateVecInv(q, wox - pose.px, woy - pose.py, woz - pose.pz, scratchVec);
  lr.ox = scratchVec.x;
  lr.oy = scratchVec.y;
  lr.oz = scratchVec.z;
  rotateVecInv(q, wdx, wdy, wdz, scratchVec);
  lr.dx = scratchVec.x;
  lr.dy = scratchVec.y;
  lr.dz = scratchVec.z;
}

/**
 * Ray against the sphere of radius r centred at (cx, cy, cz) in the local frame (Ericson 5.3.2).
 * Returns the entry t or MISS; writes the normal on a hit.
 */
function raySphereLocal(cx: number, cy: number, cz: number, r: number): number {
  const mx = lr.ox - cx,
    my = lr.oy - cy,
    mz = lr.oz - cz;
  const b = mx * lr.dx + my * lr.dy + mz * lr.dz;
  const c = mx * mx + my * my + mz * mz - r * r;
  // Strictly inside, or on/outside and not approaching the centre: no entry ahead of the origin.
  if (c < 0 || b >= 0) return MISS;
  let t = 0;
  if (c > 0) {
    const a = lr.dx * lr.dx + lr.dy * lr.dy + lr.dz * lr.dz;
    const disc = b * b - a * c;
    if (disc < 0) return MISS;
    // Smaller root written as c / (-b + sqrt(disc)): no cancellation since -b > 0 (Numerical Recipes 5.6).
    t = c / (-b + Math.sqrt(disc));
  }
  lr.nx = mx + t * lr.dx;
  lr.ny = my + t * lr.dy;
  lr.nz = mz + t * lr.dz;
  return t;
}

/** [tEnter, tExit] of rayBoxLocal. */
const SLAB_T = new Float64Array(2);

/** Ray against a box centred at the origin with half extents (hx, hy, hz): the slab test (Ericson 5.3.3). */
function rayBoxLocal(hx: number, hy: number, hz: number): number {
  const T = SLAB_T;
  T[0] = -Infinity;
  T[1] = Infinity;
  // The entry face: the last axis whose slab raised tEnter, its outward normal against the ray.
  let axis = -1;
  let k = clipSlab(lr.ox, lr.dx, 1 / lr.dx, -hx, hx, T);
  if (k < 0) return MISS;
  if (k > 0) axis = 0;
  k = clipSlab(lr.oy, lr.dy, 1 / lr.dy, -hy, hy, T);
  if (k < 0) return MISS;
  if (k > 0) axis = 1;
  k = clipSlab(lr.oz, lr.dz, 1 / lr.dz, -hz, hz, T);
  if (k < 0) return MISS;
  if (k > 0) axis = 2;
  const tEnter = T[0],
    tExit = T[1];
  const d = axis === 0 ? lr.dx : axis === 1 ? lr.dy : lr.dz;
  const sign = d > 0 ? -1 : 1;
  // tEnter < 0: origin inside (or on the surface heading out) or box behind; also covers d = 0.
  // tExit <= 0 with tEnter >= 0: on the surface sliding along or off it.
  if (tEnter < 0 || tEnter > tExit || tExit <= 0) return MISS;
  lr.nx = axis === 0 ? sign : 0;
  lr.ny = axis === 1 ? sign : 0;
  lr.nz = axis === 2 ? sign : 0;
  return tEnter;
}

/**
 * Ray against a capsule (segment y in [-hl, hl], radius r). The capsule lies inside the infinite
 * cylinder of radius r about Y, so the ray enters through the side where the infinite-cylinder entry
 * has |y| <= hl, and otherwise through the end sphere on that side, if at all (Ericson 5.3.7 idea).
 */
function rayCapsuleLocal(r: number, hl: number): number {
  const r2 = r * r;
  const cy = lr.oy > hl ? hl : lr.oy < -hl ? -hl : lr.oy;
  const ey = lr.oy - cy;
  if (lr.ox * lr.ox + ey * ey + lr.oz * lr.oz < r2) return MISS; // strictly inside
  const a = lr.dx * lr.dx + lr.dz * lr.dz;
  const b = lr.ox * lr.dx + lr.oz * lr.dz;
  const c = lr.ox * lr.ox + lr.oz * lr.oz - r2;
  let endY: number;
  if (c > 0) {
    // Outside the infinite cylinder: it must approach the axis (b < 0; also rejects rays parallel to Y).
    if (b >= 0) return MISS;
    const disc = b * b - a * c;
    if (disc < 0) return MISS;
    const t = c / (-b + Math.sqrt(disc));
    const y = lr.oy + t * lr.dy;
    if (y >= -hl && y <= hl) {
      lr.nx = lr.ox + t * lr.dx;
      lr.ny = 0;
      lr.nz = lr.oz + t * lr.dz;
      return t;
    }
    endY = y > 0 ? hl : -hl;
  } else {
    if (lr.oy >= -hl && lr.oy <= hl) {
      // On the side surface (c == 0 here since the origin is not strictly inside): hit only heading in.
      if (b >= 0) return MISS;
      lr.nx = lr.ox;
      lr.ny = 0;
      lr.nz = lr.oz;
      return 0;
    }
    // Within the radius but beyond an end: only that end's hemisphere can be entered.
    endY = lr.oy > 0 ? hl : -hl;
  }
  return raySphereLocal(0, endY, 0, r);
}

/**
 * Ray against a cylinder (radius r, axis Y, caps at +-h): the infinite cylinder's interval clipped
 * by the cap slab's (Ericson 5.3.7 works on the same two intervals).
 */
function rayCylinderLocal(r: number, h: number): number {
  let sNear = -Infinity,
    sFar = Infinity,
    capSign = 0;
  if (lr.dy === 0) {
    if (lr.oy < -h || lr.oy > h) return MISS;
  } else {
    const inv = 1 / lr.dy;
    const t1 = (-h - lr.oy) * inv,
      t2 = (h - lr.oy) * inv;
    if (lr.dy > 0) {
      sNear = t1;
      sFar = t2;
      capSign = -1;
    } else {
      sNear = t2;
      sFar = t1;
      capSign = 1;
    }
  }
  let cNear = -Infinity,
    cFar = Infinity;
  const a = lr.dx * lr.dx + lr.dz * lr.dz;
  const b = lr.ox * lr.dx + lr.oz * lr.dz;
  const c = lr.ox * lr.ox + lr.oz * lr.oz - r * r;
  if (a === 0) {
    if (c > 0) return MISS; // parallel to the axis, outside the radius
  } else {
    const disc = b * b - a * c;
    if (disc < 0) return MISS;
    const sq = Math.sqrt(disc);
    // Both roots without cancellation: q = -(b + sign(b) sqrt(disc)), roots q/a and c/q.
    if (b <= 0) {
      const q = -b + sq;
      cFar = q / a;
      cNear = q > 0 ? c / q : 0; // q == 0 only when b == c == 0: tangent at the origin
    } else {
      const q = -b - sq;
      cNear = q / a;
      cFar = c / q;
    }
  }
  const side = cNear > sNear;
  const tEnter = side ? cNear : sNear;
  const tExit = cFar < sFar ? cFar : sFar;
  // As for the box: inside, behind, disjoint intervals, or on the surface not heading in.
  if (tEnter < 0 || tEnter > tExit || tExit <= 0) return MISS;
  if (side) {
    lr.nx = lr.ox + tEnter * lr.dx;
    lr.ny = 0;
    lr.nz = lr.oz + tEnter * lr.dz;
  } else {
    lr.nx = 0;
    lr.ny = capSign;
    lr.nz = 0;
  }
  return tEnter;
}

/**
 * Ray against a convex hull: the ray's interval clipped by every face's half-space (Cyrus-Beck; Ericson
 * 5.3.8 for polyhedra). The entry face gives the normal. Same inside/surface rule as the box.
 */
function rayHullLocal(s: ConvexHull): number {
  const fn = s.faceNormals,
    fo = s.faceOffsets;
  let tEnter = -Infinity,
    tExit = Infinity,
    face = -1;
  for (let f = 0; f < fo.length; f++) {
    const fx = fn[3 * f],
      fy = fn[3 * f + 1],
      fz = fn[3 * f + 2];
    const denom = fx * lr.dx + fy * lr.dy + fz * lr.dz;
    const dist = fo[f] - (fx * lr.ox + fy * lr.oy + fz * lr.oz); // >= 0 when the origin is inside this plane
    if (denom === 0) {
      if (dist < 0) return MISS; // parallel and outside
      continue;
    }
    const t = dist / denom;
    if (denom < 0) {
      if (t > tEnter) {
        tEnter = t;
        face = f;
      }
    } else if (t < tExit) tExit = t;
    if (tEnter > tExit) return MISS;
  }
  if (tEnter < 0 || tEnter > tExit || tExit <= 0 || face < 0) return MISS;
  lr.nx = fn[3 * face];
  lr.ny = fn[3 * face + 1];
  lr.nz = fn[3 * face + 2];
  return tEnter;
}

/** Local test for a convex shape by type; returns t or MISS. */
function rayConvexLocal(shape: Shape): number {
  switch (shape.type) {
    case ShapeType.Sphere:
      return raySphereLocal(0, 0, 0, (shape as Sphere).radius);
    case ShapeType.Box: {
      const s = shape as Box;
      return rayBoxLocal(s.halfX, s.halfY, s.halfZ);
    }
    case ShapeType.Capsule: {
      const s = shape as Capsule;
      return rayCapsuleLocal(s.radius, s.halfLength);
    }
    case ShapeType.Cylinder: {
      const s = shape as Cylinder;
      return rayCylinderLocal(s.radius, s.halfHeight);
    }
    case ShapeType.ConvexHull:
      return rayHullLocal(shape as ConvexHull);
    default:
      return MISS; // meshes and heightfields are not handled here
  }
}

/** The local ray (setLocalRay, for `pose`) against convex `shape`: a hit within maxT into `out` (world normal). */
function castConvex(shape: Shape, pose: Pose, maxT: number, out: RayHit): boolean {
  const t = rayConvexLocal(shape);
  if (t < 0 || t > maxT) return false;
  const nx = lr.nx,
    ny = lr.ny,
    nz = lr.nz;
  const l = Math.sqrt(nx * nx + ny * ny + nz * nz);
  const inv = l > 0 ? 1 / l : 0;
  rotateVec(setQuat(pose), nx * inv, ny * inv, nz * inv, scratchVec);
  out.t = t === 0 ? 0 : t; // fold -0 into 0
  out.normalX = scratchVec.x;
  out.normalY = scratchVec.y;
  out.normalZ = scratchVec.z;
  out.childIndex = -1;
  return true;
}

const triHit = new LocalTriangleHit();

/**
 * The local ray (setLocalRay, for `pose`) against a triangle mesh or heightfield (two-sided: the normal faces the
 * ray); childIndex is the triangle index. A ray starting on a triangle hits it at t = 0.
 */
function castTriangles(shape: Shape & TriangleSource, pose: Pose, maxT: number, out: RayHit, gate: ChildGate | null): boolean {
  if (!shape.rayCastLocal(lr.ox, lr.oy, lr.oz, lr.dx, lr.dy, lr.dz, maxT, triHit, gate)) return false;
  rotateVec(setQuat(pose), triHit.nx, triHit.ny, triHit.nz, scratchVec);
  out.t = triHit.t === 0 ? 0 : triHit.t;
  out.normalX = scratchVec.x;
  out.normalY = scratchVec.y;
  out.normalZ = scratchVec.z;
  out.childIndex = triHit.triangle;
  return true;
}

/**
 * Casts the ray origin + t * (lr.dx, lr.dy, lr.dz), 0 <= t <= maxT, against `shape` at `pose`. On a hit writes
 * `out` (t, world unit outward normal, compound child index or -1) and returns true; on a miss returns
 * false and leaves `out` untouched. Rays starting inside a (child) shape ignore that shape. With a gate, only
 * the compound children or triangles it passes are hit.
 */
export function rayCastShape(
  shape: Shape,
  pose: Pose,
  originX: number,
  originY: number,
  originZ: number,
  dirX: number,
  dirY: number,
  dirZ: number,
  maxT: number,
  out: RayHit,
  gate: ChildGate | null = null,
): boolean {
  if (!(maxT >= 0)) return false;
  if (shape.type !== ShapeType.Compound) {
    setLocalRay(pose, originX, originY, originZ, dirX, dirY, dirZ);
    if (shape.type === ShapeType.Mesh || shape.type === ShapeType.Heightfield) return castTriangles(shape as Shape & TriangleSource, pose, maxT, out, gate);
    return castConvex(shape, pose, maxT, out);
  }
  const children = (shape as Compound).children;
  let best = -1;
  let bestT = maxT;
  for (let i = 0; i < children.length; i++) {
    if (gate !== null && !gate.passes(i)) continue;
    const ch = children[i];
    const cp = ch.pose;
    childPose.compose(pose, cp.px, cp.py, cp.pz, cp.qx, cp.qy, cp.qz, cp.qw);
    setLocalRay(childPose, originX, originY, originZ, dirX, dirY, dirZ);
    if (!castConvex(ch.shape, childPose, bestT, childHit)) continue;
    // Passing bestT as maxT prunes farther children; strict < keeps the first child on exact ties.
    if (best < 0 || childHit.t < bestT) {
      best = i;
      bestT = childHit.t;
      out.t = childHit.t;
      out.normalX = childHit.normalX;
      out.normalY = childHit.normalY;
      out.normalZ = childHit.normalZ;
    }
  }
  if (best < 0) return false;
  out.childIndex = best;
  return true;
}

function pointInConvexLocal(shape: Shape, x: number, y: number, z: number): boolean {
  switch (shape.type) {
    case ShapeType.Sphere: {
      const r = (shape as Sphere).radius;
      return x * x + y * y + z * z <= r * r;
    }
    case ShapeType.Box: {
      const s = shape as Box;
      return x >= -s.halfX && x <= s.halfX && y >= -s.halfY && y <= s.halfY && z >= -s.halfZ && z <= s.halfZ;
    }
    case ShapeType.Capsule: {
      const s = shape as Capsule;
      const hl = s.halfLength;
      const ey = y > hl ? y - hl : y < -hl ? y + hl : 0;
      return x * x + ey * ey + z * z <= s.radius * s.radius;
    }
    case ShapeType.Cylinder: {
      const s = shape as Cylinder;
      return y >= -s.halfHeight && y <= s.halfHeight && x * x + z * z <= s.radius * s.radius;
    }
    case ShapeType.ConvexHull:
      return (shape as ConvexHull).containsLocal(x, y, z);
    default:
      return false;
  }
}

/** True when the world point (x, y, z) lies in the solid shape at `pose`; the surface counts as inside. */
export function pointInShape(shape: Shape, pose: Pose, x: number, y: number, z: number): boolean {
  if (shape.type !== ShapeType.Compound) {
    rotateVecInv(setQuat(pose), x - pose.px, y - pose.py, z - pose.pz, scratchVec);
    return pointInConvexLocal(shape, scratchVec.x, scratchVec.y, scratchVec.z);
  }
  const children = (shape as Compound).children;
  for (let i = 0; i < children.length; i++) {
    const ch = children[i];
    const cp = ch.pose;
    childPose.compose(pose, cp.px, cp.py, cp.pz, cp.qx, cp.qy, cp.qz, cp.qw);
    rotateVecInv(setQuat(childPose), x - childPose.px, y - childPose.py, z - childPose.pz, scratchVec);
    if (pointInConvexLocal(ch.shape, scratchVec.x, scratchVec.y, scratchVec.z)) return true;
  }
  return false;
}
