/**
 * `new ContinuumPlugin(useDelta, { threads })` through Babylon (issue 27): a pile stepped by the physics engine on
 * 2 threads ends where the 1-thread plugin's does, bit for bit, and `plugin.threads` reports the threads in use
 * (1 until the workers are ready, 1 again after dispose).
 */
import { MeshBuilder, NullEngine, PhysicsAggregate, PhysicsShapeType, Scene, Vector3 } from "@babylonjs/core";
import { describe, expect, it } from "vitest";
import { ContinuumPlugin } from "../../plugin/index";

const workerUrl = new URL("../../dist/continuum.worker.mjs", import.meta.url);

/** 150 boxes and spheres (3 blocks of the parallel stage) dropped on a ground, stepped 120 times at 1/60 s. */
async function run(threads: number): Promise<{ positions: number[]; plugin: ContinuumPlugin; readyThreads: number; workerBlocks: number }> {
  const engine = new NullEngine();
  const scene = new Scene(engine);
  const plugin = new ContinuumPlugin(false, { threads, workerUrl });
  scene.enablePhysics(new Vector3(0, -9.81, 0), plugin);
  const ground = MeshBuilder.CreateBox("ground", { width: 30, height: 1, depth: 30 }, scene);
  ground.position.y = -0.5;
  new PhysicsAggregate(ground, PhysicsShapeType.BOX, { mass: 0 }, scene);
  const meshes = [];
  for (let i = 0; i < 150; i++) {
    const box = i % 2 === 0;
    const m = box ? MeshBuilder.CreateBox(`b${i}`, { size: 0.5 }, scene) : MeshBuilder.CreateSphere(`s${i}`, { diameter: 0.5 }, scene);
    m.position.set((i % 5) - 2, 0.5 + Math.floor(i / 25) * 0.6, (Math.floor(i / 5) % 5) - 2);
    m.rotation.set(0.1 * i, 0.05 * i, 0);
    new PhysicsAggregate(m, box ? PhysicsShapeType.BOX : PhysicsShapeType.SPHERE, { mass: 1, restitution: 0.2 }, scene);
    meshes.push(m);
  }
  const until = Date.now() + 20_000;
  while (plugin.threads !== threads && Date.now() < until) await new Promise((r) => setTimeout(r, 5));
  const readyThreads = plugin.threads;
  for (let s = 0; s < 120; s++) scene.getPhysicsEngine()!._step(1 / 60);
  const positions = meshes.flatMap((m) => [m.position.x, m.position.y, m.position.z]);
  const result = { positions, plugin, readyThreads, workerBlocks: plugin.world.workerPool?.workerBlocks ?? 0 };
  engine.dispose();
  return result;
}

describe("ContinuumPlugin threads option", () => {
  it("2 threads give the 1-thread result bit for bit, and plugin.threads reports 2 while they run", async () => {
    const one = await run(1);
    const two = await run(2);
    expect(one.readyThreads).toBe(1);
    expect(two.readyThreads, two.plugin.world.threadsMessage ?? "").toBe(2);
    // The pile fell (a box starting at y >= 0.5 ends below its start): the comparison is over moving bodies.
    expect(Math.min(...one.positions.filter((_, k) => k % 3 === 1))).toBeLessThan(0.3);
    for (let k = 0; k < one.positions.length; k++) {
      if (!Object.is(one.positions[k], two.positions[k])) expect.fail(`coordinate ${k}: ${two.positions[k]} on 2 threads, ${one.positions[k]} on 1`);
    }
    // 151 active bodies: 3 blocks a prediction; the worker ran some of the 360.
    expect(two.workerBlocks).toBeGreaterThan(0);
    // engine.dispose() disposed the plugin: its workers are stopped.
    expect(two.plugin.threads).toBe(1);
  }, 90_000);
});
