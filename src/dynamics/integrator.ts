/**
 * Integration of velocities and poses over a substep (semi-implicit Euler), world-space inverse
 * inertia, and the implicit gyroscopic term. No trigonometry: orientation is integrated with the
 * quaternion derivative and renormalized (deterministic across JS engines).
 */
import type { IntList } from "../collections/intList";
import { MotionType } from "./motionType";
import { rotateSymmetric } from "../math/symmetric";
import { BodyFlag, type BodySet } from "./bodySet";

/** The world's gravity and speed limits (WorldState's fields), for integrateVelocities. */
export interface WorldMotion {
  gx: number;
  gy: number;
  gz: number;
  maxLinearSpeed: number;
  maxAngularSpeed: number;
}

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
  // dt comes in step[0] (a typed array, not a double argument: docs/design.md).
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
 * The speed limit (World.setVelocityLimits): scales the vector v[o..o+2] (a body's linear or angular velocity)
 * down to length `limit` when it is longer; NaN passes unchanged (the non-finite guards catch it). The one
 * clamp: the step's prediction and velocity integration, and World's velocity setters and impulses use it.
 */
export function clampSpeed(v: Float64Array, o: number, limit: number): void {
  const s2 = v[o] * v[o] + v[o + 1] * v[o + 1] + v[o + 2] * v[o + 2];
  if (!(s2 > limit * limit)) return;
  const s = limit / Math.sqrt(s2);
  v[o] *= s;
  v[o + 1] *= s;
  v[o + 2] *= s;
}

/**
 * The motion part of the step's prediction for body i, which reads and writes only body i's typed arrays (so
 * blocks of bodies can run on any thread, src/parallel/): the swept transform's t0 pose, the world inverse
 * inertia, and for a dynamic body the speed limits and the gyroscopic term. `step` holds dt, gravity and the
 * speed limits (StepScratch.stepScalars).
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
    // Impulses are applied as given, so a body can start a step faster than the limits: the gyroscopic step
    // (an implicit Newton step, accurate for |w| dt well below 1) would turn an extreme spin into an overflow.
    clampSpeed(b.vel, i3, step[4]);
    clampSpeed(b.angVel, i3, step[5]);
    integrateGyroscopic(b, i, step);
  }
}

/**
 * Velocity integration over a substep for the awake dynamic bodies: gravity (scaled per body), user
 * forces and torques, damping (Pade approximation v / (1 + c h), Box2D), speed limits. The substep is dt / n; gravity
 * and the speed limits are the world's (`g`): no double arguments (docs/design.md).
 */
export function integrateVelocities(b: BodySet, active: IntList, dt: number, n: number, g: WorldMotion): void {
  const h = dt / n,
    gx = g.gx,
    gy = g.gy,
    gz = g.gz,
    maxLinear = g.maxLinearSpeed,
    maxAngular = g.maxAngularSpeed;
  const vel = b.vel,
    w = b.angVel,
    f = b.force,
    t = b.torque,
    inv = b.invInertiaWorld;
  const ids = active.data;
  for (let k = 0; k < active.count; k++) {
    const i = ids[k];
    if (b.motionType[i] !== MotionType.Dynamic) continue;
    const m = b.invMass[i];
    const i3 = i * 3,
      i6 = i * 6;
    const ld = 1 / (1 + h * b.linDamp[i]);
    const ad = 1 / (1 + h * b.angDamp[i]);
    const gf = m > 0 ? b.gravityFactor[i] * h : 0;
    vel[i3] = (vel[i3] + gf * gx + h * m * f[i3]) * ld;
    vel[i3 + 1] = (vel[i3 + 1] + gf * gy + h * m * f[i3 + 1]) * ld;
    vel[i3 + 2] = (vel[i3 + 2] + gf * gz + h * m * f[i3 + 2]) * ld;
    const tx = t[i3],
      ty = t[i3 + 1],
      tz = t[i3 + 2];
    const wx = (w[i3] + h * (inv[i6] * tx + inv[i6 + 3] * ty + inv[i6 + 4] * tz)) * ad;
    const wy = (w[i3 + 1] + h * (inv[i6 + 3] * tx + inv[i6 + 1] * ty + inv[i6 + 5] * tz)) * ad;
    const wz = (w[i3 + 2] + h * (inv[i6 + 4] * tx + inv[i6 + 5] * ty + inv[i6 + 2] * tz)) * ad;
    w[i3] = wx;
    w[i3 + 1] = wy;
    w[i3 + 2] = wz;
    clampSpeed(vel, i3, maxLinear);
    clampSpeed(w, i3, maxAngular);
    if (!Number.isFinite(vel[i3] + vel[i3 + 1] + vel[i3 + 2] + w[i3] + w[i3 + 1] + w[i3 + 2])) {
      // An extreme force overflowed: stop the body here, before any constraint passes the NaN on.
      vel.fill(0, i3, i3 + 3);
      w.fill(0, i3, i3 + 3);
      f[i3] = f[i3 + 1] = f[i3 + 2] = 0;
      t[i3] = t[i3 + 1] = t[i3 + 2] = 0;
      b.flags[i] |= BodyFlag.NonFinite;
    }
  }
}

/**
 * Pose integration over a substep for every awake moving body: p += h (v + pv), q += h/2 (w + pw, 0) q, normalized,
 * with (pv, pw) the contacts' push-out of overlaps (ContactConstraints.pushVel), cleared here: it moves the body
 * and never becomes velocity. The substep is dt / n (a double argument would be boxed: docs/design.md).
 */
export function integratePositions(b: BodySet, active: IntList, dt: number, n: number, pv: Float64Array, pw: Float64Array): void {
  const h = dt / n;
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
    pos[i3] += h * (vel[i3] + pv[i3]);
    pos[i3 + 1] += h * (vel[i3 + 1] + pv[i3 + 1]);
    pos[i3 + 2] += h * (vel[i3 + 2] + pv[i3 + 2]);
    const wx = w[i3] + pw[i3],
      wy = w[i3 + 1] + pw[i3 + 1],
      wz = w[i3 + 2] + pw[i3 + 2];
    pv[i3] = pv[i3 + 1] = pv[i3 + 2] = 0;
    pw[i3] = pw[i3 + 1] = pw[i3 + 2] = 0;
    if (wx === 0 && wy === 0 && wz === 0) continue;
    const qx = rot[i4],
      qy = rot[i4 + 1],
      qz = rot[i4 + 2],
      qw = rot[i4 + 3];
    let nx = qx + hh * (wx * qw + wy * qz - wz * qy);
    let ny = qy + hh * (wy * qw + wz * qx - wx * qz);
    let nz = qz + hh * (wz * qw + wx * qy - wy * qx);
    let nw = qw + hh * (-wx * qx - wy * qy - wz * qz);
    let l2 = nx * nx + ny * ny + nz * nz + nw * nw;
    if (!(l2 < Infinity)) {
      // A spin past ~1e155 rad/s (a body flung by a solver fed 1e30 m inputs) overflows the squared length
      // while every component is finite: 1 / sqrt then gives 0, a zero quaternion that no setter accepts and the
      // non-finite guard does not see. Scale by the largest component first; NaN stays NaN for the guard.
      const m = Math.max(Math.abs(nx), Math.abs(ny), Math.abs(nz), Math.abs(nw));
      nx /= m;
      ny /= m;
      nz /= m;
      nw /= m;
      l2 = nx * nx + ny * ny + nz * nz + nw * nw;
    }
    const l = 1 / Math.sqrt(l2);
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
