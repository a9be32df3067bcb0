import { Box, MotionType, World, type WorldSettings } from "../../src/index";

export const DT = 1 / 60;

/** A static ground box whose top face is at y = 0. */
export function addGround(world: World, friction = 0.5, halfSize = 100): number {
  return world.createBody({
    motionType: MotionType.Static,
    position: { x: 0, y: -0.5, z: 0 },
    collidable: { shape: new Box(halfSize, 0.5, halfSize), material: { friction } },
  });
}

export function makeWorld(settings: WorldSettings = {}): World {
  return new World({ gravity: { x: 0, y: -9.81, z: 0 }, ...settings });
}

export function steps(world: World, n: number, each?: (i: number) => void): void {
  for (let i = 0; i < n; i++) {
    world.step(DT);
    if (each) each(i);
  }
}

export function pos(world: World, h: number): { x: number; y: number; z: number } {
  return world.getPosition(h, { x: 0, y: 0, z: 0 });
}

export function vel(world: World, h: number): { x: number; y: number; z: number } {
  return world.getLinearVelocity(h, { x: 0, y: 0, z: 0 });
}

export function angVel(world: World, h: number): { x: number; y: number; z: number } {
  return world.getAngularVelocity(h, { x: 0, y: 0, z: 0 });
}

/** Quaternion for a rotation of `angle` radians about a unit axis (tests may use trigonometry). */
export function axisAngle(x: number, y: number, z: number, angle: number): { x: number; y: number; z: number; w: number } {
  const s = Math.sin(angle / 2);
  return { x: x * s, y: y * s, z: z * s, w: Math.cos(angle / 2) };
}

/** Seeded PRNG (mulberry32) for reproducible random scenes. */
export function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
