/**
 * Diagnostics of a DynamicTree for the tests: its consistency and its SAH cost. They read the tree's private
 * arrays, so they live here rather than in the tree (which the library ships and nothing in it calls these).
 */
import type { DynamicTree } from "../../src/broadphase/dynamicTree";

const NULL_NODE = -1;

/** The tree's node arrays, as the tree keeps them (src/broadphase/dynamicTree.ts). */
interface TreeInternals {
  capacity: number;
  bounds: Float64Array;
  parent: Int32Array;
  child1: Int32Array;
  child2: Int32Array;
  userData: Int32Array;
  heights: Int32Array;
  rootNode: number;
  freeList: number;
  allocated: number;
  leaves: number;
}

const internals = (tree: DynamicTree): TreeInternals => tree as unknown as TreeInternals;

function nodeArea(bd: Float64Array, o: number): number {
  const x = bd[o + 3] - bd[o],
    y = bd[o + 4] - bd[o + 1],
    z = bd[o + 5] - bd[o + 2];
  return x * y + y * z + z * x;
}

/** The user data stored with leaf `id`. */
export function leafUserData(tree: DynamicTree, id: number): number {
  return internals(tree).userData[id];
}

/**
 * SAH cost: sum of internal node surface areas divided by the root's (the expected number of internal nodes
 * a random ray/box visits). Leaf areas are left out: they are the same for any tree over the same boxes.
 */
export function sahCost(tree: DynamicTree): number {
  const t = internals(tree);
  const root = t.rootNode;
  if (root === NULL_NODE || t.child1[root] === NULL_NODE) return 0;
  const bd = t.bounds;
  const rootArea = nodeArea(bd, root * 6);
  let sum = 0;
  for (let i = 0; i < t.capacity; i++) if (t.heights[i] > 0) sum += nodeArea(bd, i * 6);
  return rootArea > 0 ? sum / rootArea : sum;
}

/** Throws if parent links, heights, bounds containment, leaf count or the free list are inconsistent. */
export function validateTree(tree: DynamicTree): void {
  const t = internals(tree);
  const cap = t.capacity;
  const bd = t.bounds;
  const c1 = t.child1;
  const c2 = t.child2;
  const p = t.parent;
  const h = t.heights;
  let reachable = 0;
  let leafSeen = 0;
  const root = t.rootNode;
  if (root !== NULL_NODE) {
    if (p[root] !== NULL_NODE) throw new Error(`root ${root} has parent ${p[root]}`);
    const todo = [root];
    while (todo.length > 0) {
      const n = todo.pop()!;
      if (n < 0 || n >= cap) throw new Error(`node index ${n} out of range`);
      if (h[n] < 0) throw new Error(`free node ${n} is linked in the tree`);
      if (++reachable > cap) throw new Error("cycle in tree");
      const a = c1[n];
      const b = c2[n];
      const o = n * 6;
      if (bd[o] > bd[o + 3] || bd[o + 1] > bd[o + 4] || bd[o + 2] > bd[o + 5]) throw new Error(`node ${n} has inverted bounds`);
      if (a === NULL_NODE) {
        if (b !== NULL_NODE) throw new Error(`leaf ${n} has child2`);
        if (h[n] !== 0) throw new Error(`leaf ${n} has height ${h[n]}`);
        leafSeen++;
        continue;
      }
      if (b === NULL_NODE) throw new Error(`internal node ${n} lacks child2`);
      if (p[a] !== n || p[b] !== n) throw new Error(`bad parent link under node ${n}`);
      if (h[n] !== 1 + Math.max(h[a], h[b])) throw new Error(`node ${n} height ${h[n]} != 1 + max(${h[a]}, ${h[b]})`);
      for (const c of [a, b]) {
        const oc = c * 6;
        for (let k = 0; k < 3; k++) {
          if (bd[oc + k] < bd[o + k] || bd[oc + 3 + k] > bd[o + 3 + k]) throw new Error(`node ${n} does not contain child ${c}`);
        }
      }
      todo.push(a, b);
    }
  }
  if (leafSeen !== t.leaves) throw new Error(`leafCount ${t.leaves} but ${leafSeen} leaves reachable`);
  if (reachable !== t.allocated) throw new Error(`${t.allocated} nodes allocated but ${reachable} reachable`);
  let free = 0;
  for (let f = t.freeList; f !== NULL_NODE; f = p[f]) {
    if (h[f] !== -1) throw new Error(`node ${f} on free list has height ${h[f]}`);
    if (++free > cap) throw new Error("cycle in free list");
  }
  if (free + reachable !== cap) throw new Error(`free ${free} + reachable ${reachable} != capacity ${cap}`);
}
