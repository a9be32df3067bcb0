/**
 * The Havok-shaped query façade that Babylon's `PhysicsCharacterController` (9.34) needs: it calls the
 * Havok WASM module as `plugin._hknp.HP_*` (docs/babylon-differences.md 3). Only what the controller uses is here:
 *
 * | call | tuple layout |
 * | --- | --- |
 * | `HP_QueryCollector_Create(capacity)` | → `[0, collectorId]` |
 * | `HP_QueryCollector_Release(collectorId)` | → `[0]` |
 * | `HP_QueryCollector_GetNumHits(collectorId)` | → `[0, n]` |
 * | `HP_World_ShapeProximityWithCollector(world, c, [shape._pluginData, [x,y,z], [qx,qy,qz,qw], maxDistance, hitTriggers, [ignoreBodyKey]])` | → `[0]`; every body within maxDistance, one hit per body, nearest first |
 * | `HP_World_ShapeCastWithCollector(world, c, [shape._pluginData, [qx,qy,qz,qw], [start], [end], hitTriggers, [ignoreBodyKey]])` | → `[0]`; every body along the path, one hit per body, sorted by fraction |
 * | `HP_QueryCollector_GetShapeProximityResult(c, i)` | → `[0, [distance, contactLocal, contactWorld]]` |
 * | `HP_QueryCollector_GetShapeCastResult(c, i)` | → `[0, [fraction, contactLocal, contactWorld]]` |
 *
 * A contact is `[[bodyKey], [shapeKey], [], [px,py,pz], [nx,ny,nz], triangleIndex]`. World contacts: the point
 * on the hit body and the normal from the hit body toward the query shape. Local contacts (query shape frame):
 * for proximity the closest point on the query shape and the normal toward the hit body; for casts the hit
 * point in the query shape's frame at the hit position and the normal toward the hit body; their body key is
 * -1 (no body). Body keys are engine handles: `plugin._bodies.get(key)` gives the `{body, index}` record and
 * `body._pluginData.hpBodyId[0]` is the key. A bigint ignore key (Havok's `BigInt(0)` for "none") ignores
 * nothing. The `world` argument is ignored: the plugin's current world is queried.
 *
 * Joint drives, as glTF physics loaders written against HavokPlugin set them (`constraint._pluginData[0]` is
 * the joint id; axes from `plugin._constraintAxisToNative`, our axis numbering is Babylon's):
 *
 * | call | effect |
 * | --- | --- |
 * | `ConstraintMotorType` | `{ NONE: 0, VELOCITY: 1, POSITION: 2, SPRING_FORCE: 3, SPRING_ACCELERATION: 4 }` (the engine's MotorType) |
 * | `ConstraintAxis` | `{ LINEAR_X: 0 … ANGULAR_Z: 5, LINEAR_DISTANCE: 6 }` |
 * | `HP_Constraint_SetAxisMotorType(joint, axis, type)` | the motor type, SPRING_* included |
 * | `HP_Constraint_SetAxisMotorPositionTarget(joint, axis, x)` | the position target (the motor target; ignored by a VELOCITY motor) |
 * | `HP_Constraint_SetAxisMotorVelocityTarget(joint, axis, v)` | the velocity target (a VELOCITY motor's target) |
 * | `HP_Constraint_SetAxisMotorStiffness` / `…Damping(joint, axis, k)` | the spring motor's stiffness / damping |
 * | `HP_Constraint_SetAxisMotorMaxForce(joint, axis, f)` | the largest motor force |
 *
 * Each returns `[0]`; an unknown joint id is a TypeError, a joint removed since is skipped.
 */
import type { PhysicsShape } from "@babylonjs/core/Physics/v2/physicsShape.js";
import { Pose } from "../src/math/pose";
import { ShapeCastResult } from "../src/queries/shapeCast";
import { ShapeProximityResult } from "../src/queries/shapeProximity";
import type { QueryFilter } from "../src/queries/queryFilter";
import type { World } from "../src/world/world";
import { JointAxis, MotorType } from "../src/dynamics/joints/joint6dof";
import type { BodyRecord } from "./bodyRecord";
import type { JointLink } from "./constraints";
import { HitLeaf, ShapeData } from "./shapeMapping";

type V3 = [number, number, number];
type V4 = [number, number, number, number];
/** `[[bodyKey], [shapeKey], [], point, normal, triangleIndex]`. */
export type HknpContact = [[number], [number], number[], V3, V3, number];

/** What the façade needs from the plugin. */
export interface HknpHost {
  readonly world: World;
}

class Collector {
  kind = 0; // 0 none, 1 proximity, 2 cast
  count = 0;
  readonly prox: ShapeProximityResult[] = [];
  readonly cast: ShapeCastResult[] = [];
  /** The query pose (proximity) or the orientation (cast), for local results. */
  readonly pose = new Pose();
}

const NO_BODY: [number] = [-1];

export class HknpFacade {
  private readonly _collectors = new Map<number, Collector>();
  private _nextId = 1;
  private readonly _filter: QueryFilter = { membership: -1, collideWith: -1, hitTriggers: false, ignoreBody: undefined };
  private readonly _pos = { x: 0, y: 0, z: 0 };
  private readonly _end = { x: 0, y: 0, z: 0 };
  private readonly _quat = { x: 0, y: 0, z: 0, w: 1 };
  private readonly _leaf = new HitLeaf();
  private readonly _loc = new Float64Array(3);

  constructor(
    private readonly host: HknpHost,
    private readonly records: ReadonlyMap<number, BodyRecord>,
  ) {}

  /** Havok's motor-type enum, as the engine numbers it. */
  readonly ConstraintMotorType = {
    NONE: MotorType.None,
    VELOCITY: MotorType.Velocity,
    POSITION: MotorType.Position,
    SPRING_FORCE: MotorType.SpringForce,
    SPRING_ACCELERATION: MotorType.SpringAcceleration,
  } as const;
  /** Havok's axis enum, as the engine (and Babylon) numbers it. */
  readonly ConstraintAxis = {
    LINEAR_X: JointAxis.LinearX,
    LINEAR_Y: JointAxis.LinearY,
    LINEAR_Z: JointAxis.LinearZ,
    ANGULAR_X: JointAxis.AngularX,
    ANGULAR_Y: JointAxis.AngularY,
    ANGULAR_Z: JointAxis.AngularZ,
    LINEAR_DISTANCE: JointAxis.LinearDistance,
  } as const;

  HP_Constraint_SetAxisMotorType(joint: unknown, axis: number, type: number): [number] {
    const l = this._joint("HP_Constraint_SetAxisMotorType", joint);
    if (l) l.world.joints.setAxisMotorType(l.handle, axis as JointAxis, type as MotorType);
    return [0];
  }

  HP_Constraint_SetAxisMotorPositionTarget(joint: unknown, axis: number, target: number): [number] {
    const l = this._joint("HP_Constraint_SetAxisMotorPositionTarget", joint);
    if (l && l.world.joints.getAxisMotorType(l.handle, axis as JointAxis) !== MotorType.Velocity) l.world.joints.setAxisMotorTarget(l.handle, axis as JointAxis, target);
    return [0];
  }

  HP_Constraint_SetAxisMotorVelocityTarget(joint: unknown, axis: number, target: number): [number] {
    const l = this._joint("HP_Constraint_SetAxisMotorVelocityTarget", joint);
    if (!l) return [0];
    const j = l.world.joints;
    j.setAxisMotorVelocityTarget(l.handle, axis as JointAxis, target);
    if (j.getAxisMotorType(l.handle, axis as JointAxis) === MotorType.Velocity) j.setAxisMotorTarget(l.handle, axis as JointAxis, target);
    return [0];
  }

  HP_Constraint_SetAxisMotorStiffness(joint: unknown, axis: number, stiffness: number): [number] {
    const l = this._joint("HP_Constraint_SetAxisMotorStiffness", joint);
    if (l) l.world.joints.setAxisMotorSpring(l.handle, axis as JointAxis, stiffness, l.world.joints.getAxisMotorDamping(l.handle, axis as JointAxis));
    return [0];
  }

  HP_Constraint_SetAxisMotorDamping(joint: unknown, axis: number, damping: number): [number] {
    const l = this._joint("HP_Constraint_SetAxisMotorDamping", joint);
    if (l) l.world.joints.setAxisMotorSpring(l.handle, axis as JointAxis, l.world.joints.getAxisMotorStiffness(l.handle, axis as JointAxis), damping);
    return [0];
  }

  HP_Constraint_SetAxisMotorMaxForce(joint: unknown, axis: number, maxForce: number): [number] {
    const l = this._joint("HP_Constraint_SetAxisMotorMaxForce", joint);
    if (l) l.world.joints.setAxisMotorMaxForce(l.handle, axis as JointAxis, maxForce);
    return [0];
  }

  HP_QueryCollector_Create(_capacity: number): [number, number] {
    const id = this._nextId++;
    this._collectors.set(id, new Collector());
    return [0, id];
  }

  HP_QueryCollector_Release(collector: number): [number] {
    this._collectors.delete(collector);
    return [0];
  }

  HP_QueryCollector_GetNumHits(collector: number): [number, number] {
    return [0, this._collectors.get(collector)?.count ?? 0];
  }

  HP_World_ShapeProximityWithCollector(_world: unknown, collector: number, query: [unknown, V3, V4, number, boolean, unknown[]]): [number] {
    const c = this._get(collector);
    c.kind = 1;
    c.count = 0;
    const shape = this._shape(query[0]);
    if (!shape) return [0];
    const [p, q, maxDistance, triggers, ignore] = [query[1], query[2], query[3], query[4], query[5]];
    this._setFilter(query[0] as ShapeData, triggers, ignore);
    c.pose.set(p[0], p[1], p[2], q[0], q[1], q[2], q[3]);
    this._pos.x = p[0];
    this._pos.y = p[1];
    this._pos.z = p[2];
    this._setQuat(q);
    c.count = this.host.world.queries.shapeProximity(shape, this._pos, this._quat, maxDistance, this._filter, c.prox, true);
    return [0];
  }

  HP_World_ShapeCastWithCollector(_world: unknown, collector: number, query: [unknown, V4, V3, V3, boolean, unknown[]]): [number] {
    const c = this._get(collector);
    c.kind = 2;
    c.count = 0;
    const shape = this._shape(query[0]);
    if (!shape) return [0];
    const [q, s, e, triggers, ignore] = [query[1], query[2], query[3], query[4], query[5]];
    this._setFilter(query[0] as ShapeData, triggers, ignore);
    c.pose.set(0, 0, 0, q[0], q[1], q[2], q[3]);
    this._pos.x = s[0];
    this._pos.y = s[1];
    this._pos.z = s[2];
    this._end.x = e[0];
    this._end.y = e[1];
    this._end.z = e[2];
    this._setQuat(q);
    c.count = this.host.world.queries.shapeCast(shape, this._quat, this._pos, this._end, this._filter, c.cast, true);
    return [0];
  }

  HP_QueryCollector_GetShapeProximityResult(collector: number, index: number): [number, [number, HknpContact, HknpContact]] {
    const c = this._get(collector);
    if (c.kind !== 1 || index < 0 || index >= c.count) throw new RangeError(`HP_QueryCollector_GetShapeProximityResult: no proximity hit ${index}`);
    const r = c.prox[index];
    // Local: the point on the query shape and the normal toward the hit body, in the query shape's frame.
    const local = this._local(c.pose, r.pointOnShape.x, r.pointOnShape.y, r.pointOnShape.z, -r.normal.x, -r.normal.y, -r.normal.z);
    return [0, [r.distance, local, this._world(r.body, r.childIndex, r.point, r.normal)]];
  }

  HP_QueryCollector_GetShapeCastResult(collector: number, index: number): [number, [number, HknpContact, HknpContact]] {
    const c = this._get(collector);
    if (c.kind !== 2 || index < 0 || index >= c.count) throw new RangeError(`HP_QueryCollector_GetShapeCastResult: no cast hit ${index}`);
    const r = c.cast[index];
    // Local: the hit point in the query shape's frame at the hit position, the normal toward the hit body.
    c.pose.px = r.position.x;
    c.pose.py = r.position.y;
    c.pose.pz = r.position.z;
    const local = this._local(c.pose, r.point.x, r.point.y, r.point.z, -r.normal.x, -r.normal.y, -r.normal.z);
    return [0, [r.fraction, local, this._world(r.body, r.childIndex, r.point, r.normal)]];
  }

  // ------------------------------------------------------------------ helpers

  /** The joint behind a joint id (`constraint._pluginData[i]`), or null when it was removed since. */
  private _joint(fn: string, joint: unknown): JointLink | null {
    const l = joint as JointLink | null;
    if (l === null || typeof l !== "object" || typeof l.handle !== "number" || !l.world) {
      throw new TypeError(`hknp.${fn}: joint must be a ContinuumPlugin joint id (constraint._pluginData[0]), got ${String(joint)}`);
    }
    return l.world === this.host.world && l.world.joints.isAlive(l.handle) ? l : null;
  }

  private _get(collector: number): Collector {
    const c = this._collectors.get(collector);
    if (!c) throw new RangeError(`hknp: unknown or released query collector ${String(collector)}`);
    return c;
  }

  private _shape(pluginData: unknown) {
    if (!(pluginData instanceof ShapeData) || pluginData.disposed) {
      throw new TypeError("hknp: the query shape is not a live ContinuumPlugin shape (shape._pluginData)");
    }
    return pluginData.engineShape;
  }

  /** The query's filter: the query shape's own masks (as Havok filters shape queries), its trigger flag and ignored body. */
  private _setFilter(shape: ShapeData, triggers: boolean, ignore: unknown[] | undefined): void {
    const f = this._filter;
    f.membership = shape.membership;
    f.collideWith = shape.collideWith;
    f.hitTriggers = !!triggers;
    const k = ignore?.[0];
    f.ignoreBody = typeof k === "number" ? k : undefined;
  }

  private _setQuat(q: V4): void {
    this._quat.x = q[0];
    this._quat.y = q[1];
    this._quat.z = q[2];
    this._quat.w = q[3];
  }

  private _local(pose: Pose, px: number, py: number, pz: number, nx: number, ny: number, nz: number): HknpContact {
    const l = this._loc;
    invRotate(pose, px - pose.px, py - pose.py, pz - pose.pz, l);
    const point: V3 = [l[0], l[1], l[2]];
    invRotate(pose, nx, ny, nz, l);
    return [NO_BODY, [-1], [], point, [l[0], l[1], l[2]], -1];
  }

  private _world(body: number, child: number, p: { x: number; y: number; z: number }, n: { x: number; y: number; z: number }): HknpContact {
    const rec = this.records.get(body);
    const data = rec?.shape;
    const leaf = data ? data.resolveHit(child, this._leaf) : null;
    const tri = leaf && data?.triangles ? leaf.triangle : -1;
    return [[body], [leaf?.leaf?.id ?? -1], [], [p.x, p.y, p.z], [n.x, n.y, n.z], tri];
  }
}

/** out = R(pose)^T v. */
function invRotate(p: Pose, vx: number, vy: number, vz: number, out: Float64Array): void {
  const qx = -p.qx,
    qy = -p.qy,
    qz = -p.qz,
    qw = p.qw;
  const tx = 2 * (qy * vz - qz * vy);
  const ty = 2 * (qz * vx - qx * vz);
  const tz = 2 * (qx * vy - qy * vx);
  out[0] = vx + qw * tx + (qy * tz - qz * ty);
  out[1] = vy + qw * ty + (qz * tx - qx * tz);
  out[2] = vz + qw * tz + (qx * ty - qy * tx);
}

/** The engine shape behind a Babylon shape, or null (empty container). */
export function engineShapeOf(shape: PhysicsShape): ShapeData {
  const d = shape?._pluginData as unknown;
  if (!(d instanceof ShapeData) || d.disposed) throw new TypeError("the query shape is not a live ContinuumPlugin shape");
  return d;
}
