import { describe, expect, it } from "vitest";
import { COLOURS, ConstraintGraph, DYNAMIC_COLOURS, OVERFLOW } from "../../src/dynamics/contacts/constraintGraph";
import { Box } from "../../src/index";
import { addGround, makeWorld, pos, steps } from "./helpers";

/** Builds a graph over manifolds given as [a, b] body pairs; bodies in `fixed` have inverse mass 0. */
function colour(pairs: [number, number][], bodyCount: number, fixed: number[] = [], coloured = true): ConstraintGraph {
  const bi = new Int32Array(pairs.flat());
  const invMass = new Float64Array(bodyCount).fill(1);
  for (const f of fixed) invMass[f] = 0;
  const g = new ConstraintGraph();
  g.build(pairs.length, bi, invMass, bodyCount, coloured);
  return g;
}

/** The visiting order as a plain array. */
function order(g: ConstraintGraph, count: number): number[] {
  return Array.from(g.order.subarray(0, count));
}

describe("constraint graph (contact passes colour by colour)", () => {
  it("colours a chain greedily in manifold order: alternate colours, the fixed end shares nothing", () => {
    // Ground 0 (fixed), boxes 1..4 stacked: 0-1, 1-2, 2-3, 3-4. The ground manifold takes colour 0 (box 1 is in
    // none yet); 1-2 cannot (box 1 is in 0): 1; 2-3: 0; 3-4: 1.
    const g = colour([[0, 1], [1, 2], [2, 3], [3, 4]], 5, [0]);
    expect(Array.from(g.colour.subarray(0, 4))).toEqual([0, 1, 0, 1]);
    expect(order(g, 4)).toEqual([0, 2, 1, 3]);
    expect(g.start[1]).toBe(2);
    expect(g.start[OVERFLOW + 1]).toBe(4);
  });

  it("shares fixed bodies freely: every box on one ground is in colour 0", () => {
    const pairs: [number, number][] = [];
    for (let i = 1; i <= 50; i++) pairs.push([0, i]);
    const g = colour(pairs, 51, [0]);
    for (let i = 0; i < 50; i++) expect(g.colour[i]).toBe(0);
    expect(order(g, 50)).toEqual(pairs.map((_, i) => i));
  });

  it("a body touching more dynamic bodies than the dynamic colours sends the rest to the overflow set, solved last", () => {
    // Hub 0 against 30 dynamic bodies: the first DYNAMIC_COLOURS (20) take colours 0..19, the other 10 overflow.
    const pairs: [number, number][] = [];
    for (let i = 1; i <= 30; i++) pairs.push([0, i]);
    const g = colour(pairs, 31);
    for (let i = 0; i < DYNAMIC_COLOURS; i++) expect(g.colour[i]).toBe(i);
    for (let i = DYNAMIC_COLOURS; i < 30; i++) expect(g.colour[i]).toBe(OVERFLOW);
    expect(g.start[OVERFLOW]).toBe(DYNAMIC_COLOURS);
    expect(order(g, 30).slice(DYNAMIC_COLOURS)).toEqual(pairs.slice(DYNAMIC_COLOURS).map((_, i) => DYNAMIC_COLOURS + i));
    // The hub's contacts with fixed bodies may still take the colours kept above the dynamic ones.
    const withGround = colour([...pairs, [0, 31]], 32, [31]);
    expect(withGround.colour[30]).toBe(DYNAMIC_COLOURS);
    expect(COLOURS - DYNAMIC_COLOURS).toBe(4);
  });

  it("no colour holds two manifolds of one dynamic body, on a random graph, and the order is a permutation", () => {
    // A fixed seed: the test must not depend on the run.
    let seed = 12345;
    const rand = (n: number): number => {
      seed = (seed * 1103515245 + 12345) & 0x7fffffff;
      return seed % n;
    };
    const bodies = 200;
    const fixed = [0, 1, 2];
    const pairs: [number, number][] = [];
    for (let k = 0; k < 1500; k++) {
      const a = rand(bodies);
      let b = rand(bodies);
      if (b === a) b = (b + 1) % bodies;
      if (fixed.includes(a) && fixed.includes(b)) continue;
      pairs.push([a, b]);
    }
    const g = colour(pairs, bodies, fixed);
    const seen = new Set(order(g, pairs.length));
    expect(seen.size).toBe(pairs.length);
    for (let c = 0; c < COLOURS; c++) {
      const used = new Set<number>();
      for (let j = g.start[c]; j < g.start[c + 1]; j++) {
        const [a, b] = pairs[g.order[j]];
        for (const body of [a, b]) {
          if (fixed.includes(body)) continue;
          expect(used.has(body)).toBe(false);
          used.add(body);
        }
        expect(g.colour[g.order[j]]).toBe(c);
      }
    }
    // Rebuilt over the same list (a later step, stale per-body stamps): the same order.
    const again = new ConstraintGraph();
    const bi = new Int32Array(pairs.flat());
    const invMass = new Float64Array(bodies).fill(1);
    for (const f of fixed) invMass[f] = 0;
    again.build(pairs.length, bi, invMass, bodies, true);
    again.build(pairs.length, bi, invMass, bodies, true);
    expect(order(again, pairs.length)).toEqual(order(g, pairs.length));
  });

  it("off: the identity order", () => {
    const g = colour([[0, 1], [1, 2], [2, 3]], 4, [], false);
    expect(order(g, 3)).toEqual([0, 1, 2]);
    expect(g.start[OVERFLOW + 1]).toBe(3);
  });
});

/** A 20-row pyramid of 210 unit boxes on the ground (test/engine/stacking.test.ts's), contact passes coloured or not. */
function pyramid(coloured: boolean) {
  const world = makeWorld({ sleepingEnabled: false });
  world.solver.settings.colouredPasses = coloured;
  addGround(world, 0.5);
  const start: { h: number; x: number; y: number }[] = [];
  for (let r = 0; r < 20; r++) {
    const n = 20 - r;
    for (let i = 0; i < n; i++) {
      const x = (i - (n - 1) / 2) * 1.0,
        y = 0.5 + r;
      start.push({ h: world.createBody({ position: { x, y, z: 0 }, collidable: { shape: new Box(0.5, 0.5, 0.5), material: { friction: 0.5 } } }), x, y });
    }
  }
  return { world, start };
}

describe("coloured contact passes (SolverSettings.colouredPasses)", () => {
  it("the 210-box pyramid stands 10 s within 3 cm, as in the cache's order, deterministically, and the order differs", () => {
    const on = pyramid(true),
      again = pyramid(true),
      off = pyramid(false);
    let differs = false;
    for (let i = 0; i < 600; i++) {
      on.world.step(1 / 60);
      // The first 150 steps (the pyramid settling) for determinism and the difference: the test's time is the pyramid's.
      if (i >= 150) continue;
      again.world.step(1 / 60);
      expect(again.world.stateHash()).toBe(on.world.stateHash());
      off.world.step(1 / 60);
      if (on.world.stateHash() !== off.world.stateHash()) differs = true;
    }
    // The colour order is a different Gauss-Seidel order: not the same bits as the cache's order.
    expect(differs).toBe(true);
    let worst = 0;
    for (const s of on.start) {
      const p = pos(on.world, s.h);
      worst = Math.max(worst, Math.hypot(p.x - s.x, p.y - s.y, p.z));
    }
    // stacking.test.ts's bound for the cache's order (bench scene pyramid-210 after 600 steps: 7.6 mm in the cache's
    // order, 7.7 mm coloured).
    expect(worst).toBeLessThan(0.03);
  });

  it("a tower of 10 boxes stands 20 s with the top within 1 cm in x/z", () => {
    const world = makeWorld({ sleepingEnabled: false });
    world.solver.settings.colouredPasses = true;
    addGround(world);
    const hs: number[] = [];
    for (let i = 0; i < 10; i++) hs.push(world.createBody({ position: { x: 0, y: 0.5 + i, z: 0 }, collidable: { shape: new Box(0.5, 0.5, 0.5) } }));
    steps(world, 1200);
    const top = pos(world, hs[9]);
    expect(Math.hypot(top.x, top.z)).toBeLessThan(0.01);
    // Ten soft contacts each sag a fraction of a millimetre under the load above them (stacking.test.ts's bound).
    expect(top.y).toBeGreaterThan(9.5 - 0.01);
  });
});
