// Benchmark harness: `npm run bench` (node bench/run.mjs [options]).
//
// Every (engine, scene, sleeping on/off) row runs in its own child process
// (`node --expose-gc bench/scene-runner.mjs <engine> <scene> <on|off> <warmup> <steps>`), one at a time,
// so rows do not share JIT state, heap or GC pressure. Writes bench/RESULTS.md and bench/out/results.json.
//
// Options:
//   --engines havok,continuum-plugin,continuum-engine   (default: all)
//   --scenes pyramid-210,pile-1000                       (default: all)
//   --sleep on,off                                       (default: both)
//   --warmup 120 --steps 1000                            (defaults)
//   --timeout 900                                        seconds per row (default 900)
//   --out bench/RESULTS.md                               (default)
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { spawn, execFileSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { SCENES, ENGINES } from "./scenes.mjs";

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.dirname(here);

function parseArgs(argv) {
  const opts = {
    engines: ENGINES,
    scenes: Object.keys(SCENES),
    sleep: ["on", "off"],
    warmup: 120,
    steps: 1000,
    timeout: 900,
    out: path.join(here, "RESULTS.md"),
  };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const [k, inline] = a.startsWith("--") ? a.slice(2).split("=", 2) : [null];
    if (!k) throw new Error(`unexpected argument ${a}`);
    const v = inline ?? argv[++i];
    if (v === undefined) throw new Error(`--${k} needs a value`);
    switch (k) {
      case "engines":
      case "scenes":
      case "sleep":
        opts[k] = v.split(",").map((s) => s.trim()).filter(Boolean);
        break;
      case "warmup":
      case "steps":
      case "timeout":
        opts[k] = Number(v);
        break;
      case "out":
        opts.out = path.resolve(v);
        break;
      default:
        throw new Error(`unknown option --${k}`);
    }
  }
  for (const e of opts.engines) if (!ENGINES.includes(e)) throw new Error(`unknown engine ${e} (${ENGINES.join(", ")})`);
  for (const s of opts.scenes) if (!SCENES[s]) throw new Error(`unknown scene ${s} (${Object.keys(SCENES).join(", ")})`);
  for (const s of opts.sleep) if (s !== "on" && s !== "off") throw new Error(`--sleep takes on,off`);
  return opts;
}

function runRow(engine, scene, sleep, opts) {
  return new Promise((resolve) => {
    const base = { engine, scene, sleep };
    const args = ["--expose-gc", path.join(here, "scene-runner.mjs"), engine, scene, sleep, String(opts.warmup), String(opts.steps)];
    const child = spawn(process.execPath, args, { cwd: root, stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    let err = "";
    child.stdout.on("data", (d) => (out += d));
    child.stderr.on("data", (d) => (err += d));
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      child.kill("SIGKILL");
    }, opts.timeout * 1000);
    child.on("close", (code, signal) => {
      clearTimeout(timer);
      const line = out.split("\n").find((l) => l.startsWith("BENCH_RESULT "));
      if (line) {
        try {
          resolve(JSON.parse(line.slice("BENCH_RESULT ".length)));
          return;
        } catch {
          /* fall through */
        }
      }
      const tail = (err.trim() || out.trim()).split("\n").slice(-3).join(" | ");
      const reason = timedOut
        ? `timed out after ${opts.timeout} s`
        : `runner exited (code ${code}${signal ? `, signal ${signal}` : ""}) without a result${tail ? `: ${tail}` : ""}`;
      resolve({ ...base, status: "failed", reason });
    });
  });
}

const fmt = (x, d = 3) => (Number.isFinite(x) ? x.toFixed(d) : "–");
const mb = (b) => (Number.isFinite(b) ? (b / (1024 * 1024)).toFixed(2) : "–");
const oneLine = (s) => String(s).split("\n")[0].replace(/\|/g, "\\|");

function describe(r) {
  if (r.status === "ok") {
    return `${fmt(r.medianMs)} ms median, ${fmt(r.p95Ms)} ms p95, ${r.gcCount} GCs, heap +${mb(r.heapGrowthBytes)} MB`;
  }
  return `${r.status === "unavailable" ? "not available" : "failed"}: ${oneLine(r.reason)}`;
}

function pkgVersion(name) {
  try {
    return JSON.parse(fs.readFileSync(path.join(root, "node_modules", name, "package.json"), "utf8")).version;
  } catch {
    return "?";
  }
}

function gitCommit() {
  try {
    const sha = execFileSync("git", ["rev-parse", "--short", "HEAD"], { cwd: root, encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] }).trim();
    const dirty = execFileSync("git", ["status", "--porcelain", "--untracked-files=no"], { cwd: root, encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] }).trim();
    return dirty ? `${sha} (with uncommitted changes)` : sha;
  } catch {
    return "unknown";
  }
}

function writeMarkdown(results, opts, startedAt, loadStart, loadEnd) {
  const cpus = os.cpus();
  const lines = [];
  lines.push("# Continuum benchmark results", "");
  lines.push("Generated by `npm run bench` (bench/run.mjs). Do not edit by hand; rerun to update.", "");
  lines.push("## Machine", "");
  lines.push(`- CPU: ${cpus[0]?.model ?? "unknown"} (${cpus.length} logical cores)`);
  lines.push(`- Memory: ${(os.totalmem() / 2 ** 30).toFixed(1)} GiB`);
  lines.push(`- OS: ${os.type()} ${os.release()} ${os.arch()}`);
  lines.push(`- Node: ${process.version}`);
  lines.push(`- @babylonjs/core ${pkgVersion("@babylonjs/core")}, @babylonjs/havok ${pkgVersion("@babylonjs/havok")}`);
  lines.push(`- Commit: ${gitCommit()}`);
  lines.push(`- Date: ${startedAt.toISOString()}`);
  lines.push(
    `- Load average (1/5/15 min) at start: ${loadStart.map((x) => x.toFixed(2)).join(" / ")}, at end: ` +
      `${loadEnd.map((x) => x.toFixed(2)).join(" / ")} (rows run on one core; a load near the core count means ` +
      "other work shared the machine and the timings are noisier)",
  );
  lines.push("");
  lines.push("## Method", "");
  lines.push(
    `Each row runs in its own \`node --expose-gc\` child process, one row at a time. The scene is built, stepped ` +
      `${opts.warmup} times at 1/60 s (warm-up), then ${opts.steps} measured steps are timed one by one with ` +
      "`performance.now()`: `scene.getPhysicsEngine()._step(1/60)` for the Babylon engines (havok: HavokPlugin; " +
      "continuum-plugin: ContinuumPlugin from dist/continuum.mjs), `world.step(1/60)` for continuum-engine (the raw " +
      "World API, no Babylon). GCs are the `gc` performance entries that start during the measured steps; heap growth " +
      "is `heapUsed` after the measured steps minus `heapUsed` before them (after a forced GC); retained is the " +
      "same after another forced GC. Ratio = median / Havok's median for the same scene and sleeping setting " +
      "(> 1 is slower than Havok). Sleeping off = `setActivationControl(body, ALWAYS_ACTIVE)` on every dynamic " +
      "body (Babylon) or `sleepingEnabled: false` (raw engine). The y column (min / mean / max of the dynamic bodies' " +
      "y after the run, and how many ended below y = -1, i.e. fell off or through the ground) is a sanity check " +
      "that the scene behaved, not a measurement.",
  );
  lines.push("");
  lines.push("Scenes:", "");
  lines.push("- `pyramid-210`: 20 rows of unit boxes (210), friction 0.5, on a static 200 x 1 x 200 ground box (top face at y = 0).");
  lines.push(
    "- `pile-1000`: 1000 boxes (0.8 m) / spheres (r 0.5) / capsules (r 0.3, length 1.4) / cylinders (r 0.4, " +
      "height 0.8), the kind cycling with ix + iy + iz, on a 10 x 10 x 10 grid with spacing 1.5, random " +
      "orientations, lowest layer 2 m up, dropped onto the ground box; measured while settling. Dynamic bodies " +
      "have mass 1.",
  );
  lines.push("");
  lines.push("## Results", "");
  lines.push("| scene | sleeping | engine | median ms/step | p95 ms/step | ratio to Havok | GCs (ms) | heap growth MB | retained MB | y min / mean / max; fallen |");
  lines.push("| --- | --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | --- |");
  for (const r of results) {
    if (r.status !== "ok") {
      const what = r.status === "unavailable" ? "not available" : "failed";
      lines.push(`| ${r.scene} | ${r.sleep} | ${r.engine} | ${what}: ${oneLine(r.reason)} | | | | | | |`);
      continue;
    }
    const havok = results.find((h) => h.engine === "havok" && h.scene === r.scene && h.sleep === r.sleep && h.status === "ok");
    const ratio = havok ? fmt(r.medianMs / havok.medianMs, 2) + "×" : "–";
    const y = r.final
      ? `${fmt(r.final.minY, 2)} / ${fmt(r.final.meanY, 2)} / ${fmt(r.final.maxY, 2)}; ${r.final.fallen} below -1`
      : "n/a";
    lines.push(
      `| ${r.scene} | ${r.sleep} | ${r.engine} | ${fmt(r.medianMs)} | ${fmt(r.p95Ms)} | ${ratio} | ${r.gcCount} (${fmt(r.gcMs, 1)}) | ${mb(r.heapGrowthBytes)} | ${mb(r.heapRetainedBytes)} | ${y} |`,
    );
  }
  lines.push("");
  fs.writeFileSync(opts.out, lines.join("\n"));
}

async function main() {
  const opts = parseArgs(process.argv.slice(2));
  const startedAt = new Date();
  const loadStart = os.loadavg();
  const results = [];
  console.log(`Continuum bench: ${os.cpus()[0]?.model ?? "?"}, node ${process.version}; warm-up ${opts.warmup}, ${opts.steps} measured steps`);
  for (const scene of opts.scenes) {
    for (const sleep of opts.sleep) {
      for (const engine of opts.engines) {
        const t = Date.now();
        const r = await runRow(engine, scene, sleep, opts);
        results.push(r);
        console.log(`${scene.padEnd(12)} sleep=${sleep.padEnd(3)} ${engine.padEnd(17)} ${describe(r)}  [${((Date.now() - t) / 1000).toFixed(1)} s]`);
      }
    }
  }
  writeMarkdown(results, opts, startedAt, loadStart, os.loadavg());
  const outDir = path.join(here, "out");
  fs.mkdirSync(outDir, { recursive: true });
  fs.writeFileSync(path.join(outDir, "results.json"), JSON.stringify({ date: startedAt.toISOString(), opts, results }, null, 2));
  console.log(`wrote ${path.relative(process.cwd(), opts.out) || opts.out}`);
  // Rows that are merely unavailable are expected while the engine is being written; a crash is an error.
  if (results.some((r) => r.status === "failed")) process.exitCode = 1;
}

main().catch((e) => {
  console.error(e?.message ?? e);
  process.exitCode = 2;
});
