/**
 * What the world-level queries (worldQueries.ts, worldRaycast.ts) read of a world: its bodies, its two
 * broad-phase trees and the bodies' origin poses. The world's state (src/world/worldState.ts) provides them;
 * the queries name only this, so they do not import world/.
 */
import type { DynamicTree } from "../broadphase/dynamicTree";
import type { BodySet } from "../dynamics/bodySet";
import type { Pose } from "../math/pose";
import type { ChildFilters } from "./childQueryGate";

/** The part of a world the queries read (see the file comment). */
export interface QueryWorld {
  readonly bodies: BodySet;
  /** Awake moving bodies (user data = body slot). */
  readonly movingTree: DynamicTree;
  /** Static and sleeping bodies (user data = body slot). */
  readonly staticTree: DynamicTree;
  /** Writes the pose of the body at dense index i (its origin, not its centre of mass) into out. */
  originPose(i: number, out: Pose): Pose;
  /** Per-child filters of the body at dense index i (World.setChildSurfaces), or null: it has none. */
  childSurfacesOf(i: number): ChildFilters | null;
}
