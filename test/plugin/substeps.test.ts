import { MeshBuilder, NullEngine, PhysicsAggregate, PhysicsShapeType, Scene, Vector3 } from "@babylonjs/core";
import { describe, expect, it } from "vitest";
import { ContinuumPlugin } from "../../plugin/index";

/** One 1/60 s step of free fall from rest with n substeps of semi-implicit Euler drops g dt^2 (n + 1) / (2 n). */
function drop(n: number): number {
  const dt = 1 / 60;
  return (9.81 * dt * dt * (n + 1)) / (2 * n);
}

describe("ContinuumPlugin substep options", () => {
  it("contactSubsteps reaches the world: a scene without joints steps with it", () => {
    const engine = new NullEngine();
    const scene = new Scene(engine);
    const plugin = new ContinuumPlugin(false, { contactSubsteps: 6 });
    scene.enablePhysics(new Vector3(0, -9.81, 0), plugin);
    expect(plugin.world.contactSubsteps).toBe(6);
    expect(plugin.world.substeps).toBe(8);
    const ball = MeshBuilder.CreateSphere("ball", { diameter: 1 }, scene);
    ball.position.y = 10;
    new PhysicsAggregate(ball, PhysicsShapeType.SPHERE, { mass: 1 }, scene);
    (scene.getPhysicsEngine() as unknown as { _step(dt: number): void })._step(1 / 60);
    // 6 substeps drop 0.5833 g dt^2, 8 drop 0.5625 g dt^2: 3.7 % apart, far above rounding.
    expect(10 - ball.position.y).toBeCloseTo(drop(6), 9);
    scene.dispose();
    engine.dispose();
  });
});
