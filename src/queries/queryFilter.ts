/**
 * Filters shared by the world queries (point proximity, shape proximity, shape cast) and the tree visitor
 * that collects broad-phase candidates for them.
 */
import type { IntList } from "../collections/intList";
import { BodyFlag, type BodySet } from "../dynamics/bodySet";

/**
 * Which bodies a query sees. Membership/collideWith use the same two-way test as body pairs: the body is
 * seen when (membership & body.collideWith) != 0 and (body.membership & collideWith) != 0. Both default to
 * all bits. Triggers are skipped unless `hitTriggers`. `ignoreBody` is a body handle to skip.
 */
export interface QueryFilter {
  membership?: number;
  collideWith?: number;
  hitTriggers?: boolean;
  ignoreBody?: number;
}

/** True when the body at dense index i passes the filter (it may still be shapeless). */
export function passesFilter(bodies: BodySet, i: number, filter: QueryFilter): boolean {
  if (filter.ignoreBody !== undefined && filter.ignoreBody === bodies.handle[i]) return false;
  if (!filter.hitTriggers && bodies.flags[i] & BodyFlag.Trigger) return false;
  const mem = (filter.membership ?? -1) | 0,
    col = (filter.collideWith ?? -1) | 0;
  return (mem & bodies.collideWith[i]) !== 0 && (bodies.membership[i] & col) !== 0;
}

/** Tree overlap visitor that appends the leaves' user data (body slots) to a list. Reusable. */
export class CandidateCollector {
  list: IntList | null = null;
  onOverlap(slot: number): void {
    this.list!.push(slot);
  }
}
