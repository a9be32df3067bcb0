/**
 * The narrow phase's sweep of a pair with a Continuous body (bepu NarrowPhase.AddBatchEntries and
 * NarrowPhaseCCDContinuations): whether the pair needs a sweep, its time of impact, and contacts found at
 * that time expressed back at t0.
 */
import { ManifoldBuffer } from "../../collision/contactManifold";
import { sweepShapes } from "../../collision/sweep";
import { SweptMotion } from "../../math/sweptTransform";
import { Shape } from "../../shapes/shape";
import { ContinuousDetectionMode, MotionType } from "../descriptions";
import { type WorldState, isTriangleShape } from "../worldState";

/**
 * The sweep gate and test for a pair with a Continuous body (bepu NarrowPhase.AddBatchEntries and
 * ConvexSweepTaskCommon): only when the relative motion over the step, (|wA| rA + |wB| rB + |vB - vA|) dt,
 * exceeds the pair's speculative margin. Returns 0 when no sweep is needed (contacts at t0), the time of
 * impact t1 > 0 on a hit, or -1 when the sweep proved the pair does not meet this step.
 */
export function sweepPair(ws: WorldState, ia: number, ib: number, shapeA: Shape, shapeB: Shape, dt: number): number {
  const b = ws.bodies;
  const margin = b.margin[ia] + b.margin[ib];
  const contA = b.continuity[ia] === ContinuousDetectionMode.Continuous,
    contB = b.continuity[ib] === ContinuousDetectionMode.Continuous;
  if (!contA && !contB) return 0;
  // Triangle shape pairs collide without a sweep (README), so such a pair has nothing to sweep.
  if (isTriangleShape(shapeA) && isTriangleShape(shapeB)) return 0;
  const va = ws.scratch.vPredA,
    vb = ws.scratch.vPredB;
  predictedVelocity(ws, ia, dt, va);
  predictedVelocity(ws, ib, dt, vb);
  const i3 = ia * 3,
    j3 = ib * 3;
  // Lengths written out: Math.hypot is a builtin call that returns a heap number.
  const w = b.angVel;
  const wa = ws.isMoving(ia) ? Math.sqrt(w[i3] * w[i3] + w[i3 + 1] * w[i3 + 1] + w[i3 + 2] * w[i3 + 2]) : 0;
  const wb = ws.isMoving(ib) ? Math.sqrt(w[j3] * w[j3] + w[j3 + 1] * w[j3 + 1] + w[j3 + 2] * w[j3 + 2]) : 0;
  const rx = vb[0] - va[0],
    ry = vb[1] - va[1],
    rz = vb[2] - va[2];
  const rel = Math.sqrt(rx * rx + ry * ry + rz * rz) + wa * b.radius[ia] + wb * b.radius[ib];
  if (rel * dt <= margin) return 0;
  setVelocityMotion(ws, ia, va, ws.scratch.motionA);
  setVelocityMotion(ws, ib, vb, ws.scratch.motionB);
  const minStep = Math.min(contA ? b.sweepMinStep[ia] : Infinity, contB ? b.sweepMinStep[ib] : Infinity);
  const conv = Math.min(contA ? b.sweepConvergence[ia] : Infinity, contB ? b.sweepConvergence[ib] : Infinity);
  ws.stats.sweeps++;
  const res = ws.scratch.sweepResult;
  // Children the partner does not collide with (per-child filters, triggers) neither stop it nor hold it.
  const gate = ws.scratch.childPairFilter.arm(ws, ia, ib);
  if (!sweepShapes(shapeA, ws.scratch.motionA, shapeB, ws.scratch.motionB, dt, minStep, conv, res, gate)) return -1;
  if (ws.scratch.debugRecorder !== null) ws.scratch.debugRecorder.onSweepHit(b, ia, ib, ws.scratch.motionA, ws.scratch.motionB, res.t1, dt);
  return res.t1;
}

/**
 * Expresses contacts found at time t back at t0 (bepu NarrowPhaseCCDContinuations): depths grow by the
 * approach the relative velocity makes over t (so the solver lets the bodies close exactly that gap), and
 * positions move back with A so the lever arms refer to the t0 poses.
 */
export function rewindManifolds(ws: WorldState, mb: ManifoldBuffer, t: number): void {
  const ma = ws.scratch.motionA,
    mbo = ws.scratch.motionB;
  const cax = ma.comX + ma.vx * t,
    cay = ma.comY + ma.vy * t,
    caz = ma.comZ + ma.vz * t;
  const cbx = mbo.comX + mbo.vx * t,
    cby = mbo.comY + mbo.vy * t,
    cbz = mbo.comZ + mbo.vz * t;
  for (let m = 0; m < mb.count; m++) {
    const man = mb.items[m];
    const nx = man.normalX,
      ny = man.normalY,
      nz = man.normalZ;
    for (let c = 0; c < man.count; c++) {
      const px = man.positionX[c],
        py = man.positionY[c],
        pz = man.positionZ[c];
      const rax = px - cax,
        ray = py - cay,
        raz = pz - caz;
      const rbx = px - cbx,
        rby = py - cby,
        rbz = pz - cbz;
      const vax = ma.vx + (ma.wy * raz - ma.wz * ray),
        vay = ma.vy + (ma.wz * rax - ma.wx * raz),
        vaz = ma.vz + (ma.wx * ray - ma.wy * rax);
      const vbx = mbo.vx + (mbo.wy * rbz - mbo.wz * rby),
        vby = mbo.vy + (mbo.wz * rbx - mbo.wx * rbz),
        vbz = mbo.vz + (mbo.wx * rby - mbo.wy * rbx);
      const vn = (vbx - vax) * nx + (vby - vay) * ny + (vbz - vaz) * nz;
      man.depth[c] += vn * t;
      man.positionX[c] = px - ma.vx * t;
      man.positionY[c] = py - ma.vy * t;
      man.positionZ[c] = pz - ma.vz * t;
    }
  }
}

/** The velocity a body is expected to have over the step (gravity and forces included), 0 if it does not move. */
function predictedVelocity(ws: WorldState, i: number, dt: number, out: Float64Array): void {
  const b = ws.bodies;
  if (!ws.isMoving(i)) {
    out[0] = out[1] = out[2] = 0;
    return;
  }
  const i3 = i * 3;
  out[0] = b.vel[i3];
  out[1] = b.vel[i3 + 1];
  out[2] = b.vel[i3 + 2];
  if (b.motionType[i] === MotionType.Dynamic) {
    const m = b.invMass[i];
    const gf = m > 0 ? b.gravityFactor[i] * dt : 0;
    out[0] += gf * ws.gx + dt * m * b.force[i3];
    out[1] += gf * ws.gy + dt * m * b.force[i3 + 1];
    out[2] += gf * ws.gz + dt * m * b.force[i3 + 2];
  }
}

function setVelocityMotion(ws: WorldState, i: number, v: Float64Array, out: SweptMotion): void {
  const b = ws.bodies;
  const i3 = i * 3,
    i4 = i * 4;
  const moving = ws.isMoving(i);
  out.setVelocity(
    b.pos[i3],
    b.pos[i3 + 1],
    b.pos[i3 + 2],
    b.rot[i4],
    b.rot[i4 + 1],
    b.rot[i4 + 2],
    b.rot[i4 + 3],
    v[0],
    v[1],
    v[2],
    moving ? b.angVel[i3] : 0,
    moving ? b.angVel[i3 + 1] : 0,
    moving ? b.angVel[i3 + 2] : 0,
    b.localCom[i3],
    b.localCom[i3 + 1],
    b.localCom[i3 + 2],
  );
}
