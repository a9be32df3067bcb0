/**
 * Step 4's partner push (src/dynamics/partnerPush.ts): after the broad phase, dynamic bodies that a broad-phase
 * partner approaches fast get the margin and bounds of the push they are about to get, so the contacts they are
 * pushed into exist in the narrow phase.
 */
import { BodyFlag } from "../../dynamics/bodySet";
import { pushMarginFromPartner } from "../../dynamics/partnerPush";
import { ContinuousDetectionMode, MotionType } from "../descriptions";
import { type WorldState, TREE_MOVING } from "../worldState";
import { predictedVelocity } from "./pairSweep";

/** Grows the margins and bounds of bodies a partner approaches fast; true if any grew (collect the pairs again). */
export function pushPartners(ws: WorldState, dt: number): boolean {
  const b = ws.bodies;
  const p = ws.collector.pairs;
  const io = ws.pushIO;
  io[0] = dt;
  let grew = false;
  for (let k = 0; k < p.count; k += 2) {
    const ia = b.slotToDense[p.data[k]],
      ib = b.slotToDense[p.data[k + 1]];
    if (!ws.isMoving(ia) || !ws.isMoving(ib)) continue;
    if (((b.flags[ia] | b.flags[ib]) & BodyFlag.Trigger) !== 0 || b.shape[ia] === null || b.shape[ib] === null) continue;
    for (let side = 0; side < 2; side++) {
      const j = side === 0 ? ib : ia,
        i = side === 0 ? ia : ib;
      if (b.motionType[j] !== MotionType.Dynamic || !ws.shouldCollide(i, j)) continue;
      predictedVelocity(ws, i, dt, ws.vPredA);
      predictedVelocity(ws, j, dt, ws.vPredB);
      io[1] = ws.vPredA[0];
      io[2] = ws.vPredA[1];
      io[3] = ws.vPredA[2];
      io[4] = ws.vPredB[0];
      io[5] = ws.vPredB[1];
      io[6] = ws.vPredB[2];
      if (!pushMarginFromPartner(b, i, j, io, b.continuity[j] === ContinuousDetectionMode.Discrete)) continue;
      grew = true;
      ws.pushedBodies.add(j);
      if (b.tree[j] === TREE_MOVING) ws.movingTree.setLeafAabbFrom(b.proxy[j], b.aabb, j * 6);
    }
  }
  return grew;
}
