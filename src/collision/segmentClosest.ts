/**
 * Closest points of two segments given in centred form: segment 1 is c1 + s*u1 for s in [-h1, h1],
 * segment 2 is c2 + t*u2 for t in [-h2, h2], with u1 and u2 unit vectors. Writes s into out[o] and
 * t into out[o + 1]. Follows Ericson, RTCD 5.1.9 (clamp s, solve t, re-clamp s); for parallel
 * segments it picks the middle of the overlap so the choice is stable from step to step.
 * Allocation-free; the arguments are scalars so callers keep everything in locals.
 */
export function closestSegmentSegment(
  c1x: number,
  c1y: number,
  c1z: number,
  u1x: number,
  u1y: number,
  u1z: number,
  h1: number,
  c2x: number,
  c2y: number,
  c2z: number,
  u2x: number,
  u2y: number,
  u2z: number,
  h2: number,
  out: Float64Array,
  o: number,
): void {
  const rx = c1x - c2x,
    ry = c1y - c2y,
    rz = c1z - c2z;
  const b = u1x * u2x + u1y * u2y + u1z * u2z;
  const c = u1x * rx + u1y * ry + u1z * rz;
  const f = u2x * rx + u2y * ry + u2z * rz;
  const denom = 1 - b * b;
  let s: number;
  if (denom > 1e-10) {
    s = (b * f - c) / denom;
  } else {
    // Parallel: the middle of the overlap of segment 2's projection with segment 1. Projecting
    // c2 + t*u2 onto line 1 gives s = -c + t*b, so the projection is [-c - h2|b|, -c + h2|b|].
    const e = h2 * Math.abs(b);
    const lo = -c - e > -h1 ? -c - e : -h1;
    const hi = -c + e < h1 ? -c + e : h1;
    s = lo <= hi ? 0.5 * (lo + hi) : -c;
  }
  if (s > h1) s = h1;
  else if (s < -h1) s = -h1;
  let t = f + s * b;
  if (t > h2) {
    t = h2;
    s = -c + t * b;
    if (s > h1) s = h1;
    else if (s < -h1) s = -h1;
  } else if (t < -h2) {
    t = -h2;
    s = -c + t * b;
    if (s > h1) s = h1;
    else if (s < -h1) s = -h1;
  }
  out[o] = s;
  out[o + 1] = t;
}
