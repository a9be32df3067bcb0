// Benchmark harness: `npm run bench` (node bench/run.mjs [options]); `npm run bench -- --help` for the options.
//
// Every (engine, scene, sleeping on/off) row runs in its own child process
// (`node --expose-gc bench/scene-runner.mjs <engine> <scene> <on|off|n/a> <warmup> <steps>`), one at a time,
// so rows do not share JIT state, heap or GC pressure. A full run writes bench/RESULTS.md and
// bench/out/results.json; a partial run (--scenes / --engines / --sleep / --warmup / --steps) writes
// bench/out/partial.md and bench/out/partial.json unless --out says otherwise, so it never overwrites the table.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { spawn, execFileSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { SCENES, ENGINES, sceneSleepModes } from "./scenes.mjs";

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.dirname(here);

const HELP = `Continuum bench: node bench/run.mjs [options]   (npm run bench -- [options])

  --scenes a,b,...     scenes to run (default: all): ${Object.keys(SCENES).join(", ")}
  --engines a,b,...    engines (default: all): ${ENGINES.join(", ")}
  --sleep on,off       sleeping settings (default: both; query-only scenes always run once as n/a)
  --warmup N           warm-up steps for every scene (default: each scene's own, else 120)
  --steps N            measured steps for every scene (default: each scene's own, else 1000)
  --timeout S          seconds per row before it is killed (default 900)
  --repeat N           run every row N times, each in a fresh process, and keep the run with the median
                       median (default 1)
  --threads N          continuum-plugin rows on N threads (ContinuumPlugin's threads option; default 1)
  --out FILE           markdown output (default bench/RESULTS.md for a full run, bench/out/partial.md otherwise)
  --render [FILE]      rewrite the markdown from a saved run (default bench/out/results.json) without running
                       anything, e.g. after adding profiles or editing bench/where-time-goes.md
  --snapshot           measure snapshot / restore time and bytes of pile-1000 through the plugin
                       (bench/snapshot.mjs) and exit; the numbers are kept by hand in RESULTS.md
  --list               list the scenes with their defaults and exit
  --help               this text

Profiling one row (CPU profile of the measured steps only, top functions by self and inclusive time):
  node bench/profile.mjs <engine> <scene> <on|off|n/a> [warmup] [steps]
Summaries land in bench/out/profiles/ and are quoted in the next RESULTS.md under "Where time goes", with the
hand-written notes of bench/where-time-goes.md.
`;

function parseArgs(argv) {
  const opts = {
    engines: ENGINES,
    scenes: Object.keys(SCENES),
    sleep: ["on", "off"],
    warmup: null,
    steps: null,
    timeout: 900,
    repeat: 1,
    out: null,
    partial: false,
    render: null,
  };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === "--help" || a === "-h") {
      process.stdout.write(HELP);
      process.exit(0);
    }
    if (a === "--list") {
      for (const [name, s] of Object.entries(SCENES)) {
        console.log(
          `${name.padEnd(16)} warm-up ${s.warmup ?? 120}, steps ${s.steps ?? 1000}, sleep ${sceneSleepModes(name).join("/")}, ` +
            `engines ${(s.engines ?? ENGINES).join("/")}\n${" ".repeat(17)}${s.describe}`,
        );
      }
      process.exit(0);
    }
    if (a === "--snapshot") {
      // Snapshot / restore cost of pile-1000 through the plugin (bench/snapshot.mjs), printed; nothing else runs.
      execFileSync(process.execPath, ["--expose-gc", path.join(here, "snapshot.mjs")], { stdio: "inherit" });
      process.exit(0);
    }
    if (a === "--render") {
      const next = argv[i + 1];
      opts.render = next && !next.startsWith("--") ? path.resolve(argv[++i]) : path.join(here, "out", "results.json");
      continue;
    }
    const [k, inline] = a.startsWith("--") ? a.slice(2).split("=", 2) : [null];
    if (!k) throw new Error(`unexpected argument ${a} (see --help)`);
    const v = inline ?? argv[++i];
    if (v === undefined) throw new Error(`--${k} needs a value`);
    switch (k) {
      case "engines":
      case "scenes":
      case "sleep":
        opts[k] = v.split(",").map((s) => s.trim()).filter(Boolean);
        opts.partial = true;
        break;
      case "warmup":
      case "steps":
        opts[k] = Number(v);
        if (!(opts[k] >= 0)) throw new Error(`--${k} needs a number`);
        opts.partial = true;
        break;
      case "timeout":
        opts[k] = Number(v);
        break;
      case "threads":
        opts.threads = Math.floor(Number(v));
        if (!(opts.threads >= 1)) throw new Error("--threads needs a number >= 1");
        opts.partial = true;
        break;
      case "repeat":
        opts.repeat = Math.max(1, Math.floor(Number(v)));
        if (!(opts.repeat >= 1)) throw new Error("--repeat needs a number >= 1");
        break;
      case "out":
        opts.out = path.resolve(v);
        break;
      default:
        throw new Error(`unknown option --${k} (see --help)`);
    }
  }
  for (const e of opts.engines) if (!ENGINES.includes(e)) throw new Error(`unknown engine ${e} (${ENGINES.join(", ")})`);
  for (const s of opts.scenes) if (!SCENES[s]) throw new Error(`unknown scene ${s} (${Object.keys(SCENES).join(", ")})`);
  for (const s of opts.sleep) if (s !== "on" && s !== "off") throw new Error(`--sleep takes on,off`);
  if (!opts.out) opts.out = opts.partial ? path.join(here, "out", "partial.md") : path.join(here, "RESULTS.md");
  return opts;
}

/**
 * Runs a row `opts.repeat` times (each in a fresh process) and keeps the run with the median median: V8's
 * tiering and inlining differ from process to process, which moves a row's median by tens of percent.
 */
async function runRepeated(engine, scene, sleep, opts) {
  const runs = [];
  for (let k = 0; k < opts.repeat; k++) runs.push(await runRow(engine, scene, sleep, opts));
  const ok = runs.filter((r) => r.status === "ok").sort((a, b) => a.medianMs - b.medianMs);
  if (ok.length === 0) return runs[runs.length - 1];
  const chosen = ok[(ok.length - 1) >> 1];
  return opts.repeat > 1 ? { ...chosen, runMedians: runs.map((r) => (r.status === "ok" ? r.medianMs : null)) } : chosen;
}

function runRow(engine, scene, sleep, opts) {
  return new Promise((resolve) => {
    const base = { engine, scene, sleep };
    const def = SCENES[scene];
    const warmup = opts.warmup ?? def.warmup ?? 120;
    const steps = opts.steps ?? def.steps ?? 1000;
    const args = ["--expose-gc", path.join(here, "scene-runner.mjs"), engine, scene, sleep, String(warmup), String(steps)];
    if (opts.threads > 1 && engine === "continuum-plugin") args.push(`--threads=${opts.threads}`);
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
    return `${fmt(r.medianMs)} ms median, ${fmt(r.p95Ms)} ms p95, CPU ${fmt(r.cpuMedianMs)} ms, ${r.gcCount} GCs, heap +${mb(r.heapGrowthBytes)} MB; ${sanityText(r.final)}`;
  }
  return `${r.status === "unavailable" ? "not available" : "failed"}: ${oneLine(r.reason)}`;
}

/** The sanity column: y range and fallen bodies, joint pivot gaps, bullet tunnels, ray hits. */
function sanityText(f) {
  if (!f) return "n/a";
  const parts = [];
  if (f.dynamic !== undefined) {
    parts.push(`y ${fmt(f.minY, 2)} / ${fmt(f.meanY, 2)} / ${fmt(f.maxY, 2)}; ${f.fallen} below -1${f.offEdge ? ` (+${f.offEdge} off the ground's edge)` : ""}`);
    if (f.nonFinite) parts.push(`**${f.nonFinite} non-finite**`);
  }
  if (f.jointGapMax !== undefined) parts.push(`joint gap max ${fmt(1000 * f.jointGapMax, 1)} mm, mean ${fmt(1000 * f.jointGapMean, 2)} mm`);
  if (f.shots !== undefined) parts.push(`${f.tunnels} tunnels / ${f.shots} shots`);
  if (f.rays !== undefined) parts.push(`${f.rayHits} / ${f.rays} rays hit, mean distance ${fmt(f.rayMeanDistance, 3)} m`);
  if (f.solverNsBiased !== undefined)
    parts.push(`solver ns per contact point per pass: warm start ${fmt(f.solverNsWarm, 0)}, biased ${fmt(f.solverNsBiased, 0)}, relax ${fmt(f.solverNsRelax, 0)}`);
  if (f.engineStats?.sweeps || f.engineStats?.toiEvents) parts.push(`last step: ${f.engineStats.sweeps} sweeps, ${f.engineStats.toiEvents} TOI events`);
  return parts.join("; ");
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

function distInfo() {
  try {
    const st = fs.statSync(path.join(root, "dist", "continuum.mjs"));
    return `dist/continuum.mjs built ${st.mtime.toISOString()}`;
  } catch {
    return "dist/continuum.mjs missing";
  }
}

/** The Havok row a result is compared with (a Continuum-only variant names its baseline scene). */
function havokRow(results, r) {
  const scene = SCENES[r.scene]?.havokBaseline ?? r.scene;
  return results.find((h) => h.engine === "havok" && h.scene === scene && h.sleep === r.sleep && h.status === "ok");
}

function profileSummaries() {
  const dir = path.join(here, "out", "profiles");
  let files = [];
  try {
    files = fs.readdirSync(dir).filter((f) => f.endsWith(".json"));
  } catch {
    return [];
  }
  return files
    .map((f) => {
      try {
        return JSON.parse(fs.readFileSync(path.join(dir, f), "utf8"));
      } catch {
        return null;
      }
    })
    .filter(Boolean)
    .sort((a, b) => (a.scene + a.engine + a.sleep).localeCompare(b.scene + b.engine + b.sleep));
}

/**
 * @param build `{ commit, dist }` as recorded when the rows ran (a re-render must not report the tree it is
 * rendered from).
 */
function writeMarkdown(results, opts, startedAt, loadStart, loadEnd, wallSeconds, build) {
  const cpus = os.cpus();
  const lines = [];
  lines.push("# Continuum benchmark results", "");
  lines.push(
    "Generated by `npm run bench` (bench/run.mjs). Do not edit by hand; rerun to update (the \"Where time goes\" notes " +
      "come from bench/where-time-goes.md and the profile summaries of bench/profile.mjs).",
    "",
  );
  lines.push("## Machine", "");
  lines.push(`- CPU: ${cpus[0]?.model ?? "unknown"} (${cpus.length} logical cores)`);
  lines.push(`- Memory: ${(os.totalmem() / 2 ** 30).toFixed(1)} GiB`);
  lines.push(`- OS: ${os.type()} ${os.release()} ${os.arch()}`);
  lines.push(`- Node: ${process.version}`);
  lines.push(`- @babylonjs/core ${pkgVersion("@babylonjs/core")}, @babylonjs/havok ${pkgVersion("@babylonjs/havok")}`);
  lines.push(`- Commit: ${build.commit}; ${build.dist}`);
  lines.push(`- Date: ${startedAt.toISOString()} (the run took ${(wallSeconds / 60).toFixed(1)} min)`);
  lines.push(
    `- Load average (1/5/15 min) at start: ${loadStart.map((x) => x.toFixed(2)).join(" / ")}, at end: ` +
      `${loadEnd.map((x) => x.toFixed(2)).join(" / ")} (rows run on one core; a load near the core count means ` +
      "other work shared the machine and the timings are noisier; the table's load column is the 1-minute load " +
      "when each row started)",
  );
  lines.push("");
  lines.push("## Method", "");
  lines.push(
    (opts.repeat > 1
      ? `Each row ran ${opts.repeat} times, each in a fresh process, and the table shows the run with the median median ` +
        "(V8's tiering and inlining differ between processes and move a row's median by tens of percent; the other " +
        "runs' medians are in bench/out/results.json as runMedians). "
      : "") +
      (opts.threads > 1 ? `The continuum-plugin rows ran on ${opts.threads} threads (\`new ContinuumPlugin(true, { threads: ${opts.threads} })\`, measured once its workers listened). ` : "") +
      "Each row runs in its own `node --expose-gc` child process, one row at a time. The scene is built, stepped " +
      "`warm-up` times at 1/60 s, then `steps` measured steps are timed one by one with " +
      "`performance.now()`: `scene.getPhysicsEngine()._step(1/60)` for the Babylon engines (havok: HavokPlugin; " +
      "continuum-plugin: ContinuumPlugin from dist/continuum.mjs), `world.step(1/60)` for continuum-engine (the raw " +
      "World API, no Babylon). Warm-up / measured steps are 120 / 1000 unless the scene says otherwise (below). " +
      "GCs are the `gc` performance entries that start during the measured steps; heap growth " +
      "is `heapUsed` after the measured steps minus `heapUsed` before them (after a forced GC); retained is the " +
      "same after another forced GC. Ratio = median / Havok's median for the same scene and sleeping setting " +
      "(> 1 is slower than Havok). CPU median is the median over the measured steps of this process's CPU time " +
      "(`process.cpuUsage()` user + system around each step, all threads, so V8's GC helper threads count): when other " +
      "work shares the cores, wall time includes the time the row waited for a core and CPU time mostly does not, so " +
      "under load the CPU ratio is the fairer comparison (it is still inflated by cache and SMT sharing). Sleeping off = `setActivationControl(body, ALWAYS_ACTIVE)` on every dynamic " +
      "body (Babylon; for Havok's thin-instanced body, `HP_Body_SetActivationControl` per instance, since " +
      "HavokPlugin.setActivationControl only handles single bodies) or `sleepingEnabled: false` (raw engine). " +
      "The sanity column is a check that the scene behaved, not a measurement: the min / mean / max y of the " +
      "dynamic bodies after the run and how many ended below y = -1 inside the ground's footprint (fell through; bodies below it beyond |x| or |z| = 100 m rolled off the edge and are counted apart), non-finite poses, the " +
      "largest and mean distance between the two pivots of each joint (joint error), bullets that ended a step " +
      "beyond their wall (tunnels), and for the ray scene the hits of the last batch.",
  );
  lines.push("");
  lines.push("Scenes:", "");
  for (const [name, s] of Object.entries(SCENES)) {
    const extra = [];
    if (s.warmup !== undefined || s.steps !== undefined) extra.push(`warm-up ${s.warmup ?? 120}, ${s.steps ?? 1000} measured`);
    if (s.engines) extra.push(`engines: ${s.engines.join(", ")}`);
    lines.push(`- \`${name}\`: ${s.describe}${extra.length ? ` (${extra.join("; ")})` : ""}`);
  }
  if (opts.warmup !== null || opts.steps !== null) {
    lines.push("", `This run overrode the scenes' defaults: warm-up ${opts.warmup ?? "default"}, steps ${opts.steps ?? "default"}.`);
  }
  lines.push("");
  lines.push("## Results", "");
  lines.push(
    "| scene | sleeping | engine | median ms/step | p95 ms/step | ratio to Havok | CPU median ms/step | CPU ratio | GCs (ms) | heap growth MB | retained MB | load | sanity |",
  );
  lines.push("| --- | --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |");
  for (const r of results) {
    if (r.status !== "ok") {
      const what = r.status === "unavailable" ? "not available" : "failed";
      lines.push(`| ${r.scene} | ${r.sleep} | ${r.engine} | ${what}: ${oneLine(r.reason)} | | | | | | | | | |`);
      continue;
    }
    const havok = havokRow(results, r);
    const ratio = havok ? fmt(r.medianMs / havok.medianMs, 2) + "×" : "–";
    const cpuRatio = havok && Number.isFinite(havok.cpuMedianMs) ? fmt(r.cpuMedianMs / havok.cpuMedianMs, 2) + "×" : "–";
    lines.push(
      `| ${r.scene} | ${r.sleep} | ${r.engine} | ${fmt(r.medianMs)} | ${fmt(r.p95Ms)} | ${ratio} | ${fmt(r.cpuMedianMs)} | ${cpuRatio} | ${r.gcCount} (${fmt(r.gcMs, 1)}) | ` +
        `${mb(r.heapGrowthBytes)} | ${mb(r.heapRetainedBytes)} | ${fmt(r.load1, 2)} | ${sanityText(r.final)} |`,
    );
  }
  lines.push("");

  // Plugin overhead over the raw engine.
  const overhead = [];
  for (const p of results) {
    if (p.engine !== "continuum-plugin" || p.status !== "ok") continue;
    const e = results.find((x) => x.engine === "continuum-engine" && x.scene === p.scene && x.sleep === p.sleep && x.status === "ok");
    if (e)
      overhead.push({
        scene: p.scene,
        sleep: p.sleep,
        plugin: p.medianMs,
        engine: e.medianMs,
        inner: p.engineInPluginMedianMs,
        own: p.pluginOwnMedianMs,
        share: p.pluginOwnShare,
      });
  }
  if (overhead.length) {
    lines.push("## Plugin overhead over the raw engine", "");
    lines.push(
      "Measured inside the continuum-plugin rows: the runner times `World.step` within each `executeStep`, so " +
        "the plugin's own work per step (prestep, sync of every body's transform node or thin-instance matrix, " +
        "collision observables) is (whole step − engine step), in the same process and the same steps. Own % = " +
        "median own ms / median engine-step ms; issue 9's target is < 10 % for 1000 bodies (pile-1000). The last " +
        "two columns compare with the raw-engine row of the same scene (another process: its JIT state, heap and " +
        "the scene built without Babylon differ, so that difference is not all plugin work).",
      "",
    );
    lines.push("| scene | sleeping | plugin step ms | engine step inside it ms | plugin's own ms | own % | raw-engine row ms | plugin row vs raw-engine row |");
    lines.push("| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: |");
    for (const o of overhead) {
      lines.push(
        `| ${o.scene} | ${o.sleep} | ${fmt(o.plugin)} | ${fmt(o.inner)} | ${fmt(o.own)} | ${Number.isFinite(o.share) ? fmt(100 * o.share, 1) + " %" : "–"} | ` +
          `${fmt(o.engine)} | ${fmt((100 * (o.plugin - o.engine)) / o.engine, 1)} % |`,
      );
    }
    lines.push("");
  }

  // Continuous versus Passive (issue 4, item 8).
  const ccd = [];
  for (const c of results) {
    const base = SCENES[c.scene]?.havokBaseline;
    if (!base || c.status !== "ok") continue;
    const p = results.find((x) => x.engine === c.engine && x.scene === base && x.sleep === c.sleep && x.status === "ok");
    if (p) ccd.push({ engine: c.engine, sleep: c.sleep, scene: c.scene, base, c, p });
  }
  if (ccd.length) {
    lines.push("## Continuous versus Passive (100 bullets in flight)", "");
    lines.push(
      "ms/step of `bullets-100-ccd` (every bullet Continuous) against `bullets-100` (Passive, the default), same " +
        "engine and sleeping setting; ratio = Continuous / Passive median.",
      "",
    );
    lines.push("| engine | sleeping | Passive median (p95) | Continuous median (p95) | ratio | CPU Passive | CPU Continuous | CPU ratio | tunnels Passive | tunnels Continuous |");
    lines.push("| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |");
    for (const x of ccd) {
      lines.push(
        `| ${x.engine} | ${x.sleep} | ${fmt(x.p.medianMs)} (${fmt(x.p.p95Ms)}) | ${fmt(x.c.medianMs)} (${fmt(x.c.p95Ms)}) | ` +
          `${fmt(x.c.medianMs / x.p.medianMs, 2)}× | ${fmt(x.p.cpuMedianMs)} | ${fmt(x.c.cpuMedianMs)} | ` +
          `${Number.isFinite(x.p.cpuMedianMs) && Number.isFinite(x.c.cpuMedianMs) ? fmt(x.c.cpuMedianMs / x.p.cpuMedianMs, 2) + "×" : "–"} | ${x.p.final?.tunnels ?? "–"} / ${x.p.final?.shots ?? "–"} | ${x.c.final?.tunnels ?? "–"} / ${x.c.final?.shots ?? "–"} |`,
      );
    }
    lines.push("");
  }

  // Where time goes.
  const notesFile = path.join(here, "where-time-goes.md");
  const profiles = profileSummaries();
  if (fs.existsSync(notesFile) || profiles.length) {
    lines.push("## Where time goes", "");
    if (fs.existsSync(notesFile)) lines.push(fs.readFileSync(notesFile, "utf8").trim(), "");
    for (const p of profiles) {
      lines.push(
        `### Profile: ${p.scene}, sleeping ${p.sleep}, ${p.engine} (${p.steps} measured steps, ${fmt(p.totalMs, 0)} ms sampled, ${p.date})`,
        "",
      );
      lines.push("Top functions by self time (share of all samples in the measured steps), and by inclusive time:", "");
      lines.push("| self % | self ms | function | | inclusive % | function |");
      lines.push("| ---: | ---: | --- | --- | ---: | --- |");
      const n = Math.max(p.self.length, p.inclusive.length);
      for (let i = 0; i < Math.min(n, 10); i++) {
        const s = p.self[i],
          c = p.inclusive[i];
        lines.push(
          `| ${s ? fmt(100 * s.share, 1) : ""} | ${s ? fmt(s.ms, 0) : ""} | ${s ? "`" + s.name + "` " + s.where : ""} | | ` +
            `${c ? fmt(100 * c.share, 1) : ""} | ${c ? "`" + c.name + "` " + c.where : ""} |`,
        );
      }
      lines.push("");
    }
  }
  fs.mkdirSync(path.dirname(opts.out), { recursive: true });
  fs.writeFileSync(opts.out, lines.join("\n"));
}

async function main() {
  const opts = parseArgs(process.argv.slice(2));
  if (opts.render) {
    const saved = JSON.parse(fs.readFileSync(opts.render, "utf8"));
    const o = { ...opts, ...saved.opts, out: opts.out };
    if (saved.opts?.partial && !process.argv.includes("--out")) o.out = path.join(here, "out", "partial.md");
    const build = saved.build ?? { commit: "not recorded in the saved run", dist: "dist/continuum.mjs not recorded" };
    writeMarkdown(saved.results, o, new Date(saved.date), saved.loadStart ?? [NaN, NaN, NaN], saved.loadEnd ?? [NaN, NaN, NaN], saved.wallSeconds ?? NaN, build);
    console.log(`wrote ${path.relative(process.cwd(), o.out)} from ${path.relative(process.cwd(), opts.render)}`);
    return;
  }
  const startedAt = new Date();
  const loadStart = os.loadavg();
  const build = { commit: gitCommit(), dist: distInfo() };
  const results = [];
  const rows = [];
  for (const scene of opts.scenes) {
    const modes = sceneSleepModes(scene);
    const sleeps = modes.includes("n/a") ? ["n/a"] : opts.sleep.filter((s) => modes.includes(s));
    const engines = opts.engines.filter((e) => (SCENES[scene].engines ?? ENGINES).includes(e));
    for (const sleep of sleeps) for (const engine of engines) rows.push([scene, sleep, engine]);
  }
  console.log(
    `Continuum bench: ${os.cpus()[0]?.model ?? "?"}, node ${process.version}; ${rows.length} rows; load ${loadStart.map((x) => x.toFixed(2)).join(" ")}`,
  );
  for (const [scene, sleep, engine] of rows) {
    const t = Date.now();
    const r = await runRepeated(engine, scene, sleep, opts);
    results.push(r);
    console.log(`${scene.padEnd(16)} sleep=${sleep.padEnd(3)} ${engine.padEnd(17)} ${describe(r)}  [${((Date.now() - t) / 1000).toFixed(1)} s]`);
  }
  const loadEnd = os.loadavg();
  const wallSeconds = (Date.now() - startedAt.getTime()) / 1000;
  writeMarkdown(results, opts, startedAt, loadStart, loadEnd, wallSeconds, build);
  const outDir = path.join(here, "out");
  fs.mkdirSync(outDir, { recursive: true });
  const jsonName = opts.partial ? "partial.json" : "results.json";
  fs.writeFileSync(path.join(outDir, jsonName), JSON.stringify({ date: startedAt.toISOString(), loadStart, loadEnd, wallSeconds, build, opts, results }, null, 2));
  console.log(`wrote ${path.relative(process.cwd(), opts.out) || opts.out} and bench/out/${jsonName}`);
  // Rows that are merely unavailable are expected while the engine is being written; a crash is an error.
  if (results.some((r) => r.status === "failed")) process.exitCode = 1;
}

main().catch((e) => {
  console.error(e?.message ?? e);
  process.exitCode = 2;
});
