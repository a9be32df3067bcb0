/**
 * The `continuum-physics/vehicle` entry (kept out of the plain plugin's bundle), with the engine's wheel joint
 * (src/vehicle.ts). `WheelConstraint`: a wheel joined to a chassis for ContinuumPlugin, in physical units (the engine's wheel
 * joint, src/dynamics/joints/wheelJoint.ts). Havok's plugin has no vehicle part: its users build cars from an axle body
 * and two 6-DoF constraints per wheel and tune them by hand. This is one constraint per wheel:
 *
 * ```ts
 * const wheel = new WheelConstraint({ anchor: new Vector3(-0.8, -0.3, 1.3), radius: 0.35, steering: "motor" }, scene);
 * chassisBody.addConstraint(wheelBody, wheel);
 * wheel.setSteering(0.3);        // rad, positive toward the spin axis's side (right for a car facing +Z)
 * wheel.setDrive(30, 400);       // 30 rad/s, at most 400 N m
 * wheel.setBrake(1500);          // N m
 * ```
 *
 * It is a `Physics6DoFConstraint` (so the PhysicsViewer draws it and the axis API reads it): frame X = the spin
 * axis, Y = the suspension axis, pivot A = the wheel centre at rest in the chassis, pivot B = the wheel body's
 * origin. The wheel body must be created with the same orientation as the chassis (or `wheelSpinAxis` /
 * `wheelSuspensionAxis` given in its own frame), its origin at its centre. ContinuumPlugin only: the spring
 * toward rest inside rigid travel stops and the rolling resistance are engine features (on HavokPlugin the
 * constraint is a plain 6-DoF one whose spring acts only beyond the travel limits).
 */
import { Vector3 } from "@babylonjs/core/Maths/math.vector.js";
import { PhysicsConstraintAxis, PhysicsConstraintMotorType } from "@babylonjs/core/Physics/v2/IPhysicsEnginePlugin.js";
import { Physics6DoFConstraint, type Physics6DoFLimit } from "@babylonjs/core/Physics/v2/physicsConstraint.js";
import type { Scene } from "@babylonjs/core/scene.js";
import { JointAxis, MotorType, type World } from "../src/index";

export * from "../src/vehicle";

export interface WheelConstraintOptions {
  /** Wheel centre at rest in the chassis's local frame (m). */
  anchor: Vector3;
  /** Wheel radius (m): drive speeds in m/s and rolling resistance use it. */
  radius: number;
  /** Spin axis in the chassis frame. Default (1, 0, 0) (the chassis's right when it faces +Z). */
  spinAxis?: Vector3;
  /** Suspension axis (up) in the chassis frame. Default (0, 1, 0). */
  suspensionAxis?: Vector3;
  /** Spin axis in the wheel's frame. Default `spinAxis`. */
  wheelSpinAxis?: Vector3;
  /** Suspension axis in the wheel's frame. Default `suspensionAxis`. */
  wheelSuspensionAxis?: Vector3;
  /**
   * Natural frequency (Hz) of the sprung mass bouncing on this wheel's spring. Default 2 (a car): stiffness
   * k = m (2 pi f)^2, so a resting chassis sags by g / (2 pi f)^2 (6 cm at 2 Hz, 1 g).
   */
  suspensionFrequency?: number;
  /** Damping ratio of the suspension (1 = critical). Default 0.5. */
  suspensionDampingRatio?: number;
  /** Mass (kg) the spring carries. Default a quarter of the chassis's mass (a four-wheeled car). */
  sprungMass?: number;
  /** Travel below the anchor (m, >= 0). Default 0.2. */
  suspensionDroop?: number;
  /** Travel above the anchor (m, >= 0). Default 0.2. */
  suspensionCompression?: number;
  /** "locked" (default), "free" (a caster) or "motor" (setSteering turns it). */
  steering?: "locked" | "free" | "motor";
  /** Largest steering torque (N m). Default Infinity. */
  maxSteerTorque?: number;
  /** Rolling resistance coefficient (dimensionless; about 0.01-0.015 for a car tyre on asphalt). Default 0. */
  rollingResistance?: number;
}

const LINEAR_X = PhysicsConstraintAxis.LINEAR_X,
  LINEAR_Y = PhysicsConstraintAxis.LINEAR_Y,
  LINEAR_Z = PhysicsConstraintAxis.LINEAR_Z,
  ANGULAR_X = PhysicsConstraintAxis.ANGULAR_X,
  ANGULAR_Y = PhysicsConstraintAxis.ANGULAR_Y,
  ANGULAR_Z = PhysicsConstraintAxis.ANGULAR_Z;

function positive(name: string, v: unknown): number {
  if (typeof v !== "number") throw new TypeError(`WheelConstraint: options.${name} must be a number, got ${String(v)}`);
  if (!(v > 0 && Number.isFinite(v))) throw new RangeError(`WheelConstraint: options.${name} must be a finite number > 0, got ${String(v)}`);
  return v;
}

function nonNegative(name: string, v: unknown, infinite = false): number {
  if (typeof v !== "number") throw new TypeError(`WheelConstraint: options.${name} must be a number, got ${String(v)}`);
  if (!(v >= 0) || (!infinite && !Number.isFinite(v))) throw new RangeError(`WheelConstraint: options.${name} must be a ${infinite ? "" : "finite "}number >= 0, got ${String(v)}`);
  return v;
}

/** A wheel on a chassis: suspension, steering, drive, brake and rolling resistance (see the module comment). */
export class WheelConstraint extends Physics6DoFConstraint {
  /** Wheel radius (m). */
  readonly radius: number;
  readonly suspensionFrequency: number;
  readonly suspensionDampingRatio: number;
  readonly rollingResistance: number;
  private readonly _sprungMass: number | undefined;
  private readonly _steerMode: "locked" | "free" | "motor";
  private readonly _maxSteerTorque: number;

  constructor(options: WheelConstraintOptions, scene: Scene) {
    if (typeof options !== "object" || options === null) throw new TypeError(`WheelConstraint: options must be an object, got ${String(options)}`);
    const radius = positive("radius", options.radius);
    const frequency = positive("suspensionFrequency", options.suspensionFrequency ?? 2);
    const zeta = nonNegative("suspensionDampingRatio", options.suspensionDampingRatio ?? 0.5);
    const droop = nonNegative("suspensionDroop", options.suspensionDroop ?? 0.2);
    const compression = nonNegative("suspensionCompression", options.suspensionCompression ?? 0.2);
    const rr = nonNegative("rollingResistance", options.rollingResistance ?? 0);
    const sprung = options.sprungMass === undefined ? undefined : positive("sprungMass", options.sprungMass);
    const steer = options.steering ?? "locked";
    if (steer !== "locked" && steer !== "free" && steer !== "motor") throw new RangeError(`WheelConstraint: options.steering must be "locked", "free" or "motor", got ${String(steer)}`);
    const maxSteer = nonNegative("maxSteerTorque", options.maxSteerTorque ?? Infinity, true);
    if (!(options.anchor instanceof Vector3)) throw new TypeError(`WheelConstraint: options.anchor must be a Vector3, got ${String(options.anchor)}`);
    const spin = options.spinAxis ?? new Vector3(1, 0, 0);
    const up = options.suspensionAxis ?? new Vector3(0, 1, 0);
    const limits: Physics6DoFLimit[] = [
      { axis: LINEAR_X, minLimit: 0, maxLimit: 0 },
      // Stiffness and damping are set from the frequency when the joint is made (they need the chassis's mass).
      { axis: LINEAR_Y, minLimit: -droop, maxLimit: compression },
      { axis: LINEAR_Z, minLimit: 0, maxLimit: 0 },
      ...(steer === "locked" ? [{ axis: ANGULAR_Y, minLimit: 0, maxLimit: 0 }] : []),
      { axis: ANGULAR_Z, minLimit: 0, maxLimit: 0 },
    ];
    super(
      {
        pivotA: options.anchor.clone(),
        pivotB: Vector3.Zero(),
        axisA: spin.clone(),
        perpAxisA: up.clone(),
        axisB: (options.wheelSpinAxis ?? spin).clone(),
        perpAxisB: (options.wheelSuspensionAxis ?? up).clone(),
        collision: false,
      },
      limits,
      scene,
    );
    this.radius = radius;
    this.suspensionFrequency = frequency;
    this.suspensionDampingRatio = zeta;
    this.rollingResistance = rr;
    this._sprungMass = sprung;
    this._steerMode = steer;
    this._maxSteerTorque = maxSteer;
  }

  /**
   * Called by ContinuumPlugin when the engine joint exists (one per addConstraint): the spring from the
   * frequency and the sprung mass, the spring's rest inside rigid stops, the motors and the rolling resistance.
   * @internal
   */
  _onContinuumJoint(world: World, handle: number, chassis: number): void {
    const j = world.joints;
    const m = this._sprungMass ?? world.getMassProperties(chassis).mass / 4;
    const omega = 2 * Math.PI * this.suspensionFrequency;
    j.setAxisSpring(handle, JointAxis.LinearY, m * omega * omega, 2 * this.suspensionDampingRatio * m * omega);
    j.setAxisSpringRest(handle, JointAxis.LinearY, 0);
    j.setAxisMotorType(handle, JointAxis.AngularX, MotorType.Velocity);
    j.setAxisFrictionPerLoad(handle, JointAxis.AngularX, this.rollingResistance * this.radius);
    if (this._steerMode === "motor") {
      j.setAxisMotorType(handle, JointAxis.AngularY, MotorType.Position);
      j.setAxisMotorMaxForce(handle, JointAxis.AngularY, this._maxSteerTorque);
    }
  }

  /**
   * Steering angle target (rad; needs steering "motor"): a rotation about the suspension axis, positive turning
   * the wheel's rolling direction toward the spin axis (with the default axes, a car facing +Z turns toward +X).
   */
  setSteering(angle: number): void {
    if (this._steerMode !== "motor") throw new RangeError(`WheelConstraint.setSteering: the wheel's steering is "${this._steerMode}", not "motor"`);
    this.setAxisMotorTarget(ANGULAR_Y, angle);
  }

  /**
   * Drive: the wheel's spin speed target (rad/s relative to the chassis, positive rolls toward the chassis's +Z
   * with the default axes) and the largest torque (N m) the drive gives to reach it; torque 0 = coasting.
   */
  setDrive(speed: number, maxTorque: number): void {
    this.setAxisMotorType(ANGULAR_X, PhysicsConstraintMotorType.VELOCITY);
    this.setAxisMotorTarget(ANGULAR_X, speed);
    this.setAxisMotorMaxForce(ANGULAR_X, maxTorque);
  }

  /** Drive at a ground speed (m/s) instead: speed / radius rad/s. */
  setDriveSpeed(speed: number, maxTorque: number): void {
    this.setDrive(speed / this.radius, maxTorque);
  }

  /** Brake torque (N m): holds the wheel's spin against the chassis up to this torque; 0 releases it. */
  setBrake(torque: number): void {
    this.setAxisFriction(ANGULAR_X, torque);
  }
}
