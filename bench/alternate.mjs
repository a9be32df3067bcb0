// The measuring loop of the same-process A/B tools (bench/ab.mjs, bench/threads-ab.mjs): each step runs one world
// and then the other, the order alternating from step to step, so load on a shared machine slows both alike.

/** Times `steps` alternating steps of simA and simB with `now` (ms); per-step times of each and ratios B / A. */
export function alternateSteps(simA, simB, steps, now) {
  const ta = new Float64Array(steps),
    tb = new Float64Array(steps),
    ratio = new Float64Array(steps);
  for (let i = 0; i < steps; i++) {
    const first = i & 1 ? simB : simA;
    const second = i & 1 ? simA : simB;
    const t0 = now();
    first.step();
    const t1 = now();
    second.step();
    const t2 = now();
    const [a, b] = i & 1 ? [t2 - t1, t1 - t0] : [t1 - t0, t2 - t1];
    ta[i] = a;
    tb[i] = b;
    ratio[i] = b / a;
  }
  return { ta, tb, ratio };
}

/** The median of an array of numbers. */
export function median(x) {
  const s = Float64Array.from(x).sort();
  return s[s.length >> 1];
}
