// Same-process A/B timing of two builds of the engine on one bench scene (raw World API, sleeping off).
//
//   node --expose-gc bench/ab.mjs <base.mjs> <new.mjs> <scene> [warmup] [steps] [--cpu]
//
// Keep the base copy inside the project (e.g. bench/out/base.mjs) so that its imports of @babylonjs/core resolve.
//
// Both bundles (e.g. a copy of main's dist/continuum.mjs and this tree's) build the same scene; each measured
// step runs one world and then the other, the order alternating from step to step, so load on a shared machine
// slows both alike. It prints the median ms/step of each and the median over steps of the per-step ratio
// new / base — the figure to quote for a change while the machine is busy. Run it twice with the bundles swapped
// (the ratio should invert) before trusting a gain under 5 %. --cpu times each step by the process's CPU time
// (process.cpuUsage) instead of the wall clock: at a load of 20 on 2 cores a step waits longer than it runs, and
// the wall-clock ratio then moves by several per cent between runs.
import path from "node:path";
import { pathToFileURL } from "node:url";
import { performance } from "node:perf_hooks";
import { SCENES } from "./scenes.mjs";
import { buildWorldScene } from "./scene-runner.mjs";
import { alternateSteps, median } from "./alternate.mjs";

const cpuClock = process.argv.includes("--cpu");
const [baseFile, newFile, sceneName, warmupArg, stepsArg] = process.argv.slice(2).filter((a) => a !== "--cpu");
/** Milliseconds: the wall clock, or with --cpu the process's CPU time (user + system). */
const now = cpuClock
  ? () => {
      const c = process.cpuUsage();
      return (c.user + c.system) / 1000;
    }
  : () => performance.now();
if (!baseFile || !newFile || !SCENES[sceneName]) {
  console.error(`usage: node --expose-gc bench/ab.mjs <base.mjs> <new.mjs> <${Object.keys(SCENES).join("|")}> [warmup] [steps]`);
  process.exit(2);
}
const def = SCENES[sceneName];
if (def.kind === "raycast") {
  console.error(`${sceneName} is a query scene; ab.mjs times steps`);
  process.exit(2);
}
const warmup = Number(warmupArg ?? def.warmup ?? 120);
const steps = Number(stepsArg ?? def.steps ?? 1000);
const load = async (f) => import(pathToFileURL(path.resolve(f)).href);
const [A, B] = [await load(baseFile), await load(newFile)];
const simA = buildWorldScene(A, def.build(), false);
const simB = buildWorldScene(B, def.build(), false);
for (let i = 0; i < warmup; i++) {
  simA.step();
  simB.step();
}
globalThis.gc?.();
const { ta, tb, ratio } = alternateSteps(simA, simB, steps, now);
console.log(
  `${sceneName}: base ${median(ta).toFixed(3)} ms/step, new ${median(tb).toFixed(3)} ms/step${cpuClock ? " CPU" : ""}, ` +
    `median per-step ratio new/base ${median(ratio).toFixed(3)} (${steps} steps after ${warmup} warm-up)`,
);
