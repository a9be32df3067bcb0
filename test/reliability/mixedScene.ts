/**
 * The mixed scene of the determinism tests (replay.test.ts, test/parallel/threads.test.ts): a pile of every convex
 * kind in an n x n x layers grid dropping onto a floor, a jointed chain, a kinematic paddle and Continuous bullets,
 * and (with `trigger`) a static trigger box in the pile. The paddle's input depends on the step index only.
 */
import { AxisMode, Box, Capsule, ContinuousDetection, ConvexHull, Cylinder, JointAxis, MotionType, Sphere, World } from "../../src/index";

export interface MixedScene {
  world: World;
  paddle: number;
  /** The paddle's x at rest: its input at step s is x0 + 2 sin(0.02 s). */
  x0: number;
}

/** Builds the scene in `world`: an `n` x `n` x `layers` pile; the chain and the paddle sit `reach` m either side. */
export function buildMixedScene(world: World, n: number, layers: number, reach: number, trigger = false): MixedScene {
  world.createBody({ motionType: MotionType.Static, position: { x: 0, y: -0.5, z: 0 }, collidable: { shape: new Box(20, 0.5, 20) } });
  const mid = (n - 1) / 2;
  let count = 0;
  for (let i = 0; i < n; i++)
    for (let j = 0; j < n; j++)
      for (let k = 0; k < layers; k++) {
        const kind = count++ % 5;
        const shape =
          kind === 0
            ? new Box(0.3, 0.25, 0.35)
            : kind === 1
              ? new Sphere(0.3)
              : kind === 2
                ? new Capsule(0.2, 0.3)
                : kind === 3
                  ? new Cylinder(0.3, 0.25)
                  : new ConvexHull([0, 0.4, 0, 0.35, -0.2, 0.2, -0.35, -0.2, 0.2, 0, -0.2, -0.4, 0.1, 0.1, 0.1]);
        world.createBody({
          position: { x: (i - mid) * 1.1, y: 0.5 + k * 1.1, z: (j - mid) * 1.1 },
          angularVelocity: { x: 0.3 * i, y: 0.2 * j, z: 0.1 * k },
          collidable: { shape, material: { friction: 0.4 + 0.1 * (count % 3), restitution: 0.1 * (count % 4) } },
        });
      }
  // A chain of 6 links hanging from a static anchor.
  let prev = world.createBody({ motionType: MotionType.Static, position: { x: reach, y: 6, z: 0 }, collidable: { shape: new Sphere(0.1) } });
  for (let l = 0; l < 6; l++) {
    const link = world.createBody({ position: { x: reach + 0.5 * (l + 1), y: 6, z: 0 }, collidable: { shape: new Box(0.2, 0.05, 0.05) } });
    world.createJoint({
      bodyA: prev,
      bodyB: link,
      pivotA: { x: l === 0 ? 0 : 0.25, y: 0, z: 0 },
      pivotB: { x: -0.25, y: 0, z: 0 },
      axes: [
        { axis: JointAxis.LinearX, mode: AxisMode.Locked },
        { axis: JointAxis.LinearY, mode: AxisMode.Locked },
        { axis: JointAxis.LinearZ, mode: AxisMode.Locked },
      ],
    });
    prev = link;
  }
  if (trigger) world.createBody({ motionType: MotionType.Static, position: { x: 0, y: 1, z: 0 }, collidable: { shape: new Box(2, 1, 2), isTrigger: true } });
  const paddle = world.createBody({ motionType: MotionType.Kinematic, position: { x: -reach, y: 0.5, z: 0 }, collidable: { shape: new Box(0.2, 0.5, 2) } });
  for (let b = 0; b < 3; b++) {
    world.createBody({
      position: { x: -reach - 4, y: 1 + b, z: -1 + b },
      linearVelocity: { x: 120, y: 0, z: 0 },
      collidable: { shape: new Sphere(0.05), continuity: ContinuousDetection.continuous() },
    });
  }
  return { world, paddle, x0: -reach };
}

/** Step s of the scene: the paddle moved by its input for s, then one 1/60 s step. */
export function stepMixedScene(scene: MixedScene, s: number): void {
  scene.world.moveKinematic(scene.paddle, { x: scene.x0 + 2 * Math.sin(s * 0.02), y: 0.5, z: 0 }, { x: 0, y: 0, z: 0, w: 1 }, 1 / 60);
  scene.world.step(1 / 60);
}
