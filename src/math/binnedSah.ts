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
  growBox(bins, j * 6, src, o);
}

/** Grows the box dst[od..od+5] to hold the box src[os..os+5] (min xyz, max xyz each). */
function growBox(dst: Float64Array, od: number, src: Float64Array, os: number): void {
  for (let q = 0; q < 3; q++) {
    if (src[os + q] < dst[od + q]) dst[od + q] = src[os + q];
    if (src[os + 3 + q] > dst[od + 3 + q]) dst[od + 3 + q] = src[os + 3 + q];
  }
}

/** The cost of {@link bestBinSplit}'s split (Infinity when there is none). */
export const SAH_COST = new Float64Array(1);

/** bestBinSplit's running box of the bins swept so far. */
const SWEPT = new Float64Array(6);

/** Empties SWEPT. */
function emptySwept(): void {
  SWEPT[0] = SWEPT[1] = SWEPT[2] = Infinity;
  SWEPT[3] = SWEPT[4] = SWEPT[5] = -Infinity;
}

/** SWEPT's half surface area, 0 while it is empty. */
function sweptArea(): number {
  const b = SWEPT;
  return b[3] >= b[0] ? halfArea(b[3] - b[0], b[4] - b[1], b[5] - b[2]) : 0;
}

/**
 * The best split of bins 0..n-1 holding `total` items: how many bins go left (1..n-1; the first of equal
 * costs), or 0 when no split has items on both sides; its cost into SAH_COST[0]. `rightArea` (n numbers) is
 * scratch.
 */
export function bestBinSplit(bins: Float64Array, counts: Int32Array, rightArea: Float64Array, n: number, total: number): number {
  // Sweep from the right storing the area of bins j..n-1, then from the left evaluating splits.
  emptySwept();
  for (let j = n - 1; j > 0; j--) {
    if (counts[j] > 0) growBox(SWEPT, 0, bins, j * 6);
    rightArea[j] = sweptArea();
  }
  emptySwept();
  let bestCost = Infinity,
    best = 0,
    leftCount = 0;
  for (let j = 0; j < n - 1; j++) {
    if (counts[j] > 0) {
      leftCount += counts[j];
      growBox(SWEPT, 0, bins, j * 6);
    }
    if (leftCount === 0 || leftCount === total) continue;
    const cost = leftCount * sweptArea() + (total - leftCount) * rightArea[j + 1];
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
