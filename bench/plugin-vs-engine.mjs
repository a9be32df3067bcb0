// Same-process comparison of World.step inside ContinuumPlugin against the same scene on the raw World API,
// both from one bundle: why is the engine's step slower inside the plugin?
//
//   node --expose-gc bench/plugin-vs-engine.mjs <scene> [warmup] [steps] [bundle]
//
// Each measured step runs one world and then the other, alternating the order, so load on a shared machine
// slows both alike. Prints the median World.step ms of each, the median per-step ratio plugin/engine, the
// plugin's own work (executeStep minus World.step), and the step counters of both worlds (pairs, manifolds,
// contact points) so that a difference in work shows as a difference in counts.
import path from "node:path";
import { pathToFileURL } from "node:url";
import { performance } from "node:perf_hooks";
import { SCENES } from "./scenes.mjs";
import { buildWorldScene, buildBabylonScene } from "./scene-runner.mjs";

const [sceneName, warmupArg, stepsArg, bundleArg] = process.argv.slice(2);
const def = SCENES[sceneName];
if (!def || def.kind === "raycast") {
  console.error(`usage: node --expose-gc bench/plugin-vs-engine.mjs <scene> [warmup] [steps] [bundle]`);
  process.exit(2);
}
const warmup = Number(warmupArg ?? def.warmup ?? 120);
const steps = Number(stepsArg ?? def.steps ?? 1000);
const C = await import(pathToFileURL(path.resolve(bundleArg ?? "dist/continuum.mjs")).href);
const BABYLON = await import("@babylonjs/core");
const plugin = new C.ContinuumPlugin();
const simP = buildBabylonScene(BABYLON, plugin, def.build(), false, { engine: "continuum-plugin", C });
const simE = buildWorldScene(C, def.build(), false);
const wP = plugin.world,
  wE = simE.world;
let inner = 0;
const raw = wP.step;
wP.step = function timed(dt) {
  const s = performance.now();
  raw.call(wP, dt);
  inner += performance.now() - s;
};
for (let i = 0; i < warmup; i++) {
  simP.step();
  simE.step();
}
globalThis.gc?.();
const tp = new Float64Array(steps),
  own = new Float64Array(steps),
  te = new Float64Array(steps),
  ratio = new Float64Array(steps);
for (let i = 0; i < steps; i++) {
  const runP = () => {
    inner = 0;
    const s = performance.now();
    simP.step();
    own[i] = performance.now() - s - inner;
    tp[i] = inner;
  };
  const runE = () => {
    const s = performance.now();
    simE.step();
    te[i] = performance.now() - s;
  };
  if (i & 1) {
    runE();
    runP();
  } else {
    runP();
    runE();
  }
  ratio[i] = tp[i] / te[i];
}
const median = (x) => {
  const s = Float64Array.from(x).sort();
  return s[s.length >> 1];
};
const counters = (w) => {
  const out = {};
  for (const k of ["stats", "lastStepStats", "counters"]) if (w[k]) Object.assign(out, w[k]);
  return out;
};
console.log(
  `${sceneName}: World.step in plugin ${median(tp).toFixed(3)} ms, raw engine ${median(te).toFixed(3)} ms, ` +
    `median ratio plugin/engine ${median(ratio).toFixed(3)}; plugin's own ${median(own).toFixed(3)} ms ` +
    `(${steps} steps after ${warmup})`,
);
console.log("plugin world counters", JSON.stringify(counters(wP)));
console.log("engine world counters", JSON.stringify(counters(wE)));
