/**
 * The car pattern Babylon users copy for Havok (issue 20), as a reusable scene for tests and the bench.
 *
 * A box chassis; per wheel an axle body joined to the chassis by a `Physics6DoFConstraint` (LINEAR_Y a spring
 * at 0: the suspension; LINEAR_X/Z and ANGULAR_X/Z locked; ANGULAR_Y a POSITION motor on the front axles:
 * steering, locked on the rear ones) and a cylinder wheel joined to its axle by a second 6-DoF constraint
 * (linear axes and ANGULAR_Y/Z locked, ANGULAR_X, the wheel's axis, a VELOCITY motor: drive and brake). Default
 * joint frames (X = (1, 0, 0), the wheel axis; Y = (0, -1, 0), vertical), as user code leaves them. Car parts
 * share a filter membership the ground alone collides with, so they do not collide with each other. A
 * triangle-mesh ground, gravity -240, `setTimeStep(1/500)` and a plugin built with `useDeltaForWorldStep =
 * false`: one Babylon frame is one 1/500 s step.
 *
 * `driveScript` runs settle, throttle, steer, brake and reverse phases and returns the figures of issue 20.
 */
import {
  Mesh,
  MeshBuilder,
  Physics6DoFConstraint,
  PhysicsBody,
  PhysicsConstraintAxis,
  PhysicsConstraintMotorType,
  PhysicsMotionType,
  PhysicsShapeBox,
  PhysicsShapeCylinder,
  PhysicsShapeHeightField,
  PhysicsShapeMesh,
  Quaternion,
  Vector3,
  type PhysicsShape,
} from "@babylonjs/core";
import { makeScene, type Kind, type TestScene } from "./helpers";

export const CAR_GRAVITY = -240;
export const CAR_STEP = 1 / 500;

export const CAR = {
  chassis: { size: new Vector3(2.6, 0.8, 6), mass: 100 },
  axle: { size: 0.3, mass: 5 },
  wheel: { radius: 1, width: 0.6, mass: 10, friction: 1 },
  /** Wheel centres in the chassis frame (x right, z forward). */
  wheelAt: [new Vector3(-1.6, -0.5, 2.2), new Vector3(1.6, -0.5, 2.2), new Vector3(-1.6, -0.5, -2.2), new Vector3(1.6, -0.5, -2.2)],
  suspension: { travel: 0.1, stiffness: 5e4, damping: 1500 },
  steerMaxForce: 3e7,
  driveMaxForce: 2500,
};

const CAR_MEMBERSHIP = 2,
  GROUND_MEMBERSHIP = 1;

export interface Car {
  chassis: PhysicsBody;
  axles: PhysicsBody[];
  wheels: PhysicsBody[];
  /** Chassis-to-axle joints (suspension, steering), front first. */
  suspensions: Physics6DoFConstraint[];
  /** Axle-to-wheel joints (drive). */
  hubs: Physics6DoFConstraint[];
}

function carShape(shape: PhysicsShape, friction = 0.5): PhysicsShape {
  shape.filterMembershipMask = CAR_MEMBERSHIP;
  shape.filterCollideMask = GROUND_MEMBERSHIP;
  shape.material = { friction, restitution: 0 };
  return shape;
}

function dynamicBody(t: TestScene, mesh: Mesh, shape: PhysicsShape, mass: number): PhysicsBody {
  const body = new PhysicsBody(mesh, PhysicsMotionType.DYNAMIC, false, t.scene);
  body.shape = shape;
  body.setMassProperties({ mass });
  return body;
}

/** A flat triangle-mesh ground (top at y = 0), `size` wide, `subdivisions` squares a side. */
export function meshGround(t: TestScene, size = 800, subdivisions = 40): PhysicsBody {
  const ground = MeshBuilder.CreateGround("ground", { width: size, height: size, subdivisions }, t.scene);
  const body = new PhysicsBody(ground, PhysicsMotionType.STATIC, false, t.scene);
  const shape = new PhysicsShapeMesh(ground, t.scene);
  shape.filterMembershipMask = GROUND_MEMBERSHIP;
  shape.material = { friction: 1, restitution: 0 };
  body.shape = shape;
  return body;
}

/** A flat box floor (top at y = 0), `size` wide. */
export function boxGround(t: TestScene, size = 800): PhysicsBody {
  const m = MeshBuilder.CreateBox("floor", { width: size, height: 2, depth: size }, t.scene);
  m.position.y = -1;
  const body = new PhysicsBody(m, PhysicsMotionType.STATIC, false, t.scene);
  const shape = new PhysicsShapeBox(Vector3.Zero(), Quaternion.Identity(), new Vector3(size, 2, size), t.scene);
  shape.filterMembershipMask = GROUND_MEMBERSHIP;
  shape.material = { friction: 1, restitution: 0 };
  body.shape = shape;
  return body;
}

/** A flat heightfield ground (heights 0), `size` wide, `samples` a side. */
export function heightfieldGround(t: TestScene, size = 800, samples = 41): PhysicsBody {
  const node = MeshBuilder.CreateBox("heightfield", { size: 1 }, t.scene);
  node.isVisible = false;
  const body = new PhysicsBody(node, PhysicsMotionType.STATIC, false, t.scene);
  const shape = new PhysicsShapeHeightField(size, size, samples, samples, new Float32Array(samples * samples), t.scene);
  shape.filterMembershipMask = GROUND_MEMBERSHIP;
  shape.material = { friction: 1, restitution: 0 };
  body.shape = shape;
  return body;
}

export type GroundKind = "mesh" | "heightfield" | "box";

function ground(t: TestScene, kind: GroundKind): void {
  if (kind === "mesh") meshGround(t);
  else if (kind === "heightfield") heightfieldGround(t);
  else boxGround(t);
}

/** A cylinder wheel whose axis is world X (shape along local X; the mesh baked to match). */
export function wheelBody(t: TestScene, at: Vector3, friction = CAR.wheel.friction): PhysicsBody {
  const { radius, width, mass } = CAR.wheel;
  const mesh = MeshBuilder.CreateCylinder("wheel", { diameter: 2 * radius, height: width }, t.scene);
  mesh.rotation.z = Math.PI / 2;
  mesh.bakeCurrentTransformIntoVertices();
  mesh.position.copyFrom(at);
  mesh.rotationQuaternion = Quaternion.Identity();
  const shape = carShape(new PhysicsShapeCylinder(new Vector3(-width / 2, 0, 0), new Vector3(width / 2, 0, 0), radius, t.scene), friction);
  return dynamicBody(t, mesh, shape, mass);
}

/** Builds the car with its chassis centre at `at`, facing +Z. */
export function buildCar(t: TestScene, at: Vector3): Car {
  const cs = CAR.chassis.size;
  const chassisMesh = MeshBuilder.CreateBox("chassis", { width: cs.x, height: cs.y, depth: cs.z }, t.scene);
  chassisMesh.position.copyFrom(at);
  chassisMesh.rotationQuaternion = Quaternion.Identity();
  const chassis = dynamicBody(t, chassisMesh, carShape(new PhysicsShapeBox(Vector3.Zero(), Quaternion.Identity(), cs, t.scene)), CAR.chassis.mass);
  const car: Car = { chassis, axles: [], wheels: [], suspensions: [], hubs: [] };
  const { LINEAR_X, LINEAR_Y, LINEAR_Z, ANGULAR_X, ANGULAR_Y, ANGULAR_Z } = PhysicsConstraintAxis;
  CAR.wheelAt.forEach((local, i) => {
    const front = i < 2;
    const pos = at.add(local);
    const a = CAR.axle.size;
    const axleMesh = MeshBuilder.CreateBox("axle", { size: a }, t.scene);
    axleMesh.position.copyFrom(pos);
    axleMesh.rotationQuaternion = Quaternion.Identity();
    const axle = dynamicBody(t, axleMesh, carShape(new PhysicsShapeBox(Vector3.Zero(), Quaternion.Identity(), new Vector3(a, a, a), t.scene)), CAR.axle.mass);
    const wheel = wheelBody(t, pos);
    const suspension = new Physics6DoFConstraint(
      { pivotA: local.clone(), pivotB: Vector3.Zero() },
      [
        { axis: LINEAR_X, minLimit: 0, maxLimit: 0 },
        // Free travel within the limits, a spring beyond them (Havok ignores stiffness on a LOCKED axis).
        { axis: LINEAR_Y, minLimit: -CAR.suspension.travel, maxLimit: CAR.suspension.travel, stiffness: CAR.suspension.stiffness, damping: CAR.suspension.damping },
        { axis: LINEAR_Z, minLimit: 0, maxLimit: 0 },
        { axis: ANGULAR_X, minLimit: 0, maxLimit: 0 },
        ...(front ? [] : [{ axis: ANGULAR_Y, minLimit: 0, maxLimit: 0 }]),
        { axis: ANGULAR_Z, minLimit: 0, maxLimit: 0 },
      ],
      t.scene,
    );
    chassis.addConstraint(axle, suspension);
    if (front) {
      suspension.setAxisMotorType(ANGULAR_Y, PhysicsConstraintMotorType.POSITION);
      suspension.setAxisMotorTarget(ANGULAR_Y, 0);
      suspension.setAxisMotorMaxForce(ANGULAR_Y, CAR.steerMaxForce);
    }
    const hub = new Physics6DoFConstraint(
      { pivotA: Vector3.Zero(), pivotB: Vector3.Zero() },
      [
        { axis: LINEAR_X, minLimit: 0, maxLimit: 0 },
        { axis: LINEAR_Y, minLimit: 0, maxLimit: 0 },
        { axis: LINEAR_Z, minLimit: 0, maxLimit: 0 },
        { axis: ANGULAR_Y, minLimit: 0, maxLimit: 0 },
        { axis: ANGULAR_Z, minLimit: 0, maxLimit: 0 },
      ],
      t.scene,
    );
    axle.addConstraint(wheel, hub);
    hub.setAxisMotorType(ANGULAR_X, PhysicsConstraintMotorType.VELOCITY);
    hub.setAxisMotorTarget(ANGULAR_X, 0);
    hub.setAxisMotorMaxForce(ANGULAR_X, CAR.driveMaxForce);
    car.axles.push(axle);
    car.wheels.push(wheel);
    car.suspensions.push(suspension);
    car.hubs.push(hub);
  });
  return car;
}

/** A scene set up as the car pattern sets its world: gravity -240, fixed 1/500 s steps. */
export async function carScene(kind: Kind): Promise<TestScene> {
  const t = await makeScene(kind, { gravity: new Vector3(0, CAR_GRAVITY, 0), useDelta: false });
  t.scene.getPhysicsEngine()!.setTimeStep(CAR_STEP);
  return t;
}

/** Sets every drive motor's target (rad/s about the wheel axis; positive rolls forward) and optionally the torque. */
export function setDrive(car: Car, target: number, maxForce = CAR.driveMaxForce): void {
  for (const h of car.hubs) {
    h.setAxisMotorTarget(PhysicsConstraintAxis.ANGULAR_X, target);
    h.setAxisMotorMaxForce(PhysicsConstraintAxis.ANGULAR_X, maxForce);
  }
}

/** Sets the front axles' steering target (rad about the joint's Y axis). */
export function setSteer(car: Car, target: number): void {
  for (let i = 0; i < 2; i++) car.suspensions[i].setAxisMotorTarget(PhysicsConstraintAxis.ANGULAR_Y, target);
}

function position(b: PhysicsBody): Vector3 {
  b.transformNode.computeWorldMatrix(true);
  return b.transformNode.getAbsolutePosition().clone();
}

function rotation(b: PhysicsBody): Quaternion {
  return b.transformNode.rotationQuaternion!.clone();
}

/** Heading of a body's local +Z in the ground plane (rad, 0 = +Z, positive towards +X). */
export function heading(b: PhysicsBody): number {
  const f = Vector3.Forward().applyRotationQuaternion(rotation(b));
  return Math.atan2(f.x, f.z);
}

/** A body-local point of `b` in the local frame of `frame`. */
function inFrame(frame: PhysicsBody, b: PhysicsBody, local = Vector3.Zero()): Vector3 {
  const m = frame.transformNode.computeWorldMatrix(true).clone().invert();
  const w = Vector3.TransformCoordinates(local, b.transformNode.computeWorldMatrix(true));
  return Vector3.TransformCoordinates(w, m);
}

/** Yaw of `b` relative to `frame` about frame's Y (rad). */
function relativeYaw(frame: PhysicsBody, b: PhysicsBody): number {
  const q = Quaternion.Inverse(rotation(frame)).multiply(rotation(b));
  const f = Vector3.Forward().applyRotationQuaternion(q);
  return Math.atan2(f.x, f.z);
}

export interface CarFigures {
  /** Chassis centre height after 1 s of settling. */
  settleHeight: number;
  /** Largest |heading change| during the 4 s full-throttle straight (deg). */
  headingDrift: number;
  /** Largest |front-axle yaw relative to the chassis - steering target 0| on the straight (rad). */
  frontYawError: number;
  /** Chassis travel in the ground plane during the 4 s of throttle. */
  throttleDistance: number;
  /** Largest wheel-to-axle pivot distance over the whole run (a distance locked at 0). */
  wheelAxleSeparation: number;
  /** Largest |LINEAR_X| or |LINEAR_Z| of a chassis-to-axle joint over the whole run (locked at 0). */
  lockedAxisDrift: number;
  /** Heading change during the 1 s steered phase (deg). */
  steerTurn: number;
  /** Speed at the end of the brake phase. */
  brakeSpeed: number;
  /** Chassis travel during the reverse phase, positive backwards. */
  reverseDistance: number;
  /** Smallest chassis up-vector Y over the run (< 0.5: flipped). */
  minUp: number;
  /** Any non-finite pose. */
  nan: boolean;
}

/** Drive speeds and phases of the scripted run (steps of 1/500 s). */
export const SCRIPT = { settle: 500, throttle: 2000, steer: 500, brake: 500, reverse: 500, speed: 40, steerAngle: 0.3 };

/** Runs the scripted drive on a fresh car scene and returns its figures. */
export async function driveScript(kind: Kind, groundKind: GroundKind = "mesh"): Promise<CarFigures> {
  const t = await carScene(kind);
  try {
    ground(t, groundKind);
    const car = buildCar(t, new Vector3(0, CAR.wheel.radius - CAR.wheelAt[0].y + 0.05, 0));
    const f: CarFigures = {
      settleHeight: 0,
      headingDrift: 0,
      frontYawError: 0,
      throttleDistance: 0,
      wheelAxleSeparation: 0,
      lockedAxisDrift: 0,
      steerTurn: 0,
      brakeSpeed: 0,
      reverseDistance: 0,
      minUp: 1,
      nan: false,
    };
    const watch = (): void => {
      const p = position(car.chassis);
      if (![p.x, p.y, p.z].every(Number.isFinite)) f.nan = true;
      const up = Vector3.Up().applyRotationQuaternion(rotation(car.chassis));
      f.minUp = Math.min(f.minUp, up.y);
      for (let i = 0; i < 4; i++) {
        const sep = position(car.wheels[i]).subtract(position(car.axles[i])).length();
        if (!Number.isFinite(sep)) f.nan = true;
        f.wheelAxleSeparation = Math.max(f.wheelAxleSeparation, sep);
        const d = inFrame(car.chassis, car.axles[i]).subtract(CAR.wheelAt[i]);
        f.lockedAxisDrift = Math.max(f.lockedAxisDrift, Math.abs(d.x), Math.abs(d.z));
      }
    };
    const run = (n: number, each?: () => void): void => {
      for (let i = 0; i < n; i++) {
        t.step(1);
        watch();
        each?.();
      }
    };
    run(SCRIPT.settle);
    f.settleHeight = position(car.chassis).y;
    const h0 = heading(car.chassis);
    const p0 = position(car.chassis);
    setDrive(car, SCRIPT.speed / CAR.wheel.radius);
    run(SCRIPT.throttle, () => {
      f.headingDrift = Math.max(f.headingDrift, (Math.abs(heading(car.chassis) - h0) * 180) / Math.PI);
      for (let i = 0; i < 2; i++) f.frontYawError = Math.max(f.frontYawError, Math.abs(relativeYaw(car.chassis, car.axles[i])));
    });
    const p1 = position(car.chassis);
    f.throttleDistance = Math.hypot(p1.x - p0.x, p1.z - p0.z);
    const h1 = heading(car.chassis);
    setSteer(car, SCRIPT.steerAngle);
    run(SCRIPT.steer);
    f.steerTurn = ((heading(car.chassis) - h1) * 180) / Math.PI;
    setSteer(car, 0);
    setDrive(car, 0, 4 * CAR.driveMaxForce);
    run(SCRIPT.brake);
    f.brakeSpeed = car.chassis.getLinearVelocity().length();
    const p2 = position(car.chassis);
    const back = Vector3.Backward().applyRotationQuaternion(rotation(car.chassis));
    setDrive(car, -SCRIPT.speed / 2 / CAR.wheel.radius);
    run(SCRIPT.reverse);
    f.reverseDistance = Vector3.Dot(position(car.chassis).subtract(p2), back);
    return f;
  } finally {
    t.dispose();
  }
}

export interface RollFigures {
  /** Mean deceleration over the second (units/s^2). */
  deceleration: number;
  /** Largest sideways (x) displacement of the wheel centre over the second. */
  wander: number;
}

/**
 * One wheel rolling along +Z at `speed` on a flat triangle-mesh ground (or a heightfield, or a box floor):
 * its deceleration and sideways wander over 1 s of 1/500 s steps.
 */
export async function rollWheel(kind: Kind, speed: number, groundKind: GroundKind = "mesh"): Promise<RollFigures> {
  const t = await carScene(kind);
  try {
    ground(t, groundKind);
    const r = CAR.wheel.radius;
    const wheel = wheelBody(t, new Vector3(0.3, r, -300));
    // Settle on the ground at rest, then launch rolling without slip.
    t.step(100);
    wheel.setLinearVelocity(new Vector3(0, 0, speed));
    wheel.setAngularVelocity(new Vector3(speed / r, 0, 0));
    t.step(50);
    const v0 = wheel.getLinearVelocity().z;
    const x0 = position(wheel).x;
    let wander = 0;
    for (let i = 0; i < 500; i++) {
      t.step(1);
      wander = Math.max(wander, Math.abs(position(wheel).x - x0));
    }
    const v1 = wheel.getLinearVelocity().z;
    return { deceleration: v0 - v1, wander };
  } finally {
    t.dispose();
  }
}
