import { describe, expect, it } from "vitest";
import { Box, Capsule, Compound, ConvexHull, Cylinder, Heightfield, ManifoldBuffer, Pose, Sphere, TriangleMesh, collideShapes, type ContactManifold } from "../../src/index";
import { boxMesh, grid } from "../shapes/meshHelpers";
import { pose } from "./helpers";

const I = new Pose();

function run(a: Parameters<typeof collideShapes>[0], pa: Pose, b: Parameters<typeof collideShapes>[2], pb: Pose, margin = 0.02): ContactManifold[] {
  const out = new ManifoldBuffer();
  collideShapes(a, pa, b, pb, margin, out);
  return out.items.slice(0, out.count);
}

function allNormalsUp(ms: ContactManifold[], sign = 1): void {
  for (const m of ms) {
    expect(m.normalX).toBeCloseTo(0, 9);
    expect(m.normalY).toBeCloseTo(sign, 9);
    expect(m.normalZ).toBeCloseTo(0, 9);
  }
}

describe("convex vs triangle mesh", () => {
  it("a box resting on a grid: face contacts on each triangle under it, mesh as B (normal A->B down)", () => {
    const m = grid(8);
    const ms = run(new Box(0.5, 0.5, 0.5), pose(0.25, 0.499, 0.25), m, I);
    expect(ms.length).toBeGreaterThanOrEqual(2);
    allNormalsUp(ms, -1);
    for (const man of ms) {
      expect(man.childA).toBe(0);
      expect(m.internalIndex(man.childB)).toBeGreaterThanOrEqual(0);
      for (let i = 0; i < man.count; i++) {
        expect(man.depth[i]).toBeCloseTo(0.001, 9);
        expect(man.positionY[i]).toBeCloseTo(-0.0005, 9);
      }
    }
    // Swapped order: the normal flips, the triangle index moves to childA.
    const sw = run(m, I, new Box(0.5, 0.5, 0.5), pose(0.25, 0.499, 0.25));
    expect(sw.length).toBe(ms.length);
    allNormalsUp(sw, 1);
    expect(sw.map((x) => x.childA).sort()).toEqual(ms.map((x) => x.childB).sort());
  });

  it("speculative contacts down to -margin, nothing beyond", () => {
    const m = grid(4);
    const near = run(new Sphere(0.5), pose(0.3, 0.51, 0.2), m, I);
    expect(near.length).toBe(1);
    expect(near[0].depth[0]).toBeCloseTo(-0.01, 9);
    expect(run(new Sphere(0.5), pose(0.3, 0.53, 0.2), m, I).length).toBe(0);
  });

  it("no internal-edge normals: a sphere exactly over a shared edge or vertex gets face normals only", () => {
    const m = grid(4);
    for (const [x, z] of [
      [0, 0.3], // on an edge between quads
      [0, 0], // on a vertex shared by 6 triangles
      [0.5, 0.5], // on a quad diagonal
    ]) {
      const ms = run(new Sphere(0.5), pose(x, 0.49, z), m, I);
      expect(ms.length).toBeGreaterThan(0);
      allNormalsUp(ms, -1);
      for (const man of ms) for (let i = 0; i < man.count; i++) expect(man.depth[i]).toBeCloseTo(0.01, 9);
    }
  });

  it("a box hanging over an internal edge with a small lateral overlap still gets the face normal", () => {
    // Grid of quads 1 m; a box pressed 3 mm into the floor whose footprint covers a triangle by only 1 mm:
    // EPA's minimum translation on that triangle would be sideways; the inactive edge turns it vertical.
    const m = grid(4);
    const ms = run(new Box(0.5, 0.5, 0.5), pose(-0.499, 0.497, 0.5), m, I);
    expect(ms.length).toBeGreaterThan(0);
    allNormalsUp(ms, -1);
  });

  it("an active boundary edge gives an edge normal; a box beyond the rim touches it diagonally", () => {
    const m = grid(2); // x, z in [-1, 1]
    const r = 0.5;
    const d = r / Math.SQRT2 - 0.001;
    const ms = run(new Sphere(r), pose(1 + d, d, 0.3), m, I);
    expect(ms.length).toBe(1);
    expect(ms[0].normalX).toBeCloseTo(-Math.SQRT1_2, 3);
    expect(ms[0].normalY).toBeCloseTo(-Math.SQRT1_2, 3);
    expect(ms[0].depth[0]).toBeCloseTo(r - Math.SQRT2 * d, 9);
  });

  it("a convex ridge is active (edge normal), a valley gives face normals", () => {
    const s = 0.5;
    const roof = new TriangleMesh([0, 0, 0, 0, 0, 2, -2, -2 * s, 0, 2, -2 * s, 0, -2, -2 * s, 2, 2, -2 * s, 2], [0, 2, 1, 0, 1, 3, 2, 4, 1, 1, 5, 3]);
    const ms = run(new Sphere(0.5), pose(0, 0.49, 1), roof, I);
    expect(ms.length).toBeGreaterThan(0);
    for (const man of ms) {
      expect(man.normalY).toBeCloseTo(-1, 6);
    }
    // Off to one side but inside the ridge's edge region: the normal points from the ridge to the centre.
    const off = run(new Sphere(0.5), pose(0.1, 0.45, 1), roof, I);
    expect(off.length).toBe(1);
    const l = Math.hypot(0.1, 0.45);
    expect(off[0].normalX).toBeCloseTo(-0.1 / l, 6);
    expect(off[0].normalY).toBeCloseTo(-0.45 / l, 6);
    expect(off[0].depth[0]).toBeCloseTo(0.5 - l, 9);
    // A sphere in a V valley touches both faces with their own face normals.
    const valley = new TriangleMesh([0, 0, 0, 0, 0, 2, -2, 2, 0, 2, 2, 0, -2, 2, 2, 2, 2, 2], [0, 1, 2, 0, 3, 1, 2, 1, 4, 1, 3, 5]);
    const r = 0.5;
    const vs = run(new Sphere(r), pose(0, r * Math.SQRT2 - 0.002, 1), valley, I);
    expect(vs.length).toBe(2);
    for (const man of vs) {
      expect(Math.abs(man.normalX)).toBeCloseTo(Math.SQRT1_2, 9);
      expect(man.normalY).toBeCloseTo(Math.SQRT1_2 * -1, 9);
    }
  });

  it("triangles are two-sided: a body below the floor is pushed down", () => {
    const m = grid(4);
    const ms = run(new Box(0.5, 0.5, 0.5), pose(0.2, -0.499, 0.1), m, I);
    expect(ms.length).toBeGreaterThan(0);
    allNormalsUp(ms, 1);
  });

  it("works for capsules, cylinders, posed meshes and heightfields", () => {
    const m = grid(6);
    const h = Math.SQRT1_2;
    // Mesh rotated 90 degrees about x (floor becomes the wall z = 0 facing +z... local +y -> world +z).
    const wall = new Pose().set(0, 0, 0, h, 0, 0, h);
    const cap = run(new Capsule(0.2, 0.5), pose(0.1, 0.3, 0.195, 0, 0, 1, Math.PI / 2), m, wall);
    expect(cap.length).toBeGreaterThan(0);
    for (const man of cap) expect(man.normalZ).toBeCloseTo(-1, 9);
    let n = 0;
    for (const man of cap) n += man.count;
    expect(n).toBeGreaterThanOrEqual(2); // a lying capsule: a line contact
    const cyl = run(new Cylinder(0.4, 0.3), pose(0.1, 0.299, 0.2), m, I);
    let area = 0;
    for (const man of cyl) {
      expect(man.normalY).toBeCloseTo(-1, 9);
      area += man.count;
    }
    expect(area).toBeGreaterThanOrEqual(4);
    const hf = new Heightfield(6, 6, 7, 7, new Float64Array(49));
    const hb = run(new Box(0.5, 0.5, 0.5), pose(3.3, 1.499, -2.1), hf, new Pose().set(3, 1, -2, 0, 0, 0, 1));
    expect(hb.length).toBeGreaterThan(0);
    allNormalsUp(hb, -1);
    for (const man of hb) for (let i = 0; i < man.count; i++) expect(man.depth[i]).toBeCloseTo(0.001, 9);
  });

  it("compound children collide per child (childA = child index); mesh-mesh pairs collide triangle by triangle", () => {
    const m = grid(6);
    const c = new Compound([
      { shape: new Sphere(0.3), position: { x: -1, y: 0, z: 0 } },
      { shape: new Sphere(0.3), position: { x: 1, y: 0, z: 0 } },
    ]);
    const ms = run(c, pose(0.1, 0.295, 0.2), m, I);
    const kids = new Set(ms.map((x) => x.childA));
    expect([...kids].sort()).toEqual([0, 1]);
    allNormalsUp(ms, -1);
    // A mesh cube (half 1) sunk 1 cm into the grid: manifolds from the grid's triangles (A) against the cube,
    // those under its bottom face with the face normal from A to B, +y (grid triangles crossing the cube's
    // walls and corners take those features' normals).
    const mm = run(m, I, boxMesh(1, 1, 1), pose(0, 0.99, 0));
    expect(mm.filter((x) => Math.abs(x.normalY - 1) < 1e-9).length).toBeGreaterThan(0);
  });

  it("falls through holes: nothing under a sphere over a missing quad", () => {
    const m = grid(6, (x, z) => x === 3 && z === 3); // quad x, z in [0, 1]
    expect(run(new Sphere(0.2), pose(0.5, 0.15, 0.5), m, I).length).toBe(0);
    expect(run(new Sphere(0.2), pose(1.5, 0.15, 0.5), m, I).length).toBeGreaterThan(0);
  });

  it("closed meshes are one-sided: a huge box touching a small closed mesh from below gets sane depths", () => {
    const m = boxMesh(0.5, 0.5, 0.5);
    expect(m.faceSign).toBe(1);
    // The ground box (half 100 x 0.5) top at y = 0; the mesh cube's bottom 1 mm into it.
    const ms = run(m, pose(0, 0.499, 0), new Box(100, 0.5, 100), pose(0, -0.5, 0));
    expect(ms.length).toBeGreaterThan(0);
    for (const man of ms) {
      expect(man.normalY).toBeCloseTo(-1, 6);
      for (let i = 0; i < man.count; i++) expect(man.depth[i]).toBeLessThan(0.0011);
    }
  });

  it("keeps stable feature ids for a resting box across calls", () => {
    const m = grid(4);
    const a = run(new Box(0.5, 0.5, 0.5), pose(0.25, 0.499, 0.25), m, I).map((x) => [x.childB, Array.from(x.featureId.slice(0, x.count))]);
    const b = run(new Box(0.5, 0.5, 0.5), pose(0.2501, 0.4991, 0.2499), m, I).map((x) => [x.childB, Array.from(x.featureId.slice(0, x.count))]);
    expect(b).toEqual(a);
  });
});

describe("a convex beside a triangle gets the nearest feature's normal and depth, never the face's (issue 29, item 7)", () => {
  // Each shape's half-extent along x (its centre is placed that far, less the 2 mm overlap, beyond the face or edge).
  const shapes: [string, () => Parameters<typeof collideShapes>[0], number][] = [
    ["sphere", () => new Sphere(0.05), 0.05],
    ["capsule", () => new Capsule(0.03, 0.03), 0.03],
    ["cylinder", () => new Cylinder(0.03, 0.04), 0.03],
    ["box", () => new Box(0.02, 0.05, 0.05), 0.02],
    ["hull", () => new ConvexHull([-0.02, -0.05, -0.05, 0.02, -0.05, -0.05, -0.02, 0.05, -0.05, 0.02, 0.05, -0.05, -0.02, -0.05, 0.05, 0.02, -0.05, 0.05, -0.02, 0.05, 0.05, 0.02, 0.05, 0.05]), 0.02],
  ];
  /** The deepest contact and the least |normal . axis| among the penetrating contacts of all manifolds. */
  function worst(ms: ContactManifold[], ax: number, ay: number): { depth: number; align: number } {
    let depth = 0,
      align = 1;
    for (const m of ms)
      for (let i = 0; i < m.count; i++) {
        if (m.depth[i] <= 0) continue;
        depth = Math.max(depth, m.depth[i]);
        align = Math.min(align, Math.abs(m.normalX * ax + m.normalY * ay));
      }
    return { depth, align };
  }
  for (const [name, make, hx] of shapes) {
    it(`${name}: sunk 2 mm into a closed mesh cube's side, reaching 2-5 cm above its top: pushed out along the side's normal`, () => {
      // Cube [-0.1, 0.1]^3; the shape's centre 1 cm below the top, 2 mm into the +x face.
      const ms = run(make(), pose(0.1 + hx - 0.002, 0.09, 0), boxMesh(0.1, 0.1, 0.1), I, 0.01);
      const w = worst(ms, 1, 0);
      // The overlap is 2 mm along x (the sphere also overlaps the top edge by 1 mm, along (0.98, -0.2)). The top
      // face's normal claimed 1-5 cm along y: the shape's extent below the top plane.
      expect(w.depth).toBeGreaterThan(0.0019);
      expect(w.depth).toBeLessThan(0.002 + 1e-6);
      expect(w.align).toBeGreaterThan(0.97);
    });
    it(`${name}: beside a heightfield's free edge, its centre 1 cm over the surface: no face-normal depth`, () => {
      // A flat 1 x 1 m heightfield at y = 0, x in [-0.5, 0.5], cells of 0.25 m; the shape, reaching 3-4 cm below the
      // surface beyond it, overlaps the edge x = 0.5 by at most 2 mm along x, between two of the edge's vertices. (At
      // a vertex, the triangle that meets the edge only there has no active edge of its own and still takes its face
      // normal: not fixed here.)
      const hf = new Heightfield(1, 1, 5, 5, new Float64Array(25));
      const ms = run(make(), pose(0.5 + hx - 0.002, 0.01, 0.125), hf, I, 0.01);
      const w = worst(ms, 1, 0);
      // Nothing is deeper than the 2 mm of overlap with the edge (the face normal claimed up to 4 cm, the shape's
      // extent below the surface), and what penetrates is pushed off the edge, not up through the face.
      expect(w.depth).toBeLessThan(0.002 + 1e-6);
      if (w.depth > 0) expect(w.align).toBeGreaterThan(0.7);
    });
  }
});
