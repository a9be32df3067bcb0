// Runs one benchmark row in this process and prints one line: `BENCH_RESULT <json>`.
//
//   node --expose-gc bench/scene-runner.mjs <engine> <scene> <sleep:on|off> [warmup=120] [steps=1000]
//
// engines: havok (Babylon NullEngine + HavokPlugin), continuum-plugin (same Babylon scene with
// ContinuumPlugin from dist/continuum.mjs), continuum-engine (raw World API from dist/continuum.mjs).
// The result has status "ok", "unavailable" (the engine could not be loaded: no build, missing export)
// or "failed" (it loaded but threw while building or stepping the scene); only "ok" carries timings.
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { performance, PerformanceObserver } from "node:perf_hooks";
import { SCENES, ENGINES } from "./scenes.mjs";

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.dirname(here);
const DIST = path.join(root, "dist", "continuum.mjs");
const DT = 1 / 60;

class Unavailable extends Error {}

function emit(result) {
  process.stdout.write(`BENCH_RESULT ${JSON.stringify(result)}\n`);
}

// ---------------------------------------------------------------------------------------------------------
// Loading engines

async function loadBabylon() {
  return await import("@babylonjs/core");
}

async function loadContinuum() {
  if (!fs.existsSync(DIST)) throw new Unavailable(`${path.relative(root, DIST)} not found (run \`npm run build\`)`);
  let mod;
  try {
    mod = await import(pathToFileURL(DIST).href);
  } catch (e) {
    throw new Unavailable(`importing dist/continuum.mjs failed: ${e?.message ?? e}`);
  }
  return mod;
}

function need(mod, names) {
  const missing = names.filter((n) => mod[n] === undefined);
  if (missing.length) throw new Unavailable(`dist/continuum.mjs does not export ${missing.join(", ")}`);
}

async function makeHavokPlugin(BABYLON) {
  const havokDir = path.join(root, "node_modules", "@babylonjs", "havok", "lib", "esm");
  const { default: HavokPhysics } = await import(pathToFileURL(path.join(havokDir, "HavokPhysics_es.js")).href);
  const wasmBinary = fs.readFileSync(path.join(havokDir, "HavokPhysics.wasm"));
  const hk = await HavokPhysics({ wasmBinary });
  return new BABYLON.HavokPlugin(false, hk);
}

// ---------------------------------------------------------------------------------------------------------
// Babylon scenes (havok, continuum-plugin)

function buildBabylonScene(BABYLON, plugin, bodies, sleeping) {
  const { Vector3, MeshBuilder, PhysicsAggregate, PhysicsShapeType, PhysicsActivationControl } = BABYLON;
  const engine = new BABYLON.NullEngine();
  const scene = new BABYLON.Scene(engine);
  scene.enablePhysics(new Vector3(0, -9.81, 0), plugin);
  const dynamic = [];
  let i = 0;
  for (const b of bodies) {
    const name = `b${i++}`;
    let mesh, type, parameters;
    switch (b.kind) {
      case "box":
        mesh = MeshBuilder.CreateBox(name, { width: 2 * b.hx, height: 2 * b.hy, depth: 2 * b.hz }, scene);
        type = PhysicsShapeType.BOX;
        parameters = { extents: new Vector3(2 * b.hx, 2 * b.hy, 2 * b.hz) };
        break;
      case "sphere":
        mesh = MeshBuilder.CreateSphere(name, { diameter: 2 * b.radius, segments: 8 }, scene);
        type = PhysicsShapeType.SPHERE;
        parameters = { radius: b.radius };
        break;
      case "capsule":
        mesh = MeshBuilder.CreateCapsule(name, { radius: b.radius, height: 2 * (b.halfLength + b.radius) }, scene);
        type = PhysicsShapeType.CAPSULE;
        parameters = { pointA: new Vector3(0, -b.halfLength, 0), pointB: new Vector3(0, b.halfLength, 0), radius: b.radius };
        break;
      case "cylinder":
        mesh = MeshBuilder.CreateCylinder(name, { diameter: 2 * b.radius, height: 2 * b.halfHeight, tessellation: 12 }, scene);
        type = PhysicsShapeType.CYLINDER;
        parameters = { pointA: new Vector3(0, -b.halfHeight, 0), pointB: new Vector3(0, b.halfHeight, 0), radius: b.radius };
        break;
      default:
        throw new Error(`unknown body kind ${b.kind}`);
    }
    mesh.position.set(b.position.x, b.position.y, b.position.z);
    if (b.orientation) {
      const q = b.orientation;
      mesh.rotationQuaternion = new BABYLON.Quaternion(q.x, q.y, q.z, q.w);
    }
    const agg = new PhysicsAggregate(
      mesh,
      type,
      { mass: b.dynamic ? 1 : 0, friction: b.friction, restitution: 0, ...parameters },
      scene,
    );
    if (b.dynamic) {
      dynamic.push(mesh);
      if (!sleeping) plugin.setActivationControl(agg.body, PhysicsActivationControl.ALWAYS_ACTIVE);
    }
  }
  const physics = scene.getPhysicsEngine();
  return {
    step: () => physics._step(DT),
    positions: () => dynamic.map((m) => m.position.y),
    dispose: () => {
      scene.dispose();
      engine.dispose();
    },
  };
}

// ---------------------------------------------------------------------------------------------------------
// Raw engine scene (continuum-engine)

function buildWorldScene(C, bodies, sleeping) {
  const { World, Box, Sphere, Capsule, Cylinder, MotionType } = C;
  const world = new World({ gravity: { x: 0, y: -9.81, z: 0 }, sleepingEnabled: sleeping });
  const handles = [];
  for (const b of bodies) {
    let shape;
    switch (b.kind) {
      case "box":
        shape = new Box(b.hx, b.hy, b.hz);
        break;
      case "sphere":
        shape = new Sphere(b.radius);
        break;
      case "capsule":
        shape = new Capsule(b.radius, b.halfLength);
        break;
      case "cylinder":
        shape = new Cylinder(b.radius, b.halfHeight);
        break;
      default:
        throw new Error(`unknown body kind ${b.kind}`);
    }
    const h = world.createBody({
      motionType: b.dynamic ? MotionType.Dynamic : MotionType.Static,
      position: { ...b.position },
      ...(b.orientation ? { orientation: { ...b.orientation } } : {}),
      collidable: { shape, material: { friction: b.friction } },
      // Mass 1 like the Babylon scenes' PhysicsAggregate({ mass: 1 }); inertia follows from the shape.
      ...(b.dynamic ? { massProperties: { mass: 1 } } : {}),
    });
    if (b.dynamic) handles.push(h);
  }
  return {
    step: () => world.step(DT),
    positions: () => {
      // Sanity readout only.
      if (typeof world.getPosition !== "function") return null;
      const p = { x: 0, y: 0, z: 0 };
      return handles.map((h) => world.getPosition(h, p).y);
    },
    dispose: () => world.dispose?.(),
  };
}

// ---------------------------------------------------------------------------------------------------------

function quantile(sorted, q) {
  if (sorted.length === 0) return NaN;
  const pos = (sorted.length - 1) * q;
  const lo = Math.floor(pos);
  const hi = Math.ceil(pos);
  return sorted[lo] + (sorted[hi] - sorted[lo]) * (pos - lo);
}

function summarizeY(ys) {
  if (!ys || ys.length === 0) return null;
  let min = Infinity,
    max = -Infinity,
    sum = 0,
    fallen = 0;
  for (const y of ys) {
    if (y < -1) fallen++;
    if (y < min) min = y;
    if (y > max) max = y;
    sum += y;
  }
  return { minY: min, maxY: max, meanY: sum / ys.length, fallen };
}

async function main() {
  const [engine, sceneName, sleepArg, warmupArg, stepsArg] = process.argv.slice(2);
  const warmup = Number(warmupArg ?? 120);
  const steps = Number(stepsArg ?? 1000);
  const base = { engine, scene: sceneName, sleep: sleepArg };
  if (!ENGINES.includes(engine) || !SCENES[sceneName] || !["on", "off"].includes(sleepArg)) {
    emit({ ...base, status: "failed", reason: `usage: scene-runner.mjs <${ENGINES.join("|")}> <${Object.keys(SCENES).join("|")}> <on|off>` });
    process.exitCode = 2;
    return;
  }
  if (typeof globalThis.gc !== "function") {
    emit({ ...base, status: "failed", reason: "run with node --expose-gc" });
    process.exitCode = 2;
    return;
  }
  const sleeping = sleepArg === "on";
  const bodies = SCENES[sceneName]();

  let sim;
  try {
    if (engine === "havok") {
      const BABYLON = await loadBabylon();
      sim = buildBabylonScene(BABYLON, await makeHavokPlugin(BABYLON), bodies, sleeping);
    } else if (engine === "continuum-plugin") {
      const C = await loadContinuum();
      need(C, ["ContinuumPlugin"]);
      const BABYLON = await loadBabylon();
      let plugin;
      try {
        plugin = new C.ContinuumPlugin();
      } catch (e) {
        throw new Unavailable(`new ContinuumPlugin() threw: ${e?.message ?? e}`);
      }
      sim = buildBabylonScene(BABYLON, plugin, bodies, sleeping);
    } else {
      const C = await loadContinuum();
      need(C, ["World", "Box", "Sphere", "Capsule", "Cylinder", "MotionType"]);
      sim = buildWorldScene(C, bodies, sleeping);
    }
  } catch (e) {
    if (e instanceof Unavailable) emit({ ...base, status: "unavailable", reason: e.message });
    else emit({ ...base, status: "failed", reason: `scene setup threw: ${e?.stack ?? e}` });
    return;
  }

  try {
    for (let i = 0; i < warmup; i++) sim.step();

    globalThis.gc();
    globalThis.gc();
    const gcEntries = [];
    const obs = new PerformanceObserver((list) => gcEntries.push(...list.getEntries()));
    obs.observe({ entryTypes: ["gc"] });
    const heapBefore = process.memoryUsage().heapUsed;
    const times = new Float64Array(steps);
    const t0 = performance.now();
    for (let i = 0; i < steps; i++) {
      const s = performance.now();
      sim.step();
      times[i] = performance.now() - s;
    }
    const t1 = performance.now();
    const heapAfter = process.memoryUsage().heapUsed;
    // Let the observer deliver the GC entries of the measured loop before anything else runs.
    await new Promise((r) => setTimeout(r, 100));
    gcEntries.push(...obs.takeRecords());
    obs.disconnect();
    globalThis.gc();
    const heapRetained = process.memoryUsage().heapUsed;

    const inWindow = gcEntries.filter((e) => e.startTime >= t0 && e.startTime <= t1);
    const sorted = Array.from(times).sort((a, b) => a - b);
    let sum = 0;
    for (const t of times) sum += t;
    emit({
      ...base,
      status: "ok",
      bodies: bodies.length,
      warmup,
      steps,
      medianMs: quantile(sorted, 0.5),
      p95Ms: quantile(sorted, 0.95),
      meanMs: sum / steps,
      maxMs: sorted[sorted.length - 1],
      totalMs: t1 - t0,
      gcCount: inWindow.length,
      gcMs: inWindow.reduce((a, e) => a + e.duration, 0),
      heapGrowthBytes: heapAfter - heapBefore,
      heapRetainedBytes: heapRetained - heapBefore,
      final: summarizeY(sim.positions()),
    });
  } catch (e) {
    emit({ ...base, status: "failed", reason: `stepping threw: ${e?.stack ?? e}` });
  }
  try {
    sim.dispose();
  } catch {
    /* ignore */
  }
}

await main();
