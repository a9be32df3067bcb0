/**
 * Sweeps honour per-child filters (World.setChildSurfaces): a child a fast Continuous body does not collide with
 * neither stops it (the continuous pass) nor holds it (the pair's speculative sweep); the next child that does
 * collide still stops it. Before, only a compound's own trigger children were skipped by the sweeps.
 */
import { describe, expect, it } from "vitest";
import { Box, Compound, ContinuousDetection, MotionType, type Shape, Sphere, TriangleMesh } from "../../src/index";
import { SweepResult, sweepShapes } from "../../src/collision/sweep";
import { SweptMotion } from "../../src/math/sweptTransform";
import { makeWorld, pos, vel } from "./helpers";

const BULLET = 2;

/** Two static walls 5 cm thick in one compound: child 0 at x = 5, child 1 at x = 10 (10 x 10 m faces). */
function walls(): Shape {
  return new Compound([
    { shape: new Box(0.025, 5, 5), position: { x: 5, y: 0, z: 0 } },
    { shape: new Box(0.025, 5, 5), position: { x: 10, y: 0, z: 0 } },
  ]);
}

/**
 * The same two walls as one triangle mesh: triangles 0-1 the face at x = 5 minus 2.5 cm, 2-3 the face at x = 10
 * minus 2.5 cm (the walls' near faces, where a mesh is one-sided thin). The mesh is the pair's first body, so the
 * sweeps swap it to stream as the second shape.
 */
function wallMesh(): Shape {
  const quad = (x: number) => [x, -5, -5, x, 5, -5, x, 5, 5, x, -5, 5];
  const pts = [...quad(4.975), ...quad(9.975)];
  return new TriangleMesh(pts, [0, 1, 2, 0, 2, 3, 4, 5, 6, 4, 6, 7]);
}

function shoot(filterFirst: boolean, speed: number, shape: () => Shape = walls) {
  const world = makeWorld({ gravity: { x: 0, y: 0, z: 0 }, maxLinearSpeed: 5000, sleepingEnabled: false });
  const w = world.createBody({ motionType: MotionType.Static, collidable: { shape: shape() } });
  // Child 0 (triangles 0-1) does not collide with the bullet's group; the rest collides with everything.
  if (filterFirst) world.setChildSurfaces(w, [{ start: 0, collideWith: ~BULLET }, { start: shape === walls ? 1 : 2 }]);
  const ball = world.createBody({
    position: { x: 0, y: 0, z: 0 },
    linearVelocity: { x: speed, y: 0, z: 0 },
    collidable: { shape: new Sphere(0.1), continuity: ContinuousDetection.continuous(), membership: BULLET },
  });
  let minX = Infinity,
    maxX = -Infinity;
  for (let s = 0; s < 60; s++) {
    world.step(1 / 60);
    const x = pos(world, ball).x;
    if (s > 30) minX = Math.min(minX, x);
    maxX = Math.max(maxX, x);
  }
  return { x: pos(world, ball).x, vx: vel(world, ball).x, minX, maxX };
}

describe("sweeps skip the children a body does not collide with", () => {
  for (const speed of [120, 300, 900]) {
    it(`a bullet at ${speed} m/s passes a filtered-out wall child and stops at the next child`, () => {
      const r = shoot(true, speed);
      // The second wall's near face is at x = 9.975: the sphere (r 0.1) rests with its centre 0.1 m before it,
      // restitution 0; 1 cm covers the solver's contact slop and speculative rest. It never ends before the first
      // wall (x = 4.875), which it must pass, nor beyond the second.
      expect(r.x).toBeGreaterThan(9.875 - 0.01);
      expect(r.maxX).toBeLessThan(9.975);
      expect(r.minX).toBeGreaterThan(9.875 - 0.01);
      expect(Math.abs(r.vx)).toBeLessThan(0.5);
    });
  }

  it("a bullet at 300 m/s passes a mesh's filtered-out triangles and stops at the next ones", () => {
    const r = shoot(true, 300, wallMesh);
    // As above: the second face is at x = 9.975.
    expect(r.x).toBeGreaterThan(9.875 - 0.01);
    expect(r.maxX).toBeLessThan(9.975);
    expect(Math.abs(r.vx)).toBeLessThan(0.5);
  });

  it("without the filter, the first wall child stops it (the gate refuses only filtered pairs)", () => {
    const r = shoot(false, 300);
    expect(r.x).toBeGreaterThan(4.875 - 0.01);
    expect(r.maxX).toBeLessThan(4.975);
  });
});

describe("sweepShapes' piece-pair gate", () => {
  it("is asked in the caller's order when the sweep swaps its shapes (a mesh first)", () => {
    const mesh = wallMesh(),
      ball = new Sphere(0.1);
    const still = new SweptMotion().setStatic(0, 0, 0, 0, 0, 0, 1);
    const flying = new SweptMotion().setVelocity(0, 0, 0, 0, 0, 0, 1, 600, 0, 0, 0, 0, 0, 0, 0, 0);
    const asked: number[] = [];
    // Refuses the mesh's triangles 0-1 (its first shape's pieces) against the ball (piece 0).
    const gate = {
      passes(childA: number, childB: number): boolean {
        asked.push(childA, childB);
        return childA >= 2;
      },
    };
    const out = new SweepResult();
    // 600 m/s over 1/60 s = 10 m: both faces are in reach; the first at x = 4.975 is refused.
    expect(sweepShapes(mesh, still, ball, flying, 1 / 60, 0, 1e-4, out, gate)).toBe(true);
    expect(out.childA).toBeGreaterThanOrEqual(2);
    // Time of the sphere's surface reaching x = 9.975: (9.975 - 0.1) / 600 s, to the convergence threshold.
    expect(out.t0).toBeCloseTo(9.875 / 600, 5);
    // Every question named a mesh triangle first and the ball's piece (0) second.
    for (let k = 0; k < asked.length; k += 2) expect(asked[k + 1]).toBe(0);
    expect(Math.max(...asked.filter((_, k) => k % 2 === 0))).toBe(3);
    // Without the gate the first face stops it.
    expect(sweepShapes(mesh, still, ball, flying, 1 / 60, 0, 1e-4, out)).toBe(true);
    expect(out.t0).toBeCloseTo(4.875 / 600, 5);
  });
});
