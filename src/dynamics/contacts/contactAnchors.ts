/**
 * Where a contact's point is anchored on the two bodies for the substepped solve.
 *
 * The narrow phase reports each contact at the midpoint between the two surfaces, and the contact solver
 * anchors both bodies at that one point and tracks the separation from how the anchors move (Box2D v3's
 * current separation, b2PrepareContactsTask / b2SolveContact). That is exact for translation, but a
 * speculative contact's midpoint lies half the gap off each body's surface, and that offset turns with the
 * body: a body spinning by an angle a over the step carries an anchor a distance g/2 off its surface by up
 * to g/2 (1 - cos a) away from the plane, so the solver sees a gap where the true feature has already gone
 * in. At Box2D's few-centimetre speculative distance this is nothing; with speculative margins that cover a
 * whole step of a fast body (bepu's, up to tens of centimetres) and spins of 1-2 rad per step it lets a fast
 * spinning plate's corner pass 5 cm into a floor with no impulse at all, and its centre then crosses a
 * two-sided mesh.
 *
 * So a speculative contact's point is moved onto the surface of the body that turns faster: its anchor is
 * then its own feature and follows it exactly; the other body's anchor carries the whole offset, but it turns
 * slower, so the error is never larger than the midpoint's. Against a static body the point is always on the
 * moving body: a static body never turns, while the moving one may start turning within the step (a tilted
 * plate that lands on one edge and slaps flat, its far edge's anchors half a 0.6 m gap off it: 2 cm).
 * Normal impulses are unchanged (the shift is along the normal, so it adds no torque). Overlapping contacts
 * keep their midpoints: those lie within half the depth (millimetres) of both surfaces, and moving them would
 * only move where friction acts (a rolling wheel's, measured in test/plugin/car.test.ts).
 */
import type { ContactManifold } from "../../collision/contactManifold";
import { MotionType } from "../motionType";
import type { BodySet } from "../bodySet";

/**
 * Moves manifold m's speculative contact points (depth < 0: midpoints of the gap) onto the surface of body ia
 * or ib, whichever has the larger angular speed, and always onto ia's when ib is static (the world makes a
 * static body B); otherwise a tie keeps the midpoint. The
 * normal points from A to B: A's surface point is p + n depth / 2, B's is p - n depth / 2.
 */
export function anchorOnFasterTurningBody(b: BodySet, ia: number, ib: number, m: ContactManifold): void {
  const w = b.angVel,
    a3 = ia * 3,
    b3 = ib * 3;
  const wa = w[a3] * w[a3] + w[a3 + 1] * w[a3 + 1] + w[a3 + 2] * w[a3 + 2];
  const wb = w[b3] * w[b3] + w[b3 + 1] * w[b3 + 1] + w[b3 + 2] * w[b3 + 2];
  let s: number;
  if (b.motionType[ib] === MotionType.Static || wa > wb) s = 0.5;
  else if (wb > wa) s = -0.5;
  else return;
  const nx = m.normalX,
    ny = m.normalY,
    nz = m.normalZ;
  for (let c = 0; c < m.count; c++) {
    const d = m.depth[c];
    if (d >= 0) continue;
    const k = s * d;
    m.positionX[c] += nx * k;
    m.positionY[c] += ny * k;
    m.positionZ[c] += nz * k;
  }
}
