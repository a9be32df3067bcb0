import { grown } from "../collections/growth";

/**
 * Islands for sleeping: a union-find over the awake dynamic bodies linked by contacts (and, later,
 * joints), rebuilt every step (cheap, deterministic, no bookkeeping on contact changes). An island
 * sleeps when every body in it has been slow for the sleep time (Box2D v3 / bepu: ~0.5 s).
 */
export class UnionFind {
  parent = new Int32Array(64);

  /** Makes each of 0..n-1 its own set. */
  reset(n: number): void {
    this.parent = grown(this.parent, n, 0);
    for (let i = 0; i < n; i++) this.parent[i] = i;
  }

  find(i: number): number {
    const p = this.parent;
    let r = i;
    while (p[r] !== r) r = p[r];
    // Path compression keeps later finds O(1)-ish.
    while (p[i] !== r) {
      const n = p[i];
      p[i] = r;
      i = n;
    }
    return r;
  }

  /** Joins the sets of a and b; the smaller index becomes the root (deterministic). */
  union(a: number, b: number): void {
    const ra = this.find(a),
      rb = this.find(b);
    if (ra === rb) return;
    if (ra < rb) this.parent[rb] = ra;
    else this.parent[ra] = rb;
  }
}
