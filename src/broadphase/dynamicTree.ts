import { grown } from "../collections/growth";
import { IntList } from "../collections/intList";
import { addToBin, bestBinSplit, halfArea, resetBins, SAH_COST } from "../math/binnedSah";

/**
 * Dynamic AABB tree (binary BVH) for the broad phase.
 *
 * Ideas taken (not code) from:
 * - Box2D b2DynamicTree (v2.4 / v3 `dynamic_tree.c`): leaves are proxies, internal nodes have exactly two
 *   children, a free list of nodes, SAH-guided sibling choice with a lower-bound cut-off (`b2FindBestSibling`),
 *   and area-reducing child/grandchild swaps on the way up (`b2RotateNodes`).
 * - Erin Catto, GDC 2019 "Dynamic Bounding Volume Hierarchies": surface-area cost, branch-and-bound insertion,
 *   tree rotations instead of AVL height balancing.
 * - bepuphysics2 `Trees/*`: refit every frame instead of fat AABBs (velocity-expanded boxes change every step),
 *   plus incremental refinement of a fixed fraction of the tree per frame; self-test and tree-vs-tree by
 *   simultaneous descent; binned SAH for bulk builds (Wald, "On fast construction of SAH-based BVHs").
 *
 * Layout: node `n` has bounds at `bounds[6n .. 6n+5]` = minX, minY, minZ, maxX, maxY, maxZ and entries in
 * Int32Arrays `parent`, `child1`, `child2`, `userData`, `height`. A leaf has `child1 === -1` and height 0; a
 * free node has height -1 and keeps the next free index in `parent`. Proxy ids are leaf node indices and stay
 * valid through refit, refine and rebuild (only internal nodes are recycled).
 *
 * Traversals use a preallocated Int32Array stack (with a parallel Float64Array for ray entry distances) that
 * grows only when needed, so steady-state queries allocate nothing. The stack is shared but each traversal
 * works above the part the enclosing one uses, so a visitor may run another query on the same tree; it must
 * not create, destroy, move or refit proxies of a tree being traversed.
 */

const NULL_NODE = -1;
/** Bins per axis for the binned SAH rebuild; 16 is the usual quality/speed compromise (Wald 2007). */
const BINS = 16;

export interface TreeOverlapVisitor {
  /** Called for every leaf whose box overlaps the query box; return false to stop the query. */
  onOverlap(userData: number): boolean | void;
}

export interface TreeRayVisitor {
  /**
   * Called for every leaf whose box the ray segment [0, maxT] touches. Return the new clipped maxT (e.g. the hit
   * distance for nearest-hit queries, or `maxT` unchanged to keep going), or a negative number to stop.
   */
  onRayLeaf(userData: number, maxT: number): number;
}

export interface TreePairVisitor {
  /** Called once per overlapping leaf pair. */
  onPair(userDataA: number, userDataB: number): void;
}

/** The tree's scratch fields (see DynamicTree.snapshotExtent). */
const TREE_SCRATCH: ReadonlySet<string> = new Set(["stack", "tStack", "order", "buildLeaves", "buildWork", "binBounds", "binCounts", "rightArea"]);

export class DynamicTree {
  private capacity: number;
  private bounds: Float64Array;
  private parent: Int32Array;
  private child1: Int32Array;
  private child2: Int32Array;
  private userData: Int32Array;
  private heights: Int32Array;

  private rootNode = NULL_NODE;
  private freeList = NULL_NODE;
  private allocated = 0;
  private leaves = 0;
  private refineCursor = 0;

  /** Traversal stack shared by all queries; `stackBase` marks the part owned by enclosing traversals. */
  private stack: Int32Array;
  private tStack: Float64Array;
  private stackBase = 0;

  /** Scratch for refit (internal nodes in pre-order) and rebuild. */
  private order: Int32Array;
  private buildLeaves = new IntList(16);
  private buildWork = new IntList(64);

  private binBounds = new Float64Array(BINS * 6);
  private binCounts = new Int32Array(BINS);
  private rightArea = new Float64Array(BINS);

  constructor(initialCapacity = 16) {
    this.capacity = 0;
    this.bounds = new Float64Array(0);
    this.parent = new Int32Array(0);
    this.child1 = new Int32Array(0);
    this.child2 = new Int32Array(0);
    this.userData = new Int32Array(0);
    this.heights = new Int32Array(0);
    this.order = new Int32Array(0);
    // Sized for deep trees from the start: growing it mid-query is a path rarely taken, which deoptimises the
    // traversal that takes it (and the unoptimised code then allocates) in the middle of a simulation.
    this.stack = new Int32Array(1024);
    this.tStack = new Float64Array(1024);
    this.growNodes(Math.max(4, initialCapacity | 0));
  }

  /**
   * What a world snapshot keeps of the tree (src/world/stateCodec.ts, PartialState): the nodes, not the traversal
   * stacks and build scratch, which every query and rebuild writes before it reads.
   */
  snapshotExtent(field: string): number {
    return TREE_SCRATCH.has(field) ? 0 : -1;
  }

  // ------------------------------------------------------------------ public info

  get leafCount(): number {
    return this.leaves;
  }
  /** Allocated nodes (leaves + internal). */
  get nodeCount(): number {
    return this.allocated;
  }
  /** Root node index, -1 when empty. */
  get root(): number {
    return this.rootNode;
  }
  /** Height of the tree (a single leaf is 0, empty is -1). */
  get height(): number {
    return this.rootNode === NULL_NODE ? -1 : this.heights[this.rootNode];
  }

  getAabb(id: number, out: Float64Array, offset: number): void {
    const b = this.bounds;
    const o = id * 6;
    out[offset] = b[o];
    out[offset + 1] = b[o + 1];
    out[offset + 2] = b[o + 2];
    out[offset + 3] = b[o + 3];
    out[offset + 4] = b[o + 4];
    out[offset + 5] = b[o + 5];
  }

  // ------------------------------------------------------------------ proxies

  createProxy(minX: number, minY: number, minZ: number, maxX: number, maxY: number, maxZ: number, userData: number): number {
    const id = this.allocNode();
    this.writeBounds(id, minX, minY, minZ, maxX, maxY, maxZ);
    this.userData[id] = userData;
    this.heights[id] = 0;
    this.leaves++;
    this.insertLeaf(id);
    return id;
  }

  destroyProxy(id: number): void {
    this.removeLeaf(id);
    this.freeNode(id);
    this.leaves--;
  }

  /**
   * Writes a leaf's box without touching the structure (bepu-style: moving leaves are refitted, not
   * reinserted). Ancestors are stale until `refit()`.
   */
  setLeafAabb(id: number, minX: number, minY: number, minZ: number, maxX: number, maxY: number, maxZ: number): void {
    this.writeBounds(id, minX, minY, minZ, maxX, maxY, maxZ);
  }

  /**
   * setLeafAabb with the box read from src[o..o+5] (min xyz, max xyz): the per-step path (doubles in arrays,
   * docs/design.md).
   */
  setLeafAabbFrom(id: number, src: Float64Array, o: number): void {
    const b = this.bounds;
    const d = id * 6;
    b[d] = src[o];
    b[d + 1] = src[o + 1];
    b[d + 2] = src[o + 2];
    b[d + 3] = src[o + 3];
    b[d + 4] = src[o + 4];
    b[d + 5] = src[o + 5];
  }

  /** Removes and reinserts a leaf: for large moves or waking bodies, where a refit would bloat the tree. */
  moveProxy(id: number, minX: number, minY: number, minZ: number, maxX: number, maxY: number, maxZ: number): void {
    this.removeLeaf(id);
    this.writeBounds(id, minX, minY, minZ, maxX, maxY, maxZ);
    this.insertLeaf(id);
  }

  // ------------------------------------------------------------------ maintenance

  /**
   * Recomputes every internal node's box and height from its children, children before parents, in O(nodes).
   * Order: internal nodes are listed in pre-order, then processed in reverse, so it only depends on structure.
   */
  refit(): void {
    const root = this.rootNode;
    if (root === NULL_NODE) return;
    const c1 = this.child1;
    const c2 = this.child2;
    const order = this.order;
    let stack = this.stack;
    const base = this.stackBase;
    let sp = base;
    let n = 0;
    stack[sp++] = root;
    while (sp > base) {
      const i = stack[--sp];
      const a = c1[i];
      if (a === NULL_NODE) continue;
      order[n++] = i;
      if (sp + 2 > stack.length) stack = this.growStack(sp + 2);
      stack[sp++] = c2[i];
      stack[sp++] = a;
    }
    for (let k = n - 1; k >= 0; k--) this.recompute(order[k]);
  }

  /**
   * Incremental quality maintenance: removes and reinserts `count` leaves, chosen round-robin by node index
   * with a persistent cursor (deterministic). Reinsertion runs the SAH sibling search and rotations, so leaves
   * that drifted away from their subtree migrate to a better place; bepu refines ~1/20 of the active tree per
   * frame. Call after `refit()` so the search sees current boxes. `count` is floored and capped at leafCount.
   * Treelet rebuilds and extra rotation passes on top gained little (bench/RESULTS.md, "Measurements behind
   * constants").
   */
  refine(count: number): void {
    if (this.leaves < 3) return;
    let todo = Math.min(count | 0, this.leaves);
    const cap = this.capacity;
    const c1 = this.child1;
    const h = this.heights;
    let cursor = this.refineCursor;
    while (todo > 0) {
      if (cursor >= cap) cursor = 0;
      const i = cursor++;
      // Leaves keep their index across reinsertion, so the cursor visits each leaf once per sweep.
      if (h[i] !== 0 || c1[i] !== NULL_NODE) continue;
      this.removeLeaf(i);
      this.insertLeaf(i);
      todo--;
    }
    this.refineCursor = cursor;
  }

  /**
   * Rebuilds all internal nodes top-down with a binned SAH split (Wald 2007; Box2D v3 `b2DynamicTree_Rebuild`,
   * bepu's binned builder). Leaf ids are kept. Use after many insertions at once (e.g. loading a level).
   */
  rebuild(): void {
    if (this.leaves === 0) return;
    const cap = this.capacity;
    const h = this.heights;
    const c1 = this.child1;
    const leaves = this.buildLeaves;
    leaves.clear();
    leaves.reserve(this.leaves);
    for (let i = 0; i < cap; i++) if (h[i] === 0 && c1[i] === NULL_NODE) leaves.push(i);
    // Free internal nodes highest index first so the builder gets low indices back (LIFO free list).
    for (let i = cap - 1; i >= 0; i--) if (h[i] > 0) this.freeNode(i);
    this.rootNode = NULL_NODE;

    this.buildOver(leaves.count);
    this.refit();
  }

  /**
   * Top-down binned SAH build over the leaves in buildLeaves[0, count) into a new root. Explicit work stack
   * (a skewed split sequence cannot overflow the JS call stack). Boxes and heights are left to refit().
   */
  private buildOver(count: number): void {
    const items = this.buildLeaves;
    const work = this.buildWork;
    work.clear();
    work.push(0);
    work.push(count);
    work.push(NULL_NODE);
    work.push(0);
    while (work.count > 0) {
      const side = work.pop();
      const p = work.pop();
      const end = work.pop();
      const begin = work.pop();
      let node: number;
      let mid = -1;
      if (end - begin === 1) {
        node = items.data[begin];
      } else {
        node = this.allocNode();
        this.heights[node] = 1; // Placeholder so it is not mistaken for a leaf until recomputed.
        mid = this.partition(begin, end);
      }
      this.parent[node] = p;
      if (p === NULL_NODE) this.rootNode = node;
      else if (side === 1) this.child1[p] = node;
      else this.child2[p] = node;
      if (mid >= 0) {
        // Right half pushed first so the left subtree is built (and numbered) first.
        work.push(mid);
        work.push(end);
        work.push(node);
        work.push(2);
        work.push(begin);
        work.push(mid);
        work.push(node);
        work.push(1);
      }
    }
  }

  // ------------------------------------------------------------------ queries

  /** Visits every leaf whose box overlaps the given box (touching counts). */
  queryAabb(minX: number, minY: number, minZ: number, maxX: number, maxY: number, maxZ: number, visitor: TreeOverlapVisitor): void {
    if (this.rootNode === NULL_NODE) return;
    const bd = this.bounds;
    const c1 = this.child1;
    const c2 = this.child2;
    const ud = this.userData;
    const base = this.stackBase;
    let stack = this.stack;
    let sp = base;
    stack[sp++] = this.rootNode;
    try {
      while (sp > base) {
        const n = stack[--sp];
        const o = n * 6;
        if (bd[o] > maxX || bd[o + 3] < minX || bd[o + 1] > maxY || bd[o + 4] < minY || bd[o + 2] > maxZ || bd[o + 5] < minZ)
          continue;
        const a = c1[n];
        if (a === NULL_NODE) {
          this.stackBase = sp;
          const r = visitor.onOverlap(ud[n]);
          stack = this.stack; // A nested query may have grown it.
          if (r === false) return;
          continue;
        }
        if (sp + 2 > stack.length) stack = this.growStack(sp + 2);
        stack[sp++] = c2[n];
        stack[sp++] = a;
      }
    } finally {
      this.stackBase = base;
    }
  }

  /**
   * Ray/segment query: points o + t*d for t in [0, maxT]. Slab test per node; the nearer child is visited
   * first and entries beyond the (visitor-clipped) maxT are skipped, so nearest-hit queries prune well.
   * Zero direction components are handled (NaN slab terms from 0*Infinity are ignored by the comparisons).
   * With half extents (ex, ey, ez) every box is grown by them first: the leaves a box of those half extents
   * centred on the ray point touches on its way (a swept-box query, e.g. for shape casts).
   */
  raycast(
    ox: number,
    oy: number,
    oz: number,
    dx: number,
    dy: number,
    dz: number,
    maxT: number,
    visitor: TreeRayVisitor,
    ex = 0,
    ey = 0,
    ez = 0,
  ): void {
    const ray = RAY;
    ray[0] = ox;
    ray[1] = oy;
    ray[2] = oz;
    ray[3] = dx;
    ray[4] = dy;
    ray[5] = dz;
    ray[6] = maxT;
    ray[7] = ex;
    ray[8] = ey;
    ray[9] = ez;
    this.raycastArray(ray, visitor);
  }

  /**
   * {@link raycast} with its numbers in ray[0..9]: origin (3), direction (3), maxT, half extents (3). Every
   * double is read into a local first, so callers may reuse the array, also from the visitor (doubles in
   * arrays, docs/design.md).
   */
  raycastArray(ray: Float64Array, visitor: TreeRayVisitor): void {
    const root = this.rootNode;
    let limit = ray[6];
    if (root === NULL_NODE || !(limit >= 0)) return;
    const ox = ray[0],
      oy = ray[1],
      oz = ray[2];
    const dx = ray[3],
      dy = ray[4],
      dz = ray[5];
    const gx = ray[7],
      gy = ray[8],
      gz = ray[9];
    const ix = 1 / dx;
    const iy = 1 / dy;
    const iz = 1 / dz;
    // Offsets of the "near" face per axis: min face when the component is +, max face when - (incl. -0).
    const lx = ix >= 0 ? 0 : 3;
    const ly = iy >= 0 ? 1 : 4;
    const lz = iz >= 0 ? 2 : 5;
    const hx = 3 - lx;
    const hy = 5 - ly;
    const hz = 7 - lz;
    // Growing a box by e moves its near face by -e and its far face by +e along the ray: the same as
    // testing the near face from the origin shifted by +e and the far face from the origin shifted by -e.
    const sx = ix >= 0 ? gx : -gx,
      sy = iy >= 0 ? gy : -gy,
      sz = iz >= 0 ? gz : -gz;
    const nx = ox + sx,
      ny = oy + sy,
      nz = oz + sz,
      fx = ox - sx,
      fy = oy - sy,
      fz = oz - sz;
    const bd = this.bounds;
    const c1 = this.child1;
    const c2 = this.child2;
    const ud = this.userData;

    const t0 = slab(bd, root * 6, nx, ny, nz, fx, fy, fz, ix, iy, iz, lx, ly, lz, hx, hy, hz, limit);
    if (t0 < 0) return;
    const base = this.stackBase;
    let stack = this.stack;
    let ts = this.tStack;
    let sp = base;
    stack[sp] = root;
    ts[sp++] = t0;
    try {
      while (sp > base) {
        const n = stack[--sp];
        if (ts[sp] > limit) continue; // The limit shrank since this entry was pushed.
        const a = c1[n];
        if (a === NULL_NODE) {
          this.stackBase = sp;
          const r = visitor.onRayLeaf(ud[n], limit);
          stack = this.stack;
          ts = this.tStack;
          if (r < 0) return;
          if (r < limit) {
            UNBOX[0] = r;
            limit = UNBOX[0];
          }
          continue;
        }
        const b = c2[n];
        const ta = slab(bd, a * 6, nx, ny, nz, fx, fy, fz, ix, iy, iz, lx, ly, lz, hx, hy, hz, limit);
        const tb = slab(bd, b * 6, nx, ny, nz, fx, fy, fz, ix, iy, iz, lx, ly, lz, hx, hy, hz, limit);
        if (sp + 2 > stack.length) {
          stack = this.growStack(sp + 2);
          ts = this.tStack;
        }
        if (ta >= 0) {
          if (tb >= 0) {
            // Push the farther one first so the nearer is popped first.
            if (ta <= tb) {
              stack[sp] = b;
              ts[sp++] = tb;
              stack[sp] = a;
              ts[sp++] = ta;
            } else {
              stack[sp] = a;
              ts[sp++] = ta;
              stack[sp] = b;
              ts[sp++] = tb;
            }
          } else {
            stack[sp] = a;
            ts[sp++] = ta;
          }
        } else if (tb >= 0) {
          stack[sp] = b;
          ts[sp++] = tb;
        }
      }
    } finally {
      this.stackBase = base;
    }
  }

  /**
   * Every overlapping pair of distinct leaves once, by descending the tree against itself (bepu's self test):
   * self(N) = self(A) + self(B) + pair(A, B); pair(X, Y) splits the larger internal node until both are leaves.
   */
  selfOverlaps(visitor: TreePairVisitor): void {
    this.descend(this, visitor);
  }

  /**
   * Every overlapping (leaf of this tree, leaf of `other`) pair once, by simultaneous descent; the visitor gets
   * (this tree's userData, other tree's userData). `other` must be a different tree (use selfOverlaps for one).
   */
  overlapsWith(other: DynamicTree, visitor: TreePairVisitor): void {
    this.descend(other, visitor);
  }

  /** The descent of selfOverlaps (`other` is this tree) and overlapsWith: a node met against itself is a self test. */
  private descend(other: DynamicTree, visitor: TreePairVisitor): void {
    const rootA = this.rootNode,
      rootB = other.rootNode;
    if (rootA === NULL_NODE || rootB === NULL_NODE) return;
    const self = other === this;
    const bdA = this.bounds;
    const c1A = this.child1;
    const c2A = this.child2;
    const udA = this.userData;
    const bdB = other.bounds;
    const c1B = other.child1;
    const c2B = other.child2;
    const udB = other.userData;
    const base = this.stackBase;
    let stack = this.stack;
    let sp = base;
    stack[sp++] = rootA;
    stack[sp++] = rootB;
    try {
      while (sp > base) {
        sp -= 2;
        const a = stack[sp];
        const b = stack[sp + 1];
        if (sp + 6 > stack.length) stack = this.growStack(sp + 6);
        if (self && a === b) {
          const a1 = c1A[a];
          if (a1 === NULL_NODE) continue;
          const a2 = c2A[a];
          stack[sp++] = a1;
          stack[sp++] = a2;
          stack[sp++] = a2;
          stack[sp++] = a2;
          stack[sp++] = a1;
          stack[sp++] = a1;
          continue;
        }
        const oa = a * 6;
        const ob = b * 6;
        if (
          bdA[oa] > bdB[ob + 3] ||
          bdB[ob] > bdA[oa + 3] ||
          bdA[oa + 1] > bdB[ob + 4] ||
          bdB[ob + 1] > bdA[oa + 4] ||
          bdA[oa + 2] > bdB[ob + 5] ||
          bdB[ob + 2] > bdA[oa + 5]
        )
          continue;
        const a1 = c1A[a];
        const b1 = c1B[b];
        if (a1 === NULL_NODE && b1 === NULL_NODE) {
          this.stackBase = sp;
          visitor.onPair(udA[a], udB[b]);
          stack = this.stack;
          continue;
        }
        // Both children are read and the pushes are selects: a branch first taken late in a run (a tree that
        // held one leaf gains a second when a body falls asleep) would deoptimise this loop, and unoptimised
        // code allocates.
        const intoA = descendFirst(bdA, oa, bdB, ob, a1, b1);
        const a2 = c2A[a],
          b2 = c2B[b];
        stack[sp] = intoA ? a2 : a;
        stack[sp + 1] = intoA ? b : b2;
        stack[sp + 2] = intoA ? a1 : a;
        stack[sp + 3] = intoA ? b : b1;
        sp += 4;
      }
    } finally {
      this.stackBase = base;
    }
  }

  // ------------------------------------------------------------------ internals

  private writeBounds(id: number, minX: number, minY: number, minZ: number, maxX: number, maxY: number, maxZ: number): void {
    const b = this.bounds;
    const o = id * 6;
    b[o] = minX;
    b[o + 1] = minY;
    b[o + 2] = minZ;
    b[o + 3] = maxX;
    b[o + 4] = maxY;
    b[o + 5] = maxZ;
  }

  private allocNode(): number {
    if (this.freeList === NULL_NODE) this.growNodes(this.capacity * 2);
    const n = this.freeList;
    this.freeList = this.parent[n];
    this.parent[n] = NULL_NODE;
    this.child1[n] = NULL_NODE;
    this.child2[n] = NULL_NODE;
    this.userData[n] = -1;
    this.heights[n] = 0;
    this.allocated++;
    return n;
  }

  private freeNode(n: number): void {
    this.parent[n] = this.freeList;
    this.child1[n] = NULL_NODE;
    this.child2[n] = NULL_NODE;
    this.heights[n] = -1;
    this.freeList = n;
    this.allocated--;
  }

  private growNodes(newCap: number): void {
    const old = this.capacity;
    this.bounds = grown(this.bounds, newCap * 6);
    this.parent = grown(this.parent, newCap);
    this.child1 = grown(this.child1, newCap);
    this.child2 = grown(this.child2, newCap);
    this.userData = grown(this.userData, newCap);
    this.heights = grown(this.heights, newCap);
    this.order = grown(this.order, newCap, 0);
    // Link new nodes so the lowest index is handed out first.
    for (let i = newCap - 1; i >= old; i--) {
      this.parent[i] = this.freeList;
      this.child1[i] = NULL_NODE;
      this.child2[i] = NULL_NODE;
      this.heights[i] = -1;
      this.freeList = i;
    }
    this.capacity = newCap;
  }

  private growStack(needed: number): Int32Array {
    this.stack = grown(this.stack, needed);
    this.tStack = grown(this.tStack, this.stack.length);
    return this.stack;
  }

  /** Box and height of internal node `n` from its children. */
  private recompute(n: number): void {
    const bd = this.bounds;
    const a = this.child1[n];
    const b = this.child2[n];
    const o = n * 6;
    const oa = a * 6;
    const ob = b * 6;
    bd[o] = Math.min(bd[oa], bd[ob]);
    bd[o + 1] = Math.min(bd[oa + 1], bd[ob + 1]);
    bd[o + 2] = Math.min(bd[oa + 2], bd[ob + 2]);
    bd[o + 3] = Math.max(bd[oa + 3], bd[ob + 3]);
    bd[o + 4] = Math.max(bd[oa + 4], bd[ob + 4]);
    bd[o + 5] = Math.max(bd[oa + 5], bd[ob + 5]);
    const ha = this.heights[a];
    const hb = this.heights[b];
    this.heights[n] = 1 + (ha > hb ? ha : hb);
  }

  /**
   * Sibling choice in the spirit of Box2D v3 `b2FindBestSibling` / Catto GDC 2019. Making node X the sibling of
   * leaf L costs area(X ∪ L) (the new parent) plus the area growth of every ancestor of X ("inherited" cost).
   * We descend from the root towards the child with the lower lower-bound, keeping the best candidate seen,
   * and stop when neither child's subtree can beat it. A subtree under child C costs at least
   * inherited + (area(C ∪ L) - area(C)) + area(L), since the new parent is at least as large as L.
   */
  private findBestSibling(leaf: number): number {
    const bd = this.bounds;
    const c1 = this.child1;
    const c2 = this.child2;
    const ol = leaf * 6;
    const lMinX = bd[ol];
    const lMinY = bd[ol + 1];
    const lMinZ = bd[ol + 2];
    const lMaxX = bd[ol + 3];
    const lMaxY = bd[ol + 4];
    const lMaxZ = bd[ol + 5];
    // Areas through unionArea's scratch (AREA), not halfArea: this runs at every level of every
    // re-insertion (doubles in arrays, docs/design.md).
    unionArea(bd, leaf, leaf, 0);
    const areaL = AREA[0];
    const cx = lMinX + lMaxX;
    const cy = lMinY + lMaxY;
    const cz = lMinZ + lMaxZ;

    let index = this.rootNode;
    let o = index * 6;
    unionArea(bd, index, leaf, 0);
    let directCost = AREA[0];
    let inherited = 0;
    let best = index;
    let bestCost = directCost;

    while (c1[index] !== NULL_NODE) {
      // Going below `index` grows it by (directCost - its area).
      unionArea(bd, index, index, 0);
      inherited += directCost - AREA[0];
      const a = c1[index];
      const b = c2[index];
      const oa = a * 6;
      const ob = b * 6;
      unionArea(bd, a, leaf, 0);
      unionArea(bd, b, leaf, 1);
      const directA = AREA[0],
        directB = AREA[1];
      const costA = directA + inherited;
      const costB = directB + inherited;
      if (costA < bestCost) {
        best = a;
        bestCost = costA;
      }
      if (costB < bestCost) {
        best = b;
        bestCost = costB;
      }
      unionArea(bd, a, a, 0);
      unionArea(bd, b, b, 1);
      const lowerA = c1[a] === NULL_NODE ? Infinity : inherited + directA - AREA[0] + areaL;
      const lowerB = c1[b] === NULL_NODE ? Infinity : inherited + directB - AREA[1] + areaL;
      if (lowerA >= bestCost && lowerB >= bestCost) break;
      let goA: boolean;
      if (lowerA < lowerB) goA = true;
      else if (lowerB < lowerA) goA = false;
      else {
        // Tie (typically L inside both children): go towards the closer centre, as Box2D v3 does.
        const ax = bd[oa] + bd[oa + 3] - cx;
        const ay = bd[oa + 1] + bd[oa + 4] - cy;
        const az = bd[oa + 2] + bd[oa + 5] - cz;
        const bx = bd[ob] + bd[ob + 3] - cx;
        const by = bd[ob + 1] + bd[ob + 4] - cy;
        const bz = bd[ob + 2] + bd[ob + 5] - cz;
        goA = ax * ax + ay * ay + az * az <= bx * bx + by * by + bz * bz;
      }
      if (goA) {
        index = a;
        directCost = directA;
      } else {
        index = b;
        directCost = directB;
      }
      o = index * 6;
    }
    return best;
  }

  /** Links an unlinked leaf (bounds already written) into the tree, then refits and rotates up to the root. */
  private insertLeaf(leaf: number): void {
    this.parent[leaf] = NULL_NODE;
    if (this.rootNode === NULL_NODE) {
      this.rootNode = leaf;
      return;
    }
    const sibling = this.findBestSibling(leaf);
    const oldParent = this.parent[sibling];
    const newParent = this.allocNode();
    this.parent[newParent] = oldParent;
    this.child1[newParent] = sibling;
    this.child2[newParent] = leaf;
    this.parent[sibling] = newParent;
    this.parent[leaf] = newParent;
    if (oldParent === NULL_NODE) this.rootNode = newParent;
    else if (this.child1[oldParent] === sibling) this.child1[oldParent] = newParent;
    else this.child2[oldParent] = newParent;

    for (let i = newParent; i !== NULL_NODE; i = this.parent[i]) {
      this.rotate(i);
      this.recompute(i);
    }
  }

  /** Unlinks a leaf; its sibling takes the parent's place and the parent node is freed. */
  private removeLeaf(leaf: number): void {
    if (leaf === this.rootNode) {
      this.rootNode = NULL_NODE;
      return;
    }
    const p = this.parent[leaf];
    const gp = this.parent[p];
    const sibling = this.child1[p] === leaf ? this.child2[p] : this.child1[p];
    this.parent[sibling] = gp;
    this.parent[leaf] = NULL_NODE;
    this.freeNode(p);
    if (gp === NULL_NODE) {
      this.rootNode = sibling;
      return;
    }
    if (this.child1[gp] === p) this.child1[gp] = sibling;
    else this.child2[gp] = sibling;
    for (let i = gp; i !== NULL_NODE; i = this.parent[i]) this.recompute(i);
  }

  /**
   * Tree rotation at node A with children B, C (Catto GDC 2019; Box2D v3 `b2RotateNodes`): try swapping a
   * child with a grandchild on the other side, or regrouping the four grandchildren, and apply the swap that
   * reduces the summed area of the changed nodes most. Keeps SAH quality without AVL-style height balancing.
   * B and C must have correct boxes; A is recomputed by the caller.
   */
  private rotate(nodeA: number): void {
    const bd = this.bounds;
    const c1 = this.child1;
    const c2 = this.child2;
    const b = c1[nodeA];
    const c = c2[nodeA];
    const bLeaf = c1[b] === NULL_NODE;
    const cLeaf = c1[c] === NULL_NODE;
    if (bLeaf && cLeaf) return;
    // Through AREA, as in findBestSibling; the search's state in ROTATION (docs/design.md, doubles).
    unionArea(bd, b, b, 0);
    unionArea(bd, c, c, 1);
    ROTATION[0] = 0;
    ROTATION[1] = AREA[0];
    ROTATION[2] = AREA[1];
    ROTATION_OP[0] = 0;
    if (!cLeaf) {
      const f = c1[c];
      const g = c2[c];
      trySwap(bd, b, g, 2, 1); // B <-> F: C = {B, G}
      trySwap(bd, b, f, 2, 2); // B <-> G: C = {F, B}
    }
    if (!bLeaf) {
      const dd = c1[b];
      const e = c2[b];
      trySwap(bd, c, e, 1, 3); // C <-> D: B = {C, E}
      trySwap(bd, dd, c, 1, 4); // C <-> E: B = {D, C}
      if (!cLeaf) {
        const f = c1[c];
        const g = c2[c];
        tryRegroup(bd, f, e, dd, g, 5); // D <-> F: B = {F, E}, C = {D, G}
        tryRegroup(bd, g, e, f, dd, 6); // D <-> G: B = {G, E}, C = {F, D}
      }
    }
    switch (ROTATION_OP[0]) {
      case 0:
        return;
      case 1:
        this.swapChildren(b, c1[c]);
        this.recompute(c);
        return;
      case 2:
        this.swapChildren(b, c2[c]);
        this.recompute(c);
        return;
      case 3:
        this.swapChildren(c, c1[b]);
        this.recompute(b);
        return;
      case 4:
        this.swapChildren(c, c2[b]);
        this.recompute(b);
        return;
      case 5:
        this.swapChildren(c1[b], c1[c]);
        break;
      case 6:
        this.swapChildren(c1[b], c2[c]);
        break;
    }
    // Ops 5/6 changed both B and C (whichever node now holds those slots).
    this.recompute(c1[nodeA]);
    this.recompute(c2[nodeA]);
  }

  /** Exchanges two nodes' places in the tree (neither may be an ancestor of the other). */
  private swapChildren(x: number, y: number): void {
    const c1 = this.child1;
    const c2 = this.child2;
    const px = this.parent[x];
    const py = this.parent[y];
    if (c1[px] === x) c1[px] = y;
    else c2[px] = y;
    if (c1[py] === y) c1[py] = x;
    else c2[py] = x;
    this.parent[x] = py;
    this.parent[y] = px;
  }

  /**
   * Binned SAH split of buildLeaves[begin, end) (>= 2 leaves) over all three axes; partitions in place and
   * returns the split index. Falls back to an even split by position when all centroids coincide.
   */
  private partition(begin: number, end: number): number {
    const bd = this.bounds;
    const leaves = this.buildLeaves.data;
    // Centroid bounds (centroids kept doubled: min + max).
    let cMinX = Infinity;
    let cMinY = Infinity;
    let cMinZ = Infinity;
    let cMaxX = -Infinity;
    let cMaxY = -Infinity;
    let cMaxZ = -Infinity;
    for (let i = begin; i < end; i++) {
      const o = leaves[i] * 6;
      const x = bd[o] + bd[o + 3];
      const y = bd[o + 1] + bd[o + 4];
      const z = bd[o + 2] + bd[o + 5];
      if (x < cMinX) cMinX = x;
      if (x > cMaxX) cMaxX = x;
      if (y < cMinY) cMinY = y;
      if (y > cMaxY) cMaxY = y;
      if (z < cMinZ) cMinZ = z;
      if (z > cMaxZ) cMaxZ = z;
    }
    const bins = this.binBounds;
    const counts = this.binCounts;
    const rightArea = this.rightArea;
    let bestCost = Infinity;
    let bestAxis = -1;
    let bestSplit = 0;
    for (let axis = 0; axis < 3; axis++) {
      const lo = axis === 0 ? cMinX : axis === 1 ? cMinY : cMinZ;
      const hi = axis === 0 ? cMaxX : axis === 1 ? cMaxY : cMaxZ;
      if (!(hi > lo)) continue;
      const k = BINS / (hi - lo);
      resetBins(bins, counts, BINS);
      for (let i = begin; i < end; i++) {
        const o = leaves[i] * 6;
        addToBin(bins, counts, binOf(bd[o + axis] + bd[o + 3 + axis], lo, k), bd, o);
      }
      const split = bestBinSplit(bins, counts, rightArea, BINS, end - begin);
      if (split > 0 && SAH_COST[0] < bestCost) {
        bestCost = SAH_COST[0];
        bestAxis = axis;
        bestSplit = split;
      }
    }
    if (bestAxis < 0) return (begin + end) >> 1;
    const lo = bestAxis === 0 ? cMinX : bestAxis === 1 ? cMinY : cMinZ;
    const hi = bestAxis === 0 ? cMaxX : bestAxis === 1 ? cMaxY : cMaxZ;
    const k = BINS / (hi - lo);
    let i = begin;
    let j = end - 1;
    while (i <= j) {
      const o = leaves[i] * 6;
      if (binOf(bd[o + bestAxis] + bd[o + 3 + bestAxis], lo, k) < bestSplit) i++;
      else {
        const t = leaves[i];
        leaves[i] = leaves[j];
        leaves[j--] = t;
      }
    }
    return i;
  }
}

// unionArea writes its result into AREA[slot] (docs/design.md, doubles: the sibling and rotation searches run for
// many candidates every step).
const AREA = new Float64Array(2);

/** rotate's search: [0] the best change of area so far (0: none), [1] and [2] the areas of B and C. */
const ROTATION = new Float64Array(3);
/** The rotation that change belongs to (0: none; rotate's numbering). */
const ROTATION_OP = new Int32Array(1);

/** rotate's candidate `op`: the union of x and y replaces side `side` (1: B, 2: C). */
function trySwap(bd: Float64Array, x: number, y: number, side: number, op: number): void {
  unionArea(bd, x, y, 0);
  const d = AREA[0] - ROTATION[side];
  if (d < ROTATION[0]) {
    ROTATION[0] = d;
    ROTATION_OP[0] = op;
  }
}

/** rotate's candidate `op` that regroups the grandchildren: B becomes {x1, y1} and C {x2, y2}. */
function tryRegroup(bd: Float64Array, x1: number, y1: number, x2: number, y2: number, op: number): void {
  unionArea(bd, x1, y1, 0);
  unionArea(bd, x2, y2, 1);
  const d = AREA[0] + AREA[1] - ROTATION[1] - ROTATION[2];
  if (d < ROTATION[0]) {
    ROTATION[0] = d;
    ROTATION_OP[0] = op;
  }
}

function unionArea(bd: Float64Array, a: number, b: number, slot: number): void {
  const oa = a * 6;
  const ob = b * 6;
  const x = (bd[oa + 3] > bd[ob + 3] ? bd[oa + 3] : bd[ob + 3]) - (bd[oa] < bd[ob] ? bd[oa] : bd[ob]);
  const y = (bd[oa + 4] > bd[ob + 4] ? bd[oa + 4] : bd[ob + 4]) - (bd[oa + 1] < bd[ob + 1] ? bd[oa + 1] : bd[ob + 1]);
  const z = (bd[oa + 5] > bd[ob + 5] ? bd[oa + 5] : bd[ob + 5]) - (bd[oa + 2] < bd[ob + 2] ? bd[oa + 2] : bd[ob + 2]);
  AREA[slot] = x * y + y * z + z * x;
}

function binOf(c: number, lo: number, k: number): number {
  const j = Math.floor((c - lo) * k);
  return j < BINS ? j : BINS - 1;
}

/**
 * Which node to split in a pair descent: the internal one, or the larger one when both are internal
 * (splitting the bigger box first culls more). True = split A. The boxes are at bdA[oa..] and bdB[ob..]
 * (one tree's bounds twice for a self test).
 */
function descendFirst(bdA: Float64Array, oa: number, bdB: Float64Array, ob: number, a1: number, b1: number): boolean {
  // Every operation runs on every call (no branch that a late first use would deoptimise), and the areas are
  // written out, not through halfArea (docs/design.md, doubles).
  const ax = bdA[oa + 3] - bdA[oa],
    ay = bdA[oa + 4] - bdA[oa + 1],
    az = bdA[oa + 5] - bdA[oa + 2];
  const bx = bdB[ob + 3] - bdB[ob],
    by = bdB[ob + 4] - bdB[ob + 1],
    bz = bdB[ob + 5] - bdB[ob + 2];
  const aLarger = ax * ay + ay * az + az * ax >= bx * by + by * bz + bz * bx;
  const aLeaf = a1 === NULL_NODE,
    bLeaf = b1 === NULL_NODE;
  return bLeaf || (!aLeaf && aLarger);
}

/**
 * Scratch of {@link DynamicTree.raycast}: its arguments on their way to raycastArray, and a visitor's clipped
 * limit on its way to an unboxed local. Each is read back at once, so nested queries may share them.
 */
const RAY = new Float64Array(10);
const UNBOX = new Float64Array(1);

/**
 * Ray slab test against the box at `o` grown by the query's half extents (near faces tested from the origin
 * shifted to n, far faces from f; see raycastArray); returns the entry distance in [0, maxT] or -1 on a miss.
 * A 0*Infinity NaN (origin on a face, zero direction component) fails both comparisons and so leaves the
 * interval alone.
 */
function slab(
  bd: Float64Array,
  o: number,
  nx: number,
  ny: number,
  nz: number,
  fx: number,
  fy: number,
  fz: number,
  ix: number,
  iy: number,
  iz: number,
  lx: number,
  ly: number,
  lz: number,
  hx: number,
  hy: number,
  hz: number,
  maxT: number,
): number {
  let tmin = 0;
  let tmax = maxT;
  let near = (bd[o + lx] - nx) * ix;
  let far = (bd[o + hx] - fx) * ix;
  if (near > tmin) tmin = near;
  if (far < tmax) tmax = far;
  near = (bd[o + ly] - ny) * iy;
  far = (bd[o + hy] - fy) * iy;
  if (near > tmin) tmin = near;
  if (far < tmax) tmax = far;
  near = (bd[o + lz] - nz) * iz;
  far = (bd[o + hz] - fz) * iz;
  if (near > tmin) tmin = near;
  if (far < tmax) tmax = far;
  return tmin <= tmax ? tmin : -1;
}
