/**
 * Contact constraints: speculative, soft (springs), warm started, substepped.
 *
 * The structure is Box2D v3's soft step (solver.c / contact_solver.c): contacts are prepared once per
 * step with fixed lever arms and effective masses; every substep warm starts, solves with the spring
 * bias, integrates, then relaxes without bias; a restitution pass runs after the last substep.
 * The current separation of each contact is recomputed every substep from the bodies' current poses
 * and the contact's body-local anchors, so speculative rows (separation > 0) let bodies close exactly
 * the gap, and penetrating rows push out with the spring (bepu's PenetrationLimit: contacts are springs
 * of a frequency and damping ratio with a maximum recovery velocity).
 *
 * The manifolds live in the contact cache (contactCache.ts, layout in manifoldLayout.ts); prepare loads what the passes
 * read into compact per-step arrays (constraintLayout.ts), the passes solve over those, and store writes back once.
 * Friction is mu times the normal impulse of the same contact (not mu / n: bepu PR #410).
 * Friction is solved once per substep, in the biased pass; the relax pass solves the normal rows only (but for
 * manifolds whose impact it stops and those of jointed bodies, see relax). Friction has no position error for the
 * relax pass to take energy out of, and eight substeps solve it eight times a step, as bepu's one-iteration-per-
 * substep solver does; this is about a quarter of the solver's work.
 */
import type { BodySet } from "../bodySet";
import type { WorldMotion } from "../integrator";
import { grown } from "../../collections/growth";
import { StampSet } from "../../collections/stampSet";
import { defaultSolverSettings, type SolverSettings } from "../solverSettings";
import type { ContactCache } from "./contactCache";
import { ConstraintGraph } from "./constraintGraph";
import { centroidIO, preVn, shareCentroidImpulse } from "./centroidImpulse";
import { tangentEigen, tangentK } from "./frictionProjection";
import { frictionRows, resting } from "./frictionRows";
import { PIN_A, PIN_NONE, pinnedMass, pinnedNormalMass, pinnedNormals, PinnedContacts } from "./pinnedContacts";
import { applyRestitution } from "./restitution";
import { rollingAnchors, stepTime } from "./rollingAnchors";
import { ensureRolling, prepareRolling, solveRolling, warmStartRolling } from "./rollingResistance";
import { ROUND_AXIS, ROUND_NONE } from "./roundFeature";
import { saveFrozen, ShockPropagation } from "./shockPropagation";
import {
  ConstraintArrays,
  FM,
  F_T12M,
  F_T1M,
  F_T2M,
  GM,
  G_ADJ,
  G_KA,
  G_KB,
  G_LAX,
  G_LBX,
  G_TOTAL,
  JN,
  J_ANX,
  J_BNX,
  J_IANX,
  J_IBNX,
  J_MAXNI,
  J_NM,
  J_RELVEL,
  J_SEP,
  MF,
  M_BIAS_RATE,
  M_CENTROID_MASS,
  M_COUNT,
  M_FRICTION,
  M_FROZEN,
  M_IMPACT,
  M_IMPULSE_SCALE,
  M_MASS_SCALE,
  M_MAX_RECOVERY,
  M_NX,
  M_ROLLING_ANCHORS,
  M_ROLLING_RESISTANCE,
  M_ROUTED,
  M_STATIC_FRICTION,
  M_T1X,
  M_T2X,
  PT,
  RF,
  RF_AXIS,
  RF_KIND,
  RF_SIDE,
  RF_U,
  SLOT_ANY_THREAD,
  SLOT_PIN_CANDIDATE,
  P_IMPACT,
  P_NI,
  P_RAX,
  P_RBX,
  P_STICK,
  P_T1I,
  P_T2I,
  P_WARM,
} from "./constraintLayout";
import {
  CONTACT,
  C_ADJ_SEP,
  C_LAX,
  C_LBX,
  C_NORMAL_IMPULSE,
  C_RAX,
  C_RBX,
  C_SEPARATION,
  C_STICK,
  C_T1_IMPULSE,
  C_T2_IMPULSE,
  C_TOTAL_IMPULSE,
  HEADER,
  H_COUNT,
  H_DAMPING,
  H_FREQ,
  H_FRICTION,
  H_MAX_RECOVERY,
  H_NX,
  H_ROLLING_RESISTANCE,
  H_ROUND,
  H_ROUTED,
  H_STATIC_FRICTION,
} from "./manifoldLayout";

/** The passes of a substep, as {@link ContactConstraints.runRange} takes them. */
export const PASS_WARM_START = 0,
  PASS_SOLVE = 1,
  PASS_RELAX = 2;

/** Kind masks (a bit per ConstraintArrays.kind): every slot; all but the pin candidates; the candidates. */
const KINDS_ALL = 7,
  KINDS_NOT_CANDIDATES = KINDS_ALL & ~(1 << SLOT_PIN_CANDIDATE),
  KINDS_CANDIDATES = 1 << SLOT_PIN_CANDIDATE;

/**
 * Runs a pass over threads (the worker pool, src/parallel/workerPool.ts, implements it; the solver names what it needs
 * rather than importing the pool): colour by colour, a colour's manifolds at once (they share no dynamic body,
 * constraintGraph.ts), so the result does not depend on who solved which.
 */
export interface ContactPassRunner {
  /**
   * Runs pass `pass` (PASS_*) over the slots whose kind is in `kinds` (see {@link ContactConstraints.runRange}) over
   * threads and returns true, or returns false (no worker, too few manifolds, or the pass measured faster on one
   * thread): the solver then runs it itself.
   */
  contactPass(solver: ContactConstraints, bodies: BodySet, pass: number, kinds: number): boolean;
}

/**
 * The contact constraints of a step over the contact cache's manifolds: prepare (effective masses, softness, who
 * gives way), warm start, the biased and the relax pass of each substep, restitution after the last.
 */
export class ContactConstraints {
  /** The manifolds this solves (the world's contact cache). */
  readonly cache: ContactCache;
  /** The solver's parameters (never state: snapshots leave them out). */
  readonly settings: SolverSettings = defaultSolverSettings();
  /** Shock propagation's per-step tables and routing. */
  private readonly shock = new ShockPropagation(this.settings);
  /** Impacts on pinned bodies (pinnedContacts.ts). */
  private readonly pins = new PinnedContacts(this.settings);
  /**
   * Bodies a fast partner may push this step (the world's partner push, partnerPush.ts): their contacts are
   * treated as meeting an impact, as the push makes them approach within the step.
   */
  pushed: StampSet | null = null;
  /**
   * Bodies with an enabled joint this step (the world's solve stage fills it after the joints' prepare): only
   * their manifolds get the relax pass's friction (see relax).
   */
  readonly jointed = new StampSet();
  /**
   * Substeps solved this step (reset by prepare, counted by relax). Odd substeps visit a manifold's contacts in
   * reverse order, in the normal and friction rows: sequential impulses give the first contact of a pair more of
   * the shared push and all the traction it can hold, and in the same order every substep a wheel's two rim
   * contacts carried its drive unequally, a yaw moment of the same sign on every driven wheel (a WheelConstraint
   * car turned 3 degrees over 100 m). Counted within the step, so a restored snapshot repeats it.
   */
  substep = 0;
  /**
   * Per body (3 each), the push-out velocity of the overlaps this substep ({@link SolverSettings.overlapDepth}):
   * the position integration moves bodies by it and clears it, so it never becomes velocity.
   */
  pushVel = new Float64Array(0);
  pushAngVel = new Float64Array(0);

  /** The step's compact constraints (constraintLayout.ts): scratch, rebuilt by every prepare. */
  readonly arrays = new ConstraintArrays();
  /** The passes' manifold order (constraintGraph.ts): scratch, rebuilt by every prepare. */
  readonly graph = new ConstraintGraph();
  /**
   * Runs colours over threads (the world's worker pool, set by the solve stage); null: this thread solves every
   * manifold. Used only with {@link SolverSettings.colouredPasses}: the colours are what makes it safe.
   */
  runner: ContactPassRunner | null = null;
  /**
   * @internal The substep length, set by prepare ({@link runRange} reads it, and the parity of {@link substep}; a
   * field, not an argument: V8 boxes a double passed to a call it does not inline). Workers' solvers get both with
   * each job.
   */
  passH = 0;

  constructor(cache: ContactCache) {
    this.cache = cache;
  }

  /** Snapshots (src/world/stateCodec.ts): the cache is the world's own field; the rest is rebuilt by prepare. */
  snapshotExtent(field: string): number {
    return field === "cache" || field === "settings" || field === "pushVel" || field === "pushAngVel" || field === "arrays" || field === "graph" || field === "runner" ? 0 : -1;
  }

  /**
   * Computes effective masses, softness for the substep length h = dt / substeps, and the pre-solve normal velocity
   * used by restitution. Inverse inertias are the world ones at the start of the step. The world's gravity `g` gives up
   * for shock propagation; `substeps` (of length h) make the step, for the rolling anchors' turn in it. Doubles come
   * in as dt and fields, not computed arguments (docs/design.md).
   */
  prepare(bodies: BodySet, dt: number, substeps: number, g: WorldMotion): void {
    const h = dt / substeps,
      gx = g.gx,
      gy = g.gy,
      gz = g.gz;
    // Up is against gravity (shock propagation, shockPropagation.ts); no gravity, no up.
    const gl = Math.sqrt(gx * gx + gy * gy + gz * gz);
    const gi = gl > 0 ? -1 / gl : 0;
    const upX = gx * gi,
      upY = gy * gi,
      upZ = gz * gi;
    // Zero between substeps (integratePositions clears what it moved by); grown with zeros.
    this.pushVel = grown(this.pushVel, bodies.count * 3, 0);
    this.pushAngVel = grown(this.pushAngVel, bodies.count * 3, 0);
    this.substep = 0;
    stepTime[0] = h * substeps;
    const s = this.cache;
    const pins = this.pins;
    const shock = this.shock;
    shock.begin(bodies.count);
    const invMass = bodies.invMass,
      inv = bodies.invInertiaWorld,
      vel = bodies.vel,
      w = bodies.angVel;
    ensureRolling(s.count);
    const k4 = this.grow(),
      mf = k4.mf,
      pt = k4.pt,
      jn = k4.jn,
      fm = k4.fm;
    const pushed = this.pushed;
    const impactSpeed = this.settings.impactSpeed;
    this.graph.build(s.count, s.bodyIndex, invMass, bodies.count, this.settings.colouredPasses);
    k4.manifold = this.graph.order;
    const pair = k4.pair,
      slotOf = this.graph.slot;
    this.passH = h;
    // Slot i of the constraint arrays holds cache manifold order[i] (constraintLayout.ts). The cache is read in its
    // own order (a manifold is 2 KB there, and in the colours' order every read missed: thin-2000 spent 6.4 % of its
    // step in load against 2.5 %), writing the slots of each colour front to back.
    for (let ci = 0; ci < s.count; ci++) this.load(slotOf[ci], ci, bodies);
    // Per manifold who gives way (shock propagation, in slot order: a body's support is the first best); per contact
    // the normal row's Jacobians and effective mass, the tangent pair's 2x2 effective mass and its eigenbasis, the
    // approach speed and whether it meets an impact; per manifold the centroid's effective mass of an impact, and
    // rolling resistance's state.
    for (let i = 0; i < s.count; i++) {
      const m = i * MF;
      const a = pair[i * 2],
        b = pair[i * 2 + 1];
      const mA = invMass[a],
        mB = invMass[b];
      const nx = mf[m + M_NX],
        ny = mf[m + M_NX + 1],
        nz = mf[m + M_NX + 2];
      const t1x = mf[m + M_T1X],
        t1y = mf[m + M_T1X + 1],
        t1z = mf[m + M_T1X + 2];
      const t2x = mf[m + M_T2X],
        t2y = mf[m + M_T2X + 1],
        t2z = mf[m + M_T2X + 2];
      const ia = a * 6,
        ib = b * 6;
      // Shock propagation: a heavy body resting on a light one solves its normal rows with the light one fixed.
      shock.up[0] = nx * upX + ny * upY + nz * upZ;
      const frozen = shock.classify(i, a, b, invMass, vel);
      mf[m + M_FROZEN] = frozen;
      const sA = frozen === 1 ? 0 : 1,
        sB = frozen === 2 ? 0 : 1;
      const iA0 = inv[ia], iA1 = inv[ia + 1], iA2 = inv[ia + 2], iA3 = inv[ia + 3], iA4 = inv[ia + 4], iA5 = inv[ia + 5];
      const iB0 = inv[ib], iB1 = inv[ib + 1], iB2 = inv[ib + 2], iB3 = inv[ib + 3], iB4 = inv[ib + 4], iB5 = inv[ib + 5];
      const n = mf[m + M_COUNT];
      // A body a fast partner may push approaches the rest of its contacts within the step (partnerPush.ts): its
      // speculative ones meet an impact.
      const pushedPair = pushed !== null && (pushed.has(a) || pushed.has(b));
      for (let k = 0; k < n; k++) {
        const pi = i * 4 + k,
          po = pi * PT,
          jo = pi * JN,
          fo = pi * FM,
          go = pi * GM;
        const rax = pt[po + P_RAX],
          ray = pt[po + P_RAX + 1],
          raz = pt[po + P_RAX + 2];
        const rbx = pt[po + P_RBX],
          rby = pt[po + P_RBX + 1],
          rbz = pt[po + P_RBX + 2];
        // Effective masses, inline (calls with many double arguments would box them): for directions
        // d, e: K(d, e) = (mA + mB) d.e + (rA x d) IA (rA x e) + (rB x d) IB (rB x e).
        const an_x = ray * nz - raz * ny, an_y = raz * nx - rax * nz, an_z = rax * ny - ray * nx;
        const bn_x = rby * nz - rbz * ny, bn_y = rbz * nx - rbx * nz, bn_z = rbx * ny - rby * nx;
        const a1x = ray * t1z - raz * t1y, a1y = raz * t1x - rax * t1z, a1z = rax * t1y - ray * t1x;
        const b1x = rby * t1z - rbz * t1y, b1y = rbz * t1x - rbx * t1z, b1z = rbx * t1y - rby * t1x;
        const a2x = ray * t2z - raz * t2y, a2y = raz * t2x - rax * t2z, a2z = rax * t2y - ray * t2x;
        const b2x = rby * t2z - rbz * t2y, b2y = rbz * t2x - rbx * t2z, b2z = rbx * t2y - rby * t2x;
        // I*(a x d) for A and B
        let ux = iA0 * an_x + iA3 * an_y + iA4 * an_z, uy = iA3 * an_x + iA1 * an_y + iA5 * an_z, uz = iA4 * an_x + iA5 * an_y + iA2 * an_z;
        let vx = iB0 * bn_x + iB3 * bn_y + iB4 * bn_z, vy = iB3 * bn_x + iB1 * bn_y + iB5 * bn_z, vz = iB4 * bn_x + iB5 * bn_y + iB2 * bn_z;
        if (frozen !== 0) {
          ux *= sA; uy *= sA; uz *= sA;
          vx *= sB; vy *= sB; vz *= sB;
        }
        const kn = mA * sA + mB * sB + an_x * ux + an_y * uy + an_z * uz + bn_x * vx + bn_y * vy + bn_z * vz;
        jn[jo + J_NM] = kn > 0 ? 1 / kn : 0;
        // The normal row's angular terms, once per step: the passes then read 12 numbers per contact instead
        // of recomputing two cross products and two inertia products per visit (Box2D v3 and bepu keep the
        // Jacobians and the inverse-inertia-weighted ones in the constraint the same way).
        jn[jo + J_ANX] = an_x; jn[jo + J_ANX + 1] = an_y; jn[jo + J_ANX + 2] = an_z;
        jn[jo + J_BNX] = bn_x; jn[jo + J_BNX + 1] = bn_y; jn[jo + J_BNX + 2] = bn_z;
        jn[jo + J_IANX] = ux; jn[jo + J_IANX + 1] = uy; jn[jo + J_IANX + 2] = uz;
        jn[jo + J_IBNX] = vx; jn[jo + J_IBNX + 1] = vy; jn[jo + J_IBNX + 2] = vz;
        ux = iA0 * a1x + iA3 * a1y + iA4 * a1z; uy = iA3 * a1x + iA1 * a1y + iA5 * a1z; uz = iA4 * a1x + iA5 * a1y + iA2 * a1z;
        vx = iB0 * b1x + iB3 * b1y + iB4 * b1z; vy = iB3 * b1x + iB1 * b1y + iB5 * b1z; vz = iB4 * b1x + iB5 * b1y + iB2 * b1z;
        const k11 = mA + mB + a1x * ux + a1y * uy + a1z * uz + b1x * vx + b1y * vy + b1z * vz;
        const k12 = a2x * ux + a2y * uy + a2z * uz + b2x * vx + b2y * vy + b2z * vz;
        ux = iA0 * a2x + iA3 * a2y + iA4 * a2z; uy = iA3 * a2x + iA1 * a2y + iA5 * a2z; uz = iA4 * a2x + iA5 * a2y + iA2 * a2z;
        vx = iB0 * b2x + iB3 * b2y + iB4 * b2z; vy = iB3 * b2x + iB1 * b2y + iB5 * b2z; vz = iB4 * b2x + iB5 * b2y + iB2 * b2z;
        const k22 = mA + mB + a2x * ux + a2y * uy + a2z * uz + b2x * vx + b2y * vy + b2z * vz;
        // The tangent pair's 2x2 effective mass (lever arms couple the two directions), stored inverted.
        const det = k11 * k22 - k12 * k12;
        const id = det > 1e-300 ? 1 / det : 0;
        fm[fo + F_T1M] = k22 * id;
        fm[fo + F_T2M] = k11 * id;
        fm[fo + F_T12M] = -k12 * id;
        // Its eigen-decomposition, once per step rather than at every friction projection (projectFriction).
        tangentK[0] = k11;
        tangentK[1] = k12;
        tangentK[2] = k22;
        tangentEigen(fm, fo);
        // Relative normal velocity before the solve (B relative to A; negative = approaching).
        const dvx = vel[b * 3] + (w[b * 3 + 1] * rbz - w[b * 3 + 2] * rby) - vel[a * 3] - (w[a * 3 + 1] * raz - w[a * 3 + 2] * ray);
        const dvy = vel[b * 3 + 1] + (w[b * 3 + 2] * rbx - w[b * 3] * rbz) - vel[a * 3 + 1] - (w[a * 3 + 2] * rax - w[a * 3] * raz);
        const dvz = vel[b * 3 + 2] + (w[b * 3] * rby - w[b * 3 + 1] * rbx) - vel[a * 3 + 2] - (w[a * 3] * ray - w[a * 3 + 1] * rax);
        jn[jo + J_RELVEL] = dvx * nx + dvy * ny + dvz * nz;
        // Approaching fast at the start of the step: an impact happens during it (see warmStart).
        pt[po + P_WARM] = jn[jo + J_RELVEL] < -impactSpeed || (pushedPair && jn[jo + J_SEP] > 0) ? 0 : -1;
        pt[po + P_IMPACT] = 0;
      }
      if (mf[m + M_ROLLING_RESISTANCE] > 0) prepareRolling(bodies, i, a, b, mf, m + M_ROLLING_RESISTANCE, m + M_NX, m + M_T1X, pt, i * 4 * PT + P_RAX, i * 4 * PT + P_RBX, PT, n | 0);
      // A manifold meeting an impact gets the normal effective mass at its contacts' centroid (see solve).
      let impact = 0;
      for (let k = 0; k < n; k++) if (pt[(i * 4 + k) * PT + P_WARM] >= 0) impact = 1;
      // A frozen pair's impact is stopped by its rows alone (the centroid pre-pass moves both bodies).
      mf[m + M_IMPACT] = n >= 2 && frozen === 0 ? impact : 0;
      if (n >= 2 && impact === 1) {
        let cax = 0, cay = 0, caz = 0, cbx = 0, cby = 0, cbz = 0;
        for (let k = 0; k < n; k++) {
          const po = (i * 4 + k) * PT;
          cax += pt[po + P_RAX]; cay += pt[po + P_RAX + 1]; caz += pt[po + P_RAX + 2];
          cbx += pt[po + P_RBX]; cby += pt[po + P_RBX + 1]; cbz += pt[po + P_RBX + 2];
        }
        cax /= n; cay /= n; caz /= n; cbx /= n; cby /= n; cbz /= n;
        const an_x = cay * nz - caz * ny, an_y = caz * nx - cax * nz, an_z = cax * ny - cay * nx;
        const bn_x = cby * nz - cbz * ny, bn_y = cbz * nx - cbx * nz, bn_z = cbx * ny - cby * nx;
        const kn =
          mA + mB +
          an_x * (iA0 * an_x + iA3 * an_y + iA4 * an_z) + an_y * (iA3 * an_x + iA1 * an_y + iA5 * an_z) + an_z * (iA4 * an_x + iA5 * an_y + iA2 * an_z) +
          bn_x * (iB0 * bn_x + iB3 * bn_y + iB4 * bn_z) + bn_y * (iB3 * bn_x + iB1 * bn_y + iB5 * bn_z) + bn_z * (iB4 * bn_x + iB5 * bn_y + iB2 * bn_z);
        mf[m + M_CENTROID_MASS] = kn > 0 ? 1 / kn : 0;
      }
    }
    shock.prepareRoutes(s, k4);
    pins.prepare(s, k4, bodies);
  }

  /** Grows the constraint arrays for the cache's manifolds (scratch: load rewrites what the passes read). */
  private grow(): ConstraintArrays {
    const count = this.cache.count,
      k4 = this.arrays;
    k4.mf = grown(k4.mf, count * MF, 0);
    k4.pt = grown(k4.pt, count * 4 * PT, 0);
    k4.jn = grown(k4.jn, count * 4 * JN, 0);
    k4.fm = grown(k4.fm, count * 4 * FM, 0);
    k4.gm = grown(k4.gm, count * 4 * GM, 0);
    k4.pair = grown(k4.pair, count * 2, 0);
    k4.kind = grown(k4.kind, count, 0);
    k4.rf = grown(k4.rf, count * RF, 0);
    return k4;
  }

  /**
   * Copies into slot i what the passes read of cache manifold ci (prepare calls it in the cache's order, so the cache
   * is streamed once): the bodies, the frame, materials, softness and routed loads, per contact the lever arms,
   * anchors, separation and last step's impulses, and the rolling anchors' round features.
   */
  private load(i: number, ci: number, bodies: BodySet): void {
    const s = this.cache,
      k4 = this.arrays;
    const hd = s.header,
      c = s.contacts,
      mf = k4.mf,
      pt = k4.pt,
      jn = k4.jn,
      gm = k4.gm;
    const o = ci * HEADER,
      m = i * MF;
    const a = s.bodyIndex[ci * 2],
      b = s.bodyIndex[ci * 2 + 1];
    k4.pair[i * 2] = a;
    k4.pair[i * 2 + 1] = b;
    // The spring's softness for the substep (passH). Contacts against bodies that cannot be pushed are stiffer
    // (Box2D v3 static softness: twice).
    const h = this.passH;
    const rigidOther = bodies.invMass[a] === 0 || bodies.invMass[b] === 0;
    const freq = rigidOther ? hd[o + H_FREQ] * this.settings.staticHertzScale : hd[o + H_FREQ];
    const zeta = hd[o + H_DAMPING];
    const omega = 2 * Math.PI * freq;
    const a1 = 2 * zeta + h * omega;
    const a2 = h * omega * a1;
    const a3 = 1 / (1 + a2);
    mf[m + M_BIAS_RATE] = omega / a1;
    mf[m + M_MASS_SCALE] = a2 * a3;
    mf[m + M_IMPULSE_SCALE] = a3;
    for (let k = 0; k < 9; k++) mf[m + M_NX + k] = hd[o + H_NX + k];
    const n = hd[o + H_COUNT];
    mf[m + M_COUNT] = n;
    mf[m + M_FRICTION] = hd[o + H_FRICTION];
    mf[m + M_STATIC_FRICTION] = hd[o + H_STATIC_FRICTION];
    mf[m + M_MAX_RECOVERY] = hd[o + H_MAX_RECOVERY];
    mf[m + M_ROLLING_RESISTANCE] = hd[o + H_ROLLING_RESISTANCE];
    for (let k = 0; k < 4; k++) mf[m + M_ROUTED + k] = hd[o + H_ROUTED + k];
    for (let k = 0; k < n; k++) {
      const pi = i * 4 + k,
        co = (ci * 4 + k) * CONTACT,
        po = pi * PT,
        jo = pi * JN,
        go = pi * GM;
      for (let d = 0; d < 3; d++) {
        pt[po + P_RAX + d] = c[co + C_RAX + d];
        pt[po + P_RBX + d] = c[co + C_RBX + d];
        gm[go + G_LAX + d] = c[co + C_LAX + d];
        gm[go + G_LBX + d] = c[co + C_LBX + d];
      }
      pt[po + P_NI] = c[co + C_NORMAL_IMPULSE];
      pt[po + P_T1I] = c[co + C_T1_IMPULSE];
      pt[po + P_T2I] = c[co + C_T2_IMPULSE];
      pt[po + P_STICK] = c[co + C_STICK];
      jn[jo + J_SEP] = c[co + C_SEPARATION];
      jn[jo + J_MAXNI] = 0;
      gm[go + G_ADJ] = c[co + C_ADJ_SEP];
      gm[go + G_TOTAL] = 0;
      // Anchors fixed in the bodies; rollingAnchors below sets those on a round feature.
      gm[go + G_KA] = 0;
      gm[go + G_KB] = 0;
    }
    // The round features the relax pass reads go to the slot's own arrays (constraintLayout.ts RF).
    mf[m + M_ROLLING_ANCHORS] = hd[o + H_ROUND] > 1 ? rollingAnchors(bodies, hd, ci, gm, k4.rf, i, a, b) : 0;
  }

  /**
   * Writes the step's results back to the cache once, after restitution (Box2D v3's b2StoreImpulses): the impulses
   * the next step warm starts with, the stick state, the routed loads, and the separations and summed impulses
   * that events, islands and the debug view read.
   */
  store(): void {
    const s = this.cache,
      k4 = this.arrays;
    const hd = s.header,
      c = s.contacts,
      mf = k4.mf,
      pt = k4.pt,
      jn = k4.jn,
      gm = k4.gm,
      slotOf = this.graph.slot;
    // In the cache's order, as prepare's load: the cache's manifolds are the large records.
    for (let ci = 0; ci < s.count; ci++) {
      const i = slotOf[ci];
      const o = ci * HEADER,
        m = i * MF;
      const n = hd[o + H_COUNT];
      for (let k = 0; k < 4; k++) hd[o + H_ROUTED + k] = mf[m + M_ROUTED + k];
      for (let k = 0; k < n; k++) {
        const pi = i * 4 + k,
          co = (ci * 4 + k) * CONTACT,
          po = pi * PT,
          jo = pi * JN,
          go = pi * GM;
        c[co + C_NORMAL_IMPULSE] = pt[po + P_NI];
        c[co + C_T1_IMPULSE] = pt[po + P_T1I];
        c[co + C_T2_IMPULSE] = pt[po + P_T2I];
        c[co + C_STICK] = pt[po + P_STICK];
        c[co + C_SEPARATION] = jn[jo + J_SEP];
        c[co + C_TOTAL_IMPULSE] = gm[go + G_TOTAL];
      }
    }
  }

  /**
   * One pass over the manifolds: in slot order on this thread, or colour by colour with each large colour's
   * manifolds over threads ({@link runner}); the overflow set on this thread. Within a colour no two manifolds share
   * a dynamic body, so the order in which a colour's manifolds are solved, and by whom, changes nothing: the result
   * is the one-thread result, bit for bit. Pin candidates (not the warm start's) come last, after the pins are
   * found at this pass's separations (pinnedContacts.ts).
   */
  private visit(pass: number, bodies: BodySet): void {
    const kinds = pass === PASS_WARM_START ? KINDS_ALL : KINDS_NOT_CANDIDATES;
    const runner = this.runner;
    if (runner === null || !runner.contactPass(this, bodies, pass, kinds)) this.runRange(pass, bodies, 0, this.cache.count, kinds);
    const pins = this.pins;
    if (pass === PASS_WARM_START || !pins.pinning) return;
    pins.updatePins(this.cache, this.arrays, bodies);
    const cand = pins.candidates;
    for (let q = 0; q < cand.count; q++) {
      const i = cand.data[q];
      this.runRange(pass, bodies, i, i + 1, KINDS_CANDIDATES);
    }
  }

  /**
   * @internal Runs `pass` (PASS_*) over the slots in [from, to) whose kind (ConstraintArrays.kind) is in `kinds` (a
   * bit per kind), at the substep length {@link passH} and the parity of {@link substep}: the one loop of each pass,
   * which a worker's replica of the solver runs over its blocks (src/parallel/contactBlocks.ts).
   */
  runRange(pass: number, bodies: BodySet, from: number, to: number, kinds: number): void {
    if (pass === PASS_WARM_START) this.warmStartRange(bodies, from, to, kinds);
    else if (pass === PASS_SOLVE) this.solveRange(bodies, from, to, kinds);
    else this.relaxRange(bodies, from, to, kinds);
  }

  /** Applies the accumulated impulses (normal and friction) to the bodies. */
  warmStart(bodies: BodySet): void {
    if (this.shock.active) this.shock.dropFrozenImpacts(this.cache, this.arrays);
    this.visit(PASS_WARM_START, bodies);
  }

  /**
   * The warm start of the slots in [from, to) whose kind (ConstraintArrays.kind) is in `kinds` (a bit per kind):
   * the loop {@link warmStart} runs, whole on one thread or colour by colour over threads.
   */
  private warmStartRange(bodies: BodySet, from: number, to: number, kinds: number): void {
    const pins = this.pins;
    const k4 = this.arrays,
      mf = k4.mf,
      pt = k4.pt,
      bi = k4.pair,
      kind = k4.kind;
    const invMass = bodies.invMass,
      I = bodies.invInertiaWorld,
      vel = bodies.vel,
      w = bodies.angVel;
    for (let i = from; i < to; i++) {
      if (((kinds >> kind[i]) & 1) === 0) continue;
      const m = i * MF;
      const a = bi[i * 2],
        b = bi[i * 2 + 1];
      const n = mf[m + M_COUNT];
      const nx = mf[m + M_NX],
        ny = mf[m + M_NX + 1],
        nz = mf[m + M_NX + 2];
      const t1x = mf[m + M_T1X],
        t1y = mf[m + M_T1X + 1],
        t1z = mf[m + M_T1X + 2];
      const t2x = mf[m + M_T2X],
        t2y = mf[m + M_T2X + 1],
        t2z = mf[m + M_T2X + 2];
      // Impulses applied inline (no calls with many double arguments: V8 would box them).
      const a3 = a * 3,
        b3 = b * 3,
        a6 = a * 6,
        b6 = b * 6;
      // A pinned body takes no part of the impulses along its pin (PinnedContacts.pinnedNormals), the rest in full.
      // A frozen manifold (shock propagation) warm starts both bodies whatever its pin: the load routed to the lower
      // body's support cancels its share.
      const pin = pins.pinning && mf[m + M_FROZEN] === 0 ? pins.state[i] : PIN_NONE;
      // The warm start is linear in the impulses: their sum and the sums of their moments about each centre of mass
      // go to the bodies once per manifold (one inverse-inertia product per body instead of one per contact).
      let px = 0, py = 0, pz = 0, lax = 0, lay = 0, laz = 0, lbx = 0, lby = 0, lbz = 0;
      for (let k = 0; k < n; k++) {
        const pi = i * 4 + k, po = pi * PT, jo = pi * JN, fo = pi * FM, go = pi * GM;
        // Warm start with the impulse the contact sustains, not with an impact's: the impulse that stopped an
        // approach in the last substep is not needed again, and re-applying it would throw the bodies back
        // for an iteration that every contact solved after this one sees (a box stopped by a wall throwing
        // back what is behind it).
        let pn = pt[po + P_NI];
        let p1 = pt[po + P_T1I],
          p2 = pt[po + P_T2I];
        const impact = pt[po + P_IMPACT];
        if (impact > 0) {
          const next = pn > impact ? pn - impact : 0;
          const scale = pn > 0 ? next / pn : 0;
          pn = next;
          p1 *= scale;
          p2 *= scale;
          pt[po + P_NI] = pn;
          pt[po + P_T1I] = p1;
          pt[po + P_T2I] = p2;
          pt[po + P_IMPACT] = 0;
        }
        if (pt[po + P_WARM] >= 0) pt[po + P_WARM] = pn;
        const qx = pn * nx + p1 * t1x + p2 * t2x;
        const qy = pn * ny + p1 * t1y + p2 * t2y;
        const qz = pn * nz + p1 * t1z + p2 * t2z;
        const rax = pt[po + P_RAX], ray = pt[po + P_RAX + 1], raz = pt[po + P_RAX + 2];
        const rbx = pt[po + P_RBX], rby = pt[po + P_RBX + 1], rbz = pt[po + P_RBX + 2];
        px += qx; py += qy; pz += qz;
        lax += ray * qz - raz * qy; lay += raz * qx - rax * qz; laz += rax * qy - ray * qx;
        lbx += rby * qz - rbz * qy; lby += rbz * qx - rbx * qz; lbz += rbx * qy - rby * qx;
      }
      const mA = invMass[a],
        mB = invMass[b];
      let pax = px, pay = py, paz = pz, pbx = px, pby = py, pbz = pz;
      if (pin !== PIN_NONE) {
        const ax = pins.axis,
          i3 = i * 3;
        const ex = ax[i3], ey = ax[i3 + 1], ez = ax[i3 + 2];
        const along = ex * px + ey * py + ez * pz;
        if (pin === PIN_A) {
          pax = px - along * ex; pay = py - along * ey; paz = pz - along * ez;
        } else {
          pbx = px - along * ex; pby = py - along * ey; pbz = pz - along * ez;
        }
      }
      vel[a3] -= mA * pax; vel[a3 + 1] -= mA * pay; vel[a3 + 2] -= mA * paz;
      vel[b3] += mB * pbx; vel[b3 + 1] += mB * pby; vel[b3 + 2] += mB * pbz;
      w[a3] -= I[a6] * lax + I[a6 + 3] * lay + I[a6 + 4] * laz;
      w[a3 + 1] -= I[a6 + 3] * lax + I[a6 + 1] * lay + I[a6 + 5] * laz;
      w[a3 + 2] -= I[a6 + 4] * lax + I[a6 + 5] * lay + I[a6 + 2] * laz;
      w[b3] += I[b6] * lbx + I[b6 + 3] * lby + I[b6 + 4] * lbz;
      w[b3 + 1] += I[b6 + 3] * lbx + I[b6 + 1] * lby + I[b6 + 5] * lbz;
      w[b3 + 2] += I[b6 + 4] * lbx + I[b6 + 5] * lby + I[b6 + 2] * lbz;
      if (mf[m + M_ROLLING_RESISTANCE] > 0) warmStartRolling(bodies, i, a, b);
    }
  }

  /**
   * The biased pass of a substep: normal rows with the spring bias (penetration pushed out, capped at the
   * maximum recovery velocity; speculative rows close exactly their gap; overlaps pushed through the positions
   * only, see SolverSettings.overlapDepth), then the friction rows. The
   * separation is the one the previous relax pass stored (the poses have not moved since).
   */
  solve(bodies: BodySet): void {
    this.visit(PASS_SOLVE, bodies);
  }

  /** The biased pass over the slots in [from, to) whose kind is in `kinds` (see warmStartRange). */
  private solveRange(bodies: BodySet, from: number, to: number, kinds: number): void {
    const h = this.passH,
      flip = this.substep & 1;
    const pins = this.pins;
    const k4 = this.arrays,
      mf = k4.mf,
      pt = k4.pt,
      jn = k4.jn,
      bi = k4.pair,
      kind = k4.kind;
    const invMass = bodies.invMass,
      vel = bodies.vel,
      w = bodies.angVel;
    const invH = 1 / h;
    const overlapDepth = this.settings.overlapDepth;
    for (let i = from; i < to; i++) {
      if (((kinds >> kind[i]) & 1) === 0) continue;
      const m = i * MF;
      const a = bi[i * 2],
        b = bi[i * 2 + 1];
      const n = mf[m + M_COUNT];
      const nx = mf[m + M_NX],
        ny = mf[m + M_NX + 1],
        nz = mf[m + M_NX + 2];
      const biasRate = mf[m + M_BIAS_RATE],
        massScale = mf[m + M_MASS_SCALE],
        impulseScale = mf[m + M_IMPULSE_SCALE],
        maxRecovery = mf[m + M_MAX_RECOVERY];
      const a3 = a * 3,
        b3 = b * 3;
      // A frozen manifold's lower body (shock propagation) and a pinned body (pinnedContacts.ts) take no share of
      // the normal rows. Both can only be the lighter body, so a frozen manifold ignores its pin: its rows already
      // hold the lower body fixed (the normal mass and the rows' angular terms are the upper body's, see prepare).
      const frozen = mf[m + M_FROZEN];
      const pin = pins.pinning && frozen === 0 ? pins.state[i] : PIN_NONE;
      const sA = frozen === 1 ? 0 : 1,
        sB = frozen === 2 ? 0 : 1;
      const mA = invMass[a] * sA,
        mB = invMass[b] * sB;
      // The directions of A's and B's linear response: n, or for a pinned body n without its part along the pin.
      let dax = nx, day = ny, daz = nz, dbx = nx, dby = ny, dbz = nz;
      if (pin !== PIN_NONE) {
        pins.pinnedNormals(i, mf, m + M_NX);
        const d = pinnedNormals;
        dax = d[0]; day = d[1]; daz = d[2]; dbx = d[3]; dby = d[4]; dbz = d[5];
      }
      // A pinned manifold is solved row by row against the pinned body (the centroid mass has both bodies); a
      // frozen one has no centroid pre-pass (prepare clears its M_IMPACT).
      if (mf[m + M_IMPACT] === 1 && pin === PIN_NONE) {
        // Impact pre-pass: one normal impulse at the contacts' centroid stops the manifold's mean approach
        // before the contacts are solved one by one. Sequential impulses alone let the first contact of a
        // face hit square take the whole impact and spin the body (a box stopped at 270 m/s by a wall left
        // with tens of rad/s); shared equally (the same torque as at the centroid), the impact stays square
        // and the per-contact rows below only correct it. Approach up to the smallest gap is allowed, as for
        // a speculative contact; the per-contact rows push penetration out.
        let minSep = Infinity;
        for (let k = 0; k < n; k++) {
          const sep = jn[(i * 4 + k) * JN + J_SEP];
          if (sep < minSep) minSep = sep;
        }
        centroidIO[0] = minSep > 0 ? minSep * invH : 0;
        shareCentroidImpulse(bodies, a, b, k4, i, n);
        if (centroidIO[1] > 0) {
          for (let k = 0; k < n; k++) {
            const pi = i * 4 + k, po = pi * PT, jo = pi * JN, fo = pi * FM, go = pi * GM;
            // Restitution wants each contact's approach speed at its first push (as the rows below record it).
            if (jn[jo + J_MAXNI] === 0) jn[jo + J_RELVEL] = preVn[k];
            if (pt[po + P_NI] > jn[jo + J_MAXNI]) jn[jo + J_MAXNI] = pt[po + P_NI];
          }
        }
      }
      if (frozen !== 0) saveFrozen(bodies, pt, i, n, frozen === 1 ? a : b);
      let vax = vel[a3], vay = vel[a3 + 1], vaz = vel[a3 + 2];
      let wax = w[a3], way = w[a3 + 1], waz = w[a3 + 2];
      let vbx = vel[b3], vby = vel[b3 + 1], vbz = vel[b3 + 2];
      let wbx = w[b3], wby = w[b3 + 1], wbz = w[b3 + 2];
      if (frozen === 1) vax = vay = vaz = wax = way = waz = 0;
      else if (frozen === 2) vbx = vby = vbz = wbx = wby = wbz = 0;
      // The contacts' order alternates per substep (see substep), as an integer start and step.
      const first = flip === 1 ? (n | 0) - 1 : 0,
        dk = flip === 1 ? -1 : 1;
      for (let kk = 0, k = first; kk < n; kk++, k += dk) {
        const pi = i * 4 + k, po = pi * PT, jo = pi * JN, fo = pi * FM, go = pi * GM;
        const sep = jn[jo + J_SEP];
        let bias = 0,
          ms = 1,
          is = 0,
          push = 0;
        if (sep > 0) {
          // Speculative: allow the approach that exactly closes the gap in this substep.
          bias = sep * invH;
        } else {
          bias = biasRate * sep;
          if (bias < -maxRecovery) bias = -maxRecovery;
          if (sep < -overlapDepth) {
            // An overlap: held rigidly, pushed out through the positions only (below).
            push = -bias;
            bias = 0;
          } else {
            ms = massScale;
            is = impulseScale;
          }
        }
        const vn =
          (vbx - vax) * nx + (vby - vay) * ny + (vbz - vaz) * nz +
          wbx * jn[jo + J_BNX] + wby * jn[jo + J_BNX + 1] + wbz * jn[jo + J_BNX + 2] -
          (wax * jn[jo + J_ANX] + way * jn[jo + J_ANX + 1] + waz * jn[jo + J_ANX + 2]);
        const old = pt[po + P_NI];
        // The spring holds the contact's own load; a load routed through it from a frozen pair above (route) is
        // not the spring's to give back.
        const own = old - mf[m + M_ROUTED + k];
        let nm = jn[jo + J_NM];
        if (pin !== PIN_NONE) {
          pinnedNormalMass(jn, jo, invMass, a, b, mf, m + M_NX);
          nm = pinnedMass[0];
        }
        if (push > 0) {
          // The overlap's push-out as a pseudo-velocity impulse: the pushes of one substep add up to at most the
          // cap along this normal, and the position integration drops them.
          const pv = this.pushVel,
            pw = this.pushAngVel;
          const pvn =
            (pv[b3] - pv[a3]) * nx + (pv[b3 + 1] - pv[a3 + 1]) * ny + (pv[b3 + 2] - pv[a3 + 2]) * nz +
            pw[b3] * jn[jo + J_BNX] + pw[b3 + 1] * jn[jo + J_BNX + 1] + pw[b3 + 2] * jn[jo + J_BNX + 2] -
            (pw[a3] * jn[jo + J_ANX] + pw[a3 + 1] * jn[jo + J_ANX + 1] + pw[a3 + 2] * jn[jo + J_ANX + 2]);
          const pl = pvn < push ? nm * (push - pvn) : 0;
          const pla = pl * mA,
            plb = pl * mB;
          pv[a3] -= pla * dax; pv[a3 + 1] -= pla * day; pv[a3 + 2] -= pla * daz;
          pv[b3] += plb * dbx; pv[b3 + 1] += plb * dby; pv[b3 + 2] += plb * dbz;
          const pwa = pl * sA,
            pwb = pl * sB;
          pw[a3] -= pwa * jn[jo + J_IANX]; pw[a3 + 1] -= pwa * jn[jo + J_IANX + 1]; pw[a3 + 2] -= pwa * jn[jo + J_IANX + 2];
          pw[b3] += pwb * jn[jo + J_IBNX]; pw[b3 + 1] += pwb * jn[jo + J_IBNX + 1]; pw[b3 + 2] += pwb * jn[jo + J_IBNX + 2];
        }
        let next = old - nm * ms * (vn + bias) - is * (own > 0 ? own : 0);
        if (next < 0) next = 0;
        const lambda = next - old;
        // Restitution wants the approach speed at impact: record it at the substep where the contact
        // first pushes this step (gravity up to then included), not at the start of the step.
        if (next > 0 && jn[jo + J_MAXNI] === 0) jn[jo + J_RELVEL] = vn;
        pt[po + P_NI] = next;
        if (next > jn[jo + J_MAXNI]) jn[jo + J_MAXNI] = next;
        // Applied unconditionally: a branch that is rarely taken would deoptimise this loop the first time.
        const la = lambda * mA,
          lb = lambda * mB;
        vax -= la * dax; vay -= la * day; vaz -= la * daz;
        vbx += lb * dbx; vby += lb * dby; vbz += lb * dbz;
        const lwa = lambda * sA,
          lwb = lambda * sB;
        wax -= lwa * jn[jo + J_IANX]; way -= lwa * jn[jo + J_IANX + 1]; waz -= lwa * jn[jo + J_IANX + 2];
        wbx += lwb * jn[jo + J_IBNX]; wby += lwb * jn[jo + J_IBNX + 1]; wbz += lwb * jn[jo + J_IBNX + 2];
      }
      vel[a3] = vax; vel[a3 + 1] = vay; vel[a3 + 2] = vaz;
      w[a3] = wax; w[a3 + 1] = way; w[a3 + 2] = waz;
      vel[b3] = vbx; vel[b3 + 1] = vby; vel[b3 + 2] = vbz;
      w[b3] = wbx; w[b3 + 1] = wby; w[b3 + 2] = wbz;
      if (frozen !== 0) this.shock.routeFrozen(this.cache, k4, bodies, i, n, frozen === 1 ? a : b);
      frictionRows(bodies, k4, bi, i, flip);
    }
  }

  /**
   * The relax pass of a substep, after the position integration: normal rows without the spring bias (only
   * the speculative gap is honoured, so no push-out energy remains in the velocities), at the separation of
   * the current poses, which it stores for the next substep's biased pass. Adds each contact's impulse to its
   * step total (for events), tracks impacts (see warmStart) and decides each contact's stick or slide.
   *
   * The separation is the t0 value plus the change of n . (anchorB - anchorA). With the anchors in body frames,
   * n . (R l) = (R^T n) . l, so n is rotated into each body's frame once per manifold and each contact costs two
   * dot products (Box2D v3's contact_solver.c keeps the same per-contact cost with its delta-position form).
   * On a round feature the anchor follows the feature's centre and axis, not its turn (rollingAnchors): a rolling
   * wheel's anchor fixed in it turned up off the floor within the step, and the contact stopped pushing.
   *
   * Friction is solved here only for a manifold whose impact this pass stops (in part): a speculative contact's
   * impact is stopped by the relax pass (the gap closes in the position update before it), and friction must act
   * within that impulse, bounded by mu times it (a domino landing flat must not keep its sliding speed).
   * Approaching at the start of the step (P_WARM) is not enough: the contacts of a rolling wheel sit ahead of its
   * lowest point and "approach" at ~0.1 x its speed every step, though the biased pass holds them; friction
   * solved twice on some wheels' substeps and once on others' yawed a car 1.3 degrees over 100 m. Only a relax
   * pass that pushes (the centroid pre-pass or a row of a contact meeting an impact) counts.
   *
   * Friction is solved here too for the manifolds of resting bodies (both slower than SolverSettings.restingSpeed, one of them
   * jointed) whose contacts slide (faster than SolverSettings.restingSlip): the joints' relax rows run just before this pass,
   * rigid, and move a jointed body's contact points again after the biased pass's friction held them.
   * Unanswered, that velocity integrates into creep: a braked 1.2 t car on four wheel joints slid 45 mm in 3 s
   * down a 15 degree slope (its wheels' contact points kept ~0.1 m/s of jitter, more than the friction cone left
   * room to take out in one pass); answered, it holds within 0.2 mm. Bodies without joints are left out: no joint
   * row changes their velocities after the biased pass's friction, and a second friction solve per substep for
   * them is a friction whose effect grows with the substep rate (a pile of 220 thin boxes stood 12 % taller at
   * 1/60 s than at 1/240 s with it, 0.1 % without: pileHeight.test.ts).
   *
   * Moving jointed bodies get it too, every second substep (odd {@link substep}), for every manifold with a jointed
   * body. Unanswered, the joints' relax rows left a driven car's four wheel contacts sliding a little every
   * substep, and at 30 render frames a second that slip fed a mirror-image toe mode of the Havok demo car (0.80
   * degrees of heading over 140 units of straight; Havok 0.09; answered: 0.002, test/plugin/demoCar.test.ts).
   * Every substep did the same at twice the cost; gated by each contact's slip it was solved on some wheels'
   * substeps and not on others' and yawed the car (0.40 degrees at 60 frames a second). A skinned ragdoll tumbling
   * down stairs opens its joints less with it (test/plugin/constraints.test.ts).
   */
  relax(bodies: BodySet): void {
    this.visit(PASS_RELAX, bodies);
    this.substep++;
  }

  /** The relax pass over the slots in [from, to) whose kind is in `kinds` (see warmStartRange). */
  private relaxRange(bodies: BodySet, from: number, to: number, kinds: number): void {
    const h = this.passH,
      flip = this.substep & 1;
    const pins = this.pins;
    const k4 = this.arrays,
      mf = k4.mf,
      pt = k4.pt,
      jn = k4.jn,
      gm = k4.gm,
      rf = k4.rf,
      bi = k4.pair,
      kind = k4.kind;
    const invMass = bodies.invMass,
      vel = bodies.vel,
      w = bodies.angVel,
      pos = bodies.pos,
      rot = bodies.rot;
    const invH = 1 / h;
    const settings = this.settings;
    const restingSlipSq = settings.restingSlip * settings.restingSlip,
      stickSpeedSq = settings.stickSpeed * settings.stickSpeed;
    for (let i = from; i < to; i++) {
      if (((kinds >> kind[i]) & 1) === 0) continue;
      const m = i * MF;
      const a = bi[i * 2],
        b = bi[i * 2 + 1];
      const n = mf[m + M_COUNT];
      const nx = mf[m + M_NX],
        ny = mf[m + M_NX + 1],
        nz = mf[m + M_NX + 2];
      const a3 = a * 3,
        b3 = b * 3,
        a4 = a * 4,
        b4 = b * 4;
      // Frozen lower bodies and pinned bodies as in solve.
      const frozen = mf[m + M_FROZEN];
      const pin = pins.pinning && frozen === 0 ? pins.state[i] : PIN_NONE;
      const sA = frozen === 1 ? 0 : 1,
        sB = frozen === 2 ? 0 : 1;
      const mA = invMass[a] * sA,
        mB = invMass[b] * sB;
      // The directions of A's and B's linear response: n, or for a pinned body n without its part along the pin.
      let dax = nx, day = ny, daz = nz, dbx = nx, dby = ny, dbz = nz;
      if (pin !== PIN_NONE) {
        pins.pinnedNormals(i, mf, m + M_NX);
        const d = pinnedNormals;
        dax = d[0]; day = d[1]; daz = d[2]; dbx = d[3]; dby = d[4]; dbz = d[5];
      }
      // n in A's and B's frames (rotation by the conjugate orientations), and n . (pB - pA).
      let qx = -rot[a4], qy = -rot[a4 + 1], qz = -rot[a4 + 2], qw = rot[a4 + 3];
      let tx = 2 * (qy * nz - qz * ny), ty = 2 * (qz * nx - qx * nz), tz = 2 * (qx * ny - qy * nx);
      const gax = nx + qw * tx + (qy * tz - qz * ty),
        gay = ny + qw * ty + (qz * tx - qx * tz),
        gaz = nz + qw * tz + (qx * ty - qy * tx);
      qx = -rot[b4]; qy = -rot[b4 + 1]; qz = -rot[b4 + 2]; qw = rot[b4 + 3];
      tx = 2 * (qy * nz - qz * ny); ty = 2 * (qz * nx - qx * nz); tz = 2 * (qx * ny - qy * nx);
      const gbx = nx + qw * tx + (qy * tz - qz * ty),
        gby = ny + qw * ty + (qz * tx - qx * tz),
        gbz = nz + qw * tz + (qx * ty - qy * tx);
      const dn = (pos[b3] - pos[a3]) * nx + (pos[b3 + 1] - pos[a3 + 1]) * ny + (pos[b3 + 2] - pos[a3 + 2]) * nz;
      // Each side's rolling factor f = |g_perp| - g . u (rollingAnchors): 0 unless the side has a round feature.
      let fa = 0,
        fb = 0;
      if (mf[m + M_ROLLING_ANCHORS] === 1) {
        for (let side = 0; side < 2; side++) {
          const ro = i * RF + side * RF_SIDE;
          const round = rf[ro + RF_KIND];
          if (round === ROUND_NONE) continue;
          const gx = side === 0 ? gax : gbx,
            gy = side === 0 ? gay : gby,
            gz = side === 0 ? gaz : gbz;
          let gp = 1;
          if (round === ROUND_AXIS) {
            const ge = gx * rf[ro + RF_AXIS] + gy * rf[ro + RF_AXIS + 1] + gz * rf[ro + RF_AXIS + 2];
            gp = ge * ge < 1 ? Math.sqrt(1 - ge * ge) : 0;
          }
          const f = gp - (gx * rf[ro + RF_U] + gy * rf[ro + RF_U + 1] + gz * rf[ro + RF_U + 2]);
          if (side === 0) fa = f;
          else fb = f;
        }
      }
      // Whether this pass raised the normal impulse of a contact meeting an impact (friction below).
      let impacting = 0;
      // Whether a contact slides faster than the resting slip after the joints' relax rows (friction below).
      let slipping = 0;
      // A pinned manifold is solved row by row against the pinned body (the centroid mass has both bodies).
      if (mf[m + M_IMPACT] === 1 && pin === PIN_NONE) {
        // The impact pre-pass (see solve) at the current separations: the position update has (partly) closed
        // the gap the biased pass saw, and allowing that stale gap again let the centroid approach into
        // penetration (thin plates through a mesh floor, a disc hull landing with spin).
        let minSep = Infinity;
        for (let k = 0; k < n; k++) {
          const pi = i * 4 + k, po = pi * PT, jo = pi * JN, fo = pi * FM, go = pi * GM;
          const sep =
            gm[go + G_ADJ] + dn +
            gbx * gm[go + G_LBX] + gby * gm[go + G_LBX + 1] + gbz * gm[go + G_LBX + 2] + fb * gm[go + G_KB] -
            (gax * gm[go + G_LAX] + gay * gm[go + G_LAX + 1] + gaz * gm[go + G_LAX + 2] + fa * gm[go + G_KA]);
          if (sep < minSep) minSep = sep;
        }
        centroidIO[0] = minSep > 0 ? minSep * invH : 0;
        shareCentroidImpulse(bodies, a, b, k4, i, n);
        if (centroidIO[1] > 0) {
          impacting = 1;
          for (let k = 0; k < n; k++) {
            const pi = i * 4 + k, po = pi * PT, jo = pi * JN, fo = pi * FM, go = pi * GM;
            if (pt[po + P_NI] > jn[jo + J_MAXNI]) jn[jo + J_MAXNI] = pt[po + P_NI];
          }
        }
      }
      if (frozen !== 0) saveFrozen(bodies, pt, i, n, frozen === 1 ? a : b);
      let vax = vel[a3], vay = vel[a3 + 1], vaz = vel[a3 + 2];
      let wax = w[a3], way = w[a3 + 1], waz = w[a3 + 2];
      let vbx = vel[b3], vby = vel[b3 + 1], vbz = vel[b3 + 2];
      let wbx = w[b3], wby = w[b3 + 1], wbz = w[b3 + 2];
      if (frozen === 1) vax = vay = vaz = wax = way = waz = 0;
      else if (frozen === 2) vbx = vby = vbz = wbx = wby = wbz = 0;
      const first = flip === 1 ? (n | 0) - 1 : 0,
        dk = flip === 1 ? -1 : 1;
      for (let kk = 0, k = first; kk < n; kk++, k += dk) {
        const pi = i * 4 + k, po = pi * PT, jo = pi * JN, fo = pi * FM, go = pi * GM;
        const sep =
          gm[go + G_ADJ] + dn +
          gbx * gm[go + G_LBX] + gby * gm[go + G_LBX + 1] + gbz * gm[go + G_LBX + 2] + fb * gm[go + G_KB] -
          (gax * gm[go + G_LAX] + gay * gm[go + G_LAX + 1] + gaz * gm[go + G_LAX + 2] + fa * gm[go + G_KA]);
        jn[jo + J_SEP] = sep;
        // Speculative: allow the approach that exactly closes the gap in this substep; touching: no bias.
        const bias = sep > 0 ? sep * invH : 0;
        const rax = pt[po + P_RAX], ray = pt[po + P_RAX + 1], raz = pt[po + P_RAX + 2];
        const rbx = pt[po + P_RBX], rby = pt[po + P_RBX + 1], rbz = pt[po + P_RBX + 2];
        const dvx = vbx + (wby * rbz - wbz * rby) - vax - (way * raz - waz * ray);
        const dvy = vby + (wbz * rbx - wbx * rbz) - vay - (waz * rax - wax * raz);
        const dvz = vbz + (wbx * rby - wby * rbx) - vaz - (wax * ray - way * rax);
        const vn = dvx * nx + dvy * ny + dvz * nz;
        const old = pt[po + P_NI];
        let nm = jn[jo + J_NM];
        if (pin !== PIN_NONE) {
          pinnedNormalMass(jn, jo, invMass, a, b, mf, m + M_NX);
          nm = pinnedMass[0];
        }
        let next = old - nm * (vn + bias);
        if (next < 0) next = 0;
        const lambda = next - old;
        pt[po + P_NI] = next;
        if (next > jn[jo + J_MAXNI]) jn[jo + J_MAXNI] = next;
        const la = lambda * mA,
          lb = lambda * mB;
        vax -= la * dax; vay -= la * day; vaz -= la * daz;
        vbx += lb * dbx; vby += lb * dby; vbz += lb * dbz;
        const lwa = lambda * sA,
          lwb = lambda * sB;
        wax -= lwa * jn[jo + J_IANX]; way -= lwa * jn[jo + J_IANX + 1]; waz -= lwa * jn[jo + J_IANX + 2];
        wbx += lwb * jn[jo + J_IBNX]; wby += lwb * jn[jo + J_IBNX + 1]; wbz += lwb * jn[jo + J_IBNX + 2];
        // Stick or slide in the next substep: a contact that pushed and still slides after the solve
        // slides (static friction could not stop it); one that stopped, or did not push, tries static.
        const vt2 = dvx * dvx + dvy * dvy + dvz * dvz - vn * vn;
        if (vt2 > restingSlipSq) slipping = 1;
        pt[po + P_STICK] = next === 0 || vt2 < stickSpeedSq ? 1 : 0;
        gm[go + G_TOTAL] += next;
        const warm = pt[po + P_WARM];
        if (warm >= 0) {
          if (lambda > 0) impacting = 1;
          const added = next - warm;
          pt[po + P_IMPACT] = added > 0 ? added : 0;
        }
      }
      vel[a3] = vax; vel[a3 + 1] = vay; vel[a3 + 2] = vaz;
      w[a3] = wax; w[a3 + 1] = way; w[a3 + 2] = waz;
      vel[b3] = vbx; vel[b3 + 1] = vby; vel[b3 + 2] = vbz;
      w[b3] = wbx; w[b3 + 1] = wby; w[b3 + 2] = wbz;
      if (frozen !== 0) this.shock.routeFrozen(this.cache, k4, bodies, i, n, frozen === 1 ? a : b);
      // An impact's friction gets a second Gauss-Seidel iteration: in one sequential pass over a face's contacts the
      // first rows' impulses, bounded contact by contact, spin the body about the normal and the later rows answer
      // that spin sideways (a box landing flat and square on a 29 degree slope left with 0.18 m/s across the
      // slope and 0.15 rad/s at 8 substeps, 0.29 and 0.31 at 4; 0.03 and 0.04 with the second pass). Only the
      // step a manifold's bodies close faster than the impact speed (SolverSettings.impactSpeed) pays for it.
      // Otherwise a jointed body's manifold gets friction every second substep, and resting and sliding every
      // substep (see the doc comment; flip and slipping are 0 or 1). Its slot is solved on the calling thread
      // (SLOT_CALLER: the pool marks every slot with a jointed body, workerPool.ts markCallerSlots; or a pin
      // candidate, which visit runs here last).
      if (impacting === 1) {
        frictionRows(bodies, k4, bi, i, flip);
        frictionRows(bodies, k4, bi, i, flip);
      } else if ((this.jointed.has(a) || this.jointed.has(b)) && (flip || (slipping && resting(bodies, a, b, settings)))) frictionRows(bodies, k4, bi, i, flip);
      // Rolling resistance after the friction (Box2D v3's order), here where the normal impulses carry the load
      // without the biased pass's push-out (bounded by those, a ball rolling at 5 m/s, its contact 2 mm deep
      // within the step, slowed 2.6 times too fast).
      if (mf[m + M_ROLLING_RESISTANCE] > 0) solveRolling(bodies, i, a, b, pt, i * 4 * PT + P_NI, PT, n | 0);
    }
  }

  /**
   * Restitution after the substeps (Box2D v3 b2ApplyRestitution): contacts that were approaching faster
   * than the threshold and pushed during the step get the normal velocity -e * (approach velocity).
   */
  applyRestitution(bodies: BodySet): void {
    applyRestitution(this.cache, this.arrays, bodies, this.pins, this.shock);
  }
}
