/**
 * The engine's vehicle entry (the engine half of `continuum-physics/vehicle`): the wheel joint, a 6-DoF joint
 * description with a suspension, steering and a drive motor. Kept out of src/index.ts so that a plain plugin
 * does not carry it. Never imports Babylon.
 */
export { SteeringMode, WheelAxis, wheelJointDescription, type WheelJointSettings } from "./dynamics/joints/wheelJoint";
