// Same-process A/B timing of one build of the engine at two thread counts on one bench scene (raw World API,
// sleeping off): what the worker pool (src/parallel, issue 27) gains or costs.
//
//   node --expose-gc bench/threads-ab.mjs <bundle.mjs> <scene> [threadsA=1] [threadsB=2] [warmup] [steps]
//
// Both worlds build the same scene; each measured step runs one and then the other, the order alternating, as in
// bench/ab.mjs. Wall clock only: a thread pool's point is wall time, and the process's CPU time counts every
// thread. The worker script is found beside the bundle (dist/continuum.worker.mjs). It waits until the pool is
// ready, checks that both worlds hash alike after every step, and prints the median ms/step of each and the median
// per-step ratio B / A.
import path from "node:path";
import { pathToFileURL } from "node:url";
import { performance } from "node:perf_hooks";
import { SCENES } from "./scenes.mjs";
import { buildWorldScene } from "./scene-runner.mjs";
import { alternateSteps, median } from "./alternate.mjs";

const [file, sceneName, aArg, bArg, warmupArg, stepsArg] = process.argv.slice(2);
if (!file || !SCENES[sceneName] || SCENES[sceneName].kind === "raycast") {
  console.error(`usage: node --expose-gc bench/threads-ab.mjs <bundle.mjs> <scene> [threadsA] [threadsB] [warmup] [steps]`);
  process.exit(2);
}
const def = SCENES[sceneName];
const [tA, tB] = [Number(aArg ?? 1), Number(bArg ?? 2)];
const warmup = Number(warmupArg ?? def.warmup ?? 120);
const steps = Number(stepsArg ?? def.steps ?? 1000);
const C = await import(pathToFileURL(path.resolve(file)).href);
const simA = buildWorldScene(C, def.build(), false, { threads: tA });
const simB = buildWorldScene(C, def.build(), false, { threads: tB });
const until = Date.now() + 20000;
while ((simA.world.threads !== tA || simB.world.threads !== tB) && Date.now() < until) await new Promise((r) => setTimeout(r, 10));
if (simA.world.threads !== tA || simB.world.threads !== tB) throw new Error(`threads not ready: ${simA.world.threads}, ${simB.world.threads}`);
const check = () => {
  if (simA.world.stateHash() !== simB.world.stateHash()) throw new Error("the two thread counts diverged");
};
for (let i = 0; i < warmup; i++) {
  simA.step();
  simB.step();
  check();
}
globalThis.gc?.();
const { ta, tb, ratio } = alternateSteps(simA, simB, steps, () => performance.now());
check();
const blocks = (simA.world.workerPool?.workerBlocks ?? 0) + (simB.world.workerPool?.workerBlocks ?? 0);
console.log(
  `${sceneName}: threads ${tA} ${median(ta).toFixed(3)} ms/step, threads ${tB} ${median(tb).toFixed(3)} ms/step, ` +
    `median per-step ratio ${tB}/${tA} ${median(ratio).toFixed(3)} (${steps} steps after ${warmup} warm-up; ` +
    `workers ran ${blocks} blocks; hashes equal at every step)`,
);
simA.world.stopThreads?.();
simB.world.stopThreads?.();
