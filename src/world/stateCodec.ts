/**
 * The world's state as bytes, for snapshot / restore. Everything the step reads is typed arrays, numbers,
 * booleans, arrays and state objects, so a structural walk captures it exactly and writing it back continues
 * the simulation bit for bit. The walk is generic (a field added to the world is saved without a change here):
 * it visits a root's own enumerable fields, skipping functions and workspace objects ({@link Workspace}: the
 * step's scratch, rewritten before it is read, src/world/stepScratch.ts).
 *
 * Format (little-endian): one tag byte per value, then its payload — int32, float64, typed array (kind,
 * length, 8-byte aligned raw bytes), array (length, items), object (field count, then key id and value per
 * field; a key's text is written once, at its first use), shape (index into a shape table the caller keeps),
 * back reference (index of a class instance or array already written: the joint solver shares the world's
 * body set). Plain objects (`{...}` literals: materials, mass overrides) are per-body data, never shared,
 * so only class instances and arrays get back-reference ids.
 *
 * A state object whose typed arrays are only partly live between steps (a buffer sized for the busiest step,
 * a double buffer's idle half) says so with a `snapshotExtent(field)` method ({@link PartialState}): only that
 * many leading elements are written (the rest is never read before being overwritten), and 0 for an object
 * field leaves it out. Snapshots then cost what the state holds, not what the buffers could hold.
 *
 * Decoding writes into the live objects: a typed array of the same kind and length is filled with `set`, an
 * array keeps its identity, an object's fields are assigned in place. Restoring a snapshot of an unchanged
 * world therefore allocates nothing per body. Shapes are immutable and never copied.
 */
import { grown } from "../collections/growth";
import { Shape } from "../shapes/shape";
import { WORKSPACE, type Workspace } from "./stepScratch";

const T_UNDEFINED = 0,
  T_NULL = 1,
  T_FALSE = 2,
  T_TRUE = 3,
  T_INT = 4,
  T_FLOAT = 5,
  T_STRING = 6,
  T_TYPED = 7,
  T_ARRAY = 8,
  T_OBJECT = 9,
  T_PLAIN = 10,
  T_SHAPE = 11,
  T_REF = 12,
  T_PREFIX = 13;

/**
 * Implemented by state objects with dead storage between steps: for each field, how many leading elements of
 * a typed array are live, or -1 for all of it; for an object field, 0 leaves it out (the live one stays).
 */
export interface PartialState {
  snapshotExtent(field: string): number;
}

function extentOf(o: object): ((field: string) => number) | null {
  const f = (o as Partial<PartialState>).snapshotExtent;
  return typeof f === "function" ? f : null;
}

function isWorkspace(v: unknown): boolean {
  return v !== null && typeof v === "object" && (v as Partial<Workspace>)[WORKSPACE] === true;
}

/** Typed-array kinds, by constructor. */
const TYPED = [Float64Array, Float32Array, Int32Array, Uint32Array, Int16Array, Uint16Array, Int8Array, Uint8Array, Uint8ClampedArray] as const;
type Typed = InstanceType<(typeof TYPED)[number]>;

/** A key written for the first time: its id is followed by its text. */
const NEW_KEY = 0xffff;
/** Deeper than this is a cycle through plain objects (not state): refused rather than overflowing the stack. */
const MAX_DEPTH = 64;

/** Maps shapes met during encoding to table indices (and back when decoding). */
export interface ShapeTable {
  /** Index of a shape in the table, adding it if new. */
  indexOf(shape: Shape): number;
  /** The shape at an index. */
  at(index: number): Shape;
}

/** A shape table that is a plain list (kept in memory beside the bytes). */
export class ShapeList implements ShapeTable {
  readonly shapes: Shape[] = [];
  private readonly index = new Map<Shape, number>();
  indexOf(shape: Shape): number {
    let i = this.index.get(shape);
    if (i === undefined) {
      i = this.shapes.length;
      this.shapes.push(shape);
      this.index.set(shape, i);
    }
    return i;
  }
  at(index: number): Shape {
    const s = this.shapes[index];
    if (s === undefined) throw new RangeError(`snapshot: shape index ${index} is not in the shape table`);
    return s;
  }
}

/** Growable little-endian byte writer, reused from one encode to the next. */
export class ByteWriter {
  bytes = new Uint8Array(1 << 16);
  view = new DataView(this.bytes.buffer);
  pos = 0;

  reserve(n: number): void {
    if (this.pos + n <= this.bytes.length) return;
    this.bytes = grown(this.bytes, this.pos + n, this.pos);
    this.view = new DataView(this.bytes.buffer);
  }
  u8(v: number): void {
    this.reserve(1);
    this.view.setUint8(this.pos, v);
    this.pos += 1;
  }
  u16(v: number): void {
    this.reserve(2);
    this.view.setUint16(this.pos, v, true);
    this.pos += 2;
  }
  u32(v: number): void {
    this.reserve(4);
    this.view.setUint32(this.pos, v, true);
    this.pos += 4;
  }
  i32(v: number): void {
    this.reserve(4);
    this.view.setInt32(this.pos, v, true);
    this.pos += 4;
  }
  f64(v: number): void {
    this.reserve(8);
    this.view.setFloat64(this.pos, v, true);
    this.pos += 8;
  }
  string(s: string): void {
    this.u32(s.length);
    this.reserve(2 * s.length);
    for (let k = 0; k < s.length; k++) {
      this.view.setUint16(this.pos, s.charCodeAt(k), true);
      this.pos += 2;
    }
  }
  /** Pads to a multiple of 8 (typed-array payloads are aligned so they can be viewed in place). */
  align8(): void {
    const pad = (8 - (this.pos & 7)) & 7;
    this.reserve(pad);
    for (let k = 0; k < pad; k++) this.bytes[this.pos++] = 0;
  }
  /** Raw bytes of a typed array. */
  raw(a: Typed): void {
    const n = a.byteLength;
    this.reserve(n);
    this.bytes.set(new Uint8Array(a.buffer, a.byteOffset, n), this.pos);
    this.pos += n;
  }
  /** A copy of the bytes written so far (plain memory, whatever the writer's buffer is). */
  result(): ArrayBuffer {
    return this.bytes.slice(0, this.pos).buffer;
  }
}

/** Little-endian reader over a snapshot's bytes. */
export class ByteReader {
  readonly view: DataView;
  pos: number;
  constructor(
    readonly buf: ArrayBuffer,
    start = 0,
    readonly end = buf.byteLength,
  ) {
    this.view = new DataView(buf);
    this.pos = start;
  }
  private need(n: number): void {
    if (this.pos + n > this.end) throw new RangeError(`snapshot: the bytes end early (need ${n} at ${this.pos} of ${this.end}); they are truncated or not a snapshot`);
  }
  u8(): number {
    this.need(1);
    return this.view.getUint8(this.pos++);
  }
  u16(): number {
    this.need(2);
    const v = this.view.getUint16(this.pos, true);
    this.pos += 2;
    return v;
  }
  u32(): number {
    this.need(4);
    const v = this.view.getUint32(this.pos, true);
    this.pos += 4;
    return v;
  }
  i32(): number {
    this.need(4);
    const v = this.view.getInt32(this.pos, true);
    this.pos += 4;
    return v;
  }
  f64(): number {
    this.need(8);
    const v = this.view.getFloat64(this.pos, true);
    this.pos += 8;
    return v;
  }
  string(): string {
    const n = this.u32();
    this.need(2 * n);
    let s = "";
    for (let k = 0; k < n; k++) s += String.fromCharCode(this.view.getUint16(this.pos + 2 * k, true));
    this.pos += 2 * n;
    return s;
  }
  align8(): void {
    this.pos += (8 - (this.pos & 7)) & 7;
  }
}

function typedKind(a: ArrayBufferView): number {
  for (let k = 0; k < TYPED.length; k++) if (a instanceof TYPED[k]) return k;
  throw new TypeError(`snapshot: cannot save a ${a.constructor.name}`);
}

function isPlain(o: object): boolean {
  const p = Object.getPrototypeOf(o);
  return p === Object.prototype || p === null;
}

/** Encodes object graphs (see the module comment). One instance is reused: its tables keep their capacity. */
export class StateEncoder {
  private readonly keyIds = new Map<string, number>();
  private readonly seen = new Map<object, number>();
  private w!: ByteWriter;
  private shapes!: ShapeTable;

  /** Writes `root`'s fields (except functions and workspace) to `w`. */
  encode(root: object, w: ByteWriter, shapes: ShapeTable): void {
    this.w = w;
    this.shapes = shapes;
    this.keyIds.clear();
    this.seen.clear();
    this.seen.set(root, 0);
    this.fields(root, 0);
  }

  private fields(o: object, depth: number): void {
    const w = this.w;
    const countAt = w.pos;
    w.u32(0);
    let n = 0;
    const rec = o as Record<string, unknown>;
    const extent = extentOf(o);
    for (const key in rec) {
      const v = rec[key];
      if (typeof v === "function" || isWorkspace(v)) continue;
      const live = extent === null ? -1 : extent.call(o, key);
      if (live === 0 && v !== null && typeof v === "object" && !ArrayBuffer.isView(v)) continue;
      this.key(key);
      if (live >= 0 && ArrayBuffer.isView(v)) this.prefix(v as Typed, live);
      else this.value(v, depth + 1);
      n++;
    }
    w.view.setUint32(countAt, n, true);
  }

  /** The first `live` elements of a typed array, with its full length. */
  private prefix(a: Typed, live: number): void {
    const w = this.w;
    const n = Math.min(live, a.length);
    w.u8(T_PREFIX);
    w.u8(typedKind(a));
    w.u32(a.length);
    w.u32(n);
    w.align8();
    w.raw(a.subarray(0, n) as Typed);
  }

  private key(k: string): void {
    const id = this.keyIds.get(k);
    if (id !== undefined) {
      this.w.u16(id);
      return;
    }
    const next = this.keyIds.size;
    if (next >= NEW_KEY) throw new RangeError("snapshot: too many distinct field names");
    this.keyIds.set(k, next);
    this.w.u16(NEW_KEY);
    this.w.string(k);
  }

  private value(v: unknown, depth: number): void {
    const w = this.w;
    if (v === undefined) return w.u8(T_UNDEFINED);
    if (v === null) return w.u8(T_NULL);
    switch (typeof v) {
      case "boolean":
        return w.u8(v ? T_TRUE : T_FALSE);
      case "number":
        if ((v | 0) === v && !(v === 0 && 1 / v < 0)) {
          w.u8(T_INT);
          w.i32(v);
        } else {
          w.u8(T_FLOAT);
          w.f64(v);
        }
        return;
      case "string":
        w.u8(T_STRING);
        w.string(v);
        return;
      case "object":
        break;
      default:
        throw new TypeError(`snapshot: cannot save a value of type ${typeof v}`);
    }
    if (depth > MAX_DEPTH) throw new RangeError("snapshot: state nested too deeply (a cycle through plain objects?)");
    const o = v as object;
    if (o instanceof Shape) {
      w.u8(T_SHAPE);
      w.u32(this.shapes.indexOf(o));
      return;
    }
    if (ArrayBuffer.isView(o)) {
      const a = o as Typed;
      w.u8(T_TYPED);
      w.u8(typedKind(a));
      w.u32(a.length);
      w.align8();
      w.raw(a);
      return;
    }
    if (o instanceof Map || o instanceof Set) throw new TypeError("snapshot: Map and Set state cannot be saved (use arrays)");
    const plain = !Array.isArray(o) && isPlain(o);
    if (!plain) {
      const ref = this.seen.get(o);
      if (ref !== undefined) {
        w.u8(T_REF);
        w.u32(ref);
        return;
      }
      this.seen.set(o, this.seen.size);
    }
    if (Array.isArray(o)) {
      w.u8(T_ARRAY);
      w.u32(o.length);
      for (let k = 0; k < o.length; k++) this.value(o[k], depth + 1);
      return;
    }
    w.u8(plain ? T_PLAIN : T_OBJECT);
    this.fields(o, depth);
  }
}

/** Decodes what {@link StateEncoder} wrote, into the live objects. */
export class StateDecoder {
  private readonly keys: string[] = [];
  private readonly objects: object[] = [];
  private r!: ByteReader;
  private shapes!: ShapeTable;

  decodeInto(root: object, r: ByteReader, shapes: ShapeTable): void {
    this.r = r;
    this.shapes = shapes;
    this.keys.length = 0;
    this.objects.length = 0;
    this.objects.push(root);
    this.fieldsInto(root as Record<string, unknown>);
  }

  private key(): string {
    const id = this.r.u16();
    if (id !== NEW_KEY) {
      const k = this.keys[id];
      if (k === undefined) throw new RangeError(`snapshot: unknown key id ${id}; the bytes are corrupt`);
      return k;
    }
    const k = this.r.string();
    this.keys.push(k);
    return k;
  }

  private fieldsInto(o: Record<string, unknown>): void {
    const n = this.r.u32();
    for (let k = 0; k < n; k++) {
      const key = this.key();
      o[key] = this.value(o[key]);
    }
  }

  /** Reads one value; `current` is the live value it replaces (reused when it has the same shape). */
  private value(current: unknown): unknown {
    const r = this.r;
    const tag = r.u8();
    switch (tag) {
      case T_UNDEFINED:
        return undefined;
      case T_NULL:
        return null;
      case T_FALSE:
        return false;
      case T_TRUE:
        return true;
      case T_INT:
        return r.i32();
      case T_FLOAT:
        return r.f64();
      case T_STRING:
        return r.string();
      case T_SHAPE:
        return this.shapes.at(r.u32());
      case T_TYPED: {
        const kind = r.u8();
        const C = TYPED[kind];
        if (C === undefined) throw new RangeError(`snapshot: unknown typed-array kind ${kind}; the bytes are corrupt`);
        const length = r.u32();
        r.align8();
        const bytes = length * C.BYTES_PER_ELEMENT;
        if (r.pos + bytes > r.end) throw new RangeError("snapshot: the bytes end inside a typed array; they are truncated");
        const src = new C(r.buf, r.pos, length);
        r.pos += bytes;
        if (current instanceof C && current.length === length) {
          current.set(src as never);
          return current;
        }
        return src.slice();
      }
      case T_PREFIX: {
        const kind = r.u8();
        const C = TYPED[kind];
        if (C === undefined) throw new RangeError(`snapshot: unknown typed-array kind ${kind}; the bytes are corrupt`);
        const length = r.u32(),
          live = r.u32();
        r.align8();
        const bytes = live * C.BYTES_PER_ELEMENT;
        if (live > length || r.pos + bytes > r.end) throw new RangeError("snapshot: the bytes end inside a typed array; they are truncated");
        const src = new C(r.buf, r.pos, live);
        r.pos += bytes;
        // The live prefix into the live array of the same size (the rest is dead storage), else a new one.
        const target = current instanceof C && current.length === length ? current : new C(length);
        target.set(src as never);
        return target;
      }
      case T_REF: {
        const id = r.u32();
        const o = this.objects[id];
        if (o === undefined) throw new RangeError(`snapshot: unknown object reference ${id}; the bytes are corrupt`);
        return o;
      }
      case T_ARRAY: {
        const n = r.u32();
        const a = Array.isArray(current) ? (current as unknown[]) : [];
        this.objects.push(a);
        // Restored in place: the old elements are the live targets of the new ones.
        if (a.length > n) a.length = n;
        for (let k = 0; k < n; k++) a[k] = this.value(k < a.length ? a[k] : undefined);
        return a;
      }
      case T_OBJECT: {
        if (current === null || typeof current !== "object" || Array.isArray(current)) {
          throw new TypeError("snapshot: a state object the snapshot has is missing from the world; it was built differently");
        }
        this.objects.push(current);
        this.fieldsInto(current as Record<string, unknown>);
        return current;
      }
      case T_PLAIN:
        return this.plain(current);
      default:
        throw new RangeError(`snapshot: unknown value tag ${tag}; the bytes are corrupt`);
    }
  }

  /** A plain data object: written into the live one when it has exactly the saved fields, else rebuilt. */
  private plain(current: unknown): Record<string, unknown> {
    const r = this.r;
    const n = r.u32();
    if (current !== null && typeof current === "object" && !Array.isArray(current) && isPlain(current)) {
      let have = 0;
      for (const _ in current) have++;
      if (have === n) {
        const target = current as Record<string, unknown>;
        const start = r.pos,
          keys0 = this.keys.length,
          objects0 = this.objects.length;
        let k = 0;
        for (; k < n; k++) {
          const key = this.key();
          if (!(key in target)) break;
          target[key] = this.value(target[key]);
        }
        if (k === n) return target;
        // A field the live object lacks: read the fields again into a new object.
        r.pos = start;
        this.keys.length = keys0;
        this.objects.length = objects0;
      }
    }
    return this.rebuildPlain(n);
  }

  private rebuildPlain(n: number): Record<string, unknown> {
    const o: Record<string, unknown> = {};
    for (let k = 0; k < n; k++) {
      const key = this.key();
      o[key] = this.value(undefined);
    }
    return o;
  }
}
