// Profiles one benchmark row: node bench/profile.mjs <engine> <scene> <on|off|n/a> [warmup] [steps] [--top N] [--alloc]
// (THREADS=N in the environment: continuum-plugin on N threads; the profile is the calling thread's)
// (--alloc: where the measured steps allocate, from a sampling heap profile, instead of the CPU profile)
//
// Runs bench/scene-runner.mjs with --cpu-prof (a V8 CPU profile, 200 µs sampling, of the measured steps only),
// then prints the top functions by self time and by inclusive time, each with its share of the samples,
// mapped back to src/ and plugin/ through dist/continuum.mjs.map. Writes bench/out/profiles/<engine>-<scene>-<sleep>.json
// (quoted by the next `npm run bench` in RESULTS.md) and keeps the raw profile as .cpuprofile next to it (open it in
// Chrome DevTools > Performance, or VS Code).
import fs from "node:fs";
import path from "node:path";
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { SourceMap } from "node:module";

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.dirname(here);

const args = process.argv.slice(2);
let top = 20;
let alloc = false;
const pos = [];
for (let i = 0; i < args.length; i++) {
  if (args[i] === "--top") top = Number(args[++i]);
  else if (args[i] === "--alloc") alloc = true;
  else pos.push(args[i]);
}
const [engine, scene, sleep, warmup, steps] = pos;
if (!engine || !scene || !sleep) {
  console.error("usage: node bench/profile.mjs <engine> <scene> <on|off|n/a> [warmup] [steps] [--top N]");
  process.exit(2);
}
const outDir = path.join(here, "out", "profiles");
fs.mkdirSync(outDir, { recursive: true });
const base = `${engine}-${scene}-${sleep === "n/a" ? "na" : sleep}`;
const profFile = path.join(outDir, `${base}.cpuprofile`);
const runnerArgs = ["--expose-gc", path.join(here, "scene-runner.mjs"), engine, scene, sleep];
if (warmup) runnerArgs.push(warmup);
if (process.env.THREADS) runnerArgs.push(`--threads=${process.env.THREADS}`);
if (steps) runnerArgs.push(steps);
const heapFile = path.join(outDir, `${base}.heapprofile`);
runnerArgs.push(alloc ? `--heap-prof=${heapFile}` : `--cpu-prof=${profFile}`);
const r = spawnSync(process.execPath, runnerArgs, { cwd: root, encoding: "utf8", maxBuffer: 1 << 26 });
const line = (r.stdout ?? "").split("\n").find((l) => l.startsWith("BENCH_RESULT "));
if (!line) {
  console.error(r.stderr || r.stdout);
  process.exit(1);
}
const result = JSON.parse(line.slice("BENCH_RESULT ".length));
if (result.status !== "ok") {
  console.error(`${result.status}: ${result.reason}`);
  process.exit(1);
}

// Source map of the bundle, to name src/ files and lines.
let map = null;
try {
  map = new SourceMap(JSON.parse(fs.readFileSync((process.env.CONTINUUM_DIST ? path.resolve(process.env.CONTINUUM_DIST) : path.join(root, "dist", "continuum.mjs")) + ".map", "utf8")));
} catch {
  /* no map: bundle lines */
}
function where(cf) {
  const url = cf.url || "";
  if (!url) return "";
  if (url.endsWith(process.env.CONTINUUM_DIST ? path.basename(process.env.CONTINUUM_DIST) : "/dist/continuum.mjs") && map) {
    const e = map.findEntry(cf.lineNumber, cf.columnNumber);
    if (e && e.originalSource) {
      const src = e.originalSource.replace(/^.*?\/(src|plugin)\//, "$1/");
      return `${src}:${e.originalLine + 1}`;
    }
  }
  const m = url.match(/node_modules\/(@babylonjs\/[^/]+\/.*)$/);
  if (m) return `${m[1]}:${cf.lineNumber + 1}`;
  return `${path.basename(url)}:${cf.lineNumber + 1}`;
}

if (alloc) {
  // Bytes allocated per function (self) over the measured steps, from the sampling heap profile; the
  // allocation stack includes inlined frames, so the function named is the one whose code allocated.
  const heap = JSON.parse(fs.readFileSync(heapFile, "utf8"));
  const bytes = new Map(),
    frames = new Map();
  let all = 0;
  (function walk(n, caller) {
    const k = `${n.callFrame.functionName || "(anonymous)"}|${n.callFrame.url}|${n.callFrame.lineNumber}`;
    if (n.selfSize) {
      const kk = `${k}<-${caller}`;
      bytes.set(kk, (bytes.get(kk) ?? 0) + n.selfSize);
      frames.set(kk, [n.callFrame, caller]);
      all += n.selfSize;
    }
    for (const c of n.children ?? []) walk(c, `${n.callFrame.functionName || "(anonymous)"} ${where(n.callFrame)}`);
  })(heap.head, "");
  console.log(
    `${engine} ${scene} sleep=${sleep}: ${(all / 1024).toFixed(0)} KB sampled over ${result.steps} measured steps, ` +
      `${result.gcCount} GCs; by allocating function (and its caller):`,
  );
  for (const [k, b] of [...bytes].sort((x, y) => y[1] - x[1]).slice(0, top)) {
    const [cf, caller] = frames.get(k);
    console.log(`${(b / 1024).toFixed(1).padStart(9)} KB  ${cf.functionName || "(anonymous)"}  ${where(cf)}  <- ${caller}`);
  }
  process.exit(0);
}

const profile = JSON.parse(fs.readFileSync(profFile, "utf8"));
const byId = new Map(profile.nodes.map((n) => [n.id, n]));
const parent = new Map();
for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
const keyOf = (n) => `${n.callFrame.functionName || "(anonymous)"}|${n.callFrame.url}|${n.callFrame.lineNumber}|${n.callFrame.columnNumber}`;
const self = new Map(),
  incl = new Map(),
  info = new Map();
let total = 0;
const { samples, timeDeltas } = profile;
for (let i = 0; i < samples.length; i++) {
  // timeDeltas[i + 1] is the time until the next sample: charge it to this sample.
  const dt = (i + 1 < timeDeltas.length ? timeDeltas[i + 1] : 0) / 1000;
  total += dt;
  let n = byId.get(samples[i]);
  const k = keyOf(n);
  if (!info.has(k)) info.set(k, n.callFrame);
  self.set(k, (self.get(k) ?? 0) + dt);
  const seen = new Set();
  for (let id = samples[i]; id !== undefined; id = parent.get(id)) {
    n = byId.get(id);
    const kk = keyOf(n);
    if (seen.has(kk)) continue;
    seen.add(kk);
    if (!info.has(kk)) info.set(kk, n.callFrame);
    incl.set(kk, (incl.get(kk) ?? 0) + dt);
  }
}
const skipIncl = new Set(["(root)", "(program)", "(idle)"]);
const rows = (m, skip) =>
  [...m.entries()]
    .filter(([k]) => !skip || !skip.has(info.get(k).functionName))
    .sort((a, b) => b[1] - a[1])
    .slice(0, top)
    .map(([k, ms]) => {
      const cf = info.get(k);
      return { name: cf.functionName || "(anonymous)", where: where(cf), ms, share: ms / total };
    });
// Inclusive: without the runner's own frames (main, the measured loop).
const inclusive = rows(incl, skipIncl).filter((x) => !/scene-runner/.test(x.where));
const summary = {
  engine,
  scene,
  sleep,
  steps: result.steps,
  medianMs: result.medianMs,
  totalMs: total,
  date: new Date().toISOString(),
  self: rows(self),
  inclusive,
};
fs.writeFileSync(path.join(outDir, `${base}.json`), JSON.stringify(summary, null, 2));
const pct = (x) => (100 * x).toFixed(1).padStart(5) + " %";
console.log(`${engine} ${scene} sleep=${sleep}: median ${result.medianMs.toFixed(3)} ms/step, ${result.steps} steps, ${total.toFixed(0)} ms sampled`);
console.log("\nself time:");
for (const x of summary.self) console.log(`${pct(x.share)} ${x.ms.toFixed(0).padStart(7)} ms  ${x.name}  ${x.where}`);
console.log("\ninclusive time:");
for (const x of summary.inclusive) console.log(`${pct(x.share)} ${x.ms.toFixed(0).padStart(7)} ms  ${x.name}  ${x.where}`);
console.log(`\nwrote ${path.relative(root, path.join(outDir, base + ".json"))} and ${path.relative(root, profFile)}`);
