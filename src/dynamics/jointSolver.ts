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
 * per kind keeps the calls monomorphic); nothing allocates per step (see the module scratch below).
 */
import { PairTable } from "../collections/pairTable";
import { Quat } from "../math/quat";
import { MotionType } from "./motionType";
import { BodyFlag, type BodySet } from "./bodySet";
import {
  AXIS_COUNT,
  AxisMode,
  checkAxis,
  checkBool,
  checkFinite,
  checkMode,
  checkMotorType,
  checkNonNegative,
  checkVec,
  fmt,
  frameFromAxes,
  type JointAxis,
  type JointDescription,
  MotorType,
} from "./joint6dof";
import { ALL_ANGLES, addPointInertia, relativeAnglesOf, rotateInto, solveSym, wrapAngle } from "./jointMath";
import {
  GEO,
  JointKind,
  LOC,
  RIGID_PASS,
  RigidMode,
  pass as rigidPass,
  setHingeAxes,
  setPivots,
} from "./jointRigidBlocks";

const SLOTS = 1 << 20;

// Config per slot.
const C_PA = 0,
  C_PB = 3,
  C_QA = 6,
  C_QB = 10,
  C_AXES = 14;
const A_MODE = 0,
  A_MIN = 1,
  A_MAX = 2,
  A_K = 3,
  A_C = 4,
  A_FRIC = 5,
  A_MT = 6,
  A_TGT = 7,
  A_MAXF = 8,
  A_REST = 9,
  A_FPL = 10,
  // Spring motors (MotorType.SpringForce / SpringAcceleration): stiffness, damping, velocity target.
  A_MK = 11,
  A_MC = 12,
  A_VT = 13,
  AXS = 14;
const CFG = C_AXES + AXIS_COUNT * AXS;

// Solver state per slot: 5 accumulated impulses per axis, last world direction per axis, lever arms.
const I_EQ = 0,
  I_LO = 1,
  I_HI = 2,
  I_MOT = 3,
  I_FR = 4,
  IPA = 5;
const S_DIR = AXIS_COUNT * IPA,
  S_RA = S_DIR + AXIS_COUNT * 3,
  S_RB = S_RA + 3,
  S_SEP = S_RB + 3;
const ST = S_SEP + 3;

/** Per-slot floats of the generic geometry cache (JointSolver.gcache). */
const GC = AXIS_COUNT + 9;

const F_ALIVE = 1,
  F_ENABLED = 2,
  F_COLLIDE = 4;

// Shape of a joint (bits, from its axis settings at every prepare): which axes are rigid equalities
// solved in the blocks (bit k = axis k, LINEAR_X .. ANGULAR_Z; bit 6 stays clear), and whether any other axis (limit, motor,
// friction, spring, distance) needs a row of its own. A ball-and-socket is SH_LIN, a hinge SH_LIN | bits
// 4 and 5: neither needs the per-axis pass, and a ball-and-socket needs no angles at all.
const SH_LIN = 7,
  SH_ANG = 56,
  SH_ROWS = 128,
  ALL_AXES = (1 << AXIS_COUNT) - 1;

// ---------------------------------------------------------------- module scratch (no allocation per step)
//
// V8 boxes a double (allocates a HeapNumber) when it crosses a call that was not inlined, as an argument
// or a return value, and when it is stored in a module-level `let`. Over the ~13,000 joint solves of a
// chain-ragdoll step that was ~2 MB of garbage per step (a scavenge every other step). So the hot path keeps
// its numbers in these typed arrays; its helpers take arrays and indices and return nothing or a value
// they compute inline.

/** Velocities of the two bodies of the joint being solved: vA, wA, vB, wB. */
const V = new Float64Array(12);
/** Inverse masses of A and B; zero for bodies that do not move. */
const MS = new Float64Array(2);
/** Inverse inertia (world, symmetric 6) of A and B; zero for bodies that do not move. */
const IA = new Float64Array(6);
const IB = new Float64Array(6);
/** Rigid-row coefficients of the current pass: bias rate, mass scale, impulse scale, max linear and angular recovery speed. */
const PASS = new Float64Array(5);
const P_BIAS = 0,
  P_MASS = 1,
  P_IMP = 2,
  P_REC = 3,
  P_AREC = 4;
/** Rows (3 x 12: linA, angA, linB, angB; a per-axis row is row 0), their effective-mass matrix, rhs, solution, position errors, axes. */
const BR = new Float64Array(36);
const BK = new Float64Array(9);
const Brhs = new Float64Array(3);
const Bx = new Float64Array(3);
const BC = new Float64Array(3);
const Bax = new Int32Array(3);
/** Lever arms of the rows: A's to B's pivot (linear axes) at 0, B's at 3, A's to its own pivot (distance) at 6. */
const LEV = new Float64Array(9);
/** Impulses of the point block's three rows (pointApply); directions of the angular block's rows (3 each, solveAngular). */
const PL = new Float64Array(3);
const PT = new Float64Array(9);
const L_A = 0,
  L_AD = 6;
/** Geometry of the joint being solved: lever arms, pivot separation, frames A and B (quaternions), frame A's world axes (X, Y, Z at 0, 3, 6). */
const G_RA = new Float64Array(3);
const G_RB = new Float64Array(3);
const G_SEP = new Float64Array(3);
const G_FA = new Float64Array(4);
const G_FB = new Float64Array(4);
const G_AX = new Float64Array(9);
/** Relative rotation conj(FA) * FB, its angles and their Jacobians (local, and world with row k at 3k). */
const G_Q = new Float64Array(4);
const G_ANG = new Float64Array(3);
const G_JL = new Float64Array(9);
const G_JW = new Float64Array(9);
/** Position coordinate of each axis (linear x, y, z along frame A; angles; distance) and the distance direction. */
const G_POS = new Float64Array(AXIS_COUNT);
const G_N = new Float64Array(3);
const tmpQ = new Quat();
const tmpQ2 = new Quat();

function quadForm(s: Float64Array, x: number, y: number, z: number): number {
  return s[0] * x * x + s[1] * y * y + s[2] * z * z + 2 * (s[3] * x * y + s[4] * x * z + s[5] * y * z);
}

function bilinear(s: Float64Array, ux: number, uy: number, uz: number, vx: number, vy: number, vz: number): number {
  return (
    ux * (s[0] * vx + s[3] * vy + s[4] * vz) + uy * (s[3] * vx + s[1] * vy + s[5] * vz) + uz * (s[4] * vx + s[5] * vy + s[2] * vz)
  );
}

/** BK = J M^-1 J^T of the first n rows of BR (row-major, stride 3). */
function blockK(n: number): void {
  const mA = MS[0],
    mB = MS[1],
    J = BR;
  for (let r = 0; r < n; r++) {
    const o = r * 12;
    for (let s = 0; s <= r; s++) {
      const p = s * 12;
      let v =
        mA * (J[o] * J[p] + J[o + 1] * J[p + 1] + J[o + 2] * J[p + 2]) + mB * (J[o + 6] * J[p + 6] + J[o + 7] * J[p + 7] + J[o + 8] * J[p + 8]);
      if (r === s) v = v + quadForm(IA, J[o + 3], J[o + 4], J[o + 5]) + quadForm(IB, J[o + 9], J[o + 10], J[o + 11]);
      else v = v + bilinear(IA, J[o + 3], J[o + 4], J[o + 5], J[p + 3], J[p + 4], J[p + 5]) + bilinear(IB, J[o + 9], J[o + 10], J[o + 11], J[p + 9], J[p + 10], J[p + 11]);
      BK[r * 3 + s] = v;
      BK[s * 3 + r] = v;
    }
  }
}

/** J v of the row at offset o of BR. */
function rowJv(o: number): number {
  let s = 0;
  for (let k = 0; k < 12; k++) s += BR[o + k] * V[k];
  return s;
}

/** Impulse handed to applyRow (a double argument would be boxed where V8 does not inline the call). */
const DL = new Float64Array(1);

/** v += M^-1 J^T l for the row at offset o of BR, l = DL[0]. */
function applyRow(o: number): void {
  const l = DL[0];
  if (l === 0) return;
  const J = BR;
  const la = MS[0] * l,
    lb = MS[1] * l;
  V[0] += la * J[o];
  V[1] += la * J[o + 1];
  V[2] += la * J[o + 2];
  V[6] += lb * J[o + 6];
  V[7] += lb * J[o + 7];
  V[8] += lb * J[o + 8];
  let x = J[o + 3] * l,
    y = J[o + 4] * l,
    z = J[o + 5] * l;
  V[3] += IA[0] * x + IA[3] * y + IA[4] * z;
  V[4] += IA[3] * x + IA[1] * y + IA[5] * z;
  V[5] += IA[4] * x + IA[5] * y + IA[2] * z;
  x = J[o + 9] * l;
  y = J[o + 10] * l;
  z = J[o + 11] * l;
  V[9] += IB[0] * x + IB[3] * y + IB[4] * z;
  V[10] += IB[3] * x + IB[1] * y + IB[5] * z;
  V[11] += IB[4] * x + IB[5] * y + IB[2] * z;
}

/**
 * Linear row at offset o of BR along the direction dir[d..d+2], with A's lever arm LEV[ra..ra+2] and B's
 * LEV[3..5]: C' = d . (vB + wB x rb - vA - wA x ra).
 */
function setLinearRow(o: number, dir: Float64Array, d: number, ra: number): void {
  const J = BR;
  const dx = dir[d],
    dy = dir[d + 1],
    dz = dir[d + 2];
  const rax = LEV[ra],
    ray = LEV[ra + 1],
    raz = LEV[ra + 2];
  const rbx = LEV[3],
    rby = LEV[4],
    rbz = LEV[5];
  J[o] = -dx;
  J[o + 1] = -dy;
  J[o + 2] = -dz;
  J[o + 3] = -(ray * dz - raz * dy);
  J[o + 4] = -(raz * dx - rax * dz);
  J[o + 5] = -(rax * dy - ray * dx);
  J[o + 6] = dx;
  J[o + 7] = dy;
  J[o + 8] = dz;
  J[o + 9] = rby * dz - rbz * dy;
  J[o + 10] = rbz * dx - rbx * dz;
  J[o + 11] = rbx * dy - rby * dx;
}

/** Angular row at offset o of BR along dir[d..d+2]: C' = a . (wB - wA). */
function setAngularRow(o: number, dir: Float64Array, d: number): void {
  const J = BR;
  const ax = dir[d],
    ay = dir[d + 1],
    az = dir[d + 2];
  J[o] = 0;
  J[o + 1] = 0;
  J[o + 2] = 0;
  J[o + 3] = -ax;
  J[o + 4] = -ay;
  J[o + 5] = -az;
  J[o + 6] = 0;
  J[o + 7] = 0;
  J[o + 8] = 0;
  J[o + 9] = ax;
  J[o + 10] = ay;
  J[o + 11] = az;
}

/** The row of axis k (its stored direction, see storeDirections) at offset o of BR. */
function setAxisRow(o: number, k: number, st: Float64Array, so: number): void {
  const d = so + S_DIR + k * 3;
  if (k < 3) setLinearRow(o, st, d, L_A);
  else if (k < 6) setAngularRow(o, st, d);
  else setLinearRow(o, st, d, L_AD);
}

/** Loads a joint's stored lever arms into LEV (see LEV). */
function loadLevers(st: Float64Array, so: number): void {
  for (let k = 0; k < 3; k++) {
    LEV[L_A + k] = st[so + S_RA + k] + st[so + S_SEP + k];
    LEV[3 + k] = st[so + S_RB + k];
    LEV[L_AD + k] = st[so + S_RA + k];
  }
}

/**
 * Which of the joint's axes are rigid block rows, and whether others need rows (SH_*). Zeroes the
 * impulses of inactive axes (FREE, no motor, no friction): an axis whose friction was set to 0 would
 * otherwise keep warm-starting its last friction impulse forever.
 */
function classifyAxes(cfg: Float64Array, co: number, st: Float64Array, so: number): number {
  let sh = 0;
  for (let k = 0; k < AXIS_COUNT; k++) {
    const ao = co + k * AXS;
    const mode = cfg[ao + A_MODE];
    if (mode === AxisMode.Free && cfg[ao + A_MT] === MotorType.None && cfg[ao + A_FRIC] === 0 && cfg[ao + A_FPL] === 0) {
      st.fill(0, so + k * IPA, so + k * IPA + IPA);
      continue;
    }
    const equality = mode === AxisMode.Locked || (mode === AxisMode.Limited && !(cfg[ao + A_MIN] < cfg[ao + A_MAX]));
    const spring = mode !== AxisMode.Free && (cfg[ao + A_K] > 0 || cfg[ao + A_C] > 0);
    // A locked axis does not move: its friction and motor are moot.
    sh |= equality && !spring && k !== 6 ? 1 << k : SH_ROWS;
  }
  return sh;
}

/** The target of a rigid equality axis: 0 when LOCKED, min when LIMITED with min >= max. */
function equalityTarget(cfg: Float64Array, ao: number): number {
  return cfg[ao + A_MODE] === AxisMode.Locked ? 0 : cfg[ao + A_MIN];
}

/**
 * Which solver a joint of shape sh takes (./jointRigidBlocks): a rigid ball-and-socket or hinge held at
 * zero offsets gets its specialised rows, everything else the generic path.
 */
function kindOf(cfg: Float64Array, co: number, sh: number): number {
  const hinge = sh === (SH_LIN | 48);
  if (sh !== SH_LIN && !hinge) return JointKind.Generic;
  for (let k = 0; k < 6; k++) {
    if ((sh & (1 << k)) !== 0 && equalityTarget(cfg, co + k * AXS) !== 0) return JointKind.Generic;
  }
  return hinge ? JointKind.Hinge : JointKind.Ball;
}

/**
 * The rigid point block when LINEAR_X, Y and Z are all rigid (a ball-and-socket; the linear part of a hinge),
 * solved in world axes: the three frame-A rows d_r span space, so with A = (d_0 d_1 d_2) the block's
 * K_f = A^T K A and K_f^-1 (A^T c' + b) = A^T K^-1 (c' + A b), where K = (mA + mB) 1 - [ra]x IA [ra]x -
 * [rb]x IB [rb]x is the point's world effective-mass matrix (bepu's ball socket, Box2D's revolute point
 * block) and c' = vB + wB x rb - vA - wA x ra. Half the arithmetic of three generic rows, one velocity
 * update instead of three. The impulses stay per frame axis (softness, warm start, bias cap per axis).
 */
function solvePoint(cfg: Float64Array, co: number, st: Float64Array, so: number): void {
  const mA = MS[0],
    mB = MS[1];
  const m = mA + mB;
  BK[0] = m;
  BK[4] = m;
  BK[8] = m;
  BK[1] = 0;
  BK[2] = 0;
  BK[5] = 0;
  addPointInertia(BK, 0, IA, 0, LEV, L_A);
  addPointInertia(BK, 0, IB, 0, LEV, 3);
  BK[3] = BK[1];
  BK[6] = BK[2];
  BK[7] = BK[5];
  const rax = LEV[L_A],
    ray = LEV[L_A + 1],
    raz = LEV[L_A + 2],
    rbx = LEV[3],
    rby = LEV[4],
    rbz = LEV[5];
  // c' (world) plus the frame-axis bias rotated to world.
  let cx = V[6] + (V[10] * rbz - V[11] * rby) - V[0] - (V[4] * raz - V[5] * ray),
    cy = V[7] + (V[11] * rbx - V[9] * rbz) - V[1] - (V[5] * rax - V[3] * raz),
    cz = V[8] + (V[9] * rby - V[10] * rbx) - V[2] - (V[3] * ray - V[4] * rax);
  const bias = PASS[P_BIAS],
    maxRecovery = PASS[P_REC];
  for (let r = 0; r < 3; r++) {
    const ao = co + r * AXS;
    const target = cfg[ao + A_MODE] === AxisMode.Locked ? 0 : cfg[ao + A_MIN];
    let correction = bias * (G_POS[r] - target);
    if (correction > maxRecovery) correction = maxRecovery;
    else if (correction < -maxRecovery) correction = -maxRecovery;
    cx += G_AX[r * 3] * correction;
    cy += G_AX[r * 3 + 1] * correction;
    cz += G_AX[r * 3 + 2] * correction;
  }
  Brhs[0] = cx;
  Brhs[1] = cy;
  Brhs[2] = cz;
  solveSym(3, BK, Brhs, Bx);
  const ms = PASS[P_MASS],
    is = PASS[P_IMP];
  for (let r = 0; r < 3; r++) {
    const io = so + r * IPA + I_EQ;
    const old = st[io];
    const x = G_AX[r * 3] * Bx[0] + G_AX[r * 3 + 1] * Bx[1] + G_AX[r * 3 + 2] * Bx[2];
    const l = -ms * x - is * old;
    st[io] = old + l;
    PL[r] = l;
  }
  pointApply(G_AX, 0);
}

/**
 * Applies the point impulses PL[r] along the directions dir[d + 3r ..] as one world impulse P = sum d_r PL[r]:
 * vA -= mA P, wA -= IA (ra x P), vB += mB P, wB += IB (rb x P), with the lever arms in LEV.
 */
function pointApply(dir: Float64Array, d: number): void {
  const l0 = PL[0],
    l1 = PL[1],
    l2 = PL[2];
  const px = dir[d] * l0 + dir[d + 3] * l1 + dir[d + 6] * l2,
    py = dir[d + 1] * l0 + dir[d + 4] * l1 + dir[d + 7] * l2,
    pz = dir[d + 2] * l0 + dir[d + 5] * l1 + dir[d + 8] * l2;
  const mA = MS[0],
    mB = MS[1];
  V[0] -= mA * px;
  V[1] -= mA * py;
  V[2] -= mA * pz;
  V[6] += mB * px;
  V[7] += mB * py;
  V[8] += mB * pz;
  let ax = LEV[L_A],
    ay = LEV[L_A + 1],
    az = LEV[L_A + 2];
  let x = ay * pz - az * py,
    y = az * px - ax * pz,
    z = ax * py - ay * px;
  V[3] -= IA[0] * x + IA[3] * y + IA[4] * z;
  V[4] -= IA[3] * x + IA[1] * y + IA[5] * z;
  V[5] -= IA[4] * x + IA[5] * y + IA[2] * z;
  ax = LEV[3];
  ay = LEV[4];
  az = LEV[5];
  x = ay * pz - az * py;
  y = az * px - ax * pz;
  z = ax * py - ay * px;
  V[9] += IB[0] * x + IB[3] * y + IB[4] * z;
  V[10] += IB[3] * x + IB[1] * y + IB[5] * z;
  V[11] += IB[4] * x + IB[5] * y + IB[2] * z;
}

/**
 * The rigid angular block (the ANGULAR axes in `sh` that are rigid: a hinge's two swings) over its rows
 * a_r = the stored directions, J = (0, -a_r, 0, a_r): solveBlock's arithmetic without the zero linear
 * parts (they only add exact zeros), so the result matches the generic block.
 */
function solveAngular(cfg: Float64Array, co: number, st: Float64Array, so: number, sh: number): void {
  let n = 0;
  for (let k = 3; k < 6; k++) {
    if ((sh & (1 << k)) === 0) continue;
    const d = so + S_DIR + k * 3;
    PT[n * 3] = st[d];
    PT[n * 3 + 1] = st[d + 1];
    PT[n * 3 + 2] = st[d + 2];
    const ao = co + k * AXS;
    BC[n] = wrapAngle(G_POS[k] - (cfg[ao + A_MODE] === AxisMode.Locked ? 0 : cfg[ao + A_MIN]));
    Bax[n] = k;
    n++;
  }
  const bias = PASS[P_BIAS],
    maxRecovery = PASS[P_AREC];
  for (let r = 0; r < n; r++) {
    const x = PT[r * 3],
      y = PT[r * 3 + 1],
      z = PT[r * 3 + 2];
    for (let s = 0; s <= r; s++) {
      const k =
        r === s
          ? quadForm(IA, x, y, z) + quadForm(IB, x, y, z)
          : bilinear(IA, x, y, z, PT[s * 3], PT[s * 3 + 1], PT[s * 3 + 2]) + bilinear(IB, x, y, z, PT[s * 3], PT[s * 3 + 1], PT[s * 3 + 2]);
      BK[r * 3 + s] = k;
      BK[s * 3 + r] = k;
    }
    let correction = bias * BC[r];
    if (correction > maxRecovery) correction = maxRecovery;
    else if (correction < -maxRecovery) correction = -maxRecovery;
    Brhs[r] = -x * V[3] - y * V[4] - z * V[5] + x * V[9] + y * V[10] + z * V[11] + correction;
  }
  solveSym(n, BK, Brhs, Bx);
  const ms = PASS[P_MASS],
    is = PASS[P_IMP];
  for (let r = 0; r < n; r++) {
    const io = so + Bax[r] * IPA + I_EQ;
    const old = st[io];
    const l = -ms * Bx[r] - is * old;
    st[io] = old + l;
    if (l === 0) continue;
    const x = PT[r * 3] * l,
      y = PT[r * 3 + 1] * l,
      z = PT[r * 3 + 2] * l;
    V[3] -= IA[0] * x + IA[3] * y + IA[4] * z;
    V[4] -= IA[3] * x + IA[1] * y + IA[5] * z;
    V[5] -= IA[4] * x + IA[5] * y + IA[2] * z;
    V[9] += IB[0] * x + IB[3] * y + IB[4] * z;
    V[10] += IB[3] * x + IB[1] * y + IB[5] * z;
    V[11] += IB[4] * x + IB[5] * y + IB[2] * z;
  }
}

/** Stores the world direction of each axis in `axes` (bits) as the joint's row direction for this solve and the next warm start. */
function storeDirections(st: Float64Array, so: number, axes: number): void {
  for (let k = 0; k < AXIS_COUNT; k++) {
    if ((axes & (1 << k)) === 0) continue;
    const d = so + S_DIR + k * 3;
    if (k < 6) {
      const g = k < 3 ? G_AX : G_JW,
        j = k < 3 ? k * 3 : (k - 3) * 3;
      st[d] = g[j];
      st[d + 1] = g[j + 1];
      st[d + 2] = g[j + 2];
    } else if (G_POS[6] >= 1e-9) {
      // Coincident pivots leave the last direction (the distance direction is undefined there).
      st[d] = G_N[0];
      st[d + 1] = G_N[1];
      st[d + 2] = G_N[2];
    }
  }
}

/** After anchors: the pivot distance G_POS[6] and its direction G_N. */
function distance(): void {
  const sx = G_SEP[0],
    sy = G_SEP[1],
    sz = G_SEP[2];
  const dist = Math.sqrt(sx * sx + sy * sy + sz * sz);
  G_POS[6] = dist;
  if (dist > 0) {
    G_N[0] = sx / dist;
    G_N[1] = sy / dist;
    G_N[2] = sz / dist;
  }
}

/** out = the world orientation of a joint frame: the body's rotation rot[qo..qo+3] (identity for qo < 0, the world) times the frame cfg[fo..fo+3]. */
function frameQuat(rot: Float64Array, qo: number, cfg: Float64Array, fo: number, out: Float64Array): void {
  let qx = 0,
    qy = 0,
    qz = 0,
    qw = 1;
  if (qo >= 0) {
    qx = rot[qo];
    qy = rot[qo + 1];
    qz = rot[qo + 2];
    qw = rot[qo + 3];
  }
  const fx = cfg[fo],
    fy = cfg[fo + 1],
    fz = cfg[fo + 2],
    fw = cfg[fo + 3];
  out[0] = qw * fx + qx * fw + qy * fz - qz * fy;
  out[1] = qw * fy - qx * fz + qy * fw + qz * fx;
  out[2] = qw * fz + qx * fy - qy * fx + qz * fw;
  out[3] = qw * fw - qx * fx - qy * fy - qz * fz;
}

/** out = conj(a) * b (quaternions x, y, z, w). */
function conjMul(a: Float64Array, b: Float64Array, out: Float64Array): void {
  const ax = a[0],
    ay = a[1],
    az = a[2],
    aw = a[3];
  out[0] = aw * b[0] - ax * b[3] - ay * b[2] + az * b[1];
  out[1] = aw * b[1] + ax * b[2] - ay * b[3] - az * b[0];
  out[2] = aw * b[2] - ax * b[1] + ay * b[0] - az * b[3];
  out[3] = aw * b[3] + ax * b[0] + ay * b[1] + az * b[2];
}

/** out = q v with q = rot[qo..qo+3] and v = cfg[po..po+2] - com[c..c+2]: a pivot's lever arm from the centre of mass. */
function leverArm(rot: Float64Array, qo: number, cfg: Float64Array, po: number, com: Float64Array, c: number, out: Float64Array): void {
  for (let k = 0; k < 3; k++) PIV[k] = cfg[po + k] - com[c + k];
  rotateInto(rot, qo, PIV, 0, out, 0);
}
const PIV = new Float64Array(3);

/** Soft-step coefficients (Box2D b2MakeSoft): [biasRate, massScale, impulseScale]. */
function makeSoft(hertz: number, zeta: number, h: number, out: Float64Array): void {
  if (!(hertz > 0)) {
    out[0] = 0;
    out[1] = 1;
    out[2] = 0;
    return;
  }
  if (hertz === Infinity) {
    out[0] = 1 / h;
    out[1] = 1;
    out[2] = 0;
    return;
  }
  const omega = 2 * Math.PI * hertz;
  const a1 = 2 * zeta + h * omega;
  const a2 = h * omega * a1;
  const a3 = 1 / (1 + a2);
  out[0] = omega / a1;
  out[1] = a2 * a3;
  out[2] = a3;
}

/** The joint solver: storage, user API, and the per-step prepare / warm start / solve. */
export class JointSolver {
  /**
   * Stiffness of the rigid rows (LOCKED axes, limits, rods) as a soft-step spring: the effective
   * frequency is min(jointHertz, jointHertzSubstepFraction x iterations x substep rate), with jointDampingRatio
   * (iterations: see jointPassesPerStep; 1 at 8 substeps or more).
   * Defaults Infinity, 0.25, 5: the joints get stiffer as the steps get smaller (Box2D v3 caps its joint
   * stiffness at a quarter of the substep rate). At 60 Hz x 8 substeps that is 120 Hz (omega h = pi / 2);
   * at 4 substeps Box2D v3's 60 Hz; at a car's 1/500 s steps x 8, 1000 Hz: a fixed 120 Hz there let a
   * light axle between a wheel and a chassis yield 10 degrees under tyre loads (issue 20). A soft row sags under a steady load F by F / (m_eff omega^2), so the
   * frequency sets the static joint error of a loaded chain (20 links + a 100x end weight: 4 mm at
   * 120 Hz, 16 mm at 60 Hz); above ~0.3 x the substep rate that chain gains energy (Gauss-Seidel with
   * one iteration cannot converge a stiffer row against a 100:1 mass ratio). Damping ratio 5
   * (Box2D v3's heavier choice over 2) settles the loaded chain's sag transient ~1000x faster and
   * leaves a free pendulum's energy unchanged (it only damps the error velocity).
   */
  jointHertz = Infinity;
  jointHertzSubstepFraction = 0.25;
  jointDampingRatio = 5;
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

  private cfg = new Float64Array(CFG * 16);
  private st = new Float64Array(ST * 16);
  private bodyHandles = new Float64Array(2 * 16);
  private flags = new Uint8Array(16);
  private generation: Int32Array = new Int32Array(16);
  private dense: Int32Array = new Int32Array(2 * 16);
  private moves = new Uint8Array(2 * 16);
  /** Per slot, the SH_* bits of its axes (set by prepare for the joints it solves). */
  private shape = new Uint8Array(16);
  /** Per slot, its JointKind (set with shape): ball and hinge joints take ./jointRigidBlocks. */
  private kind = new Uint8Array(16);
  /** Per slot, the rigid blocks' local data (LOC) and their geometry from the current poses (GEO). */
  private loc = new Float64Array(LOC * 16);
  private geo = new Float64Array(GEO * 16);
  /** True once this step's rigid-block geometry matches the current poses (set by the first warm start, renewed by each relax pass). */
  private geoFresh = false;
  /** Per slot, a generic joint's axis positions and frame-A axes from its last geometry (AXIS_COUNT + 9); `genericFresh` as geoFresh. */
  private gcache = new Float64Array(GC * 16);
  private genericFresh = false;
  /** Set when a joint is created or an axis setting is touched: the next prepare classifies the axes again. */
  private shapesDirty = true;
  private freeSlots: number[] = [];
  private nextSlot = 0;
  /** Slots of live joints in creation order. */
  private order: Int32Array = new Int32Array(16);
  private orderCount = 0;
  /** Slots solved this step, by kind (creation order within each): ball and hinge joints, then the generic ones. */
  private rigidList: Int32Array = new Int32Array(16);
  private rigidCount = 0;
  private genericList: Int32Array = new Int32Array(16);
  private genericCount = 0;
  private pairs = new PairTable(0);
  private pairsDirty = false;
  private prevH = 0;
  private readonly soft = new Float64Array(3);
  /** The (hertz, damping ratio, h) that `soft` was computed for: it is renewed only when one changes. */
  private readonly softKey = new Float64Array(3);

  /** After prepare: the dense body indices of each enabled joint (b = -1 for world joints). */
  activeCount = 0;
  activeA = new Int32Array(16);
  activeB = new Int32Array(16);

  constructor(
    private readonly bodies: BodySet,
    private readonly wake: (handle: number) => void,
  ) {}

  /** Number of live joints. */
  get count(): number {
    return this.orderCount;
  }

  // ---------------------------------------------------------------- creation

  /** Creates a joint; returns its handle. */
  create(desc: JointDescription): number {
    if (typeof desc !== "object" || desc === null) throw new TypeError(`desc must be a JointDescription object, got ${fmt(desc)}`);
    const b = this.bodies;
    if (typeof desc.bodyA !== "number") throw new TypeError(`desc.bodyA must be a body handle, got ${fmt(desc.bodyA)}`);
    if (b.indexOf(desc.bodyA) < 0) throw new RangeError(`desc.bodyA is not a live body handle: ${fmt(desc.bodyA)}`);
    const hb = desc.bodyB;
    if (hb !== null) {
      if (typeof hb !== "number") throw new TypeError(`desc.bodyB must be a body handle or null, got ${fmt(hb)}`);
      if (b.indexOf(hb) < 0) throw new RangeError(`desc.bodyB is not a live body handle: ${fmt(hb)}`);
      if (hb === desc.bodyA) throw new RangeError(`desc.bodyB must differ from desc.bodyA, got ${fmt(hb)} for both`);
    }
    const zero = { x: 0, y: 0, z: 0 };
    const unitX = { x: 1, y: 0, z: 0 };
    const pA = desc.pivotA === undefined ? zero : checkVec("desc.pivotA", desc.pivotA);
    const pB = desc.pivotB === undefined ? zero : checkVec("desc.pivotB", desc.pivotB);
    const axA = desc.axisA === undefined ? unitX : checkVec("desc.axisA", desc.axisA);
    const axB = desc.axisB === undefined ? unitX : checkVec("desc.axisB", desc.axisB);
    const ppA = desc.perpAxisA === undefined ? null : checkVec("desc.perpAxisA", desc.perpAxisA);
    const ppB = desc.perpAxisB === undefined ? null : checkVec("desc.perpAxisB", desc.perpAxisB);
    frameFromAxes("desc.axisA", axA, "desc.perpAxisA", ppA, tmpQ);
    frameFromAxes("desc.axisB", axB, "desc.perpAxisB", ppB, tmpQ2);
    const enabled = desc.enabled === undefined ? true : checkBool("desc.enabled", desc.enabled);
    const collide = desc.collisionsEnabled === undefined ? false : checkBool("desc.collisionsEnabled", desc.collisionsEnabled);
    // Axis settings, validated before anything is stored.
    const axes = desc.axes ?? [];
    if (!Array.isArray(axes)) throw new TypeError(`desc.axes must be an array, got ${fmt(axes)}`);
    const ax = new Float64Array(AXIS_COUNT * AXS);
    for (let k = 0; k < AXIS_COUNT; k++) defaultAxis(ax, k * AXS);
    for (let i = 0; i < axes.length; i++) {
      const d = axes[i];
      const n = `desc.axes[${i}]`;
      if (typeof d !== "object" || d === null) throw new TypeError(`${n} must be a JointAxisDescription, got ${fmt(d)}`);
      const k = checkAxis(`${n}.axis`, d.axis);
      const o = k * AXS;
      ax[o + A_MODE] = checkMode(`${n}.mode`, d.mode);
      if (d.min !== undefined) ax[o + A_MIN] = checkLimit(`${n}.min`, d.min);
      if (d.max !== undefined) ax[o + A_MAX] = checkLimit(`${n}.max`, d.max);
      if (d.stiffness !== undefined) ax[o + A_K] = checkNonNegative(`${n}.stiffness`, d.stiffness);
      if (d.damping !== undefined) ax[o + A_C] = checkNonNegative(`${n}.damping`, d.damping);
      if (d.friction !== undefined) ax[o + A_FRIC] = checkNonNegative(`${n}.friction`, d.friction, true);
      if (d.motorType !== undefined) ax[o + A_MT] = checkMotorType(`${n}.motorType`, d.motorType);
      if (d.motorTarget !== undefined) ax[o + A_TGT] = checkFinite(`${n}.motorTarget`, d.motorTarget);
      if (d.motorMaxForce !== undefined) ax[o + A_MAXF] = checkNonNegative(`${n}.motorMaxForce`, d.motorMaxForce, true);
      if (d.springRest !== undefined) ax[o + A_REST] = checkFinite(`${n}.springRest`, d.springRest);
      if (d.frictionPerLoad !== undefined) ax[o + A_FPL] = checkNonNegative(`${n}.frictionPerLoad`, d.frictionPerLoad);
      if (d.motorStiffness !== undefined) ax[o + A_MK] = checkNonNegative(`${n}.motorStiffness`, d.motorStiffness);
      if (d.motorDamping !== undefined) ax[o + A_MC] = checkNonNegative(`${n}.motorDamping`, d.motorDamping);
      if (d.motorVelocityTarget !== undefined) ax[o + A_VT] = checkFinite(`${n}.motorVelocityTarget`, d.motorVelocityTarget);
    }

    const slot = this.allocSlot();
    const c = this.cfg,
      co = slot * CFG;
    c[co + C_PA] = pA.x;
    c[co + C_PA + 1] = pA.y;
    c[co + C_PA + 2] = pA.z;
    c[co + C_PB] = pB.x;
    c[co + C_PB + 1] = pB.y;
    c[co + C_PB + 2] = pB.z;
    c[co + C_QA] = tmpQ.x;
    c[co + C_QA + 1] = tmpQ.y;
    c[co + C_QA + 2] = tmpQ.z;
    c[co + C_QA + 3] = tmpQ.w;
    c[co + C_QB] = tmpQ2.x;
    c[co + C_QB + 1] = tmpQ2.y;
    c[co + C_QB + 2] = tmpQ2.z;
    c[co + C_QB + 3] = tmpQ2.w;
    c.set(ax, co + C_AXES);
    this.st.fill(0, slot * ST, slot * ST + ST);
    this.bodyHandles[slot * 2] = desc.bodyA;
    this.bodyHandles[slot * 2 + 1] = hb === null ? -1 : hb;
    this.flags[slot] = F_ALIVE | (enabled ? F_ENABLED : 0) | (collide ? F_COLLIDE : 0);
    if (this.orderCount === this.order.length) this.order = growI32(this.order, this.orderCount * 2);
    this.order[this.orderCount++] = slot;
    this.pairsDirty = true;
    this.shapesDirty = true;
    this.wakeBodies(slot, -1);
    return slot + this.generation[slot] * SLOTS;
  }

  /** Removes a joint (its bodies wake). */
  remove(handle: number): void {
    const slot = this.slot(handle, "remove");
    this.wakeBodies(slot, -1);
    this.release(slot);
  }

  /** True while the handle names a live joint. */
  isAlive(handle: number): boolean {
    if (!Number.isInteger(handle) || handle < 0) return false;
    const slot = handle % SLOTS;
    return slot < this.nextSlot && (this.flags[slot] & F_ALIVE) !== 0 && this.generation[slot] === (handle - slot) / SLOTS;
  }

  /** Handles of every live joint in creation order. */
  getHandles(out: number[] = []): number[] {
    out.length = 0;
    for (let i = 0; i < this.orderCount; i++) out.push(this.order[i] + this.generation[this.order[i]] * SLOTS);
    return out;
  }

  /** Removes every joint attached to a body (call before or after the body is released). */
  onBodyRemoved(bodyHandle: number): void {
    for (let i = this.orderCount - 1; i >= 0; i--) {
      const slot = this.order[i];
      if (this.bodyHandles[slot * 2] === bodyHandle || this.bodyHandles[slot * 2 + 1] === bodyHandle) {
        this.wakeBodies(slot, bodyHandle);
        this.release(slot);
      }
    }
  }

  getBodies(handle: number): { bodyA: number; bodyB: number | null } {
    const slot = this.slot(handle, "getBodies");
    const b = this.bodyHandles[slot * 2 + 1];
    return { bodyA: this.bodyHandles[slot * 2], bodyB: b < 0 ? null : b };
  }

  // ---------------------------------------------------------------- flags

  setEnabled(handle: number, enabled: boolean): void {
    const slot = this.slot(handle, "setEnabled");
    checkBool("enabled", enabled);
    const was = (this.flags[slot] & F_ENABLED) !== 0;
    if (enabled) this.flags[slot] |= F_ENABLED;
    else this.flags[slot] &= ~F_ENABLED;
    if (was !== enabled) {
      this.st.fill(0, slot * ST, slot * ST + ST);
      this.pairsDirty = true;
    }
    this.wakeBodies(slot, -1);
  }
  getEnabled(handle: number): boolean {
    return (this.flags[this.slot(handle, "getEnabled")] & F_ENABLED) !== 0;
  }

  setCollisionsEnabled(handle: number, enabled: boolean): void {
    const slot = this.slot(handle, "setCollisionsEnabled");
    checkBool("enabled", enabled);
    if (enabled) this.flags[slot] |= F_COLLIDE;
    else this.flags[slot] &= ~F_COLLIDE;
    this.pairsDirty = true;
    this.wakeBodies(slot, -1);
  }
  getCollisionsEnabled(handle: number): boolean {
    return (this.flags[this.slot(handle, "getCollisionsEnabled")] & F_COLLIDE) !== 0;
  }

  /** True if an enabled joint with collisions disabled links the two bodies (either order). */
  isCollisionDisabled(handleA: number, handleB: number): boolean {
    if (this.pairsDirty) this.rebuildPairs();
    if (this.pairs.count === 0) return false;
    return handleA < handleB ? this.pairs.find(handleA, handleB) >= 0 : this.pairs.find(handleB, handleA) >= 0;
  }

  // ---------------------------------------------------------------- axes

  setAxisMode(handle: number, axis: JointAxis, mode: (typeof AxisMode)[keyof typeof AxisMode]): void {
    const o = this.axisOffset(handle, axis, "setAxisMode");
    this.cfg[o + A_MODE] = checkMode("mode", mode);
    this.resetAxis(handle, axis);
  }
  getAxisMode(handle: number, axis: JointAxis): (typeof AxisMode)[keyof typeof AxisMode] {
    return this.cfg[this.axisOffset(handle, axis, "getAxisMode") + A_MODE] as (typeof AxisMode)[keyof typeof AxisMode];
  }

  /** Limits (m or rad) for LIMITED. +-Infinity leaves a side open; max below min holds the axis at min. */
  setAxisLimits(handle: number, axis: JointAxis, min: number, max: number): void {
    const o = this.axisOffset(handle, axis, "setAxisLimits");
    checkLimit("min", min);
    checkLimit("max", max);
    this.cfg[o + A_MIN] = min;
    this.cfg[o + A_MAX] = max;
    this.wakeHandle(handle);
  }
  setAxisMinLimit(handle: number, axis: JointAxis, min: number): void {
    const o = this.axisOffset(handle, axis, "setAxisMinLimit");
    this.cfg[o + A_MIN] = checkLimit("min", min);
    this.wakeHandle(handle);
  }
  setAxisMaxLimit(handle: number, axis: JointAxis, max: number): void {
    const o = this.axisOffset(handle, axis, "setAxisMaxLimit");
    this.cfg[o + A_MAX] = checkLimit("max", max);
    this.wakeHandle(handle);
  }
  getAxisMinLimit(handle: number, axis: JointAxis): number {
    return this.cfg[this.axisOffset(handle, axis, "getAxisMinLimit") + A_MIN];
  }
  getAxisMaxLimit(handle: number, axis: JointAxis): number {
    return this.cfg[this.axisOffset(handle, axis, "getAxisMaxLimit") + A_MAX];
  }

  /** Maximum friction force (N) or torque (N m) on the axis. */
  setAxisFriction(handle: number, axis: JointAxis, friction: number): void {
    const o = this.axisOffset(handle, axis, "setAxisFriction");
    this.cfg[o + A_FRIC] = checkNonNegative("friction", friction, true);
    this.resetFriction(handle, axis);
  }
  getAxisFriction(handle: number, axis: JointAxis): number {
    return this.cfg[this.axisOffset(handle, axis, "getAxisFriction") + A_FRIC];
  }

  setAxisMotorType(handle: number, axis: JointAxis, type: (typeof MotorType)[keyof typeof MotorType]): void {
    const o = this.axisOffset(handle, axis, "setAxisMotorType");
    const t = checkMotorType("type", type);
    if (this.cfg[o + A_MT] !== t) this.st[this.slot(handle, "setAxisMotorType") * ST + axis * IPA + I_MOT] = 0;
    this.cfg[o + A_MT] = t;
    this.wakeHandle(handle);
  }
  getAxisMotorType(handle: number, axis: JointAxis): (typeof MotorType)[keyof typeof MotorType] {
    return this.cfg[this.axisOffset(handle, axis, "getAxisMotorType") + A_MT] as (typeof MotorType)[keyof typeof MotorType];
  }
  setAxisMotorTarget(handle: number, axis: JointAxis, target: number): void {
    const o = this.axisOffset(handle, axis, "setAxisMotorTarget");
    this.cfg[o + A_TGT] = checkFinite("target", target);
    this.wakeHandle(handle);
  }
  getAxisMotorTarget(handle: number, axis: JointAxis): number {
    return this.cfg[this.axisOffset(handle, axis, "getAxisMotorTarget") + A_TGT];
  }
  setAxisMotorMaxForce(handle: number, axis: JointAxis, maxForce: number): void {
    const o = this.axisOffset(handle, axis, "setAxisMotorMaxForce");
    this.cfg[o + A_MAXF] = checkNonNegative("maxForce", maxForce, true);
    this.wakeHandle(handle);
  }
  getAxisMotorMaxForce(handle: number, axis: JointAxis): number {
    return this.cfg[this.axisOffset(handle, axis, "getAxisMotorMaxForce") + A_MAXF];
  }
  /**
   * Stiffness and damping of a spring motor (MotorType.SpringForce: N/m and N s/m, or N m/rad and N m s/rad;
   * SpringAcceleration: 1/s^2 and 1/s, scaled by the axis's effective mass).
   */
  setAxisMotorSpring(handle: number, axis: JointAxis, stiffness: number, damping: number): void {
    const o = this.axisOffset(handle, axis, "setAxisMotorSpring");
    checkNonNegative("stiffness", stiffness);
    checkNonNegative("damping", damping);
    this.cfg[o + A_MK] = stiffness;
    this.cfg[o + A_MC] = damping;
    this.wakeHandle(handle);
  }
  getAxisMotorStiffness(handle: number, axis: JointAxis): number {
    return this.cfg[this.axisOffset(handle, axis, "getAxisMotorStiffness") + A_MK];
  }
  getAxisMotorDamping(handle: number, axis: JointAxis): number {
    return this.cfg[this.axisOffset(handle, axis, "getAxisMotorDamping") + A_MC];
  }
  /** Velocity target (m/s or rad/s) of a spring motor; its position target is the motor target. */
  setAxisMotorVelocityTarget(handle: number, axis: JointAxis, target: number): void {
    const o = this.axisOffset(handle, axis, "setAxisMotorVelocityTarget");
    this.cfg[o + A_VT] = checkFinite("target", target);
    this.wakeHandle(handle);
  }
  getAxisMotorVelocityTarget(handle: number, axis: JointAxis): number {
    return this.cfg[this.axisOffset(handle, axis, "getAxisMotorVelocityTarget") + A_VT];
  }

  /** Makes the axis's limit / lock a spring (stiffness N/m or N m/rad, damping N s/m or N m s/rad); (0, 0) = rigid. */
  setAxisSpring(handle: number, axis: JointAxis, stiffness: number, damping: number): void {
    const o = this.axisOffset(handle, axis, "setAxisSpring");
    checkNonNegative("stiffness", stiffness);
    checkNonNegative("damping", damping);
    this.cfg[o + A_K] = stiffness;
    this.cfg[o + A_C] = damping;
    this.wakeHandle(handle);
  }
  /**
   * The position (m or rad) a LIMITED axis's spring pulls toward at all times, its limits then rigid stops (see
   * JointAxisDescription.springRest); NaN restores Havok's meaning (the spring acts beyond the limits only).
   */
  setAxisSpringRest(handle: number, axis: JointAxis, rest: number): void {
    const o = this.axisOffset(handle, axis, "setAxisSpringRest");
    if (typeof rest !== "number") throw new TypeError(`rest must be a number, got ${fmt(rest)}`);
    if (rest === Infinity || rest === -Infinity) throw new RangeError(`rest must be finite or NaN, got ${fmt(rest)}`);
    this.cfg[o + A_REST] = rest;
    this.wakeHandle(handle);
  }
  getAxisSpringRest(handle: number, axis: JointAxis): number {
    return this.cfg[this.axisOffset(handle, axis, "getAxisSpringRest") + A_REST];
  }

  /** Friction per unit of the joint's LINEAR_Y force on the axis (see JointAxisDescription.frictionPerLoad). */
  setAxisFrictionPerLoad(handle: number, axis: JointAxis, coefficient: number): void {
    const o = this.axisOffset(handle, axis, "setAxisFrictionPerLoad");
    this.cfg[o + A_FPL] = checkNonNegative("coefficient", coefficient);
    this.resetFriction(handle, axis);
  }
  getAxisFrictionPerLoad(handle: number, axis: JointAxis): number {
    return this.cfg[this.axisOffset(handle, axis, "getAxisFrictionPerLoad") + A_FPL];
  }

  getAxisStiffness(handle: number, axis: JointAxis): number {
    return this.cfg[this.axisOffset(handle, axis, "getAxisStiffness") + A_K];
  }
  getAxisDamping(handle: number, axis: JointAxis): number {
    return this.cfg[this.axisOffset(handle, axis, "getAxisDamping") + A_C];
  }

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
    if ((sh & SH_LIN) === SH_LIN) solvePoint(this.cfg, slot * CFG + C_AXES, this.st, so);
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

  private allocSlot(): number {
    let slot: number;
    if (this.freeSlots.length > 0) slot = this.freeSlots.pop()!;
    else {
      if (this.nextSlot >= SLOTS) throw new RangeError(`too many joints: at most ${SLOTS} can exist at once`);
      slot = this.nextSlot++;
      if (slot >= this.flags.length) this.growSlots(this.flags.length * 2);
    }
    return slot;
  }

  private growSlots(n: number): void {
    const f = (a: Float64Array, s: number) => {
      const r = new Float64Array(n * s);
      r.set(a);
      return r;
    };
    this.cfg = f(this.cfg, CFG);
    this.st = f(this.st, ST);
    this.bodyHandles = f(this.bodyHandles, 2);
    const fl = new Uint8Array(n);
    fl.set(this.flags);
    this.flags = fl;
    this.generation = growI32(this.generation, n);
    this.dense = growI32(this.dense, 2 * n);
    const mv = new Uint8Array(2 * n);
    mv.set(this.moves);
    this.moves = mv;
    const sh = new Uint8Array(n);
    sh.set(this.shape);
    this.shape = sh;
    const kd = new Uint8Array(n);
    kd.set(this.kind);
    this.kind = kd;
    this.loc = f(this.loc, LOC);
    this.geo = f(this.geo, GEO);
    this.gcache = f(this.gcache, GC);
  }

  private release(slot: number): void {
    this.flags[slot] = 0;
    this.generation[slot]++;
    this.freeSlots.push(slot);
    // Keep creation order: shift the later joints down.
    let k = 0;
    for (let i = 0; i < this.orderCount; i++) if (this.order[i] !== slot) this.order[k++] = this.order[i];
    this.orderCount = k;
    this.rigidCount = 0; // the next prepare rebuilds the solve lists
    this.genericCount = 0;
    this.pairsDirty = true;
  }

  private slot(handle: number, method: string): number {
    if (!this.isAlive(handle)) throw new RangeError(`${method}: joint handle ${fmt(handle)} is not alive`);
    return handle % SLOTS;
  }

  private axisOffset(handle: number, axis: JointAxis, method: string): number {
    const slot = this.slot(handle, method);
    checkAxis("axis", axis);
    this.shapesDirty = true;
    return slot * CFG + C_AXES + axis * AXS;
  }

  private resetAxis(handle: number, axis: JointAxis): void {
    const slot = handle % SLOTS;
    this.st.fill(0, slot * ST + axis * IPA, slot * ST + axis * IPA + IPA);
    this.wakeBodies(slot, -1);
  }

  /**
   * A changed friction starts its accumulated impulse over: a released brake's impulse would otherwise be
   * warm-started every substep with no row left to take it back (friction 0 solves no row).
   */
  private resetFriction(handle: number, axis: JointAxis): void {
    this.st[(handle % SLOTS) * ST + axis * IPA + I_FR] = 0;
    this.wakeHandle(handle);
  }

  private wakeHandle(handle: number): void {
    this.wakeBodies(handle % SLOTS, -1);
  }

  /** Wakes the joint's bodies that are alive (except `skip`). */
  private wakeBodies(slot: number, skip: number): void {
    for (let k = 0; k < 2; k++) {
      const h = this.bodyHandles[slot * 2 + k];
      if (h >= 0 && h !== skip && this.bodies.indexOf(h) >= 0) this.wake(h);
    }
  }

  private rebuildPairs(): void {
    this.pairs.clear();
    for (let i = 0; i < this.orderCount; i++) {
      const slot = this.order[i];
      const f = this.flags[slot];
      if ((f & F_ENABLED) === 0 || (f & F_COLLIDE) !== 0) continue;
      const a = this.bodyHandles[slot * 2],
        b = this.bodyHandles[slot * 2 + 1];
      if (b < 0) continue;
      if (a < b) this.pairs.insert(a, b);
      else this.pairs.insert(b, a);
    }
    this.pairsDirty = false;
  }
}

function defaultAxis(ax: Float64Array, o: number): void {
  ax[o + A_MODE] = AxisMode.Free;
  ax[o + A_MIN] = 0;
  ax[o + A_MAX] = 0;
  ax[o + A_K] = 0;
  ax[o + A_C] = 0;
  ax[o + A_FRIC] = 0;
  ax[o + A_MT] = MotorType.None;
  ax[o + A_TGT] = 0;
  ax[o + A_MAXF] = Infinity;
  ax[o + A_REST] = NaN;
  ax[o + A_FPL] = 0;
  ax[o + A_MK] = 0;
  ax[o + A_MC] = 0;
  ax[o + A_VT] = 0;
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

function checkLimit(name: string, v: unknown): number {
  if (typeof v !== "number") throw new TypeError(`${name} must be a number, got ${fmt(v)}`);
  if (Number.isNaN(v)) throw new RangeError(`${name} must be a number (not NaN), got NaN`);
  return v;
}

function movable(b: BodySet, i: number): boolean {
  return b.motionType[i] === MotionType.Dynamic && (b.flags[i] & BodyFlag.Sleeping) === 0;
}

function growI32(a: Int32Array, n: number): Int32Array {
  const r = new Int32Array(n);
  r.set(a.subarray(0, Math.min(a.length, n)));
  return r;
}
