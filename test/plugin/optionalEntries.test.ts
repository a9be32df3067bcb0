/**
 * The optional entries (issue 28): a plain plugin, without `import "continuum-physics/snapshot"`, does not
 * carry the snapshot code, and its snapshot methods say which import installs them instead of failing
 * obscurely. This file imports no entry on purpose (vitest runs each file in its own process).
 */
import { NullEngine, Scene, Vector3 } from "@babylonjs/core";
import "@babylonjs/core/Physics/joinedPhysicsEngineComponent";
import { describe, expect, it } from "vitest";
import { ContinuumPlugin, Sphere, World } from "../../plugin/index";

describe("without the snapshot entry", () => {
  it("plugin.snapshot() / restore() and world.snapshot() throw an Error naming the import", () => {
    const engine = new NullEngine();
    const scene = new Scene(engine);
    const plugin = new ContinuumPlugin();
    scene.enablePhysics(new Vector3(0, -9.81, 0), plugin);
    expect(() => plugin.snapshot()).toThrow(/snapshot: snapshots need `import "continuum-physics\/snapshot"`/);
    expect(() => plugin.restore(new ArrayBuffer(16))).toThrow(/restore: snapshots need `import "continuum-physics\/snapshot"`/);
    const world = new World({ gravity: { x: 0, y: -9.81, z: 0 } });
    world.createBody({ position: { x: 0, y: 1, z: 0 }, collidable: { shape: new Sphere(0.5) } });
    expect(() => world.snapshot()).toThrow(/snapshot: snapshots need `import "continuum-physics\/snapshot"`/);
    // The world still steps: only the snapshot methods are missing.
    world.step(1 / 60);
    expect(world.stateHash()).not.toBe(0);
    scene.dispose();
    engine.dispose();
  });
});
