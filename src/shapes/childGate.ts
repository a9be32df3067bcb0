/**
 * Which pieces of a shape a query may hit: compound children by child index, triangles of a mesh or
 * heightfield by their public triangle index. The world hands one to the shape queries for a body whose
 * children have their own collision filters or trigger flags (World.setChildSurfaces); null elsewhere, so
 * shapes without such children pay one null test.
 */
export interface ChildGate {
  /** True when the query may hit piece `child`. */
  passes(child: number): boolean;
}

/**
 * Which pairs of pieces of two shapes may meet in a sweep: `childA` a piece of the first shape, `childB` of the
 * second (compound child or public triangle index, 0 for a convex shape). The world hands one to the sweeps of a
 * pair in which a body has per-child filters or triggers, so a child its partner does not collide with can
 * neither stop nor hold the partner; null elsewhere.
 */
export interface ChildPairGate {
  /** True when piece `childA` of the first shape may meet piece `childB` of the second. */
  passes(childA: number, childB: number): boolean;
}
