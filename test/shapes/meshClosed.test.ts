import { describe, expect, it } from "vitest";
import { TriangleMesh, World } from "../../src/index";

/** Triangles of an axis-aligned box (outward, counter-clockwise) appended to positions/indices. */
function addBox(pos: number[], idx: number[], cx: number, cy: number, cz: number, h: number): void {
  const base = pos.length / 3;
  for (let i = 0; i < 8; i++) pos.push(cx + (i & 1 ? h : -h), cy + (i & 2 ? h : -h), cz + (i & 4 ? h : -h));
  const quads = [
    [0, 2, 3, 1], // -z
    [4, 5, 7, 6], // +z
    [0, 1, 5, 4], // -y
    [2, 6, 7, 3], // +y
    [0, 4, 6, 2], // -x
    [1, 3, 7, 5], // +x
  ];
  for (const [a, b, c, d] of quads) idx.push(base + a, base + b, base + c, base + a, base + c, base + d);
}

describe("TriangleMesh closedness", () => {
  it("two unit boxes sharing a face form a closed (watertight) mesh with the volume of both", () => {
    const pos: number[] = [],
      idx: number[] = [];
    addBox(pos, idx, 0, 0, 0, 0.5);
    addBox(pos, idx, 0, 1, 0, 0.5);
    const mesh = new TriangleMesh(pos, idx);
    // The shared face's edges are used four times (twice each way): still watertight.
    expect(mesh.closed).toBe(true);
    const mp = new World().computeMassProperties(mesh, 1000);
    expect(mp.mass).toBeCloseTo(2000, 6);
    expect(mp.centerOfMass.y).toBeCloseTo(0.5, 9);
  });

  it("a box missing one face is open", () => {
    const pos: number[] = [],
      idx: number[] = [];
    addBox(pos, idx, 0, 0, 0, 0.5);
    idx.length -= 6;
    expect(new TriangleMesh(pos, idx).closed).toBe(false);
  });
});
