/**
 * The binned surface-area-heuristic split shared by the broad phase's tree rebuild (DynamicTree) and the
 * triangle mesh's BVH build (Wald, "On fast Construction of SAH-based Bounding Volume Hierarchies", 2007;
 * Box2D v3 `b2PartitionSAH`): items are dropped into bins along an axis by centroid, each bin keeping the box
 * of its items (6 numbers: min xyz, max xyz) and their count; the split between bins with the least
 * leftCount * area(left box) + rightCount * area(right box) wins. Areas are half surface areas.
 */

/** Empties bins 0..n-1. */
export function resetBins(bins: Float64Array, counts: Int32Array, n: number): void {
  for (let j = 0; j < n; j++) {
    counts[j] = 0;
    const ob = j * 6;
    bins[ob] = bins[ob + 1] = bins[ob + 2] = Infinity;
    bins[ob + 3] = bins[ob + 4] = bins[ob + 5] = -Infinity;
  }
}

/** Adds the box src[o..o+5] (min xyz, max xyz) to bin j. */
export function addToBin(bins: Float64Array, counts: Int32Array, j: number, src: Float64Array, o: number): void {
  counts[j]++;
  const ob = j * 6;
  for (let q = 0; q < 3; q++) {
    if (src[o + q] < bins[ob + q]) bins[ob + q] = src[o + q];
    if (src[o + 3 + q] > bins[ob + 3 + q]) bins[ob + 3 + q] = src[o + 3 + q];
  }
}

/** The cost of {@link bestBinSplit}'s split (Infinity when there is none). */
export const SAH_COST = new Float64Array(1);

/**
 * The best split of bins 0..n-1 holding `total` items: how many bins go left (1..n-1; the first of equal
 * costs), or 0 when no split has items on both sides; its cost into SAH_COST[0]. `rightArea` (n numbers) is
 * scratch.
 */
export function bestBinSplit(bins: Float64Array, counts: Int32Array, rightArea: Float64Array, n: number, total: number): number {
  // Sweep from the right storing the area of bins j..n-1, then from the left evaluating splits.
  let x0 = Infinity,
    y0 = Infinity,
    z0 = Infinity,
    x1 = -Infinity,
    y1 = -Infinity,
    z1 = -Infinity;
  for (let j = n - 1; j > 0; j--) {
    const ob = j * 6;
    if (counts[j] > 0) {
      if (bins[ob] < x0) x0 = bins[ob];
      if (bins[ob + 1] < y0) y0 = bins[ob + 1];
      if (bins[ob + 2] < z0) z0 = bins[ob + 2];
      if (bins[ob + 3] > x1) x1 = bins[ob + 3];
      if (bins[ob + 4] > y1) y1 = bins[ob + 4];
      if (bins[ob + 5] > z1) z1 = bins[ob + 5];
    }
    rightArea[j] = x1 >= x0 ? halfArea(x1 - x0, y1 - y0, z1 - z0) : 0;
  }
  x0 = y0 = z0 = Infinity;
  x1 = y1 = z1 = -Infinity;
  let bestCost = Infinity,
    best = 0,
    leftCount = 0;
  for (let j = 0; j < n - 1; j++) {
    const ob = j * 6;
    if (counts[j] > 0) {
      leftCount += counts[j];
      if (bins[ob] < x0) x0 = bins[ob];
      if (bins[ob + 1] < y0) y0 = bins[ob + 1];
      if (bins[ob + 2] < z0) z0 = bins[ob + 2];
      if (bins[ob + 3] > x1) x1 = bins[ob + 3];
      if (bins[ob + 4] > y1) y1 = bins[ob + 4];
      if (bins[ob + 5] > z1) z1 = bins[ob + 5];
    }
    if (leftCount === 0 || leftCount === total) continue;
    const cost = leftCount * halfArea(x1 - x0, y1 - y0, z1 - z0) + (total - leftCount) * rightArea[j + 1];
    if (cost < bestCost) {
      bestCost = cost;
      best = j + 1;
    }
  }
  SAH_COST[0] = bestCost;
  return best;
}

/** Half the surface area of a box of extents (dx, dy, dz). */
export function halfArea(dx: number, dy: number, dz: number): number {
  return dx * dy + dy * dz + dz * dx;
}
