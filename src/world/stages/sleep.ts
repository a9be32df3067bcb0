/**
 * Islands and sleep (step 7): per-body rest timers, islands over touching contacts and joints, islands
 * that rested long enough put to sleep; sleepers jointed to moving bodies woken before the step.
 */
import { grown } from "../../collections/growth";
import { BodyFlag } from "../../dynamics/bodySet";
import { HEADER, HeaderField } from "../../dynamics/contacts/manifoldLayout";
import { MotionType } from "../descriptions";
import type { WorldState } from "../worldState";

/** 7. Rest timers, islands over touching contacts and joints, and islands that rested long enough put to sleep. */
export function updateSleep(ws: WorldState, dt: number): void {
  const b = ws.bodies;
  const ids = ws.scratch.active.data;
  const n = ws.scratch.active.count;
  const thr = ws.sleepThreshold;
  // The longest rest time of an active body: an island sleeps only when all its bodies have rested for
  // timeToSleep, so while no body has, no island can, and the island pass below is skipped (a pile kept
  // awake, e.g. Babylon's ALWAYS_ACTIVE bodies in a world with sleeping on, pays nothing for it).
  let longestRest = 0;
  // Per-body rest timers (Box2D: speed at the body's farthest point below the threshold).
  for (let k = 0; k < n; k++) {
    const i = ids[k];
    const i3 = i * 3;
    const v2 = b.vel[i3] * b.vel[i3] + b.vel[i3 + 1] * b.vel[i3 + 1] + b.vel[i3 + 2] * b.vel[i3 + 2];
    const w2 = b.angVel[i3] * b.angVel[i3] + b.angVel[i3 + 1] * b.angVel[i3 + 1] + b.angVel[i3 + 2] * b.angVel[i3 + 2];
    const r = b.radius[i];
    const speed2 = Math.max(v2, w2 * r * r);
    if (!ws.sleepingEnabled || (b.flags[i] & BodyFlag.SleepingAllowed) === 0 || speed2 > thr * thr) b.sleepTime[i] = 0;
    else b.sleepTime[i] += dt;
    if (b.sleepTime[i] > longestRest) longestRest = b.sleepTime[i];
  }
  // A boolean, not longestRest: a double argument of a call V8 does not inline is boxed (allocated) every step.
  sleepIslands(ws, n, ws.sleepingEnabled && longestRest >= ws.timeToSleep);
}

/**
 * Islands over this step's touching contacts and joints, and those that rested long enough put to sleep. Apart
 * from updateSleep, and called every step (it returns at once while no body has rested timeToSleep: `rested`): its code
 * first runs without type feedback, and V8's deoptimisation there would otherwise send the rest-timer loop
 * above (doubles, which unoptimised code boxes: 7 KB a step for 300 bodies) back to the interpreter.
 */
function sleepIslands(ws: WorldState, n: number, rested: boolean): void {
  if (!rested) return;
  const b = ws.bodies;
  const ids = ws.scratch.active.data;
  // Islands over this step's contacts between moving bodies (active-list positions as ids).
  const uf = ws.scratch.unionFind;
  uf.reset(n);
  const pos = denseToActive(ws, n);
  const hd = ws.contactCache.header;
  for (let m = 0; m < ws.contactCache.count; m++) {
    const a = hd[m * HEADER + HeaderField.bodyA],
      c = hd[m * HEADER + HeaderField.bodyB];
    const pa = pos[a],
      pc = pos[c];
    if (pa < 0 || pc < 0) continue;
    const dynA = b.motionType[a] === MotionType.Dynamic,
      dynC = b.motionType[c] === MotionType.Dynamic;
    // Touching manifolds only: a body rolling past within the speculative margin must not keep a resting
    // pile awake.
    if (dynA && dynC && ws.contactCache.isTouching(m)) uf.union(pa, pc);
  }
  // Jointed bodies share an island (they sleep and wake together).
  const ja = ws.joints.activeA,
    jb = ws.joints.activeB;
  for (let k = 0; k < ws.joints.activeCount; k++) {
    const a = ja[k],
      c = jb[k];
    if (a < 0 || c < 0) continue;
    const pa = pos[a],
      pc = pos[c];
    if (pa >= 0 && pc >= 0 && b.motionType[a] === MotionType.Dynamic && b.motionType[c] === MotionType.Dynamic) uf.union(pa, pc);
  }
  ws.scratch.islandMin = grown(ws.scratch.islandMin, n, 0);
  const minT = ws.scratch.islandMin;
  minT.fill(Infinity, 0, n);
  for (let k = 0; k < n; k++) {
    const r = uf.find(k);
    const t = b.sleepTime[ids[k]];
    if (t < minT[r]) minT[r] = t;
  }
  // A moving kinematic body keeps what it touches awake.
  for (let m = 0; m < ws.contactCache.count; m++) {
    const a = hd[m * HEADER + HeaderField.bodyA],
      c = hd[m * HEADER + HeaderField.bodyB];
    const pa = pos[a],
      pc = pos[c];
    if (pa < 0 || pc < 0) continue;
    if (b.motionType[a] === MotionType.Kinematic) {
      const r = uf.find(pc);
      if (b.sleepTime[a] < minT[r]) minT[r] = b.sleepTime[a];
    } else if (b.motionType[c] === MotionType.Kinematic) {
      const r = uf.find(pa);
      if (b.sleepTime[c] < minT[r]) minT[r] = b.sleepTime[c];
    }
  }
  sleepRestedIslands(ws, n);
}

/**
 * Islands (union-find roots over the active list) that have rested long enough sleep together. Apart from
 * updateSleep, whose loops over velocities would otherwise be deoptimised (and box every double) when the
 * first island of a run falls asleep.
 */
function sleepRestedIslands(ws: WorldState, n: number): void {
  const uf = ws.scratch.unionFind;
  const minT = ws.scratch.islandMin;
  const ids = ws.scratch.active.data;
  const list = ws.scratch.sleepScratch;
  for (let k = 0; k < n; k++) {
    if (uf.find(k) !== k || minT[k] < ws.timeToSleep) continue;
    list.clear();
    for (let j = k; j < n; j++) if (uf.find(j) === k) list.push(ids[j]);
    ws.sleepBodies(list.data, list.count);
  }
}

/** dense index -> position in the active list (-1 when not active). */
function denseToActive(ws: WorldState, n: number): Int32Array {
  const b = ws.bodies;
  ws.scratch.activePos = grown(ws.scratch.activePos, b.count, 0);
  const p = ws.scratch.activePos;
  p.fill(-1, 0, b.count);
  const ids = ws.scratch.active.data;
  for (let k = 0; k < n; k++) p[ids[k]] = k;
  return p;
}

/** 1. (Prestep) A sleeping body jointed to a body that moves wakes (with its island). */
export function wakeJointedSleepers(ws: WorldState, dt: number): void {
  const b = ws.bodies;
  ws.joints.prepare(b, dt, dt / ws.substeps);
  const ja = ws.joints.activeA,
    jb = ws.joints.activeB;
  for (let k = 0; k < ws.joints.activeCount; k++) {
    const a = ja[k],
      c = jb[k];
    if (a < 0 || c < 0) continue;
    const sa = (b.flags[a] & BodyFlag.Sleeping) !== 0,
      sc = (b.flags[c] & BodyFlag.Sleeping) !== 0;
    if (sa === sc) continue;
    const mover = sa ? c : a;
    if (b.motionType[mover] !== MotionType.Static) ws.wakeIndex(sa ? a : c);
  }
}
