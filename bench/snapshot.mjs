// Snapshot and restore cost: `node --expose-gc bench/snapshot.mjs [scene] [warmup] [repeats]` (default pile-1000,
// 120 warm-up steps, 50 repeats), also run by `node bench/run.mjs --snapshot`.
//
// The scene is built through Babylon with ContinuumPlugin from dist/continuum.mjs (bench/scene-runner.mjs's
// builder, sleeping on), stepped `warmup` steps, then `repeats` times: plugin.snapshot() into a new buffer,
// plugin.snapshot(old) reusing one, plugin.restore(), and restore from bytes (PhysicsSnapshot.fromBytes of
// snapshot.toBytes()), each timed alone, as wall-clock and as this process's CPU time (process.cpuUsage: on a
// machine shared with other jobs, wall-clock includes waiting for a core). Prints a markdown table (medians)
// and a BENCH_SNAPSHOT json line. "JS heap per restore" is the growth of V8's
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
  timed("fromBytes", () => plugin.restore(C.PhysicsSnapshot.fromBytes(bytes)));
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
const result = { scene: sceneName, bodies, bytes: snap.byteLength, heapBytesPerRestore: Math.round(heapPerRestore), wallMs: {}, cpuMs: {} };
for (const [name, [wall, cpu]] of Object.entries(rows)) {
  result.wallMs[name] = median(wall);
  result.cpuMs[name] = median(cpu);
}
const f = (name) => `${result.cpuMs[name].toFixed(2)} (${result.wallMs[name].toFixed(2)})`;
console.log(`${sceneName}: ${bodies} bodies, snapshot ${snap.byteLength} bytes; median CPU ms (wall-clock ms) of ${repeats}:`);
console.log(`| snapshot | snapshot(reuse) | restore | restore from bytes | JS heap per restore |`);
console.log(`| ---: | ---: | ---: | ---: | ---: |`);
console.log(`| ${f("snapshot")} | ${f("reuse")} | ${f("restore")} | ${f("fromBytes")} | ${result.heapBytesPerRestore} B |`);
console.log(`BENCH_SNAPSHOT ${JSON.stringify(result)}`);
sim.dispose();
