/**
 * The joint solver's module scratch and row kernels (./jointSolver): the velocities, masses and geometry of
 * the joint being solved, rows as 12-wide Jacobians, the rigid point and angular blocks, axis classification
 * and the soft-step coefficients.
 */
import { AxisMode, MotorType, AXIS_COUNT } from "./joint6dof";
import { addPointInertia, solveSym, wrapAngle } from "./jointMath";
import { rotateParts } from "../../math/quat";
import { JointKind } from "./jointRigidBlocks";
import { A_C, A_FPL, A_FRIC, A_K, A_MAX, A_MIN, A_MODE, A_MT, AXS, I_EQ, IPA, S_DIR, S_RA, S_RB, S_SEP } from "./jointRegistry";


// Shape of a joint (bits, from its axis settings at every prepare): which axes are rigid equalities
// solved in the blocks (bit k = axis k, LINEAR_X .. ANGULAR_Z), whether the point block stands for a
// LINEAR_DISTANCE held at 0 (SH_DIST0, bit 6: then its targets are 0 whatever the linear axes say), and
// whether any other axis (limit, motor, friction, spring, distance) needs a row of its own. A ball-and-socket
// is SH_LIN, a hinge SH_LIN | bits 4 and 5: neither needs the per-axis pass, and a ball-and-socket needs no
// angles at all.
export const SH_LIN = 7,
  SH_ANG = 56,
  SH_DIST0 = 64,
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
export const V = new Float64Array(12);
/** Inverse masses of A and B; zero for bodies that do not move. */
export const MS = new Float64Array(2);
/** Inverse inertia (world, symmetric 6) of A and B; zero for bodies that do not move. */
export const IA = new Float64Array(6);
export const IB = new Float64Array(6);
/** Rigid-row coefficients of the current pass: bias rate, mass scale, impulse scale, max linear and angular recovery speed. */
export const PASS = new Float64Array(5);
export const P_BIAS = 0,
  P_MASS = 1,
  P_IMP = 2,
  P_REC = 3,
  P_AREC = 4;
/** Rows (3 x 12: linA, angA, linB, angB; a per-axis row is row 0), their effective-mass matrix, rhs, solution, position errors, axes. */
export const BR = new Float64Array(36);
export const BK = new Float64Array(9);
export const Brhs = new Float64Array(3);
export const Bx = new Float64Array(3);
export const BC = new Float64Array(3);
export const Bax = new Int32Array(3);
/** Lever arms of the rows: A's to B's pivot (linear axes) at 0, B's at 3, A's to its own pivot (distance) at 6. */
export const LEV = new Float64Array(9);
/** Impulses of the point block's three rows (pointApply); directions of the angular block's rows (3 each, solveAngular). */
export const PL = new Float64Array(3);
export const PT = new Float64Array(9);
export const L_A = 0,
  L_AD = 6;
/** Geometry of the joint being solved: lever arms, pivot separation, frames A and B (quaternions), frame A's world axes (X, Y, Z at 0, 3, 6). */
export const G_RA = new Float64Array(3);
export const G_RB = new Float64Array(3);
export const G_SEP = new Float64Array(3);
export const G_FA = new Float64Array(4);
export const G_FB = new Float64Array(4);
export const G_AX = new Float64Array(9);
/** Relative rotation conj(FA) * FB, its angles and their Jacobians (local, and world with row k at 3k). */
export const G_Q = new Float64Array(4);
export const G_ANG = new Float64Array(3);
export const G_JL = new Float64Array(9);
export const G_JW = new Float64Array(9);
/** Position coordinate of each axis (linear x, y, z along frame A; angles; distance) and the distance direction. */
export const G_POS = new Float64Array(AXIS_COUNT);
export const G_N = new Float64Array(3);

export function quadForm(s: Float64Array, x: number, y: number, z: number): number {
  return s[0] * x * x + s[1] * y * y + s[2] * z * z + 2 * (s[3] * x * y + s[4] * x * z + s[5] * y * z);
}

export function bilinear(s: Float64Array, ux: number, uy: number, uz: number, vx: number, vy: number, vz: number): number {
  return (
    ux * (s[0] * vx + s[3] * vy + s[4] * vz) + uy * (s[3] * vx + s[1] * vy + s[5] * vz) + uz * (s[4] * vx + s[5] * vy + s[2] * vz)
  );
}

/** BK = J M^-1 J^T of the first n rows of BR (row-major, stride 3). */
export function blockK(n: number): void {
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
export function rowJv(o: number): number {
  let s = 0;
  for (let k = 0; k < 12; k++) s += BR[o + k] * V[k];
  return s;
}

/** Impulse handed to applyRow (a double argument would be boxed where V8 does not inline the call). */
export const DL = new Float64Array(1);

/** v += M^-1 J^T l for the row at offset o of BR, l = DL[0]. */
export function applyRow(o: number): void {
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
export function setLinearRow(o: number, dir: Float64Array, d: number, ra: number): void {
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
export function setAngularRow(o: number, dir: Float64Array, d: number): void {
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
export function setAxisRow(o: number, k: number, st: Float64Array, so: number): void {
  const d = so + S_DIR + k * 3;
  if (k < 3) setLinearRow(o, st, d, L_A);
  else if (k < 6) setAngularRow(o, st, d);
  else setLinearRow(o, st, d, L_AD);
}

/** Loads a joint's stored lever arms into LEV (see LEV). */
export function loadLevers(st: Float64Array, so: number): void {
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
export function classifyAxes(cfg: Float64Array, co: number, st: Float64Array, so: number): number {
  let sh = 0;
  // A rigid LINEAR_DISTANCE held at 0 (LOCKED, or LIMITED to max <= 0) is a ball-and-socket: the pivots
  // coincide. One row along the separation cannot hold that: at zero length its direction is undefined
  // (the last one is kept), so the pivot drifts across it unresisted, and a wheel on such a joint (Babylon's
  // car demo) wobbles on its axle until the axle's free camber runs to its limit at speed. The point block
  // holds all three directions, as Havok does.
  const dao = co + 6 * AXS;
  const dmode = cfg[dao + A_MODE];
  const dist0 =
    (dmode === AxisMode.Locked || (dmode === AxisMode.Limited && cfg[dao + A_MAX] <= 0)) && !(cfg[dao + A_K] > 0 || cfg[dao + A_C] > 0);
  for (let k = 0; k < AXIS_COUNT; k++) {
    const ao = co + k * AXS;
    const mode = cfg[ao + A_MODE];
    if (dist0 && (k < 3 || k === 6)) {
      // The point block's rows (their settings are moot: the pivots coincide); the distance row is not solved.
      if (k === 6) {
        st.fill(0, so + k * IPA, so + k * IPA + IPA);
        sh |= SH_DIST0;
      } else sh |= 1 << k;
      continue;
    }
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
export function equalityTarget(cfg: Float64Array, ao: number): number {
  return cfg[ao + A_MODE] === AxisMode.Locked ? 0 : cfg[ao + A_MIN];
}

/**
 * Which solver a joint of shape sh takes (./jointRigidBlocks): a rigid ball-and-socket or hinge held at
 * zero offsets gets its specialised rows, everything else the generic path.
 */
export function kindOf(cfg: Float64Array, co: number, sh: number): number {
  const dist0 = (sh & SH_DIST0) !== 0;
  if (dist0) sh &= ~SH_DIST0;
  const hinge = sh === (SH_LIN | 48);
  if (sh !== SH_LIN && !hinge) return JointKind.Generic;
  for (let k = dist0 ? 3 : 0; k < 6; k++) {
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
export function solvePoint(cfg: Float64Array, co: number, st: Float64Array, so: number, dist0: boolean): void {
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
    const target = dist0 || cfg[ao + A_MODE] === AxisMode.Locked ? 0 : cfg[ao + A_MIN];
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
export function pointApply(dir: Float64Array, d: number): void {
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
export function solveAngular(cfg: Float64Array, co: number, st: Float64Array, so: number, sh: number): void {
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
export function storeDirections(st: Float64Array, so: number, axes: number): void {
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
export function distance(): void {
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
export function frameQuat(rot: Float64Array, qo: number, cfg: Float64Array, fo: number, out: Float64Array): void {
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
export function conjMul(a: Float64Array, b: Float64Array, out: Float64Array): void {
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
export function leverArm(rot: Float64Array, qo: number, cfg: Float64Array, po: number, com: Float64Array, c: number, out: Float64Array): void {
  for (let k = 0; k < 3; k++) PIV[k] = cfg[po + k] - com[c + k];
  rotateParts(rot[qo], rot[qo + 1], rot[qo + 2], rot[qo + 3], PIV[0], PIV[1], PIV[2], out, 0);
}
export const PIV = new Float64Array(3);

/** Soft-step coefficients (Box2D b2MakeSoft): [biasRate, massScale, impulseScale]. */
export function makeSoft(hertz: number, zeta: number, h: number, out: Float64Array): void {
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
