// Soak: node bench/soak.mjs [minutes]   (default 2, at most 10)
//
// A Babylon scene (NullEngine) on the built plugin (dist/continuum.mjs; `npm run build` first) that creates and
// destroys bodies continuously: every step a few bodies of every kind (box, sphere, capsule, cylinder, convex
// hull, mesh, container) drop onto a ground, some pairs are joined by constraints, and bodies older than a few
// seconds (or with a random chance, from inside the collision observer) are disposed with their shapes. Every
// 10 s it prints a row: live bodies, bodies created / disposed so far, ms/step (mean and p99 of the window) and
// the heap after a forced GC. At the end it prints a summary comparing the first and last windows.
//
// Runs itself again with --expose-gc when gc() is not available.
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";

if (typeof globalThis.gc !== "function") {
  const r = spawnSync(process.execPath, ["--expose-gc", fileURLToPath(import.meta.url), ...process.argv.slice(2)], { stdio: "inherit" });
  process.exit(r.status ?? 1);
}

const minutes = Math.min(10, Math.max(0.05, Number(process.argv[2] ?? 2) || 2));
const { NullEngine, Scene, Vector3, Quaternion, TransformNode, MeshBuilder, PhysicsBody, PhysicsShape, BallAndSocketConstraint, HingeConstraint, Logger } =
  await import("@babylonjs/core");
const { ContinuumPlugin } = await import("../dist/continuum.mjs");

Logger.LogLevels = Logger.NoneLogLevel;
const engine = new NullEngine();
const scene = new Scene(engine);
const plugin = new ContinuumPlugin(true);
scene.enablePhysics(new Vector3(0, -9.81, 0), plugin);
const groundNode = new TransformNode("ground", scene);
groundNode.position.y = -0.5;
const ground = new PhysicsBody(groundNode, 0, false, scene);
ground.shape = new PhysicsShape({ type: 3, parameters: { extents: new Vector3(40, 1, 40) } }, scene);
const hullMesh = MeshBuilder.CreateSphere("hull", { diameter: 0.6, segments: 3 }, scene);
const triMesh = MeshBuilder.CreateBox("tri", { size: 0.5 }, scene);
hullMesh.setEnabled(false);
triMesh.setEnabled(false);
const sharedSphere = new PhysicsShape({ type: 0, parameters: { radius: 0.25 } }, scene);

// Deterministic random numbers (mulberry32).
let seed = 12345;
const rnd = () => {
  let t = (seed = (seed + 0x6d2b79f5) >>> 0);
  t = Math.imul(t ^ (t >>> 15), t | 1);
  t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
};

/** Live things: { body, node, shapes, born, constraint } */
const live = [];
let created = 0,
  disposed = 0,
  stepNo = 0;

function makeShape(k) {
  switch (k) {
    case 0:
      return sharedSphere;
    case 1:
      return new PhysicsShape({ type: 3, parameters: { extents: new Vector3(0.3 + rnd() * 0.4, 0.3 + rnd() * 0.4, 0.3 + rnd() * 0.4) } }, scene);
    case 2:
      return new PhysicsShape({ type: 1, parameters: { radius: 0.15, pointA: new Vector3(0, -0.2, 0), pointB: new Vector3(0, 0.2, 0) } }, scene);
    case 3:
      return new PhysicsShape({ type: 2, parameters: { radius: 0.2, pointA: new Vector3(0, -0.15, 0), pointB: new Vector3(0, 0.15, 0) } }, scene);
    case 4:
      return new PhysicsShape({ type: 4, parameters: { mesh: hullMesh } }, scene);
    case 5: {
      const c = new PhysicsShape({ type: 5, parameters: {} }, scene);
      c.addChild(sharedSphere, new Vector3(0.2, 0, 0));
      c.addChild(new PhysicsShape({ type: 3, parameters: { extents: new Vector3(0.3, 0.3, 0.3) } }, scene), new Vector3(-0.2, 0, 0));
      return c;
    }
    default:
      return new PhysicsShape({ type: 6, parameters: { mesh: triMesh } }, scene);
  }
}

function spawn() {
  const node = new TransformNode("b", scene);
  node.position.set((rnd() - 0.5) * 16, 3 + rnd() * 4, (rnd() - 0.5) * 16);
  node.rotationQuaternion = Quaternion.RotationYawPitchRoll(rnd() * 6, rnd() * 6, rnd() * 6);
  const k = Math.floor(rnd() * 7);
  // MESH bodies are static or animated (as in games); the rest dynamic.
  const body = new PhysicsBody(node, k === 6 ? 0 : 2, false, scene);
  const shape = makeShape(k);
  body.shape = shape;
  if (rnd() < 0.2) body.setCollisionCallbackEnabled(true);
  const thing = { body, node, shape, born: stepNo, constraint: null };
  // Join some new bodies to the previous one.
  const prev = live[live.length - 1];
  if (prev && k !== 6 && rnd() < 0.3 && prev.body.getMotionType() === 2) {
    const c =
      rnd() < 0.5
        ? new BallAndSocketConstraint(new Vector3(0, 0.4, 0), new Vector3(0, -0.4, 0), new Vector3(1, 0, 0), new Vector3(1, 0, 0), scene)
        : new HingeConstraint(new Vector3(0.4, 0, 0), new Vector3(-0.4, 0, 0), new Vector3(0, 1, 0), new Vector3(0, 1, 0), scene);
    prev.body.addConstraint(body, c);
    thing.constraint = c;
  }
  live.push(thing);
  created++;
}

function kill(i) {
  const t = live[i];
  live[i] = live[live.length - 1];
  live.pop();
  if (t.constraint && rnd() < 0.5) t.constraint.dispose();
  t.body.dispose();
  if (t.shape !== sharedSphere) t.shape.dispose();
  t.node.dispose();
  disposed++;
}

// Dispose from inside the collision observer now and then (re-entrancy under load).
plugin.onCollisionObservable.add((ev) => {
  if (rnd() < 0.002) {
    const i = live.findIndex((t) => t.body === ev.collider);
    if (i >= 0) kill(i);
  }
});

const DT = 1 / 60;
const TARGET = 400; // live bodies around which the scene hovers
const LIFETIME = 300; // steps
const stepOnce = () => scene._advancePhysicsEngineStep(DT * 1000);

const rows = [];
const header = "| t (s) | steps | live bodies | created | disposed | ms/step mean | ms/step p99 | heap MB (after GC) |";
console.log(`Continuum soak: ${minutes} min, ~${TARGET} live bodies, dist/continuum.mjs, node ${process.version}`);
console.log(header);
console.log("|---:|---:|---:|---:|---:|---:|---:|---:|");

const t0 = performance.now();
const end = t0 + minutes * 60_000;
let windowStart = t0;
let times = [];
// Objects reached through a WeakRef (Babylon uses them) live until the current job ends, so the loop yields to
// the event loop every step, as a render loop does, and before measuring the heap.
const tick = () => new Promise((r) => setImmediate(r));
const heap = async () => {
  await tick();
  globalThis.gc();
  return process.memoryUsage().heapUsed / 1e6;
};
const heap0 = await heap();
while (performance.now() < end) {
  // Churn: a few new bodies every step, old ones go.
  const n = live.length < TARGET ? 4 : 2;
  for (let i = 0; i < n; i++) spawn();
  for (let i = live.length - 1; i >= 0; i--) {
    const t = live[i];
    if (stepNo - t.born > LIFETIME || t.node.position.y < -10 || rnd() < 0.002) kill(i);
  }
  const s0 = performance.now();
  stepOnce();
  times.push(performance.now() - s0);
  stepNo++;
  await tick();
  const now = performance.now();
  if (now - windowStart >= 10_000 || now >= end) {
    times.sort((a, b) => a - b);
    const mean = times.reduce((a, b) => a + b, 0) / times.length;
    const p99 = times[Math.min(times.length - 1, Math.floor(times.length * 0.99))];
    const row = { t: (now - t0) / 1000, steps: stepNo, live: live.length, created, disposed, mean, p99, heap: await heap(), bodyCount: plugin.world.bodyCount };
    rows.push(row);
    console.log(
      `| ${row.t.toFixed(0)} | ${row.steps} | ${row.live} | ${row.created} | ${row.disposed} | ${row.mean.toFixed(2)} | ${row.p99.toFixed(2)} | ${row.heap.toFixed(1)} |`,
    );
    if (row.bodyCount !== row.live + 1) console.log(`!! world.bodyCount ${row.bodyCount} != live bodies + ground ${row.live + 1}`);
    times = [];
    windowStart = performance.now();
  }
}

const first = rows[0],
  last = rows[rows.length - 1];
const heaps = rows.map((r) => r.heap);
console.log("");
console.log(`Summary: ${stepNo} steps, ${created} bodies created, ${disposed} disposed, ${live.length} live at the end.`);
console.log(
  `ms/step mean: first window ${first.mean.toFixed(2)}, last ${last.mean.toFixed(2)}; worst window p99 ${Math.max(...rows.map((r) => r.p99)).toFixed(2)}.`,
);
console.log(
  `Heap after GC: start ${heap0.toFixed(1)} MB, first window ${first.heap.toFixed(1)} MB, last ${last.heap.toFixed(1)} MB, min ${Math.min(...heaps).toFixed(1)}, max ${Math.max(...heaps).toFixed(1)}.`,
);
console.log(`Internal arrays: world.bodies.capacity ${plugin.world.bodies.capacity}, joints alive ${plugin.world.joints.count}.`);
scene.dispose();
engine.dispose();
