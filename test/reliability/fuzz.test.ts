/**
 * Fuzz: 10,000 seeded random sequences of ContinuumPlugin calls through Babylon (see ./fuzzHarness.ts): 0
 * uncaught non-validation errors, 0 invalid inputs accepted or changing the world, 0 non-finite poses or
 * velocities (as the plugin reports them) after any step, body counts consistent, and everything a sequence
 * made released at its end.
 *
 * Failing seeds are printed. Replay one with its operation log:
 *   FUZZ_SEED=1234 npx vitest run test/reliability/fuzz.test.ts
 * (FUZZ_COUNT=n runs the first n seeds only; FUZZ_OPS=n changes the sequence length; FUZZ_WIDE=1 replays with the
 * wide fuzz's operations, ./fuzzWide.test.ts.)
 */
import { writeFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { runSeeds, type Failure } from "./fuzzHarness";

const COUNT = Number(process.env.FUZZ_COUNT ?? 10_000);
const OPS = Number(process.env.FUZZ_OPS ?? 14);
const PER_SCENE = 250;
const CHUNKS = 4;

function report(failures: Failure[]): string {
  const bySeed = new Map<number, Failure>();
  for (const f of failures) if (!bySeed.has(f.seed)) bySeed.set(f.seed, f);
  const lines = [...bySeed.values()].slice(0, 20).map((f) => `seed ${f.seed} op ${f.op}: ${f.what}\n    ${f.error.replace(/\n/g, "\n    ")}`);
  return `${bySeed.size} failing seeds (replay: FUZZ_SEED=<seed> npx vitest run test/reliability/fuzz.test.ts)\n${lines.join("\n")}`;
}

describe("plugin fuzz", () => {
  if (process.env.FUZZ_SEED !== undefined) {
    const seed = Number(process.env.FUZZ_SEED);
    it(`replays seed ${seed}`, () => {
      const { failures, known, logs } = runSeeds([seed], { ops: OPS, perScene: 1, verbose: true, wide: !!process.env.FUZZ_WIDE });
      console.log((logs.get(seed) ?? []).join("\n"));
      for (const k of known) console.log(`known engine bug at op ${k.op} (${k.what}): ${k.error}`);
      if (failures.length > 0) console.log(report(failures));
      expect(failures).toEqual([]);
    });
    return;
  }
  // Long sequences (300 operations) of the seeds that left bodies reporting NaN velocities before the speed
  // clamp at the start of a step and the bounded gyroscopic step (issue 16, item 8): a body spun past the
  // limits by the solver had its gyroscopic Newton step diverge over 0.5 s steps to an overflow, and its NaN
  // contact impulses made the static ground's velocity NaN for good. A hand run of seeds 0..999 at 300
  // operations is the measure (README, What works today); these three (which fail without the fix) keep it in the suite.
  it("long sequences: the seeds that reported non-finite velocities", () => {
    const { failures, nonFiniteResets } = runSeeds([26, 27, 73], { ops: 300, perScene: 1 });
    if (failures.length > 0) console.log(report(failures));
    expect(failures.length, "failing seeds are printed above").toBe(0);
    // The guard that puts non-finite bodies back to rest hides the symptom, so count its firings too: 3-4 over these
    // sequences with the fix (bodies the fuzz's 1e30 inputs fling to ~1e141 m, an honest overflow; the count moves
    // with the solver's trajectories), 50 with the speed clamp and the bounded gyroscopic step removed. 10 lies
    // between the two.
    expect(nonFiniteResets).toBeLessThanOrEqual(10);
  });
  // Issue 29 item 10: in 400-operation sequences (the wide run, ./fuzzWide.test.ts, at hand) the step threw
  // "setPose: orientation must be a finite non-zero quaternion, got (0, 0, 0, 0)": a jointed body flung by
  // 1e30 m inputs spun past 1e155 rad/s, the pose integration's squared length overflowed and normalised to
  // the zero quaternion, which the plugin wrote to the node and the teleport prestep handed back. Seed 111
  // fails so without the fix (test/engine/spinOverflow.test.ts has the integration alone).
  it("long sequences: the seed whose step threw on a zero orientation", () => {
    const { failures } = runSeeds([111], { ops: 400, perScene: 1 });
    if (failures.length > 0) console.log(report(failures));
    expect(failures.length, "failing seeds are printed above").toBe(0);
  });
  const per = Math.ceil(COUNT / CHUNKS);
  for (let c = 0; c < CHUNKS; c++) {
    const from = c * per,
      to = Math.min(COUNT, from + per);
    if (from >= to) continue;
    it(`seeds ${from}..${to - 1}`, () => {
      const seeds: number[] = [];
      for (let s = from; s < to; s++) seeds.push(s);
      const t0 = performance.now();
      const { failures, known } = runSeeds(seeds, { ops: OPS, perScene: PER_SCENE });
      const ms = performance.now() - t0;
      console.log(`fuzz seeds ${from}..${to - 1}: ${(ms / 1000).toFixed(1)} s, ${failures.length} failures, ${known.length} known engine bug hits`);
      const ids = new Map<string, number[]>();
      for (const k of known) ids.set(k.error, [...(ids.get(k.error) ?? []), k.seed]);
      for (const [id, seeds] of ids) console.log(`  known engine bug (${seeds.length} seeds, e.g. FUZZ_SEED=${seeds[0]}): ${id}`);
      if (failures.length > 0) console.log(report(failures));
      if (process.env.FUZZ_DUMP) writeFileSync(`${process.env.FUZZ_DUMP}.${c}.json`, JSON.stringify(failures, null, 1));
      expect(failures.length, "failing seeds are printed above").toBe(0);
    });
  }
});
