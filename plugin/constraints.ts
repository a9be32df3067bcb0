/**
 * Babylon constraints over the engine's generic 6-DoF joint (docs/babylon-differences.md 1.10).
 *
 * Every Babylon constraint type is one engine joint per `addConstraint` call, with the axis modes of Havok's
 * table: BALL_AND_SOCKET locks LINEAR_X/Y/Z; DISTANCE is LINEAR_DISTANCE LIMITED with min = max =
 * `maxDistance || 0` (a rigid rod, as Havok); HINGE locks the linear axes and ANGULAR_Y/Z; SLIDER locks
 * LINEAR_Y/Z and ANGULAR_Y/Z; LOCK locks all six; PRISMATIC locks LINEAR_Y/Z and all angular axes; SIX_DOF
 * applies its `limits` (min = max = 0 -> LOCKED, else LIMITED with the given sides; `stiffness`/`damping`
 * make the axis a spring; unlisted axes FREE). Babylon's axis, limit-mode and motor-type numbering is the
 * engine's (JointAxis LINEAR_X..LINEAR_DISTANCE = 0..6, FREE/LIMITED/LOCKED = 0..2, NONE/VELOCITY/POSITION
 * = 0..2), so values pass through unchanged.
 *
 * Frames: X = axisA/B (default (1, 0, 0)), Y = perpAxisA/B (default `axis.getNormalToRef()`, as Havok, so
 * the swing axes match Havok's and the viewer's), Z = X x Y; pivots in each body's local (node) space,
 * default 0. Body A is the body `addConstraint` is called on (the parent), B the child.
 *
 * Defaults read back as Havok's: unset limits are -/+FLT_MAX on the linear axes and ANGULAR_X, -/+pi on
 * ANGULAR_Y/Z, [0, FLT_MAX] on LINEAR_DISTANCE; friction 0; motor NONE with target 0 and maximum force 0
 * (a motor does nothing until given a force, as in Havok).
 *
 * `constraint._pluginData` is an array of {@link JointLink}, one per `addConstraint`; setters apply to every
 * live joint, getters read the first live one (null before `addConstraint` or when every joint is gone).
 * Removing a body removes its joints in the engine; links to them are skipped from then on.
 */
import { Vector3 } from "@babylonjs/core/Maths/math.vector.js";
import { Logger } from "@babylonjs/core/Misc/logger.js";
import type {
  ConstrainedBodyPair,
  PhysicsConstraintAxis,
  PhysicsConstraintAxisLimitMode,
  PhysicsConstraintMotorType,
} from "@babylonjs/core/Physics/v2/IPhysicsEnginePlugin.js";
import type { PhysicsBody } from "@babylonjs/core/Physics/v2/physicsBody.js";
import type { PhysicsConstraint } from "@babylonjs/core/Physics/v2/physicsConstraint.js";
import type { Nullable } from "@babylonjs/core/types.js";
import type { JointAxisDescription, JointDescription } from "../src/dynamics/joints/joint6dof";
import type { World } from "../src/world/world";
import type { BodyRecord } from "./bodyRecord";
import { bool, enumValue, finiteNumber, vector3 } from "./validation";

/** Babylon's PhysicsConstraintType values. */
export const CONSTRAINT_BALL_AND_SOCKET = 1,
  CONSTRAINT_DISTANCE = 2,
  CONSTRAINT_HINGE = 3,
  CONSTRAINT_SLIDER = 4,
  CONSTRAINT_LOCK = 5,
  CONSTRAINT_PRISMATIC = 6,
  CONSTRAINT_SIX_DOF = 7;
const CONSTRAINT_TYPES = [1, 2, 3, 4, 5, 6, 7] as const;
const AXES = [0, 1, 2, 3, 4, 5, 6] as const;
const MODES = [0, 1, 2] as const;
const MOTOR_TYPES = [0, 1, 2] as const;

const FREE = 0,
  LIMITED = 1,
  LOCKED = 2;
const LINEAR_X = 0,
  LINEAR_Y = 1,
  LINEAR_Z = 2,
  ANGULAR_X = 3,
  ANGULAR_Y = 4,
  ANGULAR_Z = 5,
  LINEAR_DISTANCE = 6;

/** Havok's "unlimited" limit value (the largest float32). */
export const FLT_MAX = 3.4028234663852886e38;

/** Locked axes of each non-6DoF type (docs/babylon-differences.md 1.10). */
const LOCKED_AXES: Record<number, readonly number[]> = {
  [CONSTRAINT_BALL_AND_SOCKET]: [LINEAR_X, LINEAR_Y, LINEAR_Z],
  [CONSTRAINT_DISTANCE]: [],
  [CONSTRAINT_HINGE]: [LINEAR_X, LINEAR_Y, LINEAR_Z, ANGULAR_Y, ANGULAR_Z],
  [CONSTRAINT_SLIDER]: [LINEAR_Y, LINEAR_Z, ANGULAR_Y, ANGULAR_Z],
  [CONSTRAINT_LOCK]: [LINEAR_X, LINEAR_Y, LINEAR_Z, ANGULAR_X, ANGULAR_Y, ANGULAR_Z],
  [CONSTRAINT_PRISMATIC]: [LINEAR_Y, LINEAR_Z, ANGULAR_X, ANGULAR_Y, ANGULAR_Z],
  [CONSTRAINT_SIX_DOF]: [],
};

/** One engine joint made by one `addConstraint` call. */
export interface JointLink {
  /** The world the joint lives in (a disposed plugin's links point at its old world). */
  world: World;
  handle: number;
  parent: BodyRecord;
  child: BodyRecord;
}

/** `constraint._pluginData` after disposeConstraint: setters then throw (getters read null). */
type DisposedMark = JointLink[] & { disposed?: boolean };

/** What the constraint code needs from the plugin. */
export interface ConstraintHost {
  /** The current engine world (the plugin replaces it on dispose). */
  getWorld(): World;
  /** The record of a body (the instance `index` of an instanced body); throws naming `fn` if invalid. */
  ref(fn: string, body: PhysicsBody, index?: number, name?: string, indexName?: string): BodyRecord;
}

/** Babylon's `Physics6DoFLimit` as read from a constraint. */
interface SixDofLimit {
  axis: number;
  minLimit?: number;
  maxLimit?: number;
  stiffness?: number;
  damping?: number;
}

function plain(v: Vector3): { x: number; y: number; z: number } {
  return { x: v.x, y: v.y, z: v.z };
}

/** Havok's default limits of an axis (see the module comment). */
function defaultLimits(axis: number): [number, number] {
  if (axis === ANGULAR_Y || axis === ANGULAR_Z) return [-Math.PI, Math.PI];
  if (axis === LINEAR_DISTANCE) return [0, FLT_MAX];
  return [-FLT_MAX, FLT_MAX];
}

/** The plugin's constraint methods (ContinuumPlugin forwards to these). */
export class ConstraintBridge {
  constructor(private readonly host: ConstraintHost) {}

  // ---------------------------------------------------------------- creation

  /**
   * Creates one joint between `body` (A, parent) and `childBody` (B). With an instanced body and no instance
   * index it warns and creates nothing (as Havok).
   */
  init(fn: string, constraint: PhysicsConstraint, body: PhysicsBody, childBody: PhysicsBody, instanceIndex?: number, childInstanceIndex?: number): void {
    if (constraint === null || typeof constraint !== "object") throw new TypeError(`${fn}: constraint must be a PhysicsConstraint, got ${String(constraint)}`);
    const type = constraint.type;
    const options = constraint.options;
    if (type === undefined || type === null || !options) {
      Logger.Warn("No constraint type or options. Constraint is invalid.");
      return;
    }
    enumValue(fn, "constraint.type", type, CONSTRAINT_TYPES, "PhysicsConstraintType");
    if (body === null || typeof body !== "object") throw new TypeError(`${fn}: body must be a PhysicsBody, got ${String(body)}`);
    if (childBody === null || typeof childBody !== "object") throw new TypeError(`${fn}: childBody must be a PhysicsBody, got ${String(childBody)}`);
    const instanced = (b: PhysicsBody) => (b._pluginDataInstances?.length ?? 0) > 0;
    if ((instanced(body) && instanceIndex === undefined) || (instanced(childBody) && childInstanceIndex === undefined)) {
      Logger.Warn("Body is instanced but no instance index was specified. Constraint will not be applied.");
      return;
    }
    const parent = this.host.ref(fn, body, instanceIndex);
    const child = this.host.ref(fn, childBody, childInstanceIndex, "childBody", "childInstanceIndex");
    if (parent === child) {
      throw new RangeError(
        `${fn}: childBody must be a different body from body (a constraint needs two different bodies), got the same body${instanceIndex !== undefined ? ` instance ${instanceIndex}` : ""} twice`,
      );
    }

    // Frames, with Havok's defaults.
    const vec = (name: string, v: Vector3 | undefined, dflt: () => Vector3): Vector3 => {
      if (!v) return dflt();
      const o = vector3(fn, `options.${name}`, v);
      return new Vector3(o.x, o.y, o.z);
    };
    const pivotA = vec("pivotA", options.pivotA, () => Vector3.Zero());
    const pivotB = vec("pivotB", options.pivotB, () => Vector3.Zero());
    const axisA = vec("axisA", options.axisA, () => new Vector3(1, 0, 0));
    const axisB = vec("axisB", options.axisB, () => new Vector3(1, 0, 0));
    if (axisA.lengthSquared() < 1e-18) throw new RangeError(`${fn}: options.axisA must be a non-zero vector, got ${axisA.toString()}`);
    if (axisB.lengthSquared() < 1e-18) throw new RangeError(`${fn}: options.axisB must be a non-zero vector, got ${axisB.toString()}`);
    const perpAxisA = vec("perpAxisA", options.perpAxisA, () => axisA.getNormalToRef(new Vector3()));
    const perpAxisB = vec("perpAxisB", options.perpAxisB, () => axisB.getNormalToRef(new Vector3()));

    const axes = this._axes(fn, constraint, type, options.maxDistance);
    const desc: JointDescription = {
      bodyA: parent.handle,
      bodyB: child.handle,
      pivotA: plain(pivotA),
      pivotB: plain(pivotB),
      axisA: plain(axisA),
      axisB: plain(axisB),
      perpAxisA: plain(perpAxisA),
      perpAxisB: plain(perpAxisB),
      axes,
      collisionsEnabled: !!options.collision,
      enabled: true,
    };
    const world = this.host.getWorld();
    let handle: number;
    try {
      handle = world.createJoint(desc);
    } catch (e) {
      // The engine names the description field (e.g. "desc.perpAxisA must not be parallel to desc.axisA").
      if (e instanceof Error) e.message = `${fn}: ${e.message.replace(/desc\./g, "options.")}`;
      throw e;
    }
    const prev = constraint._pluginData as DisposedMark | undefined;
    const links: JointLink[] = prev && !prev.disposed ? prev : [];
    links.push({ world, handle, parent, child });
    constraint._pluginData = links;
    // Constraints with engine-only settings (WheelConstraint) finish their joint here.
    const hook = (constraint as { _onContinuumJoint?: (w: World, h: number, a: number, b: number) => void })._onContinuumJoint;
    if (typeof hook === "function") hook.call(constraint, world, handle, parent.handle, child.handle);
    // For the PhysicsViewer (Havok's fields; its perpAxisA is a copy of perpAxisB, ours is A's own).
    if (!constraint._initOptions) {
      constraint._initOptions = { pivotA, pivotB, axisA, axisB, perpAxisA, perpAxisB };
    }
  }

  /** Axis settings of a new joint: Havok's defaults on every axis, then the type's modes. */
  private _axes(fn: string, constraint: PhysicsConstraint, type: number, maxDistance: number | undefined): JointAxisDescription[] {
    const axes: JointAxisDescription[] = [];
    for (const axis of AXES) {
      const [min, max] = defaultLimits(axis);
      axes.push({ axis, mode: FREE, min, max, friction: 0, motorType: 0, motorTarget: 0, motorMaxForce: 0 });
    }
    for (const axis of LOCKED_AXES[type]) axes[axis].mode = LOCKED;
    if (type === CONSTRAINT_DISTANCE) {
      // Havok reads `maxDistance || 0`; anything else that is not a finite number is an error.
      const d = maxDistance === undefined || maxDistance === null || maxDistance === 0 ? 0 : maxDistance;
      finiteNumber(fn, "options.maxDistance", d);
      if (d < 0) throw new RangeError(`${fn}: options.maxDistance must be >= 0, got ${d}`);
      const a = axes[LINEAR_DISTANCE];
      a.mode = LIMITED;
      a.min = d;
      a.max = d;
    } else if (type === CONSTRAINT_SIX_DOF) {
      const limits = (constraint as unknown as { limits?: unknown }).limits ?? [];
      if (!Array.isArray(limits)) throw new TypeError(`${fn}: Physics6DoFConstraint limits must be an array, got ${String(limits)}`);
      for (let i = 0; i < limits.length; i++) {
        const l = limits[i] as SixDofLimit;
        const n = `limits[${i}]`;
        if (l === null || typeof l !== "object") throw new TypeError(`${fn}: ${n} must be a Physics6DoFLimit, got ${String(l)}`);
        const a = axes[enumValue(fn, `${n}.axis`, l.axis, AXES, "PhysicsConstraintAxis")];
        if ((l.minLimit ?? -1) === 0 && (l.maxLimit ?? -1) === 0) {
          a.mode = LOCKED;
        } else {
          if (l.minLimit !== undefined && l.minLimit !== null) {
            a.mode = LIMITED;
            a.min = this._limit(fn, `${n}.minLimit`, l.minLimit);
          }
          if (l.maxLimit !== undefined && l.maxLimit !== null) {
            a.mode = LIMITED;
            a.max = this._limit(fn, `${n}.maxLimit`, l.maxLimit);
          }
        }
        if (l.stiffness !== undefined && l.stiffness !== null) a.stiffness = this._nonNegative(fn, `${n}.stiffness`, l.stiffness);
        if (l.damping !== undefined && l.damping !== null) a.damping = this._nonNegative(fn, `${n}.damping`, l.damping);
      }
    }
    return axes;
  }

  private _limit(fn: string, name: string, v: unknown): number {
    if (typeof v !== "number") throw new TypeError(`${fn}: ${name} must be a number, got ${String(v)}`);
    if (Number.isNaN(v)) throw new RangeError(`${fn}: ${name} must be a number (not NaN), got NaN`);
    return v;
  }

  private _nonNegative(fn: string, name: string, v: unknown): number {
    if (typeof v !== "number" || !(v >= 0) || !Number.isFinite(v)) throw new RangeError(`${fn}: ${name} must be a finite number >= 0, got ${String(v)}`);
    return v;
  }

  // ---------------------------------------------------------------- joints of a constraint

  private _isLive(l: JointLink): boolean {
    return l.world === this.host.getWorld() && l.parent.handle >= 0 && l.child.handle >= 0 && l.world.joints.isAlive(l.handle);
  }

  /** Live joint handles of the constraint; throws (naming `fn`) if it was never added to a body. */
  private _handles(fn: string, constraint: PhysicsConstraint): number[] {
    if (constraint === null || typeof constraint !== "object") throw new TypeError(`${fn}: constraint must be a PhysicsConstraint, got ${String(constraint)}`);
    const links = constraint._pluginData as JointLink[] | undefined;
    if (!Array.isArray(links)) {
      throw new Error(`${fn}: the constraint has not been added to a body yet (call body.addConstraint(childBody, constraint) first)`);
    }
    if ((links as DisposedMark).disposed) throw new TypeError(`${fn}: constraint is disposed`);
    const out: number[] = [];
    for (const l of links) if (this._isLive(l)) out.push(l.handle);
    return out;
  }

  /** The first live joint, or -1 (before addConstraint, after dispose, or once its bodies are gone). */
  private _first(constraint: PhysicsConstraint): number {
    const links = constraint?._pluginData as JointLink[] | undefined;
    if (!Array.isArray(links)) return -1;
    for (const l of links) if (this._isLive(l)) return l.handle;
    return -1;
  }

  private _axis(fn: string, axis: unknown): number {
    return enumValue(fn, "axis", axis, AXES, "PhysicsConstraintAxis");
  }

  // ---------------------------------------------------------------- flags

  setEnabled(constraint: PhysicsConstraint, isEnabled: boolean): void {
    const fn = "setEnabled";
    bool(fn, "isEnabled", isEnabled);
    const j = this.host.getWorld().joints;
    for (const h of this._handles(fn, constraint)) j.setEnabled(h, isEnabled);
  }

  getEnabled(constraint: PhysicsConstraint): boolean {
    const h = this._first(constraint);
    return h >= 0 ? this.host.getWorld().joints.getEnabled(h) : false;
  }

  setCollisionsEnabled(constraint: PhysicsConstraint, isEnabled: boolean): void {
    const fn = "setCollisionsEnabled";
    bool(fn, "isEnabled", isEnabled);
    const j = this.host.getWorld().joints;
    for (const h of this._handles(fn, constraint)) j.setCollisionsEnabled(h, isEnabled);
  }

  getCollisionsEnabled(constraint: PhysicsConstraint): boolean {
    const h = this._first(constraint);
    return h >= 0 ? this.host.getWorld().joints.getCollisionsEnabled(h) : false;
  }

  // ---------------------------------------------------------------- axes

  setAxisFriction(constraint: PhysicsConstraint, axis: PhysicsConstraintAxis, friction: number): void {
    const fn = "setAxisFriction";
    const a = this._axis(fn, axis);
    this._nonNegative(fn, "friction", friction);
    const j = this.host.getWorld().joints;
    for (const h of this._handles(fn, constraint)) j.setAxisFriction(h, a as never, friction);
  }

  getAxisFriction(constraint: PhysicsConstraint, axis: PhysicsConstraintAxis): Nullable<number> {
    const a = this._axis("getAxisFriction", axis);
    const h = this._first(constraint);
    return h >= 0 ? this.host.getWorld().joints.getAxisFriction(h, a as never) : null;
  }

  setAxisMode(constraint: PhysicsConstraint, axis: PhysicsConstraintAxis, limitMode: PhysicsConstraintAxisLimitMode): void {
    const fn = "setAxisMode";
    const a = this._axis(fn, axis);
    const m = enumValue(fn, "limitMode", limitMode, MODES, "PhysicsConstraintAxisLimitMode");
    const j = this.host.getWorld().joints;
    for (const h of this._handles(fn, constraint)) j.setAxisMode(h, a as never, m as never);
  }

  getAxisMode(constraint: PhysicsConstraint, axis: PhysicsConstraintAxis): Nullable<PhysicsConstraintAxisLimitMode> {
    const a = this._axis("getAxisMode", axis);
    const h = this._first(constraint);
    return h >= 0 ? (this.host.getWorld().joints.getAxisMode(h, a as never) as number as PhysicsConstraintAxisLimitMode) : null;
  }

  setAxisMinLimit(constraint: PhysicsConstraint, axis: PhysicsConstraintAxis, minLimit: number): void {
    const fn = "setAxisMinLimit";
    const a = this._axis(fn, axis);
    this._limit(fn, "minLimit", minLimit);
    const j = this.host.getWorld().joints;
    for (const h of this._handles(fn, constraint)) j.setAxisMinLimit(h, a as never, minLimit);
  }

  getAxisMinLimit(constraint: PhysicsConstraint, axis: PhysicsConstraintAxis): Nullable<number> {
    const a = this._axis("getAxisMinLimit", axis);
    const h = this._first(constraint);
    return h >= 0 ? this.host.getWorld().joints.getAxisMinLimit(h, a as never) : null;
  }

  setAxisMaxLimit(constraint: PhysicsConstraint, axis: PhysicsConstraintAxis, limit: number): void {
    const fn = "setAxisMaxLimit";
    const a = this._axis(fn, axis);
    this._limit(fn, "limit", limit);
    const j = this.host.getWorld().joints;
    for (const h of this._handles(fn, constraint)) j.setAxisMaxLimit(h, a as never, limit);
  }

  getAxisMaxLimit(constraint: PhysicsConstraint, axis: PhysicsConstraintAxis): Nullable<number> {
    const a = this._axis("getAxisMaxLimit", axis);
    const h = this._first(constraint);
    return h >= 0 ? this.host.getWorld().joints.getAxisMaxLimit(h, a as never) : null;
  }

  setAxisMotorType(constraint: PhysicsConstraint, axis: PhysicsConstraintAxis, motorType: PhysicsConstraintMotorType): void {
    const fn = "setAxisMotorType";
    const a = this._axis(fn, axis);
    const t = enumValue(fn, "motorType", motorType, MOTOR_TYPES, "PhysicsConstraintMotorType");
    const j = this.host.getWorld().joints;
    for (const h of this._handles(fn, constraint)) j.setAxisMotorType(h, a as never, t as never);
  }

  getAxisMotorType(constraint: PhysicsConstraint, axis: PhysicsConstraintAxis): Nullable<PhysicsConstraintMotorType> {
    const a = this._axis("getAxisMotorType", axis);
    const h = this._first(constraint);
    return h >= 0 ? (this.host.getWorld().joints.getAxisMotorType(h, a as never) as number as PhysicsConstraintMotorType) : null;
  }

  setAxisMotorTarget(constraint: PhysicsConstraint, axis: PhysicsConstraintAxis, target: number): void {
    const fn = "setAxisMotorTarget";
    const a = this._axis(fn, axis);
    finiteNumber(fn, "target", target);
    const j = this.host.getWorld().joints;
    for (const h of this._handles(fn, constraint)) j.setAxisMotorTarget(h, a as never, target);
  }

  /** The motor target (Havok throws here; we return it: docs/babylon-differences.md, Decisions). */
  getAxisMotorTarget(constraint: PhysicsConstraint, axis: PhysicsConstraintAxis): Nullable<number> {
    const a = this._axis("getAxisMotorTarget", axis);
    const h = this._first(constraint);
    return h >= 0 ? this.host.getWorld().joints.getAxisMotorTarget(h, a as never) : null;
  }

  setAxisMotorMaxForce(constraint: PhysicsConstraint, axis: PhysicsConstraintAxis, maxForce: number): void {
    const fn = "setAxisMotorMaxForce";
    const a = this._axis(fn, axis);
    if (typeof maxForce !== "number" || !(maxForce >= 0)) throw new RangeError(`${fn}: maxForce must be a number >= 0, got ${String(maxForce)}`);
    const j = this.host.getWorld().joints;
    for (const h of this._handles(fn, constraint)) j.setAxisMotorMaxForce(h, a as never, maxForce);
  }

  getAxisMotorMaxForce(constraint: PhysicsConstraint, axis: PhysicsConstraintAxis): Nullable<number> {
    const a = this._axis("getAxisMotorMaxForce", axis);
    const h = this._first(constraint);
    return h >= 0 ? this.host.getWorld().joints.getAxisMotorMaxForce(h, a as never) : null;
  }

  // ---------------------------------------------------------------- bodies, disposal

  /** One pair per live joint, the body `addConstraint` was called on as parent. */
  getBodiesUsingConstraint(constraint: PhysicsConstraint): ConstrainedBodyPair[] {
    const links = constraint?._pluginData as JointLink[] | undefined;
    const pairs: ConstrainedBodyPair[] = [];
    if (!Array.isArray(links)) return pairs;
    for (const l of links) {
      if (!this._isLive(l)) continue;
      pairs.push({ parentBody: l.parent.body, parentBodyIndex: l.parent.index, childBody: l.child.body, childBodyIndex: l.child.index });
    }
    return pairs;
  }

  /** Removes every joint of the constraint (those of removed bodies are already gone). */
  dispose(constraint: PhysicsConstraint): void {
    const links = constraint?._pluginData as JointLink[] | undefined;
    if (!Array.isArray(links)) return;
    for (const l of links) if (this._isLive(l)) l.world.removeJoint(l.handle);
    links.length = 0;
    (links as DisposedMark).disposed = true;
  }
}
