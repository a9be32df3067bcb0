/**
 * Continuum's Babylon.js entry point: the `ContinuumPlugin` (an `IPhysicsEnginePluginV2`, a drop-in for
 * HavokPlugin) and the whole engine API. Optional parts have entries of their own, so that a plain plugin does
 * not carry them: `continuum-physics/snapshot` (snapshot.ts: `plugin.snapshot()` / `restore()`),
 * `continuum-physics/debug` (src/debug.ts: `WorldDebugView`), `continuum-physics/vehicle` (wheelConstraint.ts).
 */
export { ContinuumPlugin, type ContinuumPluginOptions } from "./continuumPlugin";
export type { PhysicsSnapshot, ClonedPhysicsSnapshot, PhysicsSnapshotSource } from "./snapshot";
export type { ContinuumPhysicsMaterial } from "./materials";
export * from "../src/index";
