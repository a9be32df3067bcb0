/**
 * The events stage (step 8, the finish): the step's contact and trigger events, began / persisted / ended
 * per body pair, enter / exit per trigger pair (one event per pair per step).
 */
import { PairTable } from "../../collections/pairTable";
import { CONTACT, ContactField, HEADER, HeaderField, TOUCH_TOLERANCE } from "../../dynamics/contacts/manifoldLayout";
import { ContactEventType, TriggerEventType } from "../events";
import type { WorldState } from "../worldState";

/**
 * Ended contact events: pairs that touched last step and not now, unless both sides are at rest (sleep keeps
 * them silent): such a pair moves to ws.touchingResting, once, and stays there while its bodies rest (a sleeping
 * pile then costs nothing here per step). A method of its own, apart from buildEvents' loop over the contacts: the
 * first pair of resting bodies to part takes a branch for the first time, and the deoptimisation that follows
 * should not send the contact loop (doubles, which unoptimised code boxes) back to the interpreter.
 */
function reportEndedContacts(ws: WorldState, cur: PairTable, prev: PairTable): void {
  const ev = ws.contactEvents;
  const rest = ws.touchingResting;
  for (let e = 0; e < prev.count; e++) {
    const fate = pairFate(ws, prev, e, cur);
    if (fate === PAIR_RESTING) copyEntry(prev, e, rest, rest.insert(prev.keyA[e], prev.keyB[e]));
    else if (fate === PAIR_ENDED) ev.add(prev.keyA[e], prev.keyB[e], ContactEventType.Ended, prev.payload, e * 6);
  }
  if (ws.restingEpoch !== ws.restingEpochSeen) reexamineResting(ws, cur);
}

/** pairFate's answers. */
const PAIR_ON = 0,
  PAIR_GONE = 1,
  PAIR_RESTING = 2,
  PAIR_ENDED = 3;

/**
 * What becomes of entry e of `from` (a pair of last step, or a resting one) given this step's pairs `cur`:
 * PAIR_ON while it is still there, PAIR_GONE when a body was removed (nothing to report), PAIR_RESTING when
 * both bodies rest (kept silent), PAIR_ENDED otherwise.
 */
function pairFate(ws: WorldState, from: PairTable, e: number, cur: PairTable): number {
  const ha = from.keyA[e],
    hb = from.keyB[e];
  if (cur.find(ha, hb) >= 0) return PAIR_ON;
  const ia = ws.bodies.indexOf(ha),
    ib = ws.bodies.indexOf(hb);
  if (ia < 0 || ib < 0) return PAIR_GONE;
  return ws.isResting(ia) && ws.isResting(ib) ? PAIR_RESTING : PAIR_ENDED;
}

/**
 * After a body stopped resting (ws.restingEpoch moved): each resting pair touching again is dropped (its event
 * was Persisted), a pair whose bodies still rest is kept, a pair with a removed body is dropped silently, and
 * the rest ended. The same outcome as carrying the pairs through every step, at the steps where it can differ.
 */
function reexamineResting(ws: WorldState, cur: PairTable): void {
  ws.restingEpochSeen = ws.restingEpoch;
  const ev = ws.contactEvents;
  const rest = ws.touchingResting,
    keep = ws.touchingRestingSpare;
  keep.clear();
  for (let e = 0; e < rest.count; e++) {
    const fate = pairFate(ws, rest, e, cur);
    if (fate === PAIR_RESTING) copyEntry(rest, e, keep, keep.insert(rest.keyA[e], rest.keyB[e]));
    else if (fate === PAIR_ENDED) ev.add(rest.keyA[e], rest.keyB[e], ContactEventType.Ended, rest.payload, e * 6);
  }
  ws.touchingResting = keep;
  ws.touchingRestingSpare = rest;
}

/** Copies entry e's contact point and normal (6 floats) from one touching table to entry k of another. */
function copyEntry(from: PairTable, e: number, to: PairTable, k: number): void {
  const src = from.payload,
    dst = to.payload;
  for (let q = 0; q < 6; q++) dst[k * 6 + q] = src[e * 6 + q];
}

/** Contact events per body pair: began / persisted / ended (one per pair per step). */
export function buildEvents(ws: WorldState): void {
  const b = ws.bodies;
  const t = ws.touchingPrev;
  ws.touchingPrev = ws.touchingCur;
  ws.touchingCur = t;
  const cur = ws.touchingCur,
    prev = ws.touchingPrev;
  cur.clear();
  const ev = ws.contactEvents;
  const hd = ws.contactCache.header,
    cs = ws.contactCache.contacts;
  const count = ws.contactCache.count;
  const rest = ws.touchingResting;
  let deepest = 0;
  let m = 0;
  while (m < count) {
    const ha = hd[m * HEADER + HeaderField.handleA],
      hb = hd[m * HEADER + HeaderField.handleB];
    // Manifolds of one body pair are consecutive (the narrow phase adds them together).
    let end = m + 1;
    while (end < count && hd[end * HEADER + HeaderField.handleA] === ha && hd[end * HEADER + HeaderField.handleB] === hb) end++;
    let total = 0,
      minSep = Infinity,
      best = -1,
      bestImpulse = -1;
    for (let j = m; j < end; j++) {
      const n = hd[j * HEADER + HeaderField.count];
      for (let c = 0; c < n; c++) {
        const co = (j * 4 + c) * CONTACT;
        const imp = cs[co + ContactField.totalImpulse];
        total += imp;
        const sep = cs[co + ContactField.separation];
        if (sep < minSep) minSep = sep;
        if (-sep > deepest) deepest = -sep;
        if (imp > bestImpulse || (imp === bestImpulse && best >= 0 && sep < cs[best + ContactField.separation])) {
          bestImpulse = imp;
          best = co;
        }
      }
    }
    // Touching: the solver pushed. No impulse, no event (Havok raises none for bodies that only touch, e.g.
    // side by side moving together); a pair that has begun stays touching while its surfaces are within
    // the contact tolerance, so a resting contact whose impulse drops to 0 for a step does not flicker
    // Ended / Began.
    // A pair that touched while its bodies slept touches on (its resting entry is dropped by reexamineResting).
    // The resting table is searched for every pair, empty or not: a call first made when the first island sleeps
    // has no type feedback, and V8 would deoptimise this loop there.
    const wasTouching = prev.find(ha, hb) >= 0 || rest.find(ha, hb) >= 0;
    if (best >= 0 && (total > 0 || (wasTouching && minSep <= TOUCH_TOLERANCE))) {
      const mi = Math.floor(best / (4 * CONTACT));
      const nx = hd[mi * HEADER + HeaderField.normalX],
        ny = hd[mi * HEADER + HeaderField.normalX + 1],
        nz = hd[mi * HEADER + HeaderField.normalX + 2];
      const px = cs[best + ContactField.pointX],
        py = cs[best + ContactField.pointX + 1],
        pz = cs[best + ContactField.pointX + 2];
      const e = cur.insert(ha, hb);
      const pl = cur.payload;
      pl[e * 6] = px;
      pl[e * 6 + 1] = py;
      pl[e * 6 + 2] = pz;
      pl[e * 6 + 3] = nx;
      pl[e * 6 + 4] = ny;
      pl[e * 6 + 5] = nz;
      const type = wasTouching ? ContactEventType.Persisted : ContactEventType.Began;
      const k = ev.add(ha, hb, type, pl, e * 6);
      ev.separation[k] = minSep;
      ev.impulse[k] = total;
    }
    m = end;
  }
  ws.stats.maxPenetration = deepest;
  reportEndedContacts(ws, cur, prev);
  // Trigger enter / exit.
  const tc = ws.triggerCur,
    tp = ws.triggerPrev;
  const te = ws.triggerEvents;
  for (let e = 0; e < tc.count; e++) {
    if (tp.find(tc.keyA[e], tc.keyB[e]) < 0) te.add(tc.keyA[e], tc.keyB[e], TriggerEventType.Entered);
  }
  for (let e = 0; e < tp.count; e++) {
    const fate = pairFate(ws, tp, e, tc);
    if (fate === PAIR_RESTING) tc.insert(tp.keyA[e], tp.keyB[e]);
    else if (fate === PAIR_ENDED) te.add(tp.keyA[e], tp.keyB[e], TriggerEventType.Exited);
  }
}
