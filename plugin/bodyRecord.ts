/**
 * One engine body as the plugin sees it: a Babylon `PhysicsBody` (or one thin instance of it) and the
 * plugin-side state Havok keeps per body (user mass overrides, event mask, activation control, observables).
 * It is what `body._pluginData` / `body._pluginDataInstances[i]` hold.
 */
import type { Observable } from "@babylonjs/core/Misc/observable.js";
import type { IBasePhysicsCollisionEvent, IPhysicsCollisionEvent, PhysicsMassProperties } from "@babylonjs/core/Physics/v2/IPhysicsEnginePlugin.js";
import type { PhysicsBody } from "@babylonjs/core/Physics/v2/physicsBody.js";
import { EffectiveMass } from "./massProperties";
import type { ShapeChange, ShapeData, ShapeUser } from "./shapeMapping";

/** Havok's ActivationControl values (Babylon's PhysicsActivationControl). */
export const ACTIVATION_SIMULATION = 0,
  ACTIVATION_ALWAYS_ACTIVE = 1,
  ACTIVATION_ALWAYS_INACTIVE = 2;

/**
 * How many live records have a non-zero event mask: while none has, no contact can raise a collision
 * observable (events.ts skips a pair unless one side's mask has the event's bit), so the plugin skips the
 * per-step pass over the engine's contact events.
 */
export interface EventMaskCount {
  records: number;
}

export class BodyRecord implements ShapeUser {
  /** The engine handle; -1 once removed. */
  handle: number;
  shape: ShapeData | null = null;
  /** The user's mass overrides, kept by reference as Havok does. */
  userMassProps: PhysicsMassProperties = {};
  /** The Babylon-side mass properties in effect (inertia per unit mass). */
  readonly effectiveMass = new EffectiveMass();
  private _eventMask = 0;
  activation = ACTIVATION_SIMULATION;
  /** Thin-instance scale, kept through sync (Havok drops it). */
  sx = 1;
  sy = 1;
  sz = 1;
  collisionObservable: Observable<IPhysicsCollisionEvent> | null = null;
  collisionEndedObservable: Observable<IBasePhysicsCollisionEvent> | null = null;
  /** Havok-compatible id array (`_pluginData.hpBodyId[0]`), for code that reads it. */
  readonly hpBodyId: [number];

  constructor(
    handle: number,
    readonly body: PhysicsBody,
    /** Thin-instance index, 0 for a plain body. */
    public index: number,
    private readonly onChange: (rec: BodyRecord, data: ShapeData, what: ShapeChange) => void,
    /** The plugin's count of records whose event mask is not 0 (kept by the eventMask setter). */
    private readonly listening: EventMaskCount,
  ) {
    this.handle = handle;
    this.hpBodyId = [handle];
  }

  /** Havok event bits: STARTED 1, CONTINUED 2, FINISHED 4. */
  get eventMask(): number {
    return this._eventMask;
  }

  set eventMask(m: number) {
    if ((this._eventMask === 0) !== (m === 0)) this.listening.records += m === 0 ? -1 : 1;
    this._eventMask = m;
  }

  onShapeChanged(data: ShapeData, what: ShapeChange): void {
    if (this.handle >= 0) this.onChange(this, data, what);
  }
}
