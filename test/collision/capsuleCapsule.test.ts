import { describe, expect, it } from "vitest";
import { ContactManifold } from "../../src/collision/contactManifold";
import { collideCapsuleCapsule } from "../../src/collision/capsuleCapsule";
import { Capsule } from "../../src/shapes/capsule";
import { alongX, alongZ, contacts, expectVec, normal, pose, sorted } from "./helpers";

describe("collideCapsuleCapsule", () => {
  const m = new ContactManifold();
  const a = new Capsule(0.25, 1);
  const b = new Capsule(0.25, 1);

  it("crossed capsules: one contact at the crossing", () => {
    // A along X at the origin, B along Z above it; axes 0.4 apart, radii sum 0.5 -> depth 0.1.
    collideCapsuleCapsule(a, alongX(0, 0, 0), b, alongZ(0.3, 0.4, -0.2), 0, m);
    expect(m.count).toBe(1);
    expectVec(normal(m), [0, 1, 0]);
    expect(m.depth[0]).toBeCloseTo(0.1, 12);
    expectVec([m.positionX[0], m.positionY[0], m.positionZ[0]], [0.3, 0.2, 0]);
  });

  it("parallel and overlapping along their length: two contacts at the ends of the overlap", () => {
    // B shifted by 0.5 along X: on A's axis the overlap is [-0.5, 1].
    collideCapsuleCapsule(a, alongX(0, 0, 0), b, alongX(0.5, 0.45, 0), 0, m);
    expect(m.count).toBe(2);
    expectVec(normal(m), [0, 1, 0]);
    const c = sorted(m);
    expect(c[0].x).toBeCloseTo(-0.5, 12);
    expect(c[1].x).toBeCloseTo(1, 12);
    for (const p of c) {
      expect(p.depth).toBeCloseTo(0.05, 12);
      expect(p.y).toBeCloseTo(0.225, 12);
      expect(p.z).toBeCloseTo(0, 12);
    }
    expect(c[0].id).not.toBe(c[1].id);
  });

  it("parallel and speculative: two contacts with negative depth", () => {
    collideCapsuleCapsule(a, alongX(0, 0, 0), b, alongX(-0.25, 0.7, 0), 0.3, m);
    expect(m.count).toBe(2);
    for (const p of sorted(m)) expect(p.depth).toBeCloseTo(-0.2, 12);
    collideCapsuleCapsule(a, alongX(0, 0, 0), b, alongX(-0.25, 0.7, 0), 0.15, m);
    expect(m.count).toBe(0);
  });

  it("collinear end to end: one contact between the caps", () => {
    collideCapsuleCapsule(a, alongX(0, 0, 0), b, alongX(2.4, 0, 0), 0, m);
    expect(m.count).toBe(1);
    expectVec(normal(m), [1, 0, 0]);
    expect(m.depth[0]).toBeCloseTo(0.1, 12);
    expect(m.positionX[0]).toBeCloseTo(1.2, 12);
  });

  it("swapping the arguments flips the normal", () => {
    collideCapsuleCapsule(b, alongZ(0.3, 0.4, -0.2), a, alongX(0, 0, 0), 0, m);
    expect(m.count).toBe(1);
    expectVec(normal(m), [0, -1, 0]);
    expect(m.depth[0]).toBeCloseTo(0.1, 12);
  });

  it("crossing at a small angle: one contact when the ends diverge, two when nearly parallel", () => {
    // B along X yawed about Y: the axes cross at the origin, 0.45 apart in Y.
    const yawed = (deg: number): ReturnType<typeof pose> => {
      const p = pose(0, 0.45, 0, 0, 1, 0, (deg * Math.PI) / 180);
      const lay = alongX(0, 0, 0);
      return p.compose(p, 0, 0, 0, lay.qx, lay.qy, lay.qz, lay.qw);
    };
    const long = new Capsule(0.25, 3);
    // 5 degrees over +-3 m: the ends are 0.26 m apart sideways, so only the crossing touches.
    collideCapsuleCapsule(long, alongX(0, 0, 0), long, yawed(5), 0.1, m);
    expect(m.count).toBe(1);
    expect(m.depth[0]).toBeCloseTo(0.05, 12);
    expectVec([m.positionX[0], m.positionY[0], m.positionZ[0]], [0, 0.225, 0]);
    // 0.5 degree over +-1 m: the surfaces stay within millimetres; two supporting contacts.
    collideCapsuleCapsule(a, alongX(0, 0, 0), b, yawed(0.5), 0.1, m);
    expect(m.count).toBe(2);
    expectVec(normal(m), [0, 1, 0]);
    for (const p of contacts(m)) expect(p.depth).toBeCloseTo(0.05, 9);
  });

  it("intersecting cores still give a unit normal from A toward B", () => {
    collideCapsuleCapsule(a, alongX(0, 0, 0), b, alongZ(0, 0, 0.5), 0, m);
    expect(m.count).toBe(1);
    expect(Math.hypot(...normal(m))).toBeCloseTo(1, 12);
    expect(m.depth[0]).toBeCloseTo(0.5, 12);
  });

  it("far apart gives nothing", () => {
    collideCapsuleCapsule(a, alongX(0, 0, 0), b, alongZ(0, 2, 0), 1, m);
    expect(m.count).toBe(0);
  });
});
