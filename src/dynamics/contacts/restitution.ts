/**
 * Restitution after the substeps (Box2D v3's b2ApplyRestitution), over the contact constraints of the step.
 */
import type { BodySet } from "../bodySet";
import type { ContactCache } from "./contactCache";
import { applyImpulse, centroidIO, contactImpulse, shareCentroidImpulse } from "./centroidImpulse";
import { fr, projectFriction } from "./frictionProjection";
import {
  type ConstraintArrays,
  FM,
  F_T12M,
  F_T1M,
  F_T2M,
  GM,
  G_TOTAL,
  JN,
  J_IANX,
  J_IBNX,
  J_MAXNI,
  J_NM,
  J_RELVEL,
  MF,
  M_COUNT,
  M_FRICTION,
  M_FROZEN,
  M_IMPACT,
  M_NX,
  M_STATIC_FRICTION,
  M_T1X,
  M_T2X,
  PT,
  P_NI,
  P_RAX,
  P_RBX,
  P_STICK,
} from "./constraintLayout";
import { CONTACT, C_PX, HEADER, H_REST_THRESHOLD, H_RESTITUTION } from "./manifoldLayout";
import { PIN_A, PIN_B, PIN_NONE, pinnedMass, pinnedNormalMass, saveVelocity, type PinnedContacts } from "./pinnedContacts";
import { routeIO, type ShockPropagation } from "./shockPropagation";

/** Each contact's share of the centroid rebound impulse. */
const restShare = new Float64Array(4);

/**
 * Restitution after the substeps (Box2D v3 b2ApplyRestitution): contacts that were approaching faster
 * than the threshold and pushed during the step get the normal velocity -e * (approach velocity).
 */
export function applyRestitution(cache: ContactCache, k4: ConstraintArrays, bodies: BodySet, pins: PinnedContacts, shock: ShockPropagation): void {
  const s = cache;
  const count = s.count;
  const hd = s.header,
    c = s.contacts,
    bi = k4.pair,
    order = k4.manifold,
    mf = k4.mf,
    pt = k4.pt,
    jn = k4.jn,
    fm = k4.fm,
    gm = k4.gm;
  const invMass = bodies.invMass,
    inv = bodies.invInertiaWorld,
    vel = bodies.vel,
    w = bodies.angVel;
  for (let i = 0; i < count; i++) {
    // Slot i (constraintLayout.ts); the materials and the contacts' world points are read from the cache.
    const ci = order[i];
    const o = ci * HEADER,
      m = i * MF;
    const e = hd[o + H_RESTITUTION];
    if (e === 0) continue;
    const threshold = hd[o + H_REST_THRESHOLD];
    const a = bi[i * 2],
      b = bi[i * 2 + 1];
    const n = mf[m + M_COUNT];
    const nx = mf[m + M_NX],
      ny = mf[m + M_NX + 1],
      nz = mf[m + M_NX + 2];
    const t1x = mf[m + M_T1X], t1y = mf[m + M_T1X + 1], t1z = mf[m + M_T1X + 2];
    const t2x = mf[m + M_T2X], t2y = mf[m + M_T2X + 1], t2z = mf[m + M_T2X + 2];
    const mu = mf[m + M_FRICTION],
      muS = mf[m + M_STATIC_FRICTION];
    restShare[0] = restShare[1] = restShare[2] = restShare[3] = 0;
    // A pinned body takes no part of the rebound along its pin either (PinnedContacts.pinnedNormals), the rest in
    // full. A frozen manifold ignores its pin (see solve).
    const frozen = mf[m + M_FROZEN];
    let rf = 0, rmx = 0, rmy = 0, rmz = 0;
    const pin = pins.pinning && frozen === 0 ? pins.state[i] : PIN_NONE;
    const pinned = pin === PIN_A ? a : pin === PIN_B ? b : -1;
    if (pinned >= 0) pins.pinnedNormals(i, mf, m + M_NX);
    if (mf[m + M_IMPACT] === 1 && pinned < 0) {
      // The rebound of a manifold meeting an impact starts as one impulse at the centroid, shared equally (the
      // impact pre-pass of solve, for the same reason: contact by contact, a square rebound would spin).
      let rsum = 0,
        q = 0;
      for (let k = 0; k < n; k++) {
        const jo = (i * 4 + k) * JN;
        const rel = jn[jo + J_RELVEL];
        if (rel > -threshold || jn[jo + J_MAXNI] === 0) continue;
        q++;
        rsum += rel;
      }
      centroidIO[0] = (e * rsum) / n;
      centroidIO[1] = 0;
      if (q === n) shareCentroidImpulse(bodies, a, b, k4, i, n);
      const share = centroidIO[1];
      for (let k = 0; k < n; k++) {
        restShare[k] = share;
        gm[(i * 4 + k) * GM + G_TOTAL] += share;
      }
    }
    for (let k = 0; k < n; k++) {
      const pi = i * 4 + k,
        co = (ci * 4 + k) * CONTACT,
        po = pi * PT,
        jo = pi * JN,
        fo = pi * FM,
        go = pi * GM;
      const rel = jn[jo + J_RELVEL];
      if (rel > -threshold || jn[jo + J_MAXNI] === 0) continue;
      const rax = pt[po + P_RAX],
        ray = pt[po + P_RAX + 1],
        raz = pt[po + P_RAX + 2];
      const rbx = pt[po + P_RBX],
        rby = pt[po + P_RBX + 1],
        rbz = pt[po + P_RBX + 2];
      const a3 = a * 3,
        b3 = b * 3;
      const dvx = vel[b3] + (w[b3 + 1] * rbz - w[b3 + 2] * rby) - vel[a3] - (w[a3 + 1] * raz - w[a3 + 2] * ray);
      const dvy = vel[b3 + 1] + (w[b3 + 2] * rbx - w[b3] * rbz) - vel[a3 + 1] - (w[a3 + 2] * rax - w[a3] * raz);
      const dvz = vel[b3 + 2] + (w[b3] * rby - w[b3 + 1] * rbx) - vel[a3 + 2] - (w[a3] * ray - w[a3 + 1] * rax);
      let vn = dvx * nx + dvy * ny + dvz * nz;
      // A frozen pair's rebound is the upper body's alone, off a lower body taken as fixed (see solve).
      if (frozen === 1) vn += (vel[a3] + (w[a3 + 1] * raz - w[a3 + 2] * ray)) * nx + (vel[a3 + 1] + (w[a3 + 2] * rax - w[a3] * raz)) * ny + (vel[a3 + 2] + (w[a3] * ray - w[a3 + 1] * rax)) * nz;
      else if (frozen === 2) vn -= (vel[b3] + (w[b3 + 1] * rbz - w[b3 + 2] * rby)) * nx + (vel[b3 + 1] + (w[b3 + 2] * rbx - w[b3] * rbz)) * ny + (vel[b3 + 2] + (w[b3] * rby - w[b3 + 1] * rbx)) * nz;
      const old = pt[po + P_NI];
      let nm = jn[jo + J_NM];
      if (pinned >= 0) {
        pinnedNormalMass(jn, jo, invMass, a, b, mf, m + M_NX);
        nm = pinnedMass[0];
      }
      let lambda = -nm * (vn + e * rel);
      let next = old + lambda;
      if (next < 0) next = 0;
      lambda = next - old;
      pt[po + P_NI] = next;
      gm[go + G_TOTAL] += lambda;
      if (lambda !== 0 || restShare[k] > 0) {
        // Friction acts within the rebound too: up to mu times the rebound's normal impulse, against the
        // tangential sliding that is left (Coulomb over the whole impact, restitution included). Not added
        // to the warm-start impulses: the rebound is not sustained.
        const maxF = (pt[po + P_STICK] === 1 ? muS : mu) * (lambda + restShare[k]);
        const v1 = dvx * t1x + dvy * t1y + dvz * t1z,
          v2 = dvx * t2x + dvy * t2y + dvz * t2z;
        fr[0] = -(fm[fo + F_T1M] * v1 + fm[fo + F_T12M] * v2);
        fr[1] = -(fm[fo + F_T12M] * v1 + fm[fo + F_T2M] * v2);
        fr[2] = maxF;
        if (fr[0] * fr[0] + fr[1] * fr[1] > maxF * maxF) projectFriction(fr, fm, fo);
        const f1 = fr[0],
          f2 = fr[1];
        const ln = frozen === 0 ? lambda : 0;
        contactImpulse[0] = ln * nx + f1 * t1x + f2 * t2x;
        contactImpulse[1] = ln * ny + f1 * t1y + f2 * t2y;
        contactImpulse[2] = ln * nz + f1 * t1z + f2 * t2z;
        if (pinned >= 0) saveVelocity(bodies, pinned);
        applyImpulse(invMass, inv, vel, w, a, b, pt, po + P_RAX, contactImpulse);
        if (pinned >= 0) pins.releaseAlongAxis(bodies, pinned, i);
        if (frozen !== 0) {
          // The normal part moves the upper body only and goes down the stack (route).
          if (frozen === 1) {
            const lb = lambda * invMass[b];
            vel[b3] += lb * nx; vel[b3 + 1] += lb * ny; vel[b3 + 2] += lb * nz;
            w[b3] += lambda * jn[jo + J_IBNX]; w[b3 + 1] += lambda * jn[jo + J_IBNX + 1]; w[b3 + 2] += lambda * jn[jo + J_IBNX + 2];
          } else {
            const la = lambda * invMass[a];
            vel[a3] -= la * nx; vel[a3 + 1] -= la * ny; vel[a3 + 2] -= la * nz;
            w[a3] -= lambda * jn[jo + J_IANX]; w[a3 + 1] -= lambda * jn[jo + J_IANX + 1]; w[a3 + 2] -= lambda * jn[jo + J_IANX + 2];
          }
          rf += lambda;
          rmx += lambda * c[co + C_PX]; rmy += lambda * c[co + C_PX + 1]; rmz += lambda * c[co + C_PX + 2];
        }
      }
    }
    if (frozen !== 0 && rf !== 0) {
      routeIO[0] = rf; routeIO[1] = rmx; routeIO[2] = rmy; routeIO[3] = rmz;
      shock.route(cache, k4, i);
    }
  }
}
