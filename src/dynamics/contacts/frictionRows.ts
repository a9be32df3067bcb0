/**
 * The friction rows of the contact constraints (contactConstraints.ts): per contact the tangent pair and its
 * Coulomb disc, and the resting test that decides where the relax pass solves them again.
 */
import type { BodySet } from "../bodySet";
import type { SolverSettings } from "../solverSettings";
import { fr, projectFriction } from "./frictionProjection";
import {
  type ConstraintArrays,
  FM,
  F_T12M,
  F_T1M,
  F_T2M,
  MF,
  M_COUNT,
  M_FRICTION,
  M_STATIC_FRICTION,
  M_T1X,
  M_T2X,
  PT,
  P_NI,
  P_RAX,
  P_RBX,
  P_STICK,
  P_T1I,
  P_T2I,
} from "./constraintLayout";

/**
 * The friction rows of manifold i: per contact, the tangent pair with its 2x2 effective mass, limited to the
 * Coulomb disc of radius mu * (this contact's normal impulse). Coulomb with two coefficients: the static mu for a
 * contact that sticks (or touches anew) and the dynamic one for a contact that slides (P_STICK, set by the relax
 * pass from the tangential speed its solve left). Reads and writes the bodies' velocities; integers only as
 * arguments (V8 boxes doubles passed to a call it does not inline). Odd `flip`: the contacts in reverse order.
 */
export function frictionRows(bodies: BodySet, k4: ConstraintArrays, bi: Int32Array, i: number, flip: number): void {
  const m = i * MF;
  const mf = k4.mf,
    pt = k4.pt,
    fm = k4.fm;
  const n = mf[m + M_COUNT];
  const a = bi[i * 2],
    b = bi[i * 2 + 1];
  const invMass = bodies.invMass,
    I = bodies.invInertiaWorld,
    vel = bodies.vel,
    w = bodies.angVel;
  const mu = mf[m + M_FRICTION],
    muS = mf[m + M_STATIC_FRICTION];
  const t1x = mf[m + M_T1X], t1y = mf[m + M_T1X + 1], t1z = mf[m + M_T1X + 2];
  const t2x = mf[m + M_T2X], t2y = mf[m + M_T2X + 1], t2z = mf[m + M_T2X + 2];
  const a3 = a * 3,
    b3 = b * 3,
    a6 = a * 6,
    b6 = b * 6;
  const mA = invMass[a],
    mB = invMass[b];
  const iA0 = I[a6], iA1 = I[a6 + 1], iA2 = I[a6 + 2], iA3 = I[a6 + 3], iA4 = I[a6 + 4], iA5 = I[a6 + 5];
  const iB0 = I[b6], iB1 = I[b6 + 1], iB2 = I[b6 + 2], iB3 = I[b6 + 3], iB4 = I[b6 + 4], iB5 = I[b6 + 5];
  let vax = vel[a3], vay = vel[a3 + 1], vaz = vel[a3 + 2];
  let wax = w[a3], way = w[a3 + 1], waz = w[a3 + 2];
  let vbx = vel[b3], vby = vel[b3 + 1], vbz = vel[b3 + 2];
  let wbx = w[b3], wby = w[b3 + 1], wbz = w[b3 + 2];
  // In the order of the normal rows (ContactConstraints.substep).
  const first = flip === 1 ? (n | 0) - 1 : 0,
    dk = flip === 1 ? -1 : 1;
  for (let kk = 0, k = first; kk < n; kk++, k += dk) {
    const pi = i * 4 + k, po = pi * PT, fo = pi * FM;
    const o1 = pt[po + P_T1I],
      o2 = pt[po + P_T2I];
    const maxF = (pt[po + P_STICK] === 1 ? muS : mu) * pt[po + P_NI];
    if (maxF === 0 && o1 === 0 && o2 === 0) {
      // No normal force and no friction held: nothing to do (speculative contacts at rest).
      continue;
    }
    const rax = pt[po + P_RAX], ray = pt[po + P_RAX + 1], raz = pt[po + P_RAX + 2];
    const rbx = pt[po + P_RBX], rby = pt[po + P_RBX + 1], rbz = pt[po + P_RBX + 2];
    const dvx = vbx + (wby * rbz - wbz * rby) - vax - (way * raz - waz * ray);
    const dvy = vby + (wbz * rbx - wbx * rbz) - vay - (waz * rax - wax * raz);
    const dvz = vbz + (wbx * rby - wby * rbx) - vaz - (wax * ray - way * rax);
    const v1 = dvx * t1x + dvy * t1y + dvz * t1z;
    const v2 = dvx * t2x + dvy * t2y + dvz * t2z;
    const m11 = fm[fo + F_T1M],
      m12 = fm[fo + F_T12M],
      m22 = fm[fo + F_T2M];
    let n1 = o1 - (m11 * v1 + m12 * v2);
    let n2 = o2 - (m12 * v1 + m22 * v2);
    const l2 = n1 * n1 + n2 * n2;
    if (l2 > maxF * maxF) {
      fr[0] = n1;
      fr[1] = n2;
      fr[2] = maxF;
      projectFriction(fr, fm, fo);
      n1 = fr[0];
      n2 = fr[1];
    }
    pt[po + P_T1I] = n1;
    pt[po + P_T2I] = n2;
    const d1 = n1 - o1,
      d2 = n2 - o2;
    const px = d1 * t1x + d2 * t2x, py = d1 * t1y + d2 * t2y, pz = d1 * t1z + d2 * t2z;
    vax -= mA * px; vay -= mA * py; vaz -= mA * pz;
    vbx += mB * px; vby += mB * py; vbz += mB * pz;
    let cx = ray * pz - raz * py, cy = raz * px - rax * pz, cz = rax * py - ray * px;
    wax -= iA0 * cx + iA3 * cy + iA4 * cz;
    way -= iA3 * cx + iA1 * cy + iA5 * cz;
    waz -= iA4 * cx + iA5 * cy + iA2 * cz;
    cx = rby * pz - rbz * py; cy = rbz * px - rbx * pz; cz = rbx * py - rby * px;
    wbx += iB0 * cx + iB3 * cy + iB4 * cz;
    wby += iB3 * cx + iB1 * cy + iB5 * cz;
    wbz += iB4 * cx + iB5 * cy + iB2 * cz;
  }
  vel[a3] = vax; vel[a3 + 1] = vay; vel[a3 + 2] = vaz;
  w[a3] = wax; w[a3 + 1] = way; w[a3 + 2] = waz;
  vel[b3] = vbx; vel[b3 + 1] = vby; vel[b3 + 2] = vbz;
  w[b3] = wbx; w[b3 + 1] = wby; w[b3 + 2] = wbz;
}

/**
 * Whether bodies a and b both move slower than the resting speed (SolverSettings.restingSpeed) at every point (linear speed, and angular
 * speed times the body's radius: the sleep test's measure).
 */
export function resting(bodies: BodySet, a: number, b: number, settings: SolverSettings): boolean {
  const v = bodies.vel,
    w = bodies.angVel,
    r = bodies.radius;
  const lim = settings.restingSpeed * settings.restingSpeed;
  for (let s = 0; s < 2; s++) {
    const i = s === 0 ? a : b,
      i3 = i * 3;
    if (v[i3] * v[i3] + v[i3 + 1] * v[i3 + 1] + v[i3 + 2] * v[i3 + 2] > lim) return false;
    if ((w[i3] * w[i3] + w[i3 + 1] * w[i3 + 1] + w[i3 + 2] * w[i3 + 2]) * r[i] * r[i] > lim) return false;
  }
  return true;
}
