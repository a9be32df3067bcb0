// Runs one benchmark row in this process and prints one line: `BENCH_RESULT <json>`.
//
//   node --expose-gc bench/scene-runner.mjs <engine> <scene> <sleep:on|off|n/a> [warmup] [steps] [--cpu-prof=FILE] [--heap-prof=FILE] [--threads=N]
// --threads=N: continuum-plugin on N threads (ContinuumPlugin's `threads` option; waits until they listen).
//
// engines: havok (Babylon NullEngine + HavokPlugin), continuum-plugin (same Babylon scene with
// ContinuumPlugin from dist/continuum.mjs), continuum-engine (raw World API from dist/continuum.mjs).
// warmup / steps default to the scene's own (bench/scenes.mjs), else 120 / 1000.
// --cpu-prof=FILE writes a V8 CPU profile of the measured steps only (node:inspector), for bench/profile.mjs.
// --heap-prof=FILE writes a sampling heap profile (allocations) of the measured steps, for bench/profile.mjs --alloc.
// BENCH_MARK=1 in the environment prints `BENCH_MEASURE_START` between warm-up and measurement, so V8 traces can
// be cut to the measured steps: BENCH_MARK=1 node --expose-gc --trace-deopt bench/scene-runner.mjs ... |
// sed -n '/BENCH_MEASURE_START/,/BENCH_RESULT/p'
// The result has status "ok", "unavailable" (the engine could not be loaded: no build, missing export)
// or "failed" (it loaded but threw while building or stepping the scene); only "ok" carries timings.
import fs from "node:fs";
import path from "node:path";
import os from "node:os";
import { fileURLToPath, pathToFileURL } from "node:url";
import { performance, PerformanceObserver } from "node:perf_hooks";
import { SCENES, ENGINES, sceneSleepModes, rotate } from "./scenes.mjs";

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.dirname(here);
// CONTINUUM_DIST=FILE loads another build (an A/B of two bundles row by row).
const DIST = process.env.CONTINUUM_DIST ? path.resolve(process.env.CONTINUUM_DIST) : path.join(root, "dist", "continuum.mjs");
const DT = 1 / 60;

class Unavailable extends Error {}

function emit(result) {
  process.stdout.write(`BENCH_RESULT ${JSON.stringify(result)}\n`);
}

// ---------------------------------------------------------------------------------------------------------
// Loading engines

async function loadBabylon() {
  return await import("@babylonjs/core");
}

export async function loadContinuum() {
  if (!fs.existsSync(DIST)) throw new Unavailable(`${path.relative(root, DIST)} not found (run \`npm run build\`)`);
  let mod;
  try {
    mod = await import(pathToFileURL(DIST).href);
  } catch (e) {
    throw new Unavailable(`importing dist/continuum.mjs failed: ${e?.message ?? e}`);
  }
  return mod;
}

function need(mod, names) {
  const missing = names.filter((n) => mod[n] === undefined);
  if (missing.length) throw new Unavailable(`dist/continuum.mjs does not export ${missing.join(", ")}`);
}

async function makeHavokPlugin(BABYLON) {
  const havokDir = path.join(root, "node_modules", "@babylonjs", "havok", "lib", "esm");
  const { default: HavokPhysics } = await import(pathToFileURL(path.join(havokDir, "HavokPhysics_es.js")).href);
  const wasmBinary = fs.readFileSync(path.join(havokDir, "HavokPhysics.wasm"));
  const hk = await HavokPhysics({ wasmBinary });
  return new BABYLON.HavokPlugin(false, hk);
}

// ---------------------------------------------------------------------------------------------------------
// Babylon scenes (havok, continuum-plugin)

function babylonShape(BABYLON, scene, b, name) {
  const { Vector3, MeshBuilder, PhysicsShapeType, Mesh, VertexData } = BABYLON;
  switch (b.kind) {
    case "box":
      return {
        mesh: MeshBuilder.CreateBox(name, { width: 2 * b.hx, height: 2 * b.hy, depth: 2 * b.hz }, scene),
        type: PhysicsShapeType.BOX,
        parameters: { extents: new Vector3(2 * b.hx, 2 * b.hy, 2 * b.hz) },
      };
    case "sphere":
      return {
        mesh: MeshBuilder.CreateSphere(name, { diameter: 2 * b.radius, segments: 8 }, scene),
        type: PhysicsShapeType.SPHERE,
        parameters: { radius: b.radius },
      };
    case "capsule":
      return {
        mesh: MeshBuilder.CreateCapsule(name, { radius: b.radius, height: 2 * (b.halfLength + b.radius) }, scene),
        type: PhysicsShapeType.CAPSULE,
        parameters: { pointA: new Vector3(0, -b.halfLength, 0), pointB: new Vector3(0, b.halfLength, 0), radius: b.radius },
      };
    case "cylinder": {
      // Along local Y, or local X with axis: "x" (a wheel).
      const ax = b.axis === "x" ? new Vector3(b.halfHeight, 0, 0) : new Vector3(0, b.halfHeight, 0);
      return {
        mesh: MeshBuilder.CreateCylinder(name, { diameter: 2 * b.radius, height: 2 * b.halfHeight, tessellation: 12 }, scene),
        type: PhysicsShapeType.CYLINDER,
        parameters: { pointA: ax.scale(-1), pointB: ax, radius: b.radius },
      };
    }
    case "hull":
    case "mesh": {
      const mesh = new Mesh(name, scene);
      const vd = new VertexData();
      vd.positions = b.kind === "hull" ? b.points.slice() : b.positions.slice();
      vd.indices = b.kind === "hull" ? b.points.map((_, i) => i).slice(0, b.points.length / 3) : b.indices.slice();
      vd.applyToMesh(mesh);
      // The shape is built from this mesh's own vertices (PhysicsAggregate uses the node when options.mesh is unset).
      return { mesh, type: b.kind === "hull" ? PhysicsShapeType.CONVEX_HULL : PhysicsShapeType.MESH, parameters: {} };
    }
    default:
      throw new Error(`unknown body kind ${b.kind}`);
  }
}

export function buildBabylonScene(BABYLON, plugin, spec, sleeping, opts) {
  const { Vector3, Quaternion, Matrix, MeshBuilder, PhysicsAggregate, PhysicsShapeType, PhysicsActivationControl } = BABYLON;
  const isHavok = opts.engine === "havok";
  const engine = new BABYLON.NullEngine();
  const scene = new BABYLON.Scene(engine);
  scene.enablePhysics(new Vector3(0, spec.gravity ?? -9.81, 0), plugin);
  if (spec.timeStep) scene.getPhysicsEngine().setTimeStep(spec.timeStep);
  if (spec.velocityLimits) plugin.setVelocityLimits(spec.velocityLimits[0], spec.velocityLimits[1]);
  const bodies = spec.bodies;
  /** Per body index: { mesh, agg } or { thin: instanceIndex }. */
  const slots = new Array(bodies.length);
  const alwaysActive = (body) => {
    if (isHavok && body._pluginDataInstances?.length) {
      // HavokPlugin.setActivationControl only handles single-instance bodies (it reads body._pluginData).
      const hk = plugin._hknp;
      for (const inst of body._pluginDataInstances) hk.HP_Body_SetActivationControl(inst.hpBodyId, hk.ActivationControl.ALWAYS_ACTIVE);
    } else plugin.setActivationControl(body, PhysicsActivationControl.ALWAYS_ACTIVE);
  };
  const thinIdx = [];
  for (let i = 0; i < bodies.length; i++) {
    const b = bodies[i];
    if (b.thin) {
      thinIdx.push(i);
      continue;
    }
    const { mesh, type, parameters } = babylonShape(BABYLON, scene, b, `b${i}`);
    mesh.position.set(b.position.x, b.position.y, b.position.z);
    const q = b.orientation ?? { x: 0, y: 0, z: 0, w: 1 };
    mesh.rotationQuaternion = new Quaternion(q.x, q.y, q.z, q.w);
    const agg = new PhysicsAggregate(mesh, type, { mass: b.dynamic ? (b.mass ?? 1) : 0, friction: b.friction, restitution: b.restitution ?? 0, ...parameters }, scene);
    if (b.membership !== undefined) {
      agg.shape.filterMembershipMask = b.membership;
      agg.shape.filterCollideMask = b.collide;
    }
    if (b.dynamic && !sleeping) alwaysActive(agg.body);
    if (b.linearVelocity) agg.body.setLinearVelocity(new Vector3(b.linearVelocity.x, b.linearVelocity.y, b.linearVelocity.z));
    if (b.continuous && !isHavok) plugin.setContinuousDetection(agg.body, opts.C.ContinuousDetection.continuous());
    slots[i] = { mesh, agg };
  }
  let thinMesh = null;
  if (thinIdx.length) {
    const b0 = bodies[thinIdx[0]];
    if (b0.kind !== "box") throw new Error("thin instances: only boxes");
    thinMesh = MeshBuilder.CreateBox("thin", { width: 2 * b0.hx, height: 2 * b0.hy, depth: 2 * b0.hz }, scene);
    const data = new Float32Array(16 * thinIdx.length);
    const m = new Matrix();
    const one = new Vector3(1, 1, 1);
    thinIdx.forEach((bi, k) => {
      const b = bodies[bi];
      const q = b.orientation ?? { x: 0, y: 0, z: 0, w: 1 };
      Matrix.ComposeToRef(one, new Quaternion(q.x, q.y, q.z, q.w), new Vector3(b.position.x, b.position.y, b.position.z), m);
      m.copyToArray(data, 16 * k);
      slots[bi] = { thin: k };
    });
    thinMesh.thinInstanceSetBuffer("matrix", data, 16, false);
    const agg = new PhysicsAggregate(
      thinMesh,
      PhysicsShapeType.BOX,
      { mass: 1, friction: b0.friction, restitution: 0, extents: new Vector3(2 * b0.hx, 2 * b0.hy, 2 * b0.hz) },
      scene,
    );
    if (!sleeping) alwaysActive(agg.body);
  }
  for (const j of spec.joints ?? []) {
    const v = (p) => new Vector3(p?.x ?? 0, p?.y ?? 0, p?.z ?? 0);
    const axisA = v(j.axisA ?? { x: 1, y: 0, z: 0 }),
      axisB = v(j.axisB ?? { x: 1, y: 0, z: 0 });
    if (j.type === "sixdof") {
      const c = new BABYLON.Physics6DoFConstraint({ pivotA: v(j.pivotA), pivotB: v(j.pivotB) }, j.limits, scene);
      slots[j.a].agg.body.addConstraint(slots[j.b].agg.body, c);
      for (const m of j.motors ?? []) {
        c.setAxisMotorType(m.axis, m.type);
        c.setAxisMotorTarget(m.axis, m.target);
        c.setAxisMotorMaxForce(m.axis, m.maxForce);
      }
      continue;
    }
    const Ctor = j.type === "hinge" ? BABYLON.HingeConstraint : BABYLON.BallAndSocketConstraint;
    const c = new Ctor(v(j.pivotA), v(j.pivotB), axisA, axisB, scene);
    slots[j.a].agg.body.addConstraint(slots[j.b].agg.body, c);
  }
  const physics = scene.getPhysicsEngine();

  const poseOf = (i, out) => {
    const s = slots[i];
    if (s.thin !== undefined) {
      const md = thinMesh._thinInstanceDataStorage.matrixData;
      const m = Matrix.FromArray(md, 16 * s.thin);
      const sc = new Vector3(),
        rq = new Quaternion(),
        tr = new Vector3();
      m.decompose(sc, rq, tr);
      out.x = tr.x;
      out.y = tr.y;
      out.z = tr.z;
      out.qx = rq.x;
      out.qy = rq.y;
      out.qz = rq.z;
      out.qw = rq.w;
    } else {
      const p = s.mesh.position,
        q = s.mesh.rotationQuaternion;
      out.x = p.x;
      out.y = p.y;
      out.z = p.z;
      out.qx = q.x;
      out.qy = q.y;
      out.qz = q.z;
      out.qw = q.w;
    }
    return out;
  };

  // Raycasts: preallocated endpoints and one result.
  let query = null;
  if (spec.rays) {
    const { count, from, to } = spec.rays;
    const fromV = [],
      toV = [];
    for (let i = 0; i < count; i++) {
      fromV.push(new Vector3(from[3 * i], from[3 * i + 1], from[3 * i + 2]));
      toV.push(new Vector3(to[3 * i], to[3 * i + 1], to[3 * i + 2]));
    }
    const result = new BABYLON.PhysicsRaycastResult();
    const stats = { hits: 0, distance: 0 };
    if (spec.rays.sphereRadius) {
      // Sphere casts through the plugin's shapeCast (Havok-only API in Babylon; ContinuumPlugin has it too).
      const plugin = physics.getPhysicsPlugin();
      const sphere = new BABYLON.PhysicsShapeSphere(new Vector3(0, 0, 0), spec.rays.sphereRadius, scene);
      const q = { shape: sphere, rotation: BABYLON.Quaternion.Identity(), startPosition: fromV[0], endPosition: toV[0], shouldHitTriggers: false };
      const input = new BABYLON.ShapeCastResult(),
        hit = new BABYLON.ShapeCastResult();
      query = () => {
        let hits = 0,
          dist = 0;
        for (let i = 0; i < count; i++) {
          q.startPosition = fromV[i];
          q.endPosition = toV[i];
          plugin.shapeCast(q, input, hit);
          if (hit.hasHit) {
            hits++;
            dist += hit.hitFraction * BABYLON.Vector3.Distance(fromV[i], toV[i]);
          }
        }
        stats.hits = hits;
        stats.distance = dist;
        return stats;
      };
    } else
    query = () => {
      let hits = 0,
        dist = 0;
      for (let i = 0; i < count; i++) {
        physics.raycastToRef(fromV[i], toV[i], result);
        if (result.hasHit) {
          hits++;
          dist += result.hitDistance;
        }
      }
      stats.hits = hits;
      stats.distance = dist;
      return stats;
    };
  }

  // Bullets: teleport + velocity through the prestep, enabled only for the step after a re-fire.
  const zero = new Vector3(0, 0, 0);
  const vel = new Vector3();
  const refired = [];
  const setBullet = (i, start, velocity) => {
    const s = slots[i];
    s.agg.body.disablePreStep = false;
    s.mesh.position.set(start.x, start.y, start.z);
    s.mesh.rotationQuaternion.set(0, 0, 0, 1);
    vel.set(velocity.x, velocity.y, velocity.z);
    s.agg.body.setLinearVelocity(vel);
    s.agg.body.setAngularVelocity(zero);
    refired.push(s.agg.body);
  };

  return {
    // A scene with its own time step (the car's 1/500 s): HavokPlugin is built with useDeltaForWorldStep =
    // false and takes the plugin's time step; ContinuumPlugin (true) takes the delta.
    step: () => physics._step(spec.timeStep ?? DT),
    query,
    poseOf,
    xOf: (i) => slots[i].mesh.position.x,
    setBullet,
    afterStep: () => {
      for (let k = 0; k < refired.length; k++) refired[k].disablePreStep = true;
      refired.length = 0;
    },
    dispose: () => {
      scene.dispose();
      engine.dispose();
    },
  };
}

// ---------------------------------------------------------------------------------------------------------
// Raw engine scene (continuum-engine)

/** `settings`: more World settings (bench/threads-ab.mjs passes `threads`). */
export function buildWorldScene(C, spec, sleeping, settings = {}) {
  const { World, Box, Sphere, Capsule, Cylinder, ConvexHull, TriangleMesh, MotionType, ContinuousDetection, JointAxis, AxisMode } = C;
  const world = new World({ gravity: { x: 0, y: -9.81, z: 0 }, sleepingEnabled: sleeping, ...settings });
  if (spec.velocityLimits) world.setVelocityLimits(spec.velocityLimits[0], spec.velocityLimits[1]);
  const handles = [];
  for (const b of spec.bodies) {
    let shape;
    switch (b.kind) {
      case "box":
        shape = new Box(b.hx, b.hy, b.hz);
        break;
      case "sphere":
        shape = new Sphere(b.radius);
        break;
      case "capsule":
        shape = new Capsule(b.radius, b.halfLength);
        break;
      case "cylinder":
        shape = new Cylinder(b.radius, b.halfHeight);
        break;
      case "hull":
        shape = new ConvexHull(b.points);
        break;
      case "mesh":
        shape = new TriangleMesh(b.positions, b.indices);
        break;
      default:
        throw new Error(`unknown body kind ${b.kind}`);
    }
    const h = world.createBody({
      motionType: b.dynamic ? MotionType.Dynamic : MotionType.Static,
      position: { ...b.position },
      ...(b.orientation ? { orientation: { ...b.orientation } } : {}),
      ...(b.linearVelocity ? { linearVelocity: { ...b.linearVelocity } } : {}),
      collidable: {
        shape,
        material: { friction: b.friction, ...(b.restitution ? { restitution: b.restitution } : {}) },
        ...(b.continuous ? { continuity: ContinuousDetection.continuous() } : {}),
      },
      // The body's mass (default 1) like the Babylon scenes' PhysicsAggregate({ mass }); inertia follows from the shape.
      // Angular damping 0.1: the Babylon bodies' default (Havok's, which the plugin mirrors), so the engine
      // rows simulate the same motion as the Babylon rows.
      ...(b.dynamic ? { massProperties: { mass: b.mass ?? 1 }, angularDamping: 0.1 } : {}),
    });
    handles.push(h);
  }
  const lin = [JointAxis.LinearX, JointAxis.LinearY, JointAxis.LinearZ];
  for (const j of spec.joints ?? []) {
    const locked = j.type === "hinge" ? [...lin, JointAxis.AngularY, JointAxis.AngularZ] : lin;
    world.createJoint({
      bodyA: handles[j.a],
      bodyB: handles[j.b],
      pivotA: { ...j.pivotA },
      pivotB: { ...j.pivotB },
      axisA: { ...(j.axisA ?? { x: 1, y: 0, z: 0 }) },
      axisB: { ...(j.axisB ?? { x: 1, y: 0, z: 0 }) },
      axes: locked.map((axis) => ({ axis, mode: AxisMode.Locked })),
    });
  }

  const p = { x: 0, y: 0, z: 0 },
    q = { x: 0, y: 0, z: 0, w: 1 };
  const poseOf = (i, out) => {
    world.getPosition(handles[i], p);
    world.getOrientation(handles[i], q);
    out.x = p.x;
    out.y = p.y;
    out.z = p.z;
    out.qx = q.x;
    out.qy = q.y;
    out.qz = q.z;
    out.qw = q.w;
    return out;
  };

  let query = null;
  if (spec.rays) {
    const { count, from, to } = spec.rays;
    const origins = [],
      dirs = [],
      lens = new Float64Array(count);
    for (let i = 0; i < count; i++) {
      const dx = to[3 * i] - from[3 * i],
        dy = to[3 * i + 1] - from[3 * i + 1],
        dz = to[3 * i + 2] - from[3 * i + 2];
      const len = Math.hypot(dx, dy, dz);
      origins.push({ x: from[3 * i], y: from[3 * i + 1], z: from[3 * i + 2] });
      dirs.push({ x: dx / len, y: dy / len, z: dz / len });
      lens[i] = len;
    }
    const filter = {};
    const out = new C.RayResult();
    const stats = { hits: 0, distance: 0 };
    if (spec.rays.sphereRadius) {
      const sphere = new C.Sphere(spec.rays.sphereRadius);
      const q = { x: 0, y: 0, z: 0, w: 1 };
      const ends = [];
      for (let i = 0; i < count; i++) ends.push({ x: to[3 * i], y: to[3 * i + 1], z: to[3 * i + 2] });
      const results = [new C.ShapeCastResult()];
      query = () => {
        let hits = 0,
          dist = 0;
        for (let i = 0; i < count; i++) {
          if (world.queries.shapeCast(sphere, q, origins[i], ends[i], filter, results, false) > 0) {
            hits++;
            dist += results[0].fraction * lens[i];
          }
        }
        stats.hits = hits;
        stats.distance = dist;
        return stats;
      };
    } else
    query = () => {
      let hits = 0,
        dist = 0;
      for (let i = 0; i < count; i++) {
        if (world.raycast(origins[i], dirs[i], lens[i], filter, out)) {
          hits++;
          dist += out.distance;
        }
      }
      stats.hits = hits;
      stats.distance = dist;
      return stats;
    };
  }

  const idQ = { x: 0, y: 0, z: 0, w: 1 },
    zero = { x: 0, y: 0, z: 0 };
  return {
    world,
    step: () => world.step(DT),
    query,
    poseOf,
    xOf: (i) => world.getPosition(handles[i], p).x,
    setBullet: (i, start, velocity) => {
      world.setPose(handles[i], start, idQ);
      world.setLinearVelocity(handles[i], velocity);
      world.setAngularVelocity(handles[i], zero);
    },
    afterStep: () => {},
    dispose: () => world.dispose?.(),
  };
}

// ---------------------------------------------------------------------------------------------------------

function quantile(sorted, q) {
  if (sorted.length === 0) return NaN;
  const pos = (sorted.length - 1) * q;
  const lo = Math.floor(pos);
  const hi = Math.ceil(pos);
  return sorted[lo] + (sorted[hi] - sorted[lo]) * (pos - lo);
}

/** Milliseconds spent in World.step during the current measured step (continuum-plugin rows). */
let innerMs = 0;

/**
 * The plugin's own cost per step, from the same steps: median engine step (World.step inside executeStep),
 * median of (whole step - engine step), and their ratio.
 */
function pluginOverhead(times, inner) {
  const n = times.length;
  const rest = new Float64Array(n);
  for (let i = 0; i < n; i++) rest[i] = times[i] - inner[i];
  const engineMedianMs = quantile(Float64Array.from(inner).sort(), 0.5);
  const overheadMedianMs = quantile(rest.sort(), 0.5);
  return { engineInPluginMedianMs: engineMedianMs, pluginOwnMedianMs: overheadMedianMs, pluginOwnShare: overheadMedianMs / engineMedianMs };
}

/** Sanity check of the final state: where the dynamic bodies are, non-finite poses, joint pivot gaps. */
function sanity(sim, spec) {
  const out = {};
  let n = 0,
    min = Infinity,
    max = -Infinity,
    sum = 0,
    fallen = 0,
    offEdge = 0,
    nonFinite = 0;
  const poses = new Array(spec.bodies.length);
  for (let i = 0; i < spec.bodies.length; i++) {
    const pose = sim.poseOf(i, {});
    poses[i] = pose;
    if (!spec.bodies[i].dynamic) continue;
    if (![pose.x, pose.y, pose.z, pose.qx, pose.qy, pose.qz, pose.qw].every(Number.isFinite)) {
      nonFinite++;
      continue;
    }
    n++;
    // Below the ground: through it (inside the 200 x 200 m ground's footprint) or off its edge (a body that
    // rolled or slid 100 m away: spheres roll without resistance, so a fast one can leave in a long run).
    if (pose.y < -1) {
      if (Math.abs(pose.x) > 100 || Math.abs(pose.z) > 100) offEdge++;
      else fallen++;
    }
    if (pose.y < min) min = pose.y;
    if (pose.y > max) max = pose.y;
    sum += pose.y;
  }
  if (n + nonFinite > 0) Object.assign(out, { dynamic: n + nonFinite, minY: min, meanY: sum / n, maxY: max, fallen, offEdge, nonFinite });
  if (spec.joints?.length) {
    let gapMax = 0,
      gapSum = 0;
    for (const j of spec.joints) {
      const a = poses[j.a],
        b = poses[j.b];
      const wa = rotate({ x: a.qx, y: a.qy, z: a.qz, w: a.qw }, j.pivotA);
      const wb = rotate({ x: b.qx, y: b.qy, z: b.qz, w: b.qw }, j.pivotB);
      const gap = Math.hypot(a.x + wa.x - b.x - wb.x, a.y + wa.y - b.y - wb.y, a.z + wa.z - b.z - wb.z);
      gapSum += gap;
      if (!(gap <= gapMax)) gapMax = gap;
    }
    out.jointGapMax = gapMax;
    out.jointGapMean = gapSum / spec.joints.length;
  }
  return out;
}

function parseArgs(argv) {
  const pos = [];
  let cpuProf = null,
    heapProf = null,
    threads = 1;
  for (const a of argv) {
    if (a.startsWith("--threads=")) threads = Number(a.slice("--threads=".length));
    else if (a.startsWith("--cpu-prof=")) cpuProf = a.slice("--cpu-prof=".length);
    else if (a.startsWith("--heap-prof=")) heapProf = a.slice("--heap-prof=".length);
    else pos.push(a);
  }
  return { pos, cpuProf, heapProf, threads };
}

async function main() {
  const { pos, cpuProf, heapProf, threads } = parseArgs(process.argv.slice(2));
  const [engine, sceneName, sleepArg, warmupArg, stepsArg] = pos;
  const base = { engine, scene: sceneName, sleep: sleepArg };
  if (!ENGINES.includes(engine) || !SCENES[sceneName] || !sceneSleepModes(sceneName).includes(sleepArg)) {
    emit({
      ...base,
      status: "failed",
      reason: `usage: scene-runner.mjs <${ENGINES.join("|")}> <${Object.keys(SCENES).join("|")}> <${SCENES[sceneName] ? sceneSleepModes(sceneName).join("|") : "on|off"}> [warmup] [steps]`,
    });
    process.exitCode = 2;
    return;
  }
  const def = SCENES[sceneName];
  const warmup = Number(warmupArg ?? def.warmup ?? 120);
  const steps = Number(stepsArg ?? def.steps ?? 1000);
  if (typeof globalThis.gc !== "function") {
    emit({ ...base, status: "failed", reason: "run with node --expose-gc" });
    process.exitCode = 2;
    return;
  }
  const sleeping = sleepArg !== "off";
  const spec = def.build();
  const isRaycast = def.kind === "raycast";
  const loadStart = os.loadavg()[0];

  let sim;
  try {
    if (engine === "havok") {
      const BABYLON = await loadBabylon();
      sim = buildBabylonScene(BABYLON, await makeHavokPlugin(BABYLON), spec, sleeping, { engine });
    } else if (engine === "continuum-plugin") {
      const C = await loadContinuum();
      need(C, ["ContinuumPlugin", "ContinuousDetection"]);
      const BABYLON = await loadBabylon();
      let plugin;
      try {
        plugin = threads > 1 ? new C.ContinuumPlugin(true, { threads }) : new C.ContinuumPlugin();
      } catch (e) {
        throw new Unavailable(`new ContinuumPlugin() threw: ${e?.message ?? e}`);
      }
      // The workers start in the background (the step runs on one thread until they listen): wait for them, so
      // the warm-up and the measured steps run on the threads asked for.
      const until = Date.now() + 20_000;
      while (plugin.threads !== threads && Date.now() < until) await new Promise((r) => setTimeout(r, 10));
      if (plugin.threads !== threads) throw new Unavailable(`threads ${threads} asked, ${plugin.threads} ready: ${plugin.world.threadsMessage}`);
      sim = buildBabylonScene(BABYLON, plugin, spec, sleeping, { engine, C });
      // Time the engine's own step inside the plugin's: the rest of executeStep (prestep, transform sync,
      // collision observables) is the plugin's overhead, measured in the same process and the same steps.
      const world = plugin.world;
      const engineStep = world.step;
      world.step = function timedStep(dt) {
        const s0 = performance.now();
        engineStep.call(world, dt);
        innerMs += performance.now() - s0;
      };
    } else {
      const C = await loadContinuum();
      need(C, ["World", "Box", "Sphere", "Capsule", "Cylinder", "ConvexHull", "TriangleMesh", "MotionType", "ContinuousDetection", "JointAxis", "AxisMode", "RayResult"]);
      sim = buildWorldScene(C, spec, sleeping);
    }
  } catch (e) {
    if (e instanceof Unavailable) emit({ ...base, status: "unavailable", reason: e.message });
    else emit({ ...base, status: "failed", reason: `scene setup threw: ${e?.stack ?? e}` });
    return;
  }

  // Bullets: re-fire schedule and tunnel count (untimed hooks around each timed step).
  const bullets = spec.bullets;
  let stepIndex = 0;
  let shots = 0,
    tunnels = 0;
  const tunnelled = bullets ? new Uint8Array(bullets.list.length) : null;
  const before = bullets
    ? () => {
        const phase = stepIndex % bullets.period;
        for (let k = phase; k < bullets.list.length; k += bullets.period) {
          const b = bullets.list[k];
          sim.setBullet(b.index, b.start, b.velocity);
          tunnelled[k] = 0;
          shots++;
        }
      }
    : null;
  const after = bullets
    ? () => {
        sim.afterStep();
        for (let k = 0; k < bullets.list.length; k++) {
          const b = bullets.list[k];
          if (!tunnelled[k] && !(sim.xOf(b.index) <= b.beyond)) {
            tunnelled[k] = 1;
            tunnels++;
          }
        }
        stepIndex++;
      }
    : null;
  const op = isRaycast ? sim.query : sim.step;

  let profiler = null;
  try {
    if (isRaycast) sim.step(); // one simulation step so that every engine has built its broad phase
    for (let i = 0; i < warmup; i++) {
      if (before) before();
      op();
      if (after) after();
    }
    const warmShots = shots,
      warmTunnels = tunnels;

    if (cpuProf || heapProf) {
      const inspector = await import("node:inspector/promises");
      profiler = new inspector.Session();
      profiler.connect();
      if (cpuProf) {
        await profiler.post("Profiler.enable");
        await profiler.post("Profiler.setSamplingInterval", { interval: 200 });
      }
    }
    globalThis.gc();
    globalThis.gc();
    // A marker between warm-up and measurement, for V8 traces (--trace-deopt) of the measured steps.
    if (process.env.BENCH_MARK) process.stdout.write("BENCH_MEASURE_START\n");
    const gcEntries = [];
    const obs = new PerformanceObserver((list) => gcEntries.push(...list.getEntries()));
    obs.observe({ entryTypes: ["gc"] });
    if (cpuProf) await profiler.post("Profiler.start");
    // Allocation sampling (every 512 bytes on average), counting objects that the GC collects too: where the
    // measured steps allocate, for bench/profile.mjs --alloc.
    if (heapProf)
      await profiler.post("HeapProfiler.startSampling", {
        samplingInterval: 512,
        includeObjectsCollectedByMajorGC: true,
        includeObjectsCollectedByMinorGC: true,
      });
    const heapBefore = process.memoryUsage().heapUsed;
    const times = new Float64Array(steps);
    // continuum-plugin: the engine step's share of each measured step (see timedStep).
    const inner = new Float64Array(steps);
    // CPU time of this process per step (user + system, all threads: includes GC helper threads), which
    // other work on the machine inflates much less than wall time.
    const cpu = new Float64Array(steps);
    const t0 = performance.now();
    for (let i = 0; i < steps; i++) {
      if (before) before();
      const c = process.cpuUsage();
      const s = performance.now();
      innerMs = 0;
      op();
      times[i] = performance.now() - s;
      inner[i] = innerMs;
      const c2 = process.cpuUsage(c);
      cpu[i] = (c2.user + c2.system) / 1000;
      if (after) after();
    }
    const t1 = performance.now();
    const heapAfter = process.memoryUsage().heapUsed;
    if (cpuProf) {
      const { profile } = await profiler.post("Profiler.stop");
      fs.mkdirSync(path.dirname(path.resolve(cpuProf)), { recursive: true });
      fs.writeFileSync(cpuProf, JSON.stringify(profile));
    }
    if (heapProf) {
      const { profile } = await profiler.post("HeapProfiler.stopSampling");
      fs.mkdirSync(path.dirname(path.resolve(heapProf)), { recursive: true });
      fs.writeFileSync(heapProf, JSON.stringify(profile));
    }
    if (profiler) profiler.disconnect();
    // Let the observer deliver the GC entries of the measured loop before anything else runs.
    await new Promise((r) => setTimeout(r, 100));
    gcEntries.push(...obs.takeRecords());
    obs.disconnect();
    globalThis.gc();
    const heapRetained = process.memoryUsage().heapUsed;

    const inWindow = gcEntries.filter((e) => e.startTime >= t0 && e.startTime <= t1);
    const sorted = Array.from(times).sort((a, b) => a - b);
    const cpuSorted = Array.from(cpu).sort((a, b) => a - b);
    let cpuSum = 0;
    for (const t of cpu) cpuSum += t;
    let sum = 0;
    for (const t of times) sum += t;
    const check = sanity(sim, spec);
    if (bullets) Object.assign(check, { shots: shots - warmShots, tunnels: tunnels - warmTunnels, warmupShots: warmShots, warmupTunnels: warmTunnels });
    if (isRaycast) {
      const s = sim.query();
      Object.assign(check, { rays: spec.rays.count, rayHits: s.hits, rayMeanDistance: s.distance / s.hits });
    }
    if (sim.world?.stats && def.solverCost) Object.assign(check, solverPassCost(sim));
    if (sim.world?.stats) {
      const st = sim.world.stats;
      check.engineStats = { pairs: st.pairs, manifolds: st.manifolds, contacts: st.contacts, sweeps: st.sweeps, toiChecks: st.toiChecks, toiEvents: st.toiEvents, awake: st.awakeBodies };
    }
    emit({
      ...base,
      status: "ok",
      bodies: spec.bodies.length,
      joints: spec.joints?.length ?? 0,
      warmup,
      steps,
      load1: loadStart,
      medianMs: quantile(sorted, 0.5),
      p95Ms: quantile(sorted, 0.95),
      meanMs: sum / steps,
      cpuMedianMs: quantile(cpuSorted, 0.5),
      cpuMeanMs: cpuSum / steps,
      maxMs: sorted[sorted.length - 1],
      totalMs: t1 - t0,
      gcCount: inWindow.length,
      gcMs: inWindow.reduce((a, e) => a + e.duration, 0),
      heapGrowthBytes: heapAfter - heapBefore,
      heapRetainedBytes: heapRetained - heapBefore,
      ...(engine === "continuum-plugin" && !isRaycast ? pluginOverhead(times, inner) : {}),
      final: check,
    });
  } catch (e) {
    emit({ ...base, status: "failed", reason: `stepping threw: ${e?.stack ?? e}` });
  }
  try {
    sim.dispose();
  } catch {
    /* ignore */
  }
}

/**
 * Cost of the contact solver per contact point and pass (stacking scenes), measured after the timed steps so the
 * wrappers cannot touch the measured numbers: 100 more steps with the solver's warm start, biased pass (`solve`)
 * and relax pass (`relax`) each timed, divided by (contact points x substeps). The solver is the world's private `solver` field.
 */
function solverPassCost(sim) {
  const world = sim.world;
  const solver = world.solver;
  if (!solver || typeof solver.solve !== "function") return {};
  // Substeps counted as relax passes: a world without joints runs `contactSubsteps`, not `substeps`.
  const t = { warm: 0, biased: 0, relax: 0, passes: 0 };
  const warm = solver.warmStart,
    solve = solver.solve,
    relax = solver.relax;
  solver.warmStart = function timedWarm(b) {
    const s = performance.now();
    warm.call(this, b);
    t.warm += performance.now() - s;
  };
  solver.solve = function timedSolve(b, h) {
    const s = performance.now();
    solve.call(this, b, h);
    t.biased += performance.now() - s;
  };
  solver.relax = function timedRelax(b, h) {
    const s = performance.now();
    relax.call(this, b, h);
    t.relax += performance.now() - s;
    t.passes++;
  };
  // Per-step sums, then the median step of each (a step the machine preempted does not move it).
  const n = 100;
  const per = { warm: [], biased: [], relax: [] };
  for (let i = 0; i < n; i++) {
    t.warm = t.biased = t.relax = t.passes = 0;
    sim.step();
    const points = world.stats.contacts * t.passes;
    for (const k of ["warm", "biased", "relax"]) per[k].push((1e6 * t[k]) / points);
  }
  delete solver.warmStart;
  delete solver.solve;
  delete solver.relax;
  const ns = (a) => a.sort((x, y) => x - y)[a.length >> 1];
  return { solverNsWarm: ns(per.warm), solverNsBiased: ns(per.biased), solverNsRelax: ns(per.relax) };
}

// Run as a script (not when bench/snapshot.mjs imports the scene builder).
if (process.argv[1] && pathToFileURL(path.resolve(process.argv[1])).href === import.meta.url) await main();
