/** Quaternion types and allocation-free helpers (x, y, z vector part; w scalar part). */

/** A rotation quaternion as plain fields. Babylon's Quaternion fits. */
export interface QuatLike {
  x: number;
  y: number;
  z: number;
  w: number;
}

/** A mutable quaternion, identity by default. */
export class Quat implements QuatLike {
  constructor(
    public x = 0,
    public y = 0,
    public z = 0,
    public w = 1,
  ) {}

  set(x: number, y: number, z: number, w: number): this {
    this.x = x;
    this.y = y;
    this.z = z;
    this.w = w;
    return this;
  }

  copyFrom(q: QuatLike): this {
    this.x = q.x;
    this.y = q.y;
    this.z = q.z;
    this.w = q.w;
    return this;
  }

  clone(): Quat {
    return new Quat(this.x, this.y, this.z, this.w);
  }
}

/** True when all four components are finite and the quaternion is not zero. */
export function isValidQuat(q: QuatLike | null | undefined): boolean {
  if (q === null || q === undefined) return false;
  if (!(Number.isFinite(q.x) && Number.isFinite(q.y) && Number.isFinite(q.z) && Number.isFinite(q.w))) {
    return false;
  }
  return q.x * q.x + q.y * q.y + q.z * q.z + q.w * q.w > 1e-12;
}

/** Normalizes q in place; returns q. */
export function normalizeQuat<T extends QuatLike>(q: T): T {
  const l = Math.sqrt(q.x * q.x + q.y * q.y + q.z * q.z + q.w * q.w);
  const inv = l > 0 ? 1 / l : 0;
  q.x *= inv;
  q.y *= inv;
  q.z *= inv;
  q.w = l > 0 ? q.w * inv : 1;
  return q;
}

/** The unit quaternion rotating +Y onto the unit direction (dx, dy, dz) (a new object; not for per-step code). */
export function rotationFromY(dx: number, dy: number, dz: number): QuatLike {
  if (dy > 1 - 1e-12) return { x: 0, y: 0, z: 0, w: 1 };
  if (dy < -1 + 1e-12) return { x: 1, y: 0, z: 0, w: 0 };
  // axis = Y x d = (dz, 0, -dx); q = normalize(axis, 1 + Y.d)
  const x = dz,
    z = -dx,
    w = 1 + dy;
  const l = Math.sqrt(x * x + z * z + w * w);
  return { x: x / l, y: 0, z: z / l, w: w / l };
}

/** out = a * b (apply b, then a). out may alias a or b. */
export function mulQuat(a: QuatLike, b: QuatLike, out: QuatLike): QuatLike {
  const x = a.w * b.x + a.x * b.w + a.y * b.z - a.z * b.y;
  const y = a.w * b.y - a.x * b.z + a.y * b.w + a.z * b.x;
  const z = a.w * b.z + a.x * b.y - a.y * b.x + a.z * b.w;
  const w = a.w * b.w - a.x * b.x - a.y * b.y - a.z * b.z;
  out.x = x;
  out.y = y;
  out.z = z;
  out.w = w;
  return out;
}

/** rotateVec's and rotateVecInv's result. */
const ROTATED = new Float64Array(3);

/** Rotates (vx, vy, vz) by q, writing into out. out may alias nothing in q. */
export function rotateVec(q: QuatLike, vx: number, vy: number, vz: number, out: { x: number; y: number; z: number }): void {
  rotateParts(q.x, q.y, q.z, q.w, vx, vy, vz, ROTATED, 0);
  out.x = ROTATED[0];
  out.y = ROTATED[1];
  out.z = ROTATED[2];
}

/** Rotates (vx, vy, vz) by the inverse (conjugate) of unit q. */
export function rotateVecInv(q: QuatLike, vx: number, vy: number, vz: number, out: { x: number; y: number; z: number }): void {
  rotateParts(-q.x, -q.y, -q.z, q.w, vx, vy, vz, ROTATED, 0);
  out.x = ROTATED[0];
  out.y = ROTATED[1];
  out.z = ROTATED[2];
}

/**
 * out[o..o+2] = (vx, vy, vz) rotated by the unit quaternion (qx, qy, qz, qw): v + 2w(u x v) + 2 u x (u x v), with
 * u = (qx, qy, qz) the vector part. Doubles in: for code outside the step's per-pair loops (docs/design.md).
 */
export function rotateParts(qx: number, qy: number, qz: number, qw: number, vx: number, vy: number, vz: number, out: Float64Array, o: number): void {
  const tx = 2 * (qy * vz - qz * vy);
  const ty = 2 * (qz * vx - qx * vz);
  const tz = 2 * (qx * vy - qy * vx);
  out[o] = vx + qw * tx + (qy * tz - qz * ty);
  out[o + 1] = vy + qw * ty + (qz * tx - qx * tz);
  out[o + 2] = vz + qw * tz + (qx * ty - qy * tx);
}

/**
 * Writes the rotation matrix of the unit quaternion q[qo..qo+3] (x, y, z, w), row-major, into out[o..o+8].
 * Reads and writes arrays, so the per-step callers pass no doubles (docs/design.md).
 */
export function quatMatrix(q: ArrayLike<number>, qo: number, out: Float64Array, o: number): void {
  const qx = q[qo],
    qy = q[qo + 1],
    qz = q[qo + 2],
    qw = q[qo + 3];
  const x2 = qx + qx,
    y2 = qy + qy,
    z2 = qz + qz;
  const xx = qx * x2,
    xy = qx * y2,
    xz = qx * z2,
    yy = qy * y2,
    yz = qy * z2,
    zz = qz * z2;
  const wx = qw * x2,
    wy = qw * y2,
    wz = qw * z2;
  out[o] = 1 - (yy + zz);
  out[o + 1] = xy - wz;
  out[o + 2] = xz + wy;
  out[o + 3] = xy + wz;
  out[o + 4] = 1 - (xx + zz);
  out[o + 5] = yz - wx;
  out[o + 6] = xz - wy;
  out[o + 7] = yz + wx;
  out[o + 8] = 1 - (xx + yy);
}

/**
 * Quaternion of a row-major rotation matrix (Shepperd's method: pick the largest diagonal term
 * for numerical stability). Writes into out.
 */
export function mat3ToQuat(m: ArrayLike<number>, o: number, out: QuatLike): QuatLike {
  const m00 = m[o],
    m01 = m[o + 1],
    m02 = m[o + 2];
  const m10 = m[o + 3],
    m11 = m[o + 4],
    m12 = m[o + 5];
  const m20 = m[o + 6],
    m21 = m[o + 7],
    m22 = m[o + 8];
  const trace = m00 + m11 + m22;
  if (trace > 0) {
    const s = 0.5 / Math.sqrt(trace + 1);
    out.w = 0.25 / s;
    out.x = (m21 - m12) * s;
    out.y = (m02 - m20) * s;
    out.z = (m10 - m01) * s;
  } else if (m00 > m11 && m00 > m22) {
    const s = 2 * Math.sqrt(1 + m00 - m11 - m22);
    out.w = (m21 - m12) / s;
    out.x = 0.25 * s;
    out.y = (m01 + m10) / s;
    out.z = (m02 + m20) / s;
  } else if (m11 > m22) {
    const s = 2 * Math.sqrt(1 + m11 - m00 - m22);
    out.w = (m02 - m20) / s;
    out.x = (m01 + m10) / s;
    out.y = 0.25 * s;
    out.z = (m12 + m21) / s;
  } else {
    const s = 2 * Math.sqrt(1 + m22 - m00 - m11);
    out.w = (m10 - m01) / s;
    out.x = (m02 + m20) / s;
    out.y = (m12 + m21) / s;
    out.z = 0.25 * s;
  }
  return normalizeQuat(out);
}
