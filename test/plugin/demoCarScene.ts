/**
 * The car of Babylon's public Havok demo ("physics car" playground), built with the program's own parameters and
 * calls (issue 29 item 3), beside ./carScene's tidier car. What the program does, in its order:
 *
 * - `HavokPlugin(false)`, gravity (0, -240, 0), `setTimeStep(1/500)`, `setSubTimeStep(4.5)` (which Babylon's V2
 *   engine stores and never reads): one Babylon frame is one 1/500 s step.
 * - Ground: `CreateGround` 500 x 500 (two triangles) at y = -10 as a STATIC `PhysicsShapeMesh`, friction 300,
 *   restitution 0; four wall boxes (500 x 20 x 1) as mesh shapes, 250 from the centre.
 * - Frame: a box mesh 12 x 1 x 24 at (0, 0.3, 0), a DYNAMIC `PhysicsShapeMesh` of it, mass 1,000 (the body is made
 *   and its mass set before its shape), friction 0.
 * - Axles: box meshes 2.5 x 1 x 1 at (+-5, 0, +-8), parented to the frame (so their local positions are
 *   (+-5, -0.3, +-8)), cylinder shapes from (-0.8, 0, 0) to (0.8, 0, 0) of radius 1.8, mass 100, friction 0.
 * - Wheels: cylinder meshes (height 1.6, diameter 4) turned onto X and baked, at the axle positions, cylinder
 *   shapes from (-0.8, 0, 0) to (0.8, 0, 0) of radius 2, mass 100, friction 50, restitution 0.1; each is then
 *   parented to its axle.
 * - Car parts are filter membership 1 colliding with 2 only: they never collide with each other.
 * - Axle to wheel: a `Physics6DoFConstraint({})` with LINEAR_DISTANCE, ANGULAR_Y and ANGULAR_Z locked (0, 0),
 *   added as `axle.addConstraint(wheel)`; the front ones drive ANGULAR_X with a VELOCITY motor of max force
 *   180,000, target 0.
 * - Axle to frame: `axle.addConstraint(frame)` with pivotA (0, 0, 0), pivotB the axle's local position: LINEAR_X
 *   and LINEAR_Z (0, 0); LINEAR_Y [-0.15, 0.15] stiffness 100,000 damping 5,000; ANGULAR_X [-0.25, 0.25];
 *   ANGULAR_Y (0, 0) at the rear and (null, null) in front with a POSITION motor of max force 3e7, target 0;
 *   ANGULAR_Z [-0.05, 0.05].
 * - Controls, once per frame before the step: steering +0.01 a frame while left is held, up to pi/6 (else x 0.98
 *   when neither is held), split by Ackermann (wheelbase 16, track 11) into the front-left (outer) and
 *   front-right (inner) targets; speed +8 a frame while forward is held, while below 150 (so up to 152), on both
 *   front motors.
 */
import {
  Mesh,
  MeshBuilder,
  Physics6DoFConstraint,
  PhysicsBody,
  PhysicsConstraintAxis,
  PhysicsConstraintMotorType,
  PhysicsMotionType,
  PhysicsShapeCylinder,
  PhysicsShapeMesh,
  PhysicsShapeSphere,
  Vector3,
} from "@babylonjs/core";
import { makeScene, type Kind, type TestScene } from "./helpers";

const FILTERS = { CarParts: 1, Environment: 2 };

export interface DemoCar {
  frame: PhysicsBody;
  /** Front-left, front-right, rear-left, rear-right. */
  axles: PhysicsBody[];
  wheels: PhysicsBody[];
  /** Front-left and front-right axle-to-wheel joints (drive). */
  motors: Physics6DoFConstraint[];
  /** Front-left and front-right axle-to-frame joints (steering). */
  steering: Physics6DoFConstraint[];
}

/** The demo's scene: Havok or Continuum, gravity -240, 1/500 s per frame. */
export async function demoCarScene(kind: Kind): Promise<TestScene> {
  const t = await makeScene(kind, { gravity: new Vector3(0, -240, 0), useDelta: false });
  const pe = t.scene.getPhysicsEngine()!;
  pe.setTimeStep(1 / 500);
  pe.setSubTimeStep(4.5);
  return t;
}

function staticMesh(t: TestScene, mesh: Mesh, friction: number): PhysicsBody {
  const shape = new PhysicsShapeMesh(mesh, t.scene);
  const body = new PhysicsBody(mesh, PhysicsMotionType.STATIC, false, t.scene);
  shape.material = { restitution: 0, friction };
  body.shape = shape;
  return body;
}

/** The demo's ground (two triangles, top at y = -10) and walls. */
export function demoGround(t: TestScene): void {
  const ground = MeshBuilder.CreateGround("Ground", { height: 500, width: 500 }, t.scene);
  ground.position = new Vector3(0, -10, 0);
  staticMesh(t, ground, 300);
  const walls: [number, number, number, number, number][] = [
    [500, 1, 0, 0, 250],
    [500, 1, 0, 0, -250],
    [1, 500, 250, 0, 0],
    [1, 500, -250, 0, 0],
  ];
  for (const [width, depth, x, y, z] of walls) {
    const wall = MeshBuilder.CreateBox("Wall", { height: 20, width, depth }, t.scene);
    wall.position = new Vector3(x, y, z);
    staticMesh(t, wall, 300);
  }
}

function filter(mesh: Mesh): void {
  mesh.physicsBody!.shape!.filterMembershipMask = FILTERS.CarParts;
  mesh.physicsBody!.shape!.filterCollideMask = FILTERS.Environment;
}

function dynamic(t: TestScene, mesh: Mesh, shape: PhysicsShapeCylinder | PhysicsShapeMesh | PhysicsShapeSphere, mass: number, restitution: number, friction: number): PhysicsBody {
  const body = new PhysicsBody(mesh, PhysicsMotionType.DYNAMIC, false, t.scene);
  body.setMassProperties({ mass });
  shape.material = { restitution, friction };
  body.shape = shape;
  return body;
}

function axleMesh(t: TestScene, at: Vector3): Mesh {
  const m = MeshBuilder.CreateBox("Axle", { height: 1, width: 2.5, depth: 1 }, t.scene);
  m.position = at;
  return m;
}

function wheelMesh(t: TestScene, at: Vector3): Mesh {
  const m = MeshBuilder.CreateCylinder("Wheel", { height: 1.6, diameter: 4 }, t.scene);
  m.rotation = new Vector3(0, 0, Math.PI / 2);
  m.bakeCurrentTransformIntoVertices();
  m.position = at;
  return m;
}

function wheelJoint(t: TestScene, axle: Mesh, wheel: Mesh): Physics6DoFConstraint {
  const { LINEAR_DISTANCE, ANGULAR_Y, ANGULAR_Z } = PhysicsConstraintAxis;
  const joint = new Physics6DoFConstraint(
    {},
    [
      { axis: LINEAR_DISTANCE, minLimit: 0, maxLimit: 0 },
      { axis: ANGULAR_Y, minLimit: 0, maxLimit: 0 },
      { axis: ANGULAR_Z, minLimit: 0, maxLimit: 0 },
    ],
    t.scene,
  );
  axle.addChild(wheel);
  axle.physicsBody!.addConstraint(wheel.physicsBody!, joint);
  return joint;
}

function axleJoint(t: TestScene, axle: PhysicsBody, frame: PhysicsBody, steering: boolean): Physics6DoFConstraint {
  const p = axle.transformNode.position;
  const { LINEAR_X, LINEAR_Y, LINEAR_Z, ANGULAR_X, ANGULAR_Y, ANGULAR_Z } = PhysicsConstraintAxis;
  const joint = new Physics6DoFConstraint(
    { pivotA: new Vector3(0, 0, 0), pivotB: new Vector3(p.x, p.y, p.z) },
    [
      { axis: LINEAR_X, minLimit: 0, maxLimit: 0 },
      { axis: LINEAR_Y, minLimit: -0.15, maxLimit: 0.15, stiffness: 100000, damping: 5000 },
      { axis: LINEAR_Z, minLimit: 0, maxLimit: 0 },
      { axis: ANGULAR_X, minLimit: -0.25, maxLimit: 0.25 },
      // The program passes null for the steered axles: Babylon's Havok plugin then leaves the axis FREE.
      { axis: ANGULAR_Y, minLimit: steering ? (null as unknown as number) : 0, maxLimit: steering ? (null as unknown as number) : 0 },
      { axis: ANGULAR_Z, minLimit: -0.05, maxLimit: 0.05 },
    ],
    t.scene,
  );
  axle.addConstraint(frame, joint);
  if (steering) {
    joint.setAxisMotorType(ANGULAR_Y, PhysicsConstraintMotorType.POSITION);
    joint.setAxisMotorMaxForce(ANGULAR_Y, 30000000);
    joint.setAxisMotorTarget(ANGULAR_Y, 0);
  }
  return joint;
}

/**
 * Builds the demo's car (its frame centre at (0, 0.3, 0), facing +Z); the demo's wheels have friction 50.
 * `sphereWheels` gives the wheels sphere shapes of the same radius (round on Havok too, whose cylinders are
 * polygonal prisms: see the left-turn test in ./demoCar.test.ts).
 */
export function buildDemoCar(t: TestScene, wheelFriction = 50, sphereWheels = false): DemoCar {
  const frameMesh = MeshBuilder.CreateBox("Frame", { height: 1, width: 12, depth: 24 }, t.scene);
  frameMesh.position = new Vector3(0, 0.3, 0);
  const frame = dynamic(t, frameMesh, new PhysicsShapeMesh(frameMesh, t.scene), 1000, 0, 0);
  filter(frameMesh);
  const at = [new Vector3(5, 0, 8), new Vector3(-5, 0, 8), new Vector3(5, 0, -8), new Vector3(-5, 0, -8)];
  const wheelMeshes = at.map((p) => wheelMesh(t, p.clone()));
  const axleMeshes = at.map((p) => axleMesh(t, p.clone()));
  for (const m of axleMeshes) {
    frameMesh.addChild(m);
    dynamic(t, m, new PhysicsShapeCylinder(new Vector3(-0.8, 0, 0), new Vector3(0.8, 0, 0), 1.8, t.scene), 100, 0, 0);
    filter(m);
  }
  for (const m of wheelMeshes) {
    const shape = sphereWheels ? new PhysicsShapeSphere(Vector3.Zero(), 2, t.scene) : new PhysicsShapeCylinder(new Vector3(-0.8, 0, 0), new Vector3(0.8, 0, 0), 2, t.scene);
    dynamic(t, m, shape, 100, 0.1, wheelFriction);
    filter(m);
  }
  const motors: Physics6DoFConstraint[] = [];
  for (let i = 0; i < 4; i++) {
    const joint = wheelJoint(t, axleMeshes[i], wheelMeshes[i]);
    if (i < 2) {
      joint.setAxisMotorType(PhysicsConstraintAxis.ANGULAR_X, PhysicsConstraintMotorType.VELOCITY);
      joint.setAxisMotorMaxForce(PhysicsConstraintAxis.ANGULAR_X, 180000);
      joint.setAxisMotorTarget(PhysicsConstraintAxis.ANGULAR_X, 0);
      motors.push(joint);
    }
  }
  const steering: Physics6DoFConstraint[] = [];
  for (let i = 0; i < 4; i++) {
    const joint = axleJoint(t, axleMeshes[i].physicsBody!, frame, i < 2);
    if (i < 2) steering.push(joint);
  }
  return { frame, axles: axleMeshes.map((m) => m.physicsBody!), wheels: wheelMeshes.map((m) => m.physicsBody!), motors, steering };
}

/** Ackermann split of the average steering angle (the demo's CalculateWheelAngles): [inner, outer]. */
function wheelAngles(average: number): [number, number] {
  const wheelbase = 16,
    trackWidth = 11;
  const avgRadius = wheelbase / Math.tan(average);
  return [Math.atan(wheelbase / (avgRadius - trackWidth / 2)), Math.atan(wheelbase / (avgRadius + trackWidth / 2))];
}

/** The demo's keyboard state and its per-frame controller (onBeforeRenderObservable). */
export class DemoControls {
  forward = false;
  left = false;
  right = false;
  speed = 0;
  steer = 0;
  constructor(private readonly car: DemoCar) {}
  /** What the demo does before each frame. */
  frame(): void {
    const maxSteer = Math.PI / 6,
      maxSpeed = 150;
    if (this.left && this.steer < maxSteer) this.steer += 0.01;
    else if (this.right && this.steer > -maxSteer) this.steer -= 0.01;
    else if (!this.left && !this.right) this.steer *= 0.98;
    const [inner, outer] = wheelAngles(this.steer);
    this.car.steering[0].setAxisMotorTarget(PhysicsConstraintAxis.ANGULAR_Y, outer);
    this.car.steering[1].setAxisMotorTarget(PhysicsConstraintAxis.ANGULAR_Y, inner);
    if (this.forward && this.speed < maxSpeed) this.speed += 8;
    else if (!this.forward) this.speed *= 0.99;
    for (const m of this.car.motors) m.setAxisMotorTarget(PhysicsConstraintAxis.ANGULAR_X, this.speed);
  }
}

/** Heading of a body's local +Z in the ground plane (rad, 0 = +Z, positive towards +X). */
export function demoHeading(b: PhysicsBody): number {
  const f = Vector3.Forward().applyRotationQuaternion(b.transformNode.absoluteRotationQuaternion);
  return Math.atan2(f.x, f.z);
}

/** The body's up vector's Y (1 upright, 0 on its side, < 0 upside down). */
export function demoUp(b: PhysicsBody): number {
  return Vector3.Up().applyRotationQuaternion(b.transformNode.absoluteRotationQuaternion).y;
}

export function demoPosition(b: PhysicsBody): Vector3 {
  b.transformNode.computeWorldMatrix(true);
  return b.transformNode.getAbsolutePosition().clone();
}

export interface DemoDrive {
  /** Frames from the first forward frame until the frame centre has moved 140 units in the ground plane. */
  straightFrames: number;
  /** Largest |heading - start heading| over those 140 units (deg). */
  straightDrift: number;
  /** Heading change while left is held for `turnFrames` frames after the straight (deg; positive = left). */
  turn: number;
  /** Smallest frame up.y over the whole run. */
  minUp: number;
  /** Largest |roll| of the frame during the turn (deg, about its forward axis). */
  maxRoll: number;
  /** Largest speed x yaw rate in the turn's first 45 frames, in units of g = 240 (the steady-turn side acceleration). */
  peakG: number;
  nan: boolean;
}

/**
 * One render frame of the demo as `scene.render()` runs it on a display refreshing every `frameMs`: `animate()`
 * first, where Babylon's accumulator runs a physics step per `getSubTimeStep()` ms (4.5) of frame time
 * (joinedPhysicsEngineComponent `_advancePhysicsEngineStep`; 3 or 4 steps of 1/500 s per 60 Hz frame), then
 * `onBeforeRenderObservable`, where the demo's controls run. Returns the steps taken.
 */
export class DemoFrames {
  private acc = 0;
  constructor(
    private readonly t: TestScene,
    private readonly controls: DemoControls,
    private readonly frameMs = 1000 / 60,
  ) {}
  frame(): number {
    const sub = this.t.scene.getPhysicsEngine()!.getSubTimeStep();
    this.acc += this.frameMs;
    let n = 0;
    while (this.acc > sub) {
      this.t.step(1, sub / 1000);
      this.acc -= sub;
      n++;
    }
    this.controls.frame();
    return n;
  }
}

/**
 * The scripted drive at 60 render frames a second (or 1000 / frameMs, the display's frame time: DemoFrames):
 * `settle` frames at rest (the car drops 8 units onto the ground), forward held until the frame has moved 140
 * units, then forward and left held for `turnFrames` frames. `wheelFriction` replaces the demo's 50 on the wheels;
 * `sphereWheels`: see buildDemoCar.
 */
export async function demoDrive(kind: Kind, settle = 60, turnFrames = 60, wheelFriction = 50, frameMs = 1000 / 60, sphereWheels = false): Promise<DemoDrive> {
  const t = await demoCarScene(kind);
  try {
    demoGround(t);
    const car = buildDemoCar(t, wheelFriction, sphereWheels);
    const c = new DemoControls(car);
    const frames = new DemoFrames(t, c, frameMs);
    const f: DemoDrive = { straightFrames: 0, straightDrift: 0, turn: 0, minUp: 1, maxRoll: 0, peakG: 0, nan: false };
    const frame = (): void => {
      frames.frame();
      const p = demoPosition(car.frame);
      if (![p.x, p.y, p.z].every(Number.isFinite)) f.nan = true;
      f.minUp = Math.min(f.minUp, demoUp(car.frame));
    };
    for (let i = 0; i < settle; i++) frame();
    const p0 = demoPosition(car.frame);
    const h0 = demoHeading(car.frame);
    c.forward = true;
    while (f.straightFrames < 2000) {
      frame();
      f.straightFrames++;
      f.straightDrift = Math.max(f.straightDrift, (Math.abs(demoHeading(car.frame) - h0) * 180) / Math.PI);
      const p = demoPosition(car.frame);
      if (Math.hypot(p.x - p0.x, p.z - p0.z) >= 140 || f.nan) break;
    }
    const h1 = demoHeading(car.frame);
    let prev = h1,
      turned = 0;
    c.left = true;
    for (let i = 0; i < turnFrames; i++) {
      frame();
      const h = demoHeading(car.frame);
      let d = h - prev;
      if (d > Math.PI) d -= 2 * Math.PI;
      else if (d < -Math.PI) d += 2 * Math.PI;
      turned += d;
      prev = h;
      const v = car.frame.getLinearVelocity();
      if (i < 45) f.peakG = Math.max(f.peakG, (Math.hypot(v.x, v.z) * Math.abs(car.frame.getAngularVelocity().y)) / 240);
      const right = Vector3.Right().applyRotationQuaternion(car.frame.transformNode.absoluteRotationQuaternion);
      f.maxRoll = Math.max(f.maxRoll, (Math.abs(Math.asin(Math.max(-1, Math.min(1, right.y)))) * 180) / Math.PI);
    }
    f.turn = (turned * 180) / Math.PI;
    return f;
  } finally {
    t.dispose();
  }
}
