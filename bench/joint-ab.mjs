// Same-process A/B of the joint solver alone: two builds of the engine on one bench scene (raw World API), each
// stepped through the same warm-up, then the joint passes of one step (warm start + biased pass + relax pass, 8
// times) repeated on that frozen state, the builds alternating:
//
//   node --expose-gc bench/joint-ab.mjs <base.mjs> <new.mjs> [scene=chain-ragdoll] [warmup=120]
//
// Unlike bench/ab.mjs, the two worlds need not follow the same trajectory: a change that is not bit-exact (the
// order of a sum) sends a pile of ragdolls down another path within a few hundred steps, and the contacts that
// path makes move the whole-step ratio by more than the change itself. Prints the median time of the passes for
// each build and the median per-round ratio new / base; run it again with the bundles swapped (the ratio should
// invert). Keep the bundles inside the project (e.g. bench/out/) so that their imports of @babylonjs/core resolve.
import path from "node:path";
import { pathToFileURL } from "node:url";
import { performance } from "node:perf_hooks";
import { SCENES } from "./scenes.mjs";
import { buildWorldScene } from "./scene-runner.mjs";

const [baseFile, newFile, sceneName = "chain-ragdoll", warmupArg] = process.argv.slice(2);
if (!baseFile || !newFile || !SCENES[sceneName]) {
  console.error("usage: node --expose-gc bench/joint-ab.mjs <base.mjs> <new.mjs> [scene] [warmup]");
  process.exit(2);
}
const warmup = Number(warmupArg ?? 120);
const def = SCENES[sceneName];
const sims = [];
for (const f of [baseFile, newFile]) {
  const C = await import(pathToFileURL(path.resolve(f)).href);
  const sim = buildWorldScene(C, def.build(), false);
  for (let i = 0; i < warmup; i++) sim.step();
  sims.push(sim);
}
const dt = def.timeStep ?? 1 / 60;
const passes = (sim) => {
  const w = sim.world,
    joints = w.joints,
    b = w.bodies;
  const n = w.substeps,
    h = dt / n;
  joints.prepare(b, dt, h);
  const t = performance.now();
  for (let s = 0; s < n; s++) {
    joints.warmStart(b);
    joints.solve(b, h, true);
    joints.solve(b, h, false);
  }
  return performance.now() - t;
};
for (let k = 0; k < 50; k++) {
  passes(sims[0]);
  passes(sims[1]);
}
globalThis.gc?.();
const ta = [],
  tb = [],
  ratio = [];
for (let k = 0; k < 400; k++) {
  let a, b;
  if (k & 1) {
    b = passes(sims[1]);
    a = passes(sims[0]);
  } else {
    a = passes(sims[0]);
    b = passes(sims[1]);
  }
  ta.push(a);
  tb.push(b);
  ratio.push(b / a);
}
const median = (x) => x.slice().sort((p, q) => p - q)[x.length >> 1];
console.log(
  `${sceneName} joint passes: base ${median(ta).toFixed(3)} ms/step, new ${median(tb).toFixed(3)} ms/step, median per-round ratio new/base ${median(ratio).toFixed(3)} (400 rounds after ${warmup} steps)`,
);
