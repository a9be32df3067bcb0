/**
 * Test harness for joints: a real World holds the bodies (mass handling, poses, velocities); a
 * JointSolver over world.bodies is stepped by a loop that mirrors World.step's solve for bodies
 * without shapes (no contacts): predict (t0 pose, world inertia, gyroscopic), joints.prepare, then per
 * substep integrate velocities, warm start, solve (bias), integrate positions, relax.
 *
 * When the world has its own joints (world.joints, wired by the lead), `useWorld` steps the world
 * itself with the same joints.
 */
import { IntList } from "../../src/collections/intList";
import { BodyFlag } from "../../src/dynamics/bodySet";
import {
  integrateGyroscopic,
  integratePositions,
  integrateVelocities,
  updateWorldInertia,
} from "../../src/dynamics/integrator";
import { JointSolver } from "../../src/dynamics/joints/jointSolver";
import type { JointDescription } from "../../src/dynamics/joints/joint6dof";
import { MotionType, type QuatLike, type Vec3Like, World, type WorldSettings } from "../../src/index";

export const DT = 1 / 60;

export interface BodyOptions {
  position: Vec3Like;
  orientation?: QuatLike;
  mass?: number;
  inertia?: Vec3Like;
  centerOfMass?: Vec3Like;
  motionType?: MotionType;
  linearVelocity?: Vec3Like;
  angularVelocity?: Vec3Like;
}

export class JointHarness {
  readonly world: World;
  readonly joints: JointSolver;
  private readonly active = new IntList(64);
  /** No contacts here, so no overlap push-out: zero pseudo-velocities, grown with the bodies. */
  private noPush = new Float64Array(0);
  /** True when stepping through world.step (the world owns the joints). */
  readonly useWorld: boolean;

  constructor(settings: WorldSettings = {}) {
    this.world = new World({ gravity: { x: 0, y: -9.81, z: 0 }, sleepingEnabled: false, ...settings });
    const wj = (this.world as unknown as { joints?: JointSolver }).joints;
    // JOINT_STANDALONE=1 forces the self-contained loop even when the world owns joints.
    this.useWorld = wj instanceof JointSolver && process.env.JOINT_STANDALONE !== "1";
    this.joints = this.useWorld ? wj! : new JointSolver(this.world.bodies, (h) => this.world.wake(h));
  }

  body(o: BodyOptions): number {
    const mass = o.mass ?? 1;
    const I = o.inertia ?? { x: 0.4 * mass * 0.01, y: 0.4 * mass * 0.01, z: 0.4 * mass * 0.01 };
    return this.world.createBody({
      motionType: o.motionType ?? MotionType.Dynamic,
      position: o.position,
      orientation: o.orientation,
      linearVelocity: o.linearVelocity,
      angularVelocity: o.angularVelocity,
      massProperties: { mass, inertia: I, centerOfMass: o.centerOfMass ?? { x: 0, y: 0, z: 0 } },
    });
  }

  joint(desc: JointDescription): number {
    const w = this.world as unknown as { createJoint?: (d: JointDescription) => number };
    return this.useWorld && w.createJoint ? w.createJoint(desc) : this.joints.create(desc);
  }

  step(dt = DT): void {
    if (this.useWorld) {
      this.world.step(dt);
      return;
    }
    const w = this.world;
    const b = w.bodies;
    const a = this.active;
    a.clear();
    for (let i = 0; i < b.count; i++) {
      if (b.motionType[i] !== MotionType.Static && (b.flags[i] & BodyFlag.Sleeping) === 0) a.push(i);
    }
    for (let k = 0; k < a.count; k++) {
      const i = a.data[k];
      b.pos0.set(b.pos.subarray(i * 3, i * 3 + 3), i * 3);
      b.rot0.set(b.rot.subarray(i * 4, i * 4 + 4), i * 4);
      updateWorldInertia(b, i);
      if (b.motionType[i] === MotionType.Dynamic) integrateGyroscopic(b, i, new Float64Array([dt]));
    }
    const n = w.substeps;
    const h = dt / n;
    const j = this.joints;
    j.prepare(b, dt, h);
    for (let s = 0; s < n; s++) {
      integrateVelocities(b, a, dt, n, w);
      j.warmStart(b);
      j.solve(b, h, true);
      if (this.noPush.length < b.count * 3) this.noPush = new Float64Array(b.count * 3);
      integratePositions(b, a, dt, n, this.noPush, this.noPush);
      j.solve(b, h, false);
    }
    for (let k = 0; k < a.count; k++) {
      const i = a.data[k];
      b.force.fill(0, i * 3, i * 3 + 3);
      b.torque.fill(0, i * 3, i * 3 + 3);
      updateWorldInertia(b, i);
    }
  }

  steps(n: number, each?: (i: number) => void, dt = DT): void {
    for (let i = 0; i < n; i++) {
      this.step(dt);
      if (each) each(i);
    }
  }

  pos(h: number): Vec3Like {
    return this.world.getPosition(h, { x: 0, y: 0, z: 0 });
  }
  vel(h: number): Vec3Like {
    return this.world.getLinearVelocity(h, { x: 0, y: 0, z: 0 });
  }
  angVel(h: number): Vec3Like {
    return this.world.getAngularVelocity(h, { x: 0, y: 0, z: 0 });
  }
  rot(h: number): QuatLike {
    return this.world.getOrientation(h, { x: 0, y: 0, z: 0, w: 1 });
  }
  /** World point of a body-local point (origin frame). */
  point(h: number, p: Vec3Like): Vec3Like {
    const o = this.pos(h);
    const q = this.rot(h);
    const r = rotate(q, p);
    return { x: o.x + r.x, y: o.y + r.y, z: o.z + r.z };
  }
}

export function rotate(q: QuatLike, v: Vec3Like): Vec3Like {
  const tx = 2 * (q.y * v.z - q.z * v.y),
    ty = 2 * (q.z * v.x - q.x * v.z),
    tz = 2 * (q.x * v.y - q.y * v.x);
  return {
    x: v.x + q.w * tx + (q.y * tz - q.z * ty),
    y: v.y + q.w * ty + (q.z * tx - q.x * tz),
    z: v.z + q.w * tz + (q.x * ty - q.y * tx),
  };
}

export function dist(a: Vec3Like, b: Vec3Like): number {
  return Math.hypot(a.x - b.x, a.y - b.y, a.z - b.z);
}

export function axisAngle(x: number, y: number, z: number, angle: number): QuatLike {
  const s = Math.sin(angle / 2);
  return { x: x * s, y: y * s, z: z * s, w: Math.cos(angle / 2) };
}

/** Angle (rad) between two unit vectors. */
export function angleBetween(a: Vec3Like, b: Vec3Like): number {
  const c = a.x * b.x + a.y * b.y + a.z * b.z;
  const cx = a.y * b.z - a.z * b.y,
    cy = a.z * b.x - a.x * b.z,
    cz = a.x * b.y - a.y * b.x;
  return Math.atan2(Math.hypot(cx, cy, cz), c);
}
