/** How a body moves: static bodies never move, kinematic bodies follow their velocity with infinite mass. */
export const MotionType = { Static: 0, Kinematic: 1, Dynamic: 2 } as const;
/** One of {@link MotionType}'s values. */
export type MotionType = (typeof MotionType)[keyof typeof MotionType];
