/** Scratch for {@link ContactManifold.addPoint}: x, y, z, depth of the contact being added. */
export const CONTACT_POINT = new Float64Array(4);

/**
 * The output of every narrow-phase tester: up to four contacts sharing one normal.
 *
 * Conventions (all testers follow them):
 * - `normalX/Y/Z` is a world-space unit vector pointing from shape A toward shape B.
 * - Each contact has a world position midway between the two surfaces along the normal, so the point on
 *   A is `position + normal * depth / 2` and the point on B is `position - normal * depth / 2`.
 * - `depth` is the penetration depth: positive when overlapping, negative when separated (a speculative
 *   contact). Testers keep contacts with `depth >= -speculativeMargin` and drop the rest.
 * - `featureId` identifies the pair of features that made the contact (vertex/edge/face ids of both
 *   shapes), so the same contact keeps the same id from step to step for warm starting.
 */
export class ContactManifold {
  /** Maximum number of contacts in one manifold. */
  static readonly MaxContacts = 4;

  /** Number of valid contacts (0..4). */
  count = 0;
  normalX = 0;
  normalY = 1;
  normalZ = 0;
  readonly positionX = new Float64Array(4);
  readonly positionY = new Float64Array(4);
  readonly positionZ = new Float64Array(4);
  readonly depth = new Float64Array(4);
  readonly featureId = new Int32Array(4);
  /** Index of the compound child of A that produced this manifold (0 for a convex shape). */
  childA = 0;
  /** Index of the compound child of B that produced this manifold (0 for a convex shape). */
  childB = 0;
  /**
   * The speculative margin a tester uses when it is called without one (the narrow phase's dispatch does
   * that). A tester called with a margin copies it here, then reads it from here (doubles in arrays and
   * fields, never a sometimes-undefined parameter: docs/design.md).
   */
  margin = 0.5;

  /**
   * A tester's start: empties the manifold and keeps the margin it was called with, if any (the dispatch calls
   * without one: then it is already here). The tester then reads `margin`.
   */
  begin(speculativeMargin: number | undefined): void {
    if (speculativeMargin !== undefined) this.margin = speculativeMargin;
    this.count = 0;
  }

  reset(): void {
    this.count = 0;
    this.childA = 0;
    this.childB = 0;
  }

  /** Appends a contact; ignores it when the manifold is full. Returns the contact's index or -1. */
  add(x: number, y: number, z: number, depth: number, featureId: number): number {
    const i = this.count;
    if (i >= 4) return -1;
    this.positionX[i] = x;
    this.positionY[i] = y;
    this.positionZ[i] = z;
    this.depth[i] = depth;
    this.featureId[i] = featureId | 0;
    this.count = i + 1;
    return i;
  }

  /**
   * Appends the contact at p[0..2] with depth p[3] (see {@link CONTACT_POINT}); ignores it when the manifold is
   * full. The testers use this rather than {@link add} (doubles in arrays, docs/design.md).
   */
  addPoint(p: Float64Array, featureId: number): void {
    const i = this.count;
    if (i >= 4) return;
    this.positionX[i] = p[0];
    this.positionY[i] = p[1];
    this.positionZ[i] = p[2];
    this.depth[i] = p[3];
    this.featureId[i] = featureId | 0;
    this.count = i + 1;
  }

  /** Reverses A and B: flips the normal (positions, depths and ids are symmetric). */
  flip(): void {
    this.normalX = -this.normalX;
    this.normalY = -this.normalY;
    this.normalZ = -this.normalZ;
    const c = this.childA;
    this.childA = this.childB;
    this.childB = c;
  }

  copyFrom(o: ContactManifold): void {
    this.count = o.count;
    this.normalX = o.normalX;
    this.normalY = o.normalY;
    this.normalZ = o.normalZ;
    this.childA = o.childA;
    this.childB = o.childB;
    for (let i = 0; i < o.count; i++) {
      this.positionX[i] = o.positionX[i];
      this.positionY[i] = o.positionY[i];
      this.positionZ[i] = o.positionZ[i];
      this.depth[i] = o.depth[i];
      this.featureId[i] = o.featureId[i];
    }
  }
}

/**
 * A growable pool of manifolds written by one shape-pair test (a compound pair writes one manifold per
 * touching child pair). Manifolds are reused across calls: steady state allocates nothing.
 */
export class ManifoldBuffer {
  readonly items: ContactManifold[] = [];
  count = 0;
  /**
   * The speculative margin for the next {@link collideShapesInto} call. Passed through here rather than as
   * an argument (doubles in arrays, docs/design.md).
   */
  margin = 0.5;
  /**
   * Whether a hull's or box's manifolds with a mesh's or heightfield's triangles merge when their normals agree
   * (triangleManifoldMerge.ts). The world's narrow phase sets it for pairs without per-child surfaces (a merged
   * manifold keeps one triangle's index); direct callers get one manifold per touching triangle.
   */
  mergeTriangles = false;

  clear(): void {
    this.count = 0;
  }

  /**
   * Returns a reset manifold at the end of the buffer (the caller fills it, and may `pop` it if empty), carrying
   * the buffer's margin: the contact cache keeps each manifold's margin (ContactCache.findReusable), so a pooled
   * manifold must not keep the margin of whatever pair last used it (a mesh's triangle manifolds are written
   * without a tester call that would set it).
   */
  push(): ContactManifold {
    if (this.count === this.items.length) this.items.push(new ContactManifold());
    const m = this.items[this.count++];
    m.reset();
    m.margin = this.margin;
    return m;
  }

  /** Drops the last manifold (used when a tester produced no contact). */
  pop(): void {
    if (this.count > 0) this.count--;
  }
}
