import { describe, expect, it } from "vitest";
import { collideBoxBox } from "../../src/collision/boxBox";
import { ContactManifold } from "../../src/collision/contactManifold";
import { Box } from "../../src/shapes/box";
import { contacts, expectVec, normal, pointOnA, pointOnB, pose, sorted } from "./helpers";

describe("collideBoxBox", () => {
  const m = new ContactManifold();
  const floor = new Box(5, 0.5, 5);
  const cube = new Box(0.5, 0.5, 0.5);

  it("box resting on a floor box: 4 contacts at the corners", () => {
    collideBoxBox(floor, pose(0, 0, 0), cube, pose(1, 0.99, 2), 0, m);
    expect(m.count).toBe(4);
    expectVec(normal(m), [0, 1, 0]);
    const c = sorted(m);
    const corners = [
      [0.5, 1.5],
      [0.5, 2.5],
      [1.5, 1.5],
      [1.5, 2.5],
    ];
    for (let i = 0; i < 4; i++) {
      expectVec([c[i].x, c[i].y, c[i].z], [corners[i][0], 0.495, corners[i][1]]);
      expect(c[i].depth).toBeCloseTo(0.01, 12);
    }
    expect(new Set(c.map((p) => p.id)).size).toBe(4);
    // Midpoint convention: A's point is on the cube's bottom (0.49), B's on the floor top (0.5)... A is the floor.
    expectVec(pointOnA(m, 0).map((v, i) => (i === 1 ? v : 0)) as [number, number, number], [0, 0.5, 0]);
    expectVec(pointOnB(m, 0).map((v, i) => (i === 1 ? v : 0)) as [number, number, number], [0, 0.49, 0]);
  });

  it("box 0.3 m above the floor: 4 speculative contacts with depth -0.3 (margin 0.5); none with margin 0.25", () => {
    collideBoxBox(floor, pose(0, 0, 0), cube, pose(0, 1.3, 0), 0.5, m);
    expect(m.count).toBe(4);
    expectVec(normal(m), [0, 1, 0]);
    for (const p of contacts(m)) {
      expect(p.depth).toBeCloseTo(-0.3, 12);
      expect(p.y).toBeCloseTo(0.65, 12);
      expect(Math.abs(p.x)).toBeCloseTo(0.5, 12);
      expect(Math.abs(p.z)).toBeCloseTo(0.5, 12);
    }
    collideBoxBox(floor, pose(0, 0, 0), cube, pose(0, 1.3, 0), 0.25, m);
    expect(m.count).toBe(0);
  });

  it("swapped order: the normal flips, contacts are the same", () => {
    collideBoxBox(cube, pose(1, 0.99, 2), floor, pose(0, 0, 0), 0, m);
    expect(m.count).toBe(4);
    expectVec(normal(m), [0, -1, 0]);
    const c = sorted(m);
    expectVec([c[0].x, c[0].y, c[0].z], [0.5, 0.495, 1.5]);
    expectVec([c[3].x, c[3].y, c[3].z], [1.5, 0.495, 2.5]);
    for (const p of c) expect(p.depth).toBeCloseTo(0.01, 12);
  });

  it("partial overlap: 4 contacts at the corners of the overlap rectangle", () => {
    const slab = new Box(1, 0.5, 1);
    collideBoxBox(slab, pose(0, 0, 0), slab, pose(1.5, 0.98, 0.5), 0, m);
    expect(m.count).toBe(4);
    expectVec(normal(m), [0, 1, 0]);
    const c = sorted(m);
    const corners = [
      [0.5, -0.5],
      [0.5, 1],
      [1, -0.5],
      [1, 1],
    ];
    for (let i = 0; i < 4; i++) {
      expectVec([c[i].x, c[i].y, c[i].z], [corners[i][0], 0.49, corners[i][1]]);
      expect(c[i].depth).toBeCloseTo(0.02, 12);
    }
  });

  it("box turned 45 degrees about the vertical: contacts at its rotated corners", () => {
    collideBoxBox(floor, pose(0, 0, 0), cube, pose(0, 0.99, 0, 0, 1, 0, Math.PI / 4), 0, m);
    expect(m.count).toBe(4);
    const r = Math.SQRT1_2;
    const c = sorted(m);
    const expected = [
      [-r, 0],
      [0, -r],
      [0, r],
      [r, 0],
    ];
    for (let i = 0; i < 4; i++) {
      expectVec([c[i].x, c[i].y, c[i].z], [expected[i][0], 0.495, expected[i][1]]);
      expect(c[i].depth).toBeCloseTo(0.01, 12);
    }
  });

  it("equal boxes turned 45 degrees: the octagon is reduced to 4 contacts spanning it", () => {
    collideBoxBox(cube, pose(0, 0, 0), cube, pose(0, 0.99, 0, 0, 1, 0, Math.PI / 4), 0, m);
    expect(m.count).toBe(4);
    const c = contacts(m);
    expect(new Set(c.map((p) => p.id)).size).toBe(4);
    for (const p of c) {
      expect(p.depth).toBeCloseTo(0.01, 12);
      // Every octagon vertex lies on the reference square's boundary.
      expect(Math.max(Math.abs(p.x), Math.abs(p.z))).toBeCloseTo(0.5, 9);
    }
    // Max-area choice: the 4 points span a quadrilateral of area well above half the octagon's.
    const pts = c.map((p) => [p.x, p.z]);
    const cx = pts.reduce((s, p) => s + p[0], 0) / 4,
      cz = pts.reduce((s, p) => s + p[1], 0) / 4;
    pts.sort((p, q) => Math.atan2(p[1] - cz, p[0] - cx) - Math.atan2(q[1] - cz, q[0] - cx));
    let area = 0;
    for (let i = 0; i < 4; i++) {
      const p = pts[i],
        q = pts[(i + 1) % 4];
      area += p[0] * q[1] - q[0] * p[1];
    }
    area = Math.abs(area) / 2;
    const octagon = 1 - 4 * 0.5 * (0.5 * Math.SQRT2 - 0.5) ** 2; // square minus 4 corner triangles
    expect(area).toBeGreaterThan(0.6 * octagon);
  });

  it("box balanced on an edge: 2 contacts at the ends of the edge", () => {
    const h = 0.5 * Math.SQRT2;
    collideBoxBox(floor, pose(0, 0, 0), cube, pose(0.2, 0.5 + h - 0.01, 0, 0, 0, 1, Math.PI / 4), 0.1, m);
    expect(m.count).toBe(2);
    expectVec(normal(m), [0, 1, 0]);
    const c = sorted(m);
    expectVec([c[0].x, c[0].y, c[0].z], [0.2, 0.495, -0.5]);
    expectVec([c[1].x, c[1].y, c[1].z], [0.2, 0.495, 0.5]);
    for (const p of c) expect(p.depth).toBeCloseTo(0.01, 9);
  });

  it("small box tilted 5 degrees on a big floor: the floor's normal in both argument orders", () => {
    const t = (5 * Math.PI) / 180;
    const y = 0.5 + 0.5 * Math.cos(t) + 0.5 * Math.sin(t) - 0.01;
    const p = pose(0, y, 0, 0, 0, 1, t);
    collideBoxBox(floor, pose(0, 0, 0), cube, p, 0.05, m);
    expect(m.count).toBe(2);
    expectVec(normal(m), [0, 1, 0]);
    for (const c of contacts(m)) expect(c.depth).toBeCloseTo(0.01, 9);
    collideBoxBox(cube, p, floor, pose(0, 0, 0), 0.05, m);
    expect(m.count).toBe(2);
    expectVec(normal(m), [0, -1, 0]);
    for (const c of contacts(m)) expect(c.depth).toBeCloseTo(0.01, 9);
  });

  it("box balanced on a vertex: 1 contact at the vertex", () => {
    // Rotation taking the corner direction (1,1,1)/sqrt3 to -Y.
    const u = [1 / Math.sqrt(3), 1 / Math.sqrt(3), 1 / Math.sqrt(3)];
    // axis = u x (-Y) = (u_z, 0, -u_x), angle = acos(u . -Y).
    const angle = Math.acos(-u[1]);
    const p = pose(-0.3, 0.5 + 0.5 * Math.sqrt(3) - 0.02, 0.4, u[2], 0, -u[0], angle);
    collideBoxBox(floor, pose(0, 0, 0), cube, p, 0.1, m);
    expect(m.count).toBe(1);
    expectVec(normal(m), [0, 1, 0]);
    expectVec([m.positionX[0], m.positionY[0], m.positionZ[0]], [-0.3, 0.49, 0.4], 9);
    expect(m.depth[0]).toBeCloseTo(0.02, 9);
  });

  it("edge on crossed edge: 1 contact at the closest points of the edges", () => {
    const h = 0.5 * Math.SQRT2;
    // A turned about Z: top edge along Z at y = h. B turned about X: bottom edge along X at y = 2h - 0.02 - h.
    const pa = pose(0, 0, 0, 0, 0, 1, Math.PI / 4);
    const pb = pose(0.1, 2 * h - 0.02, -0.15, 1, 0, 0, Math.PI / 4);
    collideBoxBox(cube, pa, cube, pb, 0, m);
    expect(m.count).toBe(1);
    expectVec(normal(m), [0, 1, 0], 9);
    expect(m.depth[0]).toBeCloseTo(0.02, 9);
    // A's edge is x = 0, z free; B's edge is z = -0.15, x free: they cross at (0, ., -0.15).
    expectVec([m.positionX[0], m.positionY[0], m.positionZ[0]], [0, h - 0.01, -0.15], 9);
    // Speculative edge-edge: 0.1 apart, margin 0.2.
    pb.py = 2 * h + 0.1;
    collideBoxBox(cube, pa, cube, pb, 0.2, m);
    expect(m.count).toBe(1);
    expect(m.depth[0]).toBeCloseTo(-0.1, 9);
    collideBoxBox(cube, pa, cube, pb, 0.05, m);
    expect(m.count).toBe(0);
  });

  it("feature ids are the same for two slightly different poses of a resting box", () => {
    const ids = (pb: ReturnType<typeof pose>, swap: boolean): number[] => {
      if (swap) collideBoxBox(cube, pb, floor, pose(0, 0, 0), 0.05, m);
      else collideBoxBox(floor, pose(0, 0, 0), cube, pb, 0.05, m);
      expect(m.count).toBe(4);
      return sorted(m).map((p) => p.id);
    };
    for (const swap of [false, true]) {
      const a = ids(pose(0.3, 0.99, -0.2, 0, 1, 0, 0.2), swap);
      const b = ids(pose(0.3012, 0.9893, -0.2007, 0.02, 1, -0.01, 0.2035), swap);
      expect(b).toEqual(a);
      expect(new Set(a).size).toBe(4);
    }
  });

  it("corner passing corner (faces do not overlap laterally): one conservative speculative contact", () => {
    // Gaps 0.2 in x and 0.05 in y; true distance sqrt(0.2^2 + 0.05^2) = 0.206; SAT axis x with 0.2.
    collideBoxBox(cube, pose(0, 0, 0), cube, pose(1.2, 1.05, 0), 0.3, m);
    expect(m.count).toBe(1);
    expectVec(normal(m), [1, 0, 0]);
    expect(m.depth[0]).toBeCloseTo(-0.2, 12);
    // Under B's lowest corner of the incident face, clamped onto A's +x face: (0.5, 0.5, z).
    expect(m.positionX[0]).toBeCloseTo(0.6, 12);
    expect(m.positionY[0]).toBeCloseTo(0.5, 12);
    collideBoxBox(cube, pose(0, 0, 0), cube, pose(1.2, 1.05, 0), 0.15, m);
    expect(m.count).toBe(0);
  });

  it("far apart gives nothing", () => {
    collideBoxBox(cube, pose(0, 0, 0), cube, pose(3, 0.2, 0.1, 1, 1, 0, 0.7), 0.5, m);
    expect(m.count).toBe(0);
  });
});
