import { describe, expect, it } from "vitest";
import { IntList } from "../../src/collections/intList";
import { Heightfield, Pose, RayHit, rayCastShape } from "../../src/index";
import { rayTriangle } from "../../src/shapes/triangleSource";
import { rng } from "../engine/helpers";

/** Babylon layout: data[(nZ - 1 - zi) * nX + xi] is the height at column xi (from -X), row zi (from -Z). */
function layoutData(nX: number, nZ: number, f: (xi: number, zi: number) => number): Float64Array {
  const d = new Float64Array(nX * nZ);
  for (let zi = 0; zi < nZ; zi++) for (let xi = 0; xi < nX; xi++) d[(nZ - 1 - zi) * nX + xi] = f(xi, zi);
  return d;
}

describe("Heightfield layout", () => {
  it("a ray down at each sample of a 5 x 3 grid hits data[(nZ-1-zi)*nX + xi] within 1e-9", () => {
    const nX = 5,
      nZ = 3,
      sx = 8,
      sz = 3;
    const data = new Float64Array(nX * nZ);
    const r = rng(11);
    for (let i = 0; i < data.length; i++) data[i] = (r() - 0.5) * 4;
    const hf = new Heightfield(sx, sz, nX, nZ, data);
    const hit = new RayHit();
    for (const pose of [new Pose(), new Pose().set(3, -2, 7, 0, 0, 0, 1)]) {
      for (let zi = 0; zi < nZ; zi++) {
        for (let xi = 0; xi < nX; xi++) {
          const x = -sx / 2 + (xi * sx) / (nX - 1),
            z = -sz / 2 + (zi * sz) / (nZ - 1);
          const expected = data[(nZ - 1 - zi) * nX + xi];
          expect(rayCastShape(hf, pose, x + pose.px, 10 + pose.py, z + pose.pz, 0, -1, 0, 100, hit)).toBe(true);
          expect(Math.abs(10 - hit.t - expected)).toBeLessThan(1e-9);
          expect(hf.heightAt(xi, zi)).toBe(expected);
        }
      }
    }
  });

  it("is centred on the origin and splits cells along the (-X,+Z)-(+X,-Z) diagonal like Babylon's ground", () => {
    const hf = new Heightfield(4, 2, 3, 2, layoutData(3, 2, (xi, zi) => (xi === 1 && zi === 1 ? 1 : 0)));
    expect(Array.from(hf.bounds)).toEqual([-2, 0, -1, 2, 1, 1]);
    const t = new Float64Array(9);
    hf.getTriangle(0, t, 0); // cell (0, 0), the (-X, -Z) corner triangle
    expect(Array.from(t)).toEqual([-2, 0, -1, -2, 0, 1, 0, 0, -1]);
    hf.getTriangle(1, t, 0);
    expect(Array.from(t)).toEqual([0, 0, -1, -2, 0, 1, 0, 1, 1]);
    // Ray down at the cell centre hits the diagonal's midpoint: height (h(0,1) + h(1,0)) / 2 = 0.
    const hit = new RayHit();
    expect(rayCastShape(hf, new Pose(), -1, 5, 0, 0, -1, 0, 10, hit)).toBe(true);
    expect(hit.t).toBeCloseTo(5, 12);
  });

  it("validates its arguments", () => {
    expect(() => new Heightfield(0, 1, 2, 2, [0, 0, 0, 0])).toThrow(/sizeX/);
    expect(() => new Heightfield(1, -1, 2, 2, [0, 0, 0, 0])).toThrow(/sizeZ/);
    expect(() => new Heightfield(1, 1, 1, 2, [0, 0])).toThrow(/samplesX/);
    expect(() => new Heightfield(1, 1, 2, 2.5, [0, 0, 0, 0])).toThrow(/samplesZ/);
    expect(() => new Heightfield(1, 1, 2, 2, [0, 0, 0])).toThrow(/heights/);
    expect(() => new Heightfield(1, 1, 2, 2, [0, Infinity, 0, 0])).toThrow(/heights\[1\]/);
    expect(() => new Heightfield(1, 1, 2, 2, [0, NaN, 0, 0])).toThrow(/hole/);
  });
});

describe("Heightfield holes, edges and queries", () => {
  it("NaN samples make holes: no triangles in cells touching them", () => {
    // 4 x 4 samples over 3 x 3 m; sample (1, 1) is a hole: cells (0,0), (1,0), (0,1), (1,1) vanish.
    const data = layoutData(4, 4, (xi, zi) => (xi === 1 && zi === 1 ? NaN : 0));
    const hf = new Heightfield(3, 3, 4, 4, data);
    const list = new IntList();
    hf.queryAabb(-10, -1, -10, 10, 1, 10, list);
    const cells = new Set<number>();
    for (let i = 0; i < list.count; i++) cells.add(list.data[i] >> 1);
    expect([...cells].sort((a, b) => a - b)).toEqual([2, 5, 6, 7, 8]);
    const hit = new RayHit();
    expect(rayCastShape(hf, new Pose(), -1, 1, -1, 0, -1, 0, 5, hit)).toBe(false); // in cell (0, 0)
    expect(rayCastShape(hf, new Pose(), 1.2, 1, 1.2, 0, -1, 0, 5, hit)).toBe(true); // cell (2, 2)
    // Edges bordering the hole are active; flat interior edges are not.
    const cell = 2 * 3 + 2; // (2, 2)
    expect(hf.edgeFlags(2 * cell)).toBe(0);
    expect(hf.edgeFlags(2 * 5) & 7).not.toBe(0); // cell (2, 1): its -X neighbour (1, 1) is a hole
  });

  it("active edges: a ridge is active from above, a valley from below, flat cells inactive", () => {
    // Ridge along x = 0 (column 2 of 5 is 1 m higher).
    const ridge = new Heightfield(4, 4, 5, 5, layoutData(5, 5, (xi) => (xi === 2 ? 1 : 0)));
    const valley = new Heightfield(4, 4, 5, 5, layoutData(5, 5, (xi) => (xi === 2 ? -1 : 0)));
    // Cell (1, 1)'s T1 has edge 2 along x = 0 (corners (2,2) -> (2,1)).
    const t = 2 * (1 * 4 + 1) + 1;
    expect(ridge.edgeFlags(t) & (1 << 2)).not.toBe(0);
    expect(ridge.edgeFlags(t) & (8 << 2)).toBe(0);
    expect(valley.edgeFlags(t) & (1 << 2)).toBe(0);
    expect(valley.edgeFlags(t) & (8 << 2)).not.toBe(0);
    const flat = new Heightfield(4, 4, 5, 5, new Float64Array(25));
    expect(flat.edgeFlags(t)).toBe(0);
    expect(flat.edgeFlags(0)).not.toBe(0); // boundary cell
  });

  it("AABB query covers every triangle overlapping the box (brute force) and culls by height", () => {
    const r = rng(4);
    const nX = 23,
      nZ = 17;
    const data = layoutData(nX, nZ, () => (r() - 0.5) * 3);
    const hf = new Heightfield(22, 32, nX, nZ, data);
    const list = new IntList();
    const t = new Float64Array(9);
    for (let q = 0; q < 200; q++) {
      const cx = (r() - 0.5) * 30,
        cy = (r() - 0.5) * 4,
        cz = (r() - 0.5) * 40;
      const h = [r() * 3, r() * 1, r() * 3];
      list.clear();
      hf.queryAabb(cx - h[0], cy - h[1], cz - h[2], cx + h[0], cy + h[1], cz + h[2], list);
      const got = new Set<number>();
      for (let i = 0; i < list.count; i++) got.add(list.data[i]);
      for (let tri = 0; tri < hf.triangleCount; tri++) {
        hf.getTriangle(tri, t, 0);
        let ok = true;
        for (let k = 0; k < 3 && ok; k++) {
          const c = k === 0 ? cx : k === 1 ? cy : cz;
          ok = Math.min(t[k], t[3 + k], t[6 + k]) <= c + h[k] && Math.max(t[k], t[3 + k], t[6 + k]) >= c - h[k];
        }
        if (ok) expect(got.has(tri)).toBe(true);
      }
    }
  });

  it("ray casts match brute force over all triangles (random rays, rectangular grid)", () => {
    const r = rng(8);
    const nX = 19,
      nZ = 11;
    const data = layoutData(nX, nZ, () => (r() - 0.5) * 2);
    data[37] = NaN;
    const hf = new Heightfield(18, 7, nX, nZ, data);
    const hit = new RayHit();
    const t = new Float64Array(9);
    let hits = 0;
    for (let q = 0; q < 400; q++) {
      const ox = (r() - 0.5) * 24,
        oy = (r() - 0.5) * 6,
        oz = (r() - 0.5) * 10;
      let dx = r() - 0.5,
        dy = r() - 0.5,
        dz = r() - 0.5;
      if (q % 4 === 0) {
        dx = 0;
        dz = 0;
        dy = -1;
      }
      let best = Infinity;
      for (let tri = 0; tri < hf.triangleCount; tri++) {
        if (hf.isHole((tri >> 1) % (nX - 1), Math.floor((tri >> 1) / (nX - 1)))) continue;
        hf.getTriangle(tri, t, 0);
        const tt = rayTriangle(ox, oy, oz, dx, dy, dz, t[0], t[1], t[2], t[3], t[4], t[5], t[6], t[7], t[8], 50);
        if (tt >= 0 && tt < best) best = tt;
      }
      const got = rayCastShape(hf, new Pose(), ox, oy, oz, dx, dy, dz, 50, hit);
      expect(got).toBe(best < Infinity);
      if (got) {
        hits++;
        expect(hit.t).toBeCloseTo(best, 9);
        expect(hit.normalX * dx + hit.normalY * dy + hit.normalZ * dz).toBeLessThan(0);
      }
    }
    expect(hits).toBeGreaterThan(80);
  });

  it("mass: static-only, dynamic bodies get the AABB (documented)", () => {
    const hf = new Heightfield(4, 2, 3, 3, layoutData(3, 3, (xi) => xi));
    expect(hf.volume()).toBeCloseTo(4 * 2 * 2, 12);
    const c = { x: 1, y: 1, z: 1 };
    hf.centroid(c);
    expect(c).toEqual({ x: 0, y: 1, z: 0 });
    expect(hf.minimumRadius).toBe(0);
  });
});
