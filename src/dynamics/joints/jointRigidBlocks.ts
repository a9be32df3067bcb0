/**
 * The two most common joints solved without the generic 6-DoF path (./jointSolver): the rigid
 * ball-and-socket (LINEAR_X, Y, Z locked at 0) and the rigid hinge (the same, plus ANGULAR_Y and Z locked at
 * 0, the twist free). A ragdoll or a chain is made of nothing else.
 *
 * - Point block, in world axes: K = (mA + mB) 1 - [rA]x IA [rA]x - [rB]x IB [rB]x, C = pB - pA,
 *   C' = vB + wB x rB - vA - wA x rA (bepu's BallSocket, Box2D's revolute point block). The accumulated
 *   impulse is one world vector: no joint frame is needed at all.
 * - Hinge axis, two angular rows (Jolt's HingeRotationConstraintPart): with B's hinge axis xB and A's two
 *   perpendicular axes yA, zA, C_y = -(zA . xB) and C_z = yA . xB (to first order the swing angles about Y and
 *   Z), rows a_y = zA x xB and a_z = xB x yA (C' = a . (wB - wA)); no angle and no atan.
 *
 * Geometry once per substep: positions change only in the integrator, between the biased pass and the relax
 * pass, so the lever arms, errors, rows and the inverted effective masses that the relax pass computes (after
 * the integrator) are the biased pass's of the next substep, exactly (and the warm start's). `geometry`
 * writes them into a joint's GEO slot; `warmStart` and `solve` read them.
 *
 * Everything goes through flat arrays and integer offsets (a double argument of a call V8 does not inline is
 * boxed: an allocation per call).
 */
import type { BodySet } from "../bodySet";
import { addPointInertia, symInverse } from "./jointMath";

/** Joint kinds solved here (0: the generic path). */
export const JointKind = { Generic: 0, Ball: 1, Hinge: 2 } as const;

/** Per joint, in body-local coordinates (set once per step): A's pivot from A's centre of mass, B's (or the world pivot), xB, yA, zA. */
export const LOC = 15;
const L_PA = 0,
  L_PB = 3,
  L_XB = 6,
  L_YA = 9,
  L_ZA = 12;

/** Per joint, from the current poses (once per substep): rA, rB, C, the point block's inverse effective mass, the hinge rows, errors and 2x2 inverse (symInverse's packing). */
export const GEO = 26;
const G_RA = 0,
  G_RB = 3,
  G_C = 6,
  G_K = 9,
  G_AY = 15,
  G_AZ = 18,
  G_CY = 21,
  G_CZ = 22,
  G_K2 = 23;

/**
 * The impulses, at st[so ..]: the world point impulse at 0, 1, 2 and the hinge rows' at 3, 4 (the slots of
 * the generic path's LINEAR_X impulses; the solver zeroes a joint's impulses when its kind changes).
 */
const S_P = 0,
  S_LY = 3,
  S_LZ = 4;

/** The pass's coefficients (written by the joint solver): bias rate, mass scale, impulse scale, max linear and angular recovery speeds. */
export const RIGID_PASS = new Float64Array(5);

/** loc[lo + o ..] = the rotation q (rot[qo ..]) of the unit vector e_axis (axis 0, 1, 2), for a frame quaternion c[fo ..]. */
export function frameAxis(c: Float64Array, fo: number, axis: number, loc: Float64Array, o: number): void {
  const x = c[fo],
    y = c[fo + 1],
    z = c[fo + 2],
    w = c[fo + 3];
  // Columns of the rotation matrix.
  if (axis === 0) {
    loc[o] = 1 - 2 * (y * y + z * z);
    loc[o + 1] = 2 * (x * y + w * z);
    loc[o + 2] = 2 * (x * z - w * y);
  } else if (axis === 1) {
    loc[o] = 2 * (x * y - w * z);
    loc[o + 1] = 1 - 2 * (x * x + z * z);
    loc[o + 2] = 2 * (y * z + w * x);
  } else {
    loc[o] = 2 * (x * z + w * y);
    loc[o + 1] = 2 * (y * z - w * x);
    loc[o + 2] = 1 - 2 * (x * x + y * y);
  }
}

/** A ball or hinge joint's pivots from the centres of mass (B's world pivot for b < 0), in the LOC slot at lo. */
export function setPivots(cfg: Float64Array, pa: number, pb: number, com: Float64Array, a: number, b: number, loc: Float64Array, lo: number): void {
  loc[lo + L_PA] = cfg[pa] - com[a * 3];
  loc[lo + L_PA + 1] = cfg[pa + 1] - com[a * 3 + 1];
  loc[lo + L_PA + 2] = cfg[pa + 2] - com[a * 3 + 2];
  if (b >= 0) {
    loc[lo + L_PB] = cfg[pb] - com[b * 3];
    loc[lo + L_PB + 1] = cfg[pb + 1] - com[b * 3 + 1];
    loc[lo + L_PB + 2] = cfg[pb + 2] - com[b * 3 + 2];
  } else {
    loc[lo + L_PB] = cfg[pb];
    loc[lo + L_PB + 1] = cfg[pb + 1];
    loc[lo + L_PB + 2] = cfg[pb + 2];
  }
}

/** A hinge's axes in its bodies' frames (xB, yA, zA), from its frame quaternions (they change only with the joint's settings). */
export function setHingeAxes(cfg: Float64Array, qa: number, qb: number, loc: Float64Array, lo: number): void {
  frameAxis(cfg, qb, 0, loc, lo + L_XB);
  frameAxis(cfg, qa, 1, loc, lo + L_YA);
  frameAxis(cfg, qa, 2, loc, lo + L_ZA);
}

/** Scratch of `geometry`: a block's effective-mass matrix. */
const KS = new Float64Array(9);

/**
 * From the current poses: a joint's lever arms, errors, hinge rows and the inverses of its blocks' effective
 * masses (symInverse: a direction no body can move in gets no impulse). ma / mb: whether A / B move (a body
 * that does not move has no inverse mass or inertia here).
 */
export function geometry(
  bodies: BodySet,
  kind: number,
  a: number,
  b: number,
  ma: number,
  mb: number,
  loc: Float64Array,
  lo: number,
  geo: Float64Array,
  go: number,
): void {
  const pos = bodies.pos,
    rot = bodies.rot,
    inv = bodies.invInertiaWorld;
  const hinge = kind === JointKind.Hinge;
  // Each body's rotation matrix once (in locals), for its lever arm and its hinge axes: a call per rotated
  // vector (V8 did not inline them here) cost a third of this function, and a shared helper writing the
  // matrix to scratch measured 6 % slower on chain-ragdoll than these two inline copies.
  let o = a * 4;
  let x = rot[o],
    y = rot[o + 1],
    z = rot[o + 2],
    w = rot[o + 3];
  let x2 = x + x,
    y2 = y + y,
    z2 = z + z;
  const a00 = 1 - (y * y2 + z * z2),
    a11 = 1 - (x * x2 + z * z2),
    a22 = 1 - (x * x2 + y * y2);
  const a01 = x * y2 - w * z2,
    a10 = x * y2 + w * z2,
    a02 = x * z2 + w * y2,
    a20 = x * z2 - w * y2,
    a12 = y * z2 - w * x2,
    a21 = y * z2 + w * x2;
  let vx = loc[lo + L_PA],
    vy = loc[lo + L_PA + 1],
    vz = loc[lo + L_PA + 2];
  const rax = a00 * vx + a01 * vy + a02 * vz,
    ray = a10 * vx + a11 * vy + a12 * vz,
    raz = a20 * vx + a21 * vy + a22 * vz;
  // B's hinge axis xB in world axes (the world's own for b < 0).
  let xx = loc[lo + L_XB],
    xy = loc[lo + L_XB + 1],
    xz = loc[lo + L_XB + 2];
  let rbx = 0,
    rby = 0,
    rbz = 0,
    pbx = loc[lo + L_PB],
    pby = loc[lo + L_PB + 1],
    pbz = loc[lo + L_PB + 2];
  if (b >= 0) {
    o = b * 4;
    x = rot[o];
    y = rot[o + 1];
    z = rot[o + 2];
    w = rot[o + 3];
    x2 = x + x;
    y2 = y + y;
    z2 = z + z;
    const b00 = 1 - (y * y2 + z * z2),
      b11 = 1 - (x * x2 + z * z2),
      b22 = 1 - (x * x2 + y * y2);
    const b01 = x * y2 - w * z2,
      b10 = x * y2 + w * z2,
      b02 = x * z2 + w * y2,
      b20 = x * z2 - w * y2,
      b12 = y * z2 - w * x2,
      b21 = y * z2 + w * x2;
    rbx = b00 * pbx + b01 * pby + b02 * pbz;
    rby = b10 * pbx + b11 * pby + b12 * pbz;
    rbz = b20 * pbx + b21 * pby + b22 * pbz;
    pbx = pos[b * 3] + rbx;
    pby = pos[b * 3 + 1] + rby;
    pbz = pos[b * 3 + 2] + rbz;
    if (hinge) {
      vx = xx;
      vy = xy;
      vz = xz;
      xx = b00 * vx + b01 * vy + b02 * vz;
      xy = b10 * vx + b11 * vy + b12 * vz;
      xz = b20 * vx + b21 * vy + b22 * vz;
    }
  }
  geo[go + G_RA] = rax;
  geo[go + G_RA + 1] = ray;
  geo[go + G_RA + 2] = raz;
  geo[go + G_RB] = rbx;
  geo[go + G_RB + 1] = rby;
  geo[go + G_RB + 2] = rbz;
  geo[go + G_C] = pbx - pos[a * 3] - rax;
  geo[go + G_C + 1] = pby - pos[a * 3 + 1] - ray;
  geo[go + G_C + 2] = pbz - pos[a * 3 + 2] - raz;
  // K = m 1 - [rA]x IA [rA]x - [rB]x IB [rB]x, inverted once (symInverse).
  const m = (ma ? bodies.invMass[a] : 0) + (mb ? bodies.invMass[b] : 0);
  KS[0] = m;
  KS[4] = m;
  KS[8] = m;
  KS[1] = 0;
  KS[2] = 0;
  KS[5] = 0;
  if (ma) addPointInertia(KS, 0, inv, a * 6, geo, go + G_RA);
  if (mb) addPointInertia(KS, 0, inv, b * 6, geo, go + G_RB);
  KS[3] = KS[1];
  KS[6] = KS[2];
  KS[7] = KS[5];
  symInverse(3, KS, 0, geo, go + G_K);
  if (!hinge) return;
  // Hinge rows: yA and zA from A's matrix; a_y = zA x xB, a_z = xB x yA.
  vx = loc[lo + L_YA];
  vy = loc[lo + L_YA + 1];
  vz = loc[lo + L_YA + 2];
  const yx = a00 * vx + a01 * vy + a02 * vz,
    yy = a10 * vx + a11 * vy + a12 * vz,
    yz = a20 * vx + a21 * vy + a22 * vz;
  vx = loc[lo + L_ZA];
  vy = loc[lo + L_ZA + 1];
  vz = loc[lo + L_ZA + 2];
  const zx = a00 * vx + a01 * vy + a02 * vz,
    zy = a10 * vx + a11 * vy + a12 * vz,
    zz = a20 * vx + a21 * vy + a22 * vz;
  const ayx = zy * xz - zz * xy,
    ayy = zz * xx - zx * xz,
    ayz = zx * xy - zy * xx;
  const azx = xy * yz - xz * yy,
    azy = xz * yx - xx * yz,
    azz = xx * yy - xy * yx;
  geo[go + G_AY] = ayx;
  geo[go + G_AY + 1] = ayy;
  geo[go + G_AY + 2] = ayz;
  geo[go + G_AZ] = azx;
  geo[go + G_AZ + 1] = azy;
  geo[go + G_AZ + 2] = azz;
  geo[go + G_CY] = -(zx * xx + zy * xy + zz * xz);
  geo[go + G_CZ] = yx * xx + yy * xy + yz * xz;
  // K2 = a_r^T (IA + IB) a_s.
  let s0 = 0,
    s1 = 0,
    s2 = 0,
    s3 = 0,
    s4 = 0,
    s5 = 0;
  if (ma) {
    const o = a * 6;
    s0 = inv[o];
    s1 = inv[o + 1];
    s2 = inv[o + 2];
    s3 = inv[o + 3];
    s4 = inv[o + 4];
    s5 = inv[o + 5];
  }
  if (mb) {
    const o = b * 6;
    s0 += inv[o];
    s1 += inv[o + 1];
    s2 += inv[o + 2];
    s3 += inv[o + 3];
    s4 += inv[o + 4];
    s5 += inv[o + 5];
  }
  const ux = s0 * ayx + s3 * ayy + s4 * ayz,
    uy = s3 * ayx + s1 * ayy + s5 * ayz,
    uz = s4 * ayx + s5 * ayy + s2 * ayz;
  KS[0] = ayx * ux + ayy * uy + ayz * uz;
  KS[3] = azx * ux + azy * uy + azz * uz;
  KS[4] = azx * (s0 * azx + s3 * azy + s4 * azz) + azy * (s3 * azx + s1 * azy + s5 * azz) + azz * (s4 * azx + s5 * azy + s2 * azz);
  symInverse(2, KS, 0, geo, go + G_K2);
}

/**
 * What `pass` does at each joint: apply the accumulated impulses (the warm start) or solve once. (Both in turn,
 * joint by joint, in the first biased pass was tried: a chain's joint error grew tenfold, 1.2 -> 12 mm, since
 * each joint then solves against neighbours whose warm impulses are not applied yet.)
 */
export const RigidMode = { Warm: 0, Solve: 1 } as const;

/**
 * One pass over the ball and hinge joints list[0 .. n) (slots; per slot: kinds, dense body indices a, b at 2 slot,
 * whether each moves at 2 slot, LOC and GEO data, impulses at stride slot), in list order. `fresh`: the GEO data
 * match the current poses (otherwise `geometry` renews them first). Solving a joint applies, with the pass's
 * softness (RIGID_PASS), the hinge's angular rows first, then the point block (the generic path's order); each
 * block's impulse is -massScale K^-1 (C' + bias) - impulseScale x accumulated, the bias capped per axis at the
 * pass's recovery speed. The warm start applies the accumulated impulses: the point impulse P at the pivots
 * (vA -= mA P, wA -= IA (rA x P), vB += mB P, wB += IB (rB x P)) and the hinge's angular impulse.
 * One loop with the joint inline: a call per joint with a dozen arguments cost as much as the rows.
 */
export function pass(
  bodies: BodySet,
  list: Int32Array,
  n: number,
  kinds: Uint8Array,
  dense: Int32Array,
  moves: Uint8Array,
  loc: Float64Array,
  geo: Float64Array,
  st: Float64Array,
  stride: number,
  fresh: boolean,
  mode: number,
): void {
  const vel = bodies.vel,
    w = bodies.angVel,
    inv = bodies.invInertiaWorld,
    invMass = bodies.invMass;
  const solve = mode === RigidMode.Solve;
  const bias = RIGID_PASS[0],
    ms = RIGID_PASS[1],
    is = RIGID_PASS[2],
    maxLin = RIGID_PASS[3],
    maxAng = RIGID_PASS[4];
  for (let i = 0; i < n; i++) {
    const slot = list[i];
    const kind = kinds[slot];
    const a = dense[slot * 2],
      b = dense[slot * 2 + 1],
      ma = moves[slot * 2],
      mb = moves[slot * 2 + 1];
    const go = slot * GEO,
      so = slot * stride;
    if (!fresh) geometry(bodies, kind, a, b, ma, mb, loc, slot * LOC, geo, go);
    const a3 = a * 3,
      b3 = b * 3;
    let vax = vel[a3],
      vay = vel[a3 + 1],
      vaz = vel[a3 + 2],
      wax = w[a3],
      way = w[a3 + 1],
      waz = w[a3 + 2];
    let vbx = 0,
      vby = 0,
      vbz = 0,
      wbx = 0,
      wby = 0,
      wbz = 0;
    if (b >= 0) {
      vbx = vel[b3];
      vby = vel[b3 + 1];
      vbz = vel[b3 + 2];
      wbx = w[b3];
      wby = w[b3 + 1];
      wbz = w[b3 + 2];
    }
    // A body that does not move has no inverse mass or inertia here.
    let mA = 0,
      a0 = 0,
      a1 = 0,
      a2 = 0,
      a3_ = 0,
      a4 = 0,
      a5 = 0;
    if (ma) {
      const o = a * 6;
      mA = invMass[a];
      a0 = inv[o];
      a1 = inv[o + 1];
      a2 = inv[o + 2];
      a3_ = inv[o + 3];
      a4 = inv[o + 4];
      a5 = inv[o + 5];
    }
    let mB = 0,
      b0 = 0,
      b1 = 0,
      b2 = 0,
      b3_ = 0,
      b4 = 0,
      b5 = 0;
    if (mb) {
      const o = b * 6;
      mB = invMass[b];
      b0 = inv[o];
      b1 = inv[o + 1];
      b2 = inv[o + 2];
      b3_ = inv[o + 3];
      b4 = inv[o + 4];
      b5 = inv[o + 5];
    }
    const rax = geo[go + G_RA],
      ray = geo[go + G_RA + 1],
      raz = geo[go + G_RA + 2],
      rbx = geo[go + G_RB],
      rby = geo[go + G_RB + 1],
      rbz = geo[go + G_RB + 2];
    // The hinge's angular rows, then the point block: each applies its accumulated impulse (the warm start) or
    // its new one.
    {
      if (kind === JointKind.Hinge) {
        const ayx = geo[go + G_AY],
          ayy = geo[go + G_AY + 1],
          ayz = geo[go + G_AY + 2],
          azx = geo[go + G_AZ],
          azy = geo[go + G_AZ + 1],
          azz = geo[go + G_AZ + 2];
        const oy = st[so + S_LY],
          oz = st[so + S_LZ];
        let u = oy,
          v = oz;
        if (solve) {
          const dwx = wbx - wax,
            dwy = wby - way,
            dwz = wbz - waz;
          let cy = bias * geo[go + G_CY],
            cz = bias * geo[go + G_CZ];
          cy = cy > maxAng ? maxAng : cy < -maxAng ? -maxAng : cy;
          cz = cz > maxAng ? maxAng : cz < -maxAng ? -maxAng : cz;
          const r0 = ayx * dwx + ayy * dwy + ayz * dwz + cy,
            r1 = azx * dwx + azy * dwy + azz * dwz + cz;
          const n01 = geo[go + G_K2 + 1];
          const x0 = geo[go + G_K2] * r0 + n01 * r1,
            x1 = n01 * r0 + geo[go + G_K2 + 2] * r1;
          u = -ms * x0 - is * oy;
          v = -ms * x1 - is * oz;
          st[so + S_LY] = oy + u;
          st[so + S_LZ] = oz + v;
        }
        const lx = u * ayx + v * azx,
          ly = u * ayy + v * azy,
          lz = u * ayz + v * azz;
        wax -= a0 * lx + a3_ * ly + a4 * lz;
        way -= a3_ * lx + a1 * ly + a5 * lz;
        waz -= a4 * lx + a5 * ly + a2 * lz;
        wbx += b0 * lx + b3_ * ly + b4 * lz;
        wby += b3_ * lx + b1 * ly + b5 * lz;
        wbz += b4 * lx + b5 * ly + b2 * lz;
      }
      // Point block.
      const ox = st[so + S_P],
        oy = st[so + S_P + 1],
        oz = st[so + S_P + 2];
      let px = ox,
        py = oy,
        pz = oz;
      if (solve) {
        let ex = bias * geo[go + G_C],
          ey = bias * geo[go + G_C + 1],
          ez = bias * geo[go + G_C + 2];
        ex = ex > maxLin ? maxLin : ex < -maxLin ? -maxLin : ex;
        ey = ey > maxLin ? maxLin : ey < -maxLin ? -maxLin : ey;
        ez = ez > maxLin ? maxLin : ez < -maxLin ? -maxLin : ez;
        const r0 = vbx + (wby * rbz - wbz * rby) - vax - (way * raz - waz * ray) + ex,
          r1 = vby + (wbz * rbx - wbx * rbz) - vay - (waz * rax - wax * raz) + ey,
          r2 = vbz + (wbx * rby - wby * rbx) - vaz - (wax * ray - way * rax) + ez;
        // K^-1 r, K^-1 stored packed (symInverse).
        const m01 = geo[go + G_K + 1],
          m02 = geo[go + G_K + 2],
          m12 = geo[go + G_K + 4];
        const x0 = geo[go + G_K] * r0 + m01 * r1 + m02 * r2,
          x1 = m01 * r0 + geo[go + G_K + 3] * r1 + m12 * r2,
          x2 = m02 * r0 + m12 * r1 + geo[go + G_K + 5] * r2;
        px = -ms * x0 - is * ox;
        py = -ms * x1 - is * oy;
        pz = -ms * x2 - is * oz;
        st[so + S_P] = ox + px;
        st[so + S_P + 1] = oy + py;
        st[so + S_P + 2] = oz + pz;
      }
      vax = vax - mA * px;
      vay = vay - mA * py;
      vaz = vaz - mA * pz;
      let x = ray * pz - raz * py,
        y = raz * px - rax * pz,
        z = rax * py - ray * px;
      wax = wax - (a0 * x + a3_ * y + a4 * z);
      way = way - (a3_ * x + a1 * y + a5 * z);
      waz = waz - (a4 * x + a5 * y + a2 * z);
      vbx = vbx + mB * px;
      vby = vby + mB * py;
      vbz = vbz + mB * pz;
      x = rby * pz - rbz * py;
      y = rbz * px - rbx * pz;
      z = rbx * py - rby * px;
      wbx = wbx + (b0 * x + b3_ * y + b4 * z);
      wby = wby + (b3_ * x + b1 * y + b5 * z);
      wbz = wbz + (b4 * x + b5 * y + b2 * z);
    }
    if (ma) {
      vel[a3] = vax;
      vel[a3 + 1] = vay;
      vel[a3 + 2] = vaz;
      w[a3] = wax;
      w[a3 + 1] = way;
      w[a3 + 2] = waz;
    }
    if (mb) {
      vel[b3] = vbx;
      vel[b3 + 1] = vby;
      vel[b3 + 2] = vbz;
      w[b3] = wbx;
      w[b3 + 1] = wby;
      w[b3 + 2] = wbz;
    }
  }
}
