/**
 * The partner-push stage of the broad phase (step 3; the rule is src/dynamics/partnerPush.ts): after the pairs
 * are collected, dynamic bodies that a broad-phase partner approaches fast get the margin and bounds of the push
 * they are about to get, so the contacts they are pushed into exist in the narrow phase.
 */
import { BodyFlag } from "../../dynamics/bodySet";
import { pushMarginFromPartner } from "../../dynamics/partnerPush";
import { ContinuousDetectionMode, MotionType } from "../descriptions";
import { type WorldState, TREE_MOVING } from "../worldState";

/** Grows the margins and bounds of bodies a partner approaches fast; true if any grew (collect the pairs again). */
export function pushPartners(ws: WorldState, dt: number): boolean {
  const b = ws.bodies;
  const p = ws.scratch.collector.pairs;
  const io = ws.scratch.pushIO;
  io[0] = dt;
  let grew = false;
  for (let k = 0; k < p.count; k += 2) {
    const ia = b.slotToDense[p.data[k]],
      ib = b.slotToDense[p.data[k + 1]];
    for (let side = 0; side < 2; side++) {
      const j = side === 0 ? ib : ia,
        i = side === 0 ? ia : ib;
      if (b.motionType[j] !== MotionType.Dynamic || b.motionType[i] === MotionType.Static) continue;
      if (!pushMarginFromPartner(b, i, j, io, b.continuity[j] === ContinuousDetectionMode.Discrete)) continue;
      if ((b.flags[i] | b.flags[j]) & (BodyFlag.Sleeping | BodyFlag.Trigger) || b.shape[i] === null || b.shape[j] === null) continue;
      if (!ws.shouldCollide(i, j)) continue;
      if (!pushMarginFromPartner(b, i, j, io, b.continuity[j] === ContinuousDetectionMode.Discrete, true)) continue;
      grew = true;
      ws.scratch.pushedBodies.add(j);
      if (b.tree[j] === TREE_MOVING) ws.movingTree.setLeafAabbFrom(b.proxy[j], b.aabb, j * 6);
    }
  }
  return grew;
}
