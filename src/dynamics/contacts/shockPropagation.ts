/**
 * Shock propagation for heavy bodies resting on light ones (Guendelman, Bridson and Fedkiw 2003, "Nonconvex
 * rigid bodies with stacking", section 7; Unreal Chaos' CalculateBodyShockPropagation scales the lower body's
 * inverse mass the same way).
 *
 * A soft contact's spring is sized on its pair's effective mass, which the light body dominates: a 1000 kg box on
 * a 1 kg box compresses that spring by x = m_heavy g / (m_eff w^2), several centimetres, and one Gauss-Seidel
 * pass per substep converges on the pair at a rate of m_heavy / (m_light + m_heavy) per pass, which is no
 * convergence at all. Here a contact whose upper body (against gravity) is much heavier than its lower one solves
 * its normal rows as if the lower body were fixed: the rows' effective mass is the upper body's, so the spring
 * holds it within a fraction of a millimetre and the pair converges in one pass. The impulse the rows add is not
 * lost: it is routed to the contact that supports the lower body (its own support, down the stack to a body not
 * frozen this way, usually the ground), added to that contact's accumulated impulse with the same force and the
 * same moment about the lower body (route, supportShares). The warm start applies both
 * in the next substep, where they cancel on the lower body, so the lower body never feels a kick it was not
 * allowed to react to, and the ground carries the whole stack's weight (its friction bound included).
 *
 * Friction rows keep both bodies' true masses: shock propagation only decides who gives way along the normal.
 * The frozen rows read the lower body's velocity as zero (its own rows and its support take care of it); a lower
 * body moved along the normal by something else (a joint) carries the upper one only through the push-out.
 */
import type { BodySet } from "../bodySet";
import type { SolverSettings } from "../solverSettings";
import type { ContactCache } from "./contactCache";
import { type ConstraintArrays, MF, M_COUNT, M_FROZEN, M_NX, M_ROUTED, M_T1X, M_T2X, PT, P_IMPACT, P_NI, P_T1I, P_T2I } from "./constraintLayout";
import { CONTACT, C_PX } from "./manifoldLayout";

/**
 * Per step: which manifolds freeze their lower body, and which manifold supports each body. The manifold store
 * itself lives in the contact solver; this keeps only the per-body support table.
 */
export class ShockPropagation {
  /** The solver's parameters (shock thresholds), not state. */
  private readonly settings: SolverSettings;

  constructor(settings: SolverSettings) {
    this.settings = settings;
  }

  /**
   * Snapshots (src/world/stateCodec.ts): the tables are rebuilt by every step's prepare before they are read; the
   * settings are the solver's.
   */
  snapshotExtent(field: string): number {
    return field === "support" || field === "supportUp" || field === "settings" ? 0 : -1;
  }

  /**
   * The slot (constraintLayout.ts) of the manifold supporting each dense body index (its most upward-facing contact
   * from below), -1: none. Manifolds are slots throughout this file: their frame and count are the constraint
   * arrays' copies, and only the contacts' world points are read from the cache, through ConstraintArrays.manifold.
   */
  support = new Int32Array(64);
  /** Upward component of that support's normal (as seen from the supported body), for choosing the best. */
  private supportUp = new Float64Array(64);
  /** Whether any manifold froze a body this step (routing is skipped otherwise). */
  active = false;

  /** Clears the support table for `bodyCount` bodies. */
  begin(bodyCount: number): void {
    if (this.support.length < bodyCount) {
      let cap = this.support.length;
      while (cap < bodyCount) cap *= 2;
      this.support = new Int32Array(cap);
      this.supportUp = new Float64Array(cap);
    }
    this.support.fill(-1, 0, bodyCount);
    this.supportUp.fill(0, 0, bodyCount);
    this.active = false;
  }

  /** classify's input: the upward component of the manifold's normal (a double is boxed as an argument of a call V8 does not inline). */
  readonly up = new Float64Array(1);

  /**
   * Records manifold m between dense bodies a (below the normal) and b, whose normal's upward component is
   * `this.up[0]` (n . -g/|g|, n from a to b), as a support candidate of the upper body. Returns the side to freeze in
   * its normal rows: 1 (a), 2 (b) or 0. `invMass`: the bodies' inverse masses (0: static or kinematic); `vel`: their
   * linear velocities (a pair faster than SolverSettings.shockRestSpeed apart freezes nothing).
   */
  classify(m: number, a: number, b: number, invMass: Float64Array, vel: Float64Array): number {
    const invA = invMass[a],
      invB = invMass[b],
      up = this.up[0];
    const a3 = a * 3,
      b3 = b * 3;
    const dvx = vel[b3] - vel[a3],
      dvy = vel[b3 + 1] - vel[a3 + 1],
      dvz = vel[b3 + 2] - vel[a3 + 2];
    const st = this.settings;
    const restSpeed = st.shockRestSpeed,
      minUp = st.shockMinUp,
      ratio = st.shockMassRatio;
    const resting = dvx * dvx + dvy * dvy + dvz * dvz <= restSpeed * restSpeed;
    let upper = -1,
      frozen = 0,
      u = up;
    if (up >= minUp) {
      upper = b;
      if (resting && invB > 0 && invA >= ratio * invB) frozen = 1;
    } else if (up <= -minUp) {
      upper = a;
      u = -up;
      if (resting && invA > 0 && invB >= ratio * invA) frozen = 2;
    }
    if (upper >= 0 && u > this.supportUp[upper]) {
      this.supportUp[upper] = u;
      this.support[upper] = m;
    }
    if (frozen !== 0) this.active = true;
    return frozen;
  }

  /**
   * In prepare, after every manifold is classified: last step's routed loads leave the warm start, and each frozen
   * manifold's load goes down to its support (and on down the stack), marked as routed there.
   */
  prepareRoutes(cache: ContactCache, k4: ConstraintArrays): void {
    const s = cache;
    const c = s.contacts,
      mf = k4.mf,
      pt = k4.pt,
      map = k4.manifold;
    if (cache.routed) {
      // Last step's routed loads leave the warm start: they are routed again below from what the frozen manifolds
      // carry now (their contacts may have changed), so that the lower bodies' warm starts balance.
      for (let i = 0; i < s.count; i++) {
        const n = mf[i * MF + M_COUNT];
        for (let k = 0; k < n; k++) {
          const po = (i * 4 + k) * PT;
          const r = mf[i * MF + M_ROUTED + k];
          if (r === 0) continue;
          const ni = pt[po + P_NI] - r;
          pt[po + P_NI] = ni > 0 ? ni : 0;
          mf[i * MF + M_ROUTED + k] = 0;
        }
      }
    }
    cache.routed = this.active;
    if (this.active) {
      // Each frozen manifold's load goes down to its support (and on down the stack), marked as routed there.
      for (let i = 0; i < s.count; i++) {
        if (mf[i * MF + M_FROZEN] === 0) continue;
        let f = 0, mx = 0, my = 0, mz = 0;
        const n = mf[i * MF + M_COUNT];
        for (let k = 0; k < n; k++) {
          const co = (map[i] * 4 + k) * CONTACT;
          const l = pt[(i * 4 + k) * PT + P_NI] - mf[i * MF + M_ROUTED + k];
          f += l;
          mx += l * c[co + C_PX]; my += l * c[co + C_PX + 1]; mz += l * c[co + C_PX + 2];
        }
        routeIO[0] = f; routeIO[1] = mx; routeIO[2] = my; routeIO[3] = mz;
        this.route(cache, k4, i);
      }
    }
  }

  /**
   * After the normal rows of frozen manifold i (n contacts) ran with `body` fixed: puts that body's velocity back
   * (see saveFrozen) and routes what the rows added down the stack.
   */
  routeFrozen(cache: ContactCache, k4: ConstraintArrays, bodies: BodySet, i: number, n: number, body: number): void {
    const b3 = body * 3;
    for (let k = 0; k < 3; k++) {
      bodies.vel[b3 + k] = savedVelocity[k];
      bodies.angVel[b3 + k] = savedVelocity[3 + k];
    }
    impulseChange(k4.pt, cache.contacts, i, k4.manifold[i], n);
    this.route(cache, k4, i);
  }

  /**
   * The warm start's impact rule (below) for frozen manifolds, before any manifold is warm started: the impulse an
   * impact added is dropped from the contact and from what was routed down for it (route), so that the lower body's
   * warm starts still balance.
   */
  dropFrozenImpacts(cache: ContactCache, k4: ConstraintArrays): void {
    const s = cache;
    const c = s.contacts,
      mf = k4.mf,
      pt = k4.pt,
      map = k4.manifold;
    for (let i = 0; i < s.count; i++) {
      if (mf[i * MF + M_FROZEN] === 0) continue;
      const n = mf[i * MF + M_COUNT];
      let f = 0, mx = 0, my = 0, mz = 0;
      for (let k = 0; k < n; k++) {
        const co = (map[i] * 4 + k) * CONTACT,
          po = (i * 4 + k) * PT;
        const impact = pt[po + P_IMPACT];
        if (!(impact > 0)) continue;
        const pn = pt[po + P_NI];
        const next = pn > impact ? pn - impact : 0;
        const scale = pn > 0 ? next / pn : 0;
        pt[po + P_NI] = next;
        pt[po + P_T1I] *= scale;
        pt[po + P_T2I] *= scale;
        pt[po + P_IMPACT] = 0;
        const d = next - pn;
        f += d;
        mx += d * c[co + C_PX]; my += d * c[co + C_PX + 1]; mz += d * c[co + C_PX + 2];
      }
      if (f === 0) continue;
      routeIO[0] = f; routeIO[1] = mx; routeIO[2] = my; routeIO[3] = mz;
      this.route(cache, k4, i);
    }
  }

  /**
   * Marks this step's pin candidates (pinnedContacts.ts): manifolds between two finite-mass bodies that meet an
   * impact themselves with a body that touches a fixed one, or that share a body meeting an impact with a fixed
   * one (a box about to be stopped by a wall, and what follows it in). Lists them and the manifolds with fixed
   * bodies that can pin their bodies, so the passes visit only those.

  /**
   * Shock propagation (shockPropagation.ts): the normal impulse routeIO[0] (first moment routeIO[1..3]) that frozen
   * manifold m's rows just added is added to the accumulated impulse of the manifold supporting its lower body,
   * projected on its normal and split over its contacts with the same force and moment (supportShares), marked as
   * routed there (M_ROUTED), and so on down while that support is frozen too. No velocity changes: the warm
   * start applies both next substep, where they cancel on the lower body.
   */
  route(cache: ContactCache, k4: ConstraintArrays, m: number): void {
    const c = cache.contacts,
      bi = k4.pair,
      mf = k4.mf,
      pt = k4.pt,
      map = k4.manifold;
    const support = this.support;
    let f = routeIO[0],
      mx = routeIO[1],
      my = routeIO[2],
      mz = routeIO[3];
    let cur = m;
    for (let depth = 0, maxDepth = this.settings.shockMaxDepth; depth < maxDepth; depth++) {
      const o = cur * MF + M_NX;
      const fz = mf[cur * MF + M_FROZEN];
      const lower = fz === 1 ? bi[cur * 2] : bi[cur * 2 + 1];
      // This manifold's normal pointing up (from its lower body to its upper one).
      const sg = fz === 1 ? 1 : -1;
      const ux = sg * mf[o],
        uy = sg * mf[o + 1],
        uz = sg * mf[o + 2];
      const sm = support[lower];
      if (sm < 0 || sm === cur) return;
      const so = sm * MF + M_NX;
      // The support's normal pointing up at `lower` (which is its upper body).
      const ss = bi[sm * 2 + 1] === lower ? 1 : -1;
      const dot = ss * (mf[so] * ux + mf[so + 1] * uy + mf[so + 2] * uz);
      if (!(dot > 0)) return;
      const cnt = mf[sm * MF + M_COUNT];
      routeIO[0] = f * dot;
      routeIO[1] = mx * dot;
      routeIO[2] = my * dot;
      routeIO[3] = mz * dot;
      const sc = map[sm];
      supportShares(c, mf, sm, sc, cnt);
      f = 0; mx = 0; my = 0; mz = 0;
      for (let k = 0; k < cnt; k++) {
        const co = (sc * 4 + k) * CONTACT,
          po = (sm * 4 + k) * PT;
        const g = routeShare[k];
        const old = pt[po + P_NI];
        const ni = old + g > 0 ? old + g : 0;
        pt[po + P_NI] = ni;
        const added = ni - old;
        const r = mf[sm * MF + M_ROUTED + k] + added;
        mf[sm * MF + M_ROUTED + k] = r > 0 ? r : 0;
        f += added;
        mx += added * c[co + C_PX]; my += added * c[co + C_PX + 1]; mz += added * c[co + C_PX + 2];
      }
      if (mf[sm * MF + M_FROZEN] === 0) return;
      // The support is frozen too: what its contacts took goes on down the stack.
      cur = sm;
    }
  }
}

/** The impulse route() carries down a stack (a double through a typed array: V8 boxes double arguments). */
export const routeIO = new Float64Array(4);
/** route()'s share per support contact. */
const routeShare = new Float64Array(4);

/**
 * Shock propagation's load transfer (ShockPropagation.route): splits the load routeIO[0] (normal impulse, positive
 * pushes) whose first moment is routeIO[1..3] (sum of impulse times world point) over the contacts of support
 * slot sm (cache manifold sc: its contacts' world points), into routeShare, with the same total and the same line of action in the contact plane, so the body
 * between gets neither force nor torque from the transfer. A load's moment is matched by the least-norm shares
 * g_j = f/n + d_j . x over the active contacts (d_j: offset from their centroid in the tangent plane, G x = moment,
 * G = sum d_j d_j^T); a share of the wrong sign (a load near one contact of a square asks the opposite one to pull)
 * (a routed part below zero) drops that contact from the active set, as an active-set non-negative least squares does (Lawson and Hanson).
 * A load outside the support polygon keeps what moment the contacts can take: the rest tips the body, as it should.
 */
function supportShares(c: Float64Array, mf: Float64Array, sm: number, sc: number, cnt: number): void {
  const so = sm * MF;
  const t1x = mf[so + M_T1X], t1y = mf[so + M_T1X + 1], t1z = mf[so + M_T1X + 2];
  const t2x = mf[so + M_T2X], t2y = mf[so + M_T2X + 1], t2z = mf[so + M_T2X + 2];
  let active = (1 << cnt) - 1;
  for (let pass = 0; pass < 4; pass++) {
    // What the contacts held at their bound (all their routed part given back) leave to the active ones.
    let f = routeIO[0],
      fmx = routeIO[1],
      fmy = routeIO[2],
      fmz = routeIO[3];
    let na = 0,
      cx = 0,
      cy = 0,
      cz = 0;
    for (let k = 0; k < cnt; k++) {
      const co = (sc * 4 + k) * CONTACT;
      if ((active & (1 << k)) === 0) {
        const g = -mf[sm * MF + M_ROUTED + k];
        routeShare[k] = g;
        f -= g;
        fmx -= g * c[co + C_PX]; fmy -= g * c[co + C_PX + 1]; fmz -= g * c[co + C_PX + 2];
        continue;
      }
      na++;
      cx += c[co + C_PX]; cy += c[co + C_PX + 1]; cz += c[co + C_PX + 2];
    }
    if (na === 0) return;
    cx /= na; cy /= na; cz /= na;
    // The load's moment about the centroid, in the tangent plane.
    const ox = fmx - f * cx, oy = fmy - f * cy, oz = fmz - f * cz;
    const m1 = ox * t1x + oy * t1y + oz * t1z,
      m2 = ox * t2x + oy * t2y + oz * t2z;
    let g11 = 0, g12 = 0, g22 = 0;
    for (let k = 0; k < cnt; k++) {
      if ((active & (1 << k)) === 0) continue;
      const co = (sc * 4 + k) * CONTACT;
      const dx = c[co + C_PX] - cx, dy = c[co + C_PX + 1] - cy, dz = c[co + C_PX + 2] - cz;
      const d1 = dx * t1x + dy * t1y + dz * t1z,
        d2 = dx * t2x + dy * t2y + dz * t2z;
      g11 += d1 * d1; g12 += d1 * d2; g22 += d2 * d2;
    }
    const tr = g11 + g22;
    const det = g11 * g22 - g12 * g12;
    let x1 = 0,
      x2 = 0;
    if (det > 1e-6 * tr * tr) {
      x1 = (g22 * m1 - g12 * m2) / det;
      x2 = (g11 * m2 - g12 * m1) / det;
    } else if (tr > 1e-12) {
      // Contacts on a line: only the moment about it can be matched (G's pseudo-inverse, G = tr e e^T).
      let e1 = g11 >= g22 ? g11 : g12,
        e2 = g11 >= g22 ? g12 : g22;
      const el = Math.sqrt(e1 * e1 + e2 * e2);
      e1 /= el;
      e2 /= el;
      const me = (e1 * m1 + e2 * m2) / tr;
      x1 = me * e1;
      x2 = me * e2;
    }
    let worst = -1,
      worstShare = 0;
    for (let k = 0; k < cnt; k++) {
      if ((active & (1 << k)) === 0) continue;
      const co = (sc * 4 + k) * CONTACT;
      const dx = c[co + C_PX] - cx, dy = c[co + C_PX + 1] - cy, dz = c[co + C_PX + 2] - cz;
      const g = f / na + (dx * t1x + dy * t1y + dz * t1z) * x1 + (dx * t2x + dy * t2y + dz * t2z) * x2;
      routeShare[k] = g;
      // A contact cannot pass on more load than it carries: its routed part must stay non-negative.
      const wrong = -(mf[sm * MF + M_ROUTED + k] + g);
      if (wrong > worstShare) {
        worstShare = wrong;
        worst = k;
      }
    }
    if (worst < 0) return;
    active &= ~(1 << worst);
  }
}

/** The normal impulses of manifold i's n contacts, before a pass over a frozen manifold (see impulseChange). */
const savedImpulse = new Float64Array(4);
/** The frozen body's linear and angular velocity before that pass. */
const savedVelocity = new Float64Array(6);

/**
 * Before the normal rows of frozen manifold i run: saves its normal impulses and the frozen body's velocity (the
 * rows read it as zero, and the pass writes its locals back; ShockPropagation.routeFrozen puts the velocity back).
 */
export function saveFrozen(bodies: BodySet, pt: Float64Array, i: number, n: number, body: number): void {
  for (let k = 0; k < n; k++) savedImpulse[k] = pt[(i * 4 + k) * PT + P_NI];
  const b3 = body * 3;
  for (let k = 0; k < 3; k++) {
    savedVelocity[k] = bodies.vel[b3 + k];
    savedVelocity[3 + k] = bodies.angVel[b3 + k];
  }
}

/**
 * What manifold i's rows added to its normal impulses since saveImpulses, as route() takes a load: the total in
 * routeIO[0] and its first moment (sum of impulse times contact point) in routeIO[1..3].
 */
function impulseChange(/* slot i, cache manifold ci */ pt: Float64Array, c: Float64Array, i: number, ci: number, n: number): void {
  let f = 0, mx = 0, my = 0, mz = 0;
  for (let k = 0; k < n; k++) {
    const co = (ci * 4 + k) * CONTACT;
    const d = pt[(i * 4 + k) * PT + P_NI] - savedImpulse[k];
    f += d;
    mx += d * c[co + C_PX]; my += d * c[co + C_PX + 1]; mz += d * c[co + C_PX + 2];
  }
  routeIO[0] = f; routeIO[1] = mx; routeIO[2] = my; routeIO[3] = mz;
}
