/**
 * WorldDebugView's record of a time of impact found by the TOI pass (a secondary impact the narrow phase's
 * sweep could not foresee): the engine alone, no Babylon.
 */
import { describe, expect, it } from "vitest";
import { Box, ContinuousDetection, MotionType, Sphere } from "../../src/index";
import { DEBUG_SWEEP_STRIDE, DebugSweep, DebugSweepKind, WorldDebugView } from "../../src/debug";
import { makeWorld, pos } from "./helpers";

describe("WorldDebugView: times of impact from the TOI pass", () => {
  it("a box knocked into a wall 5 cm behind it: start in front, solved end beyond the wall, TOI pose at the wall", () => {
    const world = makeWorld({ maxLinearSpeed: 5000, maxAngularSpeed: 500, sleepingEnabled: false, gravity: { x: 0, y: 0, z: 0 } });
    // A static wall 5 cm thick, x in [-0.025, 0.025].
    world.createBody({ motionType: MotionType.Static, collidable: { shape: new Box(0.025, 5, 5) } });
    // A light Continuous box 5 cm in front of the wall; a heavy 300 m/s sphere knocks it at ~270 m/s into the
    // wall within one step: its speculative margin capped at 1 cm, the narrow phase finds no contact with the
    // wall, so only the TOI pass can catch it (the same setup as test/engine/ccd.test.ts's secondary impact).
    const box = world.createBody({
      position: { x: -0.025 - 0.05 - 0.25, y: 0, z: 0 },
      massProperties: { mass: 1 },
      collidable: { shape: new Box(0.25, 0.25, 0.25), maximumSpeculativeMargin: 0.01, continuity: ContinuousDetection.continuous(1e-3, 1e-3) },
    });
    world.createBody({
      position: { x: -4, y: 0, z: 0 },
      linearVelocity: { x: 300, y: 0, z: 0 },
      massProperties: { mass: 10 },
      collidable: { shape: new Sphere(0.1), continuity: ContinuousDetection.continuous() },
    });
    const view = new WorldDebugView(world);
    view.enabled = true;
    const out = new Float64Array(4 * DEBUG_SWEEP_STRIDE);
    let found = -1;
    let startX = 0;
    for (let s = 0; s < 30 && found < 0; s++) {
      startX = pos(world, box).x;
      world.step(1 / 60);
      const n = view.sweeps(out);
      for (let k = 0; k < n; k++) {
        if (out[k * DEBUG_SWEEP_STRIDE + DebugSweep.handle] === box && out[k * DEBUG_SWEEP_STRIDE + DebugSweep.kind] === DebugSweepKind.Toi) found = k;
      }
    }
    expect(found).toBeGreaterThanOrEqual(0);
    const o = found * DEBUG_SWEEP_STRIDE;
    // Start: where the box began the step.
    expect(out[o + DebugSweep.start]).toBeCloseTo(startX, 9);
    // End: the solved motion the TOI pass swept, beyond the wall (the box's back face past x = 0.025).
    expect(out[o + DebugSweep.end]).toBeGreaterThan(0.025 + 0.25);
    // TOI pose: the box's face at the wall's face (x = -0.025), within the sweep's 1 mm convergence.
    expect(out[o + DebugSweep.toiPose]).toBeLessThanOrEqual(-0.025 - 0.25 + 1e-9);
    expect(out[o + DebugSweep.toiPose]).toBeGreaterThan(-0.025 - 0.25 - 0.01);
    // It is where the world left the box, and the fraction places it on the start-to-end segment.
    expect(out[o + DebugSweep.toiPose]).toBeCloseTo(pos(world, box).x, 9);
    const t = out[o + DebugSweep.toi];
    expect(t).toBeGreaterThan(0);
    expect(t).toBeLessThan(1);
    expect(out[o + DebugSweep.start] + t * (out[o + DebugSweep.end] - out[o + DebugSweep.start])).toBeCloseTo(out[o + DebugSweep.toiPose], 6);
  });
});
