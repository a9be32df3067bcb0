/**
 * The body store: hot state in dense typed arrays addressed by a dense index (swap-remove keeps them
 * packed), and generational handles for users. A handle is `slot + generation * 2^20`: removing a body
 * bumps its slot's generation, so a stale handle never names another body (bepu HandleToLocation,
 * Box2D ids).
 */
import { grown } from "../collections/growth";
import type { Shape } from "../shapes/shape";
import type { MassProperties } from "./massProperties";
import type { SurfaceMaterial } from "./surfaceMaterial";

/** Number of slot bits in a handle: at most 2^20 bodies alive at once. */
export const SlotCount = 1 << 20;

/** Body flags (bit set in `flags`). */
export const BodyFlag = {
  Sleeping: 1,
  Trigger: 2,
  SleepingAllowed: 4,
  /** Set for bodies whose pose or velocity the user changed since the last step (wakes islands). */
  Touched: 8,
  /** Set by the integrator when a body's velocity became non-finite this step (the world's guard handles it). */
  NonFinite: 16,
  /** The body has per-child surfaces (materials, filters, triggers per child; the world keeps them). */
  ChildSurfaces: 32,
  /** Some of the body's child surfaces are triggers (set with ChildSurfaces). */
  ChildTriggers: 64,
} as const;

interface F64Field {
  name: string;
  stride: number;
}

const F64_FIELDS: F64Field[] = [
  { name: "pos", stride: 3 }, // centre of mass, world
  { name: "rot", stride: 4 }, // orientation (x, y, z, w)
  { name: "vel", stride: 3 }, // linear velocity of the centre of mass
  { name: "angVel", stride: 3 },
  { name: "pos0", stride: 3 }, // swept transform: centre of mass at t0 (start of step)
  { name: "rot0", stride: 4 }, // swept transform: orientation at t0
  { name: "localCom", stride: 3 }, // centre of mass in the body frame
  { name: "invMass", stride: 1 },
  { name: "invInertiaLocal", stride: 6 }, // symmetric (xx, yy, zz, xy, xz, yz), body frame
  { name: "inertiaLocal", stride: 6 }, // its inverse, for the gyroscopic term (0 rows when infinite)
  { name: "invInertiaWorld", stride: 6 },
  { name: "force", stride: 3 },
  { name: "torque", stride: 3 },
  { name: "linDamp", stride: 1 },
  { name: "angDamp", stride: 1 },
  { name: "gravityFactor", stride: 1 },
  { name: "margin", stride: 1 }, // speculative margin this step
  { name: "marginMin", stride: 1 },
  { name: "marginMax", stride: 1 },
  { name: "aabb", stride: 6 }, // velocity-expanded bounds
  { name: "radius", stride: 1 }, // max distance from the centre of mass to the shape
  { name: "angExpansion", stride: 1 }, // maximum angular bounds expansion (maxRadius - minRadius)
  { name: "sleepTime", stride: 1 },
  { name: "sweepMinStep", stride: 1 },
  { name: "sweepConvergence", stride: 1 },
  { name: "density", stride: 1 },
  { name: "handle", stride: 1 },
];

/** Dense body storage. Fields are public typed arrays for the step's loops. */
export class BodySet {
  capacity = 0;
  count = 0;

  pos = new Float64Array(0);
  rot = new Float64Array(0);
  vel = new Float64Array(0);
  angVel = new Float64Array(0);
  pos0 = new Float64Array(0);
  rot0 = new Float64Array(0);
  localCom = new Float64Array(0);
  invMass = new Float64Array(0);
  invInertiaLocal = new Float64Array(0);
  inertiaLocal = new Float64Array(0);
  invInertiaWorld = new Float64Array(0);
  force = new Float64Array(0);
  torque = new Float64Array(0);
  linDamp = new Float64Array(0);
  angDamp = new Float64Array(0);
  gravityFactor = new Float64Array(0);
  margin = new Float64Array(0);
  marginMin = new Float64Array(0);
  marginMax = new Float64Array(0);
  aabb = new Float64Array(0);
  radius = new Float64Array(0);
  angExpansion = new Float64Array(0);
  sleepTime = new Float64Array(0);
  sweepMinStep = new Float64Array(0);
  sweepConvergence = new Float64Array(0);
  density = new Float64Array(0);
  /** The body's handle, as a number (exact integer). */
  handle = new Float64Array(0);

  motionType = new Uint8Array(0);
  continuity = new Uint8Array(0);
  flags = new Uint8Array(0);
  membership = new Int32Array(0);
  collideWith = new Int32Array(0);
  /** Broad-phase proxy id, and which tree holds it (0 none, 1 moving, 2 static). */
  proxy = new Int32Array(0);
  tree = new Uint8Array(0);
  /** Sleeping island id (index into the world's island lists), -1 when awake. */
  island = new Int32Array(0);

  shape: (Shape | null)[] = [];
  material: SurfaceMaterial[] = [];
  massOverride: (Partial<MassProperties> | null)[] = [];

  /** slot -> dense index (-1 when free); slot -> generation. */
  slotToDense = new Int32Array(0);
  slotGeneration = new Int32Array(0);
  private freeSlots: number[] = [];
  private nextSlot = 0;

  constructor(initialCapacity = 64) {
    this.grow(initialCapacity);
  }

  /** Dense index of a live handle, or -1 if the handle is stale or malformed. */
  indexOf(handle: number): number {
    if (!Number.isInteger(handle) || handle < 0) return -1;
    const slot = handle % SlotCount;
    const gen = (handle - slot) / SlotCount;
    if (slot >= this.nextSlot || this.slotGeneration[slot] !== gen) return -1;
    return this.slotToDense[slot];
  }

  /** Allocates a slot and a dense index; returns the dense index. Fields are zeroed. */
  allocate(): number {
    if (this.count === this.capacity) this.grow(this.capacity * 2);
    let slot: number;
    if (this.freeSlots.length > 0) slot = this.freeSlots.pop()!;
    else {
      if (this.nextSlot >= SlotCount) throw new RangeError(`too many bodies: at most ${SlotCount} can exist at once`);
      slot = this.nextSlot++;
      if (slot >= this.slotToDense.length) {
        const old = this.slotToDense.length;
        this.slotToDense = grown(this.slotToDense, Math.max(64, slot + 1));
        this.slotToDense.fill(-1, old);
        this.slotGeneration = grown(this.slotGeneration, this.slotToDense.length);
      }
    }
    const i = this.count++;
    this.slotToDense[slot] = i;
    this.handle[i] = slot + this.slotGeneration[slot] * SlotCount;
    return i;
  }

  /** Removes the body at dense index i by moving the last body into its place. Returns the moved body's old index or -1. */
  release(i: number): number {
    const h = this.handle[i];
    const slot = h % SlotCount;
    this.slotToDense[slot] = -1;
    this.slotGeneration[slot]++;
    this.freeSlots.push(slot);
    const last = --this.count;
    this.shape[i] = null;
    if (i !== last) {
      this.copy(last, i);
      const lastSlot = this.handle[i] % SlotCount;
      this.slotToDense[lastSlot] = i;
      this.shape[last] = null;
      this.massOverride[last] = null;
      return last;
    }
    this.massOverride[i] = null;
    return -1;
  }

  /** Slot of a handle (stable for the body's life). */
  static slotOf(handle: number): number {
    return handle % SlotCount;
  }

  private copy(from: number, to: number): void {
    const self = this as unknown as Record<string, Float64Array>;
    for (const f of F64_FIELDS) {
      const a = self[f.name];
      a.copyWithin(to * f.stride, from * f.stride, from * f.stride + f.stride);
    }
    this.motionType[to] = this.motionType[from];
    this.continuity[to] = this.continuity[from];
    this.flags[to] = this.flags[from];
    this.membership[to] = this.membership[from];
    this.collideWith[to] = this.collideWith[from];
    this.proxy[to] = this.proxy[from];
    this.tree[to] = this.tree[from];
    this.island[to] = this.island[from];
    this.shape[to] = this.shape[from];
    this.material[to] = this.material[from];
    this.massOverride[to] = this.massOverride[from];
  }

  private grow(capacity: number): void {
    const self = this as unknown as Record<string, Float64Array>;
    for (const f of F64_FIELDS) self[f.name] = grown(self[f.name], capacity * f.stride);
    this.motionType = grown(this.motionType, capacity);
    this.continuity = grown(this.continuity, capacity);
    this.flags = grown(this.flags, capacity);
    this.tree = grown(this.tree, capacity);
    this.membership = grown(this.membership, capacity);
    this.collideWith = grown(this.collideWith, capacity);
    this.proxy = grown(this.proxy, capacity);
    this.island = grown(this.island, capacity);
    this.capacity = capacity;
  }
}
