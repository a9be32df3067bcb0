/**
 * Argument checks for the plugin's public methods. Every error names the method, the argument and the
 * value received, and is thrown before anything is changed (the world is untouched on bad input).
 * TypeError: the argument is not of the expected kind. RangeError: right kind, value out of range.
 */

/** Something with x, y, z (Babylon's Vector3 fits). */
export interface XYZ {
  x: number;
  y: number;
  z: number;
}
/** Something with x, y, z, w (Babylon's Quaternion fits). */
export interface XYZW extends XYZ {
  w: number;
}

function show(v: unknown): string {
  if (v === null || v === undefined || typeof v !== "object") return String(v);
  const o = v as Partial<XYZW>;
  if ("w" in o) return `(${o.x}, ${o.y}, ${o.z}, ${o.w})`;
  if ("x" in o) return `(${o.x}, ${o.y}, ${o.z})`;
  return Object.prototype.toString.call(v);
}

/** A finite number. */
export function finiteNumber(fn: string, name: string, v: unknown): number {
  if (typeof v !== "number") throw new TypeError(`${fn}: ${name} must be a number, got ${show(v)}`);
  if (!Number.isFinite(v)) throw new RangeError(`${fn}: ${name} must be a finite number, got ${v}`);
  return v;
}

/** A finite number > 0. */
export function positiveNumber(fn: string, name: string, v: unknown): number {
  if (typeof v !== "number") throw new TypeError(`${fn}: ${name} must be a finite number > 0, got ${show(v)}`);
  if (!Number.isFinite(v) || v <= 0) throw new RangeError(`${fn}: ${name} must be a finite number > 0, got ${v}`);
  return v;
}

/** A finite number >= 0. */
export function nonNegativeNumber(fn: string, name: string, v: unknown): number {
  if (typeof v !== "number") throw new TypeError(`${fn}: ${name} must be a finite number >= 0, got ${show(v)}`);
  if (!Number.isFinite(v) || v < 0) throw new RangeError(`${fn}: ${name} must be a finite number >= 0, got ${v}`);
  return v;
}

/** A vector with three finite components. */
export function vector3(fn: string, name: string, v: unknown): XYZ {
  if (v === null || typeof v !== "object") throw new TypeError(`${fn}: ${name} must be a Vector3, got ${show(v)}`);
  const o = v as XYZ;
  if (typeof o.x !== "number" || typeof o.y !== "number" || typeof o.z !== "number") {
    throw new TypeError(`${fn}: ${name} must be a Vector3, got ${show(v)}`);
  }
  if (!Number.isFinite(o.x) || !Number.isFinite(o.y) || !Number.isFinite(o.z)) {
    throw new RangeError(`${fn}: ${name} must have finite components, got ${show(v)}`);
  }
  return o;
}

/** A quaternion with four finite components and a non-zero length. */
export function quaternion(fn: string, name: string, v: unknown): XYZW {
  if (v === null || typeof v !== "object") throw new TypeError(`${fn}: ${name} must be a Quaternion, got ${show(v)}`);
  const q = v as XYZW;
  if (typeof q.x !== "number" || typeof q.y !== "number" || typeof q.z !== "number" || typeof q.w !== "number") {
    throw new TypeError(`${fn}: ${name} must be a Quaternion, got ${show(v)}`);
  }
  if (!Number.isFinite(q.x) || !Number.isFinite(q.y) || !Number.isFinite(q.z) || !Number.isFinite(q.w)) {
    throw new RangeError(`${fn}: ${name} must have finite components, got ${show(v)}`);
  }
  if (q.x * q.x + q.y * q.y + q.z * q.z + q.w * q.w < 1e-12) {
    throw new RangeError(`${fn}: ${name} must be a non-zero quaternion, got ${show(v)}`);
  }
  return q;
}

/** One of the integer values `allowed`. */
export function enumValue(fn: string, name: string, v: unknown, allowed: readonly number[], enumName: string): number {
  if (typeof v !== "number" || !allowed.includes(v)) {
    throw new RangeError(`${fn}: ${name} must be a ${enumName} (${allowed.join(", ")}), got ${show(v)}`);
  }
  return v;
}

/** An int32 bit mask (any number; stored as int32 like Havok does, so ~0 reads back as -1). */
export function mask(fn: string, name: string, v: unknown): number {
  if (typeof v !== "number" || !Number.isFinite(v)) throw new TypeError(`${fn}: ${name} must be an integer bit mask, got ${show(v)}`);
  return v | 0;
}

/** A boolean. */
export function bool(fn: string, name: string, v: unknown): boolean {
  if (typeof v !== "boolean") throw new TypeError(`${fn}: ${name} must be a boolean, got ${show(v)}`);
  return v;
}
