import { describe, expect, it } from "vitest";
import { ContactManifold } from "../../src/collision/contactManifold";
import { collideCapsuleBox } from "../../src/collision/capsuleBox";
import { Box } from "../../src/shapes/box";
import { Capsule } from "../../src/shapes/capsule";
import { alongX, alongZ, expectVec, normal, pose, poseAlong, sorted } from "./helpers";

describe("collideCapsuleBox", () => {
  const m = new ContactManifold();
  const cap = new Capsule(0.25, 1);
  const slab = new Box(5, 0.5, 5);
  const cube = new Box(0.5, 0.5, 0.5);

  it("capsule lying on a face: two contacts at the segment ends", () => {
    // Capsule bottom at 0.73 - 0.25 = 0.48, slab top at 0.5 -> depth 0.02.
    collideCapsuleBox(cap, alongX(0.3, 0.73, -1), slab, pose(0, 0, 0), 0, m);
    expect(m.count).toBe(2);
    expectVec(normal(m), [0, -1, 0]);
    const c = sorted(m);
    expectVec([c[0].x, c[0].y, c[0].z], [-0.7, 0.49, -1]);
    expectVec([c[1].x, c[1].y, c[1].z], [1.3, 0.49, -1]);
    for (const p of c) expect(p.depth).toBeCloseTo(0.02, 12);
    expect(c[0].id).not.toBe(c[1].id);
  });

  it("lying 0.3 m above a face: two speculative contacts with depth -0.3 (margin 0.5), none with margin 0.2", () => {
    collideCapsuleBox(cap, alongZ(0, 1.05, 0), slab, pose(0, 0, 0), 0.5, m);
    expect(m.count).toBe(2);
    expectVec(normal(m), [0, -1, 0]);
    const c = sorted(m);
    expect(c[0].z).toBeCloseTo(-1, 12);
    expect(c[1].z).toBeCloseTo(1, 12);
    for (const p of c) {
      expect(p.depth).toBeCloseTo(-0.3, 12);
      expect(p.y).toBeCloseTo(0.65, 12);
    }
    collideCapsuleBox(cap, alongZ(0, 1.05, 0), slab, pose(0, 0, 0), 0.2, m);
    expect(m.count).toBe(0);
  });

  it("overhanging the face: the segment is clipped to the face", () => {
    // Segment x in [-0.5, 1.5] over a cube face x in [-0.5, 0.5].
    collideCapsuleBox(cap, alongX(0.5, 0.74, 0), cube, pose(0, 0, 0), 0, m);
    expect(m.count).toBe(2);
    const c = sorted(m);
    expect(c[0].x).toBeCloseTo(-0.5, 12);
    expect(c[1].x).toBeCloseTo(0.5, 12);
    for (const p of c) expect(p.depth).toBeCloseTo(0.01, 12);
  });

  it("standing upright: one contact under the bottom cap", () => {
    collideCapsuleBox(cap, pose(0.2, 0.5 + 1 + 0.25 - 0.03, 0.1), slab, pose(0, 0, 0), 0.1, m);
    expect(m.count).toBe(1);
    expectVec(normal(m), [0, -1, 0]);
    expect(m.depth[0]).toBeCloseTo(0.03, 12);
    expectVec([m.positionX[0], m.positionY[0], m.positionZ[0]], [0.2, 0.485, 0.1]);
  });

  it("tilted: only the low end within the margin", () => {
    // Tilted 30 degrees from horizontal about Z: ends at heights y0 -/+ 0.5.
    const p = pose(0, 0.5 + 0.25 + 0.5 - 0.01, 0, 0, 0, 1, -Math.PI / 2 + Math.PI / 6);
    collideCapsuleBox(cap, p, slab, pose(0, 0, 0), 0.2, m);
    expect(m.count).toBe(1);
    expect(m.depth[0]).toBeCloseTo(0.01, 12);
    expect(m.positionX[0]).toBeCloseTo(-Math.cos(Math.PI / 6), 12);
  });

  it("resting along a box edge (separated, speculative): two contacts with the diagonal normal", () => {
    // Cube edge along Z at (0.5, 0.5); capsule core 0.3 away along (1,1,0)/sqrt2, r 0.25 -> gap 0.05.
    const k = 0.5 + 0.3 / Math.SQRT2;
    collideCapsuleBox(cap, alongZ(k, k, 0), cube, pose(0, 0, 0), 0.1, m);
    const s = -1 / Math.SQRT2;
    expectVec(normal(m), [s, s, 0]);
    expect(m.count).toBe(2);
    const c = sorted(m);
    expect(c[0].z).toBeCloseTo(-0.5, 12);
    expect(c[1].z).toBeCloseTo(0.5, 12);
    for (const p of c) expect(p.depth).toBeCloseTo(-0.05, 12);
  });

  it("crossing a box edge: one contact at the edge, diagonal normal", () => {
    // Cube edge along X at (y, z) = (0.5, 0.5); capsule axis (1, 1, -1)/sqrt3 lies in the plane
    // perpendicular to the diagonal (0, 1, 1), core 0.2 from the edge, r 0.25 -> depth 0.05.
    const d = 0.2 / Math.SQRT2;
    collideCapsuleBox(cap, poseAlong(0, 0.5 + d, 0.5 + d, 1, 1, -1), cube, pose(0, 0, 0), 0, m);
    expect(m.count).toBe(1);
    const s = -1 / Math.SQRT2;
    expectVec(normal(m), [0, s, s]);
    expect(m.depth[0]).toBeCloseTo(0.05, 12);
    const k = 0.5 + d - 0.225 / Math.SQRT2;
    expectVec([m.positionX[0], m.positionY[0], m.positionZ[0]], [0, k, k]);
  });

  it("core crossing a box edge: SAT edge axis, one contact", () => {
    // Same capsule pushed 0.1 into the edge: the core crosses the corner region of the box.
    const d = -0.1 / Math.SQRT2;
    collideCapsuleBox(cap, poseAlong(0, 0.5 + d, 0.5 + d, 1, 1, -1), cube, pose(0, 0, 0), 0, m);
    expect(m.count).toBe(1);
    const s = -1 / Math.SQRT2;
    expectVec(normal(m), [0, s, s]);
    expect(m.depth[0]).toBeCloseTo(0.35, 12);
  });

  it("core inside the box: SAT picks the face, two deep contacts", () => {
    collideCapsuleBox(cap, alongX(0, 0.45, 0), new Box(2, 0.5, 2), pose(0, 0, 0), 0, m);
    expect(m.count).toBe(2);
    expectVec(normal(m), [0, -1, 0]);
    for (const p of sorted(m)) expect(p.depth).toBeCloseTo(0.3, 12);
  });

  it("rotated box: capsule lying across the top of a box turned 90 degrees about Y", () => {
    collideCapsuleBox(cap, alongX(0, 0.74, 0), cube, pose(0, 0, 0, 0, 1, 0, Math.PI / 2), 0, m);
    expect(m.count).toBe(2);
    expectVec(normal(m), [0, -1, 0], 9);
    const c = sorted(m);
    expect(c[0].x).toBeCloseTo(-0.5, 9);
    expect(c[1].x).toBeCloseTo(0.5, 9);
  });

  it("beyond the margin gives nothing", () => {
    collideCapsuleBox(cap, alongX(0, 2, 0), cube, pose(0, 0, 0), 0.5, m);
    expect(m.count).toBe(0);
  });
});
