/**
 * Scene helpers for the plugin tests: the same scene on ContinuumPlugin and on HavokPlugin (its wasm read
 * from @babylonjs/havok's package), stepped through Babylon's PhysicsEngine at 1/60 s.
 */
import fs from "node:fs";
import path from "node:path";
import { createRequire } from "node:module";
import { HavokPlugin, NullEngine, Scene, Vector3, type IPhysicsEnginePluginV2 } from "@babylonjs/core";
import HavokPhysics from "@babylonjs/havok";
import { ContinuumPlugin } from "../../plugin/index";

export type Kind = "havok" | "continuum";
export const KINDS: Kind[] = ["havok", "continuum"];

let havokModule: unknown;
async function havok(): Promise<unknown> {
  if (!havokModule) {
    const req = createRequire(import.meta.url);
    const dir = path.dirname(req.resolve("@babylonjs/havok/lib/esm/HavokPhysics.wasm"));
    const wasmBinary = fs.readFileSync(path.join(dir, "HavokPhysics.wasm"));
    havokModule = await HavokPhysics({ wasmBinary } as never);
  }
  return havokModule;
}

export interface TestScene {
  kind: Kind;
  engine: NullEngine;
  scene: Scene;
  plugin: IPhysicsEnginePluginV2;
  step(n?: number, dt?: number): void;
  dispose(): void;
}

export async function makeScene(kind: Kind, opts: { gravity?: Vector3; useDelta?: boolean } = {}): Promise<TestScene> {
  const engine = new NullEngine();
  // NullEngine reports no instanced arrays, which disables thin instances; switch them on.
  engine.getCaps().instancedArrays = true;
  const scene = new Scene(engine);
  const plugin: IPhysicsEnginePluginV2 =
    kind === "havok" ? new HavokPlugin(opts.useDelta ?? true, await havok()) : new ContinuumPlugin(opts.useDelta ?? true);
  scene.enablePhysics(opts.gravity ?? new Vector3(0, -9.81, 0), plugin);
  const pe = scene.getPhysicsEngine()!;
  return {
    kind,
    engine,
    scene,
    plugin,
    step(n = 1, dt = 1 / 60) {
      for (let i = 0; i < n; i++) (pe as unknown as { _step(dt: number): void })._step(dt);
    },
    dispose() {
      scene.dispose();
      engine.dispose();
    },
  };
}
