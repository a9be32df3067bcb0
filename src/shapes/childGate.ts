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
