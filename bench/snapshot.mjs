// Snapshot and restore cost: `node --expose-gc bench/snapshot.mjs [scene] [warmup] [repeats]` (default pile-1000,
// 120 warm-up steps, 50 repeats), also run by `node bench/run.mjs --snapshot`.
//
// The scene is built through Babylon with ContinuumPlugin from dist/continuum.mjs (bench/scene-runner.mjs's
// builder, sleeping on), stepped `warmup` steps, then `repeats` times: plugin.snapshot(), plugin.restore(),
// and restore from bytes (PhysicsSnapshot.fromBytes of snapshot.toBytes()), each timed alone. Prints a markdown
// table (median and worst ms, bytes) and a BENCH_SNAPSHOT json line. "JS heap per restore" is the growth of V8's
// heap over all restores without a GC between them, divided by their number: what restoring allocates besides
// the snapshot's own ArrayBuffer (which lives outside the JS heap).
import { performance } from "node:perf_hooks";
import { SCENES } from "./scenes.mjs";
import { buildBabylonScene, loadContinuum } from "./scene-runner.mjs";

const [sceneName = "pile-1000", warmupArg = "120", repeatsArg = "50"] = process.argv.slice(2);
const warmup = Number(warmupArg),
  repeats = Number(repeatsArg);
if (!SCENES[sceneName]) throw new Error(`unknown scene ${sceneName}`);
if (typeof globalThis.gc !== "function") throw new Error("run with node --expose-gc");

const C = await loadContinuum();
const BABYLON = await import("@babylonjs/core");
const plugin = new C.ContinuumPlugin();
const spec = SCENES[sceneName].build();
const sim = buildBabylonScene(BABYLON, plugin, spec, true, { engine: "continuum-plugin", C });
for (let i = 0; i < warmup; i++) sim.step();

const median = (a) => [...a].sort((x, y) => x - y)[a.length >> 1];
const worst = (a) => Math.max(...a);
const tSnap = [],
  tRestore = [],
  tBytes = [];
let snap = plugin.snapshot();
const hash = plugin.stateHash();
for (let r = 0; r < repeats; r++) {
  let t0 = performance.now();
  snap = plugin.snapshot();
  tSnap.push(performance.now() - t0);
  t0 = performance.now();
  plugin.restore(snap);
  tRestore.push(performance.now() - t0);
  const bytes = snap.toBytes();
  t0 = performance.now();
  plugin.restore(C.PhysicsSnapshot.fromBytes(bytes));
  tBytes.push(performance.now() - t0);
}
if (plugin.stateHash() !== hash) throw new Error("restore changed the state hash");

// JS heap growth over many restores of one snapshot (no GC in between: young-generation growth is what
// they allocated).
globalThis.gc();
const n = 200;
const heap0 = process.memoryUsage().heapUsed;
for (let r = 0; r < n; r++) plugin.restore(snap);
const heapPerRestore = (process.memoryUsage().heapUsed - heap0) / n;

const bodies = plugin.world.bodyCount;
const result = {
  scene: sceneName,
  bodies,
  bytes: snap.byteLength,
  snapshotMs: { median: median(tSnap), worst: worst(tSnap) },
  restoreMs: { median: median(tRestore), worst: worst(tRestore) },
  restoreFromBytesMs: { median: median(tBytes), worst: worst(tBytes) },
  heapBytesPerRestore: Math.round(heapPerRestore),
};
const f = (x) => x.toFixed(2);
console.log(`| scene | bodies | bytes | snapshot ms (median / worst) | restore ms | restore from bytes ms | JS heap per restore |`);
console.log(`| --- | ---: | ---: | ---: | ---: | ---: | ---: |`);
console.log(
  `| ${sceneName} | ${bodies} | ${snap.byteLength} | ${f(result.snapshotMs.median)} / ${f(result.snapshotMs.worst)} | ${f(result.restoreMs.median)} / ${f(result.restoreMs.worst)} | ${f(result.restoreFromBytesMs.median)} / ${f(result.restoreFromBytesMs.worst)} | ${result.heapBytesPerRestore} B |`,
);
console.log(`BENCH_SNAPSHOT ${JSON.stringify(result)}`);
sim.dispose();
