/**
 * Small vector types and allocation-free helpers. The hot path works on scalars and typed arrays;
 * these objects are for the API and for preallocated scratch values.
 */

/** A 3-vector as plain fields. Any object with x, y, z (Babylon's Vector3 included) fits. */
export interface Vec3Like {
  x: number;
  y: number;
  z: number;
}

/** A mutable 3-vector. */
export class Vec3 implements Vec3Like {
  constructor(
    public x = 0,
    public y = 0,
    public z = 0,
  ) {}

  set(x: number, y: number, z: number): this {
    this.x = x;
    this.y = y;
    this.z = z;
    return this;
  }

  copyFrom(v: Vec3Like): this {
    this.x = v.x;
    this.y = v.y;
    this.z = v.z;
    return this;
  }

  clone(): Vec3 {
    return new Vec3(this.x, this.y, this.z);
  }

  length(): number {
    return Math.sqrt(this.x * this.x + this.y * this.y + this.z * this.z);
  }
}

/** Dot product of two vectors. */
export function dot3(a: Vec3Like, b: Vec3Like): number {
  return a.x * b.x + a.y * b.y + a.z * b.z;
}

/** out = a x b (out may alias a or b). */
export function cross3(a: Vec3Like, b: Vec3Like, out: Vec3Like): Vec3Like {
  const x = a.y * b.z - a.z * b.y;
  const y = a.z * b.x - a.x * b.z;
  const z = a.x * b.y - a.y * b.x;
  out.x = x;
  out.y = y;
  out.z = z;
  return out;
}

/** True when all three components are finite numbers. */
export function isFiniteVec3(v: Vec3Like | null | undefined): boolean {
  return (
    v !== null &&
    v !== undefined &&
    Number.isFinite(v.x) &&
    Number.isFinite(v.y) &&
    Number.isFinite(v.z)
  );
}

/**
 * Builds an orthonormal tangent basis (t1, t2) for a unit normal n, written into out (6 numbers:
 * t1x,t1y,t1z,t2x,t2y,t2z). Branch-free except for the sign, after Duff et al. 2017
 * ("Building an Orthonormal Basis, Revisited"), so it is continuous in n and deterministic.
 */
export function tangentBasis(nx: number, ny: number, nz: number, out: Float64Array, offset: number): void {
  const s = nz >= 0 ? 1 : -1;
  const a = -1 / (s + nz);
  const b = nx * ny * a;
  out[offset] = 1 + s * nx * nx * a;
  out[offset + 1] = s * b;
  out[offset + 2] = -s * nx;
  out[offset + 3] = b;
  out[offset + 4] = s + ny * ny * a;
  out[offset + 5] = -ny;
}

/**
 * A vector perpendicular to the unit vector u = u[uo..uo+2], not normalised, into out[o..o+2]: u x X, or u x Y when
 * u is near X (|ux| >= 1/sqrt(3), so the result's length stays at least sqrt(2/3)). Arrays in and out (docs/design.md).
 */
export function perpendicularTo(u: Float64Array, uo: number, out: Float64Array, o: number): void {
  const ux = u[uo],
    uy = u[uo + 1],
    uz = u[uo + 2];
  if (Math.abs(ux) < 0.57735) {
    out[o] = 0;
    out[o + 1] = uz;
    out[o + 2] = -uy;
  } else {
    out[o] = -uz;
    out[o + 1] = 0;
    out[o + 2] = ux;
  }
}

/**
 * The cross product (b - a) x (c - a) of the points v[a..a+2], v[b..b+2], v[c..c+2] (offsets into v) into
 * out[o..o+2], and |b - a|^2 + |c - a|^2 into out[o + 3]: the scale a degeneracy test compares the cross
 * product's length against. A triangle's (unnormalised) normal, twice its area. Offsets and arrays in, an array
 * out: nothing is boxed whether or not the call is inlined (docs/design.md).
 */
export function triangleCross(v: ArrayLike<number>, a: number, b: number, c: number, out: Float64Array, o: number): void {
  const x0 = v[a],
    y0 = v[a + 1],
    z0 = v[a + 2];
  const e1x = v[b] - x0,
    e1y = v[b + 1] - y0,
    e1z = v[b + 2] - z0;
  const e2x = v[c] - x0,
    e2y = v[c + 1] - y0,
    e2z = v[c + 2] - z0;
  out[o] = e1y * e2z - e1z * e2y;
  out[o + 1] = e1z * e2x - e1x * e2z;
  out[o + 2] = e1x * e2y - e1y * e2x;
  out[o + 3] = e1x * e1x + e1y * e1y + e1z * e1z + e2x * e2x + e2y * e2y + e2z * e2z;
}
