/**
 * Leaks: 10,000 bodies with shapes (shared and per-body, every primitive, hulls, meshes, containers) and
 * constraints created and disposed through the plugin in cycles, stepping in between. After a forced GC the heap
 * is back within 5 % of the baseline, nothing is left in the world, the plugin or the scene, and the engine's
 * internal arrays are reused: the body store's, the joint solver's and the broad-phase trees' capacities stop
 * growing after the first cycle.
 */
import { describe, expect, it } from "vitest";
import {
  BallAndSocketConstraint,
  HingeConstraint,
  Logger,
  MeshBuilder,
  NullEngine,
  Physics6DoFConstraint,
  PhysicsBody,
  type PhysicsConstraint,
  PhysicsShape,
  Scene,
  TransformNode,
  Vector3,
} from "@babylonjs/core";
import { ContinuumPlugin } from "../../plugin/index";

const TOTAL = 10_000;
const PER_CYCLE = 500;

function gc(): void {
  const g = (globalThis as { gc?: () => void }).gc;
  if (!g) throw new Error("globalThis.gc is not exposed (vitest.config.ts execArgv --expose-gc)");
  for (let i = 0; i < 4; i++) g();
}

/**
 * Heap used after a full GC. Yields to the event loop first: objects reached through a WeakRef (Babylon uses
 * them) stay alive until the current job ends, so a synchronous measurement would count them.
 */
async function heap(): Promise<number> {
  await new Promise((r) => setTimeout(r, 0));
  gc();
  return process.memoryUsage().heapUsed;
}

interface Capacities {
  bodies: number;
  jointSlots: number;
  jointOrder: number;
  movingTree: number;
  staticTree: number;
}

describe("leaks", () => {
  it(`creating and disposing ${TOTAL} bodies with shapes and constraints returns the heap to baseline`, async () => {
    Logger.LogLevels = Logger.NoneLogLevel;
    const engine = new NullEngine();
    const scene = new Scene(engine);
    const plugin = new ContinuumPlugin(true);
    scene.enablePhysics(new Vector3(0, -9.81, 0), plugin);
    const step = () => (scene as unknown as { _advancePhysicsEngineStep(ms: number): void })._advancePhysicsEngineStep(1000 / 60);
    const groundNode = new TransformNode("ground", scene);
    groundNode.position.y = -0.5;
    const ground = new PhysicsBody(groundNode, 0, false, scene);
    ground.shape = new PhysicsShape({ type: 3, parameters: { extents: new Vector3(100, 1, 100) } }, scene);
    const hullMesh = MeshBuilder.CreateSphere("hull", { diameter: 0.5, segments: 3 }, scene);
    const triMesh = MeshBuilder.CreateBox("tri", { size: 0.5 }, scene);
    hullMesh.setEnabled(false);
    triMesh.setEnabled(false);
    const shared = new PhysicsShape({ type: 0, parameters: { radius: 0.25 } }, scene);
    const world = () => plugin.world;
    const internals = (): Capacities => {
      const w = world();
      const j = w.joints as unknown as { flags: Uint8Array; order: Int32Array };
      const cap = (t: unknown) => (t as { capacity: number }).capacity;
      return { bodies: w.bodies.capacity, jointSlots: j.flags.length, jointOrder: j.order.length, movingTree: cap(w.movingTree), staticTree: cap(w.staticTree) };
    };

    let made = 0;
    const cycle = (n: number) => {
      const nodes: TransformNode[] = [];
      const bodies: PhysicsBody[] = [];
      const shapes: PhysicsShape[] = [];
      const constraints: PhysicsConstraint[] = [];
      for (let i = 0; i < n; i++) {
        const node = new TransformNode("b", scene);
        node.position.set((i % 25) - 12, 0.5 + Math.floor(i / 25) * 0.6, (i % 7) - 3);
        nodes.push(node);
        const body = new PhysicsBody(node, 2, false, scene);
        bodies.push(body);
        const k = i % 8;
        let shape: PhysicsShape;
        if (k === 0) shape = shared;
        else if (k === 1) shape = new PhysicsShape({ type: 3, parameters: { extents: new Vector3(0.4, 0.4, 0.4) } }, scene);
        else if (k === 2) shape = new PhysicsShape({ type: 1, parameters: { radius: 0.15, pointA: new Vector3(0, -0.1, 0), pointB: new Vector3(0, 0.1, 0) } }, scene);
        else if (k === 3) shape = new PhysicsShape({ type: 2, parameters: { radius: 0.2, pointA: new Vector3(0, -0.1, 0), pointB: new Vector3(0, 0.1, 0) } }, scene);
        else if (k === 4) shape = new PhysicsShape({ type: 4, parameters: { mesh: hullMesh } }, scene);
        else if (k === 5) shape = new PhysicsShape({ type: 6, parameters: { mesh: triMesh } }, scene);
        else {
          shape = new PhysicsShape({ type: 5, parameters: {} }, scene);
          const child = new PhysicsShape({ type: 0, parameters: { radius: 0.15 } }, scene);
          shape.addChild(child, new Vector3(0.1, 0, 0));
          shape.addChild(shared, new Vector3(-0.1, 0, 0));
          shapes.push(child);
        }
        if (shape !== shared) shapes.push(shape);
        body.shape = shape;
        if (i % 5 === 0) body.setCollisionCallbackEnabled(true);
        if (i > 0 && i % 3 !== 0) {
          const c =
            i % 3 === 1
              ? new BallAndSocketConstraint(new Vector3(0, 0.3, 0), new Vector3(0, -0.3, 0), new Vector3(1, 0, 0), new Vector3(1, 0, 0), scene)
              : i % 2 === 0
                ? new HingeConstraint(new Vector3(0.3, 0, 0), new Vector3(-0.3, 0, 0), new Vector3(0, 1, 0), new Vector3(0, 1, 0), scene)
                : new Physics6DoFConstraint({}, [{ axis: 0, minLimit: -0.1, maxLimit: 0.1 }], scene);
          bodies[i - 1].addConstraint(body, c);
          constraints.push(c);
        }
      }
      made += n;
      for (let s = 0; s < 3; s++) step();
      // Dispose in a mixed order: some constraints first, then bodies (taking their joints), shapes, nodes.
      for (let i = 0; i < constraints.length; i += 2) constraints[i].dispose();
      for (let i = bodies.length - 1; i >= 0; i--) bodies[i].dispose();
      for (let i = 1; i < constraints.length; i += 2) constraints[i].dispose();
      for (const s of shapes) s.dispose();
      for (const n of nodes) n.dispose();
      step();
    };

    // Warm-up (JIT, Babylon caches, the arrays' first growth), then the baseline.
    cycle(PER_CYCLE);
    const capFirst = internals();
    const base = await heap();
    const caps: Capacities[] = [];
    while (made < TOTAL + PER_CYCLE) {
      cycle(PER_CYCLE);
      caps.push(internals());
      await new Promise((r) => setTimeout(r, 0));
    }
    const after = await heap();
    const growth = (after - base) / base;
    console.log(
      `leaks: ${made - PER_CYCLE} bodies after warm-up; heap ${(base / 1e6).toFixed(1)} MB -> ${(after / 1e6).toFixed(1)} MB (${(growth * 100).toFixed(2)} %); capacities ${JSON.stringify(capFirst)} -> ${JSON.stringify(caps[caps.length - 1])}`,
    );

    // Nothing left behind.
    const w = world();
    expect(w.bodyCount).toBe(1);
    expect(w.joints.count).toBe(0);
    expect((plugin as unknown as { _records: Map<number, unknown> })._records.size).toBe(1);
    expect((scene.getPhysicsEngine() as unknown as { getBodies(): unknown[] }).getBodies().length).toBe(1);
    expect(scene.transformNodes.length).toBe(1);
    // Arrays are reused: no growth after the first cycle.
    for (const c of caps) expect(c).toEqual(capFirst);
    // The heap is back within 5 % of the baseline.
    expect(Math.abs(growth)).toBeLessThan(0.05);
    scene.dispose();
    engine.dispose();
  });
});
