/**
 * CONVEX_HULL, MESH and HEIGHTFIELD shapes built from Babylon meshes (docs/babylon-differences.md 1.9, 2, 4), on both plugins
 * where Havok has the behaviour. Havok's documented quirks are asserted as Havok's behaviour: the ground-mesh
 * heightfield drops the ground's lowest Y, and PhysicsAggregate(HEIGHTFIELD) without arrays throws.
 */
import { describe, expect, it } from "vitest";
import {
  FreeCamera,
  Mesh,
  MeshBuilder,
  PhysicsAggregate,
  PhysicsBody,
  PhysicsEngineV2,
  PhysicsMotionType,
  PhysicsRaycastResult,
  PhysicsShape,
  PhysicsShapeBox,
  PhysicsShapeContainer,
  PhysicsShapeConvexHull,
  PhysicsShapeGroundMesh,
  PhysicsShapeHeightField,
  PhysicsShapeMesh,
  PhysicsShapeType,
  PhysicsViewer,
  Quaternion,
  Ray,
  TransformNode,
  Vector3,
  VertexBuffer,
  VertexData,
  type GroundMesh,
  type PhysicsAggregateParameters,
  type Scene,
} from "@babylonjs/core";
import { KINDS, makeScene, type TestScene } from "./helpers";

// ---- terrain: flat terraces (blocks of 5 x 5 samples) at different heights, 20 x 20 m, 21 x 21 samples ----

const N = 21;
const SIZE = 20;
/** Terrace height at (x, z): block (floor((x + 10) / 5), floor((z + 10) / 5)); lowest 0.5 (block 0, 0). */
function terrace(x: number, z: number): number {
  return 0.5 + 0.25 * Math.floor((x + 10 + 1e-6) / 5) + 0.1 * Math.floor((z + 10 + 1e-6) / 5);
}
const MIN_Y = 0.5;
/** Centres of flat spans (5 samples -> 4 cells flat around them), where a sphere rests at terrace + r. */
const SPOTS: [number, number][] = [
  [-8, -8],
  [-3, 2],
  [2, -3],
  [7, 7],
  [2, 7],
];

function terrainGround(scene: Scene, name = "ground"): Mesh {
  const g = MeshBuilder.CreateGround(name, { width: SIZE, height: SIZE, subdivisions: N - 1, updatable: true }, scene);
  const pos = g.getVerticesData(VertexBuffer.PositionKind)!;
  for (let i = 0; i < pos.length; i += 3) pos[i + 1] = terrace(pos[i], pos[i + 2]);
  g.updateVerticesData(VertexBuffer.PositionKind, pos);
  g.refreshBoundingInfo();
  return g;
}

/** Heightfield data in Babylon's layout: data[(nZ - 1 - zi) * nX + xi]. */
function heightData(nX: number, nZ: number, sizeX: number, sizeZ: number, f: (x: number, z: number) => number): Float32Array {
  const d = new Float32Array(nX * nZ);
  for (let zi = 0; zi < nZ; zi++) {
    for (let xi = 0; xi < nX; xi++) d[(nZ - 1 - zi) * nX + xi] = f(-sizeX / 2 + (xi * sizeX) / (nX - 1), -sizeZ / 2 + (zi * sizeZ) / (nZ - 1));
  }
  return d;
}

function dropSpheres(t: TestScene, r = 0.5) {
  return SPOTS.map(([x, z], i) => {
    const s = MeshBuilder.CreateSphere("s" + i, { diameter: 2 * r }, t.scene);
    s.position.set(x, terrace(x, z) + r + 0.3, z);
    return new PhysicsAggregate(s, PhysicsShapeType.SPHERE, { mass: 1 }, t.scene);
  });
}

function rayDown(t: TestScene, x: number, z: number, from = 10, to = -10): PhysicsRaycastResult {
  const r = new PhysicsRaycastResult();
  (t.scene.getPhysicsEngine() as PhysicsEngineV2).raycastToRef(new Vector3(x, from, z), new Vector3(x, to, z), r);
  return r;
}

/** A MeshBuilder box of half-extents (hx, hy, hz): 24 split-normal vertices, 12 triangles. */
function boxMesh(scene: Scene, name: string, hx: number, hy: number, hz: number): Mesh {
  const b = MeshBuilder.CreateBox(name, { width: 2 * hx, height: 2 * hy, depth: 2 * hz }, scene);
  return b;
}

const log = (...a: unknown[]) => console.log("[meshShapes]", ...a);

for (const kind of KINDS) {
  describe(`${kind}: convex hulls from meshes`, () => {
    it("a CONVEX_HULL aggregate of a scaled box mesh rests at the right height and has the box's mass", async () => {
      const t = await makeScene(kind);
      const g = MeshBuilder.CreateBox("g", { width: 20, height: 1, depth: 20 }, t.scene);
      g.position.y = -0.5;
      new PhysicsAggregate(g, PhysicsShapeType.BOX, { mass: 0 }, t.scene);
      const b = boxMesh(t.scene, "hull", 0.5, 0.5, 0.5);
      b.scaling.set(2, 1, 1.5); // absoluteScaling baked: 2 x 1 x 1.5 m
      b.position.y = 1.5;
      const agg = new PhysicsAggregate(b, PhysicsShapeType.CONVEX_HULL, { mass: 3 }, t.scene);
      const mp = agg.body.getMassProperties();
      // per unit mass box inertia (b^2 + c^2) / 12
      expect(mp.mass).toBeCloseTo(3, 5);
      expect(mp.inertia!.x).toBeCloseTo((1 + 2.25) / 12, 2);
      expect(mp.inertia!.y).toBeCloseTo((4 + 2.25) / 12, 2);
      expect(mp.inertia!.z).toBeCloseTo((4 + 1) / 12, 2);
      // density-derived mass: 3 m^3 * 1000
      const free = new PhysicsBody(new TransformNode("n", t.scene), PhysicsMotionType.DYNAMIC, false, t.scene);
      free.shape = agg.shape;
      // Havok's hull is shrunk by its convex radius: 2999.3 kg
      expect(Math.abs(free.getMassProperties().mass! - 3000)).toBeLessThan(kind === "havok" ? 3 : 1e-6);
      free.dispose();
      t.step(120);
      log(kind, "hull box rest y", b.position.y.toFixed(4), "(expected 0.5)");
      expect(Math.abs(b.position.y - 0.5)).toBeLessThan(0.005);
      const bb = agg.shape.getBoundingBox();
      expect(bb.maximum.x - bb.minimum.x).toBeCloseTo(2, 1);
      expect(bb.maximum.z - bb.minimum.z).toBeCloseTo(1.5, 1);
      t.dispose();
    });

    for (const type of [PhysicsShapeType.CONVEX_HULL, PhysicsShapeType.MESH]) {
      it(`a ${type === PhysicsShapeType.MESH ? "MESH" : "CONVEX_HULL"} aggregate of a parented, scaled mesh with a child mesh rests at the analytic height`, async () => {
        const t = await makeScene(kind);
        const g = MeshBuilder.CreateBox("g", { width: 20, height: 1, depth: 20 }, t.scene);
        g.position.y = -0.5;
        new PhysicsAggregate(g, PhysicsShapeType.BOX, { mass: 0 }, t.scene);
        const parent = new TransformNode("p", t.scene);
        parent.scaling.set(1, 0.5, 1);
        parent.position.set(0, 2, 0);
        const m = boxMesh(t.scene, "m", 0.5, 0.5, 0.5);
        m.parent = parent;
        const top = boxMesh(t.scene, "top", 0.5, 0.5, 0.5);
        top.parent = m;
        // Two boxes sharing a face: local y from -0.5 to 1.5 together, 1 m tall after the parent's 0.5 scale.
        // Merged into one MESH the shared face's edges are used four times, yet the surface is watertight.
        top.position.y = 1;
        const agg = new PhysicsAggregate(m, type, { mass: 1, includeChildMeshes: true } as PhysicsAggregateParameters, t.scene);
        const bb = agg.shape.getBoundingBox();
        expect(bb.minimum.y).toBeCloseTo(-0.25, 1);
        expect(bb.maximum.y).toBeCloseTo(0.75, 1);
        t.step(120);
        const y = m.getAbsolutePosition().y;
        log(kind, type === PhysicsShapeType.MESH ? "MESH" : "CONVEX_HULL", "parented + child rest y", y.toFixed(4), "(expected 0.25)");
        expect(Math.abs(y - 0.25)).toBeLessThan(0.01);
        t.dispose();
      });
    }

    it("a dynamic closed MESH body gets the solid's mass and rests on the ground", async () => {
      const t = await makeScene(kind);
      const g = MeshBuilder.CreateBox("g", { width: 20, height: 1, depth: 20 }, t.scene);
      g.position.y = -0.5;
      new PhysicsAggregate(g, PhysicsShapeType.BOX, { mass: 0 }, t.scene);
      const b = boxMesh(t.scene, "m", 0.5, 0.25, 0.5);
      b.position.y = 1;
      const body = new PhysicsBody(b, PhysicsMotionType.DYNAMIC, false, t.scene);
      body.shape = new PhysicsShapeMesh(b, t.scene);
      const mp = body.getMassProperties();
      log(kind, "closed box MESH (1 x 0.5 x 1) mass", mp.mass, "inertia", mp.inertia!.asArray().map((v) => v.toFixed(5)).join(","));
      // 0.5 m^3 * 1000 kg/m^3; per unit mass (b^2 + c^2) / 12
      const tol = kind === "havok" ? 0.01 : 1e-9; // relative
      expect(Math.abs(mp.mass! / 500 - 1)).toBeLessThan(tol);
      expect(Math.abs(mp.inertia!.y / (2 / 12) - 1)).toBeLessThan(10 * tol);
      expect(Math.abs(mp.inertia!.x / (1.25 / 12) - 1)).toBeLessThan(10 * tol);
      t.step(90);
      expect(Math.abs(b.position.y - 0.25)).toBeLessThan(0.01);
      t.dispose();
    });

    it("includeChildMeshes gathers child meshes (and instances) except those with their own body", async () => {
      const t = await makeScene(kind);
      const root = boxMesh(t.scene, "root", 0.5, 0.5, 0.5);
      root.scaling.setAll(2); // root box spans +-1
      const child = boxMesh(t.scene, "child", 0.5, 0.5, 0.5);
      child.parent = root;
      child.position.set(0, 2, 0); // local: reaches y = 2.5 -> 5 in the scaled body frame
      const inst = child.createInstance("inst");
      inst.parent = root;
      inst.position.set(0, 0, 3); // reaches z = 3.5 -> 7
      const own = boxMesh(t.scene, "own", 0.5, 0.5, 0.5);
      own.parent = root;
      own.position.set(5, 0, 0); // would reach x = 11, but has its own body
      new PhysicsBody(own, PhysicsMotionType.ANIMATED, false, t.scene).shape = new PhysicsShapeBox(Vector3.Zero(), Quaternion.Identity(), Vector3.One(), t.scene);
      for (const type of [PhysicsShapeType.CONVEX_HULL, PhysicsShapeType.MESH]) {
        const Ctor = type === PhysicsShapeType.MESH ? PhysicsShapeMesh : PhysicsShapeConvexHull;
        const alone = new Ctor(root, t.scene).getBoundingBox();
        expect(alone.maximum.y).toBeCloseTo(1, 1);
        // the convenience constructors do not expose includeChildMeshes: go through the parameters
        const all = new PhysicsShape({ type, parameters: { mesh: root, includeChildMeshes: true } }, t.scene).getBoundingBox();
        log(kind, "includeChildMeshes", type, "max", all.maximum.asArray().map((v) => v.toFixed(3)).join(","));
        expect(all.maximum.y).toBeCloseTo(5, 1);
        expect(all.maximum.z).toBeCloseTo(7, 1);
        expect(all.maximum.x).toBeCloseTo(1, 1); // the child with its own body is left out
      }
      t.dispose();
    });
  });

  describe(`${kind}: ground meshes and heightfields`, () => {
    it("MESH ground (CreateGround with subdivisions): spheres rest at the analytic height within 5 mm", async () => {
      const t = await makeScene(kind);
      const ground = terrainGround(t.scene);
      new PhysicsAggregate(ground, PhysicsShapeType.MESH, { mass: 0 }, t.scene);
      const balls = dropSpheres(t);
      t.step(150);
      const errs = balls.map((b, i) => b.transformNode.position.y - (terrace(SPOTS[i][0], SPOTS[i][1]) + 0.5));
      log(kind, "MESH ground sphere errors (m)", errs.map((e) => e.toFixed(5)).join(" "));
      for (const e of errs) expect(Math.abs(e)).toBeLessThan(0.005);
      t.dispose();
    });

    it("HEIGHTFIELD from arrays: spheres rest at the analytic height within 5 mm", async () => {
      const t = await makeScene(kind);
      const data = heightData(N, N, SIZE, SIZE, terrace);
      const node = new TransformNode("hf", t.scene);
      const body = new PhysicsBody(node, PhysicsMotionType.STATIC, false, t.scene);
      body.shape = new PhysicsShapeHeightField(SIZE, SIZE, N, N, data, t.scene);
      const balls = dropSpheres(t);
      t.step(150);
      const errs = balls.map((b, i) => b.transformNode.position.y - (terrace(SPOTS[i][0], SPOTS[i][1]) + 0.5));
      log(kind, "HEIGHTFIELD arrays sphere errors (m)", errs.map((e) => e.toFixed(5)).join(" "));
      for (const e of errs) expect(Math.abs(e)).toBeLessThan(0.005);
      t.dispose();
    });

    it("PhysicsShapeGroundMesh: Continuum's surface is the rendered ground; Havok's is lowered by the ground's min Y", async () => {
      const t = await makeScene(kind);
      const ground = terrainGround(t.scene);
      new PhysicsBody(ground, PhysicsMotionType.STATIC, false, t.scene).shape = new PhysicsShapeGroundMesh(ground as GroundMesh, t.scene);
      const balls = dropSpheres(t);
      t.step(150);
      // Havok stores heights relative to the lowest world Y (docs/babylon-differences.md 1.9): everything MIN_Y lower.
      const offset = kind === "havok" ? -MIN_Y : 0;
      const errs = balls.map((b, i) => b.transformNode.position.y - (terrace(SPOTS[i][0], SPOTS[i][1]) + 0.5 + offset));
      log(kind, "groundMesh sphere errors vs", kind === "havok" ? "surface - minY" : "rendered surface", errs.map((e) => e.toFixed(5)).join(" "));
      for (const e of errs) expect(Math.abs(e)).toBeLessThan(0.005);
      t.dispose();
    });

    it("PhysicsAggregate(HEIGHTFIELD): with groundMesh in the options on both; from the mesh alone only on Continuum", async () => {
      const t = await makeScene(kind);
      const g1 = terrainGround(t.scene, "g1");
      // PhysicsAggregateParameters does not declare groundMesh; the options object reaches initShape whole.
      const opts = { mass: 0, groundMesh: g1 } as PhysicsAggregateParameters;
      const agg = new PhysicsAggregate(g1, PhysicsShapeType.HEIGHTFIELD, opts, t.scene);
      expect(agg.body.getMotionType()).toBe(PhysicsMotionType.STATIC);
      const hit = rayDown(t, -8, -8);
      expect(hit.hasHit).toBe(true);
      expect(hit.hitPointWorld.y).toBeCloseTo(kind === "havok" ? terrace(-8, -8) - MIN_Y : terrace(-8, -8), 3);
      agg.dispose();
      const g2 = terrainGround(t.scene, "g2");
      if (kind === "havok") {
        // PhysicsAggregate passes `mesh`, never `groundMesh` (docs/babylon-differences.md 2): Havok needs the arrays.
        expect(() => new PhysicsAggregate(g2, PhysicsShapeType.HEIGHTFIELD, { mass: 0 }, t.scene)).toThrow(/heightfield/i);
      } else {
        new PhysicsAggregate(g2, PhysicsShapeType.HEIGHTFIELD, { mass: 0 }, t.scene);
        const h2 = rayDown(t, 2, 7);
        expect(h2.hitPointWorld.y).toBeCloseTo(terrace(2, 7), 5);
      }
      t.dispose();
    });

    it("raycasts against MESH and HEIGHTFIELD report point, normal and triangleIndex", async () => {
      const t = await makeScene(kind);
      const ground = terrainGround(t.scene);
      ground.position.x = -30; // MESH ground centred at x = -30
      new PhysicsAggregate(ground, PhysicsShapeType.MESH, { mass: 0 }, t.scene);
      const node = new TransformNode("hf", t.scene);
      node.position.x = 30; // heightfield centred at x = +30
      new PhysicsBody(node, PhysicsMotionType.STATIC, false, t.scene).shape = new PhysicsShapeHeightField(SIZE, SIZE, N, N, heightData(N, N, SIZE, SIZE, terrace), t.scene);
      const pos = ground.getVerticesData(VertexBuffer.PositionKind)!;
      const idx = ground.getIndices()!;
      // Points in sloped cells (between terraces) and on flat ones, off the cell diagonals.
      const pts: [number, number][] = [
        [-5.3, -8.2],
        [-4.7, 1.6],
        [2.2, -4.6],
        [4.6, 4.8],
        [-8.3, -7.9],
      ];
      for (const [lx, lz] of pts) {
        // MESH: the Babylon triangle under (lx, lz), and its normal (facing up, towards the ray's origin).
        let tri = -1;
        let n = new Vector3();
        let yAt = NaN;
        for (let k = 0; k < idx.length / 3; k++) {
          const a = Vector3.FromArray(pos, 3 * idx[3 * k]),
            b = Vector3.FromArray(pos, 3 * idx[3 * k + 1]),
            c = Vector3.FromArray(pos, 3 * idx[3 * k + 2]);
          const r = new Ray(new Vector3(lx, 10, lz), new Vector3(0, -1, 0), 20).intersectsTriangle(a, b, c);
          if (r) {
            tri = k;
            yAt = 10 - r.distance;
            n = Vector3.Cross(b.subtract(a), c.subtract(a)).normalize();
            if (n.y < 0) n.scaleInPlace(-1);
            break;
          }
        }
        expect(tri).toBeGreaterThanOrEqual(0);
        const m = rayDown(t, lx - 30, lz);
        expect(m.hasHit).toBe(true);
        // Havok quantises mesh vertices (0.8 mm off here); Continuum keeps them (float64 of the float32 data).
        const tol = kind === "havok" ? 2e-3 : 1e-6;
        expect(Math.abs(m.hitPointWorld.y - yAt)).toBeLessThan(tol);
        expect(m.hitNormalWorld.subtract(n).length()).toBeLessThan(kind === "havok" ? 5e-3 : 1e-6);
        expect(Math.abs(m.hitDistance - (10 - yAt))).toBeLessThan(tol);
        if (kind === "continuum") expect(m.triangleIndex).toBe(tri);
        else {
          // Havok pairs a cell's two triangles into a quad and reports one index of the pair.
          log("havok mesh triangleIndex", m.triangleIndex, "Babylon triangle", tri);
          expect(m.triangleIndex >> 1).toBe(tri >> 1);
        }
        // HEIGHTFIELD: same surface; Continuum numbers triangles 2 * (zi * (nX - 1) + xi) + k (k = 0 the (-X, -Z) half).
        const h = rayDown(t, lx + 30, lz);
        expect(h.hasHit).toBe(true);
        expect(Math.abs(h.hitPointWorld.y - yAt)).toBeLessThan(kind === "havok" ? 1e-4 : 1e-6);
        expect(h.hitNormalWorld.subtract(n).length()).toBeLessThan(kind === "havok" ? 1e-3 : 1e-6);
        if (kind === "continuum") {
          const fx = lx + 10,
            fz = lz + 10;
          const xi = Math.floor(fx),
            zi = Math.floor(fz);
          const k = fx - xi + (fz - zi) < 1 ? 0 : 1;
          expect(h.triangleIndex).toBe(2 * (zi * (N - 1) + xi) + k);
          expect(h.shape).toBeDefined();
        } else {
          log("havok heightfield triangleIndex at", lx, lz, "=", h.triangleIndex);
        }
      }
      // a box hit reports triangleIndex -1
      const b = MeshBuilder.CreateBox("b", { size: 1 }, t.scene);
      b.position.set(0, 20, 50);
      new PhysicsAggregate(b, PhysicsShapeType.BOX, { mass: 0 }, t.scene);
      const bh = new PhysicsRaycastResult();
      (t.scene.getPhysicsEngine() as PhysicsEngineV2).raycastToRef(new Vector3(0, 30, 50), new Vector3(0, 0, 50), bh);
      expect(bh.hasHit).toBe(true);
      expect(bh.triangleIndex).toBe(-1);
      t.dispose();
    });

    it("getBodyGeometry: hull faces, mesh triangles and the heightfield grid", async () => {
      const t = await makeScene(kind);
      const box = boxMesh(t.scene, "hull", 0.5, 0.5, 0.5);
      const hull = new PhysicsAggregate(box, PhysicsShapeType.CONVEX_HULL, { mass: 1 }, t.scene);
      const ground = terrainGround(t.scene);
      const mesh = new PhysicsAggregate(ground, PhysicsShapeType.MESH, { mass: 0 }, t.scene);
      const hfBody = new PhysicsBody(new TransformNode("hf", t.scene), PhysicsMotionType.STATIC, false, t.scene);
      hfBody.shape = new PhysicsShapeHeightField(SIZE, SIZE, N, N, heightData(N, N, SIZE, SIZE, terrace), t.scene);
      const gh = hull.body.getGeometry() as { positions: ArrayLike<number>; indices: ArrayLike<number> };
      const gm = mesh.body.getGeometry() as { positions: ArrayLike<number>; indices: ArrayLike<number> };
      const gf = hfBody.getGeometry() as { positions: ArrayLike<number>; indices: ArrayLike<number> };
      const counts = (g: { positions: ArrayLike<number>; indices: ArrayLike<number> }) => [g.positions.length / 3, g.indices.length / 3];
      log(kind, "geometry [vertices, triangles]: hull", counts(gh), "mesh", counts(gm), "heightfield", counts(gf));
      expect(counts(gh)[1]).toBe(12); // 6 quads
      expect(counts(gm)[1]).toBe(2 * (N - 1) * (N - 1));
      expect(counts(gf)).toEqual([N * N, 2 * (N - 1) * (N - 1)]);
      // body-local heightfield grid: x, z in [-10, 10], heights as given
      let maxY = -Infinity,
        minX = Infinity;
      for (let i = 0; i < gf.positions.length; i += 3) {
        maxY = Math.max(maxY, gf.positions[i + 1]);
        minX = Math.min(minX, gf.positions[i]);
      }
      expect(minX).toBeCloseTo(-10, 4);
      expect(maxY).toBeCloseTo(terrace(10, 10), 4);
      t.dispose();
    });
  });
}

describe("continuum: mesh shapes beyond Havok's behaviour", () => {
  it("a non-square heightfield (5 x 3 samples) matches data[(nZ-1-zi)*nX + xi] at every sample", async () => {
    const t = await makeScene("continuum");
    const nX = 5,
      nZ = 3,
      sx = 8,
      sz = 3;
    const data = new Float32Array(nX * nZ);
    for (let i = 0; i < data.length; i++) data[i] = 0.1 * i + (i % 2) * 0.05; // every sample distinct
    const node = new TransformNode("hf", t.scene);
    node.position.set(1, 2, 3);
    const body = new PhysicsBody(node, PhysicsMotionType.STATIC, false, t.scene);
    body.shape = new PhysicsShapeHeightField(sx, sz, nX, nZ, data, t.scene);
    for (let zi = 0; zi < nZ; zi++) {
      for (let xi = 0; xi < nX; xi++) {
        const x = -sx / 2 + (xi * sx) / (nX - 1),
          z = -sz / 2 + (zi * sz) / (nZ - 1);
        // nudge inside the grid on its border so the ray is not tangent to the footprint
        const ex = x - Math.sign(x) * 1e-7,
          ez = z - Math.sign(z) * 1e-7;
        const r = rayDown(t, 1 + ex, 3 + ez);
        expect(r.hasHit).toBe(true);
        expect(r.hitPointWorld.y - 2).toBeCloseTo(data[(nZ - 1 - zi) * nX + xi], 5);
      }
    }
    const g = body.getGeometry() as { positions: ArrayLike<number>; indices: ArrayLike<number> };
    expect([g.positions.length / 3, g.indices.length / 3]).toEqual([nX * nZ, 2 * (nX - 1) * (nZ - 1)]);
    const bb = body.shape!.getBoundingBox();
    expect(bb.minimum.asArray()).toEqual([-4, 0, -1.5]);
    expect(bb.maximum.x).toBe(4);
    expect(bb.maximum.y).toBeCloseTo(Math.max(...data), 6);
    t.dispose();
  });

  it("a non-square ground mesh (subdivisionsX 8, subdivisionsY 3), scaled: the collision surface is the rendered ground", async () => {
    const t = await makeScene("continuum");
    const g = MeshBuilder.CreateGround("g", { width: 8, height: 3, subdivisionsX: 8, subdivisionsY: 3, updatable: true }, t.scene);
    const pos = g.getVerticesData(VertexBuffer.PositionKind)!;
    for (let i = 0; i < pos.length; i += 3) pos[i + 1] = 1 + 0.3 * Math.sin(pos[i]) + 0.2 * pos[i + 2];
    g.updateVerticesData(VertexBuffer.PositionKind, pos);
    g.refreshBoundingInfo();
    g.scaling.set(1.5, 2, 1);
    g.position.set(0, -1, 0);
    g.computeWorldMatrix(true);
    new PhysicsBody(g, PhysicsMotionType.STATIC, false, t.scene).shape = new PhysicsShapeGroundMesh(g as GroundMesh, t.scene);
    // random points: our ray against the rendered triangles, interpolated exactly (Babylon's own picking
    // accepts barycentric coordinates 1e-3 outside a triangle, so near grid lines it may report the neighbour's plane)
    const idx = g.getIndices()!;
    const world = g.getWorldMatrix();
    const rendered = (wx: number, wz: number): number => {
      const lx = wx / 1.5,
        lz = wz; // local (the node has no rotation; x scaled 1.5)
      for (let k = 0; k < idx.length; k += 3) {
        const [a, b, c] = [idx[k], idx[k + 1], idx[k + 2]].map((v) => [pos[3 * v], pos[3 * v + 1], pos[3 * v + 2]]);
        const d = (b[0] - a[0]) * (c[2] - a[2]) - (c[0] - a[0]) * (b[2] - a[2]);
        const u = ((lx - a[0]) * (c[2] - a[2]) - (c[0] - a[0]) * (lz - a[2])) / d;
        const v = ((b[0] - a[0]) * (lz - a[2]) - (lx - a[0]) * (b[2] - a[2])) / d;
        if (u < -1e-12 || v < -1e-12 || u + v > 1 + 1e-12) continue;
        const ly = a[1] + u * (b[1] - a[1]) + v * (c[1] - a[1]);
        return Vector3.TransformCoordinates(new Vector3(lx, ly, lz), world).y;
      }
      return NaN;
    };
    let seed = 7;
    const rnd = () => ((seed = (seed * 16807) % 2147483647) / 2147483647);
    let worst = 0;
    for (let i = 0; i < 50; i++) {
      const x = (rnd() - 0.5) * 8 * 1.5 * 0.98,
        z = (rnd() - 0.5) * 3 * 0.98;
      const ours = rayDown(t, x, z);
      expect(ours.hasHit).toBe(true);
      worst = Math.max(worst, Math.abs(ours.hitPointWorld.y - rendered(x, z)));
    }
    // and at every vertex: the rendered vertex itself
    for (let v = 0; v < pos.length; v += 3) {
      const w = Vector3.TransformCoordinates(Vector3.FromArray(pos, v), world);
      const ex = w.x - Math.sign(w.x) * 1e-7,
        ez = w.z - Math.sign(w.z) * 1e-7;
      worst = Math.max(worst, Math.abs(rayDown(t, ex, ez).hitPointWorld.y - w.y));
    }
    log("non-square scaled ground mesh: worst |ray - rendered| =", worst.toExponential(2));
    expect(worst).toBeLessThan(1e-5);
    expect(((g.physicsBody!.shape!._pluginData as { engineShape: object }).engineShape).constructor.name).toBe("Heightfield");
    t.dispose();
  });

  it("a ground mesh that is not a centred full grid (holes) becomes a triangle mesh of its triangles", async () => {
    const t = await makeScene("continuum");
    const g = MeshBuilder.CreateGround("g", { width: 4, height: 4, subdivisions: 4 }, t.scene);
    const idx = Array.from(g.getIndices()!);
    idx.splice(0, 6); // drop one cell (a hole)
    g.setIndices(idx);
    new PhysicsBody(g, PhysicsMotionType.STATIC, false, t.scene).shape = new PhysicsShapeGroundMesh(g as GroundMesh, t.scene);
    // Babylon's first cell (row 0, col 0) is at the -X, +Z corner
    expect(rayDown(t, -1.5, 1.5).hasHit).toBe(false);
    expect(rayDown(t, 1.5, 1.5).hasHit).toBe(true);
    t.dispose();
  });

  it("containers with hull and mesh children; mixing a mesh with convex children is refused", async () => {
    const t = await makeScene("continuum");
    const a = boxMesh(t.scene, "a", 0.5, 0.5, 0.5);
    a.setEnabled(false);
    const hull = new PhysicsShapeConvexHull(a, t.scene);
    const box = new PhysicsShapeBox(Vector3.Zero(), Quaternion.Identity(), Vector3.One(), t.scene);
    const c1 = new PhysicsShapeContainer(t.scene);
    c1.addChild(hull, new Vector3(2, 0, 0));
    c1.addChild(box, new Vector3(-2, 0, 0));
    const b1 = new PhysicsBody(new TransformNode("c1", t.scene), PhysicsMotionType.DYNAMIC, false, t.scene);
    b1.shape = c1;
    expect(b1.getMassProperties().mass).toBeCloseTo(2000, 0);
    expect(c1.getBoundingBox().maximum.x).toBeCloseTo(2.5, 5);

    const ground = terrainGround(t.scene);
    ground.setEnabled(false);
    const m1 = new PhysicsShapeMesh(ground, t.scene);
    const c2 = new PhysicsShapeContainer(t.scene);
    c2.addChild(m1, new Vector3(0, 0, 0));
    c2.addChild(m1, new Vector3(0, 5, 0), Quaternion.RotationAxis(Vector3.Up(), Math.PI / 2));
    const node = new TransformNode("c2", t.scene);
    node.position.x = 100;
    const b2 = new PhysicsBody(node, PhysicsMotionType.STATIC, false, t.scene);
    b2.shape = c2;
    const top = rayDown(t, 100 + 2.5, -3.5, 20);
    // the upper child is turned 90 degrees about Y (q v q*: (x, z) -> (z, -x)): container (2.5, -3.5) is its (3.5, 2.5)
    expect(top.hitPointWorld.y).toBeCloseTo(5 + terrace(3.5, 2.5), 5);
    expect(top.shape).toBe(m1);
    expect(top.triangleIndex).toBeGreaterThanOrEqual(0);
    expect(top.triangleIndex).toBeLessThan(2 * (N - 1) * (N - 1));
    const g2 = b2.getGeometry() as { indices: ArrayLike<number> };
    expect(g2.indices.length / 3).toBe(4 * (N - 1) * (N - 1));
    expect(() => c2.addChild(box)).toThrow(TypeError);
    expect(c2.getNumChildren()).toBe(2);
    expect(rayDown(t, 100 + 2.5, -3.5, 20).hitPointWorld.y).toBeCloseTo(5 + terrace(3.5, 2.5), 5);
    t.dispose();
  });

  it("bad input throws TypeError / RangeError naming the argument", async () => {
    const t = await makeScene("continuum");
    const empty = new Mesh("empty", t.scene);
    expect(() => new PhysicsShapeConvexHull(empty, t.scene)).toThrow(RangeError);
    expect(() => new PhysicsShapeConvexHull(empty, t.scene)).toThrow(/options\.mesh has no vertices/);
    expect(() => new PhysicsShapeMesh(empty, t.scene)).toThrow(/options\.mesh has no vertices/);
    const line = new Mesh("line", t.scene);
    const vd = new VertexData();
    vd.positions = [0, 0, 0, 1, 1, 1, 2, 2, 2, 3, 3, 3];
    vd.indices = [0, 1, 2, 1, 2, 3];
    vd.applyToMesh(line);
    expect(() => new PhysicsShapeMesh(line, t.scene)).toThrow(/options\.mesh.*zero area/);
    expect(() => new PhysicsShape({ type: PhysicsShapeType.MESH, parameters: {} }, t.scene)).toThrow(TypeError);
    expect(() => new PhysicsShape({ type: PhysicsShapeType.MESH, parameters: {} }, t.scene)).toThrow(/options\.mesh/);
    expect(() => new PhysicsShape({ type: PhysicsShapeType.HEIGHTFIELD, parameters: {} }, t.scene)).toThrow(TypeError);
    expect(() => new PhysicsShapeHeightField(4, 4, 3, 3, new Float32Array(8), t.scene)).toThrow(/options\.heightFieldData must hold/);
    expect(() => new PhysicsShapeHeightField(4, 4, 1, 3, new Float32Array(8), t.scene)).toThrow(/options\.numHeightFieldSamplesX/);
    expect(() => new PhysicsShapeHeightField(0, 4, 3, 3, new Float32Array(9), t.scene)).toThrow(/options\.heightFieldSizeX/);
    expect(() => new PhysicsShapeGroundMesh(empty as never, t.scene)).toThrow(/options\.groundMesh has no vertices/);
    t.dispose();
  });

  it("the PhysicsViewer draws hull, mesh and heightfield bodies", async () => {
    const t = await makeScene("continuum");
    new FreeCamera("cam", new Vector3(0, 15, -30), t.scene);
    const viewer = new PhysicsViewer(t.scene);
    const hullMesh = MeshBuilder.CreateIcoSphere("ico", { radius: 0.5, subdivisions: 2 }, t.scene);
    hullMesh.position.y = 5;
    const hull = new PhysicsAggregate(hullMesh, PhysicsShapeType.CONVEX_HULL, { mass: 1 }, t.scene);
    const ground = terrainGround(t.scene);
    const mesh = new PhysicsAggregate(ground, PhysicsShapeType.MESH, { mass: 0 }, t.scene);
    const hfNode = new TransformNode("hf", t.scene);
    hfNode.position.z = 25;
    const hf = new PhysicsBody(hfNode, PhysicsMotionType.STATIC, false, t.scene);
    hf.shape = new PhysicsShapeHeightField(SIZE, SIZE, N, N, heightData(N, N, SIZE, SIZE, terrace), t.scene);
    const shown = [hull.body, mesh.body, hf].map((b) => viewer.showBody(b));
    for (const d of shown) {
      expect(d).toBeTruthy();
      expect(d!.getTotalIndices()).toBeGreaterThan(0);
    }
    expect(shown[1]!.getTotalIndices() / 3).toBe(2 * (N - 1) * (N - 1));
    t.step(30);
    t.scene.render();
    expect(Math.abs(shown[0]!.position.y - hullMesh.position.y)).toBeLessThan(0.02);
    viewer.dispose();
    t.dispose();
  });

  it("steady stepping and raycasting with hulls on a mesh and a heightfield keep the heap flat", async () => {
    const t = await makeScene("continuum");
    const ground = terrainGround(t.scene);
    new PhysicsAggregate(ground, PhysicsShapeType.MESH, { mass: 0 }, t.scene);
    const hfNode = new TransformNode("hf", t.scene);
    hfNode.position.x = 25;
    new PhysicsBody(hfNode, PhysicsMotionType.STATIC, false, t.scene).shape = new PhysicsShapeHeightField(SIZE, SIZE, N, N, heightData(N, N, SIZE, SIZE, terrace), t.scene);
    for (let i = 0; i < 40; i++) {
      const m = MeshBuilder.CreateIcoSphere("h" + i, { radius: 0.4, subdivisions: 1 }, t.scene);
      m.position.set((i % 2) * 25 + ((i >> 1) % 5) * 3 - 6, 4, Math.floor(i / 10) * 3 - 4);
      new PhysicsAggregate(m, PhysicsShapeType.CONVEX_HULL, { mass: 1 }, t.scene).body.setLinearVelocity(new Vector3(0.5, 0, 0.3));
    }
    const pe = t.scene.getPhysicsEngine() as PhysicsEngineV2;
    const r = new PhysicsRaycastResult();
    const from = new Vector3(),
      to = new Vector3();
    const cast = (k: number) => {
      from.set((k % 17) - 8, 10, ((k * 7) % 17) - 8);
      to.set(from.x, -10, from.z);
      pe.raycastToRef(from, to, r);
      from.x += 25;
      to.x += 25;
      pe.raycastToRef(from, to, r);
    };
    // warm-up: the engine's scratch lists grow to the scene's contact count, then stay
    for (let k = 0; k < 300; k++) {
      t.step(1);
      cast(k);
    }
    const gc = (globalThis as { gc?: () => void }).gc;
    gc?.();
    const before = process.memoryUsage().heapUsed;
    for (let k = 0; k < 600; k++) {
      t.step(1);
      cast(k);
    }
    gc?.();
    const grown = process.memoryUsage().heapUsed - before;
    log("heap growth over 600 steps + 1200 raycasts (bytes):", grown);
    expect(r.hasHit).toBe(true);
    // as in shapes.test.ts: without gc() exposed this only catches gross per-step allocation
    expect(grown).toBeLessThan(8 * 1024 * 1024);
    t.dispose();
  });
});

describe("flat and collinear CONVEX_HULL meshes (issue 16, item 4)", () => {
  for (const kind of KINDS) {
    it(`${kind}: a ground mesh as CONVEX_HULL holds a box; a flat disc hull lands on it and holds a box on top`, async () => {
      const t = await makeScene(kind);
      const ground = MeshBuilder.CreateGround("ground", { width: 10, height: 10 }, t.scene);
      const g = new PhysicsAggregate(ground, PhysicsShapeType.CONVEX_HULL, { mass: 0 }, t.scene);
      // A thin solid around the plane: Havok's convex radius is about 1 cm (bounding box y = +-0.0106),
      // Continuum's slab 1 mm each side.
      const bb = g.shape.getBoundingBox();
      expect(bb.maximum.y).toBeGreaterThan(0.0009);
      expect(bb.maximum.y).toBeLessThan(0.011);
      expect(Math.abs(bb.minimum.y + bb.maximum.y)).toBeLessThan(1e-6);
      const b = MeshBuilder.CreateBox("box", { size: 1 }, t.scene);
      b.position.set(-3, 2, 0);
      new PhysicsAggregate(b, PhysicsShapeType.BOX, { mass: 1, restitution: 0 }, t.scene);
      // A disc (radius 1, 1 kg) lying flat, a 0.5 m box dropped on it.
      const disc = MeshBuilder.CreateDisc("disc", { radius: 1, tessellation: 24 }, t.scene);
      disc.rotation.x = Math.PI / 2;
      disc.position.set(2, 1, 0);
      const d = new PhysicsAggregate(disc, PhysicsShapeType.CONVEX_HULL, { mass: 1, restitution: 0 }, t.scene);
      const top = MeshBuilder.CreateBox("top", { size: 0.5 }, t.scene);
      top.position.set(2, 2, 0);
      new PhysicsAggregate(top, PhysicsShapeType.BOX, { mass: 0.5, restitution: 0 }, t.scene);
      t.step(180);
      // Resting heights: the plane's half thickness (<= 1.1 cm on Havok) lifts each body; contacts settle
      // within a few mm.
      expect(b.position.y).toBeGreaterThan(0.5);
      expect(b.position.y).toBeLessThan(0.52);
      expect(disc.position.y).toBeGreaterThan(0);
      expect(disc.position.y).toBeLessThan(0.035);
      expect(top.position.y - disc.position.y).toBeGreaterThan(0.25);
      expect(top.position.y - disc.position.y).toBeLessThan(0.28);
      // At rest, level and in place.
      const v = new Vector3();
      d.body.getLinearVelocityToRef(v);
      expect(v.length()).toBeLessThan(0.01);
      expect(Math.abs(disc.position.x - 2)).toBeLessThan(0.01);
      // The box lands while the disc still settles: Havok lets it drift 1.5 cm; it stays well on the 1 m disc.
      expect(Math.abs(top.position.x - 2)).toBeLessThan(0.03);
      t.dispose();
    });

    it(`${kind}: collinear vertices as CONVEX_HULL make a thin rod with a rod's mass properties`, async () => {
      const t = await makeScene(kind);
      const line = new Mesh("line", t.scene);
      const vd = new VertexData();
      vd.positions = [0, 0, 0, 1, 0, 0, 2, 0, 0, 0.5, 0, 0];
      vd.indices = [0, 1, 2, 1, 2, 3];
      vd.applyToMesh(line);
      const a = new PhysicsAggregate(line, PhysicsShapeType.CONVEX_HULL, { mass: 1 }, t.scene);
      const mp = a.body.getMassProperties();
      // A rod from x = 0 to 2: centre (1, 0, 0), unit-mass inertia L^2 / 12 = 1/3 across it (Havok's rod is
      // 2.03 m with its 1.5 cm convex radius: 0.340), almost none along it.
      expect(mp.centerOfMass!.x).toBeCloseTo(1, 3);
      expect(Math.abs(mp.inertia!.y - 1 / 3)).toBeLessThan(0.01);
      expect(Math.abs(mp.inertia!.z - 1 / 3)).toBeLessThan(0.01);
      expect(mp.inertia!.x).toBeLessThan(0.001);
      t.dispose();
    });
  }
});
