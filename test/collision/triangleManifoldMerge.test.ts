import { HEADER, HeaderField } from "../../src/dynamics/contacts/manifoldLayout";
import { describe, expect, it } from "vitest";
import { Box, ConvexHull, ManifoldBuffer, MotionType, Pose, Sphere, TriangleMesh, collideShapes, type ContactManifold } from "../../src/index";
import { makeWorld, pos, rng, steps, vel } from "../engine/helpers";
import { grid } from "../shapes/meshHelpers";
import { pose } from "./helpers";

const I = new Pose();

function run(a: Parameters<typeof collideShapes>[0], pa: Pose, b: Parameters<typeof collideShapes>[2], pb: Pose, merge: boolean, margin = 0.02): ContactManifold[] {
  const out = new ManifoldBuffer();
  out.mergeTriangles = merge;
  collideShapes(a, pa, b, pb, margin, out);
  return out.items.slice(0, out.count);
}

interface P {
  x: number;
  y: number;
  z: number;
  d: number;
  id: number;
}
function points(ms: ContactManifold[]): P[] {
  const r: P[] = [];
  for (const m of ms) for (let k = 0; k < m.count; k++) r.push({ x: m.positionX[k], y: m.positionY[k], z: m.positionZ[k], d: m.depth[k], id: m.featureId[k] });
  return r;
}

/** Shallow bowl like the hulls-500 bench's (y = 0.004 (x^2 + z^2), 1 m cells): adjacent normals differ by < 0.5 degrees. */
function bowl(n: number): TriangleMesh {
  const p: number[] = [],
    idx: number[] = [];
  for (let j = 0; j <= n; j++) for (let i = 0; i <= n; i++) p.push(i - n / 2, 0.004 * ((i - n / 2) ** 2 + (j - n / 2) ** 2), j - n / 2);
  for (let j = 0; j < n; j++) {
    for (let i = 0; i < n; i++) {
      const a = j * (n + 1) + i;
      idx.push(a, a + n + 1, a + 1, a + 1, a + n + 1, a + n + 2);
    }
  }
  return new TriangleMesh(p, idx);
}

describe("merging a convex's triangle manifolds (triangleManifoldMerge.ts)", () => {
  it("a box on a grid over several triangles: one manifold with its four bottom corners", () => {
    const m = grid(8);
    // Box half 0.5 at (0.25, 0.499, 0.25): its bottom face [-0.25, 0.75]^2 spans 4 quads (8 triangles).
    const box = new Box(0.5, 0.5, 0.5);
    const apart = run(box, pose(0.25, 0.499, 0.25), m, I, false);
    expect(apart.length).toBeGreaterThanOrEqual(4);
    const ms = run(box, pose(0.25, 0.499, 0.25), m, I, true);
    expect(ms.length).toBe(1);
    const man = ms[0];
    expect(man.count).toBe(4);
    expect(man.normalY).toBeCloseTo(-1, 12);
    // The widest four of all triangles' points are the face's corners, each 1 mm deep (midpoint y = -0.0005).
    const corners = points(ms)
      .map((p) => `${p.x.toFixed(9)},${p.z.toFixed(9)}`)
      .sort();
    expect(corners).toEqual(["-0.250000000,-0.250000000", "-0.250000000,0.750000000", "0.750000000,-0.250000000", "0.750000000,0.750000000"]);
    for (const p of points(ms)) {
      expect(p.d).toBeCloseTo(0.001, 12);
      expect(p.y).toBeCloseTo(-0.0005, 12);
    }
    // Every merged point is one of the per-triangle points, with the same depth (nothing is re-measured).
    const unmerged = points(apart);
    for (const p of points(ms)) expect(unmerged.some((q) => Math.hypot(q.x - p.x, q.y - p.y, q.z - p.z) < 1e-12 && q.d === p.d)).toBe(true);
    // The key is one of the triangles under the box.
    expect(apart.map((x) => x.childB)).toContain(man.childB);
  });

  it("the mesh as A: the same merge with the triangle index on childA", () => {
    const m = grid(8);
    const ms = run(m, I, new Box(0.5, 0.5, 0.5), pose(0.25, 0.499, 0.25), true);
    expect(ms.length).toBe(1);
    expect(ms[0].normalY).toBeCloseTo(1, 12);
    expect(ms[0].count).toBe(4);
    expect(ms[0].childB).toBe(0);
    expect(m.internalIndex(ms[0].childA)).toBeGreaterThanOrEqual(0);
  });

  it("feature ids carry their triangle and stay the same for a small move", () => {
    const m = grid(8);
    const box = new Box(0.5, 0.5, 0.5);
    const a = run(box, pose(0.25, 0.499, 0.25), m, I, true);
    const b = run(box, pose(0.2501, 0.4991, 0.2499), m, I, true);
    expect(b[0].childB).toBe(a[0].childB);
    const ids = (ms: ContactManifold[]) => points(ms).map((p) => p.id).sort((x, y) => x - y);
    expect(ids(b)).toEqual(ids(a));
    // Four distinct ids, and the triangle index sits above the 14 bits of the tester's own id.
    expect(new Set(ids(a)).size).toBe(4);
    const tris = new Set(run(box, pose(0.25, 0.499, 0.25), m, I, false).map((x) => x.childB));
    for (const id of ids(a)) expect(tris.has(id >>> 14)).toBe(true);
  });

  it("a shallow bowl (normals within half a degree) merges; a valley (90 degrees) does not", () => {
    const m = bowl(10);
    const hull = new ConvexHull([-0.6, 0, -0.6, 0.6, 0, -0.6, 0.6, 0, 0.6, -0.6, 0, 0.6, 0, 0.5, 0]);
    // The hull's square base (1.2 m) over the bowl's lowest cells, sunk ~1 mm: 8+ triangles under it.
    const at = pose(0.3, 0.004 * 0.18 - 0.001 + 0.0045, 0.3);
    const apart = run(hull, at, m, I, false);
    expect(apart.length).toBeGreaterThan(2);
    const ms = run(hull, at, m, I, true);
    expect(ms.length).toBe(1);
    expect(ms[0].count).toBe(4);
    // The deepest per-triangle point survives with its depth, and the kept normal is the one of its manifold.
    let deep = apart[0],
      dk = 0;
    for (const man of apart) for (let k = 0; k < man.count; k++) if (man.depth[k] > deep.depth[dk] + 1e-4) [deep, dk] = [man, k];
    expect(Math.max(...points(ms).map((p) => p.d))).toBeCloseTo(deep.depth[dk], 12);
    // The valley of convexMesh.test.ts (faces y = |x|, 90 degrees apart) with a box turned 45 degrees into it,
    // each face 1 mm deep into a wall: a manifold per wall.
    const valley = new TriangleMesh([0, 0, 0, 0, 0, 2, -2, 2, 0, 2, 2, 0, -2, 2, 2, 2, 2, 2], [0, 1, 2, 0, 3, 1, 2, 1, 4, 1, 3, 5]);
    const vs = run(new Box(0.5, 0.5, 0.5), pose(0, (0.5 - 0.001) * Math.SQRT2, 1, 0, 0, 1, Math.PI / 4), valley, I, true);
    expect(vs.length).toBe(2);
    for (const man of vs) {
      expect(Math.abs(man.normalX)).toBeCloseTo(Math.SQRT1_2, 9);
      for (let k = 0; k < man.count; k++) expect(man.depth[k]).toBeCloseTo(0.001, 9);
    }
  });

  it("round shapes keep a manifold per triangle (a sphere's one point each)", () => {
    // A sphere over a grid vertex, 1 cm deep: every triangle around it gives the face point below the centre.
    const ms = run(new Sphere(0.5), pose(0, 0.49, 0), grid(4), I, true);
    expect(ms.length).toBeGreaterThan(1);
    for (const man of ms) expect(man.count).toBe(1);
  });

  it("in the world: at most four contacts per hull on a bowl, and the hulls rest on it", () => {
    // 30 hulls of 12 random points (as in the hulls-500 bench) dropped in the bowl, apart from each other.
    const build = (merge: boolean) => {
      const world = makeWorld({ sleepingEnabled: false });
      world.createBody({ motionType: MotionType.Static, collidable: { shape: bowl(20) } });
      const rand = rng(5);
      const hs: number[] = [];
      const shapes: ConvexHull[] = [];
      for (let i = 0; i < 30; i++) {
        const pts: number[] = [];
        for (let p = 0; p < 12; p++) pts.push(0.5 * rand() - 0.25, 0.5 * rand() - 0.25, 0.5 * rand() - 0.25);
        shapes.push(new ConvexHull(pts));
        hs.push(world.createBody({ position: { x: (i % 6) * 1.2 - 3, y: 1, z: Math.floor(i / 6) * 1.2 - 2.4 }, collidable: { shape: shapes[i] }, massProperties: { mass: 1 } }));
      }
      if (!merge) {
        // The narrow phase's buffer: keep the merge off for every pair (the narrow phase sets the flag per pair).
        const mb = (world as unknown as { scratch: { manifolds: ManifoldBuffer } }).scratch.manifolds;
        Object.defineProperty(mb, "mergeTriangles", { get: () => false, set: () => {} });
      }
      steps(world, 180);
      return { world, hs, shapes };
    };
    const merged = build(true),
      plain = build(false);
    const contactsWithBowl = (w: typeof merged.world) => {
      const s = (w as unknown as { contactCache: { count: number; header: Float64Array } }).contactCache;
      const byHull = new Map<number, number>();
      // The solver's manifold headers (contacts/manifoldLayout.ts HEADER, HeaderField); the static bowl is B.
      const bowlHandle = (w as unknown as { bodies: { handle: Float64Array } }).bodies.handle[0];
      for (let i = 0; i < s.count; i++) {
        const o = i * HEADER;
        if (s.header[o + HeaderField.handleB] !== bowlHandle) continue;
        const h = s.header[o + HeaderField.handleA];
        byHull.set(h, (byHull.get(h) ?? 0) + s.header[o + HeaderField.count]);
      }
      return byHull;
    };
    const mc = contactsWithBowl(merged.world);
    expect(mc.size).toBe(30);
    for (const n of mc.values()) expect(n).toBeLessThanOrEqual(4);
    // Without the merge some hull has more than four contacts with the bowl (what the merge removes).
    expect(Math.max(...contactsWithBowl(plain.world).values())).toBeGreaterThan(4);
    // Each hull rests on the bowl after 3 s: still (below 1 cm/s; without the merge one of them is still rocking at
    // 5.6 cm/s then), and its lowest vertex on the bowl's (piecewise linear) surface within
    // 3 mm either way (contacts hold the surfaces at ~1 mm penetration; a dropped corner, a hull resting on too
    // few points, would tip or sink further).
    const height = (x: number, z: number) => {
      const x0 = Math.floor(x),
        z0 = Math.floor(z);
      const fx = x - x0,
        fz = z - z0;
      const h = (i: number, j: number) => 0.004 * (i * i + j * j);
      // Cells split along (x0 + 1, z0) - (x0, z0 + 1), as bowl() winds them.
      if (fx + fz <= 1) return h(x0, z0) + fx * (h(x0 + 1, z0) - h(x0, z0)) + fz * (h(x0, z0 + 1) - h(x0, z0));
      return h(x0 + 1, z0 + 1) + (1 - fx) * (h(x0, z0 + 1) - h(x0 + 1, z0 + 1)) + (1 - fz) * (h(x0 + 1, z0) - h(x0 + 1, z0 + 1));
    };
    {
      const { world, hs, shapes } = merged;
      for (let i = 0; i < hs.length; i++) {
        expect(Math.hypot(...Object.values(vel(world, hs[i])))).toBeLessThan(0.01);
        const p = pos(world, hs[i]),
          q = world.getOrientation(hs[i], { x: 0, y: 0, z: 0, w: 1 });
        const v = shapes[i].vertices;
        let gap = Infinity;
        for (let k = 0; k < v.length; k += 3) {
          // Rotate the vertex by q (body origin = the hull's local origin).
          const [x, y, z] = [v[k], v[k + 1], v[k + 2]];
          const tx = 2 * (q.y * z - q.z * y),
            ty = 2 * (q.z * x - q.x * z),
            tz = 2 * (q.x * y - q.y * x);
          const wx = p.x + x + q.w * tx + (q.y * tz - q.z * ty),
            wy = p.y + y + q.w * ty + (q.z * tx - q.x * tz),
            wz = p.z + z + q.w * tz + (q.x * ty - q.y * tx);
          gap = Math.min(gap, wy - height(wx, wz));
        }
        expect(Math.abs(gap)).toBeLessThan(0.003);
      }
    }
  });

  it("a mesh with per-triangle surfaces keeps a manifold per triangle (each carries its run's material)", () => {
    // grid(4): 8 triangles per row of quads along z; runs split it at z = 0 (triangle 16). A box across z = 0.
    const manifolds = (surfaces: boolean) => {
      const world = makeWorld({ sleepingEnabled: false });
      const g = world.createBody({ motionType: MotionType.Static, collidable: { shape: grid(4) } });
      if (surfaces) world.setChildSurfaces(g, [{ start: 0 }, { start: 16, material: { friction: 0.9 } }]);
      world.createBody({ position: { x: 0.5, y: 0.25, z: 0.01 }, collidable: { shape: new Box(0.25, 0.25, 0.25) } });
      steps(world, 30);
      return world.stats.manifolds;
    };
    expect(manifolds(false)).toBe(1);
    expect(manifolds(true)).toBeGreaterThanOrEqual(2);
  });
});
