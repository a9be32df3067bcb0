/**
 * A point on each of two shapes and a unit normal between them (world space): the closest or deepest points that
 * GJK (GjkResult), EPA (EpaResult) and the shape queries (ShapePairHit) report. Each says which way its normal
 * points.
 */
export class PointPair {
  /** The point on A. */
  ax = 0;
  ay = 0;
  az = 0;
  /** The point on B. */
  bx = 0;
  by = 0;
  bz = 0;
  /** The unit normal. */
  nx = 0;
  ny = 1;
  nz = 0;
}
