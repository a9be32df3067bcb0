/**
 * CCD gallery: three lanes fire the same fast projectiles at the same thin walls, one lane per continuous
 * collision mode. Discrete bodies tunnel, Passive ones are caught when a speculative contact sees them
 * coming, Continuous ones are swept and always stop.
 */
import "@babylonjs/core/Meshes/instancedMesh.js"; // mesh.createInstance
import { Vector3 } from "@babylonjs/core/Maths/math.vector.js";
import type { InstancedMesh } from "@babylonjs/core/Meshes/instancedMesh.js";
import { CreateCylinder } from "@babylonjs/core/Meshes/Builders/cylinderBuilder.js";
import { CreateSphere } from "@babylonjs/core/Meshes/Builders/sphereBuilder.js";
import { PhysicsShapeType } from "@babylonjs/core/Physics/v2/IPhysicsEnginePlugin.js";
import { PhysicsAggregate } from "@babylonjs/core/Physics/v2/physicsAggregate.js";
import type { Stage } from "../stage";
import { box, CCD_MODES, ccdValue, colorMaterial, ground, PALETTE, type CcdMode } from "./common";
import type { DemoScene, SceneContent, TrackedBody } from "./types";

const WALL_X = 6;
const WALL_THICKNESS = 0.08;
const MUZZLE_X = -10;
const MUZZLE_Y = 1.6;
const LANE_Z = [-5, 0, 5];
const LANE_COLORS = [PALETTE.red, PALETTE.yellow, PALETTE.accent];
/** Steps between shots. */
const FIRE_EVERY = 30;
/** Projectiles kept per lane; older ones are removed. */
const KEEP = 6;
/** Speculative margin cap of the projectiles (m). */
const MAX_MARGIN = 0.1;

interface Shot {
  mesh: InstancedMesh;
  aggregate: PhysicsAggregate;
  age: number;
  flight: number;
  done: boolean;
}

interface Lane {
  mode: CcdMode;
  shots: Shot[];
  fired: number;
  tunneled: number;
  stopped: number;
}

function build(stage: Stage): SceneContent {
  const { scene, physics } = stage;
  ground(stage, 44, 20, 0, PALETTE.ground, 2, 0);
  let speed = 150;
  const lanes: Lane[] = LANE_Z.map((_, i) => ({ mode: CCD_MODES[i], shots: [], fired: 0, tunneled: 0, stopped: 0 }));

  const sources = LANE_Z.map((z, i) => {
    // The wall, a launcher barrel and a lane stripe.
    box(stage, { name: `wall-${i}`, size: [WALL_THICKNESS, 3.2, 3.4], position: [WALL_X, 1.6, z], color: LANE_COLORS[i], alpha: 0.55, cast: true, friction: 0.4, restitution: 0 });
    const barrel = CreateCylinder(`barrel-${i}`, { diameter: 0.55, height: 1.4, tessellation: 20 }, scene);
    barrel.rotation.z = Math.PI / 2;
    barrel.position.set(MUZZLE_X - 0.9, MUZZLE_Y, z);
    barrel.material = colorMaterial(scene, PALETTE.groundDark, 1, 0.4);
    stage.addShadows(barrel);
    const stripe = CreateCylinder(`stripe-${i}`, { diameter: 0.12, height: WALL_X - MUZZLE_X, tessellation: 6 }, scene);
    stripe.rotation.z = Math.PI / 2;
    stripe.position.set((WALL_X + MUZZLE_X) / 2, 0.01, z);
    stripe.material = colorMaterial(scene, LANE_COLORS[i], 0.5);
    const src = CreateSphere(`projectile-${i}`, { diameter: 0.45, segments: 12 }, scene);
    src.material = colorMaterial(scene, LANE_COLORS[i], 1, 0.5);
    src.setEnabled(false);
    return src;
  });

  const fire = (laneIndex: number) => {
    const lane = lanes[laneIndex];
    const mesh = sources[laneIndex].createInstance(`shot-${laneIndex}-${lane.fired}`);
    stage.addShadows(mesh);
    mesh.position.set(MUZZLE_X, MUZZLE_Y, LANE_Z[laneIndex]);
    const aggregate = new PhysicsAggregate(mesh, PhysicsShapeType.SPHERE, { mass: 0.2, friction: 0.4, restitution: 0 }, scene);
    physics.setContinuousDetection(aggregate.body, ccdValue(lane.mode));
    // The engine's speculative margin is unbounded by default, which already catches most fast bodies in every
    // mode; cap it (as for bodies that must not grow huge contact sets) so the modes differ the textbook way.
    physics.setSpeculativeMargins(aggregate.body, 0, MAX_MARGIN);
    const flight = (WALL_X - MUZZLE_X) / speed;
    // Aim up by half the drop over the flight so every speed hits the wall's middle.
    aggregate.body.setLinearVelocity(new Vector3(speed, (9.81 * flight) / 2, 0));
    lane.shots.push({ mesh, aggregate, age: 0, flight, done: false });
    lane.fired++;
    while (lane.shots.length > KEEP) {
      const old = lane.shots.shift()!;
      old.aggregate.dispose();
      old.mesh.dispose();
    }
  };

  let steps = 0;
  const afterStep = (dt: number) => {
    for (const lane of lanes) {
      for (const s of lane.shots) {
        s.age += dt;
        if (s.done) continue;
        const p = s.mesh.position;
        if (p.x > WALL_X + WALL_THICKNESS / 2 + 0.15) {
          lane.tunneled++;
          s.done = true;
        } else if (s.age > s.flight + 0.35) {
          lane.stopped++;
          s.done = true;
        }
      }
      // Shots that went through fly on: take them out once far away.
      for (let i = lane.shots.length - 1; i >= 0; i--) {
        const s = lane.shots[i];
        if (s.mesh.position.x > 40 || s.mesh.position.y < -20) {
          s.aggregate.dispose();
          s.mesh.dispose();
          lane.shots.splice(i, 1);
        }
      }
    }
    if (steps % FIRE_EVERY === 0) lanes.forEach((_, i) => fire(i));
    steps++;
  };

  const bodies: TrackedBody[] = [];
  return {
    bodies,
    created: 1 + LANE_Z.length,
    groundTop: 0,
    afterStep,
    controls: [
      {
        kind: "slider",
        id: "speed",
        label: "Speed",
        min: 10,
        max: 400,
        step: 10,
        value: speed,
        format: (v) => `${v} m/s`,
        onInput: (v) => (speed = v),
      },
      ...lanes.map((lane, i) => ({
        kind: "choice" as const,
        id: `lane-${i}`,
        label: `Lane ${i + 1}`,
        options: CCD_MODES,
        value: lane.mode,
        onChange: (v: string) => {
          lane.mode = v as CcdMode;
          lane.fired = lane.tunneled = lane.stopped = 0;
          for (const s of lane.shots) {
            physics.setContinuousDetection(s.aggregate.body, ccdValue(lane.mode));
            s.done = true;
          }
        },
      })),
    ],
    through: () => lanes.reduce((n, l) => n + l.tunneled, 0),
    status: () => lanes.map((l, i) => `<span style="color:${LANE_COLORS[i]}">${l.mode}</span> ${l.tunneled}/${l.tunneled + l.stopped} through`).join(" · "),
    probe: () => ({
      speed,
      lanes: lanes.map((l) => ({ mode: l.mode, fired: l.fired, tunneled: l.tunneled, stopped: l.stopped })),
    }),
  };
}

export const ccdGallery: DemoScene = {
  id: "ccd",
  title: "CCD gallery",
  caption:
    "Each lane fires 150 m/s balls (speculative margin capped at 10 cm) at an 8 cm wall. Discrete and Passive bodies step over it; Continuous ones are swept to the time of impact and stop. Try the speed and each lane's mode.",
  view: { alpha: -1.75, beta: 0.82, radius: 30, target: new Vector3(-4.5, 0, 0.5) },
  build,
};
