import { describe, expect, it } from "vitest";
import { Box, Heightfield, MotionType, Sphere, type Shape, type World } from "../../src/index";
import { boxMesh } from "../shapes/meshHelpers";
import { gridMesh, surfaceHeight } from "./terrainHelpers";
import { addGround, makeWorld, pos, steps, vel } from "./helpers";

function addStatic(world: World, shape: Shape, friction: number): number {
  return world.createBody({ motionType: MotionType.Static, collidable: { shape, material: { friction } } });
}

interface SlideResult {
  maxVy: number;
  maxRise: number;
  travelled: number;
}

/** Box (1 m cube, friction 0) settled at x = -18 then pushed at 10 m/s along (dx, dz); tracks vertical motion. */
function slide(ground: Shape, dx: number, dz: number): SlideResult {
  const world = makeWorld({ sleepingEnabled: false });
  addStatic(world, ground, 0);
  const h = world.createBody({ position: { x: -18, y: 0.5, z: -18 * dz }, collidable: { shape: new Box(0.5, 0.5, 0.5), material: { friction: 0 } } });
  steps(world, 30);
  const y0 = pos(world, h).y;
  const l = Math.hypot(dx, dz);
  world.setLinearVelocity(h, { x: (10 * dx) / l, y: 0, z: (10 * dz) / l });
  const x0 = pos(world, h).x;
  let maxVy = 0,
    maxRise = 0;
  // 3.4 s at 10 m/s: 34 m, staying on the 40 m floor.
  steps(world, 204, () => {
    maxVy = Math.max(maxVy, Math.abs(vel(world, h).y));
    maxRise = Math.max(maxRise, pos(world, h).y - y0);
  });
  return { maxVy, maxRise, travelled: pos(world, h).x - x0 };
}

/** The 40 x 40 m flat heightfield of 1 m cells (41 x 41 samples). */
function flatField(): Heightfield {
  return new Heightfield(40, 40, 41, 41, new Float64Array(41 * 41));
}

const report: string[] = [];

describe("no ghost bumps: a box sliding at 10 m/s across a 40 x 40 m floor of 1 m quads", () => {
  const cases: [string, () => Shape, number, number][] = [
    ["mesh, along x", () => gridMesh(40, 1), 1, 0],
    ["mesh, diagonal", () => gridMesh(40, 1), 1, 0.35],
    ["heightfield, along x", flatField, 1, 0],
    ["heightfield, diagonal", flatField, 1, 0.35],
  ];
  for (const [name, make, dx, dz] of cases) {
    it(`${name}: |vy| <= 0.05 m/s and rise <= 5 mm`, () => {
      const r = slide(make(), dx, dz);
      report.push(`${name}: max |vy| ${r.maxVy.toExponential(2)} m/s, max rise ${(r.maxRise * 1000).toFixed(3)} mm, travelled ${r.travelled.toFixed(2)} m`);
      console.log(report[report.length - 1]);
      expect(r.travelled).toBeGreaterThan(30);
      expect(r.maxVy).toBeLessThan(0.05);
      expect(r.maxRise).toBeLessThan(0.005);
    });
  }
});

/** Heights of a gentle slope (a plane tilted about z, ~11 degrees) plus a bump, for resting tests. */
describe("a sphere resting on a heightfield", () => {
  /** A 21 x 21 heightfield over 20 x 20 m rising with x at 20 degrees (Babylon layout). */
  function slopeField(): { hf: Heightfield; slope: number; cos: number } {
    const n = 21,
      size = 20;
    const slope = Math.tan((20 * Math.PI) / 180);
    const data = new Float64Array(n * n);
    for (let zi = 0; zi < n; zi++) for (let xi = 0; xi < n; xi++) data[(n - 1 - zi) * n + xi] = slope * (-size / 2 + xi);
    return { hf: new Heightfield(size, size, n, n, data), slope, cos: Math.cos((20 * Math.PI) / 180) };
  }

  it("stays put on a 20 degree slope with high friction (rotation locked: no rolling resistance in the engine)", () => {
    const { hf, slope, cos } = slopeField();
    const world = makeWorld({ sleepingEnabled: false });
    addStatic(world, hf, 1);
    const r = 0.5;
    const y = slope * 0.3 + r / cos;
    const h = world.createBody({
      position: { x: 0.3, y: y + 0.01, z: 0.2 },
      collidable: { shape: new Sphere(r), material: { friction: 1 } },
      // Infinite inertia: a free sphere rolls down any slope whatever the friction.
      massProperties: { inertia: { x: 0, y: 0, z: 0 } },
    });
    steps(world, 60);
    const p0 = pos(world, h);
    steps(world, 120);
    const p1 = pos(world, h);
    expect(Math.hypot(p1.x - p0.x, p1.y - p0.y, p1.z - p0.z)).toBeLessThan(0.01);
    expect(Math.abs(p1.y - (slope * p1.x + r / cos))).toBeLessThan(0.005);
  });

  it("a free sphere rolls down the slope at 5/7 g sin(20) keeping the analytic height (no bumps over cell edges)", () => {
    const { hf, slope, cos } = slopeField();
    const world = makeWorld({ sleepingEnabled: false });
    addStatic(world, hf, 1);
    const r = 0.5;
    const h = world.createBody({ position: { x: 6, y: slope * 6 + r / cos, z: 0.2 }, collidable: { shape: new Sphere(r), material: { friction: 1 } } });
    let maxOff = 0;
    steps(world, 90, () => {
      const p = pos(world, h);
      maxOff = Math.max(maxOff, Math.abs(p.y - (slope * p.x + r / cos)));
    });
    const v = vel(world, h);
    const speed = Math.hypot(v.x, v.y);
    const expected = (5 / 7) * 9.81 * Math.sin((20 * Math.PI) / 180) * 1.5;
    expect(Math.abs(speed - expected) / expected).toBeLessThan(0.03);
    expect(maxOff).toBeLessThan(0.005);
  });

  it("rests at the analytic height on a non-square bumpy heightfield (5 points)", () => {
    // 31 x 17 samples over 30 x 16 m: heights h(x, z) = 0.3 sin(0.4 x) + 0.2 cos(0.5 z) (gentle).
    const nX = 31,
      nZ = 17,
      sx = 30,
      sz = 16;
    const f = (x: number, z: number): number => 0.3 * Math.sin(0.4 * x) + 0.2 * Math.cos(0.5 * z);
    const data = new Float64Array(nX * nZ);
    for (let zi = 0; zi < nZ; zi++) {
      for (let xi = 0; xi < nX; xi++) data[(nZ - 1 - zi) * nX + xi] = f(-sx / 2 + xi * (sx / (nX - 1)), -sz / 2 + zi * (sz / (nZ - 1)));
    }
    const hf = new Heightfield(sx, sz, nX, nZ, data);
    // Rotation locked (no rolling resistance in the engine) and friction 1 on slopes under 10 degrees:
    // each sphere stays where it lands. The analytic rest height of the centre is the triangle plane under
    // it plus r / cos(tilt) (r / n_y for the triangle's unit normal n).
    const points = [
      [-3.3, 2.2],
      [5.7, -4.1],
      [-11.2, -6.6],
      [12.4, 7.1],
      [0.45, 0.35],
    ];
    const r = 0.1;
    for (const [x, z] of points) {
      const world = makeWorld({ sleepingEnabled: false });
      addStatic(world, hf, 1);
      const h = world.createBody({
        position: { x, y: f(x, z) + r + 0.02, z },
        collidable: { shape: new Sphere(r), material: { friction: 1 } },
        massProperties: { inertia: { x: 0, y: 0, z: 0 } },
      });
      steps(world, 120);
      const p = pos(world, h);
      const s = surface(hf, p.x, p.z);
      expect(Math.abs(p.x - x) + Math.abs(p.z - z)).toBeLessThan(0.02);
      expect(Math.abs(p.y - (s.h + r / s.ny))).toBeLessThan(0.005);
    }
  });
});

/** Surface height and unit normal y of the triangulated heightfield at (x, z). */
function surface(hf: Heightfield, x: number, z: number): { h: number; ny: number } {
  const h = surfaceHeight(hf, x, z);
  const e = 1e-4;
  const gx = (surfaceHeight(hf, x + e, z) - surfaceHeight(hf, x - e, z)) / (2 * e);
  const gz = (surfaceHeight(hf, x, z + e) - surfaceHeight(hf, x, z - e)) / (2 * e);
  return { h, ny: 1 / Math.hypot(gx, 1, gz) };
}

describe("mesh bodies in the world", () => {
  it("a box rests on a static mesh floor at 0.5 m, and a dynamic closed mesh cube rests on a box floor", () => {
    const world = makeWorld({ sleepingEnabled: false });
    addStatic(world, gridMesh(10, 1), 0.5);
    const b = world.createBody({ position: { x: 0.3, y: 0.7, z: 0.2 }, collidable: { shape: new Box(0.5, 0.5, 0.5) } });
    steps(world, 120);
    expect(Math.abs(pos(world, b).y - 0.5)).toBeLessThan(0.005);
    expect(Math.abs(vel(world, b).y)).toBeLessThan(0.001);

    const w2 = makeWorld({ sleepingEnabled: false });
    addGround(w2);
    const cube = w2.createBody({ position: { x: 0, y: 0.7, z: 0 }, collidable: { shape: boxMesh(0.5, 0.5, 0.5) } });
    expect(w2.getMassProperties(cube).mass).toBeCloseTo(1000, 6);
    steps(w2, 120);
    expect(Math.abs(pos(w2, cube).y - 0.5)).toBeLessThan(0.005);
    expect(Math.abs(vel(w2, cube).y)).toBeLessThan(0.001);
  });

  it("mesh-mesh pairs collide: a dynamic mesh cube rests on a mesh floor", () => {
    const world = makeWorld({ sleepingEnabled: false });
    addStatic(world, gridMesh(10, 1), 0.5);
    const cube = world.createBody({ position: { x: 0, y: 0.7, z: 0 }, collidable: { shape: boxMesh(0.5, 0.5, 0.5) } });
    steps(world, 120);
    // The cube's bottom face on the floor (y = 0): centre 0.5 m up, within 5 mm of contact softness.
    expect(Math.abs(pos(world, cube).y - 0.5)).toBeLessThan(0.005);
  });
});
