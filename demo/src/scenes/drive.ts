/**
 * Drive: a car on a triangle-mesh terrain with a ramp and a row of bumps. Two cars, one selected at a time (the
 * other parks): the 6-DoF car pattern Babylon users copy for Havok (an axle body per wheel on a
 * Physics6DoFConstraint suspension with a steering POSITION motor, the wheel on a second 6-DoF constraint with
 * a VELOCITY drive motor) and a car of four WheelConstraints (suspension, steering, drive, brake and rolling
 * resistance in one constraint per wheel). W/S or the arrows drive and reverse, A/D steer, B brakes; the
 * sliders do the same on screen. A chase camera follows the selected car.
 */
import { Quaternion, Vector3 } from "@babylonjs/core/Maths/math.vector.js";
import { VertexBuffer } from "@babylonjs/core/Buffers/buffer.js";
import { VertexData } from "@babylonjs/core/Meshes/mesh.vertexData.js";
import { CreateBox } from "@babylonjs/core/Meshes/Builders/boxBuilder.js";
import { CreateCylinder } from "@babylonjs/core/Meshes/Builders/cylinderBuilder.js";
import { CreateGround } from "@babylonjs/core/Meshes/Builders/groundBuilder.js";
import type { Mesh } from "@babylonjs/core/Meshes/mesh.js";
import { PhysicsConstraintAxis, PhysicsConstraintMotorType, PhysicsMotionType } from "@babylonjs/core/Physics/v2/IPhysicsEnginePlugin.js";
import { PhysicsBody } from "@babylonjs/core/Physics/v2/physicsBody.js";
import { Physics6DoFConstraint, type PhysicsConstraint } from "@babylonjs/core/Physics/v2/physicsConstraint.js";
import { PhysicsShapeBox, PhysicsShapeCylinder, PhysicsShapeMesh, type PhysicsShape } from "@babylonjs/core/Physics/v2/physicsShape.js";
import { WheelConstraint } from "../../../plugin/wheelConstraint";
import type { Stage } from "../stage";
import { box, colorMaterial, heldKeys, PALETTE } from "./common";
import type { DemoScene, SceneContent } from "./types";

const SIZE = 160;
/** Terrain height (mesh local x, z): gentle swells, flat near the start. */
const terrain = (x: number, z: number) => {
  const d = Math.min(1, Math.max(0, (Math.hypot(x, z + 40) - 18) / 30));
  return d * (1.2 * Math.sin(x * 0.08) * Math.cos(z * 0.07) + 0.6 * Math.sin(z * 0.15 + x * 0.05));
};

const CHASSIS = new Vector3(1.8, 0.5, 4);
const RADIUS = 0.35,
  WIDTH = 0.25;
const WHEELS = [new Vector3(-0.85, -0.35, 1.3), new Vector3(0.85, -0.35, 1.3), new Vector3(-0.85, -0.35, -1.3), new Vector3(0.85, -0.35, -1.3)];
const MAX_STEER = 0.45;
const TOP_SPEED = 22; // m/s
const CAR_MEMBERSHIP = 2,
  GROUND_MEMBERSHIP = 1;

interface Car {
  chassis: PhysicsBody;
  /** Sets throttle (-1..1: reverse..forward), steering (-1..1: left..right) and brake (on/off). */
  drive(throttle: number, steer: number, brake: boolean): void;
  constraints: PhysicsConstraint[];
}

function carShape(shape: PhysicsShape, friction: number): PhysicsShape {
  shape.filterMembershipMask = CAR_MEMBERSHIP;
  shape.filterCollideMask = GROUND_MEMBERSHIP;
  shape.material = { friction, restitution: 0 };
  return shape;
}

function dynamic(stage: Stage, mesh: Mesh, shape: PhysicsShape, mass: number): PhysicsBody {
  const b = new PhysicsBody(mesh, PhysicsMotionType.DYNAMIC, false, stage.scene);
  b.shape = shape;
  b.setMassProperties({ mass });
  stage.addShadows(mesh);
  return b;
}

function chassisAt(stage: Stage, at: Vector3, color: string): PhysicsBody {
  const m = CreateBox("chassis", { width: CHASSIS.x, height: CHASSIS.y, depth: CHASSIS.z }, stage.scene);
  m.position.copyFrom(at);
  m.rotationQuaternion = Quaternion.Identity();
  m.material = colorMaterial(stage.scene, color, 1, 0.4);
  const cabin = CreateBox("cabin", { width: 1.5, height: 0.45, depth: 1.8 }, stage.scene);
  cabin.parent = m;
  cabin.position.set(0, 0.45, -0.3);
  cabin.material = colorMaterial(stage.scene, PALETTE.groundDark, 1, 0.5);
  stage.addShadows(cabin);
  return dynamic(stage, m, carShape(new PhysicsShapeBox(Vector3.Zero(), Quaternion.Identity(), CHASSIS, stage.scene), 0.5), 1200);
}

function wheelAt(stage: Stage, at: Vector3): PhysicsBody {
  const m = CreateCylinder("wheel", { diameter: 2 * RADIUS, height: WIDTH, tessellation: 20 }, stage.scene);
  m.rotation.z = Math.PI / 2;
  m.bakeCurrentTransformIntoVertices();
  m.position.copyFrom(at);
  m.rotationQuaternion = Quaternion.Identity();
  m.material = colorMaterial(stage.scene, "#23262d", 1, 0.2);
  const shape = new PhysicsShapeCylinder(new Vector3(-WIDTH / 2, 0, 0), new Vector3(WIDTH / 2, 0, 0), RADIUS, stage.scene);
  return dynamic(stage, m, carShape(shape, 1.0), 20);
}

/** The 6-DoF pattern of test/plugin/carScene.ts, in metres: axle bodies, two 6-DoF constraints per wheel. */
function sixDofCar(stage: Stage, at: Vector3): Car {
  const chassis = chassisAt(stage, at, PALETTE.orange);
  const { LINEAR_X, LINEAR_Y, LINEAR_Z, ANGULAR_X, ANGULAR_Y, ANGULAR_Z } = PhysicsConstraintAxis;
  const lock = (axis: PhysicsConstraintAxis) => ({ axis, minLimit: 0, maxLimit: 0 });
  const suspensions: Physics6DoFConstraint[] = [];
  const hubs: Physics6DoFConstraint[] = [];
  WHEELS.forEach((local, i) => {
    const front = i < 2;
    const p = at.add(local);
    const am = CreateBox("axle", { size: 0.2 }, stage.scene);
    am.position.copyFrom(p);
    am.rotationQuaternion = Quaternion.Identity();
    const axle = dynamic(stage, am, carShape(new PhysicsShapeBox(Vector3.Zero(), Quaternion.Identity(), new Vector3(0.2, 0.2, 0.2), stage.scene), 0.5), 20);
    const wheel = wheelAt(stage, p);
    // Free travel of +-0.1 m, then a 300 kg-at-2-Hz spring (Havok's meaning of a spring on a LIMITED axis).
    const s = new Physics6DoFConstraint(
      { pivotA: local.clone(), pivotB: Vector3.Zero() },
      [lock(LINEAR_X), { axis: LINEAR_Y, minLimit: -0.1, maxLimit: 0.1, stiffness: 47000, damping: 3800 }, lock(LINEAR_Z), lock(ANGULAR_X), ...(front ? [] : [lock(ANGULAR_Y)]), lock(ANGULAR_Z)],
      stage.scene,
    );
    chassis.addConstraint(axle, s);
    if (front) {
      s.setAxisMotorType(ANGULAR_Y, PhysicsConstraintMotorType.POSITION);
      s.setAxisMotorMaxForce(ANGULAR_Y, 1e6);
    }
    const h = new Physics6DoFConstraint({}, [lock(LINEAR_X), lock(LINEAR_Y), lock(LINEAR_Z), lock(ANGULAR_Y), lock(ANGULAR_Z)], stage.scene);
    axle.addConstraint(wheel, h);
    h.setAxisMotorType(ANGULAR_X, PhysicsConstraintMotorType.VELOCITY);
    suspensions.push(s);
    hubs.push(h);
  });
  return {
    chassis,
    constraints: [...suspensions, ...hubs],
    drive(throttle, steer, brake) {
      // The joint's Y axis is the default perpendicular (0, -1, 0), down: a positive angle turns left.
      for (let i = 0; i < 2; i++) suspensions[i].setAxisMotorTarget(ANGULAR_Y, -steer * MAX_STEER);
      hubs.forEach((h, i) => {
        const driven = i >= 2;
        h.setAxisMotorTarget(ANGULAR_X, brake ? 0 : (throttle * TOP_SPEED) / RADIUS);
        h.setAxisMotorMaxForce(ANGULAR_X, brake ? 1500 : driven && throttle !== 0 ? 600 : 0);
      });
    },
  };
}

/** Four WheelConstraints: suspension, steering, drive, brake and rolling resistance per wheel. */
function wheelJointCar(stage: Stage, at: Vector3): Car {
  const chassis = chassisAt(stage, at, PALETTE.blue);
  const joints = WHEELS.map((local, i) => {
    const wheel = wheelAt(stage, at.add(local));
    const j = new WheelConstraint({ anchor: local.clone(), radius: RADIUS, steering: i < 2 ? "motor" : "locked", rollingResistance: 0.015 }, stage.scene);
    chassis.addConstraint(wheel, j);
    return j;
  });
  return {
    chassis,
    constraints: joints,
    drive(throttle, steer, brake) {
      // WheelConstraint: a positive angle turns toward +X (right) for a car facing +Z.
      for (let i = 0; i < 2; i++) joints[i].setSteering(steer * MAX_STEER);
      joints.forEach((j, i) => {
        j.setBrake(brake ? 1500 : 0);
        j.setDriveSpeed(throttle * TOP_SPEED, !brake && i >= 2 && throttle !== 0 ? 600 : 0);
      });
    },
  };
}

function terrainMesh(stage: Stage): Mesh {
  const g = CreateGround("terrain", { width: SIZE, height: SIZE, subdivisions: 64, updatable: true }, stage.scene);
  const pos = g.getVerticesData(VertexBuffer.PositionKind)!;
  for (let i = 0; i < pos.length; i += 3) pos[i + 1] = terrain(pos[i], pos[i + 2]);
  g.updateVerticesData(VertexBuffer.PositionKind, pos);
  const normals: number[] = [];
  VertexData.ComputeNormals(pos, g.getIndices()!, normals);
  g.updateVerticesData(VertexBuffer.NormalKind, normals);
  g.refreshBoundingInfo();
  g.material = colorMaterial(stage.scene, "#56704f", 1, 0.05);
  g.receiveShadows = true;
  const body = new PhysicsBody(g, PhysicsMotionType.STATIC, false, stage.scene);
  const shape = new PhysicsShapeMesh(g, stage.scene);
  shape.filterMembershipMask = GROUND_MEMBERSHIP;
  shape.material = { friction: 1, restitution: 0 };
  body.shape = shape;
  return g;
}

function build(stage: Stage): SceneContent {
  const { scene, camera } = stage;
  terrainMesh(stage);
  // A ramp and a row of bumps ahead of the start (static boxes; their default filter collides with the cars).
  const tilt = Quaternion.RotationAxis(Vector3.Right(), -0.2);
  // The ramp and its deck lie ahead of the wheel-joint car (x = 4), the bumps ahead of the 6-DoF car (x = -4).
  box(stage, { name: "ramp", size: [6, 0.4, 10], position: [4, 0.6, -5], rotation: tilt, color: "#6d7480", receive: true, cast: true, friction: 1 });
  box(stage, { name: "deck", size: [6, 1.4, 6], position: [4, 0.7, 2.8], color: "#5a6474", receive: true, cast: true, friction: 1 });
  for (let k = 0; k < 6; k++) {
    const diamond = Quaternion.RotationAxis(Vector3.Right(), Math.PI / 4);
    box(stage, { name: `bump-${k}`, size: [6, 0.3, 0.3], position: [-4, 0, -28 + 3 * k], rotation: diamond, color: PALETTE.yellow, receive: true, friction: 1 });
  }
  const rest = RADIUS - WHEELS[0].y + 0.08;
  type CarName = "6-DoF car" | "wheel-joint car";
  const cars = new Map<CarName, Car>([["6-DoF car", sixDofCar(stage, new Vector3(-4, rest, -40))]]);
  // WheelConstraint is Continuum's own joint: on Havok only the 6-DoF car is built (the caption says so).
  stage.physics.continuumOnly("WheelConstraint", () => cars.set("wheel-joint car", wheelJointCar(stage, new Vector3(4, rest, -40))));
  let selected: CarName = cars.has("wheel-joint car") ? "wheel-joint car" : "6-DoF car";
  let throttle = 0,
    steer = 0,
    brake = false;
  let padThrottle = 0,
    padSteer = 0,
    padBrake = "off";

  // B brakes (Space is the page's pause key).
  const keys = heldKeys(scene, ["w", "a", "s", "d", "b", "arrowup", "arrowdown", "arrowleft", "arrowright"]);

  let speed = 0;
  const follow = new Vector3();
  return {
    bodies: [],
    created: 18 + (cars.has("wheel-joint car") ? 5 : 0), // terrain, ramp, deck, 6 bumps; 9 bodies of the 6-DoF car, 5 of the wheel-joint car
    groundTop: 0,
    constraints: [...cars.values()].flatMap((c) => c.constraints),
    controls: [
      { kind: "choice", id: "car", label: "Car", options: [...cars.keys()], value: selected, onChange: (v) => (selected = v as CarName) },
      { kind: "slider", id: "throttle", label: "Throttle", min: -1, max: 1, step: 0.05, value: 0, format: (v) => `${Math.round(v * 100)} %`, onInput: (v) => (padThrottle = v) },
      { kind: "slider", id: "steer", label: "Steer", min: -1, max: 1, step: 0.05, value: 0, format: (v) => `${Math.round(v * MAX_STEER * 57.3)}°`, onInput: (v) => (padSteer = v) },
      { kind: "choice", id: "brake", label: "Brake", options: ["off", "on"], value: "off", onChange: (v) => (padBrake = v) },
    ],
    beforeStep() {
      const up = keys.has("w") || keys.has("arrowup"),
        down = keys.has("s") || keys.has("arrowdown");
      const left = keys.has("a") || keys.has("arrowleft"),
        right = keys.has("d") || keys.has("arrowright");
      const keyThrottle = (up ? 1 : 0) - (down ? 1 : 0);
      const keySteer = (right ? 1 : 0) - (left ? 1 : 0);
      throttle = keyThrottle !== 0 ? keyThrottle : padThrottle;
      // Steering eases toward the key's target (a driver turns the wheel, not a switch).
      const target = keySteer !== 0 ? keySteer : padSteer;
      steer += Math.max(-0.08, Math.min(0.08, target - steer));
      brake = keys.has("b") || padBrake === "on";
      for (const [name, car] of cars) {
        if (name === selected) car.drive(throttle, steer, brake);
        else car.drive(0, 0, true);
      }
    },
    afterStep() {
      speed = cars.get(selected)!.chassis.getLinearVelocity().length();
    },
    frame() {
      // Chase camera: behind the selected car, eased.
      const node = cars.get(selected)!.chassis.transformNode;
      const fwd = Vector3.Forward().applyRotationQuaternion(node.rotationQuaternion!);
      follow.copyFrom(node.position);
      Vector3.LerpToRef(camera.target, follow, 0.15, camera.target);
      const wanted = Math.atan2(-fwd.z, -fwd.x);
      let d = wanted - camera.alpha;
      d = Math.atan2(Math.sin(d), Math.cos(d));
      camera.alpha += 0.05 * d;
    },
    probe: () => ({
      selected,
      speed,
      cars: Object.entries(cars).map(([name, c]) => {
        const n = c.chassis.transformNode;
        return { name, y: n.position.y, up: Vector3.Up().applyRotationQuaternion(n.rotationQuaternion!).y };
      }),
    }),
    status: () => `${selected} · ${(speed * 3.6).toFixed(0)} km/h · W/S or ↑/↓ drive, A/D or ←/→ steer, B brakes`,
  };
}

export const drive: DemoScene = {
  id: "drive",
  title: "Drive",
  caption: "A car on a terrain mesh with a ramp and bumps: the 6-DoF pattern Babylon users copy, or four WheelConstraints.",
  view: { alpha: -Math.PI / 2, beta: 1.2, radius: 14, target: new Vector3(4, 0.5, -40) },
  build,
};
