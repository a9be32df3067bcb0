/**
 * Joints: the generic 6-DoF joint (./joint6dof) solved in the substepped soft step (Box2D v3
 * solver.c / joint.c structure), before contacts in every pass.
 *
 * Per step `prepare(h)` resolves dense body indices and the softness coefficients (and, after a
 * setting changed, classifies each joint's axes: classifyAxes); per substep the world calls `warmStart`, `solve(useBias = true)`,
 * integrates positions, then `solve(useBias = false)` (relax); each solve iterates over the joints
 * ceil(jointPassesPerStep / substeps) times (more with fewer substeps). Every solve recomputes the joint
 * frames, the pivot separation and the relative angles from the bodies' CURRENT poses (the error is
 * never a stale prepare-time value), and the Jacobians from them, so lever arms and axes follow the
 * bodies within the step. It computes only what the joint's active axes use: a ball-and-socket (three
 * rigid linear axes) gets no angles and no per-axis pass, a hinge only the two swing angles. Rigid
 * ball-and-socket and hinge joints at zero offsets take their own rows (./jointRigidBlocks), their geometry
 * computed once per substep (the poses change only in the integrator).
 *
 * Rows, in the order solved per joint (later rows win, as in Box2D): per axis friction, motor,
 * springs and one-sided limits; then the rigid equality rows (LOCKED axes and LIMITED with
 * min = max) as two small blocks solved exactly: the angular ones (up to 3x3, solveAngular) and the
 * linear ones (up to 3x3; all three, as in a ball-and-socket or a hinge, make the point block, solved
 * in world axes by solvePoint).
 *
 * Softness (b2MakeSoft): rigid rows use the joint softness (hertz, damping ratio) in the biased pass
 * and are rigid (mass scale 1, no bias) in the relax pass; limits are speculative (the gap is closed
 * exactly, no bounce) when not yet reached. User springs convert stiffness k and damping c with the
 * row's effective mass m: omega^2 = k/m, 2 zeta omega = c/m, which gives (Catto, "Soft constraints")
 *   a = h (h k + c),  massScale = a K / (1 + a K),  impulseScale = 1 / (1 + a K),  biasRate = h k / a
 * with K = 1/m, solved in both passes (a spring is physics, not error correction).
 *
 * Storage: flat Float64Arrays per joint slot; handles are generational (slot + generation * 2^20);
 * ball-and-socket and hinge joints are solved first, then the generic ones, each group in creation order (one loop
 * Storage and the user API are ./jointRegistry (JointRegistry, which this class extends); the module scratch
 * and the row kernels are ./jointRows.
 * per kind keeps the calls monomorphic); nothing allocates per step (see the module scratch below).
 */
import { MotionType } from "../motionType";
import { BodyFlag, type BodySet } from "../bodySet";
import { AXIS_COUNT, AxisMode, checkAxis, type JointAxis, MotorType } from "./joint6dof";
import { ALL_ANGLES, relativeAnglesOf, solveSym, wrapAngle } from "./jointMath";
import { JointKind, LOC, RIGID_PASS, RigidMode, pass as rigidPass, setHingeAxes, setPivots } from "./jointRigidBlocks";
import {
  JointRegistry,
  AXS,
  A_C,
  A_FPL,
  A_FRIC,
  A_K,
  A_MAX,
  A_MAXF,
  A_MC,
  A_MIN,
  A_MK,
  A_MODE,
  A_MT,
  A_REST,
  A_TGT,
  A_VT,
  CFG,
  C_AXES,
  C_PA,
  C_PB,
  C_QA,
  C_QB,
  F_ENABLED,
  GC,
  IPA,
  I_EQ,
  I_FR,
  I_HI,
  I_LO,
  I_MOT,
  ST,
  S_DIR,
  S_RA,
  S_RB,
  S_SEP,
} from "./jointRegistry";
import {
  ALL_AXES,
  BC,
  BK,
  Bax,
  Brhs,
  Bx,
  DL,
  G_ANG,
  G_AX,
  G_FA,
  G_FB,
  G_JL,
  G_JW,
  G_POS,
  G_Q,
  G_RA,
  G_RB,
  G_SEP,
  IA,
  IB,
  LEV,
  L_A,
  L_AD,
  MS,
  PASS,
  PL,
  P_AREC,
  P_BIAS,
  P_IMP,
  P_MASS,
  P_REC,
  SH_ANG,
  SH_DIST0,
  SH_LIN,
  SH_ROWS,
  V,
  applyRow,
  blockK,
  classifyAxes,
  conjMul,
  distance,
  frameQuat,
  kindOf,
  leverArm,
  loadLevers,
  makeSoft,
  pointApply,
  rowJv,
  setAxisRow,
  solveAngular,
  solvePoint,
  storeDirections,
} from "./jointRows";


/** The joint solver: the per-step prepare / warm start / solve over the registry's storage. */
export class JointSolver extends JointRegistry {
  /**
   * Stiffness of the rigid rows (LOCKED axes, limits, rods) as a soft-step spring: the effective
   * frequency is min(jointHertz, jointHertzSubstepFraction x iterations x substep rate), with jointDampingRatio
   * (iterations: see jointPassesPerStep; 1 at 8 substeps or more).
   * Defaults Infinity, 0.25, 10: the joints get stiffer as the steps get smaller. At 60 Hz x 8 substeps that
   * is 120 Hz (omega h = pi / 2); at 4 substeps 60 Hz; at a car's 1/500 s steps x 8, 1000 Hz: a fixed 120 Hz
   * there let a light axle between a wheel and a chassis yield 10 degrees under tyre loads (issue 20). A soft
   * row sags under a steady load F by F / (m_eff omega^2) whatever its damping ratio, so the frequency sets the
   * static joint error of a loaded chain (20 links + a 100x end weight: 4 mm at 120 Hz, 16 mm at 60 Hz); above
   * ~0.3 x the substep rate that chain gains energy (Gauss-Seidel with one iteration cannot converge a stiffer
   * row against a 100:1 mass ratio).
   *
   * The damping ratio sets the other half of the soft step: the share of a row's position error that one
   * biased pass turns into correcting velocity, biasRate x h = omega h / (2 zeta + omega h). Box2D v3 caps its
   * joints at an eighth of the substep rate (omega h = pi / 4; world.c b2World_Step:
   * jointHertz = min(jointHertz, 0.125 inv_h)) with zeta 2 to 5: 0.16 to 0.073 of the error per substep. At
   * twice that frequency, zeta 10 keeps Box2D's 0.073 (and its error-decay rate omega / (2 zeta)) with a quarter
   * of its sag. Zeta 5 here corrected 0.136 per substep, and the Havok car demo (issue 29 item 3: 100 kg axles
   * between 100 kg wheels pinned to the ground by friction 50 and a 1000 kg frame, 180,000 N m drive motors)
   * then ran its driven axles' free camber to the +-0.05 limit from ~130 units/s and turned 1.2 degrees over
   * 140 units (Havok 0.24): the fraction that held it was 0.086 (a 0.15 substep cap), the one that did not 0.089
   * (zeta 8). Softening only the driven wheels' angular lock block held it as well, the point block did not.
   * That mode stays marginal: driven at 30 render frames a second, zeta 10 loses it where 5 held. Its cause is
   * not in the joints: their rigid relax rows move the wheels' contact points after the biased pass's friction,
   * which the contacts' relax pass leaves unanswered for moving bodies (the known defect in
   * test/plugin/demoCar.test.ts says what was measured and what answers it).
   * Above zeta ~12 a lock hit at 10 m/s with 4 substeps leaves more than 5 mm of error (test/joints/linear).
   * The damping leaves a free pendulum's energy unchanged (it only damps the error velocity).
   */
  jointHertz = Infinity;
  jointHertzSubstepFraction = 0.25;
  jointDampingRatio = 10;
  /**
   * Joint passes per step, at the least (each of the biased and the relax pass): with fewer substeps than
   * this, each substep iterates the joints ceil(jointPassesPerStep / substeps) times, and the rigid rows'
   * frequency cap counts the iterations (jointHertzSubstepFraction x iterations x substep rate), so joints
   * hold as at 8 substeps however few substeps the contacts take. Measured on the 20-link chain with a 100x
   * end weight: at 4 substeps with one iteration (60 Hz) it stretches 3.0 % (1 % allowed); with two (120 Hz)
   * 0.76 %, as at 8 substeps. One iteration at 120 Hz is not enough there (1.9 %: Gauss-Seidel does not
   * converge the stiffer rows), nor two iterations in the biased pass alone (5.3 mm joint error at rest at 6
   * substeps, 5 mm allowed).
   */
  jointPassesPerStep = 8;
  /** Joint iterations per substep (prepare: from jointPassesPerStep and the substep count). */
  private iterations = 1;
  /**
   * Largest speed at which the rigid rows close a position error (m/s for linear rows, rad/s for angular
   * rows), like the contacts' maximum recovery velocity: a joint re-enabled far from its rest pose pulls its
   * bodies together at a bounded speed instead of slinging them (Havok behaves alike).
   */
  maxRecoveryVelocity = 2;
  maxAngularRecoveryVelocity = 5;

  /** True once this step's rigid-block geometry matches the current poses (set by the first warm start, renewed by each relax pass). */
  private geoFresh = false;
  private genericFresh = false;
  private prevH = 0;
  private readonly soft = new Float64Array(3);
  /** The (hertz, damping ratio, h) that `soft` was computed for: it is renewed only when one changes. */
  private readonly softKey = new Float64Array(3);

  /** After prepare: the dense body indices of each enabled joint (b = -1 for world joints). */
  activeCount = 0;
  activeA = new Int32Array(16);
  activeB = new Int32Array(16);

  /**
   * Current position of the joint on an axis (m or rad, in the convention of ./jointMath), from the
   * bodies' current poses. For tests, debugging and viewers; not for the inner loop.
   */
  getAxisPosition(handle: number, axis: JointAxis): number {
    const slot = this.slot(handle, "getAxisPosition");
    checkAxis("axis", axis);
    const b = this.bodies;
    const a = b.indexOf(this.bodyHandles[slot * 2]);
    const hb = this.bodyHandles[slot * 2 + 1];
    const bi = hb < 0 ? -1 : b.indexOf(hb);
    if (a < 0 || (hb >= 0 && bi < 0)) return NaN;
    this.geometry(slot, a, bi);
    return G_POS[axis];
  }

  // ---------------------------------------------------------------- the step

  /** Resolves the bodies of every joint, the list to solve, island pairs and softness for substep h. */
  prepare(bodies: BodySet, dt: number, h: number): void {
    // Effective rigid-row frequency: jointHertz capped at a fraction of the substep rate.
    const substeps = Math.max(1, Math.round(dt / h));
    this.iterations = Math.max(1, Math.ceil(this.jointPassesPerStep / substeps));
    const hz = Math.min(this.jointHertz, (this.jointHertzSubstepFraction * this.iterations) / h);
    const key = this.softKey;
    // Only when an input changed: makeSoft runs twice per step at most, too seldom for V8 to optimise it, and
    // unoptimised code allocates a heap number for each double it computes (0.34 MB per 1000 chain-ragdoll steps).
    if (hz !== key[0] || this.jointDampingRatio !== key[1] || h !== key[2]) {
      makeSoft(hz, this.jointDampingRatio, h, this.soft);
      key[0] = hz;
      key[1] = this.jointDampingRatio;
      key[2] = h;
    }
    // Accumulated impulses are per substep: rescale them when the substep length changes (bepu).
    if (this.prevH > 0 && h !== this.prevH) {
      const s = h / this.prevH;
      const st = this.st;
      for (let i = 0; i < this.orderCount; i++) {
        const o = this.order[i] * ST;
        for (let k = 0; k < AXIS_COUNT * IPA; k++) st[o + k] *= s;
      }
    }
    this.prevH = h;
    if (this.shapesDirty) {
      for (let i = 0; i < this.orderCount; i++) {
        const slot = this.order[i];
        const sh = classifyAxes(this.cfg, slot * CFG + C_AXES, this.st, slot * ST);
        this.shape[slot] = sh;
        const kind = kindOf(this.cfg, slot * CFG + C_AXES, sh);
        // The kinds store their impulses differently (world vectors against per-axis ones): start over.
        if (kind !== this.kind[slot]) this.st.fill(0, slot * ST, slot * ST + AXIS_COUNT * IPA);
        this.kind[slot] = kind;
        const co = slot * CFG;
        if (kind === JointKind.Hinge) setHingeAxes(this.cfg, co + C_QA, co + C_QB, this.loc, slot * LOC);
      }
      this.shapesDirty = false;
    }
    if (this.activeA.length < this.orderCount) {
      this.activeA = new Int32Array(this.order.length);
      this.activeB = new Int32Array(this.order.length);
    }
    if (this.rigidList.length < this.orderCount) {
      this.rigidList = new Int32Array(this.order.length);
      this.genericList = new Int32Array(this.order.length);
    }
    let na = 0,
      nr = 0,
      ng = 0;
    const handles = bodies.handle,
      nb = bodies.count;
    for (let i = 0; i < this.orderCount; i++) {
      const slot = this.order[i];
      if ((this.flags[slot] & F_ENABLED) === 0) continue;
      // Last step's dense indices while they still name the joint's bodies (indexOf's slot arithmetic on
      // handles, which are doubles, cost more than the rest of prepare).
      const ha = this.bodyHandles[slot * 2],
        hb = this.bodyHandles[slot * 2 + 1];
      let a = this.dense[slot * 2],
        b = this.dense[slot * 2 + 1];
      if (!(a >= 0 && a < nb && handles[a] === ha)) a = bodies.indexOf(ha);
      if (hb < 0) b = -1;
      else if (!(b >= 0 && b < nb && handles[b] === hb)) b = bodies.indexOf(hb);
      if (a < 0 || (hb >= 0 && b < 0)) continue; // a body was removed without onBodyRemoved
      this.dense[slot * 2] = a;
      this.dense[slot * 2 + 1] = b;
      this.activeA[na] = a;
      this.activeB[na] = b;
      na++;
      const moveA = movable(bodies, a),
        moveB = b >= 0 && movable(bodies, b);
      this.moves[slot * 2] = moveA ? 1 : 0;
      this.moves[slot * 2 + 1] = moveB ? 1 : 0;
      if (moveA || moveB) {
        if (this.kind[slot] !== JointKind.Generic) {
          this.rigidList[nr++] = slot;
          const co = slot * CFG;
          setPivots(this.cfg, co + C_PA, co + C_PB, bodies.localCom, a, b, this.loc, slot * LOC);
        } else this.genericList[ng++] = slot;
      } else this.st.fill(0, slot * ST, slot * ST + AXIS_COUNT * IPA);
    }
    this.activeCount = na;
    this.rigidCount = nr;
    this.genericCount = ng;
    this.geoFresh = false;
    this.genericFresh = false;
  }

  /** Applies the accumulated impulses along the last solved directions. */
  warmStart(bodies: BodySet): void {
    const st = this.st;
    if (this.rigidCount > 0) this.rigidPass(bodies, this.geoFresh, RigidMode.Warm);
    for (let i = 0; i < this.genericCount; i++) {
      const slot = this.genericList[i];
      const so = slot * ST;
      // Only a joint with per-axis rows has impulses outside its block axes (classifyAxes zeroes the rest).
      const sh = this.shape[slot];
      const axes = (sh & SH_ROWS) !== 0 ? ALL_AXES : sh;
      let any = false,
        k0 = 0;
      if ((sh & SH_LIN) === SH_LIN) {
        // The three point rows at once (applyRow's arithmetic and order, without 12-wide rows).
        for (let k = 0; k < 3; k++) {
          const io = so + k * IPA;
          PL[k] = st[io + I_EQ] + st[io + I_LO] - st[io + I_HI] + st[io + I_MOT] + st[io + I_FR];
        }
        if (PL[0] !== 0 || PL[1] !== 0 || PL[2] !== 0) {
          this.load(bodies, slot);
          loadLevers(st, so);
          any = true;
          pointApply(st, so + S_DIR);
        }
        k0 = 3;
      }
      for (let k = k0; k < AXIS_COUNT; k++) {
        if ((axes & (1 << k)) === 0) continue;
        const io = so + k * IPA;
        const l = st[io + I_EQ] + st[io + I_LO] - st[io + I_HI] + st[io + I_MOT] + st[io + I_FR];
        if (l === 0) continue;
        if (!any) {
          this.load(bodies, slot);
          loadLevers(st, so);
          any = true;
        }
        setAxisRow(0, k, st, so);
        DL[0] = l;
        applyRow(0);
      }
      if (any) this.store(bodies, slot);
    }
    this.geoFresh = true;
  }

  /** One pass over the joints: with the biased softness (useBias) or rigid without bias (relax). */
  solve(bodies: BodySet, h: number, useBias: boolean): void {
    const st = this.st;
    // Rigid rows: joint softness in the biased pass, rigid and unbiased in the relax pass.
    const soft = this.soft;
    PASS[P_BIAS] = useBias ? soft[0] : 0;
    PASS[P_MASS] = useBias ? soft[1] : 1;
    PASS[P_IMP] = useBias ? soft[2] : 0;
    PASS[P_REC] = this.maxRecoveryVelocity;
    PASS[P_AREC] = this.maxAngularRecoveryVelocity;
    for (let k = 0; k < 5; k++) RIGID_PASS[k] = PASS[k];
    // The relax pass follows the integrator: the rigid blocks' geometry is renewed (and serves the next substep).
    const n = this.iterations;
    for (let it = 0; it < n; it++) {
      this.pass(bodies, h, useBias, it > 0 || (useBias && this.geoFresh), it > 0 || (useBias && this.genericFresh));
    }
    this.geoFresh = true;
    this.genericFresh = true;
  }

  /**
   * One pass over the joints with PASS's coefficients. `fresh`: the rigid blocks' geometry matches the poses;
   * `genericFresh`: so do the generic joints' stored lever arms, directions (st) and positions and frame axes (gcache).
   */
  private pass(bodies: BodySet, h: number, useBias: boolean, fresh: boolean, genericFresh: boolean): void {
    const st = this.st,
      gc = this.gcache;
    if (this.rigidCount > 0) this.rigidPass(bodies, fresh, RigidMode.Solve);
    for (let i = 0; i < this.genericCount; i++) {
      const slot = this.genericList[i];
      const sh = this.shape[slot];
      const rows = (sh & SH_ROWS) !== 0;
      const so = slot * ST,
        go = slot * GC;
      this.load(bodies, slot);
      if (genericFresh) {
        loadLevers(st, so);
        for (let k = 0; k < AXIS_COUNT; k++) G_POS[k] = gc[go + k];
        for (let k = 0; k < 9; k++) G_AX[k] = gc[go + AXIS_COUNT + k];
        this.solveGeneric(slot, sh, rows, h, useBias);
        this.store(bodies, slot);
        continue;
      }
      // Only the geometry the joint's rows use: a ball-and-socket needs no angles, a hinge only the swings.
      this.anchors(slot, this.dense[slot * 2], this.dense[slot * 2 + 1]);
      if (rows) {
        this.angles(slot, this.dense[slot * 2 + 1], ALL_ANGLES);
        distance();
      } else if ((sh & SH_ANG) !== 0) this.angles(slot, this.dense[slot * 2 + 1], (sh & SH_ANG) >> 3);
      // Remember this solve's lever arms and directions for the next warm start.
      for (let k = 0; k < 3; k++) {
        st[so + S_RA + k] = G_RA[k];
        st[so + S_RB + k] = G_RB[k];
        st[so + S_SEP + k] = G_SEP[k];
        LEV[L_A + k] = G_RA[k] + G_SEP[k];
        LEV[3 + k] = G_RB[k];
        LEV[L_AD + k] = G_RA[k];
      }
      storeDirections(st, so, rows ? ALL_AXES : sh);
      for (let k = 0; k < AXIS_COUNT; k++) gc[go + k] = G_POS[k];
      for (let k = 0; k < 9; k++) gc[go + AXIS_COUNT + k] = G_AX[k];
      this.solveGeneric(slot, sh, rows, h, useBias);
      this.store(bodies, slot);
    }
  }

  /** The generic joint's rows, from the geometry in the scratch (G_POS, G_AX, LEV) and its stored directions. */
  private solveGeneric(slot: number, sh: number, rows: boolean, h: number, useBias: boolean): void {
    const so = slot * ST;
    if (rows) this.solveRows(slot, h, useBias);
    if ((sh & SH_ANG) !== 0) solveAngular(this.cfg, slot * CFG + C_AXES, this.st, so, sh);
    if ((sh & SH_LIN) === SH_LIN) solvePoint(this.cfg, slot * CFG + C_AXES, this.st, so, (sh & SH_DIST0) !== 0);
    else if ((sh & SH_LIN) !== 0) this.solveBlock(slot, sh, 0, P_REC);
  }

  // ---------------------------------------------------------------- internals

  /** The ball and hinge joints (./jointRigidBlocks): their geometry unless still fresh, then `mode` (RigidMode). */
  private rigidPass(bodies: BodySet, fresh: boolean, mode: number): void {
    rigidPass(bodies, this.rigidList, this.rigidCount, this.kind, this.dense, this.moves, this.loc, this.geo, this.st, ST, fresh, mode);
  }

  /**
   * The per-axis rows of a joint (those that are not rigid block rows), in axis order: per axis
   * friction, motor, springs and one-sided limits.
   */
  private solveRows(slot: number, h: number, useBias: boolean): void {
    const cfg = this.cfg,
      st = this.st;
    const co = slot * CFG + C_AXES,
      so = slot * ST;
    const invH = 1 / h;
    const rMass = PASS[P_MASS],
      rBias = PASS[P_BIAS],
      rImp = PASS[P_IMP];
    const sh = this.shape[slot];
    for (let k = 0; k < AXIS_COUNT; k++) {
      if ((sh & (1 << k)) !== 0) continue; // a rigid block row
      const ao = co + k * AXS,
        io = so + k * IPA,
        d = so + S_DIR + k * 3;
      const mode = cfg[ao + A_MODE];
      const mt = cfg[ao + A_MT];
      const fric = cfg[ao + A_FRIC],
        fpl = cfg[ao + A_FPL];
      if (mode === AxisMode.Free && mt === MotorType.None && fric === 0 && fpl === 0) continue;
      // Coincident pivots: the distance direction is undefined; the last one is kept (none yet: no row).
      if (k === 6 && G_POS[6] < 1e-9 && st[d] === 0 && st[d + 1] === 0 && st[d + 2] === 0) continue;
      const lo = cfg[ao + A_MIN],
        hi = cfg[ao + A_MAX];
      const equality = mode === AxisMode.Locked || (mode === AxisMode.Limited && !(lo < hi));
      const target = mode === AxisMode.Locked ? 0 : lo;
      const ks = cfg[ao + A_K],
        cs = cfg[ao + A_C];
      let spring = mode !== AxisMode.Free && (ks > 0 || cs > 0);
      const rest = cfg[ao + A_REST];
      // A spring toward its rest position inside rigid limits (a suspension): its own row, then the limits.
      const restSpring = spring && !equality && rest === rest;
      setAxisRow(0, k, st, so);
      blockK(1);
      const K = BK[0];
      if (!(K > 0)) continue;
      const m = 1 / K;
      const pos = G_POS[k];
      const angular = k >= 3 && k < 6;
      // Friction: hold the axis still with at most `friction` N (N m), plus frictionPerLoad times the
      // LINEAR_Y force (this substep's accumulated impulses on that axis: spring, equality and limits).
      if ((fric > 0 || fpl > 0) && !equality) {
        const jv = rowJv(0);
        const yo = so + IPA;
        const load = st[yo + I_EQ] + st[yo + I_LO] - st[yo + I_HI];
        const max = fric * h + fpl * (load < 0 ? -load : load);
        const old = st[io + I_FR];
        let nw = old - m * jv;
        nw = nw < -max ? -max : nw > max ? max : nw;
        st[io + I_FR] = nw;
        DL[0] = nw - old;
        applyRow(0);
      }
      // Motor: a rigid row whose accumulated impulse is clamped at maxForce x h (Havok's motors hold their
      // target rigidly up to their maximum force; Box2D v3 b2SolveRevoluteJoint's motor is the velocity
      // form). A VELOCITY motor drives Jv to the target in both passes. A POSITION motor drives Jv to
      // the velocity that closes the error at the rigid rows' bias rate (capped at their recovery
      // speed), as a hard row: mass scale 1 and no impulse decay, so a steady load below maxForce leaves
      // no standing error (a soft row's decay term would need F / (m omega^2) of error to balance it). It
      // runs in the biased pass only: a relax pass would take back each substep's approach velocity, and
      // with a small maxForce the motor could not rebuild it (a 60 degree move took 2 s instead of 0.3 s).
      if (mt !== MotorType.None && !equality && (useBias || mt === MotorType.Velocity)) {
        const max = cfg[ao + A_MAXF] * h;
        const tgt = cfg[ao + A_TGT];
        const jv = rowJv(0);
        const old = st[io + I_MOT];
        let nw: number;
        if (mt === MotorType.Velocity) nw = old - m * (jv - tgt);
        else if (mt >= MotorType.SpringForce) nw = springMotor(cfg, ao, old, jv, angular ? wrapAngle(pos - tgt) : pos - tgt, K, h, mt);
        else {
          const err = angular ? wrapAngle(pos - tgt) : pos - tgt;
          const cap = angular ? PASS[P_AREC] : PASS[P_REC];
          let correction = rBias * err;
          correction = correction > cap ? cap : correction < -cap ? -cap : correction;
          nw = old - m * (jv + correction);
        }
        nw = nw < -max ? -max : nw > max ? max : nw;
        st[io + I_MOT] = nw;
        DL[0] = nw - old;
        applyRow(0);
      }
      if (mode === AxisMode.Free) continue;
      // Rows below: delta = -(cJv * Jv + cC * C) - cOld * accumulated (C = signed distance to the
      // target or limit). User springs run in the biased pass only (once per substep, like a
      // force); the relax pass leaves them alone.
      if (spring && !restSpring && !useBias) continue;
      // User spring: lambda = -h k (C + beta h C'new) - h c C'new, beta = u / (1 + u), u = h^2 k K.
      // beta = 1 is implicit Euler (stable, but it damps), beta = 0 symplectic Euler (energy
      // conserving, unstable past omega h = 2); this blend is stable for every stiffness and loses
      // only ~u^2 / 2 of the energy per substep.
      let sJv = 0,
        sC = 0,
        sOld = 0;
      if (spring) {
        const u = h * h * ks * K;
        const beta = u / (1 + u);
        const aa = h * (beta * h * ks + cs);
        sOld = 1 / (1 + aa * K);
        sJv = aa * sOld;
        sC = h * ks * sOld;
      }
      // Rigid rows: joint softness in the biased pass, rigid without bias in the relax pass.
      const rJv = m * rMass,
        rC = m * rMass * rBias;
      if (restSpring) {
        // The spring toward `rest` (biased pass only, like every user spring), then rigid limits (both passes).
        if (useBias) {
          const err = angular ? wrapAngle(pos - rest) : pos - rest;
          const old = st[io + I_EQ];
          const nw = old - (sJv * rowJv(0) + sC * err) - sOld * old;
          st[io + I_EQ] = nw;
          DL[0] = nw - old;
          applyRow(0);
        }
        spring = false;
      }
      if (equality) {
        // Soft equality (a spring to the target), or the rigid distance rod.
        const err = angular ? wrapAngle(pos - target) : pos - target;
        const jv = rowJv(0);
        const old = st[io + I_EQ];
        const nw = spring ? old - (sJv * jv + sC * err) - sOld * old : old - (rJv * jv + rC * err) - rImp * old;
        st[io + I_EQ] = nw;
        DL[0] = nw - old;
        applyRow(0);
        continue;
      }
      // One-sided limits (Box2D revolute limits): speculative above the limit, soft below it.
      for (let side = 0; side < 2; side++) {
        const lim = side === 0 ? lo : hi;
        if (lim === (side === 0 ? -Infinity : Infinity)) continue;
        const sign = side === 0 ? 1 : -1;
        const C = sign * (pos - lim);
        const slot2 = io + (side === 0 ? I_LO : I_HI);
        const old = st[slot2];
        let cJv: number, cC: number, cOld: number;
        if (spring) {
          if (C > 0) {
            // Not reached: a soft limit does not act (no speculative stop).
            st[slot2] = 0;
            DL[0] = -sign * old;
            applyRow(0);
            continue;
          }
          cJv = sJv;
          cC = sC;
          cOld = sOld;
        } else if (C > 0) {
          cJv = m;
          cC = m * invH;
          cOld = 0;
        } else {
          cJv = rJv;
          cC = rC;
          cOld = rImp;
        }
        const jv = sign * rowJv(0);
        let nw = old - (cJv * jv + cC * C) - cOld * old;
        if (nw < 0) nw = 0;
        st[slot2] = nw;
        DL[0] = sign * (nw - old);
        applyRow(0);
      }
    }
  }

  /**
   * The joint's rigid equality rows among axes first .. first + 2 (the angular or the linear ones; a
   * ball-and-socket's is the full 3x3 point block), solved together exactly with the pass's softness,
   * their velocity bias capped at PASS[rec].
   */
  private solveBlock(slot: number, sh: number, first: number, rec: number): void {
    const cfg = this.cfg,
      st = this.st;
    const co = slot * CFG + C_AXES,
      so = slot * ST;
    let n = 0;
    for (let k = first; k < first + 3; k++) {
      if ((sh & (1 << k)) === 0) continue;
      const ao = co + k * AXS;
      const target = cfg[ao + A_MODE] === AxisMode.Locked ? 0 : cfg[ao + A_MIN];
      setAxisRow(n * 12, k, st, so);
      BC[n] = k < 3 ? G_POS[k] - target : wrapAngle(G_POS[k] - target);
      Bax[n] = k;
      n++;
    }
    const bias = PASS[P_BIAS],
      ms = PASS[P_MASS],
      is = PASS[P_IMP],
      maxRecovery = PASS[rec];
    blockK(n);
    for (let r = 0; r < n; r++) {
      let correction = bias * BC[r];
      if (correction > maxRecovery) correction = maxRecovery;
      else if (correction < -maxRecovery) correction = -maxRecovery;
      Brhs[r] = rowJv(r * 12) + correction;
    }
    solveSym(n, BK, Brhs, Bx);
    for (let r = 0; r < n; r++) {
      const io = so + Bax[r] * IPA + I_EQ;
      const old = st[io];
      const d = -ms * Bx[r] - is * old;
      st[io] = old + d;
      DL[0] = d;
      applyRow(r * 12);
    }
  }

  /** Loads the velocities and (for bodies that move) inverse masses of a joint's bodies into scratch. */
  private load(bodies: BodySet, slot: number): void {
    const a = this.dense[slot * 2],
      b = this.dense[slot * 2 + 1];
    const vel = bodies.vel,
      w = bodies.angVel,
      inv = bodies.invInertiaWorld;
    V[0] = vel[a * 3];
    V[1] = vel[a * 3 + 1];
    V[2] = vel[a * 3 + 2];
    V[3] = w[a * 3];
    V[4] = w[a * 3 + 1];
    V[5] = w[a * 3 + 2];
    if (this.moves[slot * 2]) {
      MS[0] = bodies.invMass[a];
      for (let k = 0; k < 6; k++) IA[k] = inv[a * 6 + k];
    } else {
      MS[0] = 0;
      IA.fill(0);
    }
    if (b >= 0) {
      V[6] = vel[b * 3];
      V[7] = vel[b * 3 + 1];
      V[8] = vel[b * 3 + 2];
      V[9] = w[b * 3];
      V[10] = w[b * 3 + 1];
      V[11] = w[b * 3 + 2];
    } else V.fill(0, 6, 12);
    if (b >= 0 && this.moves[slot * 2 + 1]) {
      MS[1] = bodies.invMass[b];
      for (let k = 0; k < 6; k++) IB[k] = inv[b * 6 + k];
    } else {
      MS[1] = 0;
      IB.fill(0);
    }
  }

  /** Writes the scratch velocities back to the bodies that move. */
  private store(bodies: BodySet, slot: number): void {
    const vel = bodies.vel,
      w = bodies.angVel;
    if (this.moves[slot * 2]) {
      const a = this.dense[slot * 2] * 3;
      vel[a] = V[0];
      vel[a + 1] = V[1];
      vel[a + 2] = V[2];
      w[a] = V[3];
      w[a + 1] = V[4];
      w[a + 2] = V[5];
    }
    if (this.moves[slot * 2 + 1]) {
      const b = this.dense[slot * 2 + 1] * 3;
      vel[b] = V[6];
      vel[b + 1] = V[7];
      vel[b + 2] = V[8];
      w[b] = V[9];
      w[b + 1] = V[10];
      w[b + 2] = V[11];
    }
  }

  /** Frames, lever arms, separation, axis positions and angular Jacobians from the current poses. */
  private geometry(slot: number, a: number, b: number): void {
    this.anchors(slot, a, b);
    this.angles(slot, b, ALL_ANGLES);
    distance();
  }

  /**
   * From the current poses: the lever arms G_RA, G_RB, the pivot separation G_SEP, frame A (G_FA and its
   * axes G_AX) and the linear positions G_POS[0..2]: all that the linear axes need.
   */
  private anchors(slot: number, a: number, b: number): void {
    const bodies = this.bodies;
    const c = this.cfg,
      co = slot * CFG;
    const pos = bodies.pos,
      rot = bodies.rot,
      com = bodies.localCom;
    // A
    leverArm(rot, a * 4, c, co + C_PA, com, a * 3, G_RA);
    const pax = pos[a * 3] + G_RA[0],
      pay = pos[a * 3 + 1] + G_RA[1],
      paz = pos[a * 3 + 2] + G_RA[2];
    frameQuat(rot, a * 4, c, co + C_QA, G_FA);
    const ax = G_FA[0],
      ay = G_FA[1],
      az = G_FA[2],
      aw = G_FA[3];
    // B
    let pbx: number, pby: number, pbz: number;
    if (b >= 0) {
      leverArm(rot, b * 4, c, co + C_PB, com, b * 3, G_RB);
      pbx = pos[b * 3] + G_RB[0];
      pby = pos[b * 3 + 1] + G_RB[1];
      pbz = pos[b * 3 + 2] + G_RB[2];
    } else {
      G_RB[0] = 0;
      G_RB[1] = 0;
      G_RB[2] = 0;
      pbx = c[co + C_PB];
      pby = c[co + C_PB + 1];
      pbz = c[co + C_PB + 2];
    }
    const sx = pbx - pax,
      sy = pby - pay,
      sz = pbz - paz;
    G_SEP[0] = sx;
    G_SEP[1] = sy;
    G_SEP[2] = sz;
    // Frame A axes (columns of its matrix).
    const x2 = ax + ax,
      y2 = ay + ay,
      z2 = az + az;
    const xx = ax * x2,
      xy = ax * y2,
      xz = ax * z2,
      yy = ay * y2,
      yz = ay * z2,
      zz = az * z2,
      wx = aw * x2,
      wy = aw * y2,
      wz = aw * z2;
    const A = G_AX;
    A[0] = 1 - (yy + zz);
    A[1] = xy + wz;
    A[2] = xz - wy;
    A[3] = xy - wz;
    A[4] = 1 - (xx + zz);
    A[5] = yz + wx;
    A[6] = xz + wy;
    A[7] = yz - wx;
    A[8] = 1 - (xx + yy);
    G_POS[0] = sx * A[0] + sy * A[1] + sz * A[2];
    G_POS[1] = sx * A[3] + sy * A[4] + sz * A[5];
    G_POS[2] = sx * A[6] + sy * A[7] + sz * A[8];
  }

  /**
   * After anchors: frame B, the relative rotation q = conj(FA) * FB, and the angles in `mask` (bit k =
   * ANGULAR_X + k) into G_POS[3..5] with their world Jacobians G_JW.
   */
  private angles(slot: number, b: number, mask: number): void {
    const c = this.cfg,
      co = slot * CFG;
    frameQuat(this.bodies.rot, b * 4, c, co + C_QB, G_FB);
    conjMul(G_FA, G_FB, G_Q);
    relativeAnglesOf(G_Q, mask, G_ANG, G_JL);
    // World Jacobians: FA * local
    const A = G_AX;
    for (let k = 0; k < 3; k++) {
      if ((mask & (1 << k)) === 0) continue;
      G_POS[3 + k] = G_ANG[k];
      const l0 = G_JL[k * 3],
        l1 = G_JL[k * 3 + 1],
        l2 = G_JL[k * 3 + 2];
      G_JW[k * 3] = l0 * A[0] + l1 * A[3] + l2 * A[6];
      G_JW[k * 3 + 1] = l0 * A[1] + l1 * A[4] + l2 * A[7];
      G_JW[k * 3 + 2] = l0 * A[2] + l1 * A[5] + l2 * A[8];
    }
  }

}

/**
 * The new accumulated impulse of a spring motor row: force k (x* - x) + c (v* - v) on the axis, implicit in
 * the row (the ERP/CFM form of a soft constraint: gamma = 1 / (h (c + h k)), beta = h k / (c + h k); Erin
 * Catto, "Soft Constraints", GDC 2011), so any stiffness is stable. SpringAcceleration scales k and c by the
 * axis's effective mass 1/K, so the response does not depend on the bodies' masses. No spring (k = c = 0):
 * the impulse decays to 0.
 */
function springMotor(cfg: Float64Array, ao: number, old: number, jv: number, err: number, K: number, h: number, mt: number): number {
  let k = cfg[ao + A_MK],
    c = cfg[ao + A_MC];
  if (mt === MotorType.SpringAcceleration) {
    k /= K;
    c /= K;
  }
  const den = c + h * k;
  if (!(den > 0)) return 0;
  const gamma = 1 / (h * den);
  const beta = (h * k) / den;
  return old - (jv - cfg[ao + A_VT] + (beta / h) * err + gamma * old) / (K + gamma);
}

function movable(b: BodySet, i: number): boolean {
  return b.motionType[i] === MotionType.Dynamic && (b.flags[i] & BodyFlag.Sleeping) === 0;
}
