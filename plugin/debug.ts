/**
 * The `continuum-physics/debug` entry: the engine's debug view (src/debug.ts). For a plugin:
 * `new WorldDebugView(plugin.world)`. Kept out of the plain plugin's bundle.
 */
export * from "../src/debug";
