/**
 * Snapshots of a Babylon scene's physics, the `continuum-physics/snapshot` entry: {@link PhysicsSnapshot} and
 * the code behind `ContinuumPlugin`'s `snapshot()` / `restore()`, which importing this module installs (with
 * the engine's byte codec, src/snapshot.ts), so that a plugin that never snapshots does not carry them.
 *
 * A snapshot is bytes: a header, the plugin-side state that affects later steps (per body: its shape, event
 * mask, activation control, thin-instance scale, the user's and the effective mass properties; per shape:
 * material, filter masks, trigger flag, density; the step length), then the engine world's whole state
 * (World.encodeState: poses, velocities, sleep and islands, broad-phase trees, the contact cache with its
 * warm-start impulses, joints with their motors, CCD settings, per-body materials and filters). Taking one
 * writes into a reused buffer and copies it once; restoring writes into the live objects: neither allocates
 * per body.
 *
 * Policy for structural changes: a snapshot restores the bodies, constraints and shapes it was taken with.
 * If a body or constraint was created or disposed since, a body was given another shape, or a container's
 * children changed, `restore` throws an Error naming what changed and changes nothing; take a new snapshot
 * after such changes. Everything else (poses, velocities, motion types, masses, materials, filters, trigger
 * flags, joint settings, motors, gravity, activation control, CCD modes) is put back.
 *
 * Bytes from `toBytes()` restore into the plugin (scene) they were taken from, in the same page: shapes are
 * referred to by identity, not by their geometry.
 */
import { Quaternion, Vector3 } from "@babylonjs/core/Maths/math.vector.js";
import type { PhysicsMassProperties } from "@babylonjs/core/Physics/v2/IPhysicsEnginePlugin.js";
import { sameSurfaceMaterial, type Shape, type World } from "../src/index";
import { ByteReader, ByteWriter, type ShapeTable } from "../src/snapshot";
import { installSnapshots, type SnapshotHost } from "./snapshotHost";
import { ACTIVATION_ALWAYS_INACTIVE, type BodyRecord } from "./bodyRecord";
import type { ShapeData } from "./shapeMapping";

// The engine's byte buffers and shape table (World.encodeState / decodeState, state kept in the caller's own format).
export { ByteReader, ByteWriter, ShapeList, type ShapeTable } from "../src/snapshot";

/** "CTSN" */
const MAGIC = 0x4e535443;
const VERSION = 2;
/** Mark, version, total length. */
const HEADER_BYTES = 12;

/**
 * The whole physical state of a scene at one moment (see the module comment). Keep it, `clone()` it, or turn
 * it into an `ArrayBuffer` with `toBytes()` and back with `PhysicsSnapshot.fromBytes`.
 */
export class PhysicsSnapshot {
  /** @internal Use `plugin.snapshot()` or {@link PhysicsSnapshot.fromBytes}. */
  constructor(
    /** @internal The encoded state in its first `_length` bytes (owned by this snapshot; never handed out). */
    public _buf: ArrayBuffer,
    /** @internal */
    public _length = _buf.byteLength,
  ) {}

  /** Size of the snapshot in bytes. */
  get byteLength(): number {
    return this._length;
  }

  /** The snapshot as bytes (a copy: changing it does not change the snapshot). */
  toBytes(): ArrayBuffer {
    return this._buf.slice(0, this._length);
  }

  /** An independent copy. */
  clone(): PhysicsSnapshot {
    return new PhysicsSnapshot(this._buf.slice(0, this._length));
  }

  /** A snapshot from bytes made by {@link toBytes} (copied). Throws a TypeError / RangeError on other bytes. */
  static fromBytes(bytes: ArrayBuffer | ArrayBufferView): PhysicsSnapshot {
    let buf: ArrayBuffer;
    if (bytes instanceof ArrayBuffer) buf = bytes.slice(0);
    else if (ArrayBuffer.isView(bytes)) buf = new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength).slice().buffer;
    else throw new TypeError(`PhysicsSnapshot.fromBytes: bytes must be an ArrayBuffer or a typed array, got ${String(bytes)}`);
    checkHeader("PhysicsSnapshot.fromBytes", "bytes", buf, buf.byteLength);
    return new PhysicsSnapshot(buf);
  }
}

/**
 * What `structuredClone` and `postMessage` make of a {@link PhysicsSnapshot} (how a snapshot reaches a Worker
 * or IndexedDB): a plain object with the snapshot's own fields, its class gone.
 */
export interface ClonedPhysicsSnapshot {
  readonly _buf: ArrayBuffer;
  readonly _length: number;
}

/** Anything `restore` takes: a snapshot, its structured clone, or its bytes (`toBytes()`). */
export type PhysicsSnapshotSource = PhysicsSnapshot | ClonedPhysicsSnapshot | ArrayBuffer | ArrayBufferView;

/** Throws (naming `fn` and `what`) unless the first `length` bytes of `buf` are a snapshot of this version. */
function checkHeader(fn: string, what: string, buf: ArrayBuffer, length: number): void {
  if (length < HEADER_BYTES) throw new RangeError(`${fn}: ${what} must be a snapshot, got ${length} bytes`);
  const v = new DataView(buf);
  if (v.getUint32(0, true) !== MAGIC) throw new RangeError(`${fn}: ${what} must be a snapshot (they do not start with the snapshot mark)`);
  const version = v.getUint32(4, true);
  if (version !== VERSION) throw new RangeError(`${fn}: snapshot version ${version} is not supported (this build reads ${VERSION})`);
  const headerLength = v.getUint32(8, true);
  if (headerLength !== length) throw new RangeError(`${fn}: the snapshot is truncated or padded (${length} bytes, its header says ${headerLength})`);
}

/**
 * `source` as a snapshot: itself; a structured clone wrapped as it is (checked, not copied: restore keeps
 * nothing of it); bytes read by {@link PhysicsSnapshot.fromBytes}.
 */
function asSnapshot(fn: string, source: PhysicsSnapshotSource): PhysicsSnapshot {
  if (source instanceof PhysicsSnapshot) return source;
  if (source instanceof ArrayBuffer || ArrayBuffer.isView(source)) return PhysicsSnapshot.fromBytes(source);
  const o = source as Partial<ClonedPhysicsSnapshot> | null;
  if (o !== null && typeof o === "object" && o._buf instanceof ArrayBuffer && Number.isInteger(o._length) && (o._length as number) <= o._buf.byteLength) {
    checkHeader(fn, "snapshot", o._buf, o._length as number);
    return new PhysicsSnapshot(o._buf, o._length);
  }
  throw new TypeError(`${fn}: snapshot must be a PhysicsSnapshot, its structured clone or its bytes, got ${String(source)}`);
}

/** Serial numbers of plugins' snapshot bridges, so that a snapshot is not restored into another scene. */
let nextPluginSerial = 1;
/** A serial number per engine shape object: a container rebuilt since the snapshot has a new one. */
const shapeSerials = new WeakMap<Shape, number>();
let nextShapeSerial = 1;

function shapeSerial(shape: Shape): number {
  let s = shapeSerials.get(shape);
  if (s === undefined) shapeSerials.set(shape, (s = nextShapeSerial++));
  return s;
}

/** The effective mass properties' fields, in the order they are saved. */
const EFFECTIVE_MASS_FIELDS = ["mass", "cx", "cy", "cz", "ix", "iy", "iz", "qx", "qy", "qz", "qw"] as const;

/** MotionType.Static (the engine's and Babylon's value). */
const MOTION_STATIC = 0;

const MASS = 1,
  COM = 2,
  INERTIA = 4,
  ORIENTATION = 8;

/** Takes and restores snapshots of one plugin. Its scratch is reused from one call to the next. */
class SnapshotBridge implements ShapeTable {
  private readonly writer = new ByteWriter();
  private readonly timing = new Float64Array(4);
  private readonly handles: number[] = [];
  /** Shape table of the current snapshot / restore: engine shape -> index (valid for `epoch`) and back. */
  private readonly shapeIndex = new WeakMap<Shape, number>();
  private readonly shapeDataMark = new WeakMap<ShapeData, number>();
  private readonly tableShapes: Shape[] = [];
  private readonly tableData: ShapeData[] = [];
  private epoch = 0;
  /** Motion types before a restore (a change resets Babylon's disableSync). */
  private motionBefore = new Uint8Array(0);

  constructor(private readonly host: SnapshotHost) {}

  private readonly serial = nextPluginSerial++;

  // ---------------------------------------------------------------- ShapeTable (for World.encodeState / decodeState)

  indexOf(shape: Shape): number {
    const v = this.shapeIndex.get(shape);
    if (v === undefined || Math.floor(v / 0x100000) !== this.epoch) {
      throw new Error("snapshot: a body of the world has a shape the plugin did not create (an engine body made on plugin.world directly); snapshots cover plugin bodies only");
    }
    return v % 0x100000;
  }

  at(index: number): Shape {
    const s = this.tableShapes[index];
    if (s === undefined) throw new RangeError(`restore: shape index ${index} is not in the snapshot's shape table; the bytes are corrupt`);
    return s;
  }

  // ---------------------------------------------------------------- snapshot

  take(reuse?: PhysicsSnapshot): PhysicsSnapshot {
    if (reuse !== undefined && !(reuse instanceof PhysicsSnapshot)) throw new TypeError(`snapshot: reuse must be a PhysicsSnapshot, got ${String(reuse)}`);
    const world = this.host.getWorld(),
      records = this.host.records;
    const w = this.writer;
    w.pos = 0;
    w.u32(MAGIC);
    w.u32(VERSION);
    w.u32(0); // total length, written at the end
    w.u32(this.serial);
    this.host.readTiming(this.timing);
    for (let k = 0; k < 4; k++) w.f64(this.timing[k]);

    // Bodies in storage order, with their plugin-side state.
    const b = world.bodies;
    const epoch = ++this.epoch;
    this.tableShapes.length = 0;
    this.tableData.length = 0;
    w.u32(b.count);
    for (let i = 0; i < b.count; i++) {
      const h = b.handle[i];
      const rec = records.get(h);
      w.f64(h);
      if (!rec) throw new Error(`snapshot: engine body ${h} has no Babylon body (made on plugin.world directly); snapshots cover plugin bodies only`);
      const data = rec.shape;
      w.i32(data ? data.id : 0);
      if (data && this.shapeDataMark.get(data) !== epoch) {
        this.shapeDataMark.set(data, epoch);
        this.tableData.push(data);
      }
      w.i32(rec.eventMask);
      w.u8(rec.activation);
      w.f64(rec.sx);
      w.f64(rec.sy);
      w.f64(rec.sz);
      writeUserMass(w, rec.userMassProps);
      const e = rec.effectiveMass;
      for (let f = 0; f < EFFECTIVE_MASS_FIELDS.length; f++) w.f64(e[EFFECTIVE_MASS_FIELDS[f]]);
    }

    // Shapes used by the bodies (first-use order): their mutable Babylon-side state and engine shape.
    w.u32(this.tableData.length);
    for (let k = 0; k < this.tableData.length; k++) {
      const d = this.tableData[k];
      w.i32(d.id);
      const shape = d.engineShape;
      w.u32(shape ? shapeSerial(shape) : 0);
      if (shape) this.shapeIndex.set(shape, epoch * 0x100000 + k);
      const m = d.material;
      w.f64(m.friction);
      w.f64(m.staticFriction);
      w.f64(m.restitution);
      w.u8(m.frictionCombine);
      w.u8(m.restitutionCombine);
      w.f64(m.rollingResistance);
      w.i32(d.membership);
      w.i32(d.collideWith);
      w.u8(d.isTrigger ? 1 : 0);
      w.f64(d.density);
    }

    // Joints.
    const joints = world.joints.getHandles(this.handles);
    w.u32(joints.length);
    for (let k = 0; k < joints.length; k++) w.f64(joints[k]);

    world.encodeState(this, w);
    w.view.setUint32(8, w.pos, true);
    // A fresh ArrayBuffer costs more than writing the state (the system zeroes and maps its pages, and the
    // collector tracks it): a snapshot passed back in is overwritten when it is large enough.
    if (reuse && reuse._buf.byteLength >= w.pos) {
      new Uint8Array(reuse._buf).set(w.bytes.subarray(0, w.pos));
      reuse._length = w.pos;
      return reuse;
    }
    return new PhysicsSnapshot(w.result());
  }

  // ---------------------------------------------------------------- restore

  restore(source: PhysicsSnapshotSource): void {
    const snapshot = asSnapshot("restore", source);
    const world = this.host.getWorld(),
      records = this.host.records;
    const r = new ByteReader(snapshot._buf, HEADER_BYTES, snapshot._length);
    if (r.u32() !== this.serial) throw new Error("restore: the snapshot was taken from another ContinuumPlugin (scene); it restores only into its own");
    const timingAt = r.pos;
    r.pos += 32;

    // Pass 1: check that the scene has the same bodies, shapes and joints (nothing changes if not).
    const b = world.bodies;
    const n = r.u32();
    const bodiesAt = r.pos;
    let changed = n !== b.count;
    const epoch = ++this.epoch;
    this.tableData.length = 0;
    for (let k = 0; k < n && !changed; k++) {
      const h = r.f64();
      const rec = records.get(h);
      if (!rec || !world.isAlive(h)) {
        changed = true;
        break;
      }
      const id = r.i32();
      if ((rec.shape ? rec.shape.id : 0) !== id) throw new Error(`restore: body '${nameOf(rec)}' (handle ${h}) has another shape than at the snapshot; take a new snapshot after setShape`);
      if (rec.shape && this.shapeDataMark.get(rec.shape) !== epoch) {
        this.shapeDataMark.set(rec.shape, epoch);
        this.tableData.push(rec.shape);
      }
      r.pos += BODY_BYTES - 12;
    }
    if (changed) throw new Error(`restore: ${describeBodyChange(r, bodiesAt, n, world, records)}; a snapshot restores the bodies it was taken with: take a new one after creating or disposing bodies`);
    const shapeCount = r.u32();
    if (shapeCount !== this.tableData.length) throw new Error("restore: the bodies' shapes changed since the snapshot");
    const shapesAt = r.pos;
    this.tableShapes.length = 0;
    for (let k = 0; k < shapeCount; k++) {
      const d = this.tableData[k];
      const id = r.i32();
      const serial = r.u32();
      const shape = d.engineShape;
      if (d.id !== id || d.disposed || (shape ? shapeSerials.get(shape) : 0) !== serial) {
        throw new Error(`restore: shape ${d.id}${d.owner ? ` (${shapeTypeName(d.type)})` : ""} was ${d.disposed ? "disposed" : "rebuilt (container children added or removed)"} since the snapshot; take a new snapshot after changing shapes`);
      }
      if (shape) this.tableShapes.push(shape);
      r.pos += SHAPE_BYTES - 8;
    }
    const jointCount = r.u32();
    const liveJoints = world.joints.getHandles(this.handles);
    let jointsChanged = jointCount !== liveJoints.length;
    for (let k = 0; k < jointCount; k++) {
      const h = r.f64();
      if (!world.joints.isAlive(h)) jointsChanged = true;
    }
    if (jointsChanged) {
      throw new Error(`restore: the constraints changed since the snapshot (${jointCount} joints then, ${liveJoints.length} now); take a new snapshot after adding or disposing constraints`);
    }

    // Pass 2: the engine world, then the plugin side, then Babylon's objects.
    const b0 = world.bodies;
    if (this.motionBefore.length < b0.count) this.motionBefore = new Uint8Array(b0.capacity);
    this.motionBefore.set(b0.motionType.subarray(0, b0.count));
    world.decodeState(r, this);

    r.pos = timingAt;
    for (let k = 0; k < 4; k++) this.timing[k] = r.f64();
    this.host.writeTiming(this.timing);
    r.pos = bodiesAt;
    const inactive = this.host.inactive;
    inactive.length = 0;
    for (let k = 0; k < n; k++) {
      const rec = records.get(r.f64())!;
      r.pos += 4;
      rec.eventMask = r.i32();
      rec.activation = r.u8();
      if (rec.activation === ACTIVATION_ALWAYS_INACTIVE) inactive.push(rec);
      rec.sx = r.f64();
      rec.sy = r.f64();
      rec.sz = r.f64();
      readUserMass(r, rec);
      const e = rec.effectiveMass;
      for (let f = 0; f < EFFECTIVE_MASS_FIELDS.length; f++) e[EFFECTIVE_MASS_FIELDS[f]] = r.f64();
    }
    r.pos = shapesAt;
    for (let k = 0; k < shapeCount; k++) {
      const d = this.tableData[k];
      r.pos += 8;
      const friction = r.f64(),
        staticFriction = r.f64(),
        restitution = r.f64(),
        frictionCombine = r.u8(),
        restitutionCombine = r.u8(),
        rollingResistance = r.f64();
      const saved = { friction, staticFriction, restitution, frictionCombine, restitutionCombine, rollingResistance } as ShapeData["material"];
      // A new object (materials are replaced, never edited, so one may be shared with a getter's caller).
      if (!sameSurfaceMaterial(d.material, saved)) d.material = saved;
      d.membership = r.i32();
      d.collideWith = r.i32();
      d.isTrigger = r.u8() === 1;
      d.density = r.f64();
    }

    // Babylon's caches: a shape's material and trigger flag, a body's callback flags and, when its motion type
    // changes back, its disableSync (PhysicsBody.setMotionType's rule: static bodies are not synced).
    for (let k = 0; k < shapeCount; k++) {
      const d = this.tableData[k];
      const owner = d.owner as unknown as { _material?: unknown; _isTrigger: boolean } | null;
      if (owner) {
        owner._material = undefined;
        owner._isTrigger = d.isTrigger;
      }
    }
    const bodies = world.bodies;
    for (let i = 0; i < bodies.count; i++) {
      const rec = records.get(bodies.handle[i])!;
      const body = rec.body as unknown as { _collisionCBEnabled: boolean; _collisionEndedCBEnabled: boolean; disableSync: boolean; _pluginDataInstances: unknown[] };
      body._collisionCBEnabled = (rec.eventMask & 1) !== 0;
      body._collisionEndedCBEnabled = (rec.eventMask & 4) !== 0;
      const motion = bodies.motionType[i];
      if (motion !== this.motionBefore[i] && body._pluginDataInstances.length === 0) body.disableSync = motion === MOTION_STATIC;
    }
    // Every body's transform node (or thin-instance matrices) from the restored poses, as a step's sync does.
    for (const rec of records.values()) if ((rec.index === 0 || rec.body._pluginData === rec) && !rec.body.disableSync) this.host.sync(rec.body);
  }
}

/** Bytes of the user's mass overrides: which are set, then mass, centre, inertia, orientation. */
const USER_MASS_BYTES = 1 + 8 + 24 + 24 + 32;
/** Bytes per body entry (handle, shape id, event mask, activation, scale, user mass, effective mass). */
const BODY_BYTES = 8 + 4 + 4 + 1 + 24 + USER_MASS_BYTES + 88;
/** Bytes per shape entry (id, serial, material with its rolling resistance, masks, trigger, density). */
const SHAPE_BYTES = 4 + 4 + 24 + 2 + 8 + 8 + 1 + 8;

function writeUserMass(w: ByteWriter, p: PhysicsMassProperties): void {
  const flags = (p.mass !== undefined ? MASS : 0) | (p.centerOfMass ? COM : 0) | (p.inertia ? INERTIA : 0) | (p.inertiaOrientation ? ORIENTATION : 0);
  w.u8(flags);
  w.f64(p.mass ?? 0);
  const c = p.centerOfMass,
    i = p.inertia,
    q = p.inertiaOrientation;
  w.f64(c ? c.x : 0);
  w.f64(c ? c.y : 0);
  w.f64(c ? c.z : 0);
  w.f64(i ? i.x : 0);
  w.f64(i ? i.y : 0);
  w.f64(i ? i.z : 0);
  w.f64(q ? q.x : 0);
  w.f64(q ? q.y : 0);
  w.f64(q ? q.z : 0);
  w.f64(q ? q.w : 0);
}

/** Puts the user's mass overrides back: the same object when its values are unchanged, else a new one. */
function readUserMass(r: ByteReader, rec: BodyRecord): void {
  const flags = r.u8();
  const mass = r.f64(),
    cx = r.f64(),
    cy = r.f64(),
    cz = r.f64(),
    ix = r.f64(),
    iy = r.f64(),
    iz = r.f64(),
    qx = r.f64(),
    qy = r.f64(),
    qz = r.f64(),
    qw = r.f64();
  const p = rec.userMassProps;
  const c = p.centerOfMass,
    i = p.inertia,
    q = p.inertiaOrientation;
  const same =
    (flags & MASS ? p.mass === mass : p.mass === undefined) &&
    (flags & COM ? !!c && c.x === cx && c.y === cy && c.z === cz : !c) &&
    (flags & INERTIA ? !!i && i.x === ix && i.y === iy && i.z === iz : !i) &&
    (flags & ORIENTATION ? !!q && q.x === qx && q.y === qy && q.z === qz && q.w === qw : !q);
  if (same) return;
  const out: PhysicsMassProperties = {};
  if (flags & MASS) out.mass = mass;
  if (flags & COM) out.centerOfMass = new Vector3(cx, cy, cz);
  if (flags & INERTIA) out.inertia = new Vector3(ix, iy, iz);
  if (flags & ORIENTATION) out.inertiaOrientation = new Quaternion(qx, qy, qz, qw);
  rec.userMassProps = out;
}

function nameOf(rec: BodyRecord): string {
  const node = rec.body.transformNode;
  const base = node ? node.name : "(no node)";
  return rec.body._pluginDataInstances?.length ? `${base}[${rec.index}]` : base;
}

function shapeTypeName(type: number): string {
  return ["SPHERE", "CAPSULE", "CYLINDER", "BOX", "CONVEX_HULL", "CONTAINER", "MESH", "HEIGHTFIELD"][type] ?? String(type);
}

/** Names the bodies created and removed since a snapshot (the error path: allocation is fine here). */
function describeBodyChange(r: ByteReader, bodiesAt: number, n: number, world: World, records: ReadonlyMap<number, BodyRecord>): string {
  const then = new Set<number>();
  r.pos = bodiesAt;
  for (let k = 0; k < n; k++) {
    then.add(r.f64());
    r.pos += BODY_BYTES - 8;
  }
  const added: string[] = [];
  for (const h of world.getBodyHandles()) {
    if (!then.has(h)) {
      const rec = records.get(h);
      added.push(rec ? `'${nameOf(rec)}' (handle ${h})` : `handle ${h}`);
    }
  }
  const removed: string[] = [];
  for (const h of then) if (!world.isAlive(h)) removed.push(`handle ${h}`);
  const list = (xs: string[]) => (xs.length > 5 ? `${xs.slice(0, 5).join(", ")} and ${xs.length - 5} more` : xs.join(", "));
  const parts: string[] = [];
  if (added.length) parts.push(`bodies created since the snapshot: ${list(added)}`);
  if (removed.length) parts.push(`bodies disposed since the snapshot: ${list(removed)}`);
  return parts.length ? parts.join("; ") : "the bodies changed since the snapshot";
}

installSnapshots((host) => new SnapshotBridge(host));
