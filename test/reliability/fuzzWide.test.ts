/**
 * The wide plugin fuzz, by hand: long sequences (FUZZ_WIDE_OPS, default 400 operations, with the wide
 * operations of fuzzHarness.ts: teleports that also turn the node, to valid and invalid rotations) of the seeds
 * [FUZZ_WIDE_FROM, FUZZ_WIDE_TO) (default 0..999), each failure printed (and appended to FUZZ_WIDE_OUT when
 * set) as soon as its sequence ends. Skipped unless FUZZ_WIDE is set: it takes tens of minutes.
 *   FUZZ_WIDE=1 npx vitest run test/reliability/fuzzWide.test.ts
 * Replay a failing seed with its operation log: FUZZ_SEED=<seed> FUZZ_OPS=400 FUZZ_WIDE=1 npx vitest run test/reliability/fuzz.test.ts
 * Known on main: the teleport prestep does not yet skip a node the user left at a zero or NaN pose (the fix is on
 * branch plugin29, dc3ade6 / 4b86d51, kept out for the bundle budget), so seeds 3, 16, 62 and 221 fail here with
 * setPose's RangeError from inside the step.
 */
import { appendFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { runSeeds, type Failure } from "./fuzzHarness";

const FROM = Number(process.env.FUZZ_WIDE_FROM ?? 0);
const TO = Number(process.env.FUZZ_WIDE_TO ?? 1000);
const OPS = Number(process.env.FUZZ_WIDE_OPS ?? 400);
const OUT = process.env.FUZZ_WIDE_OUT;

describe.skipIf(!process.env.FUZZ_WIDE)("plugin fuzz, wide (by hand)", () => {
  it(`seeds ${FROM}..${TO - 1} at ${OPS} operations`, () => {
    const failures: Failure[] = [];
    for (let s = FROM; s < TO; s++) {
      const r = runSeeds([s], { ops: OPS, perScene: 1, wide: true });
      for (const f of [...r.failures, ...r.known]) {
        const line = `seed ${f.seed} op ${f.op}: ${f.what}: ${f.error.split("\n")[0]}`;
        console.log(line);
        if (OUT) appendFileSync(OUT, line + "\n");
      }
      failures.push(...r.failures);
      if (OUT && s % 25 === 0) appendFileSync(OUT, `done through seed ${s}\n`);
    }
    expect(failures.length, "failing seeds are printed above").toBe(0);
  }, 24 * 3600_000);
});
