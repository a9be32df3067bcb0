/**
 * The seam between the plugin and its optional snapshots (snapshot.ts, `continuum-physics/snapshot`): what the
 * snapshot code needs from a plugin, and the factory that importing snapshot.ts installs. The plugin calls
 * through it, so that a plugin that never snapshots does not carry the snapshot code.
 */
import type { World } from "../src/index";
import type { BodyRecord } from "./bodyRecord";

/** What the snapshot code needs from the plugin (its private state). */
export interface SnapshotHost {
  /** The engine world (the plugin replaces it on dispose). */
  getWorld(): World;
  /** Engine handle -> record. */
  readonly records: ReadonlyMap<number, BodyRecord>;
  /** Records under ALWAYS_INACTIVE activation control (rebuilt on restore). */
  readonly inactive: BodyRecord[];
  /** The plugin's step settings: step length of the last step, fixed step, speed limits (read / written in this order). */
  readTiming(out: Float64Array): void;
  writeTiming(values: Float64Array): void;
  /** Writes a body's engine pose(s) to its transform node or thin-instance matrices (the plugin's `sync`). */
  sync(body: BodyRecord["body"]): void;
}

/** A plugin's snapshot bridge (snapshot.ts's SnapshotBridge), as the plugin calls it. */
export interface SnapshotBridgeLike {
  take(reuse?: object): object;
  restore(source: object): void;
}

let makeBridge: ((host: SnapshotHost) => SnapshotBridgeLike) | null = null;

/** @internal Called once by snapshot.ts when it is imported. */
export function installSnapshots(factory: (host: SnapshotHost) => SnapshotBridgeLike): void {
  makeBridge = factory;
}

/** A bridge for `host`, or an Error naming `fn` and the import that installs snapshots. */
export function snapshotBridge(fn: string, host: SnapshotHost): SnapshotBridgeLike {
  if (makeBridge === null) throw new Error(`${fn}: snapshots need \`import "continuum-physics/snapshot"\` (plugin/snapshot.ts)`);
  return makeBridge(host);
}
