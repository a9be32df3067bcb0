/**
 * Bad input, table-driven: every bad input named in issue 10 (NaN, +-Infinity, negative or zero sizes, empty and
 * degenerate meshes, out-of-range instance indices, disposed bodies / shapes / constraints, wrong enum values)
 * for the plugin's public methods and the engine's. Each row asserts the error type (TypeError / RangeError),
 * that the message names the argument and the value, and that nothing already in the world changed (state hash,
 * body and joint counts).
 *
 * Rows marked `engineGap` are engine bugs reported to the lead (src/world/world.ts, src/queries, ...): they run
 * as `it.fails`, so they start failing (and the mark should go) once the engine is fixed.
 */
import { describe, expect, it } from "vitest";
import {
  Logger,
  Matrix,
  Mesh,
  MeshBuilder,
  NullEngine,
  Physics6DoFConstraint,
  PhysicsBody,
  PhysicsConstraint,
  PhysicsRaycastResult,
  PhysicsShape,
  ProximityCastResult,
  Quaternion,
  Scene,
  ShapeCastResult,
  TransformNode,
  Vector3,
  VertexData,
} from "@babylonjs/core";
import { ContinuumPlugin } from "../../plugin/index";
import {
  AxisMode,
  Box,
  Capsule,
  Compound,
  ConvexHull,
  Cylinder,
  Heightfield,
  JointAxis,
  MotionType,
  PointProximityResult,
  Sphere,
  TriangleMesh,
  World,
  RayResult,
} from "../../src/index";

type ErrType = typeof TypeError | typeof RangeError;
interface Case {
  name: string;
  call: () => unknown;
  type: ErrType;
  /** The argument name the message must contain. */
  arg: string;
  /** Text of the value the message must contain (omitted for "is disposed"-style errors, which name the state). */
  value?: string;
  /** A known engine gap (reported): expected to fail until the engine is fixed. */
  engineGap?: string;
}

function escape(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/** Runs one row: the right error, a message naming argument and value, and an unchanged world. */
function check(c: Case, world: () => World): void {
  const w0 = world();
  const before = `${w0.stateHash()}/${w0.bodyCount}/${w0.joints.count}`;
  let err: unknown = undefined;
  try {
    c.call();
  } catch (e) {
    err = e;
  }
  expect(err, `${c.name}: expected a ${c.type.name}`).toBeInstanceOf(c.type);
  const msg = (err as Error).message;
  expect(msg, `${c.name}: the message names the argument`).toMatch(new RegExp(`(^|[^A-Za-z])${escape(c.arg)}([^A-Za-z]|$)`));
  if (c.value !== undefined) expect(msg, `${c.name}: the message shows the value`).toContain(c.value);
  const w1 = world();
  expect(`${w1.stateHash()}/${w1.bodyCount}/${w1.joints.count}`, `${c.name}: the world is unchanged`).toBe(before);
}

function table(cases: Case[], world: () => World): void {
  for (const c of cases) {
    if (c.engineGap) it.fails(`${c.name} [engine gap: ${c.engineGap}]`, () => check(c, world));
    else it(c.name, () => check(c, world));
  }
}

const v = (x: number, y: number, z: number) => new Vector3(x, y, z);
const BAD = [NaN, Infinity, -Infinity];

// =================================================================== the plugin

describe("plugin: bad input", () => {
  Logger.LogLevels = Logger.NoneLogLevel;
  const engine = new NullEngine();
  engine.getCaps().instancedArrays = true;
  const scene = new Scene(engine);
  const plugin = new ContinuumPlugin(true);
  scene.enablePhysics(v(0, -9.81, 0), plugin);
  const step = () => (scene as unknown as { _advancePhysicsEngineStep(ms: number): void })._advancePhysicsEngineStep(1000 / 60);

  const node = (name: string, y: number) => {
    const n = new TransformNode(name, scene);
    n.position.set(0, y, 0);
    return n;
  };
  const boxShape = new PhysicsShape({ type: 3, parameters: { extents: v(1, 1, 1) } }, scene);
  const ground = new PhysicsBody(node("ground", -0.5), 0, false, scene);
  ground.shape = new PhysicsShape({ type: 3, parameters: { extents: v(20, 1, 20) } }, scene);
  const body = new PhysicsBody(node("body", 1), 2, false, scene);
  body.shape = boxShape;
  const body2 = new PhysicsBody(node("body2", 3), 2, false, scene);
  body2.shape = boxShape;
  const instMesh = MeshBuilder.CreateBox("inst", { size: 0.5 }, scene);
  instMesh.thinInstanceAdd([Matrix.Translation(3, 1, 0), Matrix.Translation(5, 1, 0)]);
  const inst = new PhysicsBody(instMesh, 2, false, scene);
  inst.shape = boxShape;
  const container = new PhysicsShape({ type: 5, parameters: {} }, scene);
  container.addChild(boxShape, v(0, 0, 0));
  const constraint = new PhysicsConstraint(1 as never, { pivotA: v(0, 1, 0), pivotB: v(0, -1, 0) }, scene);
  body.addConstraint(body2, constraint);

  const deadBody = new PhysicsBody(node("dead", 5), 2, false, scene);
  deadBody.shape = boxShape;
  deadBody.dispose();
  const deadShape = new PhysicsShape({ type: 0, parameters: { radius: 0.5 } }, scene);
  deadShape.dispose();
  const deadConstraint = new PhysicsConstraint(5 as never, {}, scene);
  body.addConstraint(ground, deadConstraint);
  deadConstraint.dispose();
  const meshShape = new PhysicsShape({ type: 6, parameters: { mesh: MeshBuilder.CreateBox("m", { size: 1 }, scene) } }, scene);

  function custom(name: string, positions: number[], indices: number[] | null): Mesh {
    const m = new Mesh(name, scene);
    if (positions.length) {
      const vd = new VertexData();
      vd.positions = positions;
      if (indices) vd.indices = indices;
      vd.applyToMesh(m);
    }
    return m;
  }
  const collinear = custom("collinear", [0, 0, 0, 1, 1, 1, 2, 2, 2, 3, 3, 3], [0, 1, 2, 1, 2, 3]);
  const zeroArea = custom("zeroArea", [0, 0, 0, 1, 0, 0, 2, 0, 0, 0, 1, 0], [0, 1, 2, 3, 3, 3]);
  const empty = custom("empty", [], null);
  for (let i = 0; i < 5; i++) step();

  const world = () => plugin.world;
  /** A body object not yet initialized (initBody must throw before touching it). */
  const fresh = () => new PhysicsBody(node("fresh", 0), 2, false, undefined as never);
  const shape = (type: number, parameters: object) => () => new PhysicsShape({ type: type as never, parameters: parameters as never }, scene);
  const hf = (o: object) =>
    shape(7, { heightFieldSizeX: 4, heightFieldSizeZ: 4, numHeightFieldSamplesX: 2, numHeightFieldSamplesZ: 2, heightFieldData: new Float32Array(4), ...o });
  const c6 = (limits: object[]) => () => body.addConstraint(body2, new Physics6DoFConstraint({}, limits as never, scene));
  const cOpt = (type: number, opts: object) => () => body.addConstraint(body2, new PhysicsConstraint(type as never, opts as never, scene));

  const cases: Case[] = [
    // ---- world settings
    ...BAD.map((x) => ({ name: `setGravity(${x})`, call: () => plugin.setGravity(v(0, x, 0)), type: RangeError, arg: "gravity", value: String(x) })),
    ...[0, -1, NaN, Infinity].map((x) => ({ name: `setTimeStep(${x})`, call: () => plugin.setTimeStep(x), type: RangeError, arg: "timeStep", value: String(x) })),
    ...[0, -1, NaN].map((x) => ({ name: `setVelocityLimits(${x}, 1)`, call: () => plugin.setVelocityLimits(x, 1), type: RangeError, arg: "maxLinearVelocity", value: String(x) })),
    { name: "setVelocityLimits(1, Infinity)", call: () => plugin.setVelocityLimits(1, Infinity), type: RangeError, arg: "maxAngularVelocity", value: "Infinity" },
    { name: "setMaxQueryCollectorHits(0)", call: () => plugin.setMaxQueryCollectorHits(0), type: RangeError, arg: "maxQueryCollectorHits", value: "0" },
    ...[NaN, -1, Infinity].map((x) => ({ name: `executeStep(${x})`, call: () => plugin.executeStep(x, []), type: RangeError, arg: "delta", value: String(x) })),

    // ---- bodies
    ...BAD.map((x) => ({ name: `initBody position ${x}`, call: () => plugin.initBody(fresh(), 2, v(x, 0, 0), Quaternion.Identity()), type: RangeError, arg: "position", value: String(x) })),
    { name: "initBody orientation (0,0,0,0)", call: () => plugin.initBody(fresh(), 2, v(0, 0, 0), new Quaternion(0, 0, 0, 0)), type: RangeError, arg: "orientation", value: "(0, 0, 0, 0)" },
    { name: "initBody orientation NaN", call: () => plugin.initBody(fresh(), 2, v(0, 0, 0), new Quaternion(NaN, 0, 0, 1)), type: RangeError, arg: "orientation", value: "NaN" },
    ...[3, -1, 1.5, NaN].map((x) => ({ name: `initBody motionType ${x}`, call: () => plugin.initBody(fresh(), x as never, v(0, 0, 0), Quaternion.Identity()), type: RangeError, arg: "motionType", value: String(x) })),
    { name: "PhysicsBody on a node at NaN", call: () => { const n = node("nan", 0); n.position.x = NaN; return new PhysicsBody(n, 2, false, scene); }, type: RangeError, arg: "position", value: "NaN" },
    {
      name: "thin instance with a NaN matrix",
      call: () => {
        const m = MeshBuilder.CreateBox("bad", { size: 1 }, scene);
        m.thinInstanceAdd(Matrix.Translation(0, 1, 0));
        m._thinInstanceDataStorage.matrixData![13] = NaN;
        return new PhysicsBody(m, 2, false, scene);
      },
      type: RangeError,
      arg: "mesh",
      value: "NaN",
    },
    ...[3, -1].map((x) => ({ name: `setMotionType(${x})`, call: () => plugin.setMotionType(body, x as never), type: RangeError, arg: "motionType", value: String(x) })),
    ...BAD.map((x) => ({ name: `setLinearVelocity(${x})`, call: () => plugin.setLinearVelocity(body, v(0, x, 0)), type: RangeError, arg: "linVel", value: String(x) })),
    ...BAD.map((x) => ({ name: `setAngularVelocity(${x})`, call: () => plugin.setAngularVelocity(body, v(x, 0, 0)), type: RangeError, arg: "angVel", value: String(x) })),
    ...BAD.map((x) => ({ name: `applyImpulse(${x})`, call: () => plugin.applyImpulse(body, v(x, 0, 0), v(0, 0, 0)), type: RangeError, arg: "impulse", value: String(x) })),
    { name: "applyImpulse location NaN", call: () => plugin.applyImpulse(body, v(1, 0, 0), v(NaN, 0, 0)), type: RangeError, arg: "location", value: "NaN" },
    ...BAD.map((x) => ({ name: `applyAngularImpulse(${x})`, call: () => plugin.applyAngularImpulse(body, v(0, 0, x)), type: RangeError, arg: "angularImpulse", value: String(x) })),
    ...BAD.map((x) => ({ name: `applyForce(${x})`, call: () => plugin.applyForce(body, v(x, 0, 0), v(0, 0, 0)), type: RangeError, arg: "force", value: String(x) })),
    { name: "applyForce location Infinity", call: () => plugin.applyForce(body, v(1, 0, 0), v(0, Infinity, 0)), type: RangeError, arg: "location", value: "Infinity" },
    ...BAD.map((x) => ({ name: `applyTorque(${x})`, call: () => plugin.applyTorque(body, v(x, 0, 0)), type: RangeError, arg: "torque", value: String(x) })),
    ...BAD.map((x) => ({ name: `setTargetTransform position ${x}`, call: () => plugin.setTargetTransform(body, v(x, 0, 0), Quaternion.Identity()), type: RangeError, arg: "position", value: String(x) })),
    { name: "setTargetTransform rotation zero", call: () => plugin.setTargetTransform(body, v(0, 0, 0), new Quaternion(0, 0, 0, 0)), type: RangeError, arg: "rotation", value: "(0, 0, 0, 0)" },
    ...[-1, NaN, Infinity].map((x) => ({ name: `setLinearDamping(${x})`, call: () => plugin.setLinearDamping(body, x), type: RangeError, arg: "damping", value: String(x) })),
    ...[-1, NaN, Infinity].map((x) => ({ name: `setAngularDamping(${x})`, call: () => plugin.setAngularDamping(body, x), type: RangeError, arg: "damping", value: String(x) })),
    ...BAD.map((x) => ({ name: `setGravityFactor(${x})`, call: () => plugin.setGravityFactor(body, x), type: RangeError, arg: "factor", value: String(x) })),
    ...[-1, NaN, Infinity].map((x) => ({ name: `setMassProperties mass ${x}`, call: () => plugin.setMassProperties(body, { mass: x }), type: RangeError, arg: "massProps.mass", value: String(x) })),
    { name: "setMassProperties inertia negative", call: () => plugin.setMassProperties(body, { inertia: v(-1, 1, 1) }), type: RangeError, arg: "massProps.inertia", value: "-1" },
    { name: "setMassProperties centerOfMass NaN", call: () => plugin.setMassProperties(body, { centerOfMass: v(NaN, 0, 0) }), type: RangeError, arg: "massProps.centerOfMass", value: "NaN" },
    { name: "setMassProperties inertiaOrientation zero", call: () => plugin.setMassProperties(body, { inertiaOrientation: new Quaternion(0, 0, 0, 0) }), type: RangeError, arg: "massProps.inertiaOrientation", value: "(0, 0, 0, 0)" },
    ...[3, -1, NaN].map((x) => ({ name: `setActivationControl(${x})`, call: () => plugin.setActivationControl(body, x), type: RangeError, arg: "controlMode", value: String(x) })),
    { name: "setEventMask(NaN)", call: () => plugin.setEventMask(body, NaN), type: TypeError, arg: "eventMask", value: "NaN" },
    { name: "setCollisionCallbackEnabled('yes')", call: () => plugin.setCollisionCallbackEnabled(body, "yes" as never), type: TypeError, arg: "enabled", value: "yes" },
    { name: "setContinuousDetection mode 7", call: () => plugin.setContinuousDetection(body, { mode: 7 } as never), type: RangeError, arg: "detection.mode", value: "7" },
    { name: "setContinuousDetection null", call: () => plugin.setContinuousDetection(body, null as never), type: TypeError, arg: "detection", value: "null" },
    // out-of-range instance indices
    ...[-1, 2, 99, 0.5, NaN].map((i) => ({ name: `setLinearVelocity instanceIndex ${i}`, call: () => plugin.setLinearVelocity(inst, v(1, 0, 0), i), type: RangeError, arg: "instanceIndex", value: String(i) })),
    ...[-1, 2].map((i) => ({ name: `getMotionType instanceIndex ${i}`, call: () => plugin.getMotionType(inst, i), type: RangeError, arg: "instanceIndex", value: String(i) })),
    { name: "setMassProperties instanceIndex 5", call: () => plugin.setMassProperties(inst, { mass: 2 }, 5), type: RangeError, arg: "instanceIndex", value: "5" },
    { name: "applyImpulse instanceIndex 2", call: () => plugin.applyImpulse(inst, v(1, 0, 0), v(0, 0, 0), 2), type: RangeError, arg: "instanceIndex", value: "2" },
    { name: "addConstraint instanceIndex 7", call: () => inst.addConstraint(body, new PhysicsConstraint(1 as never, {}, scene), 7, undefined), type: RangeError, arg: "instanceIndex", value: "7" },
    // disposed bodies
    ...(
      [
        ["setLinearVelocity", () => plugin.setLinearVelocity(deadBody, v(1, 0, 0))],
        ["applyImpulse", () => plugin.applyImpulse(deadBody, v(1, 0, 0), v(0, 0, 0))],
        ["setMotionType", () => plugin.setMotionType(deadBody, 1 as never)],
        ["setMassProperties", () => plugin.setMassProperties(deadBody, { mass: 1 })],
        ["setShape", () => plugin.setShape(deadBody, boxShape)],
        ["getMotionType", () => plugin.getMotionType(deadBody)],
        ["getLinearVelocityToRef", () => plugin.getLinearVelocityToRef(deadBody, v(0, 0, 0))],
        ["getBodyBoundingBox", () => plugin.getBodyBoundingBox(deadBody)],
        ["setTargetTransform", () => plugin.setTargetTransform(deadBody, v(0, 0, 0), Quaternion.Identity())],
        ["addConstraint", () => body.addConstraint(deadBody, new PhysicsConstraint(1 as never, {}, scene))],
      ] as [string, () => unknown][]
    ).map(([n, call]) => ({ name: `${n} on a disposed body`, call, type: TypeError, arg: n === "addConstraint" ? "childBody" : "body", value: "disposed" })),

    // ---- shapes
    ...[-1, NaN, Infinity].map((x) => ({ name: `SPHERE radius ${x}`, call: shape(0, { radius: x }), type: RangeError, arg: "options.radius", value: String(x) })),
    { name: "SPHERE center NaN", call: shape(0, { radius: 1, center: v(NaN, 0, 0) }), type: RangeError, arg: "options.center", value: "NaN" },
    // One zero extent is a flat box (a BOX aggregate of CreateGround, as Havok accepts); two are not a box.
    ...[-1, NaN, Infinity].map((x) => ({ name: `BOX extents y ${x}`, call: shape(3, { extents: v(1, x, 1) }), type: RangeError, arg: "options.extents", value: String(x) })),
    { name: "BOX extents two zeros", call: shape(3, { extents: v(0, 0, 1) }), type: RangeError, arg: "options.extents", value: "(0, 0, 1)" },
    { name: "BOX rotation zero", call: shape(3, { extents: v(1, 1, 1), rotation: new Quaternion(0, 0, 0, 0) }), type: RangeError, arg: "options.rotation", value: "(0, 0, 0, 0)" },
    ...[0, -1, NaN].map((x) => ({ name: `CAPSULE radius ${x}`, call: shape(1, { radius: x, pointA: v(0, 0, 0), pointB: v(0, 1, 0) }), type: RangeError, arg: "options.radius", value: String(x) })),
    { name: "CAPSULE pointA Infinity", call: shape(1, { radius: 1, pointA: v(Infinity, 0, 0), pointB: v(0, 1, 0) }), type: RangeError, arg: "options.pointA", value: "Infinity" },
    ...[0, -2, NaN].map((x) => ({ name: `CYLINDER radius ${x}`, call: shape(2, { radius: x, pointA: v(0, 0, 0), pointB: v(0, 1, 0) }), type: RangeError, arg: "options.radius", value: String(x) })),
    { name: "CYLINDER of zero height", call: shape(2, { radius: 1, pointA: v(1, 2, 3), pointB: v(1, 2, 3) }), type: RangeError, arg: "options.pointA", value: "(1, 2, 3)" },
    { name: "CONVEX_HULL of an empty mesh", call: shape(4, { mesh: empty }), type: RangeError, arg: "options.mesh", value: "no vertices" },
    { name: "CONVEX_HULL without mesh", call: shape(4, {}), type: TypeError, arg: "options.mesh", value: "required" },
    { name: "CONVEX_HULL mesh 42", call: shape(4, { mesh: 42 }), type: TypeError, arg: "options.mesh", value: "42" },
    { name: "MESH of zero-area triangles", call: shape(6, { mesh: zeroArea }), type: RangeError, arg: "options.mesh", value: "zero area" },
    { name: "MESH of collinear points", call: shape(6, { mesh: collinear }), type: RangeError, arg: "options.mesh", value: "zero area" },
    { name: "MESH of an empty mesh", call: shape(6, { mesh: empty }), type: RangeError, arg: "options.mesh", value: "no vertices" },
    ...[0, -4, NaN, Infinity].map((x) => ({ name: `HEIGHTFIELD sizeX ${x}`, call: hf({ heightFieldSizeX: x }), type: RangeError, arg: "options.heightFieldSizeX", value: String(x) })),
    ...[1, 0, 2.5].map((x) => ({ name: `HEIGHTFIELD samplesZ ${x}`, call: hf({ numHeightFieldSamplesZ: x }), type: RangeError, arg: "options.numHeightFieldSamplesZ", value: String(x) })),
    { name: "HEIGHTFIELD data too short", call: hf({ heightFieldData: new Float32Array(3) }), type: RangeError, arg: "options.heightFieldData", value: "3" },
    { name: "HEIGHTFIELD height Infinity", call: hf({ heightFieldData: new Float32Array([0, Infinity, 0, 0]) }), type: RangeError, arg: "options.heightFieldData[1]", value: "Infinity" },
    { name: "HEIGHTFIELD all holes", call: hf({ heightFieldData: new Float32Array([NaN, NaN, NaN, NaN]) }), type: RangeError, arg: "options.heightFieldData", value: "NaN" },
    { name: "HEIGHTFIELD groundMesh empty", call: shape(7, { groundMesh: empty }), type: RangeError, arg: "options.groundMesh", value: "no vertices" },
    ...[-1, 8, 2.5, NaN].map((x) => ({ name: `initShape type ${x}`, call: () => plugin.initShape(new PhysicsShape({} as never, scene), x as never, {}), type: RangeError, arg: "type", value: String(x) })),
    ...[-1, NaN, Infinity].map((x) => ({ name: `setDensity(${x})`, call: () => plugin.setDensity(boxShape, x), type: RangeError, arg: "density", value: String(x) })),
    ...[-1, NaN, Infinity].map((x) => ({ name: `setMaterial friction ${x}`, call: () => plugin.setMaterial(boxShape, { friction: x }), type: RangeError, arg: "material.friction", value: String(x) })),
    { name: "setMaterial restitution -1", call: () => plugin.setMaterial(boxShape, { restitution: -1 }), type: RangeError, arg: "material.restitution", value: "-1" },
    { name: "setMaterial frictionCombine 9", call: () => plugin.setMaterial(boxShape, { frictionCombine: 9 as never }), type: RangeError, arg: "material.frictionCombine", value: "9" },
    { name: "setShapeFilterMembershipMask(NaN)", call: () => plugin.setShapeFilterMembershipMask(boxShape, NaN), type: TypeError, arg: "membershipMask", value: "NaN" },
    { name: "setShapeFilterCollideMask(Infinity)", call: () => plugin.setShapeFilterCollideMask(boxShape, Infinity), type: TypeError, arg: "collideMask", value: "Infinity" },
    { name: "setTrigger(1)", call: () => plugin.setTrigger(boxShape, 1 as never), type: TypeError, arg: "isTrigger", value: "1" },
    { name: "addChild translation NaN", call: () => plugin.addChild(container, boxShape, v(NaN, 0, 0)), type: RangeError, arg: "translation", value: "NaN" },
    { name: "addChild scale 0", call: () => plugin.addChild(container, boxShape, v(0, 0, 0), Quaternion.Identity(), v(1, 0, 1)), type: RangeError, arg: "scale", value: "(1, 0, 1)" },
    { name: "addChild rotation zero", call: () => plugin.addChild(container, boxShape, v(0, 0, 0), new Quaternion(0, 0, 0, 0)), type: RangeError, arg: "rotation", value: "(0, 0, 0, 0)" },
    { name: "addChild to a non-container", call: () => plugin.addChild(boxShape, container), type: TypeError, arg: "shape", value: "3" },
    { name: "addChild of itself", call: () => plugin.addChild(container, container), type: RangeError, arg: "newChild" },
    { name: "addChild MESH into a convex container", call: () => plugin.addChild(container, meshShape), type: TypeError, arg: "newChild" },
    ...[-1, 1, 0.5, NaN].map((i) => ({ name: `removeChild(${i})`, call: () => plugin.removeChild(container, i), type: RangeError, arg: "childIndex", value: String(i) })),
    // disposed shapes
    ...(
      [
        ["setShape", "shape", () => plugin.setShape(body, deadShape)],
        ["setMaterial", "shape", () => plugin.setMaterial(deadShape, {})],
        ["setDensity", "shape", () => plugin.setDensity(deadShape, 1)],
        ["setTrigger", "shape", () => plugin.setTrigger(deadShape, true)],
        ["getBoundingBox", "shape", () => plugin.getBoundingBox(deadShape)],
        ["addChild", "newChild", () => plugin.addChild(container, deadShape)],
        ["shapeCast", "query.shape", () => plugin.shapeCast({ shape: deadShape, startPosition: v(0, 5, 0), endPosition: v(0, -5, 0), rotation: Quaternion.Identity(), shouldHitTriggers: false } as never, new ShapeCastResult(), new ShapeCastResult())],
      ] as [string, string, () => unknown][]
    ).map(([n, arg, call]) => ({ name: `${n} with a disposed shape`, call, type: TypeError, arg, value: "disposed" })),

    // ---- constraints
    { name: "constraint of one body twice", call: () => body.addConstraint(body, new PhysicsConstraint(1 as never, {}, scene)), type: RangeError, arg: "childBody" },
    ...[0, 8, 99].map((x) => ({ name: `constraint type ${x}`, call: cOpt(x, {}), type: RangeError, arg: "constraint.type", value: String(x) })),
    { name: "constraint pivotA NaN", call: cOpt(1, { pivotA: v(NaN, 0, 0) }), type: RangeError, arg: "options.pivotA", value: "NaN" },
    { name: "constraint axisA zero", call: cOpt(3, { axisA: v(0, 0, 0) }), type: RangeError, arg: "options.axisA", value: "0" },
    // A perpAxis parallel to its axis is accepted (it takes the perpendicular an omitted one gets, as Havok does); a zero one is refused.
    { name: "constraint perpAxisA zero", call: cOpt(3, { axisA: v(1, 0, 0), perpAxisA: v(0, 0, 0) }), type: RangeError, arg: "options.perpAxisA", value: "0" },
    ...[NaN, -1, Infinity].map((x) => ({ name: `DISTANCE maxDistance ${x}`, call: cOpt(2, { maxDistance: x }), type: RangeError, arg: "options.maxDistance", value: String(x) })),
    { name: "6DoF limit axis 7", call: c6([{ axis: 7, minLimit: 0, maxLimit: 1 }]), type: RangeError, arg: "limits[0].axis", value: "7" },
    { name: "6DoF minLimit NaN", call: c6([{ axis: 0, minLimit: NaN, maxLimit: 1 }]), type: RangeError, arg: "limits[0].minLimit", value: "NaN" },
    { name: "6DoF stiffness -1", call: c6([{ axis: 0, minLimit: 0, maxLimit: 1, stiffness: -1 }]), type: RangeError, arg: "limits[0].stiffness", value: "-1" },
    { name: "6DoF damping NaN", call: c6([{ axis: 0, minLimit: 0, maxLimit: 1, damping: NaN }]), type: RangeError, arg: "limits[0].damping", value: "NaN" },
    ...[7, -1, 0.5, NaN].map((x) => ({ name: `setAxisMode axis ${x}`, call: () => plugin.setAxisMode(constraint, x as never, 1 as never), type: RangeError, arg: "axis", value: String(x) })),
    ...[3, -1].map((x) => ({ name: `setAxisMode limitMode ${x}`, call: () => plugin.setAxisMode(constraint, 0 as never, x as never), type: RangeError, arg: "limitMode", value: String(x) })),
    ...[3, -1].map((x) => ({ name: `setAxisMotorType ${x}`, call: () => plugin.setAxisMotorType(constraint, 0 as never, x as never), type: RangeError, arg: "motorType", value: String(x) })),
    { name: "setAxisMinLimit(NaN)", call: () => plugin.setAxisMinLimit(constraint, 0 as never, NaN), type: RangeError, arg: "minLimit", value: "NaN" },
    { name: "setAxisMaxLimit(NaN)", call: () => plugin.setAxisMaxLimit(constraint, 0 as never, NaN), type: RangeError, arg: "limit", value: "NaN" },
    ...[-1, NaN, Infinity].map((x) => ({ name: `setAxisFriction(${x})`, call: () => plugin.setAxisFriction(constraint, 0 as never, x), type: RangeError, arg: "friction", value: String(x) })),
    ...BAD.map((x) => ({ name: `setAxisMotorTarget(${x})`, call: () => plugin.setAxisMotorTarget(constraint, 0 as never, x), type: RangeError, arg: "target", value: String(x) })),
    ...[-1, NaN].map((x) => ({ name: `setAxisMotorMaxForce(${x})`, call: () => plugin.setAxisMotorMaxForce(constraint, 0 as never, x), type: RangeError, arg: "maxForce", value: String(x) })),
    { name: "setEnabled('no')", call: () => plugin.setEnabled(constraint, "no" as never), type: TypeError, arg: "isEnabled", value: "no" },
    { name: "getAxisMode axis 9", call: () => plugin.getAxisMode(constraint, 9 as never), type: RangeError, arg: "axis", value: "9" },
    // disposed constraints
    ...(
      [
        ["setEnabled", () => plugin.setEnabled(deadConstraint, false)],
        ["setAxisMode", () => plugin.setAxisMode(deadConstraint, 0 as never, 1 as never)],
        ["setAxisFriction", () => plugin.setAxisFriction(deadConstraint, 0 as never, 1)],
        ["setAxisMotorTarget", () => plugin.setAxisMotorTarget(deadConstraint, 0 as never, 1)],
        ["setCollisionsEnabled", () => plugin.setCollisionsEnabled(deadConstraint, true)],
      ] as [string, () => unknown][]
    ).map(([n, call]) => ({ name: `${n} on a disposed constraint`, call, type: TypeError, arg: "constraint", value: "disposed" })),

    // ---- queries
    ...BAD.map((x) => ({ name: `raycast from ${x}`, call: () => plugin.raycast(v(x, 0, 0), v(0, 0, 0), new PhysicsRaycastResult()), type: RangeError, arg: "from", value: String(x) })),
    { name: "raycast to NaN", call: () => plugin.raycast(v(0, 0, 0), v(0, NaN, 0), new PhysicsRaycastResult()), type: RangeError, arg: "to", value: "NaN" },
    { name: "raycast result null", call: () => plugin.raycast(v(0, 0, 0), v(0, 1, 0), null as never), type: TypeError, arg: "result", value: "null" },
    { name: "pointProximity position NaN", call: () => plugin.pointProximity({ position: v(NaN, 0, 0), maxDistance: 1 } as never, new ProximityCastResult()), type: RangeError, arg: "query.position", value: "NaN" },
    { name: "pointProximity maxDistance Infinity", call: () => plugin.pointProximity({ position: v(0, 0, 0), maxDistance: Infinity } as never, new ProximityCastResult()), type: RangeError, arg: "query.maxDistance", value: "Infinity" },
    { name: "shapeProximity rotation zero", call: () => plugin.shapeProximity({ shape: boxShape, position: v(0, 0, 0), rotation: new Quaternion(0, 0, 0, 0), maxDistance: 1 } as never, new ProximityCastResult(), new ProximityCastResult()), type: RangeError, arg: "query.rotation", value: "(0, 0, 0, 0)" },
    { name: "shapeCast endPosition Infinity", call: () => plugin.shapeCast({ shape: boxShape, startPosition: v(0, 0, 0), endPosition: v(0, Infinity, 0), rotation: Quaternion.Identity() } as never, new ShapeCastResult(), new ShapeCastResult()), type: RangeError, arg: "query.endPosition", value: "Infinity" },
    { name: "shapeCast with a MESH shape", call: () => plugin.shapeCast({ shape: meshShape, startPosition: v(0, 5, 0), endPosition: v(0, -5, 0), rotation: Quaternion.Identity() } as never, new ShapeCastResult(), new ShapeCastResult()), type: TypeError, arg: "query.shape", value: "6" },
  ];
  table(cases, world);

  it("the scene still steps and every pose is finite after all the bad input", () => {
    for (let i = 0; i < 30; i++) step();
    const w = plugin.world;
    const p = { x: 0, y: 0, z: 0 };
    for (const h of w.getBodyHandles()) {
      w.getPosition(h, p);
      expect(Number.isFinite(p.x + p.y + p.z)).toBe(true);
    }
    expect((plugin as unknown as { _records: Map<number, unknown> })._records.size).toBe(w.bodyCount);
  });
});

// =================================================================== the engine

describe("engine: bad input", () => {
  const world = new World();
  const groundH = world.createBody({ motionType: MotionType.Static, position: { x: 0, y: -0.5, z: 0 }, collidable: { shape: new Box(10, 0.5, 10) } });
  const h = world.createBody({ position: { x: 0, y: 1, z: 0 }, collidable: { shape: new Sphere(0.5) } });
  const h2 = world.createBody({ position: { x: 0, y: 3, z: 0 }, collidable: { shape: new Sphere(0.5) } });
  const joint = world.createJoint({ bodyA: h, bodyB: h2, axes: [{ axis: JointAxis.LinearX, mode: AxisMode.Locked }] });
  const dead = world.createBody({ position: { x: 5, y: 1, z: 0 }, collidable: { shape: new Sphere(0.5) } });
  world.removeBody(dead);
  const deadJoint = world.createJoint({ bodyA: h, bodyB: groundH });
  world.removeJoint(deadJoint);
  for (let i = 0; i < 5; i++) world.step(1 / 60);
  void groundH;
  const vec = (x: number) => ({ x, y: 0, z: 0 });
  const q0 = { x: 0, y: 0, z: 0, w: 0 };
  const id = { x: 0, y: 0, z: 0, w: 1 };
  const filter = { membership: -1, collideWith: -1, hitTriggers: false, ignoreBody: undefined };

  const cases: Case[] = [
    // shapes
    ...[0, -1, NaN, Infinity].map((x) => ({ name: `new Box(${x}, 1, 1)`, call: () => new Box(x, 1, 1), type: RangeError, arg: "halfX", value: String(x) })),
    ...[0, -1, NaN, Infinity].map((x) => ({ name: `new Sphere(${x})`, call: () => new Sphere(x), type: RangeError, arg: "radius", value: String(x) })),
    ...[0, NaN].map((x) => ({ name: `new Capsule(${x}, 1)`, call: () => new Capsule(x, 1), type: RangeError, arg: "radius", value: String(x) })),
    ...[-1, Infinity].map((x) => ({ name: `new Capsule(1, ${x})`, call: () => new Capsule(1, x), type: RangeError, arg: "halfLength", value: String(x) })),
    ...[0, -1, NaN].map((x) => ({ name: `new Cylinder(1, ${x})`, call: () => new Cylinder(1, x), type: RangeError, arg: "halfHeight", value: String(x) })),
    { name: "ConvexHull of collinear points", call: () => new ConvexHull([0, 0, 0, 1, 1, 1, 2, 2, 2, 3, 3, 3]), type: RangeError, arg: "points", value: "collinear" },
    { name: "ConvexHull of coincident points", call: () => new ConvexHull([1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1]), type: RangeError, arg: "points", value: "coincide" },
    { name: "ConvexHull of 2 points", call: () => new ConvexHull([0, 0, 0, 1, 1, 1]), type: RangeError, arg: "points", value: "2 points" },
    { name: "ConvexHull with NaN", call: () => new ConvexHull([0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, NaN]), type: RangeError, arg: "points[11]", value: "NaN" },
    { name: "ConvexHull of an empty array", call: () => new ConvexHull([]), type: RangeError, arg: "points", value: "0 points" },
    { name: "TriangleMesh of zero-area triangles", call: () => new TriangleMesh([0, 0, 0, 1, 0, 0, 2, 0, 0], [0, 1, 2]), type: RangeError, arg: "indices", value: "zero area" },
    { name: "TriangleMesh empty", call: () => new TriangleMesh([], []), type: RangeError, arg: "positions", value: "0" },
    { name: "TriangleMesh index out of range", call: () => new TriangleMesh([0, 0, 0, 1, 0, 0, 0, 1, 0], [0, 1, 3]), type: RangeError, arg: "indices[2]", value: "3" },
    { name: "TriangleMesh position Infinity", call: () => new TriangleMesh([0, 0, 0, 1, 0, 0, 0, Infinity, 0], [0, 1, 2]), type: RangeError, arg: "positions[7]", value: "Infinity" },
    ...[0, -1, NaN].map((x) => ({ name: `Heightfield sizeX ${x}`, call: () => new Heightfield(x, 1, 2, 2, [0, 0, 0, 0]), type: RangeError, arg: "sizeX", value: String(x) })),
    { name: "Heightfield samplesX 1", call: () => new Heightfield(1, 1, 1, 2, [0, 0]), type: RangeError, arg: "samplesX", value: "1" },
    { name: "Heightfield heights Infinity", call: () => new Heightfield(1, 1, 2, 2, [0, Infinity, 0, 0]), type: RangeError, arg: "heights[1]", value: "Infinity" },
    { name: "Compound child scale 0", call: () => new Compound([{ shape: new Sphere(1), scale: { x: 0, y: 1, z: 1 } }]), type: RangeError, arg: "children[0].scale", value: "0" },
    { name: "Compound child position NaN", call: () => new Compound([{ shape: new Sphere(1), position: vec(NaN) }]), type: RangeError, arg: "children[0].position.x", value: "NaN" },
    // bodies
    ...BAD.map((x) => ({ name: `createBody position ${x}`, call: () => world.createBody({ position: vec(x) }), type: RangeError, arg: "position", value: String(x) })),
    { name: "createBody orientation zero", call: () => world.createBody({ orientation: q0 }), type: RangeError, arg: "orientation", value: "(0, 0, 0, 0)" },
    { name: "createBody motionType 7", call: () => world.createBody({ motionType: 7 as never }), type: RangeError, arg: "motionType", value: "7" },
    { name: "createBody density -1", call: () => world.createBody({ density: -1 }), type: RangeError, arg: "density", value: "-1" },
    { name: "createBody linearVelocity NaN", call: () => world.createBody({ linearVelocity: vec(NaN) }), type: RangeError, arg: "linearVelocity", value: "NaN" },
    { name: "createBody shape 42", call: () => world.createBody({ collidable: { shape: 42 as never } }), type: TypeError, arg: "collidable.shape", value: "42" },
    { name: "createBody material friction -1", call: () => world.createBody({ collidable: { shape: null, material: { friction: -1 } } }), type: RangeError, arg: "material.friction", value: "-1" },
    ...BAD.map((x) => ({ name: `setPose position ${x}`, call: () => world.setPose(h, vec(x), id), type: RangeError, arg: "position", value: String(x) })),
    { name: "setPose orientation zero", call: () => world.setPose(h, vec(0), q0), type: RangeError, arg: "orientation", value: "(0, 0, 0, 0)" },
    ...BAD.map((x) => ({ name: `setLinearVelocity ${x}`, call: () => world.setLinearVelocity(h, vec(x)), type: RangeError, arg: "velocity", value: String(x) })),
    ...BAD.map((x) => ({ name: `setAngularVelocity ${x}`, call: () => world.setAngularVelocity(h, vec(x)), type: RangeError, arg: "velocity", value: String(x) })),
    ...BAD.map((x) => ({ name: `applyLinearImpulse ${x}`, call: () => world.applyLinearImpulse(h, vec(x)), type: RangeError, arg: "impulse", value: String(x) })),
    ...BAD.map((x) => ({ name: `applyAngularImpulse ${x}`, call: () => world.applyAngularImpulse(h, vec(x)), type: RangeError, arg: "impulse", value: String(x) })),
    ...BAD.map((x) => ({ name: `applyForce ${x}`, call: () => world.applyForce(h, vec(x)), type: RangeError, arg: "force", value: String(x) })),
    ...BAD.map((x) => ({ name: `applyTorque ${x}`, call: () => world.applyTorque(h, vec(x)), type: RangeError, arg: "torque", value: String(x) })),
    ...[0, -1, NaN].map((x) => ({ name: `moveKinematic dt ${x}`, call: () => world.moveKinematic(h, vec(0), id, x), type: RangeError, arg: "dt", value: String(x) })),
    { name: "setMotionType 5", call: () => world.setMotionType(h, 5 as never), type: RangeError, arg: "type", value: "5" },
    { name: "setShape 'box'", call: () => world.setShape(h, "box" as never), type: TypeError, arg: "shape", value: "box" },
    ...[-1, NaN].map((x) => ({ name: `setDensity ${x}`, call: () => world.setDensity(h, x), type: RangeError, arg: "density", value: String(x) })),
    ...[-1, NaN, Infinity].map((x) => ({ name: `setLinearDamping ${x}`, call: () => world.setLinearDamping(h, x), type: RangeError, arg: "linearDamping", value: String(x) })),
    ...BAD.map((x) => ({ name: `setGravityFactor ${x}`, call: () => world.setGravityFactor(h, x), type: RangeError, arg: "gravityFactor", value: String(x) })),
    { name: "setMassProperties mass -1", call: () => world.setMassProperties(h, { mass: -1 }), type: RangeError, arg: "massProperties.mass", value: "-1" },
    { name: "setMassProperties inertia NaN", call: () => world.setMassProperties(h, { inertia: vec(NaN) }), type: RangeError, arg: "massProperties.inertia", value: "NaN" },
    { name: "setMaterial restitution 2", call: () => world.setMaterial(h, { restitution: 2 }), type: RangeError, arg: "material.restitution", value: "2" },
    { name: "setMaterial frictionCombine 9", call: () => world.setMaterial(h, { frictionCombine: 9 as never }), type: RangeError, arg: "material.frictionCombine", value: "9" },
    { name: "setCollisionFilter NaN", call: () => world.setCollisionFilter(h, NaN, -1), type: RangeError, arg: "membership", value: "NaN" },
    { name: "setContinuousDetection mode 9", call: () => world.setContinuousDetection(h, { mode: 9 } as never), type: RangeError, arg: "continuity.mode", value: "9" },
    { name: "setSpeculativeMargins -1", call: () => world.setSpeculativeMargins(h, -1, 1), type: RangeError, arg: "minimumSpeculativeMargin", value: "-1" },
    // stale handles
    ...(
      [
        ["setLinearVelocity", () => world.setLinearVelocity(dead, vec(1))],
        ["setPose", () => world.setPose(dead, vec(0), id)],
        ["removeBody", () => world.removeBody(dead)],
        ["getPosition", () => world.getPosition(dead, { x: 0, y: 0, z: 0 })],
        ["applyLinearImpulse", () => world.applyLinearImpulse(dead, vec(1))],
        ["setShape", () => world.setShape(dead, null)],
      ] as [string, () => unknown][]
    ).map(([n, call]) => ({ name: `${n} on a removed body`, call, type: RangeError, arg: "handle", value: String(dead) })),
    { name: "removeBody(NaN)", call: () => world.removeBody(NaN), type: RangeError, arg: "handle", value: "NaN" },
    // world
    ...[NaN, -1, Infinity].map((x) => ({ name: `step(${x})`, call: () => world.step(x), type: RangeError, arg: "dt", value: String(x) })),
    ...BAD.map((x) => ({ name: `setGravity ${x}`, call: () => world.setGravity(vec(x)), type: RangeError, arg: "gravity", value: String(x) })),
    ...[0, -1, NaN].map((x) => ({ name: `setVelocityLimits ${x}`, call: () => world.setVelocityLimits(x, 1), type: RangeError, arg: "maxLinear", value: String(x) })),
    { name: "new World substeps 0", call: () => new World({ substeps: 0 }), type: RangeError, arg: "settings.substeps", value: "0" },
    { name: "new World contactSubsteps 2.5", call: () => new World({ contactSubsteps: 2.5 }), type: RangeError, arg: "settings.contactSubsteps", value: "2.5" },
    // queries
    { name: "raycast origin NaN", call: () => world.raycast(vec(NaN), vec(1), 10, filter, new RayResult()), type: RangeError, arg: "origin", value: "NaN" },
    { name: "raycast direction 0", call: () => world.raycast(vec(0), vec(0), 10, filter, new RayResult()), type: RangeError, arg: "direction", value: "(0, 0, 0)" },
    { name: "raycast maxDistance NaN", call: () => world.raycast(vec(0), vec(1), NaN, filter, new RayResult()), type: RangeError, arg: "maxDistance", value: "NaN" },
    { name: "pointProximity point NaN", call: () => world.queries.pointProximity(vec(NaN), 1, filter, new PointProximityResult()), type: RangeError, arg: "point", value: "NaN" },
    { name: "shapeCast start Infinity", call: () => world.queries.shapeCast(new Sphere(1), id, vec(Infinity), vec(0), filter, []), type: RangeError, arg: "start", value: "Infinity" },
    // joints
    { name: "createJoint bodyA removed", call: () => world.createJoint({ bodyA: dead, bodyB: h }), type: RangeError, arg: "bodyA", value: String(dead) },
    { name: "createJoint same body", call: () => world.createJoint({ bodyA: h, bodyB: h }), type: RangeError, arg: "desc.bodyB", value: String(h) },
    { name: "createJoint pivotA NaN", call: () => world.createJoint({ bodyA: h, bodyB: h2, pivotA: vec(NaN) }), type: RangeError, arg: "desc.pivotA", value: "NaN" },
    { name: "createJoint axisA zero", call: () => world.createJoint({ bodyA: h, bodyB: h2, axisA: vec(0) }), type: RangeError, arg: "desc.axisA", value: "(0, 0, 0)" },
    { name: "createJoint axis 9", call: () => world.createJoint({ bodyA: h, bodyB: h2, axes: [{ axis: 9 as never, mode: AxisMode.Locked }] }), type: RangeError, arg: "desc.axes[0].axis", value: "9" },
    { name: "createJoint mode 5", call: () => world.createJoint({ bodyA: h, bodyB: h2, axes: [{ axis: JointAxis.LinearX, mode: 5 as never }] }), type: RangeError, arg: "desc.axes[0].mode", value: "5" },
    { name: "createJoint min NaN", call: () => world.createJoint({ bodyA: h, bodyB: h2, axes: [{ axis: JointAxis.LinearX, mode: AxisMode.Limited, min: NaN }] }), type: RangeError, arg: "desc.axes[0].min", value: "NaN" },
    { name: "joints.setAxisMode mode 3", call: () => world.joints.setAxisMode(joint, JointAxis.LinearX, 3 as never), type: RangeError, arg: "mode", value: "3" },
    { name: "joints.setAxisMode axis -1", call: () => world.joints.setAxisMode(joint, -1 as never, 0), type: RangeError, arg: "axis", value: "-1" },
    { name: "joints.setAxisMinLimit NaN", call: () => world.joints.setAxisMinLimit(joint, JointAxis.LinearX, NaN), type: RangeError, arg: "min", value: "NaN" },
    { name: "joints.setAxisFriction -1", call: () => world.joints.setAxisFriction(joint, JointAxis.LinearX, -1), type: RangeError, arg: "friction", value: "-1" },
    { name: "joints.setAxisMotorType 5", call: () => world.joints.setAxisMotorType(joint, JointAxis.LinearX, 5 as never), type: RangeError, arg: "type", value: "5" },
    { name: "joints.setAxisMotorTarget Infinity", call: () => world.joints.setAxisMotorTarget(joint, JointAxis.LinearX, Infinity), type: RangeError, arg: "target", value: "Infinity" },
    { name: "joints.setAxisSpring -1", call: () => world.joints.setAxisSpring(joint, JointAxis.LinearX, -1, 0), type: RangeError, arg: "stiffness", value: "-1" },
    { name: "joints.setEnabled on a removed joint", call: () => world.joints.setEnabled(deadJoint, true), type: RangeError, arg: "handle", value: String(deadJoint) },
    { name: "removeJoint on a removed joint", call: () => world.removeJoint(deadJoint), type: RangeError, arg: "handle", value: String(deadJoint) },
  ];
  table(cases, () => world);

  it("the world still steps with finite poses after all the bad input", () => {
    for (let i = 0; i < 30; i++) world.step(1 / 60);
    const p = { x: 0, y: 0, z: 0 };
    for (const k of world.getBodyHandles()) {
      world.getPosition(k, p);
      expect(Number.isFinite(p.x + p.y + p.z)).toBe(true);
    }
  });
});
