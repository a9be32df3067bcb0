/**
 * ContinuumPlugin: Babylon.js's `IPhysicsEnginePluginV2` over the Continuum engine, a drop-in for HavokPlugin.
 *
 * The plugin translates; it holds no physics. Babylon bodies (and each thin instance) become engine bodies,
 * Babylon shapes become engine shapes (see shapeMapping.ts), materials / filters / trigger flags are pushed to
 * the engine bodies using a shape, mass properties are translated between Havok's per-unit-mass inertia and
 * the engine's absolute inertia (massProperties.ts), and the engine's per-pair events become Babylon
 * observables (events.ts). Semantics follow HavokPlugin except where docs/babylon-differences.md's
 * decisions table says otherwise.
 */
import { BoundingBox } from "@babylonjs/core/Culling/boundingBox.js";
import { Matrix, Quaternion, Vector3 } from "@babylonjs/core/Maths/math.vector.js";
import type { Mesh } from "@babylonjs/core/Meshes/mesh.js";
import { Logger } from "@babylonjs/core/Misc/logger.js";
import { Observable } from "@babylonjs/core/Misc/observable.js";
import { PhysicsRaycastResult, type IRaycastQuery } from "@babylonjs/core/Physics/physicsRaycastResult.js";
import type { IPhysicsPointProximityQuery } from "@babylonjs/core/Physics/physicsPointProximityQuery.js";
import type { IPhysicsShapeCastQuery } from "@babylonjs/core/Physics/physicsShapeCastQuery.js";
import type { IPhysicsShapeProximityCastQuery } from "@babylonjs/core/Physics/physicsShapeProximityCastQuery.js";
import type { ProximityCastResult } from "@babylonjs/core/Physics/proximityCastResult.js";
import type { ShapeCastResult } from "@babylonjs/core/Physics/shapeCastResult.js";
import type {
  ConstrainedBodyPair,
  IBasePhysicsCollisionEvent,
  IPhysicsCollisionEvent,
  IPhysicsEnginePluginV2,
  PhysicsConstraintAxis,
  PhysicsConstraintAxisLimitMode,
  PhysicsConstraintMotorType,
  PhysicsMassProperties,
  PhysicsMotionType,
  PhysicsShapeParameters,
  PhysicsShapeType,
} from "@babylonjs/core/Physics/v2/IPhysicsEnginePlugin.js";
import type { PhysicsBody } from "@babylonjs/core/Physics/v2/physicsBody.js";
import type { PhysicsConstraint } from "@babylonjs/core/Physics/v2/physicsConstraint.js";
import type { PhysicsMaterial } from "@babylonjs/core/Physics/v2/physicsMaterial.js";
import { PhysicsShape } from "@babylonjs/core/Physics/v2/physicsShape.js";
import type { TransformNode } from "@babylonjs/core/Meshes/transformNode.js";
import type { Nullable } from "@babylonjs/core/types.js";
import { type ContinuousDetection, type MotionType, Pose, type RayFilter, RayResult, World } from "../src/index";
import { ACTIVATION_ALWAYS_ACTIVE, ACTIVATION_ALWAYS_INACTIVE, ACTIVATION_SIMULATION, BodyRecord, type EventMaskCount } from "./bodyRecord";
import { ConstraintBridge } from "./constraints";
import { notifyCollisions, notifyTriggers, type EventTargets } from "./events";
import { shapeGeometry } from "./geometry";
import { applyOverrides, computeShapeMass, EffectiveMass, validateMassProps } from "./massProperties";
import { applyLeafSurfaces } from "./leafSurfaces";
import { toPhysicsMaterial, toSurfaceMaterial } from "./materials";
import { createShapeData, HitLeaf, SHAPE_CONTAINER, ShapeChange, ShapeData, shapeDataOf } from "./shapeMapping";
import { HknpFacade } from "./hknpFacade";
import type { PhysicsSnapshot, PhysicsSnapshotSource } from "./snapshot";
import { snapshotBridge, type SnapshotBridgeLike } from "./snapshotHost";
import { PluginQueries } from "./queries";
import { bool, enumValue, finiteNumber, mask, nonNegativeNumber, positiveNumber, quaternion, vector3 } from "./validation";

/** Options of {@link ContinuumPlugin}: the engine world's settings plus plugin defaults. */
export interface ContinuumPluginOptions {
  /** Initial gravity (Babylon's PhysicsEngine sets it again on enablePhysics). */
  gravity?: { x: number; y: number; z: number };
  /** Solver substeps per step (engine default 8). */
  substeps?: number;
  /** Solver substeps of a step of a world without joints (engine default: `substeps` when that is given, else 6). */
  contactSubsteps?: number;
  /** Whether bodies may fall asleep (default true). */
  sleepingEnabled?: boolean;
  /** Speed limits, default 200 m/s and 100 rad/s (Havok's). */
  maxLinearSpeed?: number;
  maxAngularSpeed?: number;
  /** Continuous collision mode given to every new body (default: the engine's, Passive). */
  defaultContinuousDetection?: ContinuousDetection;
  /**
   * Threads the step runs on, the calling thread included (default 1: no workers). With more, worker threads
   * start in the background and join the step once ready, with the same results at any count; a browser page
   * must be cross-origin isolated (README "Threads"). {@link ContinuumPlugin.threads} says how many run.
   */
  threads?: number;
  /** The worker script (dist/continuum.worker.mjs) when it is not beside the library, e.g. with the UMD build. */
  workerUrl?: string | URL;
}

// Babylon enum values (numbers, so that no const-enum inlining is needed).
const MOTION_TYPES = [0, 1, 2] as const;
/** ContinuousDetectionMode: Discrete, Passive, Continuous. */
const CONTINUITY_MODES = [0, 1, 2] as const;
const PRESTEP_TELEPORT = 1,
  PRESTEP_ACTION = 2;
/** Havok's default angular damping (1.3.0 "re-enable a small amount of angular damping"). */
const DEFAULT_ANGULAR_DAMPING = 0.1;

/** Thin-instance storage of a Mesh (Babylon internal). */
interface ThinInstanceStorage {
  instancesCount: number;
  matrixData: Nullable<Float32Array>;
}
function thinInstances(node: TransformNode | Mesh | null | undefined): ThinInstanceStorage | undefined {
  return (node as unknown as { _thinInstanceDataStorage?: ThinInstanceStorage } | null | undefined)?._thinInstanceDataStorage;
}

/**
 * The Continuum physics plugin for Babylon.js (`scene.enablePhysics(gravity, new ContinuumPlugin())`).
 * Differences from HavokPlugin: docs/babylon-differences.md, Decisions; extras: {@link setContinuousDetection}.
 */
export class ContinuumPlugin implements IPhysicsEnginePluginV2 {
  /** The engine world. */
  world: World;
  name = "ContinuumPlugin";
  onCollisionObservable = new Observable<IPhysicsCollisionEvent>();
  onCollisionEndedObservable = new Observable<IBasePhysicsCollisionEvent>();
  onTriggerCollisionObservable = new Observable<IBasePhysicsCollisionEvent>();

  private readonly _useDeltaForWorldStep: boolean;
  private _fixedTimeStep = 1 / 60;
  /** Duration of the current / last step, used by setTargetTransform. */
  private _stepDt = 1 / 60;
  private _maxLinear: number;
  private _maxAngular: number;
  private _maxQueryHits = 1;
  private _disposed = false;
  private readonly _defaultContinuity: ContinuousDetection | undefined;
  /** Engine handle -> record. */
  private readonly _records = new Map<number, BodyRecord>();
  /** Havok-shaped query facade used by Babylon's PhysicsCharacterController (only what it calls; see hknpFacade.ts). */
  readonly _hknp = new HknpFacade(this, this._records);
  /** The controller's `_bodies` (Havok's name): engine handle (= `hpBodyId[0]`) -> record with `body` and `index`. */
  get _bodies(): ReadonlyMap<number, BodyRecord> {
    return this._records;
  }
  /**
   * HavokPlugin's axis conversion, for code that drives joints through `_hknp` (glTF physics loaders): our
   * native axis numbering is Babylon's, so a valid axis maps to itself.
   */
  _constraintAxisToNative(axis: PhysicsConstraintAxis): number {
    return enumValue("_constraintAxisToNative", "axis", axis, [0, 1, 2, 3, 4, 5, 6] as const, "PhysicsConstraintAxis");
  }
  private readonly _queries = new PluginQueries(this, this._records);
  /** Records under ALWAYS_INACTIVE activation control (put back to sleep before each step). */
  private readonly _inactive: BodyRecord[] = [];
  /** Bodies created since the last step (see _refineFreshPositions). */
  private readonly _fresh: BodyRecord[] = [];
  /** Live records with a non-zero event mask (BodyRecord keeps it). */
  private readonly _listening: EventMaskCount = { records: 0 };
  private readonly _onShapeChange = (rec: BodyRecord, data: ShapeData, what: ShapeChange) => this._shapeChanged(rec, data, what);
  private readonly _events: EventTargets;
  /** Snapshot / restore (snapshot.ts, installed by importing it); made on first use. */
  private _snapshotBridge: SnapshotBridgeLike | null = null;
  private _snapshots(fn: string): SnapshotBridgeLike {
    return (this._snapshotBridge ??= snapshotBridge(fn, {
      getWorld: () => this.world,
      records: this._records,
      inactive: this._inactive,
      readTiming: (out: Float64Array) => {
        out[0] = this._stepDt;
        out[1] = this._fixedTimeStep;
        out[2] = this._maxLinear;
        out[3] = this._maxAngular;
      },
      writeTiming: (v: Float64Array) => {
        this._stepDt = v[0];
        this._fixedTimeStep = v[1];
        this._maxLinear = v[2];
        this._maxAngular = v[3];
      },
      sync: (body: PhysicsBody) => this.sync(body),
    }));
  }

  // scratch (per-step code allocates nothing)
  private readonly _v = new Vector3();
  private readonly _v2 = new Vector3();
  private readonly _q = new Quaternion();
  /** The flat pose buffer of the per-step sync (World.getOriginPose: position, then orientation). */
  private readonly _poseBuf = new Float64Array(7);
  /** Thin-instance sync scratch: the pose as a {@link Pose} and its rotation matrix (Pose.rotationMatrix). */
  private readonly _syncPose = new Pose();
  private readonly _syncRot = new Float64Array(9);
  private readonly _m = new Matrix();
  private readonly _m2 = new Matrix();
  private readonly _m3 = new Matrix();
  private readonly _pose = new Pose();
  private readonly _aabb = new Float64Array(6);
  private readonly _rayFilter: RayFilter = { membership: -1, collideWith: -1, hitTriggers: false, ignoreBody: undefined };
  private readonly _rayHit = new RayResult();
  private readonly _rayHits: RayResult[] = [];
  private readonly _dir = { x: 0, y: 0, z: 0 };
  private readonly _hitLeaf = new HitLeaf();

  constructor(useDeltaForWorldStep = true, options: ContinuumPluginOptions = {}) {
    this._useDeltaForWorldStep = useDeltaForWorldStep;
    this._maxLinear = options.maxLinearSpeed ?? 200;
    this._maxAngular = options.maxAngularSpeed ?? 100;
    this._defaultContinuity = options.defaultContinuousDetection;
    this.world = new World({
      gravity: options.gravity,
      substeps: options.substeps,
      contactSubsteps: options.contactSubsteps,
      sleepingEnabled: options.sleepingEnabled,
      maxLinearSpeed: this._maxLinear,
      maxAngularSpeed: this._maxAngular,
      threads: options.threads,
      workerUrl: options.workerUrl,
    });
    const self = this;
    this._events = {
      get world() {
        return self.world;
      },
      onCollisionObservable: this.onCollisionObservable,
      onCollisionEndedObservable: this.onCollisionEndedObservable,
      onTriggerCollisionObservable: this.onTriggerCollisionObservable,
      recordOf: (h: number) => this._records.get(h),
      motionTypeOf: (rec: BodyRecord) => this.world.getMotionType(rec.handle),
    };
  }

  // ================================================================ world

  /** Always true: no WebAssembly to load. */
  isSupported(): boolean {
    return true;
  }

  getPluginVersion(): number {
    return 2;
  }

  setGravity(gravity: Vector3): void {
    vector3("setGravity", "gravity", gravity);
    this.world.setGravity(gravity);
  }

  /** The world gravity (Havok extra). */
  getGravity(): Vector3 {
    return this.world.getGravity(new Vector3());
  }

  setTimeStep(timeStep: number): void {
    this._fixedTimeStep = positiveNumber("setTimeStep", "timeStep", timeStep);
  }

  getTimeStep(): number {
    return this._fixedTimeStep;
  }

  setVelocityLimits(maxLinearVelocity: number, maxAngularVelocity: number): void {
    positiveNumber("setVelocityLimits", "maxLinearVelocity", maxLinearVelocity);
    positiveNumber("setVelocityLimits", "maxAngularVelocity", maxAngularVelocity);
    this.world.setVelocityLimits(maxLinearVelocity, maxAngularVelocity);
    this._maxLinear = maxLinearVelocity;
    this._maxAngular = maxAngularVelocity;
  }

  getMaxLinearVelocity(): number {
    return this._maxLinear;
  }

  getMaxAngularVelocity(): number {
    return this._maxAngular;
  }

  /** Accepted for HavokPlugin compatibility; multi-hit raycasts return every hit without it. */
  setMaxQueryCollectorHits(maxQueryCollectorHits: number): void {
    positiveNumber("setMaxQueryCollectorHits", "maxQueryCollectorHits", maxQueryCollectorHits);
    this._maxQueryHits = maxQueryCollectorHits;
  }

  getMaxQueryCollectorHits(): number {
    return this._maxQueryHits;
  }

  /** Number of engine bodies (thin instances count one each). */
  get numBodies(): number {
    return this._disposed ? 0 : this.world.bodyCount;
  }

  /**
   * Havok's pipeline: prestep of every body, the world step, sync of every body, then collision and trigger
   * notifications (all inside this call).
   */
  executeStep(delta: number, bodies: Array<PhysicsBody>): void {
    if (this._disposed) return;
    const dt = this._useDeltaForWorldStep ? delta : this._fixedTimeStep;
    if (!(dt > 0) || !Number.isFinite(dt)) throw new RangeError(`executeStep: delta must be a finite number > 0, got ${String(delta)}`);
    this._stepDt = dt;
    if (this._fresh.length > 0) this._refineFreshPositions();
    const inactive = this._inactive;
    for (let i = 0; i < inactive.length; i++) this.world.sleep(inactive[i].handle);
    for (let i = 0; i < bodies.length; i++) {
      const body = bodies[i];
      if (!body.disablePreStep) this.setPhysicsBodyTransformation(body, body.transformNode);
    }
    this.world.step(dt);
    for (let i = 0; i < bodies.length; i++) {
      const body = bodies[i];
      if (!body.disableSync) this.sync(body);
    }
    if (this._listening.records > 0) notifyCollisions(this._events);
    notifyTriggers(this._events);
  }

  /**
   * Threads the step runs on now: 1 with the default options, until the workers are ready, after a fall-back
   * (`world.threadsMessage` says why) and after dispose.
   */
  get threads(): number {
    return this.world.threads;
  }

  /** Releases the world and everything in it; queries afterwards report no hit. */
  dispose(): void {
    if (this._disposed) return;
    this.world.stopThreads();
    for (const rec of this._records.values()) {
      rec.shape?.users.delete(rec);
      rec.handle = -1;
      rec.collisionObservable?.clear();
      rec.collisionEndedObservable?.clear();
    }
    this._records.clear();
    this._inactive.length = 0;
    this.onCollisionObservable.clear();
    this.onCollisionEndedObservable.clear();
    this.onTriggerCollisionObservable.clear();
    this._disposed = true;
    this.world = new World({ maxLinearSpeed: this._maxLinear, maxAngularSpeed: this._maxAngular });
  }

  // ================================================================ snapshots

  /**
   * The whole physical state of the scene (see snapshot.ts): keep it, clone it, or `toBytes()` it, and give
   * it to {@link restore} to return to this moment. Needs `import "continuum-physics/snapshot"` once (it
   * installs the snapshot code; a plain plugin does not carry it). Not allowed during a step. Passing an old snapshot as
   * `reuse` overwrites it (and returns it) when its memory is large enough: a ring of snapshots then
   * allocates nothing.
   */
  snapshot(reuse?: PhysicsSnapshot): PhysicsSnapshot {
    this._checkAlive("snapshot");
    return this._snapshots("snapshot").take(reuse) as PhysicsSnapshot;
  }

  /**
   * Puts the scene back to a snapshot of this plugin, Babylon transforms included: the next steps are bit for
   * bit those that followed the snapshot. Throws, changing nothing, if bodies, constraints or shapes were
   * created, disposed or reassigned since (snapshot.ts). Takes a snapshot, what `structuredClone` or
   * `postMessage` make of one, or its bytes.
   */
  restore(snapshot: PhysicsSnapshotSource): void {
    this._checkAlive("restore");
    this._snapshots("restore").restore(snapshot);
  }

  /** A 32-bit hash of every body's pose and velocities, bit for bit (World.stateHash): equal states, equal hashes. */
  stateHash(): number {
    this._checkAlive("stateHash");
    return this.world.stateHash();
  }

  // ================================================================ body records

  /** Every engine record of a body (its instances, or the single body). */
  private _all(fn: string, body: PhysicsBody, name = "body"): BodyRecord[] {
    this._checkAlive(fn);
    if (body === null || typeof body !== "object") throw new TypeError(`${fn}: ${name} must be a PhysicsBody, got ${String(body)}`);
    const inst = body._pluginDataInstances as BodyRecord[] | undefined;
    if (inst && inst.length > 0) return inst;
    const rec = body._pluginData as BodyRecord | undefined;
    if (!(rec instanceof BodyRecord) || rec.handle < 0) throw new TypeError(`${fn}: ${name} is disposed or was not created by this plugin`);
    this._single[0] = rec;
    return this._single;
  }
  private readonly _single: BodyRecord[] = [];

  /** The record for an instance index (instance 0 / the body when undefined). */
  private _ref(fn: string, body: PhysicsBody, instanceIndex?: number, name = "body", indexName = "instanceIndex"): BodyRecord {
    const all = this._all(fn, body, name);
    if (instanceIndex === undefined || instanceIndex === null || (all === this._single && instanceIndex === 0)) return all[0];
    if (all === this._single) return all[0]; // Havok ignores the index on a plain body
    if (!Number.isInteger(instanceIndex) || instanceIndex < 0 || instanceIndex >= all.length) {
      throw new RangeError(`${fn}: ${indexName} must be an integer in [0, ${all.length}), got ${String(instanceIndex)}`);
    }
    const rec = all[instanceIndex];
    if (rec.handle < 0) throw new TypeError(`${fn}: ${name} is disposed`);
    return rec;
  }

  /** Records a setter applies to: all instances when instanceIndex is undefined, else the one. */
  private _targets(fn: string, body: PhysicsBody, instanceIndex?: number): BodyRecord[] {
    if (instanceIndex === undefined || instanceIndex === null) {
      const all = this._all(fn, body);
      for (let i = 0; i < all.length; i++) if (all[i].handle < 0) throw new TypeError(`${fn}: body is disposed`);
      return all;
    }
    this._single[0] = this._ref(fn, body, instanceIndex);
    return this._single;
  }

  private _checkAlive(fn: string): void {
    if (this._disposed) throw new Error(`${fn}: the ContinuumPlugin has been disposed`);
  }

  private _createRecord(body: PhysicsBody, index: number, motionType: number, position: Vector3, orientation: Quaternion): BodyRecord {
    const h = this.world.createBody({
      motionType: motionType as MotionType,
      position,
      orientation,
      angularDamping: DEFAULT_ANGULAR_DAMPING,
      startAsleep: !!body.startAsleep,
      collidable: { shape: null, continuity: this._defaultContinuity },
    });
    const rec = new BodyRecord(h, body, index, this._onShapeChange, this._listening);
    this._records.set(h, rec);
    this._updateMass(rec);
    return rec;
  }

  private _releaseRecord(rec: BodyRecord): void {
    if (rec.handle < 0) return;
    if (this.world.isAlive(rec.handle)) this.world.removeBody(rec.handle);
    this._records.delete(rec.handle);
    rec.shape?.users.delete(rec);
    const k = this._inactive.indexOf(rec);
    if (k >= 0) this._inactive.splice(k, 1);
    rec.collisionObservable?.clear();
    rec.collisionEndedObservable?.clear();
    rec.eventMask = 0; // a removed body raises nothing (recordOf no longer finds it)
    rec.handle = -1;
  }

  private _updateMass(rec: BodyRecord): void {
    const eff = computeShapeMass(this.world, rec.shape, rec.effectiveMass);
    applyOverrides(rec.userMassProps, eff);
    this.world.setMassProperties(rec.handle, eff.toEngine());
  }

  private _assignShape(rec: BodyRecord, data: ShapeData | null): void {
    if (rec.shape !== data) {
      rec.shape?.users.delete(rec);
      rec.shape = data;
      data?.users.add(rec);
    }
    const h = rec.handle;
    // The engine keeps a startAsleep body asleep when it gets its first shape (as HP_Body_SetShape does for
    // PhysicsAggregate's bodies) and wakes it, and what it touches, when a shape is replaced.
    this.world.setShape(h, data?.engineShape ?? null);
    if (data) applyLeafSurfaces(this.world, h, data);
    this._updateMass(rec);
  }

  private _shapeChanged(rec: BodyRecord, data: ShapeData, what: ShapeChange): void {
    if (this._disposed || rec.handle < 0) return;
    const h = rec.handle;
    switch (what) {
      case ShapeChange.Geometry:
        this.world.setShape(h, data.engineShape);
        applyLeafSurfaces(this.world, h, data);
        this._updateMass(rec);
        break;
      case ShapeChange.Density:
        this._updateMass(rec);
        break;
      case ShapeChange.Material:
      case ShapeChange.Filter:
      case ShapeChange.Trigger:
        applyLeafSurfaces(this.world, h, data);
        break;
    }
  }

  // ================================================================ bodies

  initBody(body: PhysicsBody, motionType: PhysicsMotionType, position: Vector3, orientation: Quaternion): void {
    const fn = "initBody";
    this._checkAlive(fn);
    if (body === null || typeof body !== "object") throw new TypeError(`${fn}: body must be a PhysicsBody, got ${String(body)}`);
    enumValue(fn, "motionType", motionType, MOTION_TYPES, "PhysicsMotionType");
    vector3(fn, "position", position);
    quaternion(fn, "orientation", orientation);
    body._pluginData = this._createRecord(body, 0, motionType, position, orientation);
    this._fresh.push(body._pluginData as BodyRecord);
  }

  /**
   * Babylon passes a new body's position from its world matrix, which is float32 unless high-precision
   * matrices are on: 10,000 km from the origin that rounds to a metre. Before the first step, a parentless
   * node's own position (the same point in double precision, which the teleport prestep reads too) replaces
   * it when the two agree to float32 precision (a pivot or other matrix-only transform keeps Babylon's value).
   * The node is not known inside initBody (PhysicsBody sets it afterwards).
   */
  private _refineFreshPositions(): void {
    const fresh = this._fresh;
    for (let i = 0; i < fresh.length; i++) {
      const rec = fresh[i];
      const node = rec.body.transformNode as TransformNode | undefined;
      if (rec.handle < 0 || !node || node.parent) continue;
      const own = node.position;
      const p = this.world.getPosition(rec.handle, this._v);
      const tol = 1e-6 * (Math.abs(p.x) + Math.abs(p.y) + Math.abs(p.z)) + 1e-6;
      if (own.x === p.x && own.y === p.y && own.z === p.z) continue;
      if (!(Math.abs(own.x - p.x) <= tol && Math.abs(own.y - p.y) <= tol && Math.abs(own.z - p.z) <= tol)) continue;
      const asleep = this.world.isSleeping(rec.handle);
      this.world.getOrientation(rec.handle, this._q);
      this.world.setPose(rec.handle, own, this._q);
      if (asleep) this.world.sleep(rec.handle);
    }
    fresh.length = 0;
  }

  initBodyInstances(body: PhysicsBody, motionType: PhysicsMotionType, mesh: Mesh): void {
    const fn = "initBodyInstances";
    this._checkAlive(fn);
    enumValue(fn, "motionType", motionType, MOTION_TYPES, "PhysicsMotionType");
    const storage = thinInstances(mesh);
    const matrixData = storage?.matrixData;
    if (!storage || !matrixData) return;
    const count = storage.instancesCount ?? 0;
    this._validateInstanceMatrices(fn, matrixData, 0, count);
    for (let i = 0; i < count; i++) this._createInstance(body, motionType, matrixData, i, null);
  }

  private _validateInstanceMatrices(fn: string, m: Float32Array, from: number, to: number): void {
    for (let k = from * 16; k < to * 16; k++) {
      if (!Number.isFinite(m[k])) {
        throw new RangeError(`${fn}: mesh thin instance ${Math.floor(k / 16)} must have a finite matrix, got element ${k % 16} = ${m[k]}`);
      }
    }
  }

  /** Decomposes instance i's matrix into this._v (position), this._q (rotation), this._v2 (scale). */
  private _readInstance(matrixData: Float32Array, i: number): void {
    Matrix.FromArrayToRef(matrixData, i * 16, this._m);
    if (!this._m.decompose(this._v2, this._q, this._v)) {
      this._v2.set(1, 1, 1);
      this._q.set(0, 0, 0, 1);
      this._v.set(matrixData[i * 16 + 12], matrixData[i * 16 + 13], matrixData[i * 16 + 14]);
    }
  }

  private _createInstance(body: PhysicsBody, motionType: number, matrixData: Float32Array, i: number, shape: ShapeData | null): BodyRecord {
    this._readInstance(matrixData, i);
    const rec = this._createRecord(body, i, motionType, this._v, this._q);
    rec.sx = this._v2.x;
    rec.sy = this._v2.y;
    rec.sz = this._v2.z;
    const first = body._pluginDataInstances[0] as BodyRecord | undefined;
    if (first) rec.userMassProps = first.userMassProps; // Havok copies instance 0's user mass props
    body._pluginDataInstances.push(rec);
    if (shape) this._assignShape(rec, shape);
    return rec;
  }

  updateBodyInstances(body: PhysicsBody, mesh: Mesh): void {
    const fn = "updateBodyInstances";
    this._checkAlive(fn);
    const storage = thinInstances(mesh);
    const matrixData = storage?.matrixData;
    if (!storage || !matrixData) return;
    const count = storage.instancesCount ?? 0;
    const recs = body._pluginDataInstances as BodyRecord[];
    const have = recs.length;
    this._validateInstanceMatrices(fn, matrixData, 0, count);
    if (count > have) {
      const motionType = have > 0 ? this.world.getMotionType(recs[0].handle) : body.motionType ?? 2;
      let shape: ShapeData | null = have > 0 ? recs[0].shape : null;
      if (!shape && body.shape?._pluginData instanceof ShapeData) shape = body.shape._pluginData as ShapeData;
      for (let i = have; i < count; i++) this._createInstance(body, motionType, matrixData, i, shape);
    } else if (count < have) {
      for (let i = have - 1; i >= count; i--) this._releaseRecord(recs.pop()!);
      this._teleportInstances(recs, matrixData);
    }
  }

  private _teleportInstances(recs: BodyRecord[], matrixData: Float32Array): void {
    let bad = false;
    for (let i = 0; i < recs.length; i++) {
      const rec = recs[i];
      this._readInstance(matrixData, i);
      rec.sx = this._v2.x;
      rec.sy = this._v2.y;
      rec.sz = this._v2.z;
      if (!validPose(this._v, this._q)) {
        warnBadPrestep(body0(rec), this._v, this._q);
        bad = true;
        continue;
      }
      this.world.setPose(rec.handle, this._v, this._q);
    }
    // The matrices show the bodies where they stay.
    if (bad) this.syncTransform(recs[0].body, recs[0].body.transformNode);
  }

  removeBody(body: PhysicsBody): void {
    if (this._disposed || !body) return;
    const inst = body._pluginDataInstances as BodyRecord[] | undefined;
    if (inst) for (let i = 0; i < inst.length; i++) this._releaseRecord(inst[i]);
    if (body._pluginData instanceof BodyRecord) this._releaseRecord(body._pluginData);
  }

  disposeBody(body: PhysicsBody): void {
    // Everything is released by removeBody; calling this alone releases too.
    this.removeBody(body);
  }

  sync(body: PhysicsBody): void {
    this.syncTransform(body, body.transformNode);
  }

  syncTransform(body: PhysicsBody, transformNode: TransformNode): void {
    if (this._disposed) return;
    const inst = body._pluginDataInstances as BodyRecord[];
    if (inst && inst.length > 0) {
      const matrixData = thinInstances(transformNode)?.matrixData;
      if (!matrixData) return;
      const n = Math.min(inst.length, Math.floor(matrixData.length / 16));
      const p = this._poseBuf;
      for (let i = 0; i < n; i++) {
        const rec = inst[i];
        if (rec.handle < 0) continue;
        // The instance matrix written straight from the flat pose (Babylon's Matrix.ComposeToRef layout:
        // scaled rotation rows, translation in 12..14), with no Vector3 / Quaternion / Matrix in between.
        // Row i of Babylon's upper 3x3 is the body's local axis i in world space (column i of the engine's
        // row-major rotation matrix) times the instance's scale along it.
        this.world.getOriginPose(rec.handle, p, 0);
        const R = this._syncRot;
        this._syncPose.set(p[0], p[1], p[2], p[3], p[4], p[5], p[6]).rotationMatrix(R, 0);
        const o = i * 16,
          sx = rec.sx,
          sy = rec.sy,
          sz = rec.sz;
        matrixData[o] = R[0] * sx;
        matrixData[o + 1] = R[3] * sx;
        matrixData[o + 2] = R[6] * sx;
        matrixData[o + 3] = 0;
        matrixData[o + 4] = R[1] * sy;
        matrixData[o + 5] = R[4] * sy;
        matrixData[o + 6] = R[7] * sy;
        matrixData[o + 7] = 0;
        matrixData[o + 8] = R[2] * sz;
        matrixData[o + 9] = R[5] * sz;
        matrixData[o + 10] = R[8] * sz;
        matrixData[o + 11] = 0;
        matrixData[o + 12] = p[0];
        matrixData[o + 13] = p[1];
        matrixData[o + 14] = p[2];
        matrixData[o + 15] = 1;
      }
      (transformNode as Mesh).thinInstanceBufferUpdated("matrix");
      return;
    }
    const rec = body._pluginData as BodyRecord | undefined;
    if (!(rec instanceof BodyRecord) || rec.handle < 0) return;
    const p = this._poseBuf;
    this.world.getOriginPose(rec.handle, p, 0);
    const parent = transformNode.parent as TransformNode | null;
    if (parent && !parent.getWorldMatrix().isIdentity()) {
      const pos = this._v.set(p[0], p[1], p[2]);
      const quat = this._q.set(p[3], p[4], p[5], p[6]);
      // Local TRS relative to the parent; the node keeps its own scaling.
      parent.computeWorldMatrix(true);
      this._v2.copyFrom(transformNode.scaling);
      quat.normalize();
      Matrix.ComposeToRef(transformNode.absoluteScaling, quat, pos, this._m);
      parent.getWorldMatrix().invertToRef(this._m2);
      this._m.multiplyToRef(this._m2, this._m3);
      this._m3.decomposeToTransformNode(transformNode);
      transformNode.rotationQuaternion?.normalize();
      transformNode.scaling.copyFrom(this._v2);
    } else {
      transformNode.position.set(p[0], p[1], p[2]);
      if (transformNode.rotationQuaternion) transformNode.rotationQuaternion.set(p[3], p[4], p[5], p[6]);
      else this._q.set(p[3], p[4], p[5], p[6]).toEulerAnglesToRef(transformNode.rotation);
    }
  }

  /**
   * The prestep (Havok's `setPhysicsBodyTransformation`): TELEPORT puts the body at the node's pose keeping
   * its velocities (all instances from their matrices); ACTION moves it there by velocity in one step.
   */
  setPhysicsBodyTransformation(body: PhysicsBody, node: TransformNode): void {
    const type = body.getPrestepType();
    if (type === PRESTEP_TELEPORT) {
      const inst = body._pluginDataInstances as BodyRecord[];
      if (inst.length > 0) {
        const matrixData = thinInstances(body.transformNode)?.matrixData;
        if (matrixData) this._teleportInstances(inst, matrixData);
        return;
      }
      const rec = body._pluginData as BodyRecord | undefined;
      if (!(rec instanceof BodyRecord) || rec.handle < 0) return;
      let p: Vector3, q: Quaternion;
      if (node.parent) {
        node.computeWorldMatrix(true);
        p = node.absolutePosition;
        q = node.absoluteRotationQuaternion;
      } else if (node.rotationQuaternion) {
        p = node.position;
        q = node.rotationQuaternion;
      } else {
        const r = node.rotation;
        p = node.position;
        q = Quaternion.FromEulerAnglesToRef(r.x, r.y, r.z, this._q);
      }
      // The prestep runs inside the step, where nothing may throw: a node the user left at a pose no setter
      // accepts (a zero or non-finite quaternion, a non-finite position) keeps its body where it is.
      if (!validPose(p, q)) {
        warnBadPrestep(node, p, q);
        this.syncTransform(body, node); // the node shows the body where it stays
        return;
      }
      this.world.setPose(rec.handle, p, q);
    } else if (type === PRESTEP_ACTION) {
      this.setTargetTransform(body, node.absolutePosition, node.absoluteRotationQuaternion);
    }
  }

  setShape(body: PhysicsBody, shape: Nullable<PhysicsShape>): void {
    const fn = "setShape";
    const data = shape === null || shape === undefined ? null : shapeDataOf(fn, "shape", shape);
    const recs = this._all(fn, body);
    for (let i = 0; i < recs.length; i++) this._assignShape(recs[i], data);
  }

  getShape(body: PhysicsBody): Nullable<PhysicsShape> {
    const rec = this._ref("getShape", body);
    const data = rec.shape;
    if (!data) return null;
    if (data.owner && !data.disposed) return data.owner;
    return new PhysicsShape({ pluginData: data }, body.transformNode.getScene());
  }

  getShapeType(shape: PhysicsShape): PhysicsShapeType {
    const d = shape?._pluginData;
    if (d instanceof ShapeData) return d.type as PhysicsShapeType;
    if (shape && typeof shape.type === "number") return shape.type;
    throw new TypeError(`getShapeType: shape must be a ContinuumPlugin PhysicsShape, got ${String(shape)}`);
  }

  setEventMask(body: PhysicsBody, eventMask: number, instanceIndex?: number): void {
    const m = mask("setEventMask", "eventMask", eventMask);
    const recs = this._targets("setEventMask", body, instanceIndex);
    for (let i = 0; i < recs.length; i++) recs[i].eventMask = m;
  }

  getEventMask(body: PhysicsBody, instanceIndex?: number): number {
    return this._ref("getEventMask", body, instanceIndex).eventMask;
  }

  setMotionType(body: PhysicsBody, motionType: PhysicsMotionType, instanceIndex?: number): void {
    enumValue("setMotionType", "motionType", motionType, MOTION_TYPES, "PhysicsMotionType");
    const recs = this._targets("setMotionType", body, instanceIndex);
    for (let i = 0; i < recs.length; i++) this.world.setMotionType(recs[i].handle, motionType as MotionType);
  }

  getMotionType(body: PhysicsBody, instanceIndex?: number): PhysicsMotionType {
    return this.world.getMotionType(this._ref("getMotionType", body, instanceIndex).handle) as number as PhysicsMotionType;
  }

  /**
   * Havok's activation control: ALWAYS_ACTIVE never sleeps, ALWAYS_INACTIVE stays asleep (impulses and
   * contacts do not move it), SIMULATION_CONTROLLED is the default. Applies to every instance, or the one
   * indexed.
   */
  setActivationControl(body: PhysicsBody, controlMode: number, instanceIndex?: number): void {
    const fn = "setActivationControl";
    enumValue(fn, "controlMode", controlMode, [0, 1, 2], "PhysicsActivationControl");
    const recs = this._targets(fn, body, instanceIndex);
    for (let i = 0; i < recs.length; i++) {
      const rec = recs[i];
      const k = this._inactive.indexOf(rec);
      if (k >= 0) this._inactive.splice(k, 1);
      rec.activation = controlMode;
      const h = rec.handle;
      if (controlMode === ACTIVATION_ALWAYS_ACTIVE) {
        this.world.setSleepingAllowed(h, false);
        this.world.wake(h);
      } else if (controlMode === ACTIVATION_ALWAYS_INACTIVE) {
        this.world.setSleepingAllowed(h, true);
        this.world.sleep(h);
        this._inactive.push(rec);
      } else if (controlMode === ACTIVATION_SIMULATION) {
        this.world.setSleepingAllowed(h, true);
      }
    }
  }

  // ---------------------------------------------------------------- mass

  computeMassProperties(body: PhysicsBody, instanceIndex?: number): PhysicsMassProperties {
    const rec = this._ref("computeMassProperties", body, instanceIndex);
    return computeShapeMass(this.world, rec.shape, new EffectiveMass()).toBabylon();
  }

  setMassProperties(body: PhysicsBody, massProps: PhysicsMassProperties, instanceIndex?: number): void {
    validateMassProps("setMassProperties", massProps);
    const recs = this._targets("setMassProperties", body, instanceIndex);
    for (let i = 0; i < recs.length; i++) {
      recs[i].userMassProps = massProps;
      this._updateMass(recs[i]);
    }
  }

  getMassProperties(body: PhysicsBody, instanceIndex?: number): PhysicsMassProperties {
    return this._ref("getMassProperties", body, instanceIndex).effectiveMass.toBabylon();
  }

  // ---------------------------------------------------------------- damping, gravity factor

  setLinearDamping(body: PhysicsBody, damping: number, instanceIndex?: number): void {
    nonNegativeNumber("setLinearDamping", "damping", damping);
    const recs = this._targets("setLinearDamping", body, instanceIndex);
    for (let i = 0; i < recs.length; i++) this.world.setLinearDamping(recs[i].handle, damping);
  }

  getLinearDamping(body: PhysicsBody, instanceIndex?: number): number {
    return this.world.getLinearDamping(this._ref("getLinearDamping", body, instanceIndex).handle);
  }

  setAngularDamping(body: PhysicsBody, damping: number, instanceIndex?: number): void {
    nonNegativeNumber("setAngularDamping", "damping", damping);
    const recs = this._targets("setAngularDamping", body, instanceIndex);
    for (let i = 0; i < recs.length; i++) this.world.setAngularDamping(recs[i].handle, damping);
  }

  getAngularDamping(body: PhysicsBody, instanceIndex?: number): number {
    return this.world.getAngularDamping(this._ref("getAngularDamping", body, instanceIndex).handle);
  }

  setGravityFactor(body: PhysicsBody, factor: number, instanceIndex?: number): void {
    finiteNumber("setGravityFactor", "factor", factor);
    const recs = this._targets("setGravityFactor", body, instanceIndex);
    for (let i = 0; i < recs.length; i++) this.world.setGravityFactor(recs[i].handle, factor);
  }

  getGravityFactor(body: PhysicsBody, instanceIndex?: number): number {
    return this.world.getGravityFactor(this._ref("getGravityFactor", body, instanceIndex).handle);
  }

  // ---------------------------------------------------------------- velocities, impulses, forces

  setLinearVelocity(body: PhysicsBody, linVel: Vector3, instanceIndex?: number): void {
    vector3("setLinearVelocity", "linVel", linVel);
    const recs = this._targets("setLinearVelocity", body, instanceIndex);
    for (let i = 0; i < recs.length; i++) this.world.setLinearVelocity(recs[i].handle, linVel);
  }

  getLinearVelocityToRef(body: PhysicsBody, linVel: Vector3, instanceIndex?: number): void {
    this.world.getLinearVelocity(this._ref("getLinearVelocityToRef", body, instanceIndex).handle, linVel);
  }

  setAngularVelocity(body: PhysicsBody, angVel: Vector3, instanceIndex?: number): void {
    vector3("setAngularVelocity", "angVel", angVel);
    const recs = this._targets("setAngularVelocity", body, instanceIndex);
    for (let i = 0; i < recs.length; i++) this.world.setAngularVelocity(recs[i].handle, angVel);
  }

  getAngularVelocityToRef(body: PhysicsBody, angVel: Vector3, instanceIndex?: number): void {
    this.world.getAngularVelocity(this._ref("getAngularVelocityToRef", body, instanceIndex).handle, angVel);
  }

  /** `location` is a world-space point. */
  applyImpulse(body: PhysicsBody, impulse: Vector3, location: Vector3, instanceIndex?: number): void {
    vector3("applyImpulse", "impulse", impulse);
    vector3("applyImpulse", "location", location);
    const recs = this._targets("applyImpulse", body, instanceIndex);
    for (let i = 0; i < recs.length; i++) this.world.applyLinearImpulse(recs[i].handle, impulse, location);
  }

  applyAngularImpulse(body: PhysicsBody, angularImpulse: Vector3, instanceIndex?: number): void {
    vector3("applyAngularImpulse", "angularImpulse", angularImpulse);
    const recs = this._targets("applyAngularImpulse", body, instanceIndex);
    for (let i = 0; i < recs.length; i++) this.world.applyAngularImpulse(recs[i].handle, angularImpulse);
  }

  /** As HavokPlugin: an immediate impulse `force * getTimeStep()` at the world point `location`. */
  applyForce(body: PhysicsBody, force: Vector3, location: Vector3, instanceIndex?: number): void {
    vector3("applyForce", "force", force);
    vector3("applyForce", "location", location);
    const recs = this._targets("applyForce", body, instanceIndex);
    const j = force.scaleToRef(this._fixedTimeStep, this._v);
    for (let i = 0; i < recs.length; i++) this.world.applyLinearImpulse(recs[i].handle, j, location);
  }

  /** As HavokPlugin: an immediate angular impulse `torque * getTimeStep()`. */
  applyTorque(body: PhysicsBody, torque: Vector3, instanceIndex?: number): void {
    vector3("applyTorque", "torque", torque);
    const recs = this._targets("applyTorque", body, instanceIndex);
    const j = torque.scaleToRef(this._fixedTimeStep, this._v);
    for (let i = 0; i < recs.length; i++) this.world.applyAngularImpulse(recs[i].handle, j);
  }

  /**
   * Sets the velocities that bring the body to (position, rotation) after one step of the current step
   * duration; they persist afterwards (Havok's setTargetTransform; works for ANIMATED and DYNAMIC bodies).
   */
  setTargetTransform(body: PhysicsBody, position: Vector3, rotation: Quaternion, instanceIndex?: number): void {
    vector3("setTargetTransform", "position", position);
    quaternion("setTargetTransform", "rotation", rotation);
    const recs = this._targets("setTargetTransform", body, instanceIndex);
    for (let i = 0; i < recs.length; i++) this.world.moveKinematic(recs[i].handle, position, rotation, this._stepDt);
  }

  // ---------------------------------------------------------------- continuous detection (Continuum extra)

  /** Sets the continuous collision mode of a body (all instances, or the one indexed). */
  /**
   * Extra (not in Havok): the body's speculative margin bounds in metres (engine default 0 and unbounded). A
   * small maximum margin avoids ghost contacts of very fast bodies at the cost of missed collisions; pair it
   * with Continuous detection (see README).
   */
  setSpeculativeMargins(body: PhysicsBody, minimum: number, maximum: number, instanceIndex?: number): void {
    nonNegativeNumber("setSpeculativeMargins", "minimum", minimum);
    if (!(maximum >= minimum)) throw new RangeError(`setSpeculativeMargins: maximum must be >= minimum (${minimum}), got ${String(maximum)}`);
    const recs = this._targets("setSpeculativeMargins", body, instanceIndex);
    for (let i = 0; i < recs.length; i++) this.world.setSpeculativeMargins(recs[i].handle, minimum, maximum);
  }

  setContinuousDetection(body: PhysicsBody, detection: ContinuousDetection, instanceIndex?: number): void {
    const fn = "setContinuousDetection";
    if (detection === null || typeof detection !== "object") throw new TypeError(`${fn}: detection must be a ContinuousDetection, got ${String(detection)}`);
    enumValue(fn, "detection.mode", detection.mode, CONTINUITY_MODES, "ContinuousDetectionMode");
    if (detection.mode === 2) {
      nonNegativeNumber(fn, "detection.minimumSweepTimestep", detection.minimumSweepTimestep);
      positiveNumber(fn, "detection.sweepConvergenceThreshold", detection.sweepConvergenceThreshold);
    }
    const recs = this._targets(fn, body, instanceIndex);
    for (let i = 0; i < recs.length; i++) this.world.setContinuousDetection(recs[i].handle, detection);
  }

  getContinuousDetection(body: PhysicsBody, instanceIndex?: number): ContinuousDetection {
    return this.world.getContinuousDetection(this._ref("getContinuousDetection", body, instanceIndex).handle);
  }

  // ---------------------------------------------------------------- events

  setCollisionCallbackEnabled(body: PhysicsBody, enabled: boolean, instanceIndex?: number): void {
    bool("setCollisionCallbackEnabled", "enabled", enabled);
    if (this._disposed) return;
    const recs = this._targets("setCollisionCallbackEnabled", body, instanceIndex);
    for (let i = 0; i < recs.length; i++) recs[i].eventMask = enabled ? 7 : 0;
  }

  setCollisionEndedCallbackEnabled(body: PhysicsBody, enabled: boolean, instanceIndex?: number): void {
    bool("setCollisionEndedCallbackEnabled", "enabled", enabled);
    if (this._disposed) return;
    const current = this._ref("setCollisionEndedCallbackEnabled", body, instanceIndex).eventMask;
    const m = enabled ? current | 4 : current & ~4;
    const recs = this._targets("setCollisionEndedCallbackEnabled", body, instanceIndex);
    for (let i = 0; i < recs.length; i++) recs[i].eventMask = m;
  }

  getCollisionObservable(body: PhysicsBody, instanceIndex?: number): Observable<IPhysicsCollisionEvent> {
    const rec = this._ref("getCollisionObservable", body, instanceIndex);
    return (rec.collisionObservable ??= new Observable<IPhysicsCollisionEvent>());
  }

  getCollisionEndedObservable(body: PhysicsBody, instanceIndex?: number): Observable<IBasePhysicsCollisionEvent> {
    const rec = this._ref("getCollisionEndedObservable", body, instanceIndex);
    return (rec.collisionEndedObservable ??= new Observable<IBasePhysicsCollisionEvent>());
  }

  // ---------------------------------------------------------------- bounds and geometry

  /**
   * The body shape's local bounds transformed by the node's world matrix; a shapeless body gives an empty
   * box at its position (Havok throws).
   */
  getBodyBoundingBox(body: PhysicsBody): BoundingBox {
    const rec = this._ref("getBodyBoundingBox", body);
    const s = rec.shape?.engineShape ?? null;
    if (s === null) {
      const p = this.world.getPosition(rec.handle, new Vector3());
      return new BoundingBox(p, p.clone(), Matrix.IdentityReadOnly);
    }
    s.computeAabb(this._pose.set(0, 0, 0, 0, 0, 0, 1), this._aabb, 0);
    const a = this._aabb;
    return new BoundingBox(new Vector3(a[0], a[1], a[2]), new Vector3(a[3], a[4], a[5]), body.transformNode.getWorldMatrix());
  }

  /** Body-local triangles of the shape (instance 0 for instanced bodies), for the PhysicsViewer. */
  getBodyGeometry(body: PhysicsBody): { positions: Float32Array; indices: Uint32Array } {
    const rec = this._ref("getBodyGeometry", body);
    return shapeGeometry(rec.shape?.engineShape ?? null);
  }

  // ================================================================ shapes

  initShape(shape: PhysicsShape, type: PhysicsShapeType, options: PhysicsShapeParameters): void {
    this._checkAlive("initShape");
    if (shape === null || typeof shape !== "object") throw new TypeError(`initShape: shape must be a PhysicsShape, got ${String(shape)}`);
    const data = createShapeData(type, options);
    data.owner = shape;
    shape._pluginData = data;
  }

  setShapeFilterMembershipMask(shape: PhysicsShape, membershipMask: number): void {
    const d = shapeDataOf("setShapeFilterMembershipMask", "shape", shape);
    d.membership = mask("setShapeFilterMembershipMask", "membershipMask", membershipMask);
    d.notify(ShapeChange.Filter);
  }

  getShapeFilterMembershipMask(shape: PhysicsShape): number {
    return shapeDataOf("getShapeFilterMembershipMask", "shape", shape).membership;
  }

  setShapeFilterCollideMask(shape: PhysicsShape, collideMask: number): void {
    const d = shapeDataOf("setShapeFilterCollideMask", "shape", shape);
    d.collideWith = mask("setShapeFilterCollideMask", "collideMask", collideMask);
    d.notify(ShapeChange.Filter);
  }

  getShapeFilterCollideMask(shape: PhysicsShape): number {
    return shapeDataOf("getShapeFilterCollideMask", "shape", shape).collideWith;
  }

  setMaterial(shape: PhysicsShape, material: PhysicsMaterial): void {
    const d = shapeDataOf("setMaterial", "shape", shape);
    d.material = toSurfaceMaterial("setMaterial", material);
    d.notify(ShapeChange.Material);
  }

  getMaterial(shape: PhysicsShape): PhysicsMaterial {
    return toPhysicsMaterial(shapeDataOf("getMaterial", "shape", shape).material);
  }

  setDensity(shape: PhysicsShape, density: number): void {
    const d = shapeDataOf("setDensity", "shape", shape);
    d.density = nonNegativeNumber("setDensity", "density", density);
    d.notify(ShapeChange.Density);
  }

  getDensity(shape: PhysicsShape): number {
    return shapeDataOf("getDensity", "shape", shape).density;
  }

  addChild(shape: PhysicsShape, newChild: PhysicsShape, translation?: Vector3, rotation?: Quaternion, scale?: Vector3): void {
    const fn = "addChild";
    const parent = shapeDataOf(fn, "shape", shape);
    const child = shapeDataOf(fn, "newChild", newChild);
    if (parent.type !== SHAPE_CONTAINER) throw new TypeError(`${fn}: shape must be a CONTAINER, got shape type ${parent.type}`);
    if (child.contains(parent)) throw new RangeError(`${fn}: newChild contains shape; a container cannot hold itself`);
    const t = translation ? vector3(fn, "translation", translation) : { x: 0, y: 0, z: 0 };
    const r = rotation ? quaternion(fn, "rotation", rotation) : { x: 0, y: 0, z: 0, w: 1 };
    const s = scale ? vector3(fn, "scale", scale) : { x: 1, y: 1, z: 1 };
    if (s.x === 0 || s.y === 0 || s.z === 0) throw new RangeError(`${fn}: scale must have non-zero components, got (${s.x}, ${s.y}, ${s.z})`);
    const l = Math.sqrt(r.x * r.x + r.y * r.y + r.z * r.z + r.w * r.w);
    parent.children.push({
      data: child,
      translation: { x: t.x, y: t.y, z: t.z },
      rotation: { x: r.x / l, y: r.y / l, z: r.z / l, w: r.w / l },
      scale: { x: s.x, y: s.y, z: s.z },
    });
    child.parents.add(parent);
    try {
      parent.rebuild();
    } catch (e) {
      // e.g. a MESH child in a container of convex shapes: leave the container as it was
      parent.children.pop();
      if (!parent.children.some((c) => c.data === child)) child.parents.delete(parent);
      parent.rebuild(); // undoes a rebuild that succeeded here but failed in an enclosing container
      throw e;
    }
  }

  removeChild(shape: PhysicsShape, childIndex: number): void {
    const fn = "removeChild";
    const parent = shapeDataOf(fn, "shape", shape);
    if (parent.type !== SHAPE_CONTAINER) throw new TypeError(`${fn}: shape must be a CONTAINER, got shape type ${parent.type}`);
    if (!Number.isInteger(childIndex) || childIndex < 0 || childIndex >= parent.children.length) {
      throw new RangeError(`${fn}: childIndex must be an integer in [0, ${parent.children.length}), got ${String(childIndex)}`);
    }
    const [removed] = parent.children.splice(childIndex, 1);
    if (!parent.children.some((c) => c.data === removed.data)) removed.data.parents.delete(parent);
    parent.rebuild();
  }

  getNumChildren(shape: PhysicsShape): number {
    const d = shapeDataOf("getNumChildren", "shape", shape);
    return d.children.length;
  }

  /** The shape's local bounds (identity world matrix). */
  getBoundingBox(shape: PhysicsShape): BoundingBox {
    const d = shapeDataOf("getBoundingBox", "shape", shape);
    const a = this._aabb;
    if (d.engineShape) d.engineShape.computeAabb(this._pose.set(0, 0, 0, 0, 0, 0, 1), a, 0);
    else a.fill(0);
    return new BoundingBox(new Vector3(a[0], a[1], a[2]), new Vector3(a[3], a[4], a[5]), Matrix.IdentityReadOnly);
  }

  /** Releases the shape; bodies already using it keep colliding with it (as Havok's reference counting). */
  disposeShape(shape: PhysicsShape): void {
    const d = shape?._pluginData;
    if (!(d instanceof ShapeData)) return;
    d.disposed = true;
    shape._pluginData = undefined;
    // A disposed container no longer follows its children: unlink it, or a long-lived child shape would keep
    // every container it was ever put in alive (bodies using the container keep its engine shape).
    for (const c of d.children) c.data.parents.delete(d);
  }

  setTrigger(shape: PhysicsShape, isTrigger: boolean): void {
    const d = shapeDataOf("setTrigger", "shape", shape);
    d.isTrigger = bool("setTrigger", "isTrigger", isTrigger);
    d.notify(ShapeChange.Trigger);
  }

  // ================================================================ constraints (./constraints.ts)

  private readonly _joints = new ConstraintBridge({
    getWorld: () => this.world,
    ref: (fn: string, body: PhysicsBody, index?: number, name?: string, indexName?: string) => this._ref(fn, body, index, name, indexName),
  });

  /** One engine joint between body (parent, instance `instanceIndex`) and childBody; see ./constraints.ts. */
  addConstraint(body: PhysicsBody, childBody: PhysicsBody, constraint: PhysicsConstraint, instanceIndex?: number, childInstanceIndex?: number): void {
    this._joints.init("addConstraint", constraint, body, childBody, instanceIndex, childInstanceIndex);
  }

  initConstraint(constraint: PhysicsConstraint, body: PhysicsBody, childBody: PhysicsBody, instanceIndex?: number, childInstanceIndex?: number): void {
    this._joints.init("initConstraint", constraint, body, childBody, instanceIndex, childInstanceIndex);
  }
  setEnabled(constraint: PhysicsConstraint, isEnabled: boolean): void {
    this._joints.setEnabled(constraint, isEnabled);
  }
  /** A boolean (Havok returns 0 / 1); false before addConstraint. */
  getEnabled(constraint: PhysicsConstraint): boolean {
    return this._joints.getEnabled(constraint);
  }
  setCollisionsEnabled(constraint: PhysicsConstraint, isEnabled: boolean): void {
    this._joints.setCollisionsEnabled(constraint, isEnabled);
  }
  getCollisionsEnabled(constraint: PhysicsConstraint): boolean {
    return this._joints.getCollisionsEnabled(constraint);
  }
  setAxisFriction(constraint: PhysicsConstraint, axis: PhysicsConstraintAxis, friction: number): void {
    this._joints.setAxisFriction(constraint, axis, friction);
  }
  getAxisFriction(constraint: PhysicsConstraint, axis: PhysicsConstraintAxis): Nullable<number> {
    return this._joints.getAxisFriction(constraint, axis);
  }
  setAxisMode(constraint: PhysicsConstraint, axis: PhysicsConstraintAxis, limitMode: PhysicsConstraintAxisLimitMode): void {
    this._joints.setAxisMode(constraint, axis, limitMode);
  }
  getAxisMode(constraint: PhysicsConstraint, axis: PhysicsConstraintAxis): Nullable<PhysicsConstraintAxisLimitMode> {
    return this._joints.getAxisMode(constraint, axis);
  }
  setAxisMinLimit(constraint: PhysicsConstraint, axis: PhysicsConstraintAxis, minLimit: number): void {
    this._joints.setAxisMinLimit(constraint, axis, minLimit);
  }
  getAxisMinLimit(constraint: PhysicsConstraint, axis: PhysicsConstraintAxis): Nullable<number> {
    return this._joints.getAxisMinLimit(constraint, axis);
  }
  setAxisMaxLimit(constraint: PhysicsConstraint, axis: PhysicsConstraintAxis, limit: number): void {
    this._joints.setAxisMaxLimit(constraint, axis, limit);
  }
  getAxisMaxLimit(constraint: PhysicsConstraint, axis: PhysicsConstraintAxis): Nullable<number> {
    return this._joints.getAxisMaxLimit(constraint, axis);
  }
  setAxisMotorType(constraint: PhysicsConstraint, axis: PhysicsConstraintAxis, motorType: PhysicsConstraintMotorType): void {
    this._joints.setAxisMotorType(constraint, axis, motorType);
  }
  getAxisMotorType(constraint: PhysicsConstraint, axis: PhysicsConstraintAxis): Nullable<PhysicsConstraintMotorType> {
    return this._joints.getAxisMotorType(constraint, axis);
  }
  setAxisMotorTarget(constraint: PhysicsConstraint, axis: PhysicsConstraintAxis, target: number): void {
    this._joints.setAxisMotorTarget(constraint, axis, target);
  }
  /** The motor target (Havok throws here). */
  getAxisMotorTarget(constraint: PhysicsConstraint, axis: PhysicsConstraintAxis): Nullable<number> {
    return this._joints.getAxisMotorTarget(constraint, axis);
  }
  setAxisMotorMaxForce(constraint: PhysicsConstraint, axis: PhysicsConstraintAxis, maxForce: number): void {
    this._joints.setAxisMotorMaxForce(constraint, axis, maxForce);
  }
  getAxisMotorMaxForce(constraint: PhysicsConstraint, axis: PhysicsConstraintAxis): Nullable<number> {
    return this._joints.getAxisMotorMaxForce(constraint, axis);
  }
  disposeConstraint(constraint: PhysicsConstraint): void {
    this._joints.dispose(constraint);
  }
  getBodiesUsingConstraint(constraint: PhysicsConstraint): ConstrainedBodyPair[] {
    return this._joints.getBodiesUsingConstraint(constraint);
  }

  // ================================================================ queries

  /**
   * Nearest hit into a single result; every hit sorted by distance into an empty array (no need for
   * setMaxQueryCollectorHits); the k nearest into a pre-filled array of k results. Triggers are skipped
   * unless `shouldHitTriggers`; `ignoreBody` skips that body (instance 0 of an instanced body).
   */
  raycast(from: Vector3, to: Vector3, result: PhysicsRaycastResult | Array<PhysicsRaycastResult>, query?: IRaycastQuery): void {
    const fn = "raycast";
    vector3(fn, "from", from);
    vector3(fn, "to", to);
    const multi = Array.isArray(result);
    if (multi) for (let i = 0; i < result.length; i++) result[i].reset(from, to);
    else if (result && typeof result.reset === "function") result.reset(from, to);
    else throw new TypeError(`${fn}: result must be a PhysicsRaycastResult or an array of them, got ${String(result)}`);
    if (this._disposed) return;
    const dx = to.x - from.x,
      dy = to.y - from.y,
      dz = to.z - from.z;
    const len = Math.sqrt(dx * dx + dy * dy + dz * dz);
    if (!(len > 0)) return;
    const dir = this._dir;
    dir.x = dx / len;
    dir.y = dy / len;
    dir.z = dz / len;
    const f = this._rayFilter;
    f.membership = query?.membership ?? -1;
    f.collideWith = query?.collideWith ?? -1;
    f.hitTriggers = !!query?.shouldHitTriggers;
    f.ignoreBody = undefined;
    const ign = query?.ignoreBody;
    if (ign) {
      const rec = (ign._pluginData ?? ign._pluginDataInstances?.[0]) as BodyRecord | undefined;
      if (rec instanceof BodyRecord && rec.handle >= 0) f.ignoreBody = rec.handle;
    }
    if (!multi) {
      if (this.world.raycast(from, dir, len, f, this._rayHit)) this._fillRayResult(result, this._rayHit);
      return;
    }
    const n = this.world.raycastAll(from, dir, len, f, this._rayHits);
    if (result.length === 0) {
      for (let i = 0; i < n; i++) {
        const r = new PhysicsRaycastResult();
        r.reset(from, to);
        result.push(r);
      }
    }
    const k = Math.min(n, result.length);
    for (let i = 0; i < k; i++) this._fillRayResult(result[i], this._rayHits[i]);
  }

  /** The closest body surface to a point (docs/babylon-differences.md 1.11); `hitDistance` is negative inside. */
  pointProximity(query: IPhysicsPointProximityQuery, result: ProximityCastResult): void {
    this._queries.pointProximity(query, result);
  }

  /** The closest body to a posed shape: input result in the shape's local space, hit result in world space. */
  shapeProximity(query: IPhysicsShapeProximityCastQuery, inputShapeResult: ProximityCastResult, hitShapeResult: ProximityCastResult): void {
    this._queries.shapeProximity(query, inputShapeResult, hitShapeResult);
  }

  /** The first hit of a shape swept from start to end (fixed rotation): local input result, world hit result. */
  shapeCast(query: IPhysicsShapeCastQuery, inputShapeResult: ShapeCastResult, hitShapeResult: ShapeCastResult): void {
    this._queries.shapeCast(query, inputShapeResult, hitShapeResult);
  }

  private _fillRayResult(out: PhysicsRaycastResult, hit: RayResult): void {
    const rec = this._records.get(hit.body);
    const data = rec?.shape;
    // Triangle shapes report the hit triangle (the leaf's own numbering); -1 otherwise.
    const leaf = data ? data.resolveHit(hit.childIndex, this._hitLeaf) : null;
    out.setHitData(hit.normal, hit.point, leaf ? leaf.triangle : -1);
    out.setHitDistance(hit.distance);
    out.body = rec?.body;
    out.bodyIndex = rec?.index;
    if (data) out.shape = (leaf?.leaf?.owner ?? data.owner) ?? undefined;
  }
}

/** A pose `World.setPose` accepts: finite position, finite non-zero quaternion. */
function validPose(p: Vector3, q: Quaternion): boolean {
  const l = q.x * q.x + q.y * q.y + q.z * q.z + q.w * q.w;
  return Number.isFinite(p.x + p.y + p.z) && l > 0 && l < Infinity;
}

const warnedPrestep = new WeakSet<object>();

/** Warns once per node that the teleport prestep skipped it (the step itself never throws). */
function warnBadPrestep(node: object, p: Vector3, q: Quaternion): void {
  if (warnedPrestep.has(node)) return;
  warnedPrestep.add(node);
  const name = (node as { name?: string }).name ?? "";
  Logger.Warn(`ContinuumPlugin prestep: node '${name}' has a pose no body can take (position ${p.toString()}, rotation ${q.toString()}); its body stays where it is`);
}

function body0(rec: BodyRecord): object {
  return rec.body.transformNode ?? rec.body;
}
