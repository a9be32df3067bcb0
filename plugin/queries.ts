/**
 * The plugin's `pointProximity`, `shapeProximity` and `shapeCast` (docs/babylon-differences.md 1.11) over the engine's
 * WorldQueries. Input-shape results are in the query shape's local space (point on the query shape, normal
 * toward the hit shape, no body); hit results are in world space (point on the hit shape, normal toward the
 * query shape, body and instance index, the hit PhysicsShape -- the container child when known).
 */
import type { IPhysicsPointProximityQuery } from "@babylonjs/core/Physics/physicsPointProximityQuery.js";
import type { IPhysicsShapeCastQuery } from "@babylonjs/core/Physics/physicsShapeCastQuery.js";
import type { IPhysicsShapeProximityCastQuery } from "@babylonjs/core/Physics/physicsShapeProximityCastQuery.js";
import type { ProximityCastResult } from "@babylonjs/core/Physics/proximityCastResult.js";
import type { ShapeCastResult as BabylonShapeCastResult } from "@babylonjs/core/Physics/shapeCastResult.js";
import type { CastingResult } from "@babylonjs/core/Physics/castingResult.js";
import type { PhysicsBody } from "@babylonjs/core/Physics/v2/physicsBody.js";
import type { PhysicsShape } from "@babylonjs/core/Physics/v2/physicsShape.js";
import { PointProximityResult, type QueryFilter, ShapeCastResult, ShapeProximityResult, type World } from "../src/index";
import { BodyRecord } from "./bodyRecord";
import { HitLeaf, shapeDataOf, type ShapeData } from "./shapeMapping";
import { finiteNumber, quaternion, vector3 } from "./validation";

interface XYZ {
  x: number;
  y: number;
  z: number;
}

export class PluginQueries {
  private readonly _filter: QueryFilter = { membership: -1, collideWith: -1, hitTriggers: false, ignoreBody: undefined };
  private readonly _point = new PointProximityResult();
  private readonly _prox: ShapeProximityResult[] = [];
  private readonly _cast: ShapeCastResult[] = [];
  private readonly _leaf = new HitLeaf();
  private readonly _a = { x: 0, y: 0, z: 0 };
  private readonly _b = { x: 0, y: 0, z: 0 };

  constructor(
    private readonly host: { readonly world: World },
    private readonly records: ReadonlyMap<number, BodyRecord>,
  ) {}

  pointProximity(query: IPhysicsPointProximityQuery, result: ProximityCastResult): void {
    const fn = "pointProximity";
    result.reset();
    vector3(fn, "query.position", query.position);
    const maxDistance = finiteNumber(fn, "query.maxDistance", query.maxDistance);
    const f = this._setFilter(query.shouldHitTriggers, query.ignoreBody);
    f.membership = query.collisionFilter?.membership ?? -1;
    f.collideWith = query.collisionFilter?.collideWith ?? -1;
    const r = this._point;
    if (!this.host.world.queries.pointProximity(query.position, Math.max(0, maxDistance), f, r)) return;
    this._fillHit(result, r.body, r.childIndex, r.point, r.normal);
    result.setHitDistance(r.distance);
  }

  shapeProximity(query: IPhysicsShapeProximityCastQuery, inputResult: ProximityCastResult, hitResult: ProximityCastResult): void {
    const fn = "shapeProximity";
    inputResult.reset();
    hitResult.reset();
    const data = queryShape(fn, query);
    vector3(fn, "query.position", query.position);
    quaternion(fn, "query.rotation", query.rotation);
    const maxDistance = finiteNumber(fn, "query.maxDistance", query.maxDistance);
    const f = this._setFilter(query.shouldHitTriggers, query.ignoreBody);
    // Havok filters a shape query with the query shape's own masks.
    f.membership = data.membership;
    f.collideWith = data.collideWith;
    if (!data.engineShape) return;
    const n = this.host.world.queries.shapeProximity(data.engineShape, query.position, query.rotation, Math.max(0, maxDistance), f, this._prox, false);
    if (n === 0) return;
    const r = this._prox[0];
    this._fillLocal(inputResult, query.position, query.rotation, r.pointOnShape, r.normal);
    inputResult.setHitDistance(r.distance);
    this._fillHit(hitResult, r.body, r.childIndex, r.point, r.normal);
    hitResult.setHitDistance(r.distance);
  }

  shapeCast(query: IPhysicsShapeCastQuery, inputResult: BabylonShapeCastResult, hitResult: BabylonShapeCastResult): void {
    const fn = "shapeCast";
    inputResult.reset();
    hitResult.reset();
    const data = queryShape(fn, query);
    vector3(fn, "query.startPosition", query.startPosition);
    vector3(fn, "query.endPosition", query.endPosition);
    quaternion(fn, "query.rotation", query.rotation);
    const f = this._setFilter(query.shouldHitTriggers, query.ignoreBody);
    // Havok filters a shape query with the query shape's own masks.
    f.membership = data.membership;
    f.collideWith = data.collideWith;
    if (!data.engineShape) return;
    const n = this.host.world.queries.shapeCast(data.engineShape, query.rotation, query.startPosition, query.endPosition, f, this._cast, false);
    if (n === 0) return;
    const r = this._cast[0];
    // Local: the hit point in the query shape's frame at the hit position (as Havok).
    this._fillLocal(inputResult, r.position, query.rotation, r.point, r.normal);
    inputResult.setHitFraction(r.fraction);
    this._fillHit(hitResult, r.body, r.childIndex, r.point, r.normal);
    hitResult.setHitFraction(r.fraction);
  }

  private _setFilter(triggers: boolean | undefined, ignore: PhysicsBody | undefined): QueryFilter {
    const f = this._filter;
    f.membership = -1;
    f.collideWith = -1;
    f.hitTriggers = !!triggers;
    f.ignoreBody = undefined;
    if (ignore) {
      const rec = (ignore._pluginData ?? ignore._pluginDataInstances?.[0]) as BodyRecord | undefined;
      if (rec instanceof BodyRecord && rec.handle >= 0) f.ignoreBody = rec.handle;
    }
    return f;
  }

  /** World hit data: the point on the body, the normal toward the query, body, instance, shape, triangle. */
  private _fillHit(out: CastingResult, body: number, child: number, point: XYZ, normal: XYZ): void {
    const rec = this.records.get(body);
    const data = rec?.shape;
    const leaf = data ? data.resolveHit(child, this._leaf) : null;
    out.setHitData(normal, point, leaf && data?.triangles ? leaf.triangle : -1);
    out.body = rec?.body;
    out.bodyIndex = rec?.index;
    if (data) out.shape = (leaf?.leaf?.owner ?? data.owner) ?? undefined;
  }

  /** Local data: a world point and the reversed normal (toward the hit body) in the query shape's frame. */
  private _fillLocal(out: CastingResult, pos: XYZ, rot: { x: number; y: number; z: number; w: number }, point: XYZ, normal: XYZ): void {
    const l = 1 / Math.sqrt(rot.x * rot.x + rot.y * rot.y + rot.z * rot.z + rot.w * rot.w);
    const qx = -rot.x * l,
      qy = -rot.y * l,
      qz = -rot.z * l,
      qw = rot.w * l;
    rotateInto(qx, qy, qz, qw, point.x - pos.x, point.y - pos.y, point.z - pos.z, this._a);
    rotateInto(qx, qy, qz, qw, -normal.x, -normal.y, -normal.z, this._b);
    out.setHitData(this._b, this._a, -1);
  }
}

/** The query's shape: a live plugin shape that is convex or a container of convex shapes (what the engine casts). */
function queryShape(fn: string, query: { shape: PhysicsShape } | null | undefined): ShapeData {
  if (query === null || typeof query !== "object") throw new TypeError(`${fn}: query must be an object, got ${String(query)}`);
  const data = shapeDataOf(fn, "query.shape", query.shape);
  if (data.triangles) {
    throw new TypeError(`${fn}: query.shape must be convex or a CONTAINER of convex shapes, got a triangle shape (type ${data.type})`);
  }
  return data;
}

function rotateInto(qx: number, qy: number, qz: number, qw: number, vx: number, vy: number, vz: number, out: XYZ): void {
  const tx = 2 * (qy * vz - qz * vy);
  const ty = 2 * (qz * vx - qx * vz);
  const tz = 2 * (qx * vy - qy * vx);
  out.x = vx + qw * tx + (qy * tz - qz * ty);
  out.y = vy + qw * ty + (qz * tx - qx * tz);
  out.z = vz + qw * tz + (qx * ty - qy * tx);
}
