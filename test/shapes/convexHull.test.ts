import { describe, expect, it } from "vitest";
import { computeMassData, MassData } from "../../src/dynamics/massProperties";
import { Pose } from "../../src/math/pose";
import { pointInShape, rayCastShape, RayHit } from "../../src/queries/rayShape";
import { Box } from "../../src/shapes/box";
import { Compound, scaleConvex } from "../../src/shapes/compound";
import { ConvexHull, FLAT_HULL_HALF_THICKNESS } from "../../src/shapes/convexHull";
import { convexShapeOfPoints } from "../../src/shapes/pointCloudShape";
import { Capsule } from "../../src/shapes/capsule";
import { Sphere } from "../../src/shapes/sphere";

/** Deterministic PRNG (mulberry32). */
function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function poseOf(px: number, py: number, pz: number, ax = 0, ay = 1, az = 0, angle = 0): Pose {
  const l = Math.hypot(ax, ay, az) || 1;
  const s = Math.sin(angle / 2) / l;
  return new Pose().set(px, py, pz, ax * s, ay * s, az * s, Math.cos(angle / 2));
}

function randomPose(r: () => number, spread = 2): Pose {
  return poseOf((r() - 0.5) * spread, (r() - 0.5) * spread, (r() - 0.5) * spread, r() - 0.5, r() - 0.5, r() - 0.5, r() * 6.28);
}

function boxCorners(hx: number, hy: number, hz: number, ox = 0, oy = 0, oz = 0): number[] {
  const p: number[] = [];
  for (const x of [-hx, hx]) for (const y of [-hy, hy]) for (const z of [-hz, hz]) p.push(ox + x, oy + y, oz + z);
  return p;
}

/** Largest signed distance of any input point outside any face plane. */
function maxOutside(h: ConvexHull, pts: ArrayLike<number>): number {
  let worst = -Infinity;
  for (let i = 0; i < pts.length; i += 3) {
    let d = -Infinity;
    for (let f = 0; f < h.faceCount; f++) {
      const n = h.faceNormals;
      d = Math.max(d, n[3 * f] * pts[i] + n[3 * f + 1] * pts[i + 1] + n[3 * f + 2] * pts[i + 2] - h.faceOffsets[f]);
    }
    worst = Math.max(worst, d);
  }
  return worst;
}

/** Checks the hull's topology and geometry invariants. */
function checkHull(h: ConvexHull, pts: ArrayLike<number>): void {
  const V = h.vertexCount,
    F = h.faceCount,
    E = h.edgeCount;
  expect(V - E + F).toBe(2);
  // Every vertex is an input point.
  const inputs = new Set<string>();
  for (let i = 0; i < pts.length; i += 3) inputs.add(`${pts[i]},${pts[i + 1]},${pts[i + 2]}`);
  for (let v = 0; v < V; v++) expect(inputs.has(`${h.vertices[3 * v]},${h.vertices[3 * v + 1]},${h.vertices[3 * v + 2]}`)).toBe(true);
  // Every input point inside or on the hull, within the tolerance.
  expect(maxOutside(h, pts)).toBeLessThanOrEqual(2 * h.tolerance);
  for (let f = 0; f < F; f++) {
    const n = h.faceNormals;
    expect(Math.hypot(n[3 * f], n[3 * f + 1], n[3 * f + 2])).toBeCloseTo(1, 12);
    const poly = h.getFacePolygon(f);
    expect(poly.length).toBeGreaterThanOrEqual(3);
    // Face vertices lie on the face plane (within tolerance); all hull vertices are below it.
    for (const v of poly) {
      const d = n[3 * f] * h.vertices[3 * v] + n[3 * f + 1] * h.vertices[3 * v + 1] + n[3 * f + 2] * h.vertices[3 * v + 2] - h.faceOffsets[f];
      expect(d).toBeGreaterThanOrEqual(-2 * h.tolerance);
    }
    // Counter-clockwise about the outward normal: every corner turns left.
    for (let k = 0; k < poly.length; k++) {
      const a = poly[k],
        b = poly[(k + 1) % poly.length],
        c = poly[(k + 2) % poly.length];
      const vs = h.vertices;
      const e1 = [vs[3 * b] - vs[3 * a], vs[3 * b + 1] - vs[3 * a + 1], vs[3 * b + 2] - vs[3 * a + 2]];
      const e2 = [vs[3 * c] - vs[3 * b], vs[3 * c + 1] - vs[3 * b + 1], vs[3 * c + 2] - vs[3 * b + 2]];
      const cr = [e1[1] * e2[2] - e1[2] * e2[1], e1[2] * e2[0] - e1[0] * e2[2], e1[0] * e2[1] - e1[1] * e2[0]];
      expect(cr[0] * n[3 * f] + cr[1] * n[3 * f + 1] + cr[2] * n[3 * f + 2]).toBeGreaterThan(-1e-9);
    }
  }
  // Each edge's two faces have it in opposite directions.
  for (let e = 0; e < E; e++) {
    const a = h.edgeVertices[2 * e],
      b = h.edgeVertices[2 * e + 1];
    const has = (f: number, p: number, q: number): boolean => {
      const poly = h.getFacePolygon(f);
      for (let k = 0; k < poly.length; k++) if (poly[k] === p && poly[(k + 1) % poly.length] === q) return true;
      return false;
    };
    expect(has(h.edgeFaces[2 * e], a, b)).toBe(true);
    expect(has(h.edgeFaces[2 * e + 1], b, a)).toBe(true);
  }
}

function prism(n: number, r: number, halfH: number): number[] {
  const p: number[] = [];
  for (let k = 0; k < n; k++) {
    const a = (2 * Math.PI * k) / n;
    p.push(r * Math.cos(a), -halfH, r * Math.sin(a), r * Math.cos(a), halfH, r * Math.sin(a));
  }
  return p;
}

describe("ConvexHull construction", () => {
  it("a cube's corners plus interior, face, edge and duplicate points: 8 vertices, 6 quads, volume 1", () => {
    const pts = boxCorners(0.5, 0.5, 0.5);
    pts.push(0, 0, 0, 0.1, -0.2, 0.3); // interior
    pts.push(0.5, 0.1, 0.2, 0, 0, -0.5, -0.2, 0.5, 0.4); // on faces
    pts.push(0.5, 0.5, 0, -0.5, 0, -0.5); // on edges
    pts.push(...boxCorners(0.5, 0.5, 0.5)); // duplicates of every corner
    const h = new ConvexHull(pts);
    expect(h.vertexCount).toBe(8);
    expect(h.faceCount).toBe(6);
    expect(h.edgeCount).toBe(12);
    for (let f = 0; f < 6; f++) {
      expect(h.faceVertexCount(f)).toBe(4);
      expect(h.faceOffsets[f]).toBe(0.5);
      const n = Array.from(h.faceNormals.subarray(3 * f, 3 * f + 3));
      expect(n.filter((c) => Math.abs(c) === 1).length).toBe(1);
    }
    expect(h.volume()).toBeCloseTo(1, 14);
    expect(h.maximumRadius).toBeCloseTo(Math.sqrt(0.75), 14);
    expect(h.minimumRadius).toBe(0.5);
    checkHull(h, pts);
  });

  it("two 32-gons: 34 faces, 64 vertices, the exact prism volume (close to pi r^2 h)", () => {
    const r = 0.7,
      hh = 0.8;
    const pts = prism(32, r, hh);
    const h = new ConvexHull(pts);
    expect(h.faceCount).toBe(34);
    expect(h.vertexCount).toBe(64);
    let caps = 0;
    for (let f = 0; f < h.faceCount; f++) if (h.faceVertexCount(f) === 32) caps++;
    expect(caps).toBe(2);
    const exact = 16 * r * r * Math.sin((2 * Math.PI) / 32) * 2 * hh; // (n/2) r^2 sin(2 pi / n) * height
    expect(Math.abs(h.volume() - exact) / exact).toBeLessThan(1e-12);
    expect(Math.abs(h.volume() - Math.PI * r * r * 2 * hh) / exact).toBeLessThan(0.007);
    checkHull(h, pts);
  });

  it("random point clouds: all points inside or on the hull, Euler V - E + F = 2, consistent faces", () => {
    const r = rng(7);
    for (let trial = 0; trial < 40; trial++) {
      const n = 4 + Math.floor(r() * 400);
      const kind = trial % 4;
      const off = trial % 8 < 4 ? 0 : 1000; // far from the origin too
      const pts: number[] = [];
      for (let i = 0; i < n; i++) {
        let x = r() - 0.5,
          y = r() - 0.5,
          z = r() - 0.5;
        if (kind === 1) {
          // On a sphere: every point is a hull vertex.
          const l = Math.hypot(x, y, z) || 1;
          x /= l;
          y /= l;
          z /= l;
        } else if (kind === 2) {
          // Snapped to a coarse lattice: many duplicates and coplanar points.
          x = Math.round(x * 4) / 4;
          y = Math.round(y * 4) / 4;
          z = Math.round(z * 4) / 4;
        } else if (kind === 3) {
          // Flat-ish slab with a tiny thickness relative to its size, plus noise at the float32 level.
          z *= 0.05;
          x = Math.fround(x);
        }
        pts.push(x + off, y, z - off);
      }
      let h: ConvexHull;
      try {
        h = new ConvexHull(pts);
      } catch (e) {
        // Only a small lattice sample may legitimately be flat.
        expect(e).toBeInstanceOf(RangeError);
        expect(kind === 2 || n < 8).toBe(true);
        continue;
      }
      checkHull(h, pts);
      expect(h.volume()).toBeGreaterThan(0);
    }
  });

  it("survives nearly-degenerate input: a cube with points jittered 1e-9 off its faces, a float32 rotated box, a tessellated cube surface", () => {
    const r = rng(3);
    // Face grids jittered by 1e-9 (well under the tolerance): still 6 faces.
    const pts = boxCorners(1, 1, 1);
    for (let k = 0; k < 300; k++) {
      const axis = k % 3,
        sgn = k % 2 ? 1 : -1;
      const p = [r() * 2 - 1, r() * 2 - 1, r() * 2 - 1];
      p[axis] = sgn * (1 + (r() - 0.5) * 2e-9);
      pts.push(p[0], p[1], p[2]);
    }
    const h1 = new ConvexHull(pts);
    expect(h1.faceCount).toBe(6);
    expect(h1.vertexCount).toBe(8);
    checkHull(h1, pts);

    // A rotated box with float32 coordinates (as from Babylon vertex buffers).
    const q = poseOf(0, 0, 0, 1, 2, 3, 0.7);
    const f32: number[] = [];
    const c = boxCorners(0.4, 0.9, 0.25);
    for (let i = 0; i < c.length; i += 3) {
      const [x, y, z] = rotate(q, c[i], c[i + 1], c[i + 2]);
      f32.push(Math.fround(x), Math.fround(y), Math.fround(z));
    }
    const h2 = new ConvexHull(f32);
    expect(h2.faceCount).toBe(6);
    expect(h2.volume()).toBeCloseTo(8 * 0.4 * 0.9 * 0.25, 5);
    checkHull(h2, f32);

    // Every point of an 11 x 11 lattice on each face of a cube (1000+ coplanar/collinear points).
    const grid: number[] = [];
    for (let i = 0; i <= 10; i++)
      for (let j = 0; j <= 10; j++)
        for (let k = 0; k <= 10; k++) {
          if (i % 10 && j % 10 && k % 10) continue;
          grid.push(i / 10 - 0.5, j / 10 - 0.5, k / 10 - 0.5);
        }
    const h3 = new ConvexHull(grid);
    expect(h3.faceCount).toBe(6);
    expect(h3.vertexCount).toBe(8);
    expect(h3.volume()).toBeCloseTo(1, 12);
    checkHull(h3, grid);
  });

  it("throws a RangeError naming points for collinear, coincident or malformed input", () => {
    const line: number[] = [];
    for (let i = 0; i < 6; i++) line.push(i, 2 * i, -i);
    expect(() => new ConvexHull(line)).toThrow(RangeError);
    expect(() => new ConvexHull(line)).toThrow("points must span a plane or a volume (all 6 points are collinear): use a Sphere or a Capsule");
    expect(() => new ConvexHull([1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1])).toThrow(/points.*coincide/);
    expect(() => new ConvexHull([])).toThrow(/points must hold at least one point/);
    expect(() => new ConvexHull([0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1, 5])).toThrow(/points/);
    expect(() => new ConvexHull([0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, NaN])).toThrow(/points\[11\]/);
    expect(() => new ConvexHull([0, 0, 0, 1, 0, 0, 0, 1, 0], 0)).toThrow(/flatHalfThickness must be a finite number > 0, got 0/);
  });
});

describe("flat and degenerate point clouds (issue 16, item 4)", () => {
  it("coplanar points make a slab 2 mm thick centred on their plane, with the slab's mass properties", () => {
    // An ellipse of 12 points in the plane y = 0.25 (semi-axes 1 along x, 3 along z).
    const flat: number[] = [];
    for (let i = 0; i < 12; i++) flat.push(Math.cos(i), 0.25, Math.sin(i) * 3);
    const h = new ConvexHull(flat);
    expect(h.flatHalfThickness).toBe(FLAT_HULL_HALF_THICKNESS);
    expect(FLAT_HULL_HALF_THICKNESS).toBe(0.001);
    // Each point twice, one copy on each side of the plane: two 12-gons joined by 12 quads.
    expect(h.vertexCount).toBe(24);
    expect(h.faceCount).toBe(14);
    const box = new Float64Array(6);
    h.computeAabb(new Pose(), box, 0);
    expect(box[1]).toBeCloseTo(0.25 - 0.001, 12);
    expect(box[4]).toBeCloseTo(0.25 + 0.001, 12);
    // Volume = polygon area x thickness; the area from the shoelace formula over the hull's top face.
    const top = h.getFacePolygon([...Array(h.faceCount).keys()].find((f) => h.faceNormals[3 * f + 1] > 0.99)!);
    let area = 0;
    for (let k = 0; k < top.length; k++) {
      const a = top[k],
        b = top[(k + 1) % top.length];
      area += h.vertices[3 * a + 2] * h.vertices[3 * b] - h.vertices[3 * a] * h.vertices[3 * b + 2];
    }
    expect(h.volume()).toBeCloseTo((Math.abs(area) / 2) * 0.002, 12);
    // A triangle is enough, and a thickness can be chosen.
    const tri = new ConvexHull([0, 0, 0, 1, 0, 0, 0, 1, 0], 0.05);
    expect(tri.vertexCount).toBe(6);
    expect(tri.volume()).toBeCloseTo(0.5 * 0.1, 12);
  });

  it("convexShapeOfPoints: a hull for planar and solid clouds, a capsule along collinear points, a sphere at a point", () => {
    expect(convexShapeOfPoints([0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1])).toBeInstanceOf(ConvexHull);
    expect(convexShapeOfPoints([0, 0, 0, 1, 0, 0, 0, 0, 1])).toBeInstanceOf(ConvexHull);
    // Collinear, unordered, from (1, 2, -1) to (5, 10, -5): a 1 mm capsule between the extremes.
    const line = convexShapeOfPoints([2, 4, -2, 5, 10, -5, 1, 2, -1, 3, 6, -3]) as Compound;
    expect(line).toBeInstanceOf(Compound);
    const cap = line.children[0].shape as Capsule;
    expect(cap).toBeInstanceOf(Capsule);
    expect(cap.radius).toBe(0.001);
    expect(cap.halfLength).toBeCloseTo(Math.sqrt(16 + 64 + 16) / 2, 12);
    const box = new Float64Array(6);
    line.computeAabb(new Pose(), box, 0);
    expect([...box].map((v) => +v.toFixed(6))).toEqual([0.999, 1.999, -5.001, 5.001, 10.001, -0.999]);
    // One point (repeated): a 1 mm sphere there.
    const dot = convexShapeOfPoints([3, 0, 0, 3, 0, 0]) as Compound;
    expect(dot.children[0].shape).toBeInstanceOf(Sphere);
    expect(dot.children[0].pose.px).toBe(3);
    expect(convexShapeOfPoints([0, 0, 0])).toBeInstanceOf(Sphere);
    expect(() => convexShapeOfPoints([0, 0, NaN])).toThrow(/points\[2\]/);
  });
});

function rotate(p: Pose, x: number, y: number, z: number): [number, number, number] {
  const { qx, qy, qz, qw } = p;
  const tx = 2 * (qy * z - qz * y),
    ty = 2 * (qz * x - qx * z),
    tz = 2 * (qx * y - qy * x);
  return [x + qw * tx + (qy * tz - qz * ty), y + qw * ty + (qz * tx - qx * tz), z + qw * tz + (qx * ty - qy * tx)];
}

describe("ConvexHull mass properties", () => {
  const md = new MassData();
  const ref = new MassData();

  it("built from box corners: the box's volume and inertia", () => {
    const box = new Box(0.3, 0.5, 0.7);
    const h = new ConvexHull(boxCorners(0.3, 0.5, 0.7));
    expect(h.volume()).toBeCloseTo(box.volume(), 14);
    const a = new Float64Array(6),
      b = new Float64Array(6);
    h.unitInertia(a, 0);
    box.unitInertia(b, 0);
    for (let k = 0; k < 6; k++) expect(a[k]).toBeCloseTo(b[k], 14);
    computeMassData(h, 800, md);
    computeMassData(box, 800, ref);
    expect(md.mass).toBeCloseTo(ref.mass, 10);
    for (let k = 0; k < 6; k++) expect(md.inertia[k]).toBeCloseTo(ref.inertia[k], 12);
    expect(Math.abs(md.comX) + Math.abs(md.comY) + Math.abs(md.comZ)).toBeLessThan(1e-15);
  });

  it("a translated cube: centroid and centre of mass at the translation, inertia about it", () => {
    const h = new ConvexHull(boxCorners(0.5, 0.25, 1, 2, -1, 3));
    const c = { x: 0, y: 0, z: 0 };
    h.centroid(c);
    expect(c.x).toBeCloseTo(2, 13);
    expect(c.y).toBeCloseTo(-1, 13);
    expect(c.z).toBeCloseTo(3, 13);
    computeMassData(h, 2, md);
    computeMassData(new Box(0.5, 0.25, 1), 2, ref);
    expect(md.comX).toBeCloseTo(2, 13);
    expect(md.comY).toBeCloseTo(-1, 13);
    expect(md.comZ).toBeCloseTo(3, 13);
    expect(md.mass).toBeCloseTo(ref.mass, 12);
    for (let k = 0; k < 6; k++) expect(md.inertia[k]).toBeCloseTo(ref.inertia[k], 11);
  });

  it("a tetrahedron: analytic volume, centroid and inertia (within 0.1 %)", () => {
    const h = new ConvexHull([0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1]);
    expect(h.volume()).toBeCloseTo(1 / 6, 14);
    const c = { x: 0, y: 0, z: 0 };
    h.centroid(c);
    expect([c.x, c.y, c.z].map((v) => Math.abs(v - 0.25) < 1e-14)).toEqual([true, true, true]);
    // About the origin per unit mass: integral x^2 / V = 1/10, integral xy / V = 1/20.
    const t = new Float64Array(6);
    h.unitInertia(t, 0);
    const want = [0.2, 0.2, 0.2, -0.05, -0.05, -0.05];
    for (let k = 0; k < 6; k++) expect(Math.abs(t[k] - want[k])).toBeLessThan(1e-14);
    // About the centroid (Tonon): Ixx = 2/10 - 2/16 = 3/40 (per unit mass), Ixy = -1/20 + 1/16 = 1/80.
    computeMassData(h, 6, md); // mass 1
    expect(md.inertia[0]).toBeCloseTo(3 / 40, 13);
    expect(md.inertia[3]).toBeCloseTo(1 / 80, 13);
  });

  it("a compound child hull with an off-origin centroid matches the equivalent box child", () => {
    const childPose = poseOf(0.3, -0.2, 1.1, 1, 1, 0, 0.6);
    const off = [0.4, 0.1, -0.3];
    const hull = new ConvexHull(boxCorners(0.2, 0.3, 0.5, off[0], off[1], off[2]));
    const [rx, ry, rz] = rotate(childPose, off[0], off[1], off[2]);
    const q = { x: childPose.qx, y: childPose.qy, z: childPose.qz, w: childPose.qw };
    const ch = [{ shape: new Box(1, 0.1, 1), position: { x: 0, y: -2, z: 0 } }];
    const withHull = new Compound([...ch, { shape: hull, position: { x: childPose.px, y: childPose.py, z: childPose.pz }, orientation: q }]);
    const withBox = new Compound([
      ...ch,
      { shape: new Box(0.2, 0.3, 0.5), position: { x: childPose.px + rx, y: childPose.py + ry, z: childPose.pz + rz }, orientation: q },
    ]);
    computeMassData(withHull, 3, md);
    computeMassData(withBox, 3, ref);
    expect(md.mass).toBeCloseTo(ref.mass, 12);
    expect(md.comX).toBeCloseTo(ref.comX, 12);
    expect(md.comY).toBeCloseTo(ref.comY, 12);
    expect(md.comZ).toBeCloseTo(ref.comZ, 12);
    for (let k = 0; k < 6; k++) expect(md.inertia[k]).toBeCloseTo(ref.inertia[k], 11);
  });

  it("scaleConvex scales a hull's points non-uniformly", () => {
    const h = new ConvexHull(boxCorners(0.5, 0.5, 0.5, 1, 0, 0));
    const s = scaleConvex(h, 2, -3, 0.5) as ConvexHull;
    expect(s).toBeInstanceOf(ConvexHull);
    expect(s.volume()).toBeCloseTo(3, 13);
    const c = { x: 0, y: 0, z: 0 };
    s.centroid(c);
    expect(c.x).toBeCloseTo(2, 13);
    expect(s.faceCount).toBe(6);
    expect(scaleConvex(h, 1, 1, 1)).toBe(h);
  });
});

describe("ConvexHull queries", () => {
  it("hill-climbing support equals brute force on a large hull, and the AABB is tight", () => {
    const r = rng(11);
    const pts: number[] = [];
    for (let i = 0; i < 600; i++) {
      const x = r() - 0.5,
        y = r() - 0.5,
        z = r() - 0.5;
      const l = Math.hypot(x, y, z);
      pts.push((1.5 * x) / l + 0.2, (0.7 * y) / l, z / l - 0.1);
    }
    const h = new ConvexHull(pts);
    expect(h.vertexCount).toBeGreaterThan(32);
    const out = { x: 0, y: 0, z: 0 };
    for (let k = 0; k < 500; k++) {
      const d = [r() - 0.5, r() - 0.5, r() - 0.5];
      h.supportLocal(d[0], d[1], d[2], out);
      let best = -Infinity;
      for (let v = 0; v < h.vertexCount; v++) best = Math.max(best, d[0] * h.vertices[3 * v] + d[1] * h.vertices[3 * v + 1] + d[2] * h.vertices[3 * v + 2]);
      expect(out.x * d[0] + out.y * d[1] + out.z * d[2]).toBeCloseTo(best, 14);
    }
    const aabb = new Float64Array(6);
    for (let k = 0; k < 20; k++) {
      const p = randomPose(r);
      h.computeAabb(p, aabb, 0);
      const lo = [Infinity, Infinity, Infinity],
        hi = [-Infinity, -Infinity, -Infinity];
      for (let v = 0; v < h.vertexCount; v++) {
        const w = rotate(p, h.vertices[3 * v], h.vertices[3 * v + 1], h.vertices[3 * v + 2]);
        const wp = [w[0] + p.px, w[1] + p.py, w[2] + p.pz];
        for (let a = 0; a < 3; a++) {
          lo[a] = Math.min(lo[a], wp[a]);
          hi[a] = Math.max(hi[a], wp[a]);
        }
      }
      for (let a = 0; a < 3; a++) {
        expect(aabb[a]).toBeCloseTo(lo[a], 12);
        expect(aabb[3 + a]).toBeCloseTo(hi[a], 12);
      }
    }
  });

  it("mostAlignedFace finds the face whose normal best matches a direction", () => {
    const h = new ConvexHull(prism(12, 1, 0.5));
    const f = h.mostAlignedFace(0.1, 1, 0.05);
    expect(h.faceNormals[3 * f + 1]).toBeCloseTo(1, 12);
    const g = h.mostAlignedFace(1, 0.1, 0.01);
    expect(h.faceNormals[3 * g]).toBeGreaterThan(0.96);
  });

  it("ray casts match the equivalent Box within 1e-9 (hits, misses, inside starts, parallel rays)", () => {
    const r = rng(5);
    const box = new Box(0.3, 0.5, 0.7);
    const hull = new ConvexHull(boxCorners(0.3, 0.5, 0.7));
    const hb = new RayHit(),
      hh = new RayHit();
    let hits = 0,
      total = 0;
    for (let k = 0; k < 4000; k++) {
      const p = k % 5 === 0 ? poseOf(r() - 0.5, r() - 0.5, r() - 0.5) : randomPose(r);
      const o = [(r() - 0.5) * 4, (r() - 0.5) * 4, (r() - 0.5) * 4];
      if (k % 7 === 0) o.splice(0, 3, p.px + (r() - 0.5) * 0.5, p.py + (r() - 0.5) * 0.5, p.pz + (r() - 0.5) * 0.5); // inside
      // Aim near the box (so most rays hit), sometimes axis-parallel in the box frame.
      let d = [p.px + (r() - 0.5) - o[0], p.py + (r() - 0.5) - o[1], p.pz + (r() - 0.5) - o[2]];
      if (k % 5 === 0) d = [0, 0, 0].map((_, a) => (a === k % 3 ? (r() < 0.5 ? -1 : 1) : 0));
      const maxT = k % 3 === 0 ? 0.5 + r() : Infinity;
      const a = rayCastShape(box, p, o[0], o[1], o[2], d[0], d[1], d[2], maxT, hb);
      const b = rayCastShape(hull, p, o[0], o[1], o[2], d[0], d[1], d[2], maxT, hh);
      total++;
      expect(b).toBe(a);
      if (!a) continue;
      hits++;
      expect(Math.abs(hh.t - hb.t)).toBeLessThan(1e-9);
      expect(Math.abs(hh.normalX - hb.normalX)).toBeLessThan(1e-9);
      expect(Math.abs(hh.normalY - hb.normalY)).toBeLessThan(1e-9);
      expect(Math.abs(hh.normalZ - hb.normalZ)).toBeLessThan(1e-9);
      expect(pointInShape(hull, p, o[0], o[1], o[2])).toBe(pointInShape(box, p, o[0], o[1], o[2]));
    }
    expect(hits).toBeGreaterThan(total / 4);
  });

  it("a ray hits the sloped face of a tetrahedron with that face's normal; from inside it misses", () => {
    const h = new ConvexHull([0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1]);
    const p = poseOf(0, 0, 0);
    const hit = new RayHit();
    expect(rayCastShape(h, p, 1, 1, 1, -1, -1, -1, 10, hit)).toBe(true);
    expect(hit.t).toBeCloseTo(2 / 3, 14);
    const k = 1 / Math.sqrt(3);
    expect([hit.normalX, hit.normalY, hit.normalZ].map((v) => Math.abs(v - k) < 1e-14)).toEqual([true, true, true]);
    expect(rayCastShape(h, p, 0.1, 0.1, 0.1, 1, 0, 0, 10, hit)).toBe(false);
    expect(pointInShape(h, p, 0.1, 0.1, 0.1)).toBe(true);
    expect(pointInShape(h, p, 0.4, 0.4, 0.4)).toBe(false);
  });
});

describe("near-duplicate points (issue 16, item 1)", () => {
  it("a UV sphere's vertices with float-rounded pole and seam duplicates: support is the extreme vertex in every direction", () => {
    // Rings of a UV sphere (r = 2) as a mesh stores them: every ring repeats its first vertex at the seam and
    // the poles repeat once per segment, rounded to float32 so the copies differ in the last bits.
    const pts: number[] = [];
    const rings = 32,
      segs = 64;
    for (let i = 0; i <= rings; i++) {
      for (let j = 0; j <= segs; j++) {
        const th = (Math.PI * i) / rings,
          ph = (2 * Math.PI * j) / segs;
        pts.push(Math.fround(2 * Math.sin(th) * Math.cos(ph)), Math.fround(2 * Math.cos(th)), Math.fround(2 * Math.sin(th) * Math.sin(ph)));
      }
    }
    const h = new ConvexHull(pts);
    // 31 full rings of 64 distinct points and the two poles.
    expect(h.vertexCount).toBe(31 * 64 + 2);
    const vs = h.vertices;
    let seed = 12345;
    const rnd = (): number => ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648) * 2 - 1;
    let worst = 0;
    for (let k = 0; k < 5000; k++) {
      const dx = rnd(),
        dy = rnd(),
        dz = rnd();
      let best = -Infinity;
      for (let v = 0; v < vs.length; v += 3) best = Math.max(best, vs[v] * dx + vs[v + 1] * dy + vs[v + 2] * dz);
      const v = h.supportIndex(dx, dy, dz);
      worst = Math.max(worst, best - (vs[3 * v] * dx + vs[3 * v + 1] * dy + vs[3 * v + 2] * dz));
    }
    // Hill climbing on a convex polytope finds the global maximum: only rounding may separate them.
    expect(worst).toBeLessThan(1e-9);
  });
});
