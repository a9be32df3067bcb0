/**
 * glTF physics: a small glTF file written here (KHR_physics_rigid_bodies + KHR_implicit_shapes, meshes in a
 * data-URI buffer) loaded through Babylon's glTF loader with Continuum's loader extension
 * (`continuum-physics/gltf`, plugin/gltf). The file carries everything the scene does: a floor and an icy ramp
 * with physics materials, a block that sticks (friction 1, "maximum") and one that slides (friction 0,
 * "minimum"), a bouncy ball (restitution 0.9, "maximum"), a trigger volume at the foot of the ramp, and a door
 * on a hinge (a 6-DoF joint whose limits leave one angle free) with a spring drive that closes it after a ball
 * knocks it open. It runs the same on Havok (the loader only uses Babylon's V2 API and the `_hknp` joint calls).
 */
import "@babylonjs/loaders/glTF/glTFFileLoader.js";
import "@babylonjs/loaders/glTF/2.0/glTFLoader.js";
import { type Quaternion, Vector3 } from "@babylonjs/core/Maths/math.vector.js";
import type { TransformNode } from "@babylonjs/core/Meshes/transformNode.js";
import { PhysicsEventType } from "@babylonjs/core/Physics/v2/IPhysicsEnginePlugin.js";
import { AppendSceneAsync, SceneLoader } from "@babylonjs/core/Loading/sceneLoader.js";
import { registerGltfPhysics } from "../../../plugin/gltf/index";
import type { Stage } from "../stage";
import type { DemoScene, SceneContent } from "./types";

type Json = Record<string, unknown>;

/** A unit cube (24 vertices, so each face has its own normal) and a unit-radius UV sphere, in one buffer. */
function geometry(): { buffer: string; byteLength: number; accessors: Json[]; bufferViews: Json[]; cube: Json; sphere: Json } {
  const pos: number[] = [],
    nrm: number[] = [],
    idx: number[] = [];
  // Cube: per face, normal n and two in-face axes u, v with u x v = n (counter-clockwise seen from outside).
  const faces = [
    [1, 0, 0, 0, 1, 0, 0, 0, 1],
    [-1, 0, 0, 0, 0, 1, 0, 1, 0],
    [0, 1, 0, 0, 0, 1, 1, 0, 0],
    [0, -1, 0, 1, 0, 0, 0, 0, 1],
    [0, 0, 1, 1, 0, 0, 0, 1, 0],
    [0, 0, -1, 0, 1, 0, 1, 0, 0],
  ];
  for (const f of faces) {
    const base = pos.length / 3;
    for (const [a, b] of [
      [-1, -1],
      [1, -1],
      [1, 1],
      [-1, 1],
    ]) {
      for (let k = 0; k < 3; k++) {
        pos.push(0.5 * (f[k] + a * f[3 + k] + b * f[6 + k]));
        nrm.push(f[k]);
      }
    }
    idx.push(base, base + 1, base + 2, base, base + 2, base + 3);
  }
  const cubeVerts = pos.length / 3,
    cubeIdx = idx.length;
  // Sphere: 16 segments around, 10 rings.
  const seg = 16,
    rings = 10;
  for (let r = 0; r <= rings; r++) {
    const th = (Math.PI * r) / rings;
    for (let s = 0; s <= seg; s++) {
      const ph = (2 * Math.PI * s) / seg;
      const x = Math.sin(th) * Math.cos(ph),
        y = Math.cos(th),
        z = Math.sin(th) * Math.sin(ph);
      pos.push(x, y, z);
      nrm.push(x, y, z);
    }
  }
  for (let r = 0; r < rings; r++) {
    for (let s = 0; s < seg; s++) {
      const a = cubeVerts + r * (seg + 1) + s,
        b = a + seg + 1;
      idx.push(a, a + 1, b, a + 1, b + 1, b);
    }
  }
  const nv = pos.length / 3;
  const bytes = new Uint8Array(nv * 24 + idx.length * 2);
  new Float32Array(bytes.buffer, 0, nv * 3).set(pos);
  new Float32Array(bytes.buffer, nv * 12, nv * 3).set(nrm);
  new Uint16Array(bytes.buffer, nv * 24, idx.length).set(idx);
  let bin = "";
  for (let i = 0; i < bytes.length; i += 4096) bin += String.fromCharCode(...bytes.subarray(i, i + 4096));
  const sphereVerts = nv - cubeVerts;
  return {
    buffer: "data:application/octet-stream;base64," + btoa(bin),
    byteLength: bytes.length,
    bufferViews: [
      { buffer: 0, byteOffset: 0, byteLength: nv * 12 },
      { buffer: 0, byteOffset: nv * 12, byteLength: nv * 12 },
      { buffer: 0, byteOffset: nv * 24, byteLength: idx.length * 2 },
    ],
    accessors: [
      { bufferView: 0, componentType: 5126, count: cubeVerts, type: "VEC3", min: [-0.5, -0.5, -0.5], max: [0.5, 0.5, 0.5] },
      { bufferView: 1, componentType: 5126, count: cubeVerts, type: "VEC3" },
      { bufferView: 2, componentType: 5123, count: cubeIdx, type: "SCALAR" },
      { bufferView: 0, byteOffset: cubeVerts * 12, componentType: 5126, count: sphereVerts, type: "VEC3", min: [-1, -1, -1], max: [1, 1, 1] },
      { bufferView: 1, byteOffset: cubeVerts * 12, componentType: 5126, count: sphereVerts, type: "VEC3" },
      { bufferView: 2, byteOffset: cubeIdx * 2, componentType: 5123, count: idx.length - cubeIdx, type: "SCALAR" },
    ],
    cube: { POSITION: 0, NORMAL: 1 },
    sphere: { POSITION: 3, NORMAL: 4 },
  };
}

const COLORS: Record<string, [number, number, number, number]> = {
  floor: [0.3, 0.33, 0.38, 1],
  ice: [0.55, 0.8, 0.95, 1],
  sticky: [0.89, 0.34, 0.18, 1],
  icy: [0.31, 0.62, 0.87, 1],
  bouncy: [0.95, 0.65, 0.07, 1],
  sensor: [0.5, 0.82, 0.68, 0.35],
  door: [0.85, 0.64, 0.36, 1],
  knocker: [0.61, 0.45, 0.81, 1],
};

const rb = (ext: Json) => ({ KHR_physics_rigid_bodies: ext });
/** Quaternion (x, y, z, w) of `deg` degrees about z. */
const aboutZ = (deg: number) => [0, 0, Math.sin((deg * Math.PI) / 360), Math.cos((deg * Math.PI) / 360)];

const RAMP_DEG = 20;
const RAMP_CENTER = [4, 1.6, 0];
/** A point in the ramp's frame (x along it, y up from its top face's centre line) in the file's frame. */
function onRamp(x: number, y: number, z: number): number[] {
  const c = Math.cos((RAMP_DEG * Math.PI) / 180),
    s = Math.sin((RAMP_DEG * Math.PI) / 180);
  return [RAMP_CENTER[0] + x * c - y * s, RAMP_CENTER[1] + x * s + y * c, RAMP_CENTER[2] + z];
}

/** The glTF document: nodes with physics and a visual child each (a scaled cube or sphere mesh). */
export function physicsDocument(): Json {
  const g = geometry();
  const names = Object.keys(COLORS);
  const materials = names.map((n) => ({
    name: n,
    pbrMetallicRoughness: { baseColorFactor: COLORS[n], metallicFactor: 0, roughnessFactor: 0.8 },
    ...(COLORS[n][3] < 1 ? { alphaMode: "BLEND" } : {}),
  }));
  const meshes: Json[] = [];
  const meshOf = (kind: "cube" | "sphere", color: string) => {
    meshes.push({ primitives: [{ attributes: kind === "cube" ? g.cube : g.sphere, indices: kind === "cube" ? 2 : 5, material: names.indexOf(color) }] });
    return meshes.length - 1;
  };
  const shapes: Json[] = [];
  const box = (size: number[]) => (shapes.push({ type: "box", box: { size } }), shapes.length - 1);
  const sphere = (radius: number) => (shapes.push({ type: "sphere", sphere: { radius } }), shapes.length - 1);
  const nodes: Json[] = [];
  const roots: number[] = [];
  /** A node with physics `ext` and a visual child: a cube scaled to `size` or a sphere of radius size[0]. */
  const add = (name: string, t: number[], ext: Json, color: string, kind: "cube" | "sphere", size: number[], rotation?: number[], root = true): number => {
    const i = nodes.length;
    nodes.push({ name, translation: t, ...(rotation ? { rotation } : {}), children: [i + 1], extensions: rb(ext) });
    nodes.push({ name: `${name}-mesh`, mesh: meshOf(kind, color), scale: kind === "cube" ? size : [size[0], size[0], size[0]] });
    if (root) roots.push(i);
    return i;
  };
  // Materials: 0 floor, 1 ice (ramp), 2 sticky block, 3 icy block, 4 bouncy ball.
  const physicsMaterials = [
    { staticFriction: 0.6, dynamicFriction: 0.6, restitution: 0 },
    { staticFriction: 0, dynamicFriction: 0, restitution: 0 },
    { staticFriction: 1, dynamicFriction: 1, frictionCombine: "maximum" },
    { staticFriction: 0, dynamicFriction: 0, frictionCombine: "minimum" },
    { restitution: 0.9, restitutionCombine: "maximum" },
  ];
  add("floor", [0, -0.5, 0], { collider: { geometry: { shape: box([26, 1, 16]) }, physicsMaterial: 0 } }, "floor", "cube", [26, 1, 16]);
  add("ramp", RAMP_CENTER, { collider: { geometry: { shape: box([8, 0.4, 4]) }, physicsMaterial: 1 } }, "ice", "cube", [8, 0.4, 4], aboutZ(RAMP_DEG));
  const block = box([0.6, 0.6, 0.6]);
  add("sticky", onRamp(2.5, 0.51, -1), { motion: { mass: 1 }, collider: { geometry: { shape: block }, physicsMaterial: 2 } }, "sticky", "cube", [0.6, 0.6, 0.6], aboutZ(RAMP_DEG));
  add("icy", onRamp(2.5, 0.51, 1), { motion: { mass: 1 }, collider: { geometry: { shape: block }, physicsMaterial: 3 } }, "icy", "cube", [0.6, 0.6, 0.6], aboutZ(RAMP_DEG));
  add("bouncy", [-3, 4, -4], { motion: { mass: 1 }, collider: { geometry: { shape: sphere(0.4) }, physicsMaterial: 4 } }, "bouncy", "sphere", [0.4]);
  // A static trigger volume on the floor at the foot of the ramp, in the icy block's lane.
  add("sensor", [-1.2, 0.6, 1], { trigger: { geometry: { shape: box([1.6, 1.2, 1.6]) } } }, "sensor", "cube", [1.6, 1.2, 1.6]);
  // The door: a 1.4 m panel whose hinge edge is at z = 3 (the hinge node), joined to the world there. Its joint
  // frame on the door side is the child node "door-hinge" at the same place.
  const door = add("door", [-6, 1.05, 3.7], { motion: { mass: 4 }, collider: { geometry: { shape: box([0.1, 2, 1.4]) } } }, "door", "cube", [0.1, 2, 1.4]);
  (nodes[door].children as number[]).push(nodes.length);
  nodes.push({ name: "door-hinge", translation: [0, 0, -0.7] });
  roots.push(nodes.length);
  nodes.push({ name: "hinge", translation: [-6, 1.05, 3], extensions: rb({ joint: { connectedNode: nodes.length - 1, joint: 0 } }) });
  // A ball rolled at the door's free edge.
  add("knocker", [-10, 0.3, 4.1], { motion: { mass: 2, linearVelocity: [6, 0, 0] }, collider: { geometry: { shape: sphere(0.3) } } }, "knocker", "sphere", [0.3]);
  return {
    asset: { version: "2.0", generator: "Continuum playground" },
    extensionsUsed: ["KHR_physics_rigid_bodies", "KHR_implicit_shapes"],
    extensions: {
      KHR_implicit_shapes: { shapes },
      KHR_physics_rigid_bodies: {
        physicsMaterials,
        physicsJoints: [
          {
            // A hinge about y: the linear axes and the x and z angles locked, y within +-100 degrees, and a
            // spring drive (acceleration mode) back to 0.
            limits: [
              { linearAxes: [0, 1, 2], min: 0, max: 0 },
              { angularAxes: [0, 2], min: 0, max: 0 },
              { angularAxes: [1], min: -1.75, max: 1.75 },
            ],
            drives: [{ type: "angular", mode: "acceleration", axis: 1, positionTarget: 0, stiffness: 8, damping: 3 }],
          },
        ],
      },
    },
    scene: 0,
    scenes: [{ nodes: roots }],
    nodes,
    meshes,
    materials,
    buffers: [{ byteLength: g.byteLength, uri: g.buffer }],
    bufferViews: g.bufferViews,
    accessors: g.accessors,
  };
}

function build(stage: Stage): SceneContent {
  const { scene, plugin } = stage;
  registerGltfPhysics();
  // The file is a data URL, loaded in a few milliseconds: no loading screen (nor its module) is needed.
  SceneLoader.ShowLoadingScreen = false;
  let loaded = false,
    error = "",
    created = 0,
    entered = 0,
    bouncyApex = 0,
    bouncyLanded = false,
    doorMax = 0;
  const at = (name: string) => scene.getTransformNodeByName(name) ?? scene.getMeshByName(name);
  const start: Record<string, Vector3> = {};
  const startRot: { door?: Quaternion } = {};
  plugin.onTriggerCollisionObservable.add((e) => {
    if (e.type === PhysicsEventType.TRIGGER_ENTERED) entered++;
  });
  void AppendSceneAsync("data:" + JSON.stringify(physicsDocument()), scene, { pluginExtension: ".gltf" }).then(
    () => {
      loaded = true;
      created = scene.transformNodes.concat(scene.meshes as unknown as TransformNode[]).filter((n) => n.physicsBody).length;
      for (const n of ["sticky", "icy", "bouncy", "knocker", "door"]) start[n] = at(n)!.absolutePosition.clone();
      startRot.door = at("door")!.rotationQuaternion?.clone();
      for (const m of scene.meshes) if (m.name.endsWith("-mesh")) stage.addShadows(m, m.name.startsWith("floor") || m.name.startsWith("ramp"));
    },
    (err: unknown) => {
      error = err instanceof Error ? err.message : String(err);
      console.error("glTF physics scene:", err);
    },
  );
  const moved = (n: string) => (loaded ? at(n)!.absolutePosition.subtract(start[n]).length() : 0);
  /** The door's turn from closed (its hinge keeps it about y), in degrees. */
  const doorAngle = () => {
    const q = loaded ? at("door")!.rotationQuaternion : null;
    const q0 = startRot.door;
    if (!q || !q0) return 0;
    const dot = Math.abs(q0.x * q.x + q0.y * q.y + q0.z * q.z + q0.w * q.w);
    return (2 * Math.acos(Math.min(1, dot)) * 180) / Math.PI;
  };
  return {
    bodies: [],
    get created() {
      return created;
    },
    groundTop: 0,
    afterStep: () => {
      if (!loaded) return;
      const y = at("bouncy")!.absolutePosition.y;
      if (y < 0.5) bouncyLanded = true;
      if (bouncyLanded) bouncyApex = Math.max(bouncyApex, y);
      doorMax = Math.max(doorMax, doorAngle());
    },
    status: () =>
      error
        ? `load failed: ${error}`
        : !loaded
          ? "loading the glTF file…"
          : `${created} bodies from the file · icy block slid ${moved("icy").toFixed(2)} m, sticky ${moved("sticky").toFixed(2)} m · ball rebound ${bouncyLanded ? (bouncyApex - 0.4).toFixed(2) : "–"} m · trigger entered ${entered}× · door ${doorAngle().toFixed(0)}° (max ${doorMax.toFixed(0)}°)`,
    probe: () => ({
      loaded,
      error,
      created,
      icySlid: moved("icy"),
      stickySlid: moved("sticky"),
      bouncyApex,
      triggerEntered: entered,
      doorMaxDeg: doorMax,
      doorDeg: doorAngle(),
      minY: loaded ? Math.min(...["sticky", "icy", "bouncy", "knocker", "door"].map((n) => at(n)!.absolutePosition.y)) : 0,
    }),
  };
}

export const gltfScene: DemoScene = {
  id: "gltf",
  title: "glTF physics",
  caption:
    "A glTF file with KHR_physics_rigid_bodies, loaded by continuum-physics/gltf: materials (a block that sticks and one that slides on an icy ramp, a bouncy ball), a trigger volume at the ramp's foot, and a hinged door with a spring drive that a rolling ball knocks open.",
  view: { alpha: -1.4, beta: 1.1, radius: 19, target: new Vector3(-4.5, 1.2, 0.5) },
  build,
};
