/**
 * How two children of a body pair meet when a body has per-child surfaces (World.setChildSurfaces): apart (their
 * filters keep them apart), as a contact, or as a trigger overlap. The narrow phase asks it per manifold; the sweeps
 * (the pair's speculative sweep and the continuous pass) ask it per piece pair through {@link ChildPairFilter}, so
 * a child its partner does not collide with can neither stop a fast body nor make its contacts.
 */
import { BodyFlag, type BodySet } from "../dynamics/bodySet";
import type { ChildPairGate } from "../shapes/childGate";
import type { ChildSurfaces } from "./childSurfaces";

/** The children's filters keep them apart. */
export const CHILDREN_APART = 0;
/** The children collide. */
export const CHILDREN_CONTACT = 1;
/** A child is a trigger: the children's overlap is a trigger event of the body pair. */
export const CHILDREN_TRIGGER = 2;

/** What {@link childPairKind} reads: the bodies and their per-child surfaces (the world state). */
export interface ChildSurfaceSource {
  readonly bodies: BodySet;
  childSurfacesOf(i: number): ChildSurfaces | null;
}

/**
 * How child `childA` of body `ia` meets child `childB` of body `ib`: {@link CHILDREN_APART},
 * {@link CHILDREN_CONTACT} or {@link CHILDREN_TRIGGER}. A side without surfaces of its own filters as its body
 * (the same two-way membership test as a body pair's).
 */
export function childPairKind(src: ChildSurfaceSource, ia: number, ib: number, childA: number, childB: number): number {
  const b = src.bodies;
  const sa = src.childSurfacesOf(ia),
    sb = src.childSurfacesOf(ib);
  const ra = sa ? sa.runOf(childA) : -1,
    rb = sb ? sb.runOf(childB) : -1;
  const memA = sa ? sa.membership[ra] : b.membership[ia],
    colA = sa ? sa.collideWith[ra] : b.collideWith[ia],
    memB = sb ? sb.membership[rb] : b.membership[ib],
    colB = sb ? sb.collideWith[rb] : b.collideWith[ib];
  if ((memA & colB) === 0 || (memB & colA) === 0) return CHILDREN_APART;
  if ((sa && sa.trigger[ra]) || (sb && sb.trigger[rb])) return CHILDREN_TRIGGER;
  return CHILDREN_CONTACT;
}

/**
 * The sweeps' {@link ChildPairGate} for one body pair: passes the child pairs that make contacts. One per world,
 * re-armed per pair (no allocation per sweep).
 */
export class ChildPairFilter implements ChildPairGate {
  private src: ChildSurfaceSource | null = null;
  private ia = -1;
  private ib = -1;

  /** Arms the gate for bodies `ia` (the sweep's first shape) and `ib`; null when neither has per-child surfaces. */
  arm(src: ChildSurfaceSource, ia: number, ib: number): ChildPairGate | null {
    const f = src.bodies.flags;
    if (((f[ia] | f[ib]) & BodyFlag.ChildSurfaces) === 0) return null;
    this.src = src;
    this.ia = ia;
    this.ib = ib;
    return this;
  }

  passes(childA: number, childB: number): boolean {
    return childPairKind(this.src!, this.ia, this.ib, childA, childB) === CHILDREN_CONTACT;
  }
}
