/** Raycasts through PhysicsEngine.raycast / raycastToRef on both plugins (docs/babylon-differences.md 1.11). */
import { describe, expect, it } from "vitest";
import {
  MeshBuilder,
  PhysicsAggregate,
  PhysicsBody,
  PhysicsEngineV2,
  PhysicsMotionType,
  PhysicsRaycastResult,
  PhysicsShapeBox,
  PhysicsShapeContainer,
  PhysicsShapeType,
  Quaternion,
  TransformNode,
  Vector3,
} from "@babylonjs/core";
import { KINDS, makeScene, type TestScene } from "./helpers";

/** One static body of each shape type along X (x = 0, 4, 8, 12, 16). */
function shapesRow(t: TestScene) {
  const sphere = MeshBuilder.CreateSphere("sphere", { diameter: 2 }, t.scene);
  const box = MeshBuilder.CreateBox("box", { width: 2, height: 1, depth: 2 }, t.scene);
  const capsule = MeshBuilder.CreateCapsule("capsule", { height: 3, radius: 0.5 }, t.scene);
  const cylinder = MeshBuilder.CreateCylinder("cylinder", { height: 2, diameter: 2 }, t.scene);
  sphere.position.x = 0;
  box.position.x = 4;
  capsule.position.x = 8;
  cylinder.position.x = 12;
  const aggs = {
    sphere: new PhysicsAggregate(sphere, PhysicsShapeType.SPHERE, { mass: 0 }, t.scene),
    box: new PhysicsAggregate(box, PhysicsShapeType.BOX, { mass: 0 }, t.scene),
    capsule: new PhysicsAggregate(capsule, PhysicsShapeType.CAPSULE, { mass: 0 }, t.scene),
    cylinder: new PhysicsAggregate(cylinder, PhysicsShapeType.CYLINDER, { mass: 0 }, t.scene),
  };
  // A container at x = 16 with a unit box child 1 m up (top face at y = 1.5).
  const node = new TransformNode("container", t.scene);
  node.position.x = 16;
  const container = new PhysicsShapeContainer(t.scene);
  const child = new PhysicsShapeBox(Vector3.Zero(), Quaternion.Identity(), new Vector3(1, 1, 1), t.scene);
  container.addChild(child, new Vector3(0, 1, 0));
  const cb = new PhysicsBody(node, PhysicsMotionType.STATIC, false, t.scene);
  cb.shape = container;
  return { ...aggs, container: cb, containerChild: child };
}

describe("raycast hit data against every shape type", () => {
  // Ray straight down from y = 10 at x (+ a small z offset for curved shapes) and sideways for the round ones.
  const down: [string, number, number, number][] = [
    // name, x, expected hit y, expected normal y
    ["sphere", 0, 1, 1],
    ["box", 4, 0.5, 1],
    ["capsule", 8, 1.5, 1],
    ["cylinder", 12, 1, 1],
    ["container", 16, 1.5, 1],
  ];
  const data: Record<string, string[]> = {};
  for (const kind of KINDS) {
    it(`${kind}: downward rays`, async () => {
      const t = await makeScene(kind);
      const bodies = shapesRow(t);
      t.step(1);
      const pe = t.scene.getPhysicsEngine()!;
      for (const [name, x, y, ny] of down) {
        const r = pe.raycast(new Vector3(x, 10, 0), new Vector3(x, -10, 0));
        expect(r.hasHit, name).toBe(true);
        (data[name] ??= []).push(`${kind} p=${r.hitPointWorld.asArray().map((v) => v.toFixed(4))} n=${r.hitNormalWorld.asArray().map((v) => v.toFixed(3))} d=${r.hitDistance.toFixed(4)}`);
        // Exact geometry; Havok rounds through float32 (1e-4 is far above that).
        expect(r.hitPointWorld.x).toBeCloseTo(x, 4);
        expect(r.hitPointWorld.y, name).toBeCloseTo(y, 3);
        expect(r.hitNormalWorld.y).toBeCloseTo(ny, 3);
        expect(r.hitDistance).toBeCloseTo(10 - y, 3);
        expect(r.body).toBe((bodies as Record<string, { body?: PhysicsBody }>)[name].body ?? bodies.container);
        expect(r.bodyIndex).toBe(0);
        expect(r.triangleIndex).toBe(-1);
        if (kind === "continuum" && name === "container") expect(r.shape).toBe(bodies.containerChild);
        if (kind === "continuum" && name === "box") expect(r.shape).toBe(bodies.box.shape);
      }
      // Sideways into the round shapes at y = 0.3 from +z: a sphere r=1 is hit at z = sqrt(1 - 0.09).
      const side: [string, number, number][] = [
        ["sphere", 0, Math.sqrt(1 - 0.09)],
        ["capsule", 8, 0.5],
        ["cylinder", 12, 1],
      ];
      for (const [name, x, z] of side) {
        const r = pe.raycast(new Vector3(x, 0.3, 10), new Vector3(x, 0.3, -10));
        expect(r.hasHit, name).toBe(true);
        // Havok's cylinder side is a polygon (its normal there is 0.98 off a facet), so for it the point is
        // checked to 1 cm and the normal to 0.02; everything else is exact geometry.
        const faceted = kind === "havok" && name === "cylinder";
        expect(Math.abs(r.hitPointWorld.z - z), name).toBeLessThan(faceted ? 0.01 : 5e-4);
        if (name !== "sphere") expect(Math.abs(r.hitNormalWorld.z - 1)).toBeLessThan(faceted ? 0.02 : 5e-4);
        (data[name + " side"] ??= []).push(`${kind} z=${r.hitPointWorld.z.toFixed(4)} n=${r.hitNormalWorld.asArray().map((v) => v.toFixed(3))}`);
      }
      // A miss.
      const miss = pe.raycast(new Vector3(2, 10, 0), new Vector3(2, -10, 0));
      expect(miss.hasHit).toBe(false);
      t.dispose();
    });
  }
  it("report", () => {
    for (const [k, v] of Object.entries(data)) console.log(k, v.join(" | "));
  });
});

describe("raycast filters, triggers, multi-hit, inside, ignoreBody, dispose", () => {
  for (const kind of KINDS) {
    it(`${kind}`, async () => {
      const t = await makeScene(kind);
      const pe = t.scene.getPhysicsEngine()!;
      // Three boxes stacked along -y at y = 6, 3, 0; the middle one is a trigger; the top one is in group 2.
      const mk = (y: number) => {
        const m = MeshBuilder.CreateBox("b" + y, { size: 1 }, t.scene);
        m.position.y = y;
        return new PhysicsAggregate(m, PhysicsShapeType.BOX, { mass: 0 }, t.scene);
      };
      const top = mk(6),
        mid = mk(3),
        low = mk(0);
      mid.shape.isTrigger = true;
      top.shape.filterMembershipMask = 2;
      if (kind === "havok") (t.plugin as unknown as { setMaxQueryCollectorHits(n: number): void }).setMaxQueryCollectorHits(8);
      t.step(1);
      const pe2 = pe as PhysicsEngineV2;
      const from = new Vector3(0, 10, 0),
        to = new Vector3(0, -10, 0);
      // nearest non-trigger
      expect(pe.raycast(from, to).body).toBe(top.body);
      // membership filter: a query that only collides with group 1 skips the group-2 top box
      expect(pe.raycast(from, to, { collideWith: 1 }).body).toBe(low.body);
      // triggers only with shouldHitTriggers
      const all: PhysicsRaycastResult[] = [];
      pe2.raycastToRef(from, to, all, { shouldHitTriggers: true });
      expect(all.map((r) => r.body)).toEqual([top.body, mid.body, low.body]);
      expect(all.map((r) => +r.hitDistance.toFixed(3))).toEqual([3.5, 6.5, 9.5]);
      const noTrig: PhysicsRaycastResult[] = [];
      pe2.raycastToRef(from, to, noTrig);
      expect(pe2.raycastMulti(from, to, { shouldHitTriggers: true }).length).toBe(3);
      expect(noTrig.map((r) => r.body)).toEqual([top.body, low.body]);
      // pre-filled array of 1 -> the nearest
      const one = [new PhysicsRaycastResult()];
      pe2.raycastToRef(from, to, one, { shouldHitTriggers: true });
      expect(one[0].body).toBe(top.body);
      // ignoreBody
      expect(pe.raycast(from, to, { ignoreBody: top.body }).body).toBe(low.body);
      // a ray starting inside a box does not report it
      expect(pe.raycast(new Vector3(0, 6, 0), to).body).toBe(low.body);
      // after dispose: no throw, no hit
      t.scene.disablePhysicsEngine();
      const r = new PhysicsRaycastResult();
      t.plugin.raycast(from, to, r, { ignoreBody: top.body });
      expect(r.hasHit).toBe(false);
      t.dispose();
    });
  }
});

describe("a single raycast returns the nearest hit, whichever tree finds it first (issue 16, Also)", () => {
  for (const kind of KINDS) {
    it(`${kind}: a static floor in front of a dynamic box: the floor wins; behind it: the box wins`, async () => {
      const t = await makeScene(kind, { gravity: Vector3.Zero() });
      // A static slab with its top at y = 2.1 above a dynamic box with its top at y = 0.5.
      const floor = MeshBuilder.CreateBox("floor", { width: 4, height: 0.2, depth: 4 }, t.scene);
      floor.position.y = 2;
      const f = new PhysicsAggregate(floor, PhysicsShapeType.BOX, { mass: 0 }, t.scene);
      const box = MeshBuilder.CreateBox("box", { size: 1 }, t.scene);
      const b = new PhysicsAggregate(box, PhysicsShapeType.BOX, { mass: 1 }, t.scene);
      t.step(1);
      const pe = t.scene.getPhysicsEngine() as PhysicsEngineV2;
      const r = new PhysicsRaycastResult();
      pe.raycastToRef(new Vector3(0, 5, 0), new Vector3(0, -5, 0), r);
      expect(r.hasHit).toBe(true);
      expect(r.body).toBe(f.body);
      expect(r.hitPointWorld.y).toBeCloseTo(2.1, 3);
      // From below, the box is nearer than the floor.
      pe.raycastToRef(new Vector3(0, -5, 0), new Vector3(0, 5, 0), r);
      expect(r.body).toBe(b.body);
      expect(r.hitPointWorld.y).toBeCloseTo(-0.5, 3);
      t.dispose();
    });
  }
});
