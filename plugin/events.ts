/**
 * Engine events -> Babylon observables (docs/babylon-differences.md 1.6 and Decisions).
 *
 * The engine reports one contact event per body pair per step (Began / Persisted / Ended) with the point of
 * largest impulse (midway between the surfaces), the normal from A to B, the smallest separation and the
 * pair's total normal impulse, and trigger Entered / Exited events. The plugin:
 * - keeps an event when either body's Havok event mask has its bit (STARTED 1, CONTINUED 2, FINISHED 4);
 * - orders the pair so that a static body is `collidedAgainst` (Havok's observed order);
 * - raises STARTED / CONTINUED on `onCollisionObservable` (`point` on the collider's surface, `normal` from
 *   collider toward collidedAgainst, `distance` = signed separation, `impulse`) and FINISHED on
 *   `onCollisionEndedObservable` with the five base fields;
 * - copies each to the per-body observables of both bodies, mirrored for the second body (itself as collider,
 *   its own surface point, the normal negated);
 * - raises TRIGGER_ENTERED / TRIGGER_EXITED on `onTriggerCollisionObservable` with no mask needed;
 * - skips events whose bodies were removed, including by an observer earlier in the same dispatch.
 * Event objects are created only when someone observes them (users may keep them); nothing else allocates.
 */
import { Vector3 } from "@babylonjs/core/Maths/math.vector.js";
import type { Observable } from "@babylonjs/core/Misc/observable.js";
import type { IBasePhysicsCollisionEvent, IPhysicsCollisionEvent, PhysicsEventType } from "@babylonjs/core/Physics/v2/IPhysicsEnginePlugin.js";
import type { World } from "../src/index";
import type { BodyRecord } from "./bodyRecord";

/** Havok's event mask bits, indexed by the engine's ContactEventType (Began, Persisted, Ended). */
const TYPE_BITS = [1, 2, 4];
const TYPE_NAMES = ["COLLISION_STARTED", "COLLISION_CONTINUED", "COLLISION_FINISHED"] as unknown as PhysicsEventType[];
const TRIGGER_NAMES = ["TRIGGER_ENTERED", "TRIGGER_EXITED"] as unknown as PhysicsEventType[];

/** Babylon's PhysicsMotionType.STATIC. */
const STATIC = 0;

export interface EventTargets {
  readonly world: World;
  readonly onCollisionObservable: Observable<IPhysicsCollisionEvent>;
  readonly onCollisionEndedObservable: Observable<IBasePhysicsCollisionEvent>;
  readonly onTriggerCollisionObservable: Observable<IBasePhysicsCollisionEvent>;
  /** Live record of an engine handle, or undefined once removed. */
  recordOf(handle: number): BodyRecord | undefined;
  /** Engine motion type of a record, in Babylon's numbering. */
  motionTypeOf(rec: BodyRecord): number;
}

function collisionEvent(
  collider: BodyRecord,
  against: BodyRecord,
  type: PhysicsEventType,
  px: number,
  py: number,
  pz: number,
  nx: number,
  ny: number,
  nz: number,
  distance: number,
  impulse: number,
): IPhysicsCollisionEvent {
  return {
    collider: collider.body,
    colliderIndex: collider.index,
    collidedAgainst: against.body,
    collidedAgainstIndex: against.index,
    type,
    point: new Vector3(px, py, pz),
    normal: new Vector3(nx, ny, nz),
    distance,
    impulse,
  };
}

function endedEvent(collider: BodyRecord, against: BodyRecord): IBasePhysicsCollisionEvent {
  return {
    collider: collider.body,
    colliderIndex: collider.index,
    collidedAgainst: against.body,
    collidedAgainstIndex: against.index,
    type: TYPE_NAMES[2],
  };
}

/** Raises the collision events of the last step. */
export function notifyCollisions(t: EventTargets): void {
  const ev = t.world.contactEvents;
  const n = ev.count;
  for (let i = 0; i < n; i++) {
    let a = t.recordOf(ev.bodyA[i]);
    let b = t.recordOf(ev.bodyB[i]);
    if (!a || !b) continue;
    const type = ev.type[i];
    if (((a.eventMask | b.eventMask) & TYPE_BITS[type]) === 0) continue;
    let nx = ev.normal[i * 3],
      ny = ev.normal[i * 3 + 1],
      nz = ev.normal[i * 3 + 2];
    if (t.motionTypeOf(a) === STATIC && t.motionTypeOf(b) !== STATIC) {
      const s = a;
      a = b;
      b = s;
      nx = -nx;
      ny = -ny;
      nz = -nz;
    }
    const name = TYPE_NAMES[type];
    if (type === 2) {
      if (t.onCollisionEndedObservable.hasObservers()) t.onCollisionEndedObservable.notifyObservers(endedEvent(a, b));
      if (a.collisionEndedObservable?.hasObservers()) a.collisionEndedObservable.notifyObservers(endedEvent(a, b));
      if (a.handle < 0 || b.handle < 0) continue;
      if (b.collisionEndedObservable?.hasObservers()) b.collisionEndedObservable.notifyObservers(endedEvent(b, a));
      continue;
    }
    // The engine's point is midway between the surfaces; each body's own surface point is half the
    // separation away along the normal.
    const sep = ev.separation[i];
    const mx = ev.point[i * 3],
      my = ev.point[i * 3 + 1],
      mz = ev.point[i * 3 + 2];
    const h = sep * 0.5;
    const imp = ev.impulse[i];
    if (t.onCollisionObservable.hasObservers()) {
      t.onCollisionObservable.notifyObservers(collisionEvent(a, b, name, mx - nx * h, my - ny * h, mz - nz * h, nx, ny, nz, sep, imp));
    }
    if (a.handle < 0 || b.handle < 0) continue;
    if (a.collisionObservable?.hasObservers()) {
      a.collisionObservable.notifyObservers(collisionEvent(a, b, name, mx - nx * h, my - ny * h, mz - nz * h, nx, ny, nz, sep, imp));
    }
    if (a.handle < 0 || b.handle < 0) continue;
    if (b.collisionObservable?.hasObservers()) {
      b.collisionObservable.notifyObservers(collisionEvent(b, a, name, mx + nx * h, my + ny * h, mz + nz * h, -nx, -ny, -nz, sep, imp));
    }
  }
}

/** Raises the trigger events of the last step. */
export function notifyTriggers(t: EventTargets): void {
  const ev = t.world.triggerEvents;
  const obs = t.onTriggerCollisionObservable;
  const n = ev.count;
  for (let i = 0; i < n; i++) {
    if (!obs.hasObservers()) return;
    const a = t.recordOf(ev.bodyA[i]);
    const b = t.recordOf(ev.bodyB[i]);
    if (!a || !b) continue;
    obs.notifyObservers({
      collider: a.body,
      colliderIndex: a.index,
      collidedAgainst: b.body,
      collidedAgainstIndex: b.index,
      type: TRIGGER_NAMES[ev.type[i]],
    });
  }
}
