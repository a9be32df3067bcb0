/**
 * Swept transforms (Havok `hkSweptTransform`; Havok Physics manual, Continuous Physics, 2.2.1):
 * a body's motion over a step, described about its centre of mass.
 *
 * {@link SweptMotion} describes it two ways:
 * - t0 state plus constant linear and angular velocity (setVelocity): the centre of mass moves linearly and
 *   the orientation is integrated exactly with the quaternion exponential;
 * - the centre of mass and orientation at both ends of the step (setEndpoints): positions lerp, orientations
 *   nlerp along the shortest arc.
 *
 * Either way the body ORIGIN (where the shape is posed) is recomputed from the centre of mass at the
 * interpolated time: origin(t) = com(t) - R(t) * localCom ("the reference point is recomputed from the
 * centre of mass"), so a body spinning about an off-origin centre of mass sweeps the right volume.
 *
 * No trigonometry: the exponential uses a Taylor series on a range-reduced half angle followed by
 * repeated double-angle squaring, built from + - * / and sqrt only, which are correctly rounded in
 * IEEE 754 and therefore give bit-identical results on every JS engine. Allocation-free.
 */
import type { Pose } from "./pose";
import { rotateParts } from "./quat";

/** Half angles above this are halved (and the result squared back) before the series is evaluated. */
const SERIES_RANGE = 0.25;
/** Clamp for the half angle |w| t / 2 (radians): far beyond any physical step, keeps the loop bounded. */
const MAX_HALF_ANGLE = 1e4;

/**
 * Result of the exponential: the unit rotation quaternion (x, y, z, w). Module scratch in a typed array
 * (docs/design.md).
 */
const EXP = new Float64Array([0, 0, 0, 1]);
/** setOriginFromCom's local centre of mass turned to world. */
const TURNED_COM = new Float64Array(3);

/**
 * Writes exp(0.5 * w * t) -- the rotation by angle |w| t about w -- into the EXP scratch.
 * Half angle h = |w| t / 2; sin(h)/h and cos(h) by their Taylor series up to h^10 on h <= 0.25
 * (truncation below 1e-17), after halving h k times; the k squarings (s, c) -> (2sc, c^2 - s^2)
 * restore the full angle.
 */
function quatExp(wx: number, wy: number, wz: number, t: number): void {
  const w2 = wx * wx + wy * wy + wz * wz;
  if (!(w2 > 0) || t === 0) {
    EXP[0] = 0;
    EXP[1] = 0;
    EXP[2] = 0;
    EXP[3] = 1;
    return;
  }
  const wl = Math.sqrt(w2);
  let h = 0.5 * wl * (t < 0 ? -t : t);
  if (h > MAX_HALF_ANGLE) h = MAX_HALF_ANGLE;
  let k = 0;
  while (h > SERIES_RANGE) {
    h *= 0.5;
    k++;
  }
  const h2 = h * h;
  // sin(h)/h = 1 - h^2/3! + h^4/5! - h^6/7! + h^8/9! - h^10/11!
  const sinc = 1 + h2 * (-1 / 6 + h2 * (1 / 120 + h2 * (-1 / 5040 + h2 * (1 / 362880 + h2 * (-1 / 39916800)))));
  // cos(h) = 1 - h^2/2! + h^4/4! - h^6/6! + h^8/8! - h^10/10!
  let c = 1 + h2 * (-1 / 2 + h2 * (1 / 24 + h2 * (-1 / 720 + h2 * (1 / 40320 + h2 * (-1 / 3628800)))));
  let s: number;
  let scale: number; // multiplies w to give the vector part
  if (k === 0) {
    // Vector part = w * (t/2) * sinc(h): exact for tiny |w|, no division by |w|.
    scale = 0.5 * (t < 0 ? -t : t) * sinc;
    s = 0;
  } else {
    s = h * sinc;
    for (let i = 0; i < k; i++) {
      const ns = 2 * s * c;
      const nc = c * c - s * s;
      s = ns;
      c = nc;
    }
    const l = 1 / Math.sqrt(s * s + c * c);
    s *= l;
    c *= l;
    scale = s / wl;
  }
  if (t < 0) scale = -scale;
  EXP[0] = wx * scale;
  EXP[1] = wy * scale;
  EXP[2] = wz * scale;
  EXP[3] = c;
}

/**
 * Orientation after rotating unit q by the world-space angular velocity w for time t:
 * q(t) = exp(0.5 w t) * q (the integrator's convention, dq/dt = 0.5 (w, 0) q), normalized.
 * Writes out.qx..qw only.
 */
export function integrateOrientation(
  qx: number,
  qy: number,
  qz: number,
  qw: number,
  wx: number,
  wy: number,
  wz: number,
  t: number,
  out: Pose,
): Pose {
  quatExp(wx, wy, wz, t);
  const ax = EXP[0],
    ay = EXP[1],
    az = EXP[2],
    aw = EXP[3];
  return setUnitRotation(
    aw * qx + ax * qw + ay * qz - az * qy,
    aw * qy - ax * qz + ay * qw + az * qx,
    aw * qz + ax * qy - ay * qx + az * qw,
    aw * qw - ax * qx - ay * qy - az * qz,
    out,
  );
}

/** Writes (x, y, z, w) normalized into out's orientation (the product and the nlerp of two unit quaternions drift off unit length). */
function setUnitRotation(x: number, y: number, z: number, w: number, out: Pose): Pose {
  const l = 1 / Math.sqrt(x * x + y * y + z * z + w * w);
  out.qx = x * l;
  out.qy = y * l;
  out.qz = z * l;
  out.qw = w * l;
  return out;
}

/**
 * Sets out's position to the body origin for centre of mass (cx, cy, cz) and out's (already set)
 * orientation: origin = com - R * localCom.
 */
export function setOriginFromCom(cx: number, cy: number, cz: number, lcx: number, lcy: number, lcz: number, out: Pose): Pose {
  const r = TURNED_COM;
  rotateParts(out.qx, out.qy, out.qz, out.qw, lcx, lcy, lcz, r, 0);
  out.px = cx - r[0];
  out.py = cy - r[1];
  out.pz = cz - r[2];
  return out;
}

/**
 * An upper bound on the angular speed (per unit of alpha) of the nlerp between unit quaternions q0 and
 * q1 over alpha in [0, 1]. For a rotation angle theta between them the nlerp's rate peaks at
 * alpha = 1/2 at 4 tan(theta / 4) (>= theta; 4 at theta = pi versus pi for slerp). With
 * c = |q0 . q1| = cos(theta / 2): tan(theta / 4) = sqrt(1 - c^2) / (1 + c). No trigonometry.
 */
export function nlerpAngularSpeedBound(
  q0x: number,
  q0y: number,
  q0z: number,
  q0w: number,
  q1x: number,
  q1y: number,
  q1z: number,
  q1w: number,
): number {
  let c = q0x * q1x + q0y * q1y + q0z * q1z + q0w * q1w;
  if (c < 0) c = -c;
  if (c > 1) c = 1;
  const s2 = 1 - c * c;
  return s2 > 0 ? (4 * Math.sqrt(s2)) / (1 + c) : 0;
}

/**
 * One body's motion over the sweep interval, described about its centre of mass (a swept transform).
 * Two modes:
 * - velocity ({@link setVelocity}): com(t) = com + v t, q(t) = exp(0.5 w t) q, t in seconds;
 * - endpoints ({@link setEndpoints}): com lerps and q nlerps from (com0, q0) at t = 0 to (com1, q1)
 *   at t = duration (duration 1 makes t the step fraction alpha).
 * The shape is posed at the body origin: origin(t) = com(t) - R(t) localCom.
 * Reusable: keep one per body slot or a few as scratch.
 */
export class SweptMotion {
  /** 0: constant velocity; 1: interpolated endpoints. */
  mode = 0;
  /** Centre of mass at t = 0. */
  comX = 0;
  comY = 0;
  comZ = 0;
  /** Orientation at t = 0. */
  qx = 0;
  qy = 0;
  qz = 0;
  qw = 1;
  /** Linear velocity of the centre of mass (endpoint mode: (com1 - com0) / duration). */
  vx = 0;
  vy = 0;
  vz = 0;
  /** Angular velocity (velocity mode). */
  wx = 0;
  wy = 0;
  wz = 0;
  /** Orientation at t = duration (endpoint mode; on q0's hemisphere). */
  q1x = 0;
  q1y = 0;
  q1z = 0;
  q1w = 1;
  /** Endpoint mode: the time at which the motion reaches (com1, q1). */
  duration = 1;
  /** Centre of mass in the body frame. */
  localComX = 0;
  localComY = 0;
  localComZ = 0;
  /** Upper bound on the angular speed over the motion (rad per unit of t). */
  angularSpeed = 0;

  /** Constant velocities from the centre of mass (com) and orientation q at t = 0. */
  setVelocity(
    comX: number,
    comY: number,
    comZ: number,
    qx: number,
    qy: number,
    qz: number,
    qw: number,
    vx: number,
    vy: number,
    vz: number,
    wx: number,
    wy: number,
    wz: number,
    localComX: number,
    localComY: number,
    localComZ: number,
  ): this {
    this.mode = 0;
    this.comX = comX;
    this.comY = comY;
    this.comZ = comZ;
    this.qx = qx;
    this.qy = qy;
    this.qz = qz;
    this.qw = qw;
    this.vx = vx;
    this.vy = vy;
    this.vz = vz;
    this.wx = wx;
    this.wy = wy;
    this.wz = wz;
    this.localComX = localComX;
    this.localComY = localComY;
    this.localComZ = localComZ;
    this.angularSpeed = Math.sqrt(wx * wx + wy * wy + wz * wz);
    return this;
  }

  /** A swept transform from (com0, q0) at t = 0 to (com1, q1) at t = duration (default 1: t is alpha). */
  setEndpoints(
    com0X: number,
    com0Y: number,
    com0Z: number,
    q0x: number,
    q0y: number,
    q0z: number,
    q0w: number,
    com1X: number,
    com1Y: number,
    com1Z: number,
    q1x: number,
    q1y: number,
    q1z: number,
    q1w: number,
    localComX: number,
    localComY: number,
    localComZ: number,
    duration = 1,
  ): this {
    const inv = duration > 0 ? 1 / duration : 0;
    this.mode = 1;
    this.duration = duration > 0 ? duration : 1;
    this.comX = com0X;
    this.comY = com0Y;
    this.comZ = com0Z;
    this.qx = q0x;
    this.qy = q0y;
    this.qz = q0z;
    this.qw = q0w;
    this.vx = (com1X - com0X) * inv;
    this.vy = (com1Y - com0Y) * inv;
    this.vz = (com1Z - com0Z) * inv;
    this.wx = 0;
    this.wy = 0;
    this.wz = 0;
    const neg = q0x * q1x + q0y * q1y + q0z * q1z + q0w * q1w < 0;
    this.q1x = neg ? -q1x : q1x;
    this.q1y = neg ? -q1y : q1y;
    this.q1z = neg ? -q1z : q1z;
    this.q1w = neg ? -q1w : q1w;
    this.localComX = localComX;
    this.localComY = localComY;
    this.localComZ = localComZ;
    this.angularSpeed = nlerpAngularSpeedBound(q0x, q0y, q0z, q0w, q1x, q1y, q1z, q1w) * inv;
    return this;
  }

  /** A body that does not move, its ORIGIN at (px, py, pz) with orientation q (statics). */
  setStatic(px: number, py: number, pz: number, qx: number, qy: number, qz: number, qw: number): this {
    return this.setVelocity(px, py, pz, qx, qy, qz, qw, 0, 0, 0, 0, 0, 0, 0, 0, 0);
  }

  /** The body ORIGIN pose at time t (endpoint mode: t in [0, duration]; beyond it extrapolates). */
  poseAt(t: number, out: Pose): Pose {
    if (this.mode === 0) {
      if (this.angularSpeed > 0) integrateOrientation(this.qx, this.qy, this.qz, this.qw, this.wx, this.wy, this.wz, t, out);
      else {
        out.qx = this.qx;
        out.qy = this.qy;
        out.qz = this.qz;
        out.qw = this.qw;
      }
    } else {
      const a = t / this.duration,
        b = 1 - a;
      setUnitRotation(b * this.qx + a * this.q1x, b * this.qy + a * this.q1y, b * this.qz + a * this.q1z, b * this.qw + a * this.q1w, out);
    }
    return setOriginFromCom(
      this.comX + this.vx * t,
      this.comY + this.vy * t,
      this.comZ + this.vz * t,
      this.localComX,
      this.localComY,
      this.localComZ,
      out,
    );
  }
}
