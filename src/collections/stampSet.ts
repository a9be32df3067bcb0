import { grown } from "./growth";

/**
 * A set of small integers (body indices) cleared in O(1): each member carries the stamp of the round it was added
 * in, and a new round only increments the stamp. No per-round clearing pass and no allocation in steady state.
 */
export class StampSet {
  private stamp = new Int32Array(0);
  private current = 0;

  /** Starts a new round (the set becomes empty) for members below `size`; returns true if storage was reallocated. */
  begin(size: number): boolean {
    const before = this.stamp;
    // Nothing carried over when it grows: the new round starts from stamp 1 over zeros.
    this.stamp = grown(before, size, 0);
    const reallocated = this.stamp !== before;
    if (reallocated) this.current = 0;
    this.current++;
    if (this.current > 0x3fffffff) {
      this.stamp.fill(0);
      this.current = 1;
    }
    return reallocated;
  }

  /** Adds i; returns true if it was not a member yet this round. */
  add(i: number): boolean {
    if (this.stamp[i] === this.current) return false;
    this.stamp[i] = this.current;
    return true;
  }

  /** Whether i was added this round. */
  has(i: number): boolean {
    return this.current > 0 && this.stamp[i] === this.current;
  }
}
