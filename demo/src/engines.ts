/**
 * The two physics engines a playground scene can run on, and the small capability wrapper scenes call for
 * what only Continuum has.
 *
 * Scenes are written against Babylon's V2 physics API (PhysicsAggregate, PhysicsBody, the plugin's V2
 * methods), which ContinuumPlugin and Babylon's HavokPlugin both implement. Continuum's extras
 * (continuous-detection modes, speculative margins, anything on `plugin.world`) go through
 * {@link PhysicsCaps}: on Havok they are skipped and remembered, so the page can say which ones were.
 */
import { HavokPlugin } from "@babylonjs/core/Physics/v2/Plugins/havokPlugin.js";
import type { PhysicsBody } from "@babylonjs/core/Physics/v2/physicsBody.js";
import { ContinuumPlugin, type ContinuousDetection } from "../../plugin/index";

export type EngineKind = "continuum" | "havok";
/** The plugins a scene may run on; what both have is Babylon's V2 API (and HavokPlugin's query methods). */
export type ScenePlugin = ContinuumPlugin | HavokPlugin;
export const ENGINE_KINDS: readonly EngineKind[] = ["continuum", "havok"];
export const ENGINE_NAMES: Record<EngineKind, string> = { continuum: "Continuum", havok: "Havok" };

export const otherEngine = (kind: EngineKind): EngineKind => (kind === "continuum" ? "havok" : "continuum");

/** `?engine=havok` (anything else, or nothing: Continuum). */
export function engineFromUrl(url: URL): EngineKind {
  return url.searchParams.get("engine") === "havok" ? "havok" : "continuum";
}

/** What `import("@babylonjs/havok")` resolves to: the factory of the wasm module. */
type HavokFactory = (options?: { locateFile?(file: string): string }) => Promise<unknown>;

let havokModule: Promise<unknown> | undefined;

/**
 * Loads Havok's wasm once per page (demo/serve.mjs serves node_modules/@babylonjs/havok/lib/esm/ under
 * /havok/). The script-tag page (umd.html) may provide the factory as the global `HavokPhysics`.
 */
export function loadHavok(): Promise<unknown> {
  havokModule ??= (async () => {
    const global = (globalThis as { HavokPhysics?: HavokFactory }).HavokPhysics;
    const factory: HavokFactory = global ?? ((await import("@babylonjs/havok")).default as unknown as HavokFactory);
    return factory({ locateFile: (file) => new URL(`havok/${file}`, document.baseURI).href });
  })();
  return havokModule;
}

/** Havok's wasm module once loaded (createPhysics("havok") needs it). */
let havokReady: unknown;

/** Whether createPhysics(kind) can run now. */
export const engineReady = (kind: EngineKind): boolean => kind === "continuum" || havokReady !== undefined;

/** Loads what createPhysics(kind) needs (Havok's wasm, once). */
export async function prepareEngine(kind: EngineKind): Promise<void> {
  if (kind === "havok" && havokReady === undefined) havokReady = await loadHavok();
}

/**
 * A scene's physics: the V2 plugin both engines implement, plus Continuum's extras that are skipped (and
 * listed in {@link skipped}) on Havok.
 */
export class PhysicsCaps {
  /** Continuum-only calls a scene made that were skipped because the engine is Havok. */
  readonly skipped = new Set<string>();

  constructor(
    readonly kind: EngineKind,
    readonly plugin: ScenePlugin,
  ) {}

  /** The Continuum plugin, or null on Havok. */
  get continuum(): ContinuumPlugin | null {
    return this.plugin instanceof ContinuumPlugin ? this.plugin : null;
  }

  /** Runs `fn` with the Continuum plugin; on Havok records `what` as skipped and does nothing. */
  continuumOnly(what: string, fn: (plugin: ContinuumPlugin) => void): void {
    const c = this.continuum;
    if (c) fn(c);
    else this.skipped.add(what);
  }

  /** Continuum's continuous-detection mode of a body (all its instances); skipped on Havok. */
  setContinuousDetection(body: PhysicsBody, detection: ContinuousDetection): void {
    this.continuumOnly("setContinuousDetection", (p) => p.setContinuousDetection(body, detection));
  }

  /** Continuum's speculative-margin bounds of a body (m); skipped on Havok. */
  setSpeculativeMargins(body: PhysicsBody, minimum: number, maximum: number): void {
    this.continuumOnly("setSpeculativeMargins", (p) => p.setSpeculativeMargins(body, minimum, maximum));
  }

  /** The caption's note: which Continuum-only calls this scene made that Havok skipped ("" if none). */
  skippedNote(): string {
    if (this.skipped.size === 0) return "";
    return `On Havok: ${[...this.skipped].join(", ")} skipped (Continuum only).`;
  }
}

/**
 * A fresh plugin for a scene, Continuum's on `threads` threads (the thread selector). Havok's wasm must have been
 * loaded (prepareEngine).
 */
export function createPhysics(kind: EngineKind, threads = 1): PhysicsCaps {
  if (kind === "havok") {
    if (havokReady === undefined) throw new Error("createPhysics: Havok is not loaded yet (await prepareEngine('havok') first)");
    return new PhysicsCaps(kind, new HavokPlugin(true, havokReady));
  }
  return new PhysicsCaps(kind, new ContinuumPlugin(true, threads > 1 ? { threads } : {}));
}
