/**
 * Integration of velocities and poses over a substep (semi-implicit Euler), world-space inverse
 * inertia, and the implicit gyroscopic term. No trigonometry: orientation is integrated with the
 * quaternion derivative and renormalized (deterministic across JS engines).
 */
import type { IntList } from "../collections/intList";
import { MotionType } from "./motionType";
import { rotateSymmetric } from "../math/symmetric";
import { BodyFlag, type BodySet } from "./bodySet";

/** invInertiaWorld = R invInertiaLocal R^T for body i. */
export function updateWorldInertia(b: BodySet, i: number): void {
  rotateSymmetric(b.invInertiaLocal, i * 6, b.rot, i * 4, b.invInertiaWorld, i * 6);
}

/**
 * Implicit gyroscopic torque for one step (Catto, "Numerical Methods", GDC 2015): in the body frame,
 * one Newton step of I (w2 - w1) + dt w2 x (I w2) = 0. Keeps spinning bodies stable where the explicit
 * term would add energy. Skipped for bodies with an infinite inertia axis. `step[0]` is the step length.
 */
export function integrateGyroscopic(b: BodySet, i: number, step: Float64Array): void {
  // dt comes in step[0] (a typed array, not a double argument: V8 would box that on every call).
  const dt = step[0];
  const I = b.inertiaLocal,
    io = i * 6;
  const ixx = I[io],
    iyy = I[io + 1],
    izz = I[io + 2],
    ixy = I[io + 3],
    ixz = I[io + 4],
    iyz = I[io + 5];
  if (ixx === 0 || iyy === 0 || izz === 0) return;
  const q = b.rot,
    qo = i * 4;
  const qx = -q[qo],
    qy = -q[qo + 1],
    qz = -q[qo + 2],
    qw = q[qo + 3];
  const w = b.angVel,
    wo = i * 3;
  let vx = w[wo],
    vy = w[wo + 1],
    vz = w[wo + 2];
  if (vx === 0 && vy === 0 && vz === 0) return;
  // to body frame
  let tx = 2 * (qy * vz - qz * vy),
    ty = 2 * (qz * vx - qx * vz),
    tz = 2 * (qx * vy - qy * vx);
  const bx = vx + qw * tx + (qy * tz - qz * ty);
  const by = vy + qw * ty + (qz * tx - qx * tz);
  const bz = vz + qw * tz + (qx * ty - qy * tx);
  // L = I w
  const lx = ixx * bx + ixy * by + ixz * bz;
  const ly = ixy * bx + iyy * by + iyz * bz;
  const lz = ixz * bx + iyz * by + izz * bz;
  // residual f = dt * w x L
  const fx = dt * (by * lz - bz * ly);
  const fy = dt * (bz * lx - bx * lz);
  const fz = dt * (bx * ly - by * lx);
  // Jacobian J = I + dt (skew(w) I - skew(L))
  // skew(w) I: row r = w x (column of I) -> compute S = skew(w)*I
  const s00 = by * ixz - bz * ixy,
    s01 = by * iyz - bz * iyy,
    s02 = by * izz - bz * iyz;
  const s10 = bz * ixx - bx * ixz,
    s11 = bz * ixy - bx * iyz,
    s12 = bz * ixz - bx * izz;
  const s20 = bx * ixy - by * ixx,
    s21 = bx * iyy - by * ixy,
    s22 = bx * iyz - by * ixz;
  const j00 = ixx + dt * s00,
    j01 = ixy + dt * (s01 + lz),
    j02 = ixz + dt * (s02 - ly);
  const j10 = ixy + dt * (s10 - lz),
    j11 = iyy + dt * s11,
    j12 = iyz + dt * (s12 + lx);
  const j20 = ixz + dt * (s20 + ly),
    j21 = iyz + dt * (s21 - lx),
    j22 = izz + dt * s22;
  // solve J d = f (Cramer's rule)
  const c00 = j11 * j22 - j12 * j21,
    c01 = j12 * j20 - j10 * j22,
    c02 = j10 * j21 - j11 * j20;
  const det = j00 * c00 + j01 * c01 + j02 * c02;
  if (!(Math.abs(det) > 1e-30)) return;
  const id = 1 / det;
  const dx = (fx * c00 + fy * (j02 * j21 - j01 * j22) + fz * (j01 * j12 - j02 * j11)) * id;
  const dy = (fx * c01 + fy * (j00 * j22 - j02 * j20) + fz * (j02 * j10 - j00 * j12)) * id;
  const dz = (fx * c02 + fy * (j01 * j20 - j00 * j21) + fz * (j00 * j11 - j01 * j10)) * id;
  vx = bx - dx;
  vy = by - dy;
  vz = bz - dz;
  // The gyroscopic torque does no work and keeps |L| in the body frame; one Newton step is accurate only for
  // |w| dt well below 1, and beyond that it can grow |L| step after step until it overflows (a 0.5 s step of a
  // fast spin). A step that grows |L| (or overflowed) is rejected: the old velocity is kept.
  const nx = ixx * vx + ixy * vy + ixz * vz,
    ny = ixy * vx + iyy * vy + iyz * vz,
    nz = ixz * vx + iyz * vy + izz * vz;
  if (!(nx * nx + ny * ny + nz * nz <= (lx * lx + ly * ly + lz * lz) * (1 + 1e-9))) return;
  // back to world frame
  const px = -qx,
    py = -qy,
    pz = -qz;
  tx = 2 * (py * vz - pz * vy);
  ty = 2 * (pz * vx - px * vz);
  tz = 2 * (px * vy - py * vx);
  w[wo] = vx + qw * tx + (py * tz - pz * ty);
  w[wo + 1] = vy + qw * ty + (pz * tx - px * tz);
  w[wo + 2] = vz + qw * tz + (px * ty - py * tx);
}

/**
 * Scales body i's linear and angular velocity down to the speed limits step[4] (m/s) and step[5] (rad/s).
 * Impulses are applied as given, so a body can start a step faster than the limits: the gyroscopic step
 * (an implicit Newton step, accurate for |w| dt well below 1) would turn an extreme spin into an overflow.
 */
export function clampSpeeds(b: BodySet, i: number, step: Float64Array): void {
  const i3 = i * 3;
  for (let k = 0; k < 2; k++) {
    const v = k === 0 ? b.vel : b.angVel;
    const limit = step[4 + k];
    const s2 = v[i3] * v[i3] + v[i3 + 1] * v[i3 + 1] + v[i3 + 2] * v[i3 + 2];
    if (!(s2 > limit * limit)) continue;
    const s = limit / Math.sqrt(s2);
    v[i3] *= s;
    v[i3 + 1] *= s;
    v[i3 + 2] *= s;
  }
}

/**
 * The motion part of the step's prediction for body i, which reads and writes only body i's typed arrays (so
 * blocks of bodies can run on any thread, src/parallel/): the swept transform's t0 pose, the world inverse
 * inertia, and for a dynamic body the speed limits and the gyroscopic term. `step` holds dt, gravity and the
 * speed limits (WorldState.stepScalars).
 */
export function predictMotion(b: BodySet, i: number, step: Float64Array): void {
  const i3 = i * 3,
    i4 = i * 4;
  b.pos0[i3] = b.pos[i3];
  b.pos0[i3 + 1] = b.pos[i3 + 1];
  b.pos0[i3 + 2] = b.pos[i3 + 2];
  b.rot0[i4] = b.rot[i4];
  b.rot0[i4 + 1] = b.rot[i4 + 1];
  b.rot0[i4 + 2] = b.rot[i4 + 2];
  b.rot0[i4 + 3] = b.rot[i4 + 3];
  updateWorldInertia(b, i);
  if (b.motionType[i] === MotionType.Dynamic) {
    clampSpeeds(b, i, step);
    integrateGyroscopic(b, i, step);
  }
}

/**
 * Velocity integration over a substep for the awake dynamic bodies: gravity (scaled per body), user
 * forces and torques, damping (Pade approximation v / (1 + c h), Box2D), speed limits.
 */
export function integrateVelocities(
  b: BodySet,
  active: IntList,
  h: number,
  gx: number,
  gy: number,
  gz: number,
  maxLinear: number,
  maxAngular: number,
): void {
  const vel = b.vel,
    w = b.angVel,
    f = b.force,
    t = b.torque,
    inv = b.invInertiaWorld;
  const ids = active.data;
  const maxL2 = maxLinear * maxLinear,
    maxA2 = maxAngular * maxAngular;
  for (let k = 0; k < active.count; k++) {
    const i = ids[k];
    if (b.motionType[i] !== MotionType.Dynamic) continue;
    const m = b.invMass[i];
    const i3 = i * 3,
      i6 = i * 6;
    const ld = 1 / (1 + h * b.linDamp[i]);
    const ad = 1 / (1 + h * b.angDamp[i]);
    const gf = m > 0 ? b.gravityFactor[i] * h : 0;
    let vx = (vel[i3] + gf * gx + h * m * f[i3]) * ld;
    let vy = (vel[i3 + 1] + gf * gy + h * m * f[i3 + 1]) * ld;
    let vz = (vel[i3 + 2] + gf * gz + h * m * f[i3 + 2]) * ld;
    const tx = t[i3],
      ty = t[i3 + 1],
      tz = t[i3 + 2];
    let wx = (w[i3] + h * (inv[i6] * tx + inv[i6 + 3] * ty + inv[i6 + 4] * tz)) * ad;
    let wy = (w[i3 + 1] + h * (inv[i6 + 3] * tx + inv[i6 + 1] * ty + inv[i6 + 5] * tz)) * ad;
    let wz = (w[i3 + 2] + h * (inv[i6 + 4] * tx + inv[i6 + 5] * ty + inv[i6 + 2] * tz)) * ad;
    const l2 = vx * vx + vy * vy + vz * vz;
    if (l2 > maxL2) {
      const s = maxLinear / Math.sqrt(l2);
      vx *= s;
      vy *= s;
      vz *= s;
    }
    const a2 = wx * wx + wy * wy + wz * wz;
    if (a2 > maxA2) {
      const s = maxAngular / Math.sqrt(a2);
      wx *= s;
      wy *= s;
      wz *= s;
    }
    if (!Number.isFinite(vx + vy + vz + wx + wy + wz)) {
      // An extreme force overflowed: stop the body here, before any constraint passes the NaN on.
      vx = vy = vz = wx = wy = wz = 0;
      f[i3] = f[i3 + 1] = f[i3 + 2] = 0;
      t[i3] = t[i3 + 1] = t[i3 + 2] = 0;
      b.flags[i] |= BodyFlag.NonFinite;
    }
    vel[i3] = vx;
    vel[i3 + 1] = vy;
    vel[i3 + 2] = vz;
    w[i3] = wx;
    w[i3 + 1] = wy;
    w[i3 + 2] = wz;
  }
}

/** Pose integration over a substep for every awake moving body: p += h v, q += h/2 (w, 0) q, normalized. */
export function integratePositions(b: BodySet, active: IntList, h: number): void {
  const pos = b.pos,
    rot = b.rot,
    vel = b.vel,
    w = b.angVel;
  const ids = active.data;
  const hh = 0.5 * h;
  for (let k = 0; k < active.count; k++) {
    const i = ids[k];
    const i3 = i * 3,
      i4 = i * 4;
    pos[i3] += h * vel[i3];
    pos[i3 + 1] += h * vel[i3 + 1];
    pos[i3 + 2] += h * vel[i3 + 2];
    const wx = w[i3],
      wy = w[i3 + 1],
      wz = w[i3 + 2];
    if (wx === 0 && wy === 0 && wz === 0) continue;
    const qx = rot[i4],
      qy = rot[i4 + 1],
      qz = rot[i4 + 2],
      qw = rot[i4 + 3];
    let nx = qx + hh * (wx * qw + wy * qz - wz * qy);
    let ny = qy + hh * (wy * qw + wz * qx - wx * qz);
    let nz = qz + hh * (wz * qw + wx * qy - wy * qx);
    let nw = qw + hh * (-wx * qx - wy * qy - wz * qz);
    const l = 1 / Math.sqrt(nx * nx + ny * ny + nz * nz + nw * nw);
    nx *= l;
    ny *= l;
    nz *= l;
    nw *= l;
    rot[i4] = nx;
    rot[i4 + 1] = ny;
    rot[i4 + 2] = nz;
    rot[i4 + 3] = nw;
  }
}
