/**
 * The convex shape around any point cloud, degenerate ones included: what a CONVEX_HULL of arbitrary mesh
 * data becomes. A cloud spanning a volume or a plane is a {@link ConvexHull} (a flat one a thin slab); a
 * collinear cloud is a thin capsule along its segment; a single point (or coinciding points) a small sphere.
 * Havok and Jolt give every hull a convex radius, so such input works there; this keeps it working here.
 */
import { rotationFromY } from "../math/quat";
import { Capsule } from "./capsule";
import { Compound } from "./compound";
import { ConvexHull, FLAT_HULL_HALF_THICKNESS, pointCloudSpan } from "./convexHull";
import type { Shape } from "./shape";
import { Sphere } from "./sphere";

/** Squared distance between points i and j of an xyz array. */
function dist2(p: ArrayLike<number>, i: number, j: number): number {
  const dx = p[3 * i] - p[3 * j],
    dy = p[3 * i + 1] - p[3 * j + 1],
    dz = p[3 * i + 2] - p[3 * j + 2];
  return dx * dx + dy * dy + dz * dz;
}

/** Index of the point of `p` farthest from point `from`. */
function farthestFrom(p: ArrayLike<number>, from: number): number {
  let best = from,
    bd = -1;
  for (let i = 0; i < p.length / 3; i++) {
    const d = dist2(p, i, from);
    if (d > bd) {
      bd = d;
      best = i;
    }
  }
  return best;
}

/**
 * A convex shape around `points` (x, y, z, ...), in their frame:
 * - points spanning a volume or a plane: `new ConvexHull(points, thinRadius)` (a plane becomes a slab
 *   `2 thinRadius` thick);
 * - collinear points: a {@link Capsule} of radius `thinRadius` from one extreme point to the other;
 * - coinciding points: a {@link Sphere} of radius `thinRadius` at them.
 * Capsules and spheres not at the origin come as a one-child {@link Compound}. Throws RangeError on bad
 * input (no points, non-finite coordinates) as ConvexHull does.
 */
export function convexShapeOfPoints(points: ArrayLike<number>, thinRadius = FLAT_HULL_HALF_THICKNESS): Shape {
  const span = pointCloudSpan(points);
  if (span >= 2) return new ConvexHull(points, thinRadius);
  const a = span === 1 ? farthestFrom(points, farthestFrom(points, 0)) : 0;
  const b = span === 1 ? farthestFrom(points, a) : 0;
  const cx = (points[3 * a] + points[3 * b]) / 2,
    cy = (points[3 * a + 1] + points[3 * b + 1]) / 2,
    cz = (points[3 * a + 2] + points[3 * b + 2]) / 2;
  let shape: Shape;
  let orientation = { x: 0, y: 0, z: 0, w: 1 };
  if (span === 1) {
    const len = Math.sqrt(dist2(points, a, b));
    shape = new Capsule(thinRadius, len / 2);
    orientation = rotationFromY(
      (points[3 * b] - points[3 * a]) / len,
      (points[3 * b + 1] - points[3 * a + 1]) / len,
      (points[3 * b + 2] - points[3 * a + 2]) / len,
    );
  } else {
    shape = new Sphere(thinRadius);
  }
  if (cx === 0 && cy === 0 && cz === 0 && orientation.w === 1) return shape;
  return new Compound([{ shape, position: { x: cx, y: cy, z: cz }, orientation }]);
}
