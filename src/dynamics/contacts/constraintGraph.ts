/**
 * The contact passes' visiting order: manifolds colour by colour, then an overflow set (Box2D v3's constraint graph,
 * constraint_graph.c; Tonge, Benevolenskiy and Hecht's graph-coloured solver that it cites).
 *
 * A colour holds manifolds that share no dynamic body, so the manifolds of one colour write disjoint velocities and
 * can be solved in any order, or at once on several threads, with the same result. Bodies of inverse mass 0
 * (static, kinematic) are in no colour: the passes never change their velocities. A manifold whose bodies are
 * already in every colour it may take (a body touching very many) goes to the overflow set, solved last, on one
 * thread.
 *
 * Colours are assigned greedily in the cache's manifold order, each step from scratch: the order depends only on the
 * manifold list (its order and bodies) and the bodies' inverse masses, never on timing or thread count. Every
 * manifold takes its lowest free colour; as in Box2D v3, those between two dynamic bodies only below
 * {@link DYNAMIC_COLOURS}, so the top colours stay open to a crowded body's contacts with the ground. Box2D v3 also
 * fills the colours of manifolds with a fixed body from the top (solved after the dynamic pairs, "to get higher
 * priority"); here the Havok demo's car on a two-triangle ground (test/plugin/demoCar.test.ts) then turned 1.68
 * degrees over 140 units instead of 0.002 (Havok: 0.24), most likely from a wheel with a manifold on each triangle
 * whose two manifolds that rule solves in the reverse order.
 *
 * With {@link SolverSettings.colouredPasses} off the order is the identity (the cache's order, as before colouring).
 */
import { grown } from "../../collections/growth";

/** Number of colours; a body's colours fit one 32-bit mask. */
export const COLOURS = 24;
/** Colours open to manifolds between two dynamic bodies (0 .. DYNAMIC_COLOURS - 1); the rest are kept for supports. */
export const DYNAMIC_COLOURS = COLOURS - 4;
/** Mask of the colours a dynamic pair may take. */
const DYNAMIC_MASK = (1 << DYNAMIC_COLOURS) - 1;
/** Mask of the colours a manifold with a fixed body may take: all. */
const FIXED_MASK = (1 << COLOURS) - 1;
/** The overflow set's index in {@link ConstraintGraph.start}. */
export const OVERFLOW = COLOURS;

/** The step's colouring of the contact manifolds and the order the passes visit them in. */
export class ConstraintGraph {
  /** The manifolds (cache indices) in visiting order: colour 0's, colour 1's, ..., then the overflow set's. */
  order = new Int32Array(0);
  /**
   * Colour c's manifolds are order[start[c] .. start[c + 1] - 1]; the overflow set's start at start[OVERFLOW] and end at
   * start[OVERFLOW + 1] (the manifold count).
   */
  readonly start = new Int32Array(COLOURS + 2);
  /** Per manifold (cache index): its colour, or OVERFLOW. */
  colour = new Uint8Array(0);
  /** Per manifold (cache index): its slot, the inverse of {@link order}. */
  slot = new Int32Array(0);
  /** Per body: the colours it is in this step (valid where {@link stamp} is {@link round}). */
  private mask = new Int32Array(0);
  private stamp = new Int32Array(0);
  private round = 0;

  /**
   * Colours `count` manifolds whose dense body pairs are bodyIndex[2i], bodyIndex[2i + 1] (over `bodyCount` bodies
   * of inverse masses `invMass`) and lays out {@link order}; `coloured` false lays out the identity (one colour).
   */
  build(count: number, bodyIndex: Int32Array, invMass: Float64Array, bodyCount: number, coloured: boolean): void {
    this.order = grown(this.order, count, 0);
    this.colour = grown(this.colour, count, 0);
    this.slot = grown(this.slot, count, 0);
    const order = this.order,
      colour = this.colour,
      slot = this.slot,
      start = this.start;
    start.fill(0);
    if (!coloured) {
      for (let i = 0; i < count; i++) {
        order[i] = i;
        slot[i] = i;
        colour[i] = 0;
      }
      for (let c = 1; c < COLOURS + 2; c++) start[c] = count;
      return;
    }
    this.begin(bodyCount);
    const mask = this.mask,
      stamp = this.stamp,
      round = this.round;
    // First pass: each manifold's colour, counted per colour (start[c + 1] holds colour c's count).
    for (let i = 0; i < count; i++) {
      const a = bodyIndex[i * 2],
        b = bodyIndex[i * 2 + 1];
      const dynA = invMass[a] > 0,
        dynB = invMass[b] > 0;
      const ma = dynA && stamp[a] === round ? mask[a] : 0,
        mb = dynB && stamp[b] === round ? mask[b] : 0;
      const free = ~(ma | mb) & (dynA && dynB ? DYNAMIC_MASK : FIXED_MASK);
      // The lowest free colour (free & -free: its bit).
      const c = free !== 0 ? 31 - Math.clz32(free & -free) : OVERFLOW;
      colour[i] = c;
      start[c + 1]++;
      if (c === OVERFLOW) continue;
      const bit = 1 << c;
      if (dynA) {
        mask[a] = ma | bit;
        stamp[a] = round;
      }
      if (dynB) {
        mask[b] = mb | bit;
        stamp[b] = round;
      }
    }
    // Prefix sums, then each manifold to its colour's next slot (in manifold order within a colour).
    for (let c = 0; c <= OVERFLOW; c++) start[c + 1] += start[c];
    const next = this.next;
    for (let c = 0; c <= OVERFLOW; c++) next[c] = start[c];
    for (let i = 0; i < count; i++) {
      const j = next[colour[i]]++;
      order[j] = i;
      slot[i] = j;
    }
  }

  /** Per colour, the next free slot while {@link build} lays out the order. */
  private readonly next = new Int32Array(COLOURS + 1);

  /** Starts a new round of body masks for `bodyCount` bodies (no clearing pass: stale stamps read as no colour). */
  private begin(bodyCount: number): void {
    const before = this.stamp;
    this.stamp = grown(before, bodyCount, 0);
    this.mask = grown(this.mask, bodyCount, 0);
    if (this.stamp !== before) this.round = 0;
    this.round++;
    if (this.round > 0x3fffffff) {
      this.stamp.fill(0);
      this.round = 1;
    }
  }
}
