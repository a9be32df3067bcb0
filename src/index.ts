/**
 * Continuum: a rigid-body physics engine in TypeScript with speculative contacts, per-body
 * speculative margins, velocity-expanded bounds and continuous collision modes.
 * This entry point never imports Babylon. Optional parts have entries of their own: src/debug.ts (the debug
 * view), src/snapshot.ts (snapshots' byte codec), src/vehicle.ts (the wheel joint).
 */
export { Vec3, dot3, cross3, isFiniteVec3, type Vec3Like } from "./math/vec3";
export { Quat, mulQuat, normalizeQuat, rotateVec, rotateVecInv, rotationFromY, type QuatLike } from "./math/quat";
export { Pose } from "./math/pose";
export { ShapeType } from "./shapes/shapeType";
export { Shape, ConvexShape } from "./shapes/shape";
export { Sphere } from "./shapes/sphere";
export { Box } from "./shapes/box";
export { Capsule } from "./shapes/capsule";
export { Cylinder } from "./shapes/cylinder";
export { ConvexHull } from "./shapes/convexHull";
export { Compound, CompoundChild, scaleConvex, type CompoundChildDescription } from "./shapes/compound";
export { TriangleMesh, type TriangleMeshOptions } from "./shapes/triangleMesh";
export { Heightfield, type HeightfieldOptions } from "./shapes/heightfield";
export { convexShapeOfPoints } from "./shapes/pointCloudShape";
export { ContactManifold, ManifoldBuffer } from "./collision/contactManifold";
export { collideShapes, collideConvex } from "./collision/narrowPhase";
export { RayHit, rayCastShape, pointInShape } from "./queries/rayShape";
export { angularBoundsExpansion, expandBounds, speculativeMargin, predictBodyBounds } from "./dynamics/boundsExpansion";
export { computeMassData, MassData, principalAxes } from "./dynamics/massProperties";
export {
  MotionType,
  ContinuousDetectionMode,
  ContinuousDetection,
  CombineMode,
  surfaceMaterial,
  sameSurfaceMaterial,
  type SurfaceMaterial,
  type SpringSettings,
  type PairMaterial,
  type MassProperties,
  type CollidableDescription,
  type BodyDescription,
} from "./world/descriptions";
export { type ChildSurfaceDescription } from "./world/childSurfaces";
export { ContactEventType, TriggerEventType, ContactEventBuffer, TriggerEventBuffer } from "./world/events";
export { World, WorldSnapshot, RayResult, StepStats, type WorldSettings, type RayFilter } from "./world/world";
export {
  JointAxis,
  AxisMode,
  MotorType,
  type JointAxisDescription,
  type JointDescription,
} from "./dynamics/joints/joint6dof";
export { JointSolver } from "./dynamics/joints/jointSolver";
export { WorldQueries } from "./queries/worldQueries";
export { type QueryFilter } from "./queries/queryFilter";
export { PointProximityResult, PointShapeHit, pointShapeDistance } from "./queries/pointProximity";
export { ShapeProximityResult, ShapePairHit, shapeShapeDistance } from "./queries/shapeProximity";
export { ShapeCastResult, CastPairHit, castShapeAgainst } from "./queries/shapeCast";
