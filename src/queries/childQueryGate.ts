/**
 * Per-child query filtering: a {@link ChildGate} armed with one body's per-child filters and a query's filter.
 */
import type { ChildGate } from "../shapes/childGate";
import type { QueryFilter } from "./queryFilter";

/** Per-child filters in runs (the world's ChildSurfaces): run r covers the children runOf maps to it. */
export interface ChildFilters {
  runOf(child: number): number;
  readonly membership: Int32Array;
  readonly collideWith: Int32Array;
  /** Per run: 1 for a trigger. */
  readonly trigger: Uint8Array;
}

/**
 * The {@link ChildGate} of a query against one body's children: a child is seen when the query's filter meets
 * the child's (the same two-way test as a body's) and, unless the query hits triggers, it is not a trigger.
 * One per query site, re-armed per body (no allocation per query).
 */
export class ChildQueryGate implements ChildGate {
  private surfaces: ChildFilters | null = null;
  private membership = -1;
  private collideWith = -1;
  private hitTriggers = false;

  /** Arms the gate for `surfaces` (null: the body has none) and `filter`; returns it, or null when none is needed. */
  arm(surfaces: ChildFilters | null, filter: QueryFilter): ChildGate | null {
    if (surfaces === null) return null;
    this.surfaces = surfaces;
    this.membership = (filter.membership ?? -1) | 0;
    this.collideWith = (filter.collideWith ?? -1) | 0;
    this.hitTriggers = filter.hitTriggers === true;
    return this;
  }

  passes(child: number): boolean {
    const s = this.surfaces!;
    const r = s.runOf(child);
    if (!this.hitTriggers && s.trigger[r] === 1) return false;
    return (this.membership & s.collideWith[r]) !== 0 && (s.membership[r] & this.collideWith) !== 0;
  }
}
