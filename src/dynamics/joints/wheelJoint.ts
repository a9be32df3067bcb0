/**
 * The wheel joint: a configuration of the generic 6-DoF joint (./joint6dof) that joins a wheel to a chassis
 * directly (no axle body), with the parts of Box2D v3's b2WheelJoint and Jolt's WheeledVehicleController:
 *
 * - frame: X = the wheel's spin axis, Y = the suspension axis (up, in the chassis), Z = X x Y (forward when X
 *   points to the chassis's right and Y up); pivot A = the wheel centre at rest in the chassis frame, pivot B =
 *   the wheel body's origin (its centre);
 * - suspension: LINEAR_Y, LIMITED [min, max] as rigid stops, with a spring (stiffness N/m, damping N s/m) toward
 *   0 (`springRest`), so a resting car sags by load / stiffness; LINEAR_X and LINEAR_Z locked;
 * - steering: ANGULAR_Y (the swing about the suspension axis) locked, free (a caster), or a POSITION motor
 *   (target rad, positive turning the rolling direction Z toward the spin axis X, with a maximum torque N m);
 * - camber: ANGULAR_Z locked;
 * - spin: ANGULAR_X (the twist) free, with a VELOCITY motor (drive: target rad/s, positive rolls toward +Z, with a
 *   maximum torque N m), axis friction (the brake: a torque N m that holds the wheel up to its value), and
 *   `frictionPerLoad` = rolling resistance coefficient x radius (m): a torque opposing rolling proportional to
 *   the load the suspension carries.
 *
 * Nothing here runs in the step: the joint solver solves it as any 6-DoF joint (per-axis rows).
 */
import type { Vec3Like } from "../../math/vec3";
import { AxisMode, JointAxis, type JointAxisDescription, type JointDescription, MotorType, checkNonNegative } from "./joint6dof";

/** How a wheel steers: held straight, free about the suspension axis (a caster), or turned by a position motor. */
export const SteeringMode = { Locked: 0, Free: 1, Motor: 2 } as const;
export type SteeringMode = (typeof SteeringMode)[keyof typeof SteeringMode];

/** The 6-DoF axes of a wheel joint. */
export const WheelAxis = {
  /** Travel along the suspension axis (m, positive = the wheel moves up toward the chassis). */
  Suspension: JointAxis.LinearY,
  /** Steering angle about the suspension axis (rad). */
  Steering: JointAxis.AngularY,
  /** Spin about the wheel's axis (rad/s for the drive motor). */
  Spin: JointAxis.AngularX,
} as const;

export interface WheelJointSettings {
  /** Chassis body handle (joint body A). */
  chassis: number;
  /** Wheel body handle (joint body B); its origin is the wheel centre. */
  wheel: number;
  /** Wheel centre at rest, in the chassis's local (origin) frame. */
  anchor: Vec3Like;
  /** Spin axis in the chassis frame. Default (1, 0, 0). */
  spinAxis?: Vec3Like;
  /** Suspension axis (up) in the chassis frame. Default (0, 1, 0). */
  suspensionAxis?: Vec3Like;
  /** Spin axis in the wheel's frame. Default `spinAxis` (a wheel created unrotated relative to the chassis). */
  wheelSpinAxis?: Vec3Like;
  /** Suspension axis in the wheel's frame at rest. Default `suspensionAxis`. */
  wheelSuspensionAxis?: Vec3Like;
  /** Suspension spring stiffness (N/m). */
  suspensionStiffness: number;
  /** Suspension damping (N s/m). */
  suspensionDamping: number;
  /** Lowest travel (m, <= 0: the wheel hangs this far below the anchor). Default -0.2. */
  suspensionMin?: number;
  /** Highest travel (m, >= 0: the wheel rises this far above the anchor). Default 0.2. */
  suspensionMax?: number;
  /** Default SteeringMode.Locked. */
  steering?: SteeringMode;
  /** Largest steering torque (N m) of SteeringMode.Motor. Default Infinity. */
  maxSteerTorque?: number;
  /** Largest drive torque (N m). Default 0 (no drive). */
  maxDriveTorque?: number;
  /** Brake torque (N m). Default 0. */
  brakeTorque?: number;
  /** Rolling resistance coefficient (dimensionless, e.g. 0.015 for a car tyre on asphalt). Default 0. */
  rollingResistance?: number;
  /** Wheel radius (m), for the rolling resistance torque. Required when rollingResistance > 0. */
  radius?: number;
}

/** The 6-DoF description of a wheel joint (World.createJoint takes it). Throws on bad settings, naming them. */
export function wheelJointDescription(s: WheelJointSettings): JointDescription {
  if (typeof s !== "object" || s === null) throw new TypeError(`settings must be a WheelJointSettings object, got ${String(s)}`);
  const k = checkNonNegative("settings.suspensionStiffness", s.suspensionStiffness);
  const c = checkNonNegative("settings.suspensionDamping", s.suspensionDamping);
  const lo = s.suspensionMin ?? -0.2,
    hi = s.suspensionMax ?? 0.2;
  if (!(Number.isFinite(lo) && lo <= 0)) throw new RangeError(`settings.suspensionMin must be a finite number <= 0, got ${String(lo)}`);
  if (!(Number.isFinite(hi) && hi >= 0)) throw new RangeError(`settings.suspensionMax must be a finite number >= 0, got ${String(hi)}`);
  const steering = s.steering ?? SteeringMode.Locked;
  if (steering !== 0 && steering !== 1 && steering !== 2) throw new RangeError(`settings.steering must be a SteeringMode (0..2), got ${String(steering)}`);
  const steerTorque = checkNonNegative("settings.maxSteerTorque", s.maxSteerTorque ?? Infinity, true);
  const drive = checkNonNegative("settings.maxDriveTorque", s.maxDriveTorque ?? 0, true);
  const brake = checkNonNegative("settings.brakeTorque", s.brakeTorque ?? 0, true);
  const rr = checkNonNegative("settings.rollingResistance", s.rollingResistance ?? 0);
  const radius = s.radius ?? 0;
  if (rr > 0 && !(Number.isFinite(radius) && radius > 0)) throw new RangeError(`settings.radius must be a finite number > 0 with rollingResistance, got ${String(s.radius)}`);
  const spin = s.spinAxis ?? { x: 1, y: 0, z: 0 };
  const up = s.suspensionAxis ?? { x: 0, y: 1, z: 0 };
  const lock = (axis: JointAxis): JointAxisDescription => ({ axis, mode: AxisMode.Locked });
  const axes: JointAxisDescription[] = [
    lock(JointAxis.LinearX),
    { axis: JointAxis.LinearY, mode: AxisMode.Limited, min: lo, max: hi, stiffness: k, damping: c, springRest: 0 },
    lock(JointAxis.LinearZ),
    {
      axis: JointAxis.AngularX,
      mode: AxisMode.Free,
      motorType: MotorType.Velocity,
      motorTarget: 0,
      motorMaxForce: drive,
      friction: brake,
      frictionPerLoad: rr * radius,
    },
    steering === SteeringMode.Locked
      ? lock(JointAxis.AngularY)
      : steering === SteeringMode.Free
        ? { axis: JointAxis.AngularY, mode: AxisMode.Free }
        : { axis: JointAxis.AngularY, mode: AxisMode.Free, motorType: MotorType.Position, motorTarget: 0, motorMaxForce: steerTorque },
    lock(JointAxis.AngularZ),
  ];
  return {
    bodyA: s.chassis,
    bodyB: s.wheel,
    pivotA: s.anchor,
    pivotB: { x: 0, y: 0, z: 0 },
    axisA: spin,
    perpAxisA: up,
    axisB: s.wheelSpinAxis ?? spin,
    perpAxisB: s.wheelSuspensionAxis ?? up,
    axes,
  };
}
