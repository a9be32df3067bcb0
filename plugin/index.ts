/**
 * Continuum's Babylon.js entry point: the `ContinuumPlugin` (an `IPhysicsEnginePluginV2`, a drop-in for
 * HavokPlugin) and the whole engine API.
 */
export { ContinuumPlugin, type ContinuumPluginOptions } from "./continuumPlugin";
export { PhysicsSnapshot, type ClonedPhysicsSnapshot, type PhysicsSnapshotSource } from "./snapshot";
export type { ContinuumPhysicsMaterial } from "./materials";
export { WheelConstraint, type WheelConstraintOptions } from "./wheelConstraint";
export * from "../src/index";
