// Same-process comparison of ContinuumPlugin with HavokPlugin on one bench scene, for steps too short to time one
// by one (one-box: a few microseconds):
//
//   node --expose-gc bench/plugin-vs-havok.mjs <scene> [on|off] [warmup] [blocks] [--batch K] [--cpu] [--bundle FILE]
//
// Both Babylon scenes (NullEngine) are built in this process, sleeping as given (default on, as shipped), and
// warmed up `warmup` steps each (default the scene's own, else 120). Then `blocks` (default 400) blocks of K steps
// (default 50) are timed, Havok's block and Continuum's alternating, the order swapped every block, so load on a
// shared machine slows both alike. A block is timed as a whole (the wall clock, or with --cpu the process's CPU
// time, whose resolution is a microsecond: a block of 50 steps is long enough for it). Prints the median ms/step of
// each and the median over blocks of the per-block ratio continuum/havok.
import fs from "node:fs";
import path from "node:path";
import { pathToFileURL, fileURLToPath } from "node:url";
import { performance } from "node:perf_hooks";
import { SCENES } from "./scenes.mjs";
import { buildBabylonScene } from "./scene-runner.mjs";

const here = path.dirname(fileURLToPath(import.meta.url));
const argv = process.argv.slice(2);
const flag = (name) => {
  const i = argv.indexOf(name);
  if (i < 0) return undefined;
  const v = argv[i + 1];
  argv.splice(i, 2);
  return v;
};
const cpuClock = argv.includes("--cpu");
if (cpuClock) argv.splice(argv.indexOf("--cpu"), 1);
const batch = Number(flag("--batch") ?? 50);
const bundle = flag("--bundle") ?? path.join(here, "..", "dist", "continuum.mjs");
const [sceneName, sleepArg = "on", warmupArg, blocksArg] = argv;
const def = SCENES[sceneName];
if (!def || def.kind === "raycast" || !["on", "off"].includes(sleepArg)) {
  console.error("usage: node --expose-gc bench/plugin-vs-havok.mjs <scene> [on|off] [warmup] [blocks] [--batch K] [--cpu] [--bundle FILE]");
  process.exit(2);
}
const warmup = Number(warmupArg ?? def.warmup ?? 120);
const blocks = Number(blocksArg ?? 400);
const now = cpuClock
  ? () => {
      const c = process.cpuUsage();
      return (c.user + c.system) / 1000;
    }
  : () => performance.now();

const BABYLON = await import("@babylonjs/core");
const havokDir = path.join(here, "..", "node_modules", "@babylonjs", "havok", "lib", "esm");
const { default: HavokPhysics } = await import(pathToFileURL(path.join(havokDir, "HavokPhysics_es.js")).href);
const hk = await HavokPhysics({ wasmBinary: fs.readFileSync(path.join(havokDir, "HavokPhysics.wasm")) });
const C = await import(pathToFileURL(path.resolve(bundle)).href);
const sleeping = sleepArg === "on";
const simH = buildBabylonScene(BABYLON, new BABYLON.HavokPlugin(false, hk), def.build(), sleeping, { engine: "havok" });
const simC = buildBabylonScene(BABYLON, new C.ContinuumPlugin(), def.build(), sleeping, { engine: "continuum-plugin", C });
for (let i = 0; i < warmup; i++) {
  simH.step();
  simC.step();
}
globalThis.gc?.();
const run = (sim) => {
  const t = now();
  for (let k = 0; k < batch; k++) sim.step();
  return (now() - t) / batch;
};
const th = new Float64Array(blocks),
  tc = new Float64Array(blocks),
  ratio = new Float64Array(blocks);
for (let b = 0; b < blocks; b++) {
  if (b & 1) {
    tc[b] = run(simC);
    th[b] = run(simH);
  } else {
    th[b] = run(simH);
    tc[b] = run(simC);
  }
  ratio[b] = tc[b] / th[b];
}
const median = (x) => Float64Array.from(x).sort()[x.length >> 1];
console.log(
  `${sceneName} sleeping ${sleepArg}: havok ${(1000 * median(th)).toFixed(2)} us/step, continuum-plugin ${(1000 * median(tc)).toFixed(2)} us/step` +
    `${cpuClock ? " CPU" : ""}, median per-block ratio continuum/havok ${median(ratio).toFixed(3)} (${blocks} blocks of ${batch} steps after ${warmup} warm-up)`,
);
