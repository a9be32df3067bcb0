import { describe, expect, it } from "vitest";
import { Pose } from "../../src/math/pose";
import { pointInShape, rayCastShape, RayHit } from "../../src/queries/rayShape";
import { Box } from "../../src/shapes/box";
import { Capsule } from "../../src/shapes/capsule";
import { Compound } from "../../src/shapes/compound";
import { Cylinder } from "../../src/shapes/cylinder";
import type { Shape } from "../../src/shapes/shape";
import { Sphere } from "../../src/shapes/sphere";

const EPS = 1e-9;
const S = Math.sqrt(0.5);

/** Pose at p rotated by `angle` radians about the unit axis a. */
function poseOf(px: number, py: number, pz: number, ax = 0, ay = 1, az = 0, angle = 0): Pose {
  const s = Math.sin(angle / 2);
  return new Pose().set(px, py, pz, ax * s, ay * s, az * s, Math.cos(angle / 2));
}

const hit = new RayHit();

function cast(shape: Shape, pose: Pose, o: number[], d: number[], maxT = Infinity): boolean {
  hit.childIndex = -7;
  return rayCastShape(shape, pose, o[0], o[1], o[2], d[0], d[1], d[2], maxT, hit);
}

function expectHit(shape: Shape, pose: Pose, o: number[], d: number[], t: number, n: number[], child = -1, maxT = Infinity): void {
  expect(cast(shape, pose, o, d, maxT)).toBe(true);
  expect(Math.abs(hit.t - t)).toBeLessThan(EPS);
  expect(Math.abs(hit.normalX - n[0])).toBeLessThan(EPS);
  expect(Math.abs(hit.normalY - n[1])).toBeLessThan(EPS);
  expect(Math.abs(hit.normalZ - n[2])).toBeLessThan(EPS);
  expect(hit.childIndex).toBe(child);
}

function expectMiss(shape: Shape, pose: Pose, o: number[], d: number[], maxT = Infinity): void {
  hit.t = 12345;
  expect(cast(shape, pose, o, d, maxT)).toBe(false);
  expect(hit.t).toBe(12345); // out untouched on a miss
}

describe("rayCastShape: sphere", () => {
  const sphere = new Sphere(2);
  const pose = poseOf(1, 2, 3);

  it("hits from all six axis directions with t in units of d", () => {
    const dirs = [
      [1, 0, 0],
      [-1, 0, 0],
      [0, 1, 0],
      [0, -1, 0],
      [0, 0, 1],
      [0, 0, -1],
    ];
    for (const u of dirs) {
      // Origin 10 units from the centre against u; d = 2.5 u so t = (10 - 2) / 2.5.
      const o = [1 - 10 * u[0], 2 - 10 * u[1], 3 - 10 * u[2]];
      const d = [2.5 * u[0], 2.5 * u[1], 2.5 * u[2]];
      expectHit(sphere, pose, o, d, 8 / 2.5, [-u[0], -u[1], -u[2]]);
    }
  });

  it("off-centre hit has the radial normal", () => {
    // Ray along +X at height 1 above the centre: enters at x = cx - sqrt(3).
    expectHit(sphere, pose, [-9, 3, 3], [1, 0, 0], 10 - Math.sqrt(3), [-Math.sqrt(3) / 2, 0.5, 0]);
  });

  it("diagonal direction", () => {
    const k = 1 / Math.sqrt(3);
    expectHit(sphere, pose, [1 - 10 * k, 2 - 10 * k, 3 - 10 * k], [k, k, k], 8, [-k, -k, -k]);
  });

  it("misses sideways, behind, and beyond maxT", () => {
    expectMiss(sphere, pose, [-9, 4.0001, 3], [1, 0, 0]);
    expectMiss(sphere, pose, [-9, 2, 3], [-1, 0, 0]);
    expectMiss(sphere, pose, [-9, 2, 3], [1, 0, 0], 7.999);
    expectHit(sphere, pose, [-9, 2, 3], [1, 0, 0], 8, [-1, 0, 0], -1, 8);
  });

  it("a ray starting inside, or on the surface heading out, does not hit", () => {
    expectMiss(sphere, pose, [1, 2, 3], [1, 0, 0]);
    expectMiss(sphere, pose, [2.5, 2, 3], [-1, 0, 0]);
    expectMiss(sphere, pose, [3, 2, 3], [1, 0, 0]);
    expectMiss(sphere, pose, [3, 2, 3], [0, 1, 0]); // on the surface, tangent
  });

  it("a ray starting on the surface heading in hits at t = 0", () => {
    expectHit(sphere, pose, [3, 2, 3], [-1, 0.5, 0], 0, [1, 0, 0]);
    expect(Object.is(hit.t, 0)).toBe(true);
  });

  it("zero direction and negative maxT miss", () => {
    expectMiss(sphere, pose, [-9, 2, 3], [0, 0, 0]);
    expectMiss(sphere, pose, [-9, 2, 3], [1, 0, 0], -1);
  });
});

describe("rayCastShape: box", () => {
  const box = new Box(1, 2, 3);
  const pose = poseOf(5, 0, 0);

  it("hits each face with its normal", () => {
    expectHit(box, pose, [-5, 0.5, 0.5], [1, 0, 0], 9, [-1, 0, 0]);
    expectHit(box, pose, [15, 0.5, 0.5], [-2, 0, 0], 4.5, [1, 0, 0]);
    expectHit(box, pose, [5.5, -10, 0.5], [0, 1, 0], 8, [0, -1, 0]);
    expectHit(box, pose, [5.5, 10, 0.5], [0, -1, 0], 8, [0, 1, 0]);
    expectHit(box, pose, [5.5, 0.5, -10], [0, 0, 0.5], 14, [0, 0, -1]);
    expectHit(box, pose, [5.5, 0.5, 10], [0, 0, -1], 7, [0, 0, 1]);
  });

  it("oblique ray reports the face it enters through", () => {
    // From (0, 5, 0) toward (5.5, 2, 0): crosses y = 2 at x = 5 + 0.5 * (3/3)... check analytically.
    // Direction (1, -1, 0): y = 2 reached at t = 3 (x = 3, outside), x = 4 reached at t = 4 (y = 1, inside).
    expectHit(box, pose, [0, 5, 0], [1, -1, 0], 4, [-1, 0, 0]);
    // Direction (1, -2, 0): x = 4 at t = 4 (y = -3, outside); y = 2 at t = 1.5 (x = 1.5, outside);
    // enters at max(4, 1.5) = 4 but exits y = -2 at t = 3.5 < 4: miss.
    expectMiss(box, pose, [0, 5, 0], [1, -2, 0]);
    // Direction (2, -1, 0): y = 2 at t = 3 (x = 6, on top face), x = 4 at t = 2: enters the top face.
    expectHit(box, pose, [0, 5, 0], [2, -1, 0], 3, [0, 1, 0]);
  });

  it("box rotated 45 degrees about Y hit along X: t = distance - halfX * sqrt(2)", () => {
    const rotated = poseOf(5, 0, 0, 0, 1, 0, Math.PI / 4);
    // Local +X maps to (S, 0, -S) in world, so the -X face faces (-S, 0, S) and is entered first
    // (halfZ = 3 > halfX keeps the hit on that face, away from the edges).
    expectHit(box, rotated, [-5, 0, 0], [1, 0, 0], 10 - Math.SQRT2, [-S, 0, S]);
    // Rotated the other way the face normal mirrors in Z.
    const rotatedBack = poseOf(5, 0, 0, 0, 1, 0, -Math.PI / 4);
    expectHit(box, rotatedBack, [-5, 0, 0], [1, 0, 0], 10 - Math.SQRT2, [-S, 0, -S]);
  });

  it("box rotated 90 degrees about X swaps its Y and Z extents", () => {
    const p = poseOf(0, 0, 0, 1, 0, 0, Math.PI / 2);
    expectHit(box, p, [0, 10, 0], [0, -1, 0], 7, [0, 1, 0]);
    expectHit(box, p, [0, 0, -10], [0, 0, 1], 8, [0, 0, -1]);
  });

  it("rays parallel to a face outside its slab miss", () => {
    expectMiss(box, pose, [-5, 2.0001, 0], [1, 0, 0]);
    expectMiss(box, pose, [-5, 0, -3.0001], [1, 0, 0]);
    expectMiss(box, pose, [3.9999, -10, 0], [0, 1, 0]);
    expectMiss(box, pose, [-5, 3, 4], [1, 0, 0]);
  });

  it("maxT cuts the hit off", () => {
    expectMiss(box, pose, [-5, 0, 0], [1, 0, 0], 8.999999);
    expectHit(box, pose, [-5, 0, 0], [1, 0, 0], 9, [-1, 0, 0], -1, 9);
  });

  it("inside or on the surface heading out does not hit; on the surface heading in hits at 0", () => {
    expectMiss(box, pose, [5, 0, 0], [1, 0, 0]);
    expectMiss(box, pose, [5.9, 1.9, 2.9], [-1, -1, -1]);
    expectMiss(box, pose, [6, 0, 0], [1, 0, 0]);
    expectMiss(box, pose, [4, 0, 0], [-1, 0.3, 0]);
    expectHit(box, pose, [4, 0, 0], [1, 0, 0], 0, [-1, 0, 0]);
  });

  it("sliding along a face from its surface misses; grazing an edge from outside counts as a hit", () => {
    expectMiss(box, pose, [4, 0, 0], [0, 1, 0]);
    expectMiss(box, pose, [4, 2, 0], [0, 1, 0]);
    // Line through the edge x = 4, y = 2 only, touching at t = 1.
    expect(cast(box, pose, [3, 3, 0], [1, -1, 0])).toBe(true);
    expect(Math.abs(hit.t - 1)).toBeLessThan(EPS);
    // Either adjacent face normal is a valid answer on an edge.
    const n = [hit.normalX, hit.normalY, hit.normalZ].map((v) => Math.round(v * 1e9) / 1e9 + 0);
    expect([[-1, 0, 0], [0, 1, 0]]).toContainEqual(n);
  });

  it("box behind the origin misses", () => {
    expectMiss(box, pose, [10, 0, 0], [1, 0, 0]);
  });
});

describe("rayCastShape: capsule", () => {
  const cap = new Capsule(0.5, 1);
  const pose = poseOf(0, 0, 0);

  it("side hit has a radial normal", () => {
    expectHit(cap, pose, [5, 0.3, 0], [-1, 0, 0], 4.5, [1, 0, 0]);
    expectHit(cap, pose, [0, -0.9, -5], [0, 0, 2], 2.25, [0, 0, -1]);
  });

  it("hemisphere hits along the axis and off-axis", () => {
    expectHit(cap, pose, [0, 5, 0], [0, -1, 0], 3.5, [0, 1, 0]);
    expectHit(cap, pose, [0, -5, 0], [0, 1, 0], 3.5, [0, -1, 0]);
    // Straight down at x = 0.3: top sphere surface at y = 1 + 0.4.
    expectHit(cap, pose, [0.3, 10, 0], [0, -1, 0], 8.6, [0.6, 0.8, 0]);
  });

  it("horizontal ray above the segment end enters the hemisphere, not the side", () => {
    // The infinite cylinder is entered at y = 1.3 > halfLength; the sphere is entered at x = 0.4.
    expectHit(cap, pose, [5, 1.3, 0], [-1, 0, 0], 4.6, [0.8, 0.6, 0]);
    expectHit(cap, pose, [5, -1.3, 0], [-1, 0, 0], 4.6, [0.8, -0.6, 0]);
  });

  it("a ray passing the end beyond the hemisphere misses although it crosses the infinite cylinder", () => {
    // At y = 1.45 the hemisphere's radius is sqrt(0.25 - 0.2025) ~ 0.218 < 0.3.
    expectMiss(cap, pose, [5, 1.45, 0.3], [-1, 0, 0]);
    expectMiss(cap, pose, [5, 0, 0.5001], [-1, 0, 0]);
  });

  it("capsule lying along X (rotated about Z)", () => {
    const lying = poseOf(0, 1, 0, 0, 0, 1, Math.PI / 2);
    expectHit(cap, lying, [0.8, 10, 0], [0, -1, 0], 8.5, [0, 1, 0]);
    // Along the world X axis it now meets the -X hemisphere pole at x = -1.5.
    expectHit(cap, lying, [-10, 1, 0], [1, 0, 0], 8.5, [-1, 0, 0]);
  });

  it("rays parallel to the axis hit the hemisphere or miss", () => {
    expectHit(cap, pose, [0.3, -10, 0], [0, 1, 0], 8.6, [0.6, -0.8, 0]);
    expectMiss(cap, pose, [0.5001, -10, 0], [0, 1, 0]);
  });

  it("zero half length behaves as a sphere", () => {
    const ball = new Capsule(0.5, 0);
    expectHit(ball, pose, [0, 0.3, 5], [0, 0, -1], 5 - 0.4, [0, 0.6, 0.8]);
  });

  it("inside or on the surface heading out does not hit; heading in hits at 0", () => {
    expectMiss(cap, pose, [0, 1.2, 0], [0, 1, 0]);
    expectMiss(cap, pose, [0.2, 0, 0], [1, 0, 0]);
    expectMiss(cap, pose, [0, 1.5, 0], [0, 1, 0]);
    expectMiss(cap, pose, [0.5, 0, 0], [1, 0, 0]);
    expectMiss(cap, pose, [0.5, 0, 0], [0, 1, 0]); // on the side, sliding along it
    expectHit(cap, pose, [0.5, 0, 0], [-1, 0, 0], 0, [1, 0, 0]);
    expectHit(cap, pose, [0, 1.5, 0], [0, -1, 0], 0, [0, 1, 0]);
  });

  it("maxT cuts the hit off", () => {
    expectMiss(cap, pose, [5, 0.3, 0], [-1, 0, 0], 4.49);
  });
});

describe("rayCastShape: cylinder", () => {
  const cyl = new Cylinder(1, 2);
  const pose = poseOf(1, 1, 1);

  it("cap hits", () => {
    expectHit(cyl, pose, [1.3, 11, 1.2], [0, -2, 0], 4, [0, 1, 0]);
    expectHit(cyl, pose, [0.5, -9, 1.5], [0, 1, 0], 8, [0, -1, 0]);
    // Oblique: direction (1, -1, 0) from (-1, 5, 1) reaches the top plane y = 3 at x = 1 (disc centre).
    expectHit(cyl, pose, [-1, 5, 1], [1, -1, 0], 2, [0, 1, 0]);
  });

  it("side hits", () => {
    expectHit(cyl, pose, [-4, 2.5, 1], [1, 0, 0], 4, [-1, 0, 0]);
    expectHit(cyl, pose, [1, 0, 6], [0, 0, -1], 4, [0, 0, 1]);
    // Off-centre in Z: enters at x = 1 - sqrt(1 - 0.36) = 0.2, normal (-0.8, 0, 0.6).
    expectHit(cyl, pose, [-4, 1, 1.6], [1, 0, 0], 4.2, [-0.8, 0, 0.6]);
    // Oblique through the side: (1, -1, 0) from (-3, 3.5, 1) crosses x = 0 at y = 0.5 (|y - 1| < 2).
    expectHit(cyl, pose, [-3, 3.5, 1], [1, -1, 0], 3, [-1, 0, 0]);
  });

  it("ray grazing past the rim misses though it crosses both the infinite cylinder and the cap slab", () => {
    // Local line x + y = 3.02 (the rim corner (1, 2) has x + y = 3), direction (1, -1): inside the cap
    // slab only for x in [1.02, 5.02] and inside the infinite cylinder only for x in [-1, 1].
    expectMiss(cyl, pose, [1 - 1, 1 + 4.02, 1], [1, -1, 0]);
    expectMiss(cyl, pose, [1 + 4.02, 1 - 1, 1], [-1, 1, 0]);
    // The same line shifted just inside the rim (local x + y = 2.98) hits the top cap at x = 0.98.
    expectHit(cyl, pose, [1 - 1, 1 + 3.98, 1], [1, -1, 0], 1.98, [0, 1, 0]);
  });

  it("rays parallel to the axis and to the caps", () => {
    expectMiss(cyl, pose, [2.0001, -10, 1], [0, 1, 0]);
    expectHit(cyl, pose, [1.9999, -10, 1], [0, 1, 0], 9, [0, -1, 0]);
    expectMiss(cyl, pose, [-5, 3.0001, 1], [1, 0, 0]);
    expectMiss(cyl, pose, [-5, -1.0001, 1], [1, 0, 0]);
  });

  it("lying cylinder (rotated 90 degrees about X): caps face Z", () => {
    const lying = poseOf(0, 0, 0, 1, 0, 0, Math.PI / 2);
    expectHit(cyl, lying, [0.2, 0.3, 10], [0, 0, -1], 8, [0, 0, 1]);
    expectHit(cyl, lying, [0, 10, 0.5], [0, -1, 0], 9, [0, 1, 0]);
  });

  it("inside or on the surface heading out does not hit; heading in hits at 0", () => {
    expectMiss(cyl, pose, [1, 1, 1], [0, 1, 0]);
    expectMiss(cyl, pose, [1, 3, 1], [0, 1, 0]);
    expectMiss(cyl, pose, [2, 1, 1], [1, 0, 0]);
    expectMiss(cyl, pose, [2, 1, 1], [0, 0, 1]); // on the side, tangent
    expectHit(cyl, pose, [1, 3, 1], [0.2, -1, 0], 0, [0, 1, 0]);
    expectHit(cyl, pose, [2, 1, 1], [-1, 0, 0], 0, [1, 0, 0]);
  });

  it("maxT cuts the hit off", () => {
    expectMiss(cyl, pose, [-4, 2.5, 1], [1, 0, 0], 3.999);
  });
});

describe("rayCastShape: compound", () => {
  const compound = new Compound([
    { shape: new Sphere(1) },
    { shape: new Box(0.5, 1, 1), position: { x: 3, y: 0, z: 0 } },
    {
      shape: new Cylinder(0.5, 1),
      position: { x: 0, y: 0, z: 3 },
      orientation: { x: Math.sin(Math.PI / 4), y: 0, z: 0, w: Math.cos(Math.PI / 4) }, // axis along Z
    },
  ]);
  const pose = poseOf(0, 0, 0);

  it("reports the nearest child and its index", () => {
    expectHit(compound, pose, [10, 0, 0], [-1, 0, 0], 6.5, [1, 0, 0], 1);
    expectHit(compound, pose, [-10, 0, 0], [1, 0, 0], 9, [-1, 0, 0], 0);
    expectHit(compound, pose, [0, 0, 10], [0, 0, -1], 6, [0, 0, 1], 2);
    expectHit(compound, pose, [3, 10, 0], [0, -1, 0], 9, [0, 1, 0], 1);
  });

  it("rotated and translated compound composes child poses", () => {
    // Turn 90 degrees about Y: local +X -> world -Z, local +Z -> world +X.
    const p = poseOf(1, 2, 3, 0, 1, 0, Math.PI / 2);
    // Box child now centred at (1, 2, 0); its local +X face points to world -Z.
    expectHit(compound, p, [1, 2, -10], [0, 0, 1], 10 - 0.5, [0, 0, -1], 1);
    // Cylinder child now at (4, 2, 3) with its axis along world X: cap at x = 5.
    expectHit(compound, p, [10, 2, 3], [-1, 0, 0], 5, [1, 0, 0], 2);
  });

  it("inside rule applies per child: a ray leaving one child hits the next", () => {
    // From the sphere's centre along +X: ignores the sphere, hits the box at x = 2.5.
    expectHit(compound, pose, [0, 0, 0], [1, 0, 0], 2.5, [-1, 0, 0], 1);
    // From inside the box toward -X: ignores the box, hits the sphere at x = 1.
    expectHit(compound, pose, [3, 0, 0], [-1, 0, 0], 2, [1, 0, 0], 0);
  });

  it("overlapping children: starting inside one still reports the other's entry", () => {
    const overlap = new Compound([
      { shape: new Box(1, 1, 1) },
      { shape: new Box(1, 1, 1), position: { x: 1.5, y: 0, z: 0 } },
    ]);
    expectHit(overlap, pose, [0, 0, 0], [1, 0, 0], 0.5, [-1, 0, 0], 1);
  });

  it("maxT prunes children and misses report false", () => {
    expectMiss(compound, pose, [10, 0, 0], [-1, 0, 0], 6);
    expectMiss(compound, pose, [10, 5, 0], [-1, 0, 0]);
    expectHit(compound, pose, [10, 0, 0], [-1, 0, 0], 6.5, [1, 0, 0], 1, 6.5);
  });

  it("ties keep the first child", () => {
    const twin = new Compound([{ shape: new Box(1, 1, 1) }, { shape: new Box(1, 1, 1) }]);
    expectHit(twin, pose, [5, 0, 0], [-1, 0, 0], 4, [1, 0, 0], 0);
  });
});

describe("pointInShape", () => {
  it("classifies points for each shape, boundary inclusive", () => {
    const p = poseOf(1, 0, 0, 0, 0, 1, Math.PI / 2); // local Y -> world -X
    expect(pointInShape(new Sphere(1), p, 2, 0, 0)).toBe(true);
    expect(pointInShape(new Sphere(1), p, 2.001, 0, 0)).toBe(false);
    const box = new Box(1, 2, 3);
    expect(pointInShape(box, p, 1 - 1.999, 0.999, 2.999)).toBe(true);
    expect(pointInShape(box, p, 1, 1.001, 0)).toBe(false);
    const cap = new Capsule(0.5, 1);
    expect(pointInShape(cap, p, 1 - 1.49, 0, 0)).toBe(true);
    expect(pointInShape(cap, p, 1 - 1.4, 0.3, 0)).toBe(true); // on the hemisphere
    expect(pointInShape(cap, p, 1 - 1.4, 0.31, 0)).toBe(false);
    expect(pointInShape(cap, p, 1 - 1.0, 0.5, 0)).toBe(true);
    const cyl = new Cylinder(0.5, 1);
    expect(pointInShape(cyl, p, 1 - 1.0, 0.49, 0)).toBe(true);
    expect(pointInShape(cyl, p, 1 - 1.01, 0, 0)).toBe(false);
    const compound = new Compound([{ shape: new Sphere(1) }, { shape: new Box(0.5, 0.5, 0.5), position: { x: 3, y: 0, z: 0 } }]);
    const id = poseOf(0, 0, 0);
    expect(pointInShape(compound, id, 3.4, 0.4, 0)).toBe(true);
    expect(pointInShape(compound, id, 2, 0, 0)).toBe(false);
    expect(pointInShape(compound, id, 0.5, 0.5, 0.5)).toBe(true);
  });
});

describe("rayCastShape: consistency with pointInShape on random rays", () => {
  // Deterministic LCG so failures reproduce.
  let seed = 12345;
  const rnd = (): number => {
    seed = (seed * 1664525 + 1013904223) >>> 0;
    return seed / 4294967296;
  };
  const shapes: Shape[] = [
    new Sphere(0.8),
    new Box(0.5, 1, 1.5),
    new Capsule(0.6, 0.9),
    new Cylinder(0.7, 1.1),
    new Compound([
      { shape: new Box(0.5, 0.5, 0.5) },
      { shape: new Capsule(0.3, 0.5), position: { x: 1, y: 0, z: 0 }, orientation: { x: 0, y: 0, z: S, w: S } },
    ]),
  ];

  it("hit points lie on the boundary with outward normals; misses never pass through the solid", () => {
    const q = [0, 0, 0, 1];
    for (const shape of shapes) {
      let hits = 0;
      for (let i = 0; i < 400; i++) {
        q[0] = rnd() - 0.5;
        q[1] = rnd() - 0.5;
        q[2] = rnd() - 0.5;
        q[3] = rnd() - 0.5;
        const ql = Math.hypot(q[0], q[1], q[2], q[3]);
        const pose = new Pose().set(rnd() - 0.5, rnd() - 0.5, rnd() - 0.5, q[0] / ql, q[1] / ql, q[2] / ql, q[3] / ql);
        const o = [pose.px + 8 * (rnd() - 0.5), pose.py + 8 * (rnd() - 0.5), pose.pz + 8 * (rnd() - 0.5)];
        // Aim near the centre so roughly half the rays hit; |d| is random.
        const tx = pose.px + 3 * (rnd() - 0.5) - o[0],
          ty = pose.py + 3 * (rnd() - 0.5) - o[1],
          tz = pose.pz + 3 * (rnd() - 0.5) - o[2];
        const sc = 0.2 + rnd();
        const d = [tx * sc, ty * sc, tz * sc];
        const inside = pointInShape(shape, pose, o[0], o[1], o[2]);
        if (cast(shape, pose, o, d)) {
          hits++;
          const dl = Math.hypot(d[0], d[1], d[2]);
          const e = 1e-7 / dl;
          const t = hit.t;
          const n = [hit.normalX, hit.normalY, hit.normalZ];
          expect(Math.abs(Math.hypot(n[0], n[1], n[2]) - 1)).toBeLessThan(1e-12);
          expect(n[0] * d[0] + n[1] * d[1] + n[2] * d[2]).toBeLessThanOrEqual(0);
          const at = (s: number): boolean => pointInShape(shape, pose, o[0] + s * d[0], o[1] + s * d[1], o[2] + s * d[2]);
          if (shape instanceof Compound) {
            expect(hit.childIndex).toBeGreaterThanOrEqual(0);
          } else {
            expect(inside).toBe(false);
            expect(at(t - e)).toBe(false);
          }
          // Just past the hit along the ray, and just inside along the normal, the point is in the solid.
          expect(at(t + e)).toBe(true);
          const hp = [o[0] + t * d[0], o[1] + t * d[1], o[2] + t * d[2]];
          expect(pointInShape(shape, pose, hp[0] - 1e-7 * n[0], hp[1] - 1e-7 * n[1], hp[2] - 1e-7 * n[2])).toBe(true);
          // (Overlapping compound children may cover the point outside the hit child.)
          if (!(shape instanceof Compound)) {
            expect(pointInShape(shape, pose, hp[0] + 1e-7 * n[0], hp[1] + 1e-7 * n[1], hp[2] + 1e-7 * n[2])).toBe(false);
          }
        } else if (!inside && !(shape instanceof Compound)) {
          for (let k = 0; k <= 200; k++) expect(pointInShape(shape, pose, o[0] + (k / 40) * d[0], o[1] + (k / 40) * d[1], o[2] + (k / 40) * d[2])).toBe(false);
        }
      }
      expect(hits).toBeGreaterThan(40);
    }
  });
});
