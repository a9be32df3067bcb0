/**
 * The step's prediction (steps 1-2 of docs/design.md): the list of awake moving bodies, then each body's
 * t0 pose, world inertia, gyroscopic term, speculative margin and velocity-expanded bounds (bepu
 * BoundingBoxBatcher).
 */
import { BodyFlag } from "../../dynamics/bodySet";
import { predictBodyBounds } from "../../dynamics/boundsExpansion";
import { predictMotion } from "../../dynamics/integrator";
import { ContinuousDetectionMode, MotionType } from "../descriptions";
import { type WorldState, TREE_MOVING } from "../worldState";

/** 1. (Prestep) The awake bodies that move, in storage order (deterministic). */
export function buildActiveList(ws: WorldState): void {
  const b = ws.bodies;
  const a = ws.scratch.active;
  a.clear();
  for (let i = 0; i < b.count; i++) {
    if (b.motionType[i] !== MotionType.Static && (b.flags[i] & BodyFlag.Sleeping) === 0) a.push(i);
  }
}

/**
 * 2. Predict: the swept transform's t0 pose, world inertia, the gyroscopic term, then each body's
 * speculative margin and velocity-expanded bounds (bepu BoundingBoxBatcher).
 */
export function predict(ws: WorldState, dt: number): void {
  const active = ws.scratch.active;
  const ids = active.data;
  const sc = ws.scratch.stepScalars;
  sc[0] = dt;
  sc[1] = ws.gx;
  sc[2] = ws.gy;
  sc[3] = ws.gz;
  sc[4] = ws.maxLinearSpeed;
  sc[5] = ws.maxAngularSpeed;
  const pool = ws.scratch.pool;
  if (pool === null) {
    for (let k = 0; k < active.count; k++) predictBody(ws, ids[k]);
    return;
  }
  // Threads: every body's motion over the pool's blocks, then the bounds here (they need shapes and the tree).
  // Bodies are independent, so this order gives the serial order's result.
  pool.predictMotion(ws, active, sc);
  for (let k = 0; k < active.count; k++) predictBounds(ws, ids[k]);
}

/** predict() for one body; reads dt and gravity from stepScalars. */
function predictBody(ws: WorldState, i: number): void {
  predictMotion(ws.bodies, i, ws.scratch.stepScalars);
  predictBounds(ws, i);
}

/**
 * The rest of predict() for one body, after its motion (predictMotion): the speculative margin and the
 * velocity-expanded bounds, which need the body's shape and the moving tree (main thread only).
 */
function predictBounds(ws: WorldState, i: number): void {
  const b = ws.bodies;
  const sc = ws.scratch.stepScalars;
  const dt = sc[0];
  const i3 = i * 3;
  const dynamic = b.motionType[i] === MotionType.Dynamic;
  // Velocity expected over the step: gravity and user forces included (bepu predicts after them).
  let vx = b.vel[i3],
    vy = b.vel[i3 + 1],
    vz = b.vel[i3 + 2];
  if (dynamic) {
    const m = b.invMass[i];
    const gf = m > 0 ? b.gravityFactor[i] * dt : 0;
    vx += gf * sc[1] + dt * m * b.force[i3];
    vy += gf * sc[2] + dt * m * b.force[i3 + 1];
    vz += gf * sc[3] + dt * m * b.force[i3 + 2];
  }
  const shape = b.shape[i];
  if (shape === null) {
    // A shapeless body has no pairs; its margin is its minimum.
    b.margin[i] = b.marginMin[i];
    return;
  }
  ws.originPose(i, ws.scratch.poseA);
  shape.computeAabb(ws.scratch.poseA, b.aabb, i * 6);
  const io = ws.scratch.boundsIO;
  io[0] = dt;
  io[1] = vx;
  io[2] = vy;
  io[3] = vz;
  predictBodyBounds(b, i, io, b.continuity[i] === ContinuousDetectionMode.Discrete);
  if (b.tree[i] === TREE_MOVING) ws.movingTree.setLeafAabbFrom(b.proxy[i], b.aabb, i * 6);
}
