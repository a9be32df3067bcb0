// Same-process A/B timing of two builds through ContinuumPlugin (Babylon NullEngine, sleeping off: every body
// ALWAYS_ACTIVE), the plugin counterpart of bench/ab.mjs:
//
//   node --expose-gc bench/plugin-ab.mjs <base.mjs> <new.mjs> <scene> [warmup] [steps]
//
// Keep the base copy inside the project (e.g. bench/out/base.mjs) so that its imports of @babylonjs/core resolve.
// Each measured step runs one scene and then the other, the order alternating, so load on a shared machine slows
// both alike. Prints, for each build, the median whole step (scene.getPhysicsEngine()._step: prestep, World.step,
// transform sync, observables) and the median plugin's own part (whole step minus World.step), and the median
// per-step ratio new/base of the whole step. Run it twice with the bundles swapped (the ratio should invert).
import path from "node:path";
import { pathToFileURL } from "node:url";
import { performance } from "node:perf_hooks";
import { SCENES } from "./scenes.mjs";
import { buildBabylonScene } from "./scene-runner.mjs";

const [baseFile, newFile, sceneName, warmupArg, stepsArg] = process.argv.slice(2);
const def = SCENES[sceneName];
if (!baseFile || !newFile || !def || def.kind === "raycast") {
  console.error(`usage: node --expose-gc bench/plugin-ab.mjs <base.mjs> <new.mjs> <scene> [warmup] [steps]`);
  process.exit(2);
}
const warmup = Number(warmupArg ?? def.warmup ?? 120);
const steps = Number(stepsArg ?? def.steps ?? 1000);
const BABYLON = await import("@babylonjs/core");
const load = async (f) => import(pathToFileURL(path.resolve(f)).href);
const make = (C) => {
  const plugin = new C.ContinuumPlugin();
  const sim = buildBabylonScene(BABYLON, plugin, def.build(), false, { engine: "continuum-plugin", C });
  const w = plugin.world;
  const raw = w.step;
  sim.inner = 0;
  w.step = function timed(dt) {
    const s = performance.now();
    raw.call(w, dt);
    sim.inner += performance.now() - s;
  };
  return sim;
};
const simA = make(await load(baseFile));
const simB = make(await load(newFile));
for (let i = 0; i < warmup; i++) {
  simA.step();
  simB.step();
}
globalThis.gc?.();
const whole = [new Float64Array(steps), new Float64Array(steps)],
  own = [new Float64Array(steps), new Float64Array(steps)],
  ratio = new Float64Array(steps);
const run = (sim, k, i) => {
  sim.inner = 0;
  const s = performance.now();
  sim.step();
  whole[k][i] = performance.now() - s;
  own[k][i] = whole[k][i] - sim.inner;
};
for (let i = 0; i < steps; i++) {
  if (i & 1) {
    run(simB, 1, i);
    run(simA, 0, i);
  } else {
    run(simA, 0, i);
    run(simB, 1, i);
  }
  ratio[i] = whole[1][i] / whole[0][i];
}
const median = (x) => {
  const s = Float64Array.from(x).sort();
  return s[s.length >> 1];
};
console.log(
  `${sceneName} (plugin): base ${median(whole[0]).toFixed(3)} ms/step (own ${median(own[0]).toFixed(3)}), ` +
    `new ${median(whole[1]).toFixed(3)} ms/step (own ${median(own[1]).toFixed(3)}), ` +
    `median per-step ratio new/base ${median(ratio).toFixed(3)} (${steps} steps after ${warmup} warm-up)`,
);
