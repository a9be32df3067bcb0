import { grown } from "../collections/growth";
import { Pose } from "../math/pose";
import type { Compound } from "../shapes/compound";
import type { ConvexShape, Shape } from "../shapes/shape";
import { ShapeType, ShapeTypeCount } from "../shapes/shapeType";
import { collideBoxBox } from "./boxBox";
import { collideCapsuleBox } from "./capsuleBox";
import { collideCapsuleCapsule } from "./capsuleCapsule";
import type { ContactManifold, ManifoldBuffer } from "./contactManifold";
import { collideConvexGeneric } from "./convexGeneric";
import { collideWithTrianglesInto, isTriangleShape } from "./convexMesh";
import { collideTrianglesTrianglesInto } from "./meshMesh";
import { collideSphereBox } from "./sphereBox";
import { collideSphereCapsule } from "./sphereCapsule";
import { collideSphereSphere } from "./sphereSphere";

/**
 * A convex-pair tester. Writes `out` (normal from A toward B, up to 4 contacts with depth >= -margin,
 * count 0 when farther apart than the margin). Does not touch out.childA / out.childB.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type ConvexTester = (a: any, pa: Pose, b: any, pb: Pose, speculativeMargin: number | undefined, out: ContactManifold) => void;

/** Tester per (typeA * ShapeTypeCount + typeB); null for pairs no tester handles. */
const TESTERS: (ConvexTester | null)[] = [];
/** 1 where the tester is written for (typeB, typeA): call it swapped and flip the manifold. */
const SWAPPED = new Uint8Array(ShapeTypeCount * ShapeTypeCount);
for (let i = 0; i < ShapeTypeCount * ShapeTypeCount; i++) TESTERS.push(null);

/** Registers a tester written for (lo, hi) shape order; (hi, lo) calls it swapped. */
function register(lo: number, hi: number, fn: ConvexTester): void {
  TESTERS[lo * ShapeTypeCount + hi] = fn;
  SWAPPED[lo * ShapeTypeCount + hi] = 0;
  if (lo !== hi) {
    TESTERS[hi * ShapeTypeCount + lo] = fn;
    SWAPPED[hi * ShapeTypeCount + lo] = 1;
  }
}

register(ShapeType.Sphere, ShapeType.Sphere, collideSphereSphere);
register(ShapeType.Sphere, ShapeType.Capsule, collideSphereCapsule);
register(ShapeType.Sphere, ShapeType.Box, collideSphereBox);
register(ShapeType.Capsule, ShapeType.Capsule, collideCapsuleCapsule);
register(ShapeType.Capsule, ShapeType.Box, collideCapsuleBox);
register(ShapeType.Box, ShapeType.Box, collideBoxBox);
// Every other convex pair (all cylinder pairs, and convex hulls) goes to GJK/EPA + feature clipping,
// which accepts either argument order.
{
  const convexTypes = [ShapeType.Sphere, ShapeType.Capsule, ShapeType.Cylinder, ShapeType.Box, ShapeType.ConvexHull];
  for (const ta of convexTypes) {
    for (const tb of convexTypes) {
      const k = ta * ShapeTypeCount + tb;
      if (TESTERS[k] === null) {
        TESTERS[k] = collideConvexGeneric;
        SWAPPED[k] = 0;
      }
    }
  }
}

/** The tester registered for (typeA, typeB), or null. For inspection and tests. */
export function convexTesterFor(typeA: number, typeB: number): ConvexTester | null {
  return TESTERS[typeA * ShapeTypeCount + typeB] ?? null;
}

/**
 * Collides two convex shapes through the dispatch table. Leaves out.childA / out.childB to the caller
 * (flipping a swapped result exchanges them).
 */
export function collideConvex(a: ConvexShape, pa: Pose, b: ConvexShape, pb: Pose, margin: number, out: ContactManifold): void {
  out.margin = margin;
  collideConvexInto(a, pa, b, pb, out);
}

/** {@link collideConvex} with the margin in out.margin: testers are called without a double argument. */
function collideConvexInto(a: ConvexShape, pa: Pose, b: ConvexShape, pb: Pose, out: ContactManifold): void {
  const k = a.type * ShapeTypeCount + b.type;
  const fn = TESTERS[k];
  if (fn === null || fn === undefined) {
    throw new TypeError(`collideConvex: no tester for shape types ${a.type} and ${b.type}`);
  }
  if (SWAPPED[k] === 1) {
    fn(b, pb, a, pa, undefined, out);
    out.flip();
  } else {
    fn(a, pa, b, pb, undefined, out);
  }
}

// Scratch for compound traversal: the current child pose of A, a pool of B's child poses (grown on
// demand, reused after), and AABBs (6 numbers each).
const childPoseA = new Pose();
const childPosesB: Pose[] = [];
let aabbB = new Float64Array(6 * 16);
const AABB = new Float64Array(12); // [0..5] A side, [6..11] B side

function overlaps(p: Float64Array, i: number, q: Float64Array, j: number, out: ManifoldBuffer): boolean {
  const margin = out.margin;
  return (
    p[i] - margin <= q[j + 3] &&
    q[j] - margin <= p[i + 3] &&
    p[i + 1] - margin <= q[j + 4] &&
    q[j + 1] - margin <= p[i + 4] &&
    p[i + 2] - margin <= q[j + 5] &&
    q[j + 2] - margin <= p[i + 5]
  );
}

/** Runs one convex pair into a new manifold of `out`; drops it when empty, else tags the children. */
function pairInto(
  a: ConvexShape,
  pa: Pose,
  ca: number,
  b: ConvexShape,
  pb: Pose,
  cb: number,
  out: ManifoldBuffer,
): void {
  const m = out.push();
  collideConvexInto(a, pa, b, pb, m);
  if (m.count === 0) {
    out.pop();
    return;
  }
  m.childA = ca;
  m.childB = cb;
}

function isCompound(s: Shape): s is Compound {
  return s.type === ShapeType.Compound;
}

/**
 * Collides any two supported shapes, appending one manifold per convex (child) pair that has contacts.
 * Compounds (either side, or both) are walked child by child; child pairs whose margin-expanded AABBs
 * do not overlap are skipped. childA / childB of each manifold are the compound child indices
 * (0 for a convex shape).
 */
export function collideShapes(a: Shape, pa: Pose, b: Shape, pb: Pose, margin: number, out: ManifoldBuffer): void {
  out.margin = margin;
  collideShapesInto(a, pa, b, pb, out);
}

/** {@link collideShapes} with the margin taken from `out.margin` (the world's per-pair path). */
export function collideShapesInto(a: Shape, pa: Pose, b: Shape, pb: Pose, out: ManifoldBuffer): void {
  // Triangle meshes and heightfields (one manifold per touching triangle; triangle shape pairs by A's triangles).
  if (isTriangleShape(a) || isTriangleShape(b)) {
    if (isTriangleShape(a) && isTriangleShape(b)) collideTrianglesTrianglesInto(a, pa, b, pb, out);
    else collideWithTrianglesInto(a, pa, b, pb, out);
    return;
  }
  const aComp = isCompound(a),
    bComp = isCompound(b);
  if (!aComp && !bComp) {
    pairInto(a as ConvexShape, pa, 0, b as ConvexShape, pb, 0, out);
    return;
  }
  if (aComp && !bComp) {
    b.computeAabb(pb, AABB, 6);
    const ch = a.children;
    for (let i = 0; i < ch.length; i++) {
      const c = ch[i];
      const cp = c.pose;
      childPoseA.compose(pa, cp.px, cp.py, cp.pz, cp.qx, cp.qy, cp.qz, cp.qw);
      c.shape.computeAabb(childPoseA, AABB, 0);
      if (!overlaps(AABB, 0, AABB, 6, out)) continue;
      pairInto(c.shape, childPoseA, i, b as ConvexShape, pb, 0, out);
    }
    return;
  }
  if (!aComp && bComp) {
    a.computeAabb(pa, AABB, 0);
    const ch = b.children;
    for (let j = 0; j < ch.length; j++) {
      const c = ch[j];
      const cp = c.pose;
      childPoseA.compose(pb, cp.px, cp.py, cp.pz, cp.qx, cp.qy, cp.qz, cp.qw);
      c.shape.computeAabb(childPoseA, AABB, 6);
      if (!overlaps(AABB, 0, AABB, 6, out)) continue;
      pairInto(a as ConvexShape, pa, 0, c.shape, childPoseA, j, out);
    }
    return;
  }
  // Compound vs compound: B's child poses and boxes once, then every A child against them.
  const ca = (a as Compound).children,
    cb = (b as Compound).children;
  const nb = cb.length;
  while (childPosesB.length < nb) childPosesB.push(new Pose());
  aabbB = grown(aabbB, 6 * nb, 0);
  // Union of B's child boxes, to prune A's children against the whole of B first.
  AABB[6] = AABB[7] = AABB[8] = Infinity;
  AABB[9] = AABB[10] = AABB[11] = -Infinity;
  for (let j = 0; j < nb; j++) {
    const cp = cb[j].pose;
    childPosesB[j].compose(pb, cp.px, cp.py, cp.pz, cp.qx, cp.qy, cp.qz, cp.qw);
    const o = 6 * j;
    cb[j].shape.computeAabb(childPosesB[j], aabbB, o);
    for (let k = 0; k < 3; k++) {
      if (aabbB[o + k] < AABB[6 + k]) AABB[6 + k] = aabbB[o + k];
      if (aabbB[o + 3 + k] > AABB[9 + k]) AABB[9 + k] = aabbB[o + 3 + k];
    }
  }
  for (let i = 0; i < ca.length; i++) {
    const c = ca[i];
    const cp = c.pose;
    childPoseA.compose(pa, cp.px, cp.py, cp.pz, cp.qx, cp.qy, cp.qz, cp.qw);
    c.shape.computeAabb(childPoseA, AABB, 0);
    if (!overlaps(AABB, 0, AABB, 6, out)) continue; // misses all of B
    for (let j = 0; j < nb; j++) {
      if (!overlaps(AABB, 0, aabbB, 6 * j, out)) continue;
      pairInto(c.shape, childPoseA, i, cb[j].shape, childPosesB[j], j, out);
    }
  }
}
