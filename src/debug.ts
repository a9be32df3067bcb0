/**
 * The engine's debug-view entry (`continuum-physics/debug`): {@link WorldDebugView}, a read-only view of what
 * the last step predicted (contacts, velocity-expanded bounds, sweeps and times of impact), with its buffer
 * layouts. Kept out of src/index.ts so that a plain plugin does not carry it. Never imports Babylon.
 */
export {
  WorldDebugView,
  DEBUG_CONTACT_STRIDE,
  DebugContact,
  DEBUG_BOUNDS_STRIDE,
  DebugBounds,
  DebugBoundsFlag,
  DEBUG_SWEEP_STRIDE,
  DebugSweep,
  DebugSweepKind,
} from "./world/debugView";
