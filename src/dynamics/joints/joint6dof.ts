/**
 * The generic 6-DoF joint: its enums, descriptions, validation and frame construction.
 *
 * Frames (Havok / Babylon V2 convention, docs/babylon-differences.md 1.10): each body has a joint frame with origin at
 * its pivot (in the body's local frame, i.e. relative to the body ORIGIN, not the centre of mass),
 * X = axis, Y = perpAxis (made orthogonal to X), Z = X x Y. With bodyB = null the "B" pivot and axes
 * are in world space.
 *
 * Axes: LINEAR_X/Y/Z = translation of B's pivot relative to A's pivot along A's frame axes;
 * ANGULAR_X/Y/Z = twist about X and the two swing angles of B's frame relative to A's frame (the
 * decomposition is documented in ./jointMath: relativeAngles); LINEAR_DISTANCE = distance between
 * the two pivots. Modes: FREE, LIMITED [min, max] (min = max is an equality, e.g. a rigid rod),
 * LOCKED (held at 0). `stiffness`/`damping` (N/m and N s/m, or N m/rad and N m s/rad) make the
 * limit / lock of that axis a spring. Motors: VELOCITY (target m/s or rad/s) or POSITION (target m or
 * rad), each limited by `motorMaxForce` (N or N m). `friction` is a maximum force (N or N m) that
 * resists motion on the axis.
 */
import { mat3ToQuat, type QuatLike } from "../../math/quat";
import type { Vec3Like } from "../../math/vec3";

export const JointAxis = {
  LinearX: 0,
  LinearY: 1,
  LinearZ: 2,
  AngularX: 3,
  AngularY: 4,
  AngularZ: 5,
  LinearDistance: 6,
} as const;
export type JointAxis = (typeof JointAxis)[keyof typeof JointAxis];

export const AxisMode = { Free: 0, Limited: 1, Locked: 2 } as const;
export type AxisMode = (typeof AxisMode)[keyof typeof AxisMode];

/**
 * Motor kinds. SpringForce / SpringAcceleration (Havok's motor types of the same names) drive the axis with the
 * force k (target - x) + c (velocityTarget - v), k and c set per axis (`motorStiffness`, `motorDamping`), in
 * force units or, for SpringAcceleration, in acceleration units (scaled by the axis's effective mass).
 */
export const MotorType = { None: 0, Velocity: 1, Position: 2, SpringForce: 3, SpringAcceleration: 4 } as const;
export type MotorType = (typeof MotorType)[keyof typeof MotorType];

/** Number of joint axes (LINEAR_X .. LINEAR_DISTANCE). */
export const AXIS_COUNT = 7;

/** Per-axis settings. Omitted fields keep their defaults (FREE, no limits, rigid, no friction, no motor). */
export interface JointAxisDescription {
  axis: JointAxis;
  mode: AxisMode;
  /** Lower limit (m or rad) for LIMITED. Default 0. */
  min?: number;
  /** Upper limit (m or rad) for LIMITED. Default 0. */
  max?: number;
  /** Spring stiffness of the limit (N/m or N m/rad); 0 or omitted with damping 0 = rigid. */
  stiffness?: number;
  /** Spring damping of the limit (N s/m or N m s/rad). */
  damping?: number;
  /** Maximum friction force (N) or torque (N m) on this axis. Default 0. */
  friction?: number;
  motorType?: MotorType;
  /** Velocity (m/s, rad/s) or position (m, rad) target. Default 0. */
  motorTarget?: number;
  /** Largest motor force (N) or torque (N m). Default Infinity. */
  motorMaxForce?: number;
  /**
   * With `stiffness` / `damping` on a LIMITED axis: the spring pulls toward this position (m or rad) at all
   * times and [min, max] stay rigid stops, as a suspension (Box2D's b2WheelJoint spring, Jolt's
   * WheelSettings). Unset (NaN, the default) keeps Havok's meaning: the spring acts only beyond the limits.
   */
  springRest?: number;
  /**
   * Friction on this axis that grows with the force the joint carries on its LINEAR_Y axis: the axis resists
   * motion with at most friction + frictionPerLoad x |F_Y|. On a wheel's spin axis, with LINEAR_Y its
   * suspension, it is rolling resistance: the coefficient (dimensionless) times the wheel radius (m). Default 0.
   */
  frictionPerLoad?: number;
  /** Spring motors: stiffness (see {@link MotorType}). Default 0. */
  motorStiffness?: number;
  /** Spring motors: damping (see {@link MotorType}). Default 0. */
  motorDamping?: number;
  /** Spring motors: velocity target (m/s or rad/s); the position target is `motorTarget`. Default 0. */
  motorVelocityTarget?: number;
}

export interface JointDescription {
  /** Handle of body A. */
  bodyA: number;
  /** Handle of body B, or null to attach A to the world. */
  bodyB: number | null;
  /** Pivot in A's local (origin) frame. Default (0, 0, 0). */
  pivotA?: Vec3Like;
  /** Pivot in B's local frame (world space when bodyB is null). Default (0, 0, 0). */
  pivotB?: Vec3Like;
  /** Joint X axis in A's frame. Default (1, 0, 0). */
  axisA?: Vec3Like;
  axisB?: Vec3Like;
  /** Joint Y axis in A's frame (made orthogonal to axisA). Default: Havok's (Babylon getNormalToRef), e.g. (0, -1, 0) for axis (1, 0, 0). */
  perpAxisA?: Vec3Like;
  perpAxisB?: Vec3Like;
  /** Axis settings; axes not listed are FREE. */
  axes?: JointAxisDescription[];
  /** Whether the two bodies collide with each other. Default false. */
  collisionsEnabled?: boolean;
  /** Default true. */
  enabled?: boolean;
}

// ------------------------------------------------------------------ validation

export function fmt(v: unknown): string {
  if (v === null) return "null";
  if (typeof v === "object") {
    // Vectors and quaternions as (x, y, z[, w]) so that NaN and Infinity show (JSON would print null).
    const o = v as Record<string, unknown>;
    if ("x" in o && "y" in o && "z" in o) {
      return "w" in o ? `(${String(o.x)}, ${String(o.y)}, ${String(o.z)}, ${String(o.w)})` : `(${String(o.x)}, ${String(o.y)}, ${String(o.z)})`;
    }
    try {
      return JSON.stringify(v);
    } catch {
      return String(v);
    }
  }
  return String(v);
}

export function checkVec(name: string, v: unknown): Vec3Like {
  if (typeof v !== "object" || v === null) throw new TypeError(`${name} must be an {x, y, z} object, got ${fmt(v)}`);
  const o = v as Vec3Like;
  if (!(Number.isFinite(o.x) && Number.isFinite(o.y) && Number.isFinite(o.z))) {
    throw new RangeError(`${name} must be a finite vector, got ${fmt(v)}`);
  }
  return o;
}

export function checkAxis(name: string, axis: unknown): JointAxis {
  if (typeof axis !== "number") throw new TypeError(`${name} must be a JointAxis number, got ${fmt(axis)}`);
  if (!Number.isInteger(axis) || axis < 0 || axis >= AXIS_COUNT) {
    throw new RangeError(`${name} must be a JointAxis (0..6), got ${fmt(axis)}`);
  }
  return axis as JointAxis;
}

export function checkMode(name: string, mode: unknown): AxisMode {
  if (typeof mode !== "number") throw new TypeError(`${name} must be an AxisMode number, got ${fmt(mode)}`);
  if (mode !== 0 && mode !== 1 && mode !== 2) throw new RangeError(`${name} must be AxisMode.Free, Limited or Locked (0..2), got ${fmt(mode)}`);
  return mode as AxisMode;
}

export function checkMotorType(name: string, t: unknown): MotorType {
  if (typeof t !== "number") throw new TypeError(`${name} must be a MotorType number, got ${fmt(t)}`);
  if (t !== 0 && t !== 1 && t !== 2 && t !== 3 && t !== 4) {
    throw new RangeError(`${name} must be MotorType.None, Velocity, Position, SpringForce or SpringAcceleration (0..4), got ${fmt(t)}`);
  }
  return t as MotorType;
}

export function checkFinite(name: string, v: unknown): number {
  if (typeof v !== "number") throw new TypeError(`${name} must be a number, got ${fmt(v)}`);
  if (!Number.isFinite(v)) throw new RangeError(`${name} must be finite, got ${fmt(v)}`);
  return v;
}

/** A number >= 0; Infinity allowed when `infinite`. */
export function checkNonNegative(name: string, v: unknown, infinite = false): number {
  if (typeof v !== "number") throw new TypeError(`${name} must be a number, got ${fmt(v)}`);
  if (!(v >= 0) || (!infinite && !Number.isFinite(v))) {
    throw new RangeError(`${name} must be a ${infinite ? "" : "finite "}number >= 0, got ${fmt(v)}`);
  }
  return v;
}

export function checkBool(name: string, v: unknown): boolean {
  if (typeof v !== "boolean") throw new TypeError(`${name} must be a boolean, got ${fmt(v)}`);
  return v;
}

// ------------------------------------------------------------------ frames

const m3 = new Float64Array(9);

/**
 * Havok's default perpendicular axis: Babylon's `Vector3.getNormalToRef` (the axis turned by 90 degrees
 * in its polar angle, same azimuth), written without trigonometry. For a unit axis (x, y, z) with
 * rho = sqrt(x^2 + z^2): y >= 0 gives (y x / rho, -rho, y z / rho), y < 0 gives (-y x / rho, rho,
 * -y z / rho); rho = 0 gives (1, 0, 0). E.g. axis (1, 0, 0) -> (0, -1, 0).
 */
export function defaultPerpendicular(x: number, y: number, z: number, out: Float64Array): void {
  const rho = Math.sqrt(x * x + z * z);
  const cx = rho > 1e-12 ? x / rho : 1,
    cz = rho > 1e-12 ? z / rho : 0;
  if (y >= 0) {
    out[0] = y * cx;
    out[1] = -rho;
    out[2] = y * cz;
  } else {
    out[0] = -y * cx;
    out[1] = rho;
    out[2] = -y * cz;
  }
}
const basis = new Float64Array(6);

/**
 * Frame orientation (quaternion) whose columns are X = axis, Y = perp made orthogonal to X, Z = X x Y.
 * `perp` null picks a deterministic perpendicular. Throws (naming the arguments) if the axis is zero or
 * the perpendicular is parallel to it.
 */
export function frameFromAxes(axisName: string, axis: Vec3Like, perpName: string, perp: Vec3Like | null, out: QuatLike): QuatLike {
  let ax = axis.x,
    ay = axis.y,
    az = axis.z;
  const al = Math.sqrt(ax * ax + ay * ay + az * az);
  if (!(al > 1e-9)) throw new RangeError(`${axisName} must be a non-zero vector, got ${fmt(axis)}`);
  ax /= al;
  ay /= al;
  az /= al;
  let px: number, py: number, pz: number;
  if (perp === null) {
    defaultPerpendicular(ax, ay, az, basis);
    px = basis[0];
    py = basis[1];
    pz = basis[2];
  } else {
    const pl = Math.sqrt(perp.x * perp.x + perp.y * perp.y + perp.z * perp.z);
    if (!(pl > 1e-9)) throw new RangeError(`${perpName} must be a non-zero vector, got ${fmt(perp)}`);
    const d = (perp.x * ax + perp.y * ay + perp.z * az) / pl;
    px = perp.x / pl - d * ax;
    py = perp.y / pl - d * ay;
    pz = perp.z / pl - d * az;
    const l = Math.sqrt(px * px + py * py + pz * pz);
    if (!(l > 1e-6)) throw new RangeError(`${perpName} must not be parallel to ${axisName}, got ${fmt(perp)} and ${fmt(axis)}`);
    px /= l;
    py /= l;
    pz /= l;
  }
  const zx = ay * pz - az * py,
    zy = az * px - ax * pz,
    zz = ax * py - ay * px;
  // Row-major matrix with columns X, Y, Z.
  m3[0] = ax;
  m3[1] = px;
  m3[2] = zx;
  m3[3] = ay;
  m3[4] = py;
  m3[5] = zy;
  m3[6] = az;
  m3[7] = pz;
  m3[8] = zz;
  return mat3ToQuat(m3, 0, out);
}
