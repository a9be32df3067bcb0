/**
 * Checks of vector and quaternion arguments at the public API: one message for each, naming the argument and
 * showing its value (NaN and Infinity as such, where JSON would print null).
 */
import { isValidQuat, type QuatLike } from "./quat";
import { isFiniteVec3, type Vec3Like } from "./vec3";

/** A vector or quaternion argument as text: `(x, y, z)` or `(x, y, z, w)`; anything else through String. */
export function fmtVecArg(v: unknown): string {
  if (v === null || v === undefined || typeof v !== "object") return String(v);
  const o = v as Record<string, unknown>;
  return `(${String(o.x)}, ${String(o.y)}, ${String(o.z)}${"w" in o ? `, ${String(o.w)}` : ""})`;
}

/** Throws a RangeError naming `name` unless v is a vector with finite components. */
export function requireVec(name: string, v: Vec3Like | null | undefined): void {
  if (!isFiniteVec3(v)) throw new RangeError(`${name} must be a finite vector, got ${fmtVecArg(v)}`);
}

/** Throws a RangeError naming `name` unless q is a finite quaternion of non-zero length. */
export function requireQuat(name: string, q: QuatLike | null | undefined): void {
  if (!isValidQuat(q)) throw new RangeError(`${name} must be a finite non-zero quaternion, got ${fmtVecArg(q)}`);
}
