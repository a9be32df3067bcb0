/** pointProximity / shapeProximity / shapeCast and the raw _hknp collector queries, Continuum vs Havok (docs/babylon-differences.md 1.11, 3). */
import { describe, expect, it } from "vitest";
import {
  MeshBuilder,
  PhysicsAggregate,
  PhysicsShapeBox,
  PhysicsShapeSphere,
  PhysicsShapeType,
  ProximityCastResult,
  Quaternion,
  ShapeCastResult,
  Vector3,
} from "@babylonjs/core";
import { KINDS, makeScene, type TestScene } from "./helpers";

const fmt = (v: Vector3) => v.asArray().map((x) => +x.toFixed(4));

function unitBox(t: TestScene, name: string, x = 0, y = 0, z = 0, opts: { trigger?: boolean } = {}) {
  const m = MeshBuilder.CreateBox(name, { size: 1 }, t.scene);
  m.position.set(x, y, z);
  return new PhysicsAggregate(m, PhysicsShapeType.BOX, { mass: 0, isTriggerShape: opts.trigger }, t.scene);
}

type Any = Record<string, any>;
const report: Record<string, string[]> = {};
const log = (k: string, kind: string, v: unknown) => (report[k] ??= []).push(`${kind}: ${JSON.stringify(v)}`);

describe("Havok's unit-box scene: point/shape proximity and shape cast against a unit box", () => {
  for (const kind of KINDS) {
    it(kind, async () => {
      const t = await makeScene(kind, { gravity: new Vector3(0, 0, 0) });
      const agg = unitBox(t, "b");
      t.step(1);
      const p = t.plugin as Any;
      const pr = new ProximityCastResult();
      p.pointProximity({ position: new Vector3(0, 0, 3), maxDistance: 5, shouldHitTriggers: false, collisionFilter: {} }, pr);
      log("pointProximity outside", kind, [pr.hasHit, fmt(pr.hitPoint), fmt(pr.hitNormal), pr.hitDistance]);
      expect(pr.hasHit).toBe(true);
      expect(pr.hitDistance).toBeCloseTo(2.5, 4);
      expect(fmt(pr.hitPoint)).toEqual([0, 0, 0.5]);
      expect(fmt(pr.hitNormal)).toEqual([0, 0, 1]);
      expect(pr.body).toBe(agg.body);
      p.pointProximity({ position: new Vector3(0, 0, 0.2), maxDistance: 0, shouldHitTriggers: false, collisionFilter: {} }, pr);
      log("pointProximity inside", kind, [pr.hasHit, fmt(pr.hitPoint), fmt(pr.hitNormal), pr.hitDistance]);
      expect(pr.hitDistance).toBeCloseTo(-0.3, 4);
      expect(fmt(pr.hitNormal)).toEqual([0, 0, 1]);
      // Out of range: no hit.
      p.pointProximity({ position: new Vector3(0, 0, 3), maxDistance: 1, shouldHitTriggers: false, collisionFilter: {} }, pr);
      expect(pr.hasHit).toBe(false);

      const sph = new PhysicsShapeSphere(Vector3.Zero(), 0.5, t.scene);
      const a = new ProximityCastResult(),
        b = new ProximityCastResult();
      p.shapeProximity({ shape: sph, position: new Vector3(0, 0, 3), rotation: Quaternion.Identity(), maxDistance: 5, shouldHitTriggers: false }, a, b);
      log("shapeProximity", kind, { local: [fmt(a.hitPoint), fmt(a.hitNormal), a.hitDistance, a.body], world: [fmt(b.hitPoint), fmt(b.hitNormal), b.hitDistance] });
      expect(a.hasHit && b.hasHit).toBe(true);
      expect(fmt(a.hitPoint)).toEqual([0, 0, -0.5]);
      expect(fmt(a.hitNormal)).toEqual([0, 0, -1]);
      expect(a.body).toBeUndefined();
      expect(fmt(b.hitPoint)).toEqual([0, 0, 0.5]);
      expect(fmt(b.hitNormal)).toEqual([0, 0, 1]);
      expect(a.hitDistance).toBeCloseTo(2, 4);
      expect(b.hitDistance).toBeCloseTo(2, 4);
      expect(b.body).toBe(agg.body);

      const c = new ShapeCastResult(),
        d = new ShapeCastResult();
      p.shapeCast({ shape: sph, rotation: Quaternion.Identity(), startPosition: new Vector3(0, 0, 3), endPosition: new Vector3(0, 0, -3), shouldHitTriggers: false }, c, d);
      log("shapeCast", kind, { local: [fmt(c.hitPoint), fmt(c.hitNormal), c.hitFraction], world: [fmt(d.hitPoint), fmt(d.hitNormal), d.hitFraction] });
      expect(Math.abs(c.hitFraction - 1 / 3) / (1 / 3)).toBeLessThan(1e-4);
      expect(Math.abs(d.hitFraction - 1 / 3) / (1 / 3)).toBeLessThan(1e-4);
      expect(fmt(c.hitPoint)).toEqual([0, 0, -0.5]);
      expect(fmt(c.hitNormal)).toEqual([0, 0, -1]);
      expect(fmt(d.hitPoint)).toEqual([0, 0, 0.5]);
      expect(fmt(d.hitNormal)).toEqual([0, 0, 1]);
      expect(d.body).toBe(agg.body);
      expect(c.body).toBeUndefined();

      // A rotated box query: a unit box turned 45 degrees about y, cast along -z: its edge leads, at sqrt(0.5).
      const qbox = new PhysicsShapeBox(Vector3.Zero(), Quaternion.Identity(), new Vector3(1, 1, 1), t.scene);
      p.shapeCast({ shape: qbox, rotation: Quaternion.RotationAxis(Vector3.Up(), Math.PI / 4), startPosition: new Vector3(0, 0, 3), endPosition: new Vector3(0, 0, -3), shouldHitTriggers: false }, c, d);
      const f = (3 - 0.5 - Math.SQRT1_2) / 6;
      log("shapeCast rotated box", kind, [c.hitFraction, fmt(d.hitPoint), fmt(d.hitNormal)]);
      // Havok rounds box edges with its convex radius (0.35% later here); Continuum's box is exact.
      expect(Math.abs(d.hitFraction - f) / f).toBeLessThan(kind === "havok" ? 1e-2 : 1e-4);
      t.dispose();
    });
  }
});

describe("triggers and ignoreBody in the plugin queries", () => {
  for (const kind of KINDS) {
    it(kind, async () => {
      const t = await makeScene(kind, { gravity: new Vector3(0, 0, 0) });
      const near = unitBox(t, "near", 0, 0, 2, { trigger: true });
      const far = unitBox(t, "far", 0, 0, 5);
      t.step(1);
      const p = t.plugin as Any;
      const sph = new PhysicsShapeSphere(Vector3.Zero(), 0.25, t.scene);
      const c = new ShapeCastResult(),
        d = new ShapeCastResult();
      const cast = (q: Any) => {
        p.shapeCast({ shape: sph, rotation: Quaternion.Identity(), startPosition: new Vector3(0, 0, 0), endPosition: new Vector3(0, 0, 10), shouldHitTriggers: false, ...q }, c, d);
        return d.body;
      };
      expect(cast({})).toBe(far.body);
      expect(cast({ shouldHitTriggers: true })).toBe(near.body);
      expect(cast({ shouldHitTriggers: true, ignoreBody: near.body })).toBe(far.body);
      const a = new ProximityCastResult(),
        b = new ProximityCastResult();
      const prox = (q: Any) => {
        p.shapeProximity({ shape: sph, position: new Vector3(0, 0, 0), rotation: Quaternion.Identity(), maxDistance: 10, shouldHitTriggers: false, ...q }, a, b);
        return b.body;
      };
      expect(prox({})).toBe(far.body);
      expect(prox({ shouldHitTriggers: true })).toBe(near.body);
      expect(prox({ shouldHitTriggers: true, ignoreBody: near.body })).toBe(far.body);
      const pr = new ProximityCastResult();
      const pp = (q: Any) => {
        p.pointProximity({ position: new Vector3(0, 0, 0), maxDistance: 10, shouldHitTriggers: false, collisionFilter: {}, ...q }, pr);
        return pr.body;
      };
      expect(pp({})).toBe(far.body);
      expect(pp({ shouldHitTriggers: true })).toBe(near.body);
      expect(pp({ shouldHitTriggers: true, ignoreBody: near.body })).toBe(far.body);
      // Membership filter of pointProximity: the far box is in group 1 only.
      far.shape.filterMembershipMask = 1;
      expect(pp({ collisionFilter: { collideWith: 2 } })).toBeUndefined();
      t.dispose();
    });
  }
});

describe("raw _hknp collector queries (what PhysicsCharacterController calls)", () => {
  const bigKey = (kind: string, v: number) => (kind === "havok" ? BigInt(v) : v);
  for (const kind of KINDS) {
    it(kind, async () => {
      const t = await makeScene(kind, { gravity: new Vector3(0, 0, 0) });
      const far = unitBox(t, "far", 0, 0, 6),
        near = unitBox(t, "near", 0, 0, 3),
        side = unitBox(t, "side", 2, 0, 0);
      t.step(1);
      const p = t.plugin as Any;
      const hk = p._hknp;
      const sph = new PhysicsShapeSphere(Vector3.Zero(), 0.5, t.scene);
      const col = hk.HP_QueryCollector_Create(16)[1];
      const none = kind === "havok" ? [BigInt(0)] : [bigKey(kind, -1)];
      hk.HP_World_ShapeProximityWithCollector(p.world, col, [sph._pluginData, [0, 0, 0], [0, 0, 0, 1], 10, false, none]);
      const n = hk.HP_QueryCollector_GetNumHits(col)[1];
      const prox: Any[] = [];
      for (let i = 0; i < n; i++) {
        const [dist, local, world] = hk.HP_QueryCollector_GetShapeProximityResult(col, i)[1];
        prox.push({ body: p._bodies.get(world[0][0]).body.transformNode.name, d: +dist.toFixed(4), p: world[3].map((v: number) => +v.toFixed(4)), n: world[4].map((v: number) => +v.toFixed(4)), lp: local[3].map((v: number) => +v.toFixed(4)) });
      }
      log("raw proximity", kind, prox);
      // Havok's collector order is not sorted here; Continuum returns nearest first. Compare sorted.
      if (kind === "continuum") expect(prox.map((h) => h.body)).toEqual(["side", "near", "far"]);
      prox.sort((x, y) => x.d - y.d);
      expect(prox.map((h) => h.body)).toEqual(["side", "near", "far"]);
      expect(prox.map((h) => h.d)).toEqual([1, 2, 5]);
      expect(prox[0].n).toEqual([-1, 0, 0]);
      expect(prox[1].p).toEqual([0, 0, 2.5]);
      expect(prox[1].lp).toEqual([0, 0, 0.5]);
      hk.HP_World_ShapeCastWithCollector(p.world, col, [sph._pluginData, [0, 0, 0, 1], [0, 0, -2], [0, 0, 10], false, none]);
      const n2 = hk.HP_QueryCollector_GetNumHits(col)[1];
      const cast: Any[] = [];
      for (let i = 0; i < n2; i++) {
        const [f, local, world] = hk.HP_QueryCollector_GetShapeCastResult(col, i)[1];
        cast.push({ body: p._bodies.get(world[0][0]).body.transformNode.name, f: +f.toFixed(4), p: world[3].map((v: number) => +v.toFixed(4)), n: world[4].map((v: number) => +v.toFixed(4)), lp: local[3].map((v: number) => +v.toFixed(4)) });
      }
      log("raw cast", kind, cast);
      expect(cast.map((h) => h.body)).toEqual(["near", "far"]);
      expect(cast.map((h) => h.f)).toEqual([0.3333, 0.5833]);
      expect(cast[0].n).toEqual([0, 0, -1]);
      expect(cast[0].lp).toEqual([0, 0, 0.5]);
      // Ignoring a body by its hpBodyId key.
      hk.HP_World_ShapeCastWithCollector(p.world, col, [sph._pluginData, [0, 0, 0, 1], [0, 0, -2], [0, 0, 10], false, [near.body._pluginData.hpBodyId[0]]]);
      expect(hk.HP_QueryCollector_GetNumHits(col)[1]).toBe(1);
      expect(p._bodies.get(hk.HP_QueryCollector_GetShapeCastResult(col, 0)[1][2][0][0]).body).toBe(far.body);
      expect(side.body).toBeDefined();
      hk.HP_QueryCollector_Release(col);
      t.dispose();
    });
  }
  it("report", () => {
    for (const [k, v] of Object.entries(report)) console.log(k + "\n  " + v.join("\n  "));
  });
});
