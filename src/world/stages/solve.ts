/**
 * The substepped soft solve (step 5, Box2D v3 soft step) and the step's final counters.
 */
import { BodyFlag } from "../../dynamics/bodySet";
import { integratePositions, integrateVelocities, updateWorldInertia } from "../../dynamics/integrator";
import { MotionType } from "../descriptions";
import type { WorldState } from "../worldState";

/** 7. The substepped soft solve (Box2D v3 soft step): integrate, warm start, solve, integrate, relax; restitution. */
export function solve(ws: WorldState, dt: number): void {
  const b = ws.bodies;
  const solver = ws.solver;
  const joints = ws.joints;
  const hasJoints = joints.count > 0;
  // Joints hold their stiffness with more substeps than contacts need (their stiffness is capped at a quarter of
  // the substep rate), so a world without joints may run fewer.
  const n = hasJoints ? ws.substeps : ws.contactSubsteps;
  const h = dt / n;
  // Joints before contacts in every pass (Box2D v3's order): contacts see the joints' corrections.
  if (hasJoints) joints.prepare(b, dt, h);
  markJointed(ws);
  solver.pushed = ws.scratch.pushedBodies;
  // Large colours of the contact passes go over the worker pool when one runs (src/parallel/contactBlocks.ts).
  solver.runner = ws.scratch.pool;
  // The substep length (dt / n), gravity and the speed limits are worked out by the callees from dt, n and ws: as
  // arguments, V8 boxed those doubles on every call (docs/design.md), 140 B a step.
  solver.prepare(b, dt, n, ws);
  for (let s = 0; s < n; s++) {
    integrateVelocities(b, ws.scratch.active, dt, n, ws);
    if (hasJoints) joints.warmStart(b);
    solver.warmStart(b);
    if (hasJoints) joints.solve(b, h, true);
    solver.solve(b);
    integratePositions(b, ws.scratch.active, dt, n, solver.pushVel, solver.pushAngVel);
    if (hasJoints) joints.solve(b, h, false);
    solver.relax(b);
  }
  // Each contact's end-of-step separation (events, islands) is the last relax pass's, at the final poses.
  solver.applyRestitution(b);
  // The impulses, separations and stick states go back to the contact cache once (events, islands, next step).
  solver.store();
  // Forces act for one step.
  const ids = ws.scratch.active.data;
  for (let k = 0; k < ws.scratch.active.count; k++) {
    const i = ids[k];
    // Element writes: TypedArray.fill with a range is a builtin call that allocated here every step.
    const f = b.force,
      tq = b.torque;
    f[i * 3] = f[i * 3 + 1] = f[i * 3 + 2] = 0;
    tq[i * 3] = tq[i * 3 + 1] = tq[i * 3 + 2] = 0;
    updateWorldInertia(b, i);
  }
}

/** After islands and sleep (6) and events (9): the step's body counts. */
export function finishStep(ws: WorldState): void {
  const b = ws.bodies;
  let awake = 0;
  for (let i = 0; i < b.count; i++) {
    if (b.motionType[i] !== MotionType.Static && (b.flags[i] & BodyFlag.Sleeping) === 0) awake++;
  }
  ws.stats.bodies = b.count;
  ws.stats.awakeBodies = awake;
}

/** The bodies of the joints prepared this step, for the contact relax pass's resting friction (contacts/contactConstraints.ts). */
function markJointed(ws: WorldState): void {
  const set = ws.solver.jointed;
  set.begin(ws.bodies.count);
  if (ws.joints.count === 0) return;
  const ja = ws.joints.activeA,
    jb = ws.joints.activeB;
  for (let k = 0; k < ws.joints.activeCount; k++) {
    set.add(ja[k]);
    if (jb[k] >= 0) set.add(jb[k]);
  }
}
