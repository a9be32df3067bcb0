/**
 * Issue 16 item 12: "piles stand taller". 220 thin boxes (0.16 x 0.176 x 0.063 m, 0.2 kg, friction 0.25,
 * restitution 0.1) dropped in 14 layers into a 0.9 x 0.9 m basket with 1.2 m walls; the mean height of the
 * pieces after 10 s (seed 1).
 *
 * Measured: Continuum 0.525 m at 1/60 s, 0.524 m at 1/240 s (0.558 and 0.497 when the relax pass solved friction
 * again for every resting body, not only jointed ones: see contactSolver.ts relax); Havok 0.340 m at 1/60 s,
 * 0.430 m at 1/600 s.
 * Where the difference comes from, checked on Continuum: not friction (frictionless piles keep the ratio), not
 * speculative contacts (every piece Continuous or Discrete: within 7 %), not sleep, not the impact pre-pass, not
 * Continuum's step (its pile hardly moves from 1/60 to 1/240 s). Two things on Havok's side:
 * - its pile depends on its step: a fifth lower at 1/60 s than at 1/600 s (the large step's 5-6 mm overlaps pushed
 *   apart);
 * - its boxes tip over as if their edges were rounded by about 1.2 cm: a plate released on its narrow face tips at
 *   14.5 degrees, not at the geometric 19.7 (plateLanding.test.ts), so pieces slide off each other's edges and
 *   fewer end on edge (37 of 220 against Continuum's 63-76). Continuum's pile of the same pieces with their edges
 *   rounded by 1.2 cm (convex hulls) stands at 0.375 m with 39 on edge, as Havok's.
 * Continuum collides the box as declared, with sharp edges, so its pile is the sharp boxes' pile: what is tested
 * is that it is the model's and not the step's (1/60 s within 5 % of 1/240 s). README: the table of differences.
 */
import { describe, expect, it } from "vitest";
import { MeshBuilder, PhysicsAggregate, PhysicsShapeType, Quaternion, type Mesh } from "@babylonjs/core";
import { makeScene, type Kind } from "./helpers";

const W = 0.9; // basket inside width

/** Deterministic uniform numbers in [0, 1) (a linear congruential generator). */
function lcg(seed: number): () => number {
  let s = seed >>> 0;
  return () => (s = (s * 1664525 + 1013904223) >>> 0) / 4294967296;
}

/** Mean centre height of the pieces inside the basket after 10 s stepped at 1 / (60 fine) s, and how many left it. */
async function pileHeight(kind: Kind, seed: number, fine: number): Promise<{ mean: number; out: number }> {
  const t = await makeScene(kind);
  const H = 1.2,
    T = 0.05;
  const wall = (w: number, h: number, d: number, x: number, y: number, z: number) => {
    const m = MeshBuilder.CreateBox("wall", { width: w, height: h, depth: d }, t.scene);
    m.position.set(x, y, z);
    new PhysicsAggregate(m, PhysicsShapeType.BOX, { mass: 0, friction: 0.25, restitution: 0.1 }, t.scene);
  };
  wall(W + 2 * T, T, W + 2 * T, 0, -T / 2, 0);
  wall(T, H, W, -(W + T) / 2, H / 2, 0);
  wall(T, H, W, (W + T) / 2, H / 2, 0);
  wall(W, H, T, 0, H / 2, -(W + T) / 2);
  wall(W, H, T, 0, H / 2, (W + T) / 2);
  const r = lcg(seed);
  const pieces: Mesh[] = [];
  for (let i = 0; i < 220; i++) {
    const m = MeshBuilder.CreateBox("piece", { width: 0.16, height: 0.063, depth: 0.176 }, t.scene);
    const layer = Math.floor(i / 16),
      k = i % 16;
    m.position.set(((k % 4) - 1.5) * 0.2 + (r() - 0.5) * 0.02, 0.3 + layer * 0.2, (Math.floor(k / 4) - 1.5) * 0.2 + (r() - 0.5) * 0.02);
    m.rotationQuaternion = Quaternion.FromEulerAngles(r() * 6.28, r() * 6.28, r() * 6.28);
    new PhysicsAggregate(m, PhysicsShapeType.BOX, { mass: 0.2, friction: 0.25, restitution: 0.1 }, t.scene);
    pieces.push(m);
  }
  t.step(600 * fine, 1 / (60 * fine));
  let sum = 0,
    n = 0;
  for (const m of pieces) {
    if (Math.abs(m.position.x) > W / 2 || Math.abs(m.position.z) > W / 2) continue;
    sum += m.position.y;
    n++;
  }
  t.dispose();
  return { mean: sum / n, out: pieces.length - n };
}

describe("a pile of thin boxes in a basket (issue 16 item 12)", () => {
  it("continuum: the pile's height at 1/60 s is its height at 1/240 s, within 5 %", async () => {
    const coarse = await pileHeight("continuum", 1, 1);
    const fine = await pileHeight("continuum", 1, 4);
    // 0.525 and 0.524 m measured: 0.1 % (12 % with a second friction solve per substep for every resting body, a
    // friction that grows with the substep rate). A pile held up by the step (speculative gaps, contacts that stop
    // pieces short) would sink as the step shrinks, as Havok's rises by a fifth between 1/60 and 1/600 s.
    expect(Math.abs(coarse.mean - fine.mean) / fine.mean).toBeLessThan(0.05);
    // A pile, not a spill: the pile's top reaches the 1.2 m walls, and a piece or two may end on or over them
    // (1 and 1 measured); fewer than 5 of 220.
    expect(coarse.out).toBeLessThan(5);
    expect(fine.out).toBeLessThan(5);
  }, 120_000);
});
