/**
 * Rolling resistance of contacts: an angular row per manifold that opposes the relative rolling of its two bodies
 * (their relative angular velocity about the contact's tangent axes; spin about the normal is not rolling) with
 * an angular impulse no larger than
 *
 *   bound = C x r x (the manifold's normal impulse),
 *
 * C the pair's coefficient (SurfaceMaterial.rollingResistance, dimensionless) and r the rolling body's radius at
 * the contact (the distance from its centre of mass to the contact plane). A ball or wheel coasting on a level
 * floor then feels the torque C N r that a tyre's rolling resistance coefficient describes, and slows at
 * C g m / (m + I / r^2). The row is Box2D v3's rolling resistance (contact_solver.c, b2SolveContact: the
 * relative angular velocity driven to zero through the angular effective mass, the accumulated impulse clamped
 * at rollingResistance x the total normal impulse), made 3D: a 2x2 block over the two tangent axes, clamped to
 * a disc.
 *
 * The contact solver calls these per manifold with a coefficient > 0 only (zero leaves the solver as it was):
 * ensureRolling and prepareRolling once per step, warmStartRolling every substep, solveRolling in the relax pass
 * after the normal rows (and the friction rows when those run there): its normal impulses are the load, without
 * the biased pass's push-out.
 * The rows' state lives in this module's scratch (one step's worth, sized to the step's manifolds): the impulse
 * starts at zero every step, so there is nothing to carry between steps (nor for a snapshot to capture).
 * Integers only as arguments (docs/design.md, doubles).
 */
import type { BodySet } from "../bodySet";
import { grown } from "../../collections/growth";

/** Per manifold: tangents t1 (0..2) and t2 (3..5), the inverse 2x2 effective mass (6..8), bound per unit normal impulse (9), impulses (10, 11). */
const R_T1 = 0,
  R_T2 = 3,
  R_M11 = 6,
  R_M12 = 7,
  R_M22 = 8,
  R_BOUND = 9,
  R_P1 = 10,
  R_P2 = 11,
  STRIDE = 12;

let rows = new Float64Array(STRIDE * 64);

/** The impulse applyAngular applies (along t1, t2). */
const delta = new Float64Array(2);

/** Makes room for `count` manifolds (grows only; called once per step before the prepares). */
export function ensureRolling(count: number): void {
  // Scratch: every row is rewritten by prepareRolling before it is read.
  rows = grown(rows, count * STRIDE, 0);
}

/**
 * Prepares manifold i's row between dense bodies a and b, from the contact solver's arrays (offsets, not values):
 * the pair's coefficient at hd[coef], the normal at hd[normal], tangents t1 and t2 at hd[t1] and hd[t1 + 3]; the
 * manifold's n contacts' lever arms at c[ra + k * stride] and c[rb + k * stride]. Sets the angular effective
 * mass, the bound per unit normal impulse (coefficient x rolling radius) and a zero impulse.
 */
export function prepareRolling(
  bodies: BodySet,
  i: number,
  a: number,
  b: number,
  hd: Float64Array,
  coef: number,
  normal: number,
  t1: number,
  c: Float64Array,
  ra: number,
  rb: number,
  stride: number,
  n: number,
): void {
  const r = i * STRIDE;
  for (let k = 0; k < 6; k++) rows[r + R_T1 + k] = hd[t1 + k];
  // Rolling radius: the distance from a moving body's centre of mass to the contact plane, the larger of the two
  // bodies', averaged over the contacts (a ball's radius; a wheel's on its rim, whichever side of the pair it is).
  const nx = hd[normal],
    ny = hd[normal + 1],
    nz = hd[normal + 2];
  const movesA = bodies.invMass[a] > 0,
    movesB = bodies.invMass[b] > 0;
  let radius = 0;
  for (let k = 0; k < n; k++) {
    const oa = ra + k * stride,
      ob = rb + k * stride;
    let da = movesA ? c[oa] * nx + c[oa + 1] * ny + c[oa + 2] * nz : 0,
      db = movesB ? c[ob] * nx + c[ob + 1] * ny + c[ob + 2] * nz : 0;
    if (da < 0) da = -da;
    if (db < 0) db = -db;
    radius += da > db ? da : db;
  }
  radius = n > 0 ? radius / n : 0;
  const I = bodies.invInertiaWorld;
  const a6 = a * 6,
    b6 = b * 6;
  // Sum of both inverse inertias (symmetric 6: xx, yy, zz, xy, xz, yz).
  const s0 = I[a6] + I[b6],
    s1 = I[a6 + 1] + I[b6 + 1],
    s2 = I[a6 + 2] + I[b6 + 2],
    s3 = I[a6 + 3] + I[b6 + 3],
    s4 = I[a6 + 4] + I[b6 + 4],
    s5 = I[a6 + 5] + I[b6 + 5];
  const ux = hd[t1], uy = hd[t1 + 1], uz = hd[t1 + 2];
  const vx = hd[t1 + 3], vy = hd[t1 + 4], vz = hd[t1 + 5];
  const Iux = s0 * ux + s3 * uy + s4 * uz,
    Iuy = s3 * ux + s1 * uy + s5 * uz,
    Iuz = s4 * ux + s5 * uy + s2 * uz;
  const Ivx = s0 * vx + s3 * vy + s4 * vz,
    Ivy = s3 * vx + s1 * vy + s5 * vz,
    Ivz = s4 * vx + s5 * vy + s2 * vz;
  const k11 = ux * Iux + uy * Iuy + uz * Iuz,
    k12 = ux * Ivx + uy * Ivy + uz * Ivz,
    k22 = vx * Ivx + vy * Ivy + vz * Ivz;
  const det = k11 * k22 - k12 * k12;
  // Neither body turns about the tangents (both static, kinematic or rotation-locked): no row.
  const ok = det > 1e-12 * (k11 * k11 + k22 * k22) && det > 0;
  const inv = ok ? 1 / det : 0;
  rows[r + R_M11] = k22 * inv;
  rows[r + R_M12] = -k12 * inv;
  rows[r + R_M22] = k11 * inv;
  rows[r + R_BOUND] = ok ? hd[coef] * radius : 0;
  rows[r + R_P1] = 0;
  rows[r + R_P2] = 0;
}

/** Applies manifold i's accumulated rolling impulse to a (minus) and b (plus), as every substep's warm start. */
export function warmStartRolling(bodies: BodySet, i: number, a: number, b: number): void {
  const r = i * STRIDE;
  const p1 = rows[r + R_P1],
    p2 = rows[r + R_P2];
  if (p1 === 0 && p2 === 0) return;
  delta[0] = p1;
  delta[1] = p2;
  applyAngular(bodies, a, b, r);
}

/**
 * Solves manifold i's rolling row: drives the relative angular velocity about the tangents to zero, the
 * accumulated impulse clamped to the disc of radius bound x (sum of the n normal impulses at c[base + k * stride]).
 */
export function solveRolling(bodies: BodySet, i: number, a: number, b: number, c: Float64Array, base: number, stride: number, n: number): void {
  const r = i * STRIDE;
  let pn = 0;
  for (let k = 0; k < n; k++) pn += c[base + k * stride];
  const max = rows[r + R_BOUND] * pn;
  const w = bodies.angVel;
  const a3 = a * 3,
    b3 = b * 3;
  const wx = w[b3] - w[a3],
    wy = w[b3 + 1] - w[a3 + 1],
    wz = w[b3 + 2] - w[a3 + 2];
  const u1 = wx * rows[r + R_T1] + wy * rows[r + R_T1 + 1] + wz * rows[r + R_T1 + 2];
  const u2 = wx * rows[r + R_T2] + wy * rows[r + R_T2 + 1] + wz * rows[r + R_T2 + 2];
  const o1 = rows[r + R_P1],
    o2 = rows[r + R_P2];
  let n1 = o1 - (rows[r + R_M11] * u1 + rows[r + R_M12] * u2);
  let n2 = o2 - (rows[r + R_M12] * u1 + rows[r + R_M22] * u2);
  const l2 = n1 * n1 + n2 * n2;
  if (l2 > max * max) {
    const s = max > 0 ? max / Math.sqrt(l2) : 0;
    n1 *= s;
    n2 *= s;
  }
  rows[r + R_P1] = n1;
  rows[r + R_P2] = n2;
  delta[0] = n1 - o1;
  delta[1] = n2 - o2;
  applyAngular(bodies, a, b, r);
}

/** Applies the angular impulse P = delta[0] t1 + delta[1] t2 of row r: a's angular velocity -= IA P, b's += IB P. */
function applyAngular(bodies: BodySet, a: number, b: number, r: number): void {
  const d1 = delta[0],
    d2 = delta[1];
  const I = bodies.invInertiaWorld,
    w = bodies.angVel;
  const px = d1 * rows[r + R_T1] + d2 * rows[r + R_T2],
    py = d1 * rows[r + R_T1 + 1] + d2 * rows[r + R_T2 + 1],
    pz = d1 * rows[r + R_T1 + 2] + d2 * rows[r + R_T2 + 2];
  const a3 = a * 3,
    b3 = b * 3,
    a6 = a * 6,
    b6 = b * 6;
  w[a3] -= I[a6] * px + I[a6 + 3] * py + I[a6 + 4] * pz;
  w[a3 + 1] -= I[a6 + 3] * px + I[a6 + 1] * py + I[a6 + 5] * pz;
  w[a3 + 2] -= I[a6 + 4] * px + I[a6 + 5] * py + I[a6 + 2] * pz;
  w[b3] += I[b6] * px + I[b6 + 3] * py + I[b6 + 4] * pz;
  w[b3 + 1] += I[b6 + 3] * px + I[b6 + 1] * py + I[b6 + 5] * pz;
  w[b3 + 2] += I[b6 + 4] * px + I[b6 + 5] * py + I[b6 + 2] * pz;
}
