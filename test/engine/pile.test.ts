import { describe, expect, it } from "vitest";
import { Box, Capsule, Cylinder, Sphere, type Shape, type World } from "../../src/index";
import { addGround, makeWorld, rng } from "./helpers";

/** 1000 mixed bodies in a 10 x 10 x 10 grid (spacing 1.5 m) above the ground, sizes and spins seeded. */
function pile(world: World, seed = 7): number[] {
  addGround(world, 0.5, 500);
  const r = rng(seed);
  const hs: number[] = [];
  for (let i = 0; i < 10; i++)
    for (let j = 0; j < 10; j++)
      for (let k = 0; k < 10; k++) {
        const kind = (i + j + k) % 4;
        const s = 0.3 + 0.15 * r();
        let shape: Shape;
        if (kind === 0) shape = new Box(s, s * 0.8, s * 1.2);
        else if (kind === 1) shape = new Sphere(s);
        else if (kind === 2) shape = new Capsule(s * 0.6, s * 0.8);
        else shape = new Cylinder(s * 0.8, s * 0.7);
        hs.push(
          world.createBody({
            position: { x: (i - 4.5) * 1.5, y: 1 + k * 1.5, z: (j - 4.5) * 1.5 },
            angularVelocity: { x: r() - 0.5, y: r() - 0.5, z: r() - 0.5 },
            collidable: { shape },
          }),
        );
      }
  return hs;
}

describe("1000 mixed bodies", () => {
  it("settle with none below the ground and penetration under 1 cm after 10 s", () => {
    const world = makeWorld();
    const hs = pile(world);
    const aabb = new Float64Array(6);
    for (let s = 0; s < 600; s++) world.step(1 / 60);
    // Deepest penetration over every contact at the end of the last step.
    const deepest = world.stats.maxPenetration;
    let lowest = Infinity;
    for (const h of hs) lowest = Math.min(lowest, world.getAabb(h, aabb)[1]);
    // The ground's top is y = 0; soft contacts sag by a fraction of a millimetre at rest.
    expect(lowest).toBeGreaterThan(-0.01);
    expect(deepest).toBeLessThan(0.01);
  }, 120_000);

  it("is deterministic: two runs give bit-identical states", () => {
    const hashes: number[] = [];
    for (let run = 0; run < 2; run++) {
      const world = makeWorld();
      pile(world);
      for (let s = 0; s < 240; s++) world.step(1 / 60);
      hashes.push(world.stateHash());
    }
    expect(hashes[0]).toBe(hashes[1]);
    // A different seed must give a different state (the hash sees the poses).
    const other = makeWorld();
    pile(other, 8);
    for (let s = 0; s < 240; s++) other.step(1 / 60);
    expect(other.stateHash()).not.toBe(hashes[0]);
  }, 120_000);
});
