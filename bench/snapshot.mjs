// Snapshot and restore cost: `node --expose-gc bench/snapshot.mjs [scene] [warmup] [repeats]` (default pile-1000,
// 120 warm-up steps, 50 repeats), also run by `node bench/run.mjs --snapshot`.
//
// The scene is built through Babylon with ContinuumPlugin from dist/continuum.mjs (bench/scene-runner.mjs's
// builder, sleeping on), stepped `warmup` steps, then `repeats` times: plugin.snapshot() into a new buffer,
// plugin.snapshot(old) reusing one, plugin.restore(), and restore from bytes (PhysicsSnapshot.fromBytes of
// snapshot.toBytes()), each timed alone, as wall-clock and as this process's CPU time (process.cpuUsage: on a
// machine shared with other jobs, wall-clock includes waiting for a core). Prints a markdown table (medians)
// and a BENCH_SNAPSHOT json line. "JS heap per ..." is what V8's sampling heap profiler (node:inspector,
// 64-byte sampling interval) sees allocated per call over 200 calls of restore and of snapshot(reuse): objects
// and boxed numbers, not the snapshot's own ArrayBuffer memory.
import inspector from "node:inspector/promises";
import { performance } from "node:perf_hooks";
import { SCENES } from "./scenes.mjs";
import { buildBabylonScene, loadContinuum } from "./scene-runner.mjs";

const [sceneName = "pile-1000", warmupArg = "120", repeatsArg = "50"] = process.argv.slice(2);
const warmup = Number(warmupArg),
  repeats = Number(repeatsArg);
if (!SCENES[sceneName]) throw new Error(`unknown scene ${sceneName}`);
if (typeof globalThis.gc !== "function") throw new Error("run with node --expose-gc");

const C = await loadContinuum();
// Snapshots are their own entry (continuum-physics/snapshot): importing it installs plugin.snapshot() / restore().
const { PhysicsSnapshot } = await import("../dist/snapshot.mjs");
const BABYLON = await import("@babylonjs/core");
const plugin = new C.ContinuumPlugin();
const spec = SCENES[sceneName].build();
const sim = buildBabylonScene(BABYLON, plugin, spec, true, { engine: "continuum-plugin", C });
for (let i = 0; i < warmup; i++) sim.step();

const median = (a) => [...a].sort((x, y) => x - y)[a.length >> 1];
const rows = { snapshot: [[], []], reuse: [[], []], restore: [[], []], fromBytes: [[], []] };
/** Times f once: wall-clock ms and CPU ms into rows[name]. */
function timed(name, f) {
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  const out = f();
  rows[name][0].push(performance.now() - t0);
  const c = process.cpuUsage(c0);
  rows[name][1].push((c.user + c.system) / 1000);
  return out;
}
let snap = plugin.snapshot();
const kept = plugin.snapshot();
const hash = plugin.stateHash();
for (let r = 0; r < repeats; r++) {
  snap = timed("snapshot", () => plugin.snapshot());
  timed("reuse", () => plugin.snapshot(kept));
  timed("restore", () => plugin.restore(snap));
  const bytes = snap.toBytes();
  timed("fromBytes", () => plugin.restore(PhysicsSnapshot.fromBytes(bytes)));
}
if (plugin.stateHash() !== hash) throw new Error("restore changed the state hash");

/** Bytes per call allocated on the JS heap by f, from V8's sampling heap profiler. */
async function heapPerCall(f, n = 200) {
  const session = new inspector.Session();
  session.connect();
  await session.post("HeapProfiler.startSampling", { samplingInterval: 64 });
  for (let r = 0; r < n; r++) f();
  const { profile } = await session.post("HeapProfiler.stopSampling");
  session.disconnect();
  let total = 0;
  (function walk(node) {
    total += node.selfSize;
    node.children.forEach(walk);
  })(profile.head);
  return total / n;
}
const heapPerRestore = await heapPerCall(() => plugin.restore(snap));
const heapPerSnapshot = await heapPerCall(() => plugin.snapshot(kept));

const bodies = plugin.world.bodyCount;
const result = {
  scene: sceneName,
  bodies,
  bytes: snap.byteLength,
  heapBytesPerRestore: Math.round(heapPerRestore),
  heapBytesPerSnapshotReuse: Math.round(heapPerSnapshot),
  wallMs: {},
  cpuMs: {},
};
for (const [name, [wall, cpu]] of Object.entries(rows)) {
  result.wallMs[name] = median(wall);
  result.cpuMs[name] = median(cpu);
}
const f = (name) => `${result.cpuMs[name].toFixed(2)} (${result.wallMs[name].toFixed(2)})`;
console.log(`${sceneName}: ${bodies} bodies, snapshot ${snap.byteLength} bytes; median CPU ms (wall-clock ms) of ${repeats}:`);
console.log(`| snapshot | snapshot(reuse) | restore | restore from bytes | JS heap per restore | JS heap per snapshot(reuse) |`);
console.log(`| ---: | ---: | ---: | ---: | ---: | ---: |`);
console.log(`| ${f("snapshot")} | ${f("reuse")} | ${f("restore")} | ${f("fromBytes")} | ${result.heapBytesPerRestore} B | ${result.heapBytesPerSnapshotReuse} B |`);
console.log(`BENCH_SNAPSHOT ${JSON.stringify(result)}`);
sim.dispose();
