/**
 * The joint registry: the storage of every joint (per-slot Float64Arrays of configuration and solver state,
 * generational handles = slot + generation * 2^20) and its user API: create / remove, flags, per-axis modes,
 * limits, springs, friction and motors. The per-step prepare / warm start / solve over this storage is
 * ./jointSolver (JointSolver extends JointRegistry); the layout constants below are shared with it.
 */
import { grown } from "../../collections/growth";
import { PairTable } from "../../collections/pairTable";
import { Quat } from "../../math/quat";
import type { BodySet } from "../bodySet";
import {
  AXIS_COUNT,
  AxisMode,
  checkAxis,
  checkBool,
  checkFinite,
  checkMode,
  checkMotorType,
  checkNonNegative,
  checkVec,
  fmt,
  frameFromAxes,
  type JointAxis,
  type JointDescription,
  MotorType,
} from "./joint6dof";
import { GEO, LOC } from "./jointRigidBlocks";

export const SLOTS = 1 << 20;

// Config per slot.
export const C_PA = 0,
  C_PB = 3,
  C_QA = 6,
  C_QB = 10,
  C_AXES = 14;
export const A_MODE = 0,
  A_MIN = 1,
  A_MAX = 2,
  A_K = 3,
  A_C = 4,
  A_FRIC = 5,
  A_MT = 6,
  A_TGT = 7,
  A_MAXF = 8,
  A_REST = 9,
  A_FPL = 10,
  // Spring motors (MotorType.SpringForce / SpringAcceleration): stiffness, damping, velocity target.
  A_MK = 11,
  A_MC = 12,
  A_VT = 13,
  AXS = 14;
export const CFG = C_AXES + AXIS_COUNT * AXS;

// Solver state per slot: 5 accumulated impulses per axis, last world direction per axis, lever arms.
export const I_EQ = 0,
  I_LO = 1,
  I_HI = 2,
  I_MOT = 3,
  I_FR = 4,
  IPA = 5;
export const S_DIR = AXIS_COUNT * IPA,
  S_RA = S_DIR + AXIS_COUNT * 3,
  S_RB = S_RA + 3,
  S_SEP = S_RB + 3;
export const ST = S_SEP + 3;

/** Per-slot floats of the generic geometry cache (JointSolver.gcache). */
export const GC = AXIS_COUNT + 9;

export const F_ALIVE = 1,
  F_ENABLED = 2,
  F_COLLIDE = 4;

const tmpQ = new Quat();
const tmpQ2 = new Quat();

/** Joint storage and the user API; the solver (./jointSolver) extends it with the step. */
export abstract class JointRegistry {
  protected cfg = new Float64Array(CFG * 16);
  protected st = new Float64Array(ST * 16);
  protected bodyHandles = new Float64Array(2 * 16);
  protected flags = new Uint8Array(16);
  private generation: Int32Array = new Int32Array(16);
  protected dense: Int32Array = new Int32Array(2 * 16);
  protected moves = new Uint8Array(2 * 16);
  /** Per slot, the SH_* bits of its axes (set by prepare for the joints it solves). */
  protected shape = new Uint8Array(16);
  /** Per slot, its JointKind (set with shape): ball and hinge joints take ./jointRigidBlocks. */
  protected kind = new Uint8Array(16);
  /** Per slot, the rigid blocks' local data (LOC) and their geometry from the current poses (GEO). */
  protected loc = new Float64Array(LOC * 16);
  protected geo = new Float64Array(GEO * 16);
  /** Per slot, a generic joint's axis positions and frame-A axes from its last geometry (AXIS_COUNT + 9; JointSolver.genericFresh). */
  protected gcache = new Float64Array(GC * 16);
  /** Set when a joint is created or an axis setting is touched: the next prepare classifies the axes again. */
  protected shapesDirty = true;
  private freeSlots: number[] = [];
  private nextSlot = 0;
  /** Slots of live joints in creation order. */
  protected order: Int32Array = new Int32Array(16);
  protected orderCount = 0;
  /** Slots solved this step, by kind (creation order within each): ball and hinge joints, then the generic ones (filled by the solver's prepare, emptied by release). */
  protected rigidList: Int32Array = new Int32Array(16);
  protected rigidCount = 0;
  protected genericList: Int32Array = new Int32Array(16);
  protected genericCount = 0;
  private pairs = new PairTable(0);
  private pairsDirty = false;

  constructor(
    protected readonly bodies: BodySet,
    private readonly wake: (handle: number) => void,
  ) {}

  /** Number of live joints. */
  get count(): number {
    return this.orderCount;
  }

  // ---------------------------------------------------------------- creation

  /** Creates a joint; returns its handle. */
  create(desc: JointDescription): number {
    if (typeof desc !== "object" || desc === null) throw new TypeError(`desc must be a JointDescription object, got ${fmt(desc)}`);
    const b = this.bodies;
    if (typeof desc.bodyA !== "number") throw new TypeError(`desc.bodyA must be a body handle, got ${fmt(desc.bodyA)}`);
    if (b.indexOf(desc.bodyA) < 0) throw new RangeError(`desc.bodyA is not a live body handle: ${fmt(desc.bodyA)}`);
    const hb = desc.bodyB;
    if (hb !== null) {
      if (typeof hb !== "number") throw new TypeError(`desc.bodyB must be a body handle or null, got ${fmt(hb)}`);
      if (b.indexOf(hb) < 0) throw new RangeError(`desc.bodyB is not a live body handle: ${fmt(hb)}`);
      if (hb === desc.bodyA) throw new RangeError(`desc.bodyB must differ from desc.bodyA, got ${fmt(hb)} for both`);
    }
    const zero = { x: 0, y: 0, z: 0 };
    const unitX = { x: 1, y: 0, z: 0 };
    const pA = desc.pivotA === undefined ? zero : checkVec("desc.pivotA", desc.pivotA);
    const pB = desc.pivotB === undefined ? zero : checkVec("desc.pivotB", desc.pivotB);
    const axA = desc.axisA === undefined ? unitX : checkVec("desc.axisA", desc.axisA);
    const axB = desc.axisB === undefined ? unitX : checkVec("desc.axisB", desc.axisB);
    const ppA = desc.perpAxisA === undefined ? null : checkVec("desc.perpAxisA", desc.perpAxisA);
    const ppB = desc.perpAxisB === undefined ? null : checkVec("desc.perpAxisB", desc.perpAxisB);
    frameFromAxes("desc.axisA", axA, "desc.perpAxisA", ppA, tmpQ);
    frameFromAxes("desc.axisB", axB, "desc.perpAxisB", ppB, tmpQ2);
    const enabled = desc.enabled === undefined ? true : checkBool("desc.enabled", desc.enabled);
    const collide = desc.collisionsEnabled === undefined ? false : checkBool("desc.collisionsEnabled", desc.collisionsEnabled);
    // Axis settings, validated before anything is stored.
    const axes = desc.axes ?? [];
    if (!Array.isArray(axes)) throw new TypeError(`desc.axes must be an array, got ${fmt(axes)}`);
    const ax = new Float64Array(AXIS_COUNT * AXS);
    for (let k = 0; k < AXIS_COUNT; k++) defaultAxis(ax, k * AXS);
    for (let i = 0; i < axes.length; i++) {
      const d = axes[i];
      const n = `desc.axes[${i}]`;
      if (typeof d !== "object" || d === null) throw new TypeError(`${n} must be a JointAxisDescription, got ${fmt(d)}`);
      const k = checkAxis(`${n}.axis`, d.axis);
      const o = k * AXS;
      ax[o + A_MODE] = checkMode(`${n}.mode`, d.mode);
      if (d.min !== undefined) ax[o + A_MIN] = checkLimit(`${n}.min`, d.min);
      if (d.max !== undefined) ax[o + A_MAX] = checkLimit(`${n}.max`, d.max);
      if (d.stiffness !== undefined) ax[o + A_K] = checkNonNegative(`${n}.stiffness`, d.stiffness);
      if (d.damping !== undefined) ax[o + A_C] = checkNonNegative(`${n}.damping`, d.damping);
      if (d.friction !== undefined) ax[o + A_FRIC] = checkNonNegative(`${n}.friction`, d.friction, true);
      if (d.motorType !== undefined) ax[o + A_MT] = checkMotorType(`${n}.motorType`, d.motorType);
      if (d.motorTarget !== undefined) ax[o + A_TGT] = checkFinite(`${n}.motorTarget`, d.motorTarget);
      if (d.motorMaxForce !== undefined) ax[o + A_MAXF] = checkNonNegative(`${n}.motorMaxForce`, d.motorMaxForce, true);
      if (d.springRest !== undefined) ax[o + A_REST] = checkFinite(`${n}.springRest`, d.springRest);
      if (d.frictionPerLoad !== undefined) ax[o + A_FPL] = checkNonNegative(`${n}.frictionPerLoad`, d.frictionPerLoad);
      if (d.motorStiffness !== undefined) ax[o + A_MK] = checkNonNegative(`${n}.motorStiffness`, d.motorStiffness);
      if (d.motorDamping !== undefined) ax[o + A_MC] = checkNonNegative(`${n}.motorDamping`, d.motorDamping);
      if (d.motorVelocityTarget !== undefined) ax[o + A_VT] = checkFinite(`${n}.motorVelocityTarget`, d.motorVelocityTarget);
    }

    const slot = this.allocSlot();
    const c = this.cfg,
      co = slot * CFG;
    c[co + C_PA] = pA.x;
    c[co + C_PA + 1] = pA.y;
    c[co + C_PA + 2] = pA.z;
    c[co + C_PB] = pB.x;
    c[co + C_PB + 1] = pB.y;
    c[co + C_PB + 2] = pB.z;
    c[co + C_QA] = tmpQ.x;
    c[co + C_QA + 1] = tmpQ.y;
    c[co + C_QA + 2] = tmpQ.z;
    c[co + C_QA + 3] = tmpQ.w;
    c[co + C_QB] = tmpQ2.x;
    c[co + C_QB + 1] = tmpQ2.y;
    c[co + C_QB + 2] = tmpQ2.z;
    c[co + C_QB + 3] = tmpQ2.w;
    c.set(ax, co + C_AXES);
    this.st.fill(0, slot * ST, slot * ST + ST);
    this.bodyHandles[slot * 2] = desc.bodyA;
    this.bodyHandles[slot * 2 + 1] = hb === null ? -1 : hb;
    this.flags[slot] = F_ALIVE | (enabled ? F_ENABLED : 0) | (collide ? F_COLLIDE : 0);
    this.order = grown(this.order, this.orderCount + 1);
    this.order[this.orderCount++] = slot;
    this.pairsDirty = true;
    this.shapesDirty = true;
    this.wakeBodies(slot, -1);
    return slot + this.generation[slot] * SLOTS;
  }

  /** Removes a joint (its bodies wake). */
  remove(handle: number): void {
    const slot = this.slot(handle, "remove");
    this.wakeBodies(slot, -1);
    this.release(slot);
  }

  /** True while the handle names a live joint. */
  isAlive(handle: number): boolean {
    if (!Number.isInteger(handle) || handle < 0) return false;
    const slot = handle % SLOTS;
    return slot < this.nextSlot && (this.flags[slot] & F_ALIVE) !== 0 && this.generation[slot] === (handle - slot) / SLOTS;
  }

  /** Handles of every live joint in creation order. */
  getHandles(out: number[] = []): number[] {
    out.length = 0;
    for (let i = 0; i < this.orderCount; i++) out.push(this.order[i] + this.generation[this.order[i]] * SLOTS);
    return out;
  }

  /** Removes every joint attached to a body (call before or after the body is released). */
  onBodyRemoved(bodyHandle: number): void {
    for (let i = this.orderCount - 1; i >= 0; i--) {
      const slot = this.order[i];
      if (this.bodyHandles[slot * 2] === bodyHandle || this.bodyHandles[slot * 2 + 1] === bodyHandle) {
        this.wakeBodies(slot, bodyHandle);
        this.release(slot);
      }
    }
  }

  getBodies(handle: number): { bodyA: number; bodyB: number | null } {
    const slot = this.slot(handle, "getBodies");
    const b = this.bodyHandles[slot * 2 + 1];
    return { bodyA: this.bodyHandles[slot * 2], bodyB: b < 0 ? null : b };
  }

  // ---------------------------------------------------------------- flags

  setEnabled(handle: number, enabled: boolean): void {
    const slot = this.slot(handle, "setEnabled");
    checkBool("enabled", enabled);
    const was = (this.flags[slot] & F_ENABLED) !== 0;
    if (enabled) this.flags[slot] |= F_ENABLED;
    else this.flags[slot] &= ~F_ENABLED;
    if (was !== enabled) {
      this.st.fill(0, slot * ST, slot * ST + ST);
      this.pairsDirty = true;
    }
    this.wakeBodies(slot, -1);
  }
  getEnabled(handle: number): boolean {
    return (this.flags[this.slot(handle, "getEnabled")] & F_ENABLED) !== 0;
  }

  setCollisionsEnabled(handle: number, enabled: boolean): void {
    const slot = this.slot(handle, "setCollisionsEnabled");
    checkBool("enabled", enabled);
    if (enabled) this.flags[slot] |= F_COLLIDE;
    else this.flags[slot] &= ~F_COLLIDE;
    this.pairsDirty = true;
    this.wakeBodies(slot, -1);
  }
  getCollisionsEnabled(handle: number): boolean {
    return (this.flags[this.slot(handle, "getCollisionsEnabled")] & F_COLLIDE) !== 0;
  }

  /** True if an enabled joint with collisions disabled links the two bodies (either order). */
  isCollisionDisabled(handleA: number, handleB: number): boolean {
    if (this.pairsDirty) this.rebuildPairs();
    if (this.pairs.count === 0) return false;
    return handleA < handleB ? this.pairs.find(handleA, handleB) >= 0 : this.pairs.find(handleB, handleA) >= 0;
  }

  // ---------------------------------------------------------------- axes

  setAxisMode(handle: number, axis: JointAxis, mode: (typeof AxisMode)[keyof typeof AxisMode]): void {
    const o = this.axisOffset(handle, axis, "setAxisMode");
    this.cfg[o + A_MODE] = checkMode("mode", mode);
    this.resetAxis(handle, axis);
  }
  getAxisMode(handle: number, axis: JointAxis): (typeof AxisMode)[keyof typeof AxisMode] {
    return this.cfg[this.axisOffset(handle, axis, "getAxisMode") + A_MODE] as (typeof AxisMode)[keyof typeof AxisMode];
  }

  /** Limits (m or rad) for LIMITED. +-Infinity leaves a side open; max below min holds the axis at min. */
  setAxisLimits(handle: number, axis: JointAxis, min: number, max: number): void {
    const o = this.axisOffset(handle, axis, "setAxisLimits");
    checkLimit("min", min);
    checkLimit("max", max);
    this.cfg[o + A_MIN] = min;
    this.cfg[o + A_MAX] = max;
    this.wakeHandle(handle);
  }
  setAxisMinLimit(handle: number, axis: JointAxis, min: number): void {
    const o = this.axisOffset(handle, axis, "setAxisMinLimit");
    this.cfg[o + A_MIN] = checkLimit("min", min);
    this.wakeHandle(handle);
  }
  setAxisMaxLimit(handle: number, axis: JointAxis, max: number): void {
    const o = this.axisOffset(handle, axis, "setAxisMaxLimit");
    this.cfg[o + A_MAX] = checkLimit("max", max);
    this.wakeHandle(handle);
  }
  getAxisMinLimit(handle: number, axis: JointAxis): number {
    return this.cfg[this.axisOffset(handle, axis, "getAxisMinLimit") + A_MIN];
  }
  getAxisMaxLimit(handle: number, axis: JointAxis): number {
    return this.cfg[this.axisOffset(handle, axis, "getAxisMaxLimit") + A_MAX];
  }

  /** Maximum friction force (N) or torque (N m) on the axis. */
  setAxisFriction(handle: number, axis: JointAxis, friction: number): void {
    const o = this.axisOffset(handle, axis, "setAxisFriction");
    this.cfg[o + A_FRIC] = checkNonNegative("friction", friction, true);
    this.resetFriction(handle, axis);
  }
  getAxisFriction(handle: number, axis: JointAxis): number {
    return this.cfg[this.axisOffset(handle, axis, "getAxisFriction") + A_FRIC];
  }

  setAxisMotorType(handle: number, axis: JointAxis, type: (typeof MotorType)[keyof typeof MotorType]): void {
    const o = this.axisOffset(handle, axis, "setAxisMotorType");
    const t = checkMotorType("type", type);
    if (this.cfg[o + A_MT] !== t) this.st[this.slot(handle, "setAxisMotorType") * ST + axis * IPA + I_MOT] = 0;
    this.cfg[o + A_MT] = t;
    this.wakeHandle(handle);
  }
  getAxisMotorType(handle: number, axis: JointAxis): (typeof MotorType)[keyof typeof MotorType] {
    return this.cfg[this.axisOffset(handle, axis, "getAxisMotorType") + A_MT] as (typeof MotorType)[keyof typeof MotorType];
  }
  setAxisMotorTarget(handle: number, axis: JointAxis, target: number): void {
    const o = this.axisOffset(handle, axis, "setAxisMotorTarget");
    this.cfg[o + A_TGT] = checkFinite("target", target);
    this.wakeHandle(handle);
  }
  getAxisMotorTarget(handle: number, axis: JointAxis): number {
    return this.cfg[this.axisOffset(handle, axis, "getAxisMotorTarget") + A_TGT];
  }
  setAxisMotorMaxForce(handle: number, axis: JointAxis, maxForce: number): void {
    const o = this.axisOffset(handle, axis, "setAxisMotorMaxForce");
    this.cfg[o + A_MAXF] = checkNonNegative("maxForce", maxForce, true);
    this.wakeHandle(handle);
  }
  getAxisMotorMaxForce(handle: number, axis: JointAxis): number {
    return this.cfg[this.axisOffset(handle, axis, "getAxisMotorMaxForce") + A_MAXF];
  }
  /**
   * Stiffness and damping of a spring motor (MotorType.SpringForce: N/m and N s/m, or N m/rad and N m s/rad;
   * SpringAcceleration: 1/s^2 and 1/s, scaled by the axis's effective mass).
   */
  setAxisMotorSpring(handle: number, axis: JointAxis, stiffness: number, damping: number): void {
    const o = this.axisOffset(handle, axis, "setAxisMotorSpring");
    checkNonNegative("stiffness", stiffness);
    checkNonNegative("damping", damping);
    this.cfg[o + A_MK] = stiffness;
    this.cfg[o + A_MC] = damping;
    this.wakeHandle(handle);
  }
  getAxisMotorStiffness(handle: number, axis: JointAxis): number {
    return this.cfg[this.axisOffset(handle, axis, "getAxisMotorStiffness") + A_MK];
  }
  getAxisMotorDamping(handle: number, axis: JointAxis): number {
    return this.cfg[this.axisOffset(handle, axis, "getAxisMotorDamping") + A_MC];
  }
  /** Velocity target (m/s or rad/s) of a spring motor; its position target is the motor target. */
  setAxisMotorVelocityTarget(handle: number, axis: JointAxis, target: number): void {
    const o = this.axisOffset(handle, axis, "setAxisMotorVelocityTarget");
    this.cfg[o + A_VT] = checkFinite("target", target);
    this.wakeHandle(handle);
  }
  getAxisMotorVelocityTarget(handle: number, axis: JointAxis): number {
    return this.cfg[this.axisOffset(handle, axis, "getAxisMotorVelocityTarget") + A_VT];
  }

  /** Makes the axis's limit / lock a spring (stiffness N/m or N m/rad, damping N s/m or N m s/rad); (0, 0) = rigid. */
  setAxisSpring(handle: number, axis: JointAxis, stiffness: number, damping: number): void {
    const o = this.axisOffset(handle, axis, "setAxisSpring");
    checkNonNegative("stiffness", stiffness);
    checkNonNegative("damping", damping);
    this.cfg[o + A_K] = stiffness;
    this.cfg[o + A_C] = damping;
    this.wakeHandle(handle);
  }
  /**
   * The position (m or rad) a LIMITED axis's spring pulls toward at all times, its limits then rigid stops (see
   * JointAxisDescription.springRest); NaN restores Havok's meaning (the spring acts beyond the limits only).
   */
  setAxisSpringRest(handle: number, axis: JointAxis, rest: number): void {
    const o = this.axisOffset(handle, axis, "setAxisSpringRest");
    if (typeof rest !== "number") throw new TypeError(`rest must be a number, got ${fmt(rest)}`);
    if (rest === Infinity || rest === -Infinity) throw new RangeError(`rest must be finite or NaN, got ${fmt(rest)}`);
    this.cfg[o + A_REST] = rest;
    this.wakeHandle(handle);
  }
  getAxisSpringRest(handle: number, axis: JointAxis): number {
    return this.cfg[this.axisOffset(handle, axis, "getAxisSpringRest") + A_REST];
  }

  /** Friction per unit of the joint's LINEAR_Y force on the axis (see JointAxisDescription.frictionPerLoad). */
  setAxisFrictionPerLoad(handle: number, axis: JointAxis, coefficient: number): void {
    const o = this.axisOffset(handle, axis, "setAxisFrictionPerLoad");
    this.cfg[o + A_FPL] = checkNonNegative("coefficient", coefficient);
    this.resetFriction(handle, axis);
  }
  getAxisFrictionPerLoad(handle: number, axis: JointAxis): number {
    return this.cfg[this.axisOffset(handle, axis, "getAxisFrictionPerLoad") + A_FPL];
  }

  getAxisStiffness(handle: number, axis: JointAxis): number {
    return this.cfg[this.axisOffset(handle, axis, "getAxisStiffness") + A_K];
  }
  getAxisDamping(handle: number, axis: JointAxis): number {
    return this.cfg[this.axisOffset(handle, axis, "getAxisDamping") + A_C];
  }

  // ---------------------------------------------------------------- storage

  private allocSlot(): number {
    let slot: number;
    if (this.freeSlots.length > 0) slot = this.freeSlots.pop()!;
    else {
      if (this.nextSlot >= SLOTS) throw new RangeError(`too many joints: at most ${SLOTS} can exist at once`);
      slot = this.nextSlot++;
      if (slot >= this.flags.length) this.growSlots(this.flags.length * 2);
    }
    return slot;
  }

  private growSlots(n: number): void {
    this.cfg = grown(this.cfg, n * CFG);
    this.st = grown(this.st, n * ST);
    this.bodyHandles = grown(this.bodyHandles, n * 2);
    this.flags = grown(this.flags, n);
    this.generation = grown(this.generation, n);
    this.dense = grown(this.dense, 2 * n);
    this.moves = grown(this.moves, 2 * n);
    this.shape = grown(this.shape, n);
    this.kind = grown(this.kind, n);
    this.loc = grown(this.loc, n * LOC);
    this.geo = grown(this.geo, n * GEO);
    this.gcache = grown(this.gcache, n * GC);
  }

  private release(slot: number): void {
    this.flags[slot] = 0;
    this.generation[slot]++;
    this.freeSlots.push(slot);
    // Keep creation order: shift the later joints down.
    let k = 0;
    for (let i = 0; i < this.orderCount; i++) if (this.order[i] !== slot) this.order[k++] = this.order[i];
    this.orderCount = k;
    this.rigidCount = 0; // the next prepare rebuilds the solve lists
    this.genericCount = 0;
    this.pairsDirty = true;
  }

  protected slot(handle: number, method: string): number {
    if (!this.isAlive(handle)) throw new RangeError(`${method}: joint handle ${fmt(handle)} is not alive`);
    return handle % SLOTS;
  }

  private axisOffset(handle: number, axis: JointAxis, method: string): number {
    const slot = this.slot(handle, method);
    checkAxis("axis", axis);
    this.shapesDirty = true;
    return slot * CFG + C_AXES + axis * AXS;
  }

  private resetAxis(handle: number, axis: JointAxis): void {
    const slot = handle % SLOTS;
    this.st.fill(0, slot * ST + axis * IPA, slot * ST + axis * IPA + IPA);
    this.wakeBodies(slot, -1);
  }

  /**
   * A changed friction starts its accumulated impulse over: a released brake's impulse would otherwise be
   * warm-started every substep with no row left to take it back (friction 0 solves no row).
   */
  private resetFriction(handle: number, axis: JointAxis): void {
    this.st[(handle % SLOTS) * ST + axis * IPA + I_FR] = 0;
    this.wakeHandle(handle);
  }

  private wakeHandle(handle: number): void {
    this.wakeBodies(handle % SLOTS, -1);
  }

  /** Wakes the joint's bodies that are alive (except `skip`). */
  private wakeBodies(slot: number, skip: number): void {
    for (let k = 0; k < 2; k++) {
      const h = this.bodyHandles[slot * 2 + k];
      if (h >= 0 && h !== skip && this.bodies.indexOf(h) >= 0) this.wake(h);
    }
  }

  private rebuildPairs(): void {
    this.pairs.clear();
    for (let i = 0; i < this.orderCount; i++) {
      const slot = this.order[i];
      const f = this.flags[slot];
      if ((f & F_ENABLED) === 0 || (f & F_COLLIDE) !== 0) continue;
      const a = this.bodyHandles[slot * 2],
        b = this.bodyHandles[slot * 2 + 1];
      if (b < 0) continue;
      if (a < b) this.pairs.insert(a, b);
      else this.pairs.insert(b, a);
    }
    this.pairsDirty = false;
  }
}

function defaultAxis(ax: Float64Array, o: number): void {
  ax[o + A_MODE] = AxisMode.Free;
  ax[o + A_MIN] = 0;
  ax[o + A_MAX] = 0;
  ax[o + A_K] = 0;
  ax[o + A_C] = 0;
  ax[o + A_FRIC] = 0;
  ax[o + A_MT] = MotorType.None;
  ax[o + A_TGT] = 0;
  ax[o + A_MAXF] = Infinity;
  ax[o + A_REST] = NaN;
  ax[o + A_FPL] = 0;
  ax[o + A_MK] = 0;
  ax[o + A_MC] = 0;
  ax[o + A_VT] = 0;
}

function checkLimit(name: string, v: unknown): number {
  if (typeof v !== "number") throw new TypeError(`${name} must be a number, got ${fmt(v)}`);
  if (Number.isNaN(v)) throw new RangeError(`${name} must be a number (not NaN), got NaN`);
  return v;
}
