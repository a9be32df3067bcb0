/**
 * The post-solve continuous pass (step 6): fast Continuous bodies' solved motion swept against what they
 * may have passed through, TOI events handled in time order and propagated to contact partners; then the
 * guard that puts bodies with a non-finite state back and to rest.
 */
import { grown } from "../../collections/growth";
import { sweepShapeLinear } from "../../collision/sweep";
import { SweptMotion } from "../../math/sweptTransform";
import { BodyFlag } from "../../dynamics/bodySet";
import { HEADER, HeaderField } from "../../dynamics/contacts/manifoldLayout";
import { updateWorldInertia } from "../../dynamics/integrator";
import { ContinuousDetectionMode, MotionType } from "../descriptions";
import { type WorldState, isTriangleShape } from "../worldState";

/**
 * 6. TOI handling (Havok's swept transforms and TOI events; docs/design.md step 6): a fast Continuous body's solved
 * motion t0 -> t1 is swept against static and kinematic bodies and other Continuous bodies. A time of
 * impact the solve did not prevent (a secondary collision) moves the body back to its pose at that time,
 * keeping its velocity (the rest of the motion is lost, as in Box2D). Events are handled in time order.
 */
export function continuousPass(ws: WorldState, dt: number): void {
  const b = ws.bodies;
  const ids = ws.scratch.active.data;
  ws.scratch.toiCount = 0;
  for (let k = 0; k < ws.scratch.active.count; k++) {
    const i = ids[k];
    if (b.continuity[i] !== ContinuousDetectionMode.Continuous || b.motionType[i] !== MotionType.Dynamic) continue;
    if (b.flags[i] & BodyFlag.Trigger) continue;
    const shape = b.shape[i];
    if (shape === null) continue;
    // Only bodies that moved a good part of their own size can have passed through something.
    const i3 = i * 3,
      i4 = i * 4;
    const ddx = b.pos[i3] - b.pos0[i3],
      ddy = b.pos[i3 + 1] - b.pos0[i3 + 1],
      ddz = b.pos[i3 + 2] - b.pos0[i3 + 2];
    const disp = Math.sqrt(ddx * ddx + ddy * ddy + ddz * ddz);
    const dq =
      Math.abs(b.rot[i4] * b.rot0[i4] + b.rot[i4 + 1] * b.rot0[i4 + 1] + b.rot[i4 + 2] * b.rot0[i4 + 2] + b.rot[i4 + 3] * b.rot0[i4 + 3]);
    const angularTravel = 2 * Math.sqrt(Math.max(0, 1 - dq * dq)) * b.radius[i];
    const minRadius = Math.max(b.radius[i] - b.angExpansion[i], 1e-3);
    if (disp + angularTravel <= 0.5 * minRadius) continue;
    // Candidates: bodies overlapping the bounds of the whole motion.
    setEndpointMotion(ws, i, ws.scratch.motionA);
    const box = ws.scratch.sweptBox;
    ws.scratch.motionA.poseAt(0, ws.scratch.poseA);
    shape.computeAabb(ws.scratch.poseA, box, 0);
    ws.scratch.motionA.poseAt(1, ws.scratch.poseA);
    shape.computeAabb(ws.scratch.poseA, box, 6);
    const minX = Math.min(box[0], box[6]),
      minY = Math.min(box[1], box[7]),
      minZ = Math.min(box[2], box[8]);
    const maxX = Math.max(box[3], box[9]),
      maxY = Math.max(box[4], box[10]),
      maxZ = Math.max(box[5], box[11]);
    const cand = ws.scratch.candidates;
    cand.clear();
    ws.scratch.candidateVisitor.list = cand;
    ws.staticTree.queryAabb(minX, minY, minZ, maxX, maxY, maxZ, ws.scratch.candidateVisitor);
    ws.movingTree.queryAabb(minX, minY, minZ, maxX, maxY, maxZ, ws.scratch.candidateVisitor);
    const minStep = b.sweepMinStep[i] / dt,
      conv = b.sweepConvergence[i] / dt;
    for (let c = 0; c < cand.count; c++) {
      const j = b.slotToDense[cand.data[c]];
      if (j < 0 || j === i) continue;
      if (b.flags[j] & BodyFlag.Trigger) continue;
      const tj = b.motionType[j];
      const otherContinuous = tj === MotionType.Dynamic && b.continuity[j] === ContinuousDetectionMode.Continuous;
      if (tj === MotionType.Dynamic && !otherContinuous && (b.flags[j] & BodyFlag.Sleeping) === 0) continue;
      if (otherContinuous && j < i && ws.isMoving(j)) continue; // the pair is handled once, from the lower index
      if (otherContinuous) {
        // Two Continuous bodies that had contacts this step met in the solver: only unseen meetings count.
        const ha = b.handle[i],
          hb = b.handle[j];
        if ((ha < hb ? ws.scratch.continuousContactPairs.find(ha, hb) : ws.scratch.continuousContactPairs.find(hb, ha)) >= 0) continue;
      }
      if (!ws.shouldCollide(i, j)) continue;
      const other = b.shape[j];
      if (other === null || (isTriangleShape(shape) && isTriangleShape(other))) continue;
      if (ws.isMoving(j)) setEndpointMotion(ws, j, ws.scratch.motionB);
      else {
        ws.originPose(j, ws.scratch.poseB);
        const pb = ws.scratch.poseB;
        ws.scratch.motionB.setStatic(pb.px, pb.py, pb.pz, pb.qx, pb.qy, pb.qz, pb.qw);
      }
      setEndpointMotion(ws, i, ws.scratch.motionA);
      ws.stats.toiChecks++;
      const res = ws.scratch.sweepResult;
      // A child the body does not collide with (per-child filters, triggers) cannot stop it.
      if (!sweepShapeLinear(shape, ws.scratch.motionA, other, ws.scratch.motionB, minStep, conv, res, ws.scratch.childPairFilter.arm(ws, i, j))) continue;
      // A hit at the very end of the motion, within round-off, is a body the solve left flush against the
      // other, not one through it (a sphere stopped flush at a wall's face got t0 = 1 - 1e-16 with one
      // summation order of the solver and no hit with another).
      if (res.t0 >= 1 - 1e-12) continue;
      if (!(res.t0 > 0)) {
        // A hit at 0 is a contact the body started in. Resting or sliding there is the solver's business;
        // but a body that starts touching and is driven deep into the other one (pushed by a third body,
        // the case bepu's documentation says speculative contacts miss) stays where it started.
        const into =
          (b.pos[i3] - b.pos0[i3]) * res.normalX + (b.pos[i3 + 1] - b.pos0[i3 + 1]) * res.normalY + (b.pos[i3 + 2] - b.pos0[i3 + 2]) * res.normalZ;
        if (into <= 0.1 * minRadius) continue;
      }
      addToi(ws, Math.max(0, res.t0), i, otherContinuous ? j : -1);
    }
  }
  if (ws.scratch.toiCount === 0) return;
  // Earliest first; ties by body index (deterministic).
  const n = ws.scratch.toiCount;
  const order = ws.scratch.toiOrder;
  for (let k = 0; k < n; k++) order[k] = k;
  const tt = ws.scratch.toiTime,
    tb = ws.scratch.toiBody;
  order.subarray(0, n).sort((x, y) => tt[x] - tt[y] || tb[x] - tb[y] || x - y);
  ws.scratch.clampedAt = grown(ws.scratch.clampedAt, b.count, 0);
  const clamped = ws.scratch.clampedAt;
  for (let k = 0; k < n; k++) {
    clamped[tb[order[k]]] = 2;
    const o = ws.scratch.toiOther[order[k]];
    if (o >= 0) clamped[o] = 2;
  }
  for (let k = 0; k < n; k++) {
    const e = order[k];
    const t = tt[e],
      i = tb[e],
      j = ws.scratch.toiOther[e];
    if (clamped[i] <= 1 || (j >= 0 && clamped[j] <= 1)) continue; // already moved back to an earlier time
    if (ws.scratch.debugRecorder !== null) {
      ws.scratch.debugRecorder.onToiClamp(b, i, t);
      if (j >= 0) ws.scratch.debugRecorder.onToiClamp(b, j, t);
    }
    moveToFraction(ws, i, t);
    clamped[i] = t;
    ws.scratch.toiQueue.push(i);
    if (j >= 0) {
      moveToFraction(ws, j, t);
      clamped[j] = t;
      ws.scratch.toiQueue.push(j);
    }
    ws.stats.toiEvents++;
  }
  propagateToi(ws, dt);
}

/**
 * A body moved back to its time of impact may now overlap bodies that it pushed (or that pushed it)
 * during the solve: each dynamic contact partner of a moved body is swept along its own motion against the
 * moved body's new pose and moved back to where they meet, in turn (Havok's TOI loop re-collides the
 * bodies an event touches). Bounded: every body moves back at most a few times.
 */
function propagateToi(ws: WorldState, dt: void | number): void {
  void dt;
  const b = ws.bodies;
  const q = ws.scratch.toiQueue;
  const hd = ws.contactCache.header;
  const count = ws.contactCache.count;
  let budget = 64 + 4 * q.count;
  while (q.count > 0 && budget-- > 0) {
    const i = q.pop();
    const si = b.shape[i];
    if (si === null) continue;
    ws.originPose(i, ws.scratch.poseB);
    const pb = ws.scratch.poseB;
    for (let m = 0; m < count; m++) {
      const ma = hd[m * HEADER + HeaderField.bodyA],
        mbi = hd[m * HEADER + HeaderField.bodyB];
      const k = ma === i ? mbi : mbi === i ? ma : -1;
      if (k < 0 || b.motionType[k] !== MotionType.Dynamic || !ws.isMoving(k)) continue;
      const sk = b.shape[k];
      if (sk === null || (isTriangleShape(sk) && isTriangleShape(si))) continue;
      setEndpointMotion(ws, k, ws.scratch.motionA);
      ws.scratch.motionB.setStatic(pb.px, pb.py, pb.pz, pb.qx, pb.qy, pb.qz, pb.qw);
      ws.stats.toiChecks++;
      const res = ws.scratch.sweepResult;
      if (!sweepShapeLinear(sk, ws.scratch.motionA, si, ws.scratch.motionB, 0, 1e-3, res, ws.scratch.childPairFilter.arm(ws, k, i))) continue;
      if (!(res.t0 < 1)) continue;
      if (!(res.t0 > 0)) {
        // Touching from the start: only a motion driving it into the moved body is undone.
        const k3 = k * 3;
        const into =
          (b.pos[k3] - b.pos0[k3]) * res.normalX + (b.pos[k3 + 1] - b.pos0[k3 + 1]) * res.normalY + (b.pos[k3 + 2] - b.pos0[k3 + 2]) * res.normalZ;
        if (into <= 1e-4) continue;
      }
      moveToFraction(ws, k, Math.max(0, res.t0));
      ws.stats.toiEvents++;
      q.push(k);
    }
  }
  q.clear();
}

function addToi(ws: WorldState, t: number, i: number, j: number): void {
  const n = ws.scratch.toiCount;
  if (n === ws.scratch.toiTime.length) {
    ws.scratch.toiTime = grown(ws.scratch.toiTime, n + 1);
    ws.scratch.toiBody = grown(ws.scratch.toiBody, n + 1);
    ws.scratch.toiOther = grown(ws.scratch.toiOther, n + 1);
    ws.scratch.toiOrder = grown(ws.scratch.toiOrder, n + 1, 0);
  }
  ws.scratch.toiTime[n] = t;
  ws.scratch.toiBody[n] = i;
  ws.scratch.toiOther[n] = j;
  ws.scratch.toiCount = n + 1;
}

/** Moves body i back along its swept transform to the fraction t of the step (velocity kept). */
function moveToFraction(ws: WorldState, i: number, t: number): void {
  const b = ws.bodies;
  const i3 = i * 3,
    i4 = i * 4;
  for (let k = 0; k < 3; k++) b.pos[i3 + k] = b.pos0[i3 + k] + (b.pos[i3 + k] - b.pos0[i3 + k]) * t;
  // nlerp along the shortest arc, as the swept transform does.
  let d = 0;
  for (let k = 0; k < 4; k++) d += b.rot0[i4 + k] * b.rot[i4 + k];
  const sgn = d < 0 ? -1 : 1;
  let l = 0;
  for (let k = 0; k < 4; k++) {
    const q = b.rot0[i4 + k] + (sgn * b.rot[i4 + k] - b.rot0[i4 + k]) * t;
    b.rot[i4 + k] = q;
    l += q * q;
  }
  l = 1 / Math.sqrt(l);
  for (let k = 0; k < 4; k++) b.rot[i4 + k] *= l;
  updateWorldInertia(b, i);
}

/** A body's motion over the step as a swept transform from its t0 pose to its current pose (Havok). */
function setEndpointMotion(ws: WorldState, i: number, out: SweptMotion): void {
  const b = ws.bodies;
  const i3 = i * 3,
    i4 = i * 4;
  out.setEndpoints(
    b.pos0[i3],
    b.pos0[i3 + 1],
    b.pos0[i3 + 2],
    b.rot0[i4],
    b.rot0[i4 + 1],
    b.rot0[i4 + 2],
    b.rot0[i4 + 3],
    b.pos[i3],
    b.pos[i3 + 1],
    b.pos[i3 + 2],
    b.rot[i4],
    b.rot[i4 + 1],
    b.rot[i4 + 2],
    b.rot[i4 + 3],
    b.localCom[i3],
    b.localCom[i3 + 1],
    b.localCom[i3 + 2],
  );
}

/** Numerical guard: a moving body whose state is no longer finite is put back and put to rest. */
export function guardNonFinite(ws: WorldState): void {
  const b = ws.bodies;
  const ids = ws.scratch.active.data;
  if (ws.nonFiniteBodies.length > 0) ws.nonFiniteBodies.length = 0;
  ws.stats.nonFiniteBodies = 0;
  for (let k = 0; k < ws.scratch.active.count; k++) {
    const i = ids[k];
    const i3 = i * 3,
      i4 = i * 4;
    // One sum per body: any NaN or infinity makes it non-finite.
    const sum =
      b.pos[i3] + b.pos[i3 + 1] + b.pos[i3 + 2] + b.rot[i4] + b.rot[i4 + 1] + b.rot[i4 + 2] + b.rot[i4 + 3] +
      b.vel[i3] + b.vel[i3 + 1] + b.vel[i3 + 2] + b.angVel[i3] + b.angVel[i3 + 1] + b.angVel[i3 + 2];
    if (Number.isFinite(sum) && (b.flags[i] & BodyFlag.NonFinite) === 0) continue;
    b.flags[i] &= ~BodyFlag.NonFinite;
    for (let c = 0; c < 3; c++) {
      b.pos[i3 + c] = b.pos0[i3 + c];
      b.vel[i3 + c] = 0;
      b.angVel[i3 + c] = 0;
      b.force[i3 + c] = 0;
      b.torque[i3 + c] = 0;
    }
    for (let c = 0; c < 4; c++) b.rot[i4 + c] = b.rot0[i4 + c];
    updateWorldInertia(b, i);
    ws.nonFiniteBodies.push(b.handle[i]);
    ws.stats.nonFiniteBodies++;
  }
  // A non-finite body's contact impulses also reached the static bodies it touched (the solver adds
  // 0 x impulse to their velocity, and 0 x NaN is NaN); static bodies never move, so their velocity is 0.
  if (ws.nonFiniteBodies.length > 0) {
    for (let i = 0; i < b.count; i++) {
      if (b.motionType[i] !== MotionType.Static) continue;
      b.vel.fill(0, i * 3, i * 3 + 3);
      b.angVel.fill(0, i * 3, i * 3 + 3);
    }
  }
  // Sleeping keeps them at rest until something touches them (outside the loop: it edits the trees).
  for (const h of ws.nonFiniteBodies) {
    const i = b.indexOf(h);
    if (i >= 0 && (b.flags[i] & BodyFlag.Sleeping) === 0) ws.sleepBodies([i], 1);
  }
}
