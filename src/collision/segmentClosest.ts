/** Length of the input array of {@link closestSegmentSegment}. */
export const SEGMENT_PAIR_LENGTH = 14;

/**
 * Closest points of two segments given in centred form: segment 1 is c1 + s*u1 for s in [-h1, h1],
 * segment 2 is c2 + t*u2 for t in [-h2, h2], with u1 and u2 unit vectors. The input is
 * seg = [c1x, c1y, c1z, u1x, u1y, u1z, h1, c2x, c2y, c2z, u2x, u2y, u2z, h2] (see {@link SEGMENT_PAIR_LENGTH});
 * writes s into out[o] and t into out[o + 1]. Follows Ericson, RTCD 5.1.9 (clamp s, solve t, re-clamp
 * s); for parallel segments it picks the middle of the overlap so the choice is stable from step to step.
 * Allocation-free. The input is an array, not 14 scalars (doubles in arrays, docs/design.md).
 */
export function closestSegmentSegment(seg: Float64Array, out: Float64Array, o: number): void {
  const c1x = seg[0],
    c1y = seg[1],
    c1z = seg[2],
    u1x = seg[3],
    u1y = seg[4],
    u1z = seg[5],
    h1 = seg[6],
    c2x = seg[7],
    c2y = seg[8],
    c2z = seg[9],
    u2x = seg[10],
    u2y = seg[11],
    u2z = seg[12],
    h2 = seg[13];
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
