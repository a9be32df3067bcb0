/**
 * The impact pre-pass's shared impulse (contactConstraints.ts, restitution.ts): one normal impulse at the centroid
 * of a manifold's contacts, shared equally between them, so a face hit square stays square; and the impulse at a
 * contact's lever arms that it and the rebound apply.
 */
import type { BodySet } from "../bodySet";
import { type ConstraintArrays, MF, M_CENTROID_MASS, M_NX, PT, P_NI, P_RAX, P_RBX } from "./constraintLayout";

/** Normal velocities of a manifold's contacts before the impact pre-pass (shareCentroidImpulse). */
export const preVn = new Float64Array(4);
/** shareCentroidImpulse's double in (the velocity offset) and out (the share). */
export const centroidIO = new Float64Array(2);
/** The impulse applyImpulse applies (a double vector through a typed array: V8 boxes double arguments). */
export const contactImpulse = new Float64Array(3);

/**
 * Applies -K_c^-1 (mean normal velocity of manifold i's n contacts + centroidIO[0]) along the normal at the
 * contacts' centroid (K_c: M_CENTROID_MASS), if it pushes, as equal shares at each contact (the same force and
 * torque), adding each share to the contact's normal impulse. Writes the contacts' normal velocities before it
 * to preVn and the share (0 if none) to centroidIO[1]. Doubles go through centroidIO, not arguments or the
 * return value: V8 boxes those when the call is not inlined.
 */
export function shareCentroidImpulse(bodies: BodySet, a: number, b: number, k4: ConstraintArrays, i: number, n: number): void {
  const vel = bodies.vel,
    w = bodies.angVel;
  const mf = k4.mf,
    pt = k4.pt,
    m = i * MF;
  const nx = mf[m + M_NX],
    ny = mf[m + M_NX + 1],
    nz = mf[m + M_NX + 2];
  const a3 = a * 3,
    b3 = b * 3;
  let vsum = 0;
  for (let k = 0; k < n; k++) {
    const po = (i * 4 + k) * PT;
    const rax = pt[po + P_RAX], ray = pt[po + P_RAX + 1], raz = pt[po + P_RAX + 2];
    const rbx = pt[po + P_RBX], rby = pt[po + P_RBX + 1], rbz = pt[po + P_RBX + 2];
    const vn =
      (vel[b3] + (w[b3 + 1] * rbz - w[b3 + 2] * rby) - vel[a3] - (w[a3 + 1] * raz - w[a3 + 2] * ray)) * nx +
      (vel[b3 + 1] + (w[b3 + 2] * rbx - w[b3] * rbz) - vel[a3 + 1] - (w[a3 + 2] * rax - w[a3] * raz)) * ny +
      (vel[b3 + 2] + (w[b3] * rby - w[b3 + 1] * rbx) - vel[a3 + 2] - (w[a3] * ray - w[a3 + 1] * rax)) * nz;
    preVn[k] = vn;
    vsum += vn;
  }
  const lc = -mf[m + M_CENTROID_MASS] * (vsum / n + centroidIO[0]);
  centroidIO[1] = 0;
  if (!(lc > 0)) return;
  const share = lc / n;
  centroidIO[1] = share;
  contactImpulse[0] = share * nx;
  contactImpulse[1] = share * ny;
  contactImpulse[2] = share * nz;
  for (let k = 0; k < n; k++) {
    const po = (i * 4 + k) * PT;
    pt[po + P_NI] += share;
    applyImpulse(bodies.invMass, bodies.invInertiaWorld, vel, w, a, b, pt, po + P_RAX, contactImpulse);
  }
}

/** Applies impulse P (p[0..2]) at the lever arms rA, rB in c[o..o+5]: A gets -P, B gets +P. */
export function applyImpulse(
  invMass: Float64Array,
  inv: Float64Array,
  vel: Float64Array,
  w: Float64Array,
  a: number,
  b: number,
  c: Float64Array,
  co: number,
  p: Float64Array,
): void {
  const px = p[0],
    py = p[1],
    pz = p[2];
  const rax = c[co],
    ray = c[co + 1],
    raz = c[co + 2],
    rbx = c[co + 3],
    rby = c[co + 4],
    rbz = c[co + 5];
  const mA = invMass[a],
    mB = invMass[b];
  const a3 = a * 3,
    b3 = b * 3;
  vel[a3] -= mA * px;
  vel[a3 + 1] -= mA * py;
  vel[a3 + 2] -= mA * pz;
  vel[b3] += mB * px;
  vel[b3 + 1] += mB * py;
  vel[b3 + 2] += mB * pz;
  let cx = ray * pz - raz * py,
    cy = raz * px - rax * pz,
    cz = rax * py - ray * px;
  let o = a * 6;
  w[a3] -= inv[o] * cx + inv[o + 3] * cy + inv[o + 4] * cz;
  w[a3 + 1] -= inv[o + 3] * cx + inv[o + 1] * cy + inv[o + 5] * cz;
  w[a3 + 2] -= inv[o + 4] * cx + inv[o + 5] * cy + inv[o + 2] * cz;
  cx = rby * pz - rbz * py;
  cy = rbz * px - rbx * pz;
  cz = rbx * py - rby * px;
  o = b * 6;
  w[b3] += inv[o] * cx + inv[o + 3] * cy + inv[o + 4] * cz;
  w[b3 + 1] += inv[o + 3] * cx + inv[o + 1] * cy + inv[o + 5] * cz;
  w[b3 + 2] += inv[o + 4] * cx + inv[o + 5] * cy + inv[o + 2] * cz;
}
