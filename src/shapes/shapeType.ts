/**
 * Shape kinds. The numbering matches Babylon's `PhysicsShapeType` so the plugin can pass it through.
 */
export const ShapeType = {
  Sphere: 0,
  Capsule: 1,
  Cylinder: 2,
  Box: 3,
  ConvexHull: 4,
  Compound: 5,
  Mesh: 6,
  Heightfield: 7,
} as const;

/** One of the values of {@link ShapeType}. */
export type ShapeType = (typeof ShapeType)[keyof typeof ShapeType];

/** Number of shape kinds; dispatch tables are ShapeTypeCount x ShapeTypeCount. */
export const ShapeTypeCount = 8;
