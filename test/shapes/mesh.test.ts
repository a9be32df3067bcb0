import { describe, expect, it } from "vitest";
import { IntList } from "../../src/collections/intList";
import { computeMassData, MassData, Pose, RayHit, rayCastShape, TriangleMesh } from "../../src/index";
import { rayTriangle } from "../../src/shapes/triangleSource";
import { rng } from "../engine/helpers";
import { boxMesh, grid } from "./meshHelpers";

describe("TriangleMesh construction", () => {
  it("validates its arguments with RangeErrors naming them", () => {
    const p = [0, 0, 0, 1, 0, 0, 0, 0, 1];
    expect(() => new TriangleMesh(p, [])).toThrow(/indices/);
    expect(() => new TriangleMesh(p, [0, 1])).toThrow(RangeError);
    expect(() => new TriangleMesh(p, [0, 1, 3])).toThrow(/indices\[2\]/);
    expect(() => new TriangleMesh(p, [0, 1, -1])).toThrow(/indices\[2\]/);
    expect(() => new TriangleMesh([0, 0, 0, 1, NaN, 0, 0, 0, 1], [0, 1, 2])).toThrow(/positions\[4\]/);
    expect(() => new TriangleMesh([0, 0, 0, 1, 0], [0, 1, 2])).toThrow(/positions/);
    expect(() => new TriangleMesh([0, 0, 0, 1, 0, 0, 2, 0, 0], [0, 1, 2])).toThrow(/zero area/);
    expect(() => new TriangleMesh(p, [0, 1, 2], { activeEdgeAngle: -1 })).toThrow(/activeEdgeAngle/);
  });

  it("drops zero-area triangles but keeps input triangle indices", () => {
    const p = [0, 0, 0, 1, 0, 0, 0, 0, 1, 2, 0, 0];
    const m = new TriangleMesh(p, [0, 1, 3, 0, 2, 1, 1, 1, 2]);
    expect(m.triangleCount).toBe(1);
    expect(m.internalIndex(0)).toBe(-1);
    expect(m.internalIndex(2)).toBe(-1);
    expect(m.triangleIndex(m.internalIndex(1))).toBe(1);
    // The ray reports the input index 1.
    const hit = new RayHit();
    expect(rayCastShape(m, new Pose(), 0.2, 1, 0.2, 0, -1, 0, 10, hit)).toBe(true);
    expect(hit.childIndex).toBe(1);
  });

  it("welds duplicated vertices: a split-vertex grid has inactive internal edges and active boundary edges", () => {
    // Two quads with unshared (duplicated) vertices.
    const p = [0, 0, 0, 0, 0, 1, 1, 0, 0, 1, 0, 0, 0, 0, 1, 1, 0, 1];
    const m = new TriangleMesh(p, [0, 1, 2, 3, 4, 5]);
    expect(m.vertices.length).toBe(12);
    for (let t = 0; t < 2; t++) {
      const f = m.edgeFlags(t);
      // Exactly one shared (diagonal) edge per triangle: inactive on both sides.
      let inactive = 0;
      for (let e = 0; e < 3; e++) if ((f & (1 << e)) === 0 && (f & (8 << e)) === 0) inactive++;
      expect(inactive).toBe(1);
    }
  });

  it("marks convex ridges active from the front only and valleys active from the back only", () => {
    // Roof: two triangles meeting along the z axis, sloping down at 30 degrees on both sides.
    const s = 0.5;
    const roof = new TriangleMesh([0, 0, 0, 0, 0, 1, -1, -s, 0, 1, -s, 0, -1, -s, 1, 1, -s, 1], [0, 2, 1, 0, 1, 3, 2, 4, 1, 1, 5, 3]);
    const valley = new TriangleMesh([0, 0, 0, 0, 0, 1, -1, s, 0, 1, s, 0], [0, 2, 1, 0, 1, 3]);
    const ridgeEdge = (m: TriangleMesh, t: number): number => {
      for (let e = 0; e < 3; e++) {
        const a = m.vertexId(t, e),
          b = m.vertexId(t, (e + 1) % 3);
        const on = (v: number): boolean => m.vertices[3 * v] === 0 && m.vertices[3 * v + 1] === 0;
        if (on(a) && on(b)) return e;
      }
      return -1;
    };
    const t0 = roof.internalIndex(0);
    const e = ridgeEdge(roof, t0);
    expect(e).toBeGreaterThanOrEqual(0);
    expect(roof.edgeFlags(t0) & (1 << e)).not.toBe(0);
    expect(roof.edgeFlags(t0) & (8 << e)).toBe(0);
    const v0 = valley.internalIndex(0);
    const ev = ridgeEdge(valley, v0);
    expect(valley.edgeFlags(v0) & (1 << ev)).toBe(0);
    expect(valley.edgeFlags(v0) & (8 << ev)).not.toBe(0);
    // A nearly flat crease (2 degrees) is inactive.
    const k = Math.tan((2 * Math.PI) / 180);
    const crease = new TriangleMesh([0, 0, 0, 0, 0, 1, -1, -k, 0, 1, -k, 0], [0, 2, 1, 0, 1, 3]);
    const c0 = crease.internalIndex(0);
    expect(crease.edgeFlags(c0) & (9 << ridgeEdge(crease, c0))).toBe(0);
  });

  it("computes its world AABB under a rotation", () => {
    const m = boxMesh(1, 2, 3);
    const out = new Float64Array(6);
    const h = Math.SQRT1_2;
    m.computeAabb(new Pose().set(1, 2, 3, 0, h, 0, h), out, 0); // 90 degrees about y: x <-> z
    const e = [1 - 3, 2 - 2, 3 - 1, 1 + 3, 2 + 2, 3 + 1];
    for (let k = 0; k < 6; k++) expect(out[k]).toBeCloseTo(e[k], 12);
    expect(m.maximumRadius).toBeCloseTo(Math.sqrt(14), 12);
    expect(m.minimumRadius).toBe(0);
  });
});

describe("TriangleMesh mass properties", () => {
  it("closed box mesh: volume, centroid and inertia match the solid box (either winding)", () => {
    for (const inward of [false, true]) {
      const m = boxMesh(1, 1.5, 2, 0.5, -1, 2, inward);
      expect(m.closed).toBe(true);
      expect(m.volume()).toBeCloseTo(24, 10);
      const md = computeMassData(m, 2, new MassData());
      expect(md.mass).toBeCloseTo(48, 9);
      expect(md.comX).toBeCloseTo(0.5, 12);
      expect(md.comY).toBeCloseTo(-1, 12);
      expect(md.comZ).toBeCloseTo(2, 12);
      const w = 2,
        hgt = 3,
        d = 4;
      expect(md.inertia[0]).toBeCloseTo((48 * (hgt * hgt + d * d)) / 12, 9);
      expect(md.inertia[1]).toBeCloseTo((48 * (w * w + d * d)) / 12, 9);
      expect(md.inertia[2]).toBeCloseTo((48 * (w * w + hgt * hgt)) / 12, 9);
      for (let k = 3; k < 6; k++) expect(Math.abs(md.inertia[k])).toBeLessThan(1e-9);
    }
  });

  it("closed tetrahedron: analytic volume, centroid and inertia", () => {
    // Corner tetrahedron (0, e_x, e_y, e_z) scaled by a: V = a^3/6, centroid a/4 each, and about the
    // origin per unit mass: I_xx = a^2/10 * 2... use the known covariance a^2/20 (diag) and a^2/20... checked below.
    const a = 2;
    const m = new TriangleMesh([0, 0, 0, a, 0, 0, 0, a, 0, 0, 0, a], [0, 2, 1, 0, 1, 3, 0, 3, 2, 1, 2, 3]);
    expect(m.closed).toBe(true);
    expect(m.volume()).toBeCloseTo(a ** 3 / 6, 12);
    const c = { x: 0, y: 0, z: 0 };
    m.centroid(c);
    expect(c.x).toBeCloseTo(a / 4, 12);
    expect(c.y).toBeCloseTo(a / 4, 12);
    // Per unit mass about the origin: E[x^2] = a^2/10, E[xy] = a^2/20.
    const I = new Float64Array(6);
    m.unitInertia(I, 0);
    expect(I[0]).toBeCloseTo((2 * a * a) / 10, 12);
    expect(I[3]).toBeCloseTo(-(a * a) / 20, 12);
  });

  it("open mesh: the solid AABB stands in (documented)", () => {
    const m = grid(4);
    expect(m.closed).toBe(false);
    expect(m.volume()).toBe(0);
    const open = new TriangleMesh([0, 0, 0, 2, 0, 0, 0, 1, 0, 0, 0, 3], [0, 2, 1, 0, 1, 3]);
    expect(open.volume()).toBeCloseTo(6, 12);
  });
});

describe("TriangleMesh BVH and ray casts", () => {
  function randomMesh(seed: number, n: number): { m: TriangleMesh; p: number[]; idx: number[] } {
    const r = rng(seed);
    const p: number[] = [],
      idx: number[] = [];
    for (let t = 0; t < n; t++) {
      const cx = (r() - 0.5) * 40,
        cy = (r() - 0.5) * 10,
        cz = (r() - 0.5) * 40;
      for (let k = 0; k < 3; k++) p.push(cx + (r() - 0.5) * 3, cy + (r() - 0.5) * 3, cz + (r() - 0.5) * 3);
      idx.push(3 * t, 3 * t + 1, 3 * t + 2);
    }
    return { m: new TriangleMesh(p, idx), p, idx };
  }

  it("AABB query matches brute force on a random mesh", () => {
    const { m, p } = randomMesh(7, 2000);
    const r = rng(99);
    const list = new IntList();
    for (let q = 0; q < 200; q++) {
      const cx = (r() - 0.5) * 44,
        cy = (r() - 0.5) * 14,
        cz = (r() - 0.5) * 44;
      const hx = r() * 4,
        hy = r() * 4,
        hz = r() * 4;
      list.clear();
      m.queryAabb(cx - hx, cy - hy, cz - hz, cx + hx, cy + hy, cz + hz, list);
      const got = new Set<number>();
      for (let i = 0; i < list.count; i++) got.add(m.triangleIndex(list.data[i]));
      expect(got.size).toBe(list.count); // no duplicates
      const want = new Set<number>();
      for (let t = 0; t < 2000; t++) {
        let ok = true;
        for (let k = 0; k < 3 && ok; k++) {
          const c = k === 0 ? cx : k === 1 ? cy : cz,
            h = k === 0 ? hx : k === 1 ? hy : hz;
          const a = p[9 * t + k],
            b = p[9 * t + 3 + k],
            d = p[9 * t + 6 + k];
          ok = Math.min(a, b, d) <= c + h && Math.max(a, b, d) >= c - h;
        }
        if (ok) want.add(t);
      }
      expect([...got].sort((x, y) => x - y)).toEqual([...want].sort((x, y) => x - y));
    }
  });

  it("ray casts match brute force on a random mesh (closest hit, input triangle index)", () => {
    const { m, p } = randomMesh(3, 1500);
    const r = rng(5);
    const hit = new RayHit();
    let hits = 0;
    for (let q = 0; q < 300; q++) {
      const ox = (r() - 0.5) * 60,
        oy = (r() - 0.5) * 20,
        oz = (r() - 0.5) * 60;
      const dx = r() - 0.5,
        dy = r() - 0.5,
        dz = r() - 0.5;
      let bestT = Infinity,
        best = -1;
      for (let t = 0; t < 1500; t++) {
        const s = 9 * t;
        const tt = rayTriangle(ox, oy, oz, dx, dy, dz, p[s], p[s + 1], p[s + 2], p[s + 3], p[s + 4], p[s + 5], p[s + 6], p[s + 7], p[s + 8], 100);
        if (tt >= 0 && tt < bestT) {
          bestT = tt;
          best = t;
        }
      }
      const got = rayCastShape(m, new Pose(), ox, oy, oz, dx, dy, dz, 100, hit);
      expect(got).toBe(best >= 0);
      if (got) {
        hits++;
        expect(hit.t).toBeCloseTo(bestT, 9);
        expect(hit.childIndex).toBe(best);
        // Two-sided: the normal faces the ray.
        expect(hit.normalX * dx + hit.normalY * dy + hit.normalZ * dz).toBeLessThan(0);
      }
    }
    expect(hits).toBeGreaterThan(30);
  });

  it("is two-sided: the normal faces the ray from above and from below, through a posed mesh", () => {
    const m = grid(4);
    const h = Math.SQRT1_2;
    const pose = new Pose().set(0, 1, 0, h, 0, 0, h); // 90 degrees about x: the grid stands in the xy plane at z = ...
    const hit = new RayHit();
    // Local +y maps to world +z. A ray along -z from z = 5 hits at world z = 0 (local y = 0).
    expect(rayCastShape(m, pose, 0.3, 1.2, 5, 0, 0, -1, 10, hit)).toBe(true);
    expect(hit.t).toBeCloseTo(5, 12);
    expect(hit.normalZ).toBeCloseTo(1, 12);
    expect(rayCastShape(m, pose, 0.3, 1.2, -5, 0, 0, 1, 10, hit)).toBe(true);
    expect(hit.normalZ).toBeCloseTo(-1, 12);
    // maxT respected.
    expect(rayCastShape(m, pose, 0.3, 1.2, -5, 0, 0, 1, 4.9, hit)).toBe(false);
  });

  it("a mesh with holes: rays through a missing quad miss, next to it they hit", () => {
    const m = grid(6, (x, z) => x === 2 && z === 3);
    const hit = new RayHit();
    // Quad (2, 3) spans x in [-1, 0], z in [0, 1].
    expect(rayCastShape(m, new Pose(), -0.5, 1, 0.5, 0, -1, 0, 10, hit)).toBe(false);
    expect(rayCastShape(m, new Pose(), -1.5, 1, 0.5, 0, -1, 0, 10, hit)).toBe(true);
    expect(rayCastShape(m, new Pose(), 0.5, 1, 0.5, 0, -1, 0, 10, hit)).toBe(true);
    // The hole's rim edges are boundary edges: active.
    // Quad (1, 3) is the 19th kept quad (quad index 3 * 6 + 1 = 19, none skipped before it).
    const left = m.internalIndex(2 * 19 + 1); // its triangle next to the hole (x = -1 edge)
    let active = 0;
    for (let e = 0; e < 3; e++) if (m.edgeFlags(left) & (1 << e)) active++;
    expect(active).toBe(1);
    // A quad far from the hole and the rim has no active edge.
    const inner = m.internalIndex(2 * (1 * 6 + 1));
    expect(m.edgeFlags(inner)).toBe(0);
  });
});
