import { describe, expect, it } from "vitest";
import { DynamicTree, type TreeOverlapVisitor, type TreePairVisitor, type TreeRayVisitor } from "../../src/broadphase/dynamicTree";
import { leafUserData, sahCost, validateTree } from "./treeCheck";

/** mulberry32: tiny seeded PRNG so every run sees the same boxes. */
function makeRng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

type Box = [number, number, number, number, number, number];

function randomBox(rng: () => number, world: number, maxHalf: number): Box {
  const cx = (rng() * 2 - 1) * world;
  const cy = (rng() * 2 - 1) * world;
  const cz = (rng() * 2 - 1) * world;
  const hx = 0.05 + rng() * maxHalf;
  const hy = 0.05 + rng() * maxHalf;
  const hz = 0.05 + rng() * maxHalf;
  return [cx - hx, cy - hy, cz - hz, cx + hx, cy + hy, cz + hz];
}

function overlaps(a: Box, b: Box): boolean {
  return a[0] <= b[3] && b[0] <= a[3] && a[1] <= b[4] && b[1] <= a[4] && a[2] <= b[5] && b[2] <= a[5];
}

/** Independent ray-vs-box entry distance in [0, maxT], or -1 (per-axis branches for zero components). */
function rayBox(o: number[], d: number[], maxT: number, b: Box): number {
  let t0 = 0;
  let t1 = maxT;
  for (let k = 0; k < 3; k++) {
    if (d[k] === 0) {
      if (o[k] < b[k] || o[k] > b[k + 3]) return -1;
      continue;
    }
    let ta = (b[k] - o[k]) / d[k];
    let tb = (b[k + 3] - o[k]) / d[k];
    if (ta > tb) [ta, tb] = [tb, ta];
    t0 = Math.max(t0, ta);
    t1 = Math.min(t1, tb);
    if (t0 > t1) return -1;
  }
  return t0;
}

/** Test model: the tree plus a shadow map userData -> box, userData -> proxy id. */
class Model {
  tree = new DynamicTree(4);
  boxes = new Map<number, Box>();
  proxies = new Map<number, number>();
  nextUser = 0;

  add(b: Box): number {
    const u = this.nextUser++;
    this.proxies.set(u, this.tree.createProxy(b[0], b[1], b[2], b[3], b[4], b[5], u));
    this.boxes.set(u, b);
    return u;
  }
  remove(u: number): void {
    this.tree.destroyProxy(this.proxies.get(u)!);
    this.proxies.delete(u);
    this.boxes.delete(u);
  }
  set(u: number, b: Box): void {
    this.tree.setLeafAabb(this.proxies.get(u)!, b[0], b[1], b[2], b[3], b[4], b[5]);
    this.boxes.set(u, b);
  }
  move(u: number, b: Box): void {
    this.tree.moveProxy(this.proxies.get(u)!, b[0], b[1], b[2], b[3], b[4], b[5]);
    this.boxes.set(u, b);
  }
}

class Collector implements TreeOverlapVisitor {
  hits: number[] = [];
  onOverlap(u: number): void {
    this.hits.push(u);
  }
}

class PairCollector implements TreePairVisitor {
  keys: string[] = [];
  onPair(a: number, b: number): void {
    this.keys.push(a < b ? `${a},${b}` : `${b},${a}`);
  }
}

function sorted(a: number[]): number[] {
  return [...a].sort((x, y) => x - y);
}

function checkQueries(m: Model, rng: () => number, world: number): void {
  validateTree(m.tree);
  expect(m.tree.leafCount).toBe(m.boxes.size);
  for (const [u, id] of m.proxies) expect(leafUserData(m.tree, id)).toBe(u);
  const out = new Float64Array(8);
  for (const [u, id] of m.proxies) {
    m.tree.getAabb(id, out, 2);
    expect(Array.from(out.subarray(2, 8))).toEqual(m.boxes.get(u));
  }

  // queryAabb vs brute force.
  const c = new Collector();
  for (let q = 0; q < 40; q++) {
    const qb = randomBox(rng, world, world * 0.3);
    c.hits.length = 0;
    m.tree.queryAabb(qb[0], qb[1], qb[2], qb[3], qb[4], qb[5], c);
    const expected: number[] = [];
    for (const [u, b] of m.boxes) if (overlaps(qb, b)) expected.push(u);
    expect(c.hits.length).toBe(new Set(c.hits).size);
    expect(sorted(c.hits)).toEqual(sorted(expected));
  }

  // raycast: all-hits (visitor keeps maxT) and nearest-hit (visitor clips maxT) vs brute force.
  for (let q = 0; q < 40; q++) {
    const o = [(rng() * 2 - 1) * world * 1.2, (rng() * 2 - 1) * world * 1.2, (rng() * 2 - 1) * world * 1.2];
    const d = [rng() * 2 - 1, rng() * 2 - 1, rng() * 2 - 1];
    // Some axis-aligned rays to exercise zero direction components.
    if (q % 4 === 0) d[1] = d[2] = 0;
    if (q % 4 === 1) d[0] = 0;
    const maxT = q % 3 === 0 ? Infinity : world * (0.5 + rng() * 2);

    const all: number[] = [];
    const allVisitor: TreeRayVisitor = {
      onRayLeaf(u: number, t: number): number {
        all.push(u);
        return t;
      },
    };
    m.tree.raycast(o[0], o[1], o[2], d[0], d[1], d[2], maxT, allVisitor);
    const expectedAll: number[] = [];
    let bestT = Infinity;
    for (const [u, b] of m.boxes) {
      const t = rayBox(o, d, maxT, b);
      if (t >= 0) {
        expectedAll.push(u);
        bestT = Math.min(bestT, t);
      }
    }
    expect(sorted(all)).toEqual(sorted(expectedAll));

    let nearestT = Infinity;
    let calls = 0;
    const nearest: TreeRayVisitor = {
      onRayLeaf(u: number, t: number): number {
        calls++;
        const hit = rayBox(o, d, t, m.boxes.get(u)!);
        if (hit >= 0 && hit < nearestT) nearestT = hit;
        return hit >= 0 ? hit : t;
      },
    };
    m.tree.raycast(o[0], o[1], o[2], d[0], d[1], d[2], maxT, nearest);
    expect(nearestT).toBe(bestT);
    expect(calls).toBeLessThanOrEqual(expectedAll.length);
  }

  // selfOverlaps vs brute force, each pair once.
  const pc = new PairCollector();
  m.tree.selfOverlaps(pc);
  const expectedPairs: string[] = [];
  const entries = [...m.boxes];
  for (let i = 0; i < entries.length; i++)
    for (let j = i + 1; j < entries.length; j++)
      if (overlaps(entries[i][1], entries[j][1])) {
        const a = entries[i][0];
        const b = entries[j][0];
        expectedPairs.push(a < b ? `${a},${b}` : `${b},${a}`);
      }
  expect(pc.keys.length).toBe(new Set(pc.keys).size);
  expect([...pc.keys].sort()).toEqual(expectedPairs.sort());
}

function checkInterTree(a: Model, b: Model): void {
  const got: string[] = [];
  a.tree.overlapsWith(b.tree, {
    onPair(ua: number, ub: number): void {
      got.push(`${ua},${ub}`);
    },
  });
  const expected: string[] = [];
  for (const [ua, ba] of a.boxes) for (const [ub, bb] of b.boxes) if (overlaps(ba, bb)) expected.push(`${ua},${ub}`);
  expect(got.length).toBe(new Set(got).size);
  expect(got.sort()).toEqual(expected.sort());
}

function jitter(rng: () => number, b: Box, step: number, grow: number): Box {
  const dx = (rng() * 2 - 1) * step;
  const dy = (rng() * 2 - 1) * step;
  const dz = (rng() * 2 - 1) * step;
  const g = rng() * grow;
  return [b[0] + dx - g, b[1] + dy - g, b[2] + dz - g, b[3] + dx + g, b[4] + dy + g, b[5] + dz + g];
}

describe("DynamicTree", () => {
  it("empty tree: queries do nothing, validate passes", () => {
    const t = new DynamicTree();
    validateTree(t);
    let n = 0;
    t.queryAabb(-1, -1, -1, 1, 1, 1, { onOverlap: () => void n++ });
    t.raycast(0, 0, 0, 1, 0, 0, 10, { onRayLeaf: () => (n++, 1) });
    t.selfOverlaps({ onPair: () => void n++ });
    t.overlapsWith(new DynamicTree(), { onPair: () => void n++ });
    t.refit();
    t.refine(10);
    t.rebuild();
    expect(n).toBe(0);
    expect(sahCost(t)).toBe(0);
    expect(t.height).toBe(-1);
  });

  it("matches brute force through inserts, removes, setLeafAabb+refit, moveProxy, reuse and rebuild", () => {
    const rng = makeRng(12345);
    const world = 30;
    const m = new Model();
    for (let i = 0; i < 400; i++) m.add(randomBox(rng, world, 2.5));
    checkQueries(m, rng, world);

    // Remove a random quarter.
    const users = [...m.boxes.keys()];
    for (let i = 0; i < 100; i++) {
      const k = Math.floor(rng() * users.length);
      m.remove(users[k]);
      users.splice(k, 1);
    }
    checkQueries(m, rng, world);

    // Small motion written in place, then refit (the per-step path for moving bodies).
    for (let step = 0; step < 5; step++) {
      for (const [u, b] of m.boxes) m.set(u, jitter(rng, b, 1, 0.2));
      m.tree.refit();
    }
    checkQueries(m, rng, world);

    // Big moves through remove + reinsert.
    for (const u of [...m.boxes.keys()].slice(0, 120)) m.move(u, randomBox(rng, world, 2.5));
    checkQueries(m, rng, world);

    // Refinement keeps everything consistent; freed ids are reused by new proxies.
    m.tree.refine(150);
    for (let i = 0; i < 80; i++) m.add(randomBox(rng, world, 2.5));
    checkQueries(m, rng, world);

    // Full rebuild keeps proxy ids and answers.
    const before = m.tree.leafCount;
    m.tree.rebuild();
    expect(m.tree.leafCount).toBe(before);
    checkQueries(m, rng, world);

    // Remove everything.
    for (const u of [...m.boxes.keys()]) m.remove(u);
    checkQueries(m, rng, world);
    expect(m.tree.nodeCount).toBe(0);
  });

  it("overlapsWith matches brute force (moving x static) in both directions", () => {
    const rng = makeRng(777);
    const world = 25;
    const moving = new Model();
    const statics = new Model();
    for (let i = 0; i < 300; i++) moving.add(randomBox(rng, world, 2));
    for (let i = 0; i < 250; i++) statics.add(randomBox(rng, world, 3));
    checkInterTree(moving, statics);
    checkInterTree(statics, moving);
    for (let step = 0; step < 10; step++) {
      for (const [u, b] of moving.boxes) moving.set(u, jitter(rng, b, 0.8, 0.3));
      moving.tree.refit();
      moving.tree.refine(15);
    }
    for (const u of [...statics.boxes.keys()].slice(0, 60)) statics.remove(u);
    validateTree(moving.tree);
    validateTree(statics.tree);
    checkInterTree(moving, statics);
    checkInterTree(statics, moving);
    statics.tree.rebuild();
    checkInterTree(moving, statics);
  });

  it("handles degenerate input: identical boxes, flat boxes, a single leaf", () => {
    const m = new Model();
    m.add([0, 0, 0, 1, 1, 1]);
    const rng = makeRng(5);
    checkQueries(m, rng, 2);
    for (let i = 0; i < 50; i++) m.add([0, 0, 0, 1, 1, 1]);
    for (let i = 0; i < 50; i++) m.add([i, 0, 0, i + 1, 0, 0]); // zero-thickness boxes in a row
    checkQueries(m, rng, 2);
    m.tree.rebuild();
    checkQueries(m, rng, 2);
  });

  it("a visitor returning false stops queryAabb; a negative ray result stops raycast", () => {
    const m = new Model();
    for (let i = 0; i < 100; i++) m.add([i, 0, 0, i + 1.5, 1, 1]);
    let calls = 0;
    m.tree.queryAabb(-10, -10, -10, 200, 10, 10, {
      onOverlap(): boolean {
        calls++;
        return calls < 3;
      },
    });
    expect(calls).toBe(3);
    calls = 0;
    m.tree.raycast(-5, 0.5, 0.5, 1, 0, 0, Infinity, {
      onRayLeaf(): number {
        calls++;
        return -1;
      },
    });
    expect(calls).toBe(1);
  });

  it("nearest-first ray order: clipping at the first hit visits few leaves", () => {
    const m = new Model();
    for (let i = 0; i < 500; i++) m.add([i, 0, 0, i + 0.5, 1, 1]);
    let calls = 0;
    let first = -1;
    m.tree.raycast(-5, 0.5, 0.5, 1, 0, 0, Infinity, {
      onRayLeaf(u: number): number {
        calls++;
        if (first < 0) first = u;
        const b = m.boxes.get(u)!;
        return b[0] + 5; // entry distance along +x from x = -5
      },
    });
    expect(first).toBe(0);
    expect(calls).toBeLessThan(5);
  });

  it("queries may nest inside a visitor on the same tree", () => {
    const rng = makeRng(99);
    const m = new Model();
    for (let i = 0; i < 200; i++) m.add(randomBox(rng, 20, 2));
    const outer: number[] = [];
    let inner = 0;
    const innerVisitor: TreeOverlapVisitor = { onOverlap: () => void inner++ };
    m.tree.queryAabb(-10, -10, -10, 10, 10, 10, {
      onOverlap(u: number): void {
        outer.push(u);
        const b = m.boxes.get(u)!;
        m.tree.queryAabb(b[0], b[1], b[2], b[3], b[4], b[5], innerVisitor);
      },
    });
    const expected: number[] = [];
    let expectedInner = 0;
    for (const [u, b] of m.boxes)
      if (overlaps(b, [-10, -10, -10, 10, 10, 10])) {
        expected.push(u);
        for (const b2 of m.boxes.values()) if (overlaps(b, b2)) expectedInner++;
      }
    expect(sorted(outer)).toEqual(sorted(expected));
    expect(inner).toBe(expectedInner);
  });

  it("is deterministic: same calls give the same structure and visit order", () => {
    const run = (): { pairs: string[]; hits: number[]; sah: number; height: number; nodes: number } => {
      const rng = makeRng(2024);
      const m = new Model();
      for (let i = 0; i < 300; i++) m.add(randomBox(rng, 20, 2));
      for (const u of [...m.boxes.keys()].slice(0, 50)) m.remove(u);
      for (let s = 0; s < 20; s++) {
        for (const [u, b] of m.boxes) m.set(u, jitter(rng, b, 0.5, 0.1));
        m.tree.refit();
        m.tree.refine(12);
      }
      const pairs: string[] = [];
      m.tree.selfOverlaps({ onPair: (a: number, b: number) => void pairs.push(`${a},${b}`) });
      const c = new Collector();
      m.tree.queryAabb(-5, -5, -5, 5, 5, 5, c);
      return { pairs, hits: c.hits, sah: sahCost(m.tree), height: m.tree.height, nodes: m.tree.nodeCount };
    };
    expect(run()).toEqual(run());
  });

  it("refit + refine(n/20) per step keeps SAH cost within 1.5x of a fresh tree over 2000 steps", () => {
    const rng = makeRng(4242);
    const n = 1000;
    const world = 60;
    const px = new Float64Array(n * 3);
    const vel = new Float64Array(n * 3);
    const half = new Float64Array(n * 3);
    for (let i = 0; i < n * 3; i++) {
      px[i] = (rng() * 2 - 1) * world;
      vel[i] = (rng() * 2 - 1) * 0.5;
      half[i] = 0.3 + rng() * 1.2;
    }
    const tree = new DynamicTree();
    const plain = new DynamicTree(); // same motion, refit only: shows that refinement is what keeps quality
    const ids = new Int32Array(n);
    const plainIds = new Int32Array(n);
    // Velocity-expanded box, as the engine writes for moving bodies.
    const boxOf = (i: number): Box => {
      const o = i * 3;
      const b: Box = [0, 0, 0, 0, 0, 0];
      for (let k = 0; k < 3; k++) {
        const lo = px[o + k] - half[o + k];
        const hi = px[o + k] + half[o + k];
        const v = vel[o + k];
        b[k] = v < 0 ? lo + v : lo;
        b[k + 3] = v > 0 ? hi + v : hi;
      }
      return b;
    };
    for (let i = 0; i < n; i++) {
      const b = boxOf(i);
      ids[i] = tree.createProxy(b[0], b[1], b[2], b[3], b[4], b[5], i);
      plainIds[i] = plain.createProxy(b[0], b[1], b[2], b[3], b[4], b[5], i);
    }
    const steps = 2000;
    for (let s = 0; s < steps; s++) {
      for (let i = 0; i < n; i++) {
        for (let k = 0; k < 3; k++) {
          const o = i * 3 + k;
          vel[o] += (rng() * 2 - 1) * 0.05;
          if (vel[o] > 0.8) vel[o] = 0.8;
          if (vel[o] < -0.8) vel[o] = -0.8;
          px[o] += vel[o];
          if (px[o] > world) vel[o] = -Math.abs(vel[o]);
          if (px[o] < -world) vel[o] = Math.abs(vel[o]);
        }
        const b = boxOf(i);
        tree.setLeafAabb(ids[i], b[0], b[1], b[2], b[3], b[4], b[5]);
        plain.setLeafAabb(plainIds[i], b[0], b[1], b[2], b[3], b[4], b[5]);
      }
      tree.refit();
      tree.refine(n / 20);
      plain.refit();
    }
    validateTree(tree);
    validateTree(plain);

    const fresh = new DynamicTree();
    for (let i = 0; i < n; i++) {
      const b = boxOf(i);
      fresh.createProxy(b[0], b[1], b[2], b[3], b[4], b[5], i);
    }
    const rebuilt = new DynamicTree();
    for (let i = 0; i < n; i++) {
      const b = boxOf(i);
      rebuilt.createProxy(b[0], b[1], b[2], b[3], b[4], b[5], i);
    }
    rebuilt.rebuild();

    const cost = sahCost(tree);
    const freshCost = sahCost(fresh);
    const rebuiltCost = sahCost(rebuilt);
    const plainCost = sahCost(plain);
    const ratio = cost / freshCost;
    console.log(
      `SAH after ${steps} steps: refined ${cost.toFixed(1)}, fresh insert ${freshCost.toFixed(1)}, ` +
        `binned rebuild ${rebuiltCost.toFixed(1)}, refit-only ${plainCost.toFixed(1)}; ratio refined/fresh ${ratio.toFixed(3)}, ` +
        `refined/rebuild ${(cost / rebuiltCost).toFixed(3)}, height ${tree.height}`,
    );
    expect(ratio).toBeLessThan(1.5);
    expect(cost / rebuiltCost).toBeLessThan(1.5);
    expect(plainCost).toBeGreaterThan(cost * 2);
  });
});
