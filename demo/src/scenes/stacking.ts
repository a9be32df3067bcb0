/** Stacking: a 55-box pyramid and a 14-storey plank tower standing still, then a heavy ball on demand. */
import { Vector3 } from "@babylonjs/core/Maths/math.vector.js";
import { CreateSphere } from "@babylonjs/core/Meshes/Builders/sphereBuilder.js";
import { PhysicsShapeType } from "@babylonjs/core/Physics/v2/IPhysicsEnginePlugin.js";
import { PhysicsAggregate } from "@babylonjs/core/Physics/v2/physicsAggregate.js";
import type { Stage } from "../stage";
import { box, colorMaterial, ground, PALETTE, track } from "./common";
import type { DemoScene, SceneContent, TrackedBody } from "./types";

const PYRAMID_BASE = 10;
const TOWER_FLOORS = 14;

function build(stage: Stage): SceneContent {
  const { scene } = stage;
  ground(stage, 40, 30);
  const bodies: TrackedBody[] = [];

  // Pyramid in the x-y plane at z = -4.
  const colors = [PALETTE.orange, PALETTE.yellow, PALETTE.red];
  for (let row = 0; row < PYRAMID_BASE; row++) {
    const n = PYRAMID_BASE - row;
    for (let i = 0; i < n; i++) {
      const { mesh, aggregate } = box(stage, {
        name: `pyramid-${row}-${i}`,
        size: [1, 1, 1],
        position: [-6 + (i - (n - 1) / 2) * 1.02, 0.5 + row * 1.0, -4],
        color: colors[(row + i) % 3],
        mass: 1,
        friction: 0.7,
      });
      track(bodies, mesh, aggregate, "box", "pyramid");
    }
  }

  // Tower of planks, three per floor, crossing floor to floor.
  for (let f = 0; f < TOWER_FLOORS; f++) {
    const along = f % 2 === 0;
    for (let i = 0; i < 3; i++) {
      const off = (i - 1) * 1.02;
      const { mesh, aggregate } = box(stage, {
        name: `tower-${f}-${i}`,
        size: along ? [3, 0.6, 0.95] : [0.95, 0.6, 3],
        position: [6 + (along ? 0 : off), 0.3 + f * 0.6, 3 + (along ? off : 0)],
        color: f % 2 ? PALETTE.wood : "#c58c45",
        mass: 2,
        friction: 0.6,
      });
      track(bodies, mesh, aggregate, "box", "tower");
    }
  }

  let ball: PhysicsAggregate | undefined;
  const throwBall = () => {
    if (ball) {
      ball.transformNode.dispose();
      ball.dispose();
    }
    const mesh = CreateSphere("ball", { diameter: 1.6, segments: 16 }, scene);
    mesh.material = colorMaterial(scene, PALETTE.steel, 1, 0.6);
    stage.addShadows(mesh);
    mesh.position.set(-4, 3, 18);
    ball = new PhysicsAggregate(mesh, PhysicsShapeType.SPHERE, { mass: 40, friction: 0.4, restitution: 0.1 }, scene);
    ball.body.setLinearVelocity(new Vector3(10, 3, -18));
  };

  return {
    bodies,
    created: 1 + bodies.length,
    groundTop: 0,
    // Under the ground's top by more than the smallest half-size (0.3 m): through the ground.
    through: () => bodies.filter((b) => b.mesh.position.y < -0.3).length,
    controls: [{ kind: "choice", id: "ball", label: "Wrecking ball", options: ["Hold", "Throw"], value: "Hold", onChange: (v) => v === "Throw" && throwBall() }],
    probe: () => {
      const moved = (tag: string) => Math.max(...bodies.filter((b) => b.material === tag).map((b) => b.mesh.position.subtract(b.start).length()));
      return { pyramid: bodies.filter((b) => b.material === "pyramid").length, tower: bodies.filter((b) => b.material === "tower").length, pyramidMaxMove: moved("pyramid"), towerMaxMove: moved("tower"), ball: !!ball };
    },
  };
}

export const stacking: DemoScene = {
  id: "stacking",
  title: "Pyramid and tower",
  caption: "A 55-box pyramid and a 14-floor plank tower settle and fall asleep without creeping. Throw the 40 kg ball to knock them down.",
  view: { alpha: -1.3, beta: 1.2, radius: 34, target: new Vector3(-1, 4, 0) },
  build,
};

