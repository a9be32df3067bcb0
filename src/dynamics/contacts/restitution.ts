/**
 * Restitution after the substeps (Box2D v3's b2ApplyRestitution), over the contact constraints of the step.
 */
import type { BodySet } from "../bodySet";
import type { ContactCache } from "./contactCache";
import { applyImpulse, centroidIO, contactImpulse, shareCentroidImpulse } from "./centroidImpulse";
import { fr, projectFriction } from "./frictionProjection";
import {
  CONTACT,
  C_IANX,
  C_IBNX,
  C_MAX_NORMAL_IMPULSE,
  C_NORMAL_IMPULSE,
  C_NORMAL_MASS,
  C_PX,
  C_RAX,
  C_RBX,
  C_REL_VEL,
  C_STICK,
  C_T12_MASS,
  C_T1_MASS,
  C_T2_MASS,
  C_TOTAL_IMPULSE,
  HEADER,
  H_COUNT,
  H_FRICTION,
  H_FROZEN,
  H_IMPACT,
  H_NX,
  H_RESTITUTION,
  H_REST_THRESHOLD,
  H_STATIC_FRICTION,
  H_T1X,
  H_T2X,
} from "./manifoldLayout";
import { PIN_A, PIN_B, PIN_NONE, pinnedMass, pinnedNormalMass, saveVelocity, type PinnedContacts } from "./pinnedContacts";
import { routeIO, type ShockPropagation } from "./shockPropagation";

/** Each contact's share of the centroid rebound impulse. */
const restShare = new Float64Array(4);

/**
 * Restitution after the substeps (Box2D v3 b2ApplyRestitution): contacts that were approaching faster
 * than the threshold and pushed during the step get the normal velocity -e * (approach velocity).
 */
export function applyRestitution(cache: ContactCache, bodies: BodySet, pins: PinnedContacts, shock: ShockPropagation): void {
  const s = cache;
  const count = s.count;
  const hd = s.header,
    c = s.contacts,
    bi = s.bodyIndex;
  const invMass = bodies.invMass,
    inv = bodies.invInertiaWorld,
    vel = bodies.vel,
    w = bodies.angVel;
  for (let i = 0; i < count; i++) {
    const o = i * HEADER;
    const e = hd[o + H_RESTITUTION];
    if (e === 0) continue;
    const threshold = hd[o + H_REST_THRESHOLD];
    const a = bi[i * 2],
      b = bi[i * 2 + 1];
    const n = hd[o + H_COUNT];
    const nx = hd[o + H_NX],
      ny = hd[o + H_NX + 1],
      nz = hd[o + H_NX + 2];
    const t1x = hd[o + H_T1X], t1y = hd[o + H_T1X + 1], t1z = hd[o + H_T1X + 2];
    const t2x = hd[o + H_T2X], t2y = hd[o + H_T2X + 1], t2z = hd[o + H_T2X + 2];
    const mu = hd[o + H_FRICTION],
      muS = hd[o + H_STATIC_FRICTION];
    restShare[0] = restShare[1] = restShare[2] = restShare[3] = 0;
    // A pinned body takes no part of the rebound along its pin either (PinnedContacts.pinnedNormals), the rest in
    // full. A frozen manifold ignores its pin (see solve).
    const frozen = hd[o + H_FROZEN];
    let rf = 0, rmx = 0, rmy = 0, rmz = 0;
    const pin = pins.pinning && frozen === 0 ? pins.state[i] : PIN_NONE;
    const pinned = pin === PIN_A ? a : pin === PIN_B ? b : -1;
    if (pinned >= 0) pins.pinnedNormals(i, hd, o);
    if (hd[o + H_IMPACT] === 1 && pinned < 0) {
      // The rebound of a manifold meeting an impact starts as one impulse at the centroid, shared equally (the
      // impact pre-pass of solve, for the same reason: contact by contact, a square rebound would spin).
      let rsum = 0,
        q = 0;
      for (let k = 0; k < n; k++) {
        const co = (i * 4 + k) * CONTACT;
        const rel = c[co + C_REL_VEL];
        if (rel > -threshold || c[co + C_MAX_NORMAL_IMPULSE] === 0) continue;
        q++;
        rsum += rel;
      }
      centroidIO[0] = (e * rsum) / n;
      centroidIO[1] = 0;
      if (q === n) shareCentroidImpulse(bodies, a, b, c, i, n, hd, o);
      const share = centroidIO[1];
      for (let k = 0; k < n; k++) {
        restShare[k] = share;
        c[(i * 4 + k) * CONTACT + C_TOTAL_IMPULSE] += share;
      }
    }
    for (let k = 0; k < n; k++) {
      const co = (i * 4 + k) * CONTACT;
      const rel = c[co + C_REL_VEL];
      if (rel > -threshold || c[co + C_MAX_NORMAL_IMPULSE] === 0) continue;
      const rax = c[co + C_RAX],
        ray = c[co + C_RAX + 1],
        raz = c[co + C_RAX + 2];
      const rbx = c[co + C_RBX],
        rby = c[co + C_RBX + 1],
        rbz = c[co + C_RBX + 2];
      const a3 = a * 3,
        b3 = b * 3;
      const dvx = vel[b3] + (w[b3 + 1] * rbz - w[b3 + 2] * rby) - vel[a3] - (w[a3 + 1] * raz - w[a3 + 2] * ray);
      const dvy = vel[b3 + 1] + (w[b3 + 2] * rbx - w[b3] * rbz) - vel[a3 + 1] - (w[a3 + 2] * rax - w[a3] * raz);
      const dvz = vel[b3 + 2] + (w[b3] * rby - w[b3 + 1] * rbx) - vel[a3 + 2] - (w[a3] * ray - w[a3 + 1] * rax);
      let vn = dvx * nx + dvy * ny + dvz * nz;
      // A frozen pair's rebound is the upper body's alone, off a lower body taken as fixed (see solve).
      if (frozen === 1) vn += (vel[a3] + (w[a3 + 1] * raz - w[a3 + 2] * ray)) * nx + (vel[a3 + 1] + (w[a3 + 2] * rax - w[a3] * raz)) * ny + (vel[a3 + 2] + (w[a3] * ray - w[a3 + 1] * rax)) * nz;
      else if (frozen === 2) vn -= (vel[b3] + (w[b3 + 1] * rbz - w[b3 + 2] * rby)) * nx + (vel[b3 + 1] + (w[b3 + 2] * rbx - w[b3] * rbz)) * ny + (vel[b3 + 2] + (w[b3] * rby - w[b3 + 1] * rbx)) * nz;
      const old = c[co + C_NORMAL_IMPULSE];
      let nm = c[co + C_NORMAL_MASS];
      if (pinned >= 0) {
        pinnedNormalMass(c, co, invMass, a, b, hd, o);
        nm = pinnedMass[0];
      }
      let lambda = -nm * (vn + e * rel);
      let next = old + lambda;
      if (next < 0) next = 0;
      lambda = next - old;
      c[co + C_NORMAL_IMPULSE] = next;
      c[co + C_TOTAL_IMPULSE] += lambda;
      if (lambda !== 0 || restShare[k] > 0) {
        // Friction acts within the rebound too: up to mu times the rebound's normal impulse, against the
        // tangential sliding that is left (Coulomb over the whole impact, restitution included). Not added
        // to the warm-start impulses: the rebound is not sustained.
        const maxF = (c[co + C_STICK] === 1 ? muS : mu) * (lambda + restShare[k]);
        const v1 = dvx * t1x + dvy * t1y + dvz * t1z,
          v2 = dvx * t2x + dvy * t2y + dvz * t2z;
        fr[0] = -(c[co + C_T1_MASS] * v1 + c[co + C_T12_MASS] * v2);
        fr[1] = -(c[co + C_T12_MASS] * v1 + c[co + C_T2_MASS] * v2);
        fr[2] = maxF;
        if (fr[0] * fr[0] + fr[1] * fr[1] > maxF * maxF) projectFriction(fr, c, co);
        const f1 = fr[0],
          f2 = fr[1];
        const ln = frozen === 0 ? lambda : 0;
        contactImpulse[0] = ln * nx + f1 * t1x + f2 * t2x;
        contactImpulse[1] = ln * ny + f1 * t1y + f2 * t2y;
        contactImpulse[2] = ln * nz + f1 * t1z + f2 * t2z;
        if (pinned >= 0) saveVelocity(bodies, pinned);
        applyImpulse(invMass, inv, vel, w, a, b, c, co + C_RAX, contactImpulse);
        if (pinned >= 0) pins.releaseAlongAxis(bodies, pinned, i);
        if (frozen !== 0) {
          // The normal part moves the upper body only and goes down the stack (route).
          if (frozen === 1) {
            const lb = lambda * invMass[b];
            vel[b3] += lb * nx; vel[b3 + 1] += lb * ny; vel[b3 + 2] += lb * nz;
            w[b3] += lambda * c[co + C_IBNX]; w[b3 + 1] += lambda * c[co + C_IBNX + 1]; w[b3 + 2] += lambda * c[co + C_IBNX + 2];
          } else {
            const la = lambda * invMass[a];
            vel[a3] -= la * nx; vel[a3 + 1] -= la * ny; vel[a3 + 2] -= la * nz;
            w[a3] -= lambda * c[co + C_IANX]; w[a3 + 1] -= lambda * c[co + C_IANX + 1]; w[a3 + 2] -= lambda * c[co + C_IANX + 2];
          }
          rf += lambda;
          rmx += lambda * c[co + C_PX]; rmy += lambda * c[co + C_PX + 1]; rmz += lambda * c[co + C_PX + 2];
        }
      }
    }
    if (frozen !== 0 && rf !== 0) {
      routeIO[0] = rf; routeIO[1] = rmx; routeIO[2] = rmy; routeIO[3] = rmz;
      shock.route(cache, i);
    }
  }
}
