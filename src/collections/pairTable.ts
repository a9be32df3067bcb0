import { grown } from "./growth";

/**
 * An open-addressed hash table keyed by an ordered pair of body handles, with a small float payload per
 * entry. Used double-buffered for per-pair state that must be compared step to step (touching pairs,
 * trigger overlaps). Entries are kept in insertion order, so iteration is deterministic.
 */
export class PairTable {
  count = 0;
  keyA = new Float64Array(16);
  keyB = new Float64Array(16);
  /** `payloadSize` floats per entry. */
  payload: Float64Array;
  private table = new Int32Array(32);
  private mask = 31;

  constructor(readonly payloadSize = 0) {
    this.payload = new Float64Array(16 * Math.max(1, payloadSize));
  }

  /**
   * Empties the table. The slot array keeps its high-water size (a pour's thousand pairs: 4,096 slots), so a
   * table that now holds a few entries zeroes only their slots, found by probing as insert did: the per-step
   * clear then costs the entries, not the capacity.
   */
  clear(): void {
    const n = this.count;
    if (n === 0) return;
    const t = this.table;
    if (n * 8 >= t.length) t.fill(0);
    else {
      const mask = this.mask;
      for (let i = 0; i < n; i++) {
        let slot = hash(this.keyA[i], this.keyB[i]) & mask;
        while (t[slot] !== i + 1) slot = (slot + 1) & mask;
        t[slot] = 0;
      }
    }
    this.count = 0;
  }

  /** Index of the entry for (a, b), or -1. */
  find(a: number, b: number): number {
    let slot = hash(a, b) & this.mask;
    for (;;) {
      const e = this.table[slot];
      if (e === 0) return -1;
      if (this.keyA[e - 1] === a && this.keyB[e - 1] === b) return e - 1;
      slot = (slot + 1) & this.mask;
    }
  }

  /** Adds (a, b) if absent; returns its index. */
  insert(a: number, b: number): number {
    const found = this.find(a, b);
    if (found >= 0) return found;
    if ((this.count + 1) * 2 > this.table.length) this.rehash(this.table.length * 2);
    const i = this.count++;
    if (i === this.keyA.length) {
      this.keyA = grown(this.keyA, i + 1);
      this.keyB = grown(this.keyB, i + 1);
      this.payload = grown(this.payload, this.keyA.length * Math.max(1, this.payloadSize));
    }
    this.keyA[i] = a;
    this.keyB[i] = b;
    let slot = hash(a, b) & this.mask;
    while (this.table[slot] !== 0) slot = (slot + 1) & this.mask;
    this.table[slot] = i + 1;
    return i;
  }

  private rehash(size: number): void {
    // Rebuilt from the entries: nothing of the old table is kept.
    this.table = grown(this.table, size, 0);
    this.mask = size - 1;
    for (let i = 0; i < this.count; i++) {
      let slot = hash(this.keyA[i], this.keyB[i]) & this.mask;
      while (this.table[slot] !== 0) slot = (slot + 1) & this.mask;
      this.table[slot] = i + 1;
    }
  }
}

function hash(a: number, b: number): number {
  let h = Math.imul(a | 0, 0x9e3779b1) ^ Math.imul((b | 0) + 0x632be5ab, 0x85ebca77);
  h ^= h >>> 15;
  h = Math.imul(h, 0x2c1b3c6d);
  h ^= h >>> 12;
  // Kept below 2^30 so the result is a small integer (Smi): a uint32 above that is a heap number when the
  // call is not inlined. Callers mask the low bits.
  return h & 0x3fffffff;
}
