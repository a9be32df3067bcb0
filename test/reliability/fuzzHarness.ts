/**
 * The plugin fuzzer behind fuzz.test.ts: seeded random sequences of ContinuumPlugin calls through Babylon
 * (bodies of every shape type, thin instances, shapes, containers, constraints, setters with valid and invalid
 * values, steps, queries, and disposal from inside collision / trigger / before- and after-physics observers).
 *
 * A sequence runs on a small shared scene (a static ground and a few template meshes) and disposes everything it
 * created at its end, so the next sequence finds the scene as it was. Each operation is classified:
 * - a *validation error* is a TypeError / RangeError whose message starts with `method: <argument>` where
 *   <argument> is one of the plugin's argument names (or an option path below one) -- accepted;
 * - anything else thrown is a failure ("uncaught non-validation error");
 * - an operation given a value that is invalid for sure must throw a validation error and leave the world as it
 *   was (state hash, body and joint counts); otherwise it is a failure.
 * After every step (1/60 s through Babylon, sometimes 0.5 s through executeStep): every live body's pose and
 * linear and angular velocity, as the plugin reports them (nodes, thin-instance matrices, velocity getters;
 * static and animated bodies included), are finite, and the plugin's records, the live Babylon bodies and
 * `world.bodyCount` agree.
 */
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
import type { World } from "../../src/world/world";

// ------------------------------------------------------------------ rng

export class Rng {
  private s: number;
  constructor(seed: number) {
    this.s = (seed * 0x9e3779b9) >>> 0 || 1;
  }
  next(): number {
    // mulberry32
    let t = (this.s = (this.s + 0x6d2b79f5) >>> 0);
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }
  int(n: number): number {
    return Math.floor(this.next() * n);
  }
  range(a: number, b: number): number {
    return a + (b - a) * this.next();
  }
  chance(p: number): boolean {
    return this.next() < p;
  }
  pick<T>(a: readonly T[]): T {
    return a[this.int(a.length)];
  }
}

// ------------------------------------------------------------------ error classification

/** Argument names of the plugin's public methods (and option roots) a validation message may name. */
const ARG_NAMES = new Set(
  (
    "body childBody shape newChild constraint instanceIndex childInstanceIndex motionType position orientation options type " +
    "massProps damping factor linVel angVel impulse location angularImpulse force torque rotation translation scale childIndex " +
    "material density membershipMask collideMask isTrigger eventMask controlMode enabled isEnabled axis limitMode minLimit limit " +
    "motorType target maxForce friction delta from to result query gravity timeStep maxLinearVelocity maxAngularVelocity " +
    "maxQueryCollectorHits detection mesh limits"
  ).split(" "),
);

/** `method: argument...` with a known argument name (`options.extents`, `limits[0].axis`, `constraint.type`...). */
export function isValidationError(e: unknown): boolean {
  if (!(e instanceof TypeError || e instanceof RangeError)) return false;
  const m = /^(\w+): ([A-Za-z]+)/.exec(e.message);
  if (!m) return false;
  if (/internal error|is not a live body|joint handle/.test(e.message)) return false;
  return ARG_NAMES.has(m[2]);
}

/**
 * Engine bugs reported to the lead (not the plugin's to fix; see the issue-10 report). A sequence that hits one
 * stops (the step threw midway) and is counted under `known`, not as a failure; delete the entry once fixed.
 */
export const KNOWN_ENGINE_BUGS: { id: string; match: RegExp }[] = [];

// ------------------------------------------------------------------ the shared scene

export interface FuzzScene {
  engine: NullEngine;
  scene: Scene;
  plugin: ContinuumPlugin;
  world(): World;
  templates: { box: Mesh; sphere: Mesh; ground: Mesh; collinear: Mesh; flat: Mesh; empty: Mesh; zeroArea: Mesh };
  groundBody: PhysicsBody;
  /** The sequence running now (observers act on it). */
  current: Sequence | null;
  dispose(): void;
}

function customMesh(name: string, scene: Scene, positions: number[], indices: number[] | null): Mesh {
  const m = new Mesh(name, scene);
  if (positions.length > 0) {
    const vd = new VertexData();
    vd.positions = positions;
    if (indices) vd.indices = indices;
    vd.applyToMesh(m);
  }
  m.setEnabled(false);
  return m;
}

export function makeFuzzScene(): FuzzScene {
  const engine = new NullEngine();
  engine.getCaps().instancedArrays = true;
  const scene = new Scene(engine);
  const plugin = new ContinuumPlugin(true);
  scene.enablePhysics(new Vector3(0, -9.81, 0), plugin);
  const box = MeshBuilder.CreateBox("tplBox", { size: 0.5 }, scene);
  const sphere = MeshBuilder.CreateSphere("tplSphere", { diameter: 0.6, segments: 3 }, scene);
  const ground = MeshBuilder.CreateGround("tplGround", { width: 4, height: 4, subdivisions: 3 }, scene);
  for (const m of [box, sphere, ground]) m.setEnabled(false);
  const collinear = customMesh("collinear", scene, [0, 0, 0, 1, 1, 1, 2, 2, 2, 3, 3, 3], [0, 1, 2, 1, 2, 3]);
  const flat = customMesh("flat", scene, [0, 0, 0, 1, 0, 0, 0, 0, 1, 1, 0, 1], [0, 1, 2, 1, 3, 2]);
  const zeroArea = customMesh("zeroArea", scene, [0, 0, 0, 1, 0, 0, 2, 0, 0, 0, 1, 0], [0, 1, 2, 3, 3, 3]);
  const empty = customMesh("empty", scene, [], null);
  const gNode = new TransformNode("groundNode", scene);
  gNode.position.y = -0.5;
  const groundBody = new PhysicsBody(gNode, 0, false, scene);
  groundBody.shape = new PhysicsShape({ type: 3, parameters: { extents: new Vector3(20, 1, 20) } }, scene);
  const fs: FuzzScene = {
    engine,
    scene,
    plugin,
    world: () => plugin.world,
    templates: { box, sphere, ground, collinear, flat, empty, zeroArea },
    groundBody,
    current: null,
    dispose() {
      scene.dispose();
      engine.dispose();
    },
  };
  // Observers that act on the running sequence (dispose / create things mid-step).
  const act = (where: string) => () => fs.current?.observerAction(where);
  plugin.onCollisionObservable.add(act("onCollision"));
  plugin.onCollisionEndedObservable.add(act("onCollisionEnded"));
  plugin.onTriggerCollisionObservable.add(act("onTrigger"));
  scene.onBeforePhysicsObservable.add(act("onBeforePhysics"));
  scene.onAfterPhysicsObservable.add(act("onAfterPhysics"));
  return fs;
}

// ------------------------------------------------------------------ a sequence

export interface Failure {
  seed: number;
  op: number;
  what: string;
  error: string;
}

const BAD_NUMBERS = [NaN, Infinity, -Infinity];
const SHAPE_TYPES = [0, 1, 2, 3, 4, 5, 6, 7];
const CONSTRAINT_TYPES = [1, 2, 3, 4, 5, 6, 7];

interface Thing<T> {
  obj: T;
  disposed: boolean;
}

/** Marker: an operation given a value that is certainly invalid. */
class Bad {
  constructor(readonly what: string) {}
}

export class Sequence {
  readonly rng: Rng;
  readonly bodies: Thing<PhysicsBody>[] = [];
  readonly shapes: Thing<PhysicsShape>[] = [];
  readonly constraints: Thing<PhysicsConstraint>[] = [];
  readonly nodes: TransformNode[] = [];
  readonly failures: Failure[] = [];
  /** Hits of {@link KNOWN_ENGINE_BUGS}. */
  readonly known: Failure[] = [];
  readonly log: string[] = [];
  /** Bodies the world's non-finite guard put back to rest over the sequence (World step stats). */
  nonFiniteResets = 0;
  private opIndex = 0;
  /** Chance that an observer call does something. */
  private observerRate: number;
  private inObserver = 0;
  verbose = false;
  /** Operations of the wide fuzz only (fuzzWide.test.ts); off, the seeds' streams are those of fuzz.test.ts. */
  wide = false;

  constructor(
    readonly fs: FuzzScene,
    readonly seed: number,
  ) {
    this.rng = new Rng(seed);
    this.observerRate = this.rng.chance(0.5) ? 0.3 : 0.02;
  }

  private get plugin(): ContinuumPlugin {
    return this.fs.plugin;
  }

  // ---------------------------------------------------------------- helpers

  private fail(what: string, error: unknown): void {
    const known = error instanceof Error ? KNOWN_ENGINE_BUGS.find((k) => k.match.test(error.message)) : undefined;
    if (known) {
      this.known.push({ seed: this.seed, op: this.opIndex, what, error: known.id });
      return;
    }
    const msg = error instanceof Error ? `${error.name}: ${error.message}\n${(error.stack ?? "").split("\n").slice(1, 6).join("\n")}` : String(error);
    this.failures.push({ seed: this.seed, op: this.opIndex, what, error: msg });
  }

  /**
   * Runs one operation; `bad` marks a certainly-invalid input (must throw a validation error, world unchanged).
   * Returns the operation's result, or undefined when it threw.
   */
  private run<T>(what: string, f: () => T, bad: Bad | null = null): T | undefined {
    this.opIndex++;
    if (this.verbose) this.log.push(`#${this.opIndex} ${what}${bad ? ` [bad: ${bad.what}]` : ""}`);
    const w = this.fs.world();
    const before = bad ? `${w.stateHash()}/${w.bodyCount}/${w.joints.count}` : "";
    try {
      const r = f();
      if (bad) this.fail(`${what} [bad: ${bad.what}]`, new Error("accepted an invalid input without throwing"));
      return r;
    } catch (e) {
      if (!isValidationError(e)) {
        this.fail(what, e);
        return undefined;
      }
      if (bad) {
        const w2 = this.fs.world();
        const after = `${w2.stateHash()}/${w2.bodyCount}/${w2.joints.count}`;
        if (after !== before) this.fail(`${what} [bad: ${bad.what}]`, new Error(`the world changed on a validation error: ${before} -> ${after} (${(e as Error).message})`));
      }
      return undefined;
    }
  }

  private num(valid: () => number): { v: number; bad: Bad | null } {
    if (this.rng.chance(0.12)) {
      const v = this.rng.pick(BAD_NUMBERS);
      return { v, bad: new Bad(String(v)) };
    }
    return { v: valid(), bad: null };
  }

  private vec(scale: number, badRate = 0.1): { v: Vector3; bad: Bad | null } {
    const r = this.rng;
    const v = new Vector3(r.range(-scale, scale), r.range(-scale, scale), r.range(-scale, scale));
    if (r.chance(badRate)) {
      const k = r.pick(["x", "y", "z"] as const);
      v[k] = r.pick(BAD_NUMBERS);
      return { v, bad: new Bad(`vector ${v.toString()}`) };
    }
    return { v, bad: null };
  }

  private quat(): { q: Quaternion; bad: Bad | null } {
    const r = this.rng;
    if (r.chance(0.08)) return { q: new Quaternion(0, 0, 0, 0), bad: new Bad("zero quaternion") };
    if (r.chance(0.05)) return { q: new Quaternion(NaN, 0, 0, 1), bad: new Bad("NaN quaternion") };
    const q = new Quaternion(r.range(-1, 1), r.range(-1, 1), r.range(-1, 1), r.range(-1, 1));
    if (q.lengthSquared() < 1e-6) q.set(0, 0, 0, 1);
    return { q, bad: null };
  }

  private liveBodies(): Thing<PhysicsBody>[] {
    return this.bodies.filter((b) => !b.disposed && !b.obj.isDisposed);
  }

  private anyBody(): Thing<PhysicsBody> | undefined {
    // Mostly live bodies, sometimes disposed ones (use after dispose).
    const live = this.liveBodies();
    if (live.length === 0 || this.rng.chance(0.06)) return this.bodies.length > 0 ? this.rng.pick(this.bodies) : undefined;
    return this.rng.pick(live);
  }

  private isLive(b: Thing<PhysicsBody>): boolean {
    return !b.disposed && !b.obj.isDisposed;
  }

  /** An instance index: undefined, valid, or out of range (then `bad` when the body is instanced). */
  private instanceIndex(b: PhysicsBody): { i: number | undefined; bad: Bad | null } {
    const n = b._pluginDataInstances?.length ?? 0;
    const r = this.rng;
    const x = r.next();
    if (x < 0.6) return { i: undefined, bad: null };
    if (x < 0.85 || n === 0) return { i: n > 0 ? r.int(n) : 0, bad: null };
    const i = r.pick([-1, n, n + 5, 0.5, NaN]);
    return { i, bad: new Bad(`instanceIndex ${i} of ${n}`) };
  }

  private liveShape(): Thing<PhysicsShape> | undefined {
    const live = this.shapes.filter((s) => !s.disposed);
    if (live.length === 0 || this.rng.chance(0.06)) return this.shapes.length > 0 ? this.rng.pick(this.shapes) : undefined;
    return this.rng.pick(live);
  }

  // ---------------------------------------------------------------- creation

  /** A shape of a random type with valid or invalid parameters (undefined when creation threw). */
  createShape(depth = 0): Thing<PhysicsShape> | undefined {
    const r = this.rng;
    const fs = this.fs;
    const t = fs.templates;
    let type = r.pick(SHAPE_TYPES);
    let bad: Bad | null = null;
    const p: Record<string, unknown> = {};
    if (r.chance(0.03)) {
      type = r.pick([-1, 8, 2.5, NaN]);
      bad = new Bad(`shape type ${type}`);
    }
    switch (type) {
      case 0: {
        const n = this.num(() => r.range(0.1, 0.6));
        p.radius = n.v;
        bad ??= n.bad;
        if (!bad && r.chance(0.05)) {
          p.radius = -0.3;
          bad = new Bad("negative radius");
        }
        if (r.chance(0.3)) {
          const c = this.vec(0.3);
          p.center = c.v;
          bad ??= c.bad;
        }
        break;
      }
      case 1:
      case 2: {
        const a = this.vec(0.4, 0.05),
          b = this.vec(0.4, 0.05);
        p.pointA = a.v;
        p.pointB = b.v;
        bad ??= a.bad ?? b.bad;
        const n = this.num(() => r.range(0.05, 0.4));
        p.radius = n.v;
        bad ??= n.bad;
        if (!bad && r.chance(0.05)) {
          p.radius = r.pick([0, -1]);
          bad = new Bad(`radius ${p.radius}`);
        }
        if (!bad && type === 2 && r.chance(0.05)) {
          p.pointB = (p.pointA as Vector3).clone();
          bad = new Bad("cylinder with pointA = pointB");
        }
        break;
      }
      case 3: {
        const e = new Vector3(r.range(0.1, 1), r.range(0.1, 1), r.range(0.1, 1));
        if (r.chance(0.1)) {
          // One zero extent is a valid flat box (a BOX aggregate of CreateGround); two zeros are not.
          const axis = r.pick(["x", "y", "z"] as const);
          const v = r.pick([0, -0.5, NaN, Infinity]);
          e[axis] = v;
          if (v === 0) e[axis === "x" ? "y" : "x"] = 0;
          bad ??= new Bad(`extents ${e.toString()}`);
        }
        p.extents = e;
        if (r.chance(0.3)) {
          const q = this.quat();
          p.rotation = q.q;
          bad ??= q.bad;
        }
        break;
      }
      case 4: {
        const x = r.next();
        // Flat and collinear meshes make a thin slab and a thin capsule (README: flat convex hulls).
        if (x < 0.75) p.mesh = r.pick([t.box, t.sphere, t.flat, t.collinear]);
        else {
          p.mesh = r.pick([t.empty, null, 42]);
          bad ??= new Bad(`hull of ${(p.mesh as Mesh | null)?.name ?? p.mesh}`);
        }
        break;
      }
      case 6: {
        const x = r.next();
        if (x < 0.75) p.mesh = r.pick([t.box, t.ground, t.sphere]);
        else {
          p.mesh = r.pick([t.zeroArea, t.empty, t.collinear, undefined]);
          bad ??= new Bad(`mesh of ${(p.mesh as Mesh | undefined)?.name ?? p.mesh}`);
        }
        break;
      }
      case 7: {
        if (r.chance(0.3)) {
          p.groundMesh = t.ground;
          break;
        }
        const nx = 2 + r.int(3),
          nz = 2 + r.int(3);
        const data = new Float32Array(nx * nz);
        for (let i = 0; i < data.length; i++) data[i] = r.range(-0.2, 0.2);
        p.heightFieldSizeX = r.range(1, 5);
        p.heightFieldSizeZ = r.range(1, 5);
        p.numHeightFieldSamplesX = nx;
        p.numHeightFieldSamplesZ = nz;
        p.heightFieldData = data;
        if (r.chance(0.15)) {
          const which = r.int(5);
          if (which === 0) p.heightFieldSizeX = r.pick([0, -2, NaN, Infinity]);
          else if (which === 1) p.numHeightFieldSamplesZ = r.pick([1, 0, 2.5, -3]);
          else if (which === 2) p.heightFieldData = new Float32Array(1);
          else if (which === 3) data[r.int(data.length)] = r.pick([Infinity, -Infinity]);
          else data.fill(NaN); // every cell a hole
          bad ??= new Bad(`heightfield option ${which}`);
        }
        break;
      }
      case 5:
        break;
    }
    const shape = this.run(`createShape(${type}, ${describe(p)})`, () => new PhysicsShape({ type: type as never, parameters: p as never }, fs.scene), bad);
    if (!shape) return undefined;
    const th = { obj: shape, disposed: false };
    this.shapes.push(th);
    if (type === 5 && depth < 2) {
      const n = r.int(4);
      for (let i = 0; i < n; i++) this.addChild(th, depth);
    }
    return th;
  }

  private addChild(container: Thing<PhysicsShape>, depth: number): void {
    const r = this.rng;
    const child = r.chance(0.5) ? this.createShape(depth + 1) : this.liveShape();
    if (!child) return;
    const tr = this.vec(0.5, 0.05);
    const q = r.chance(0.5) ? this.quat() : { q: undefined, bad: null };
    let sc: Vector3 | undefined;
    let scBad: Bad | null = null;
    if (r.chance(0.3)) {
      sc = new Vector3(r.range(0.5, 2), r.range(0.5, 2), r.range(0.5, 2));
      if (r.chance(0.2)) {
        sc.y = r.pick([0, NaN]);
        scBad = new Bad(`scale ${sc.toString()}`);
      }
    }
    let bad = tr.bad ?? q.bad ?? scBad;
    if (container.disposed || (container.obj as unknown as { _isDisposed: boolean })._isDisposed) bad ??= new Bad("disposed container");
    else if (child.disposed) bad ??= new Bad("disposed child");
    this.run(`addChild(${container.obj.type}, ${child.obj.type})`, () => this.plugin.addChild(container.obj, child.obj, tr.v, q.q, sc), bad);
  }

  createBody(): Thing<PhysicsBody> | undefined {
    const r = this.rng;
    const fs = this.fs;
    let bad: Bad | null = null;
    let motion: number = r.pick([0, 1, 2, 2, 2]);
    if (r.chance(0.03)) {
      motion = r.pick([3, -1, NaN, 1.5]);
      bad = new Bad(`motionType ${motion}`);
    }
    let node: TransformNode;
    const instanced = r.chance(0.12);
    if (instanced) {
      const m = fs.templates.box.clone("inst", null, true, false)!;
      m.setEnabled(true);
      const n = 1 + r.int(3);
      for (let i = 0; i < n; i++) m.thinInstanceAdd(Matrix.Translation(r.range(-3, 3), r.range(0.5, 4), r.range(-3, 3)), i === n - 1);
      if (r.chance(0.05)) {
        m._thinInstanceDataStorage.matrixData![13] = NaN;
        bad ??= new Bad("NaN thin-instance matrix");
      }
      node = m;
    } else {
      node = new TransformNode("n", fs.scene);
      node.position.set(r.range(-3, 3), r.range(0.3, 4), r.range(-3, 3));
      if (r.chance(0.03)) {
        node.position.y = r.pick(BAD_NUMBERS);
        bad ??= new Bad(`position ${node.position.toString()}`);
      }
      node.rotationQuaternion = Quaternion.RotationYawPitchRoll(r.range(-3, 3), r.range(-3, 3), r.range(-3, 3));
    }
    this.nodes.push(node);
    const body = this.run(`createBody(motion ${motion}${instanced ? ", instanced" : ""})`, () => new PhysicsBody(node, motion as never, r.chance(0.1), fs.scene), bad);
    if (!body) return undefined;
    const th = { obj: body, disposed: false };
    this.bodies.push(th);
    if (r.chance(0.85)) {
      const s = r.chance(0.6) ? this.createShape() : this.liveShape();
      if (s) this.run(`setShape(${s.obj.type})`, () => this.plugin.setShape(body, s.obj), s.disposed ? new Bad("disposed shape") : null);
    }
    if (r.chance(0.3)) this.run("setCollisionCallbackEnabled", () => this.plugin.setCollisionCallbackEnabled(body, true));
    if (r.chance(0.1)) this.run("setCollisionEndedCallbackEnabled", () => this.plugin.setCollisionEndedCallbackEnabled(body, true));
    return th;
  }

  private disposeBody(b: Thing<PhysicsBody>): void {
    const r = this.rng;
    this.run("disposeBody", () => {
      if (r.chance(0.2)) b.obj.transformNode.dispose();
      else b.obj.dispose();
    });
    b.disposed = true;
  }

  createConstraint(): void {
    const r = this.rng;
    const live = this.liveBodies();
    if (live.length < 1) return;
    const a = r.pick(live),
      b = r.chance(0.05) ? a : r.pick(live);
    let bad: Bad | null = a === b ? new Bad("same body twice") : null;
    let type = r.pick(CONSTRAINT_TYPES);
    const opts: Record<string, unknown> = {};
    if (r.chance(0.5)) {
      const v = this.vec(0.5, 0.04);
      opts.pivotA = v.v;
      bad ??= v.bad;
    }
    if (r.chance(0.5)) {
      const v = this.vec(0.5, 0.04);
      opts.pivotB = v.v;
      bad ??= v.bad;
    }
    if (r.chance(0.4)) {
      const v = this.vec(1, 0.04);
      if (v.v.lengthSquared() < 1e-6) v.v.set(1, 0, 0);
      if (!v.bad && r.chance(0.04)) {
        v.v.set(0, 0, 0);
        bad ??= new Bad("zero axisA");
      }
      opts.axisA = v.v;
      bad ??= v.bad;
    }
    if (type === 2) {
      // Zero-length distance constraints (and, with pivots left out, pivots at the body origins) included.
      const n = this.num(() => (r.chance(0.3) ? 0 : r.range(0, 2)));
      opts.maxDistance = n.v;
      bad ??= n.bad;
    }
    const limits: { axis: number; minLimit?: number; maxLimit?: number; stiffness?: number; damping?: number }[] = [];
    if (type === 7) {
      const n = r.int(4);
      for (let i = 0; i < n; i++) {
        let axis = r.int(7);
        if (r.chance(0.05)) {
          axis = r.pick([7, -1, 0.5]);
          bad ??= new Bad(`limit axis ${axis}`);
        }
        const l: (typeof limits)[number] = { axis };
        if (r.chance(0.7)) l.minLimit = r.range(-1, 0);
        if (r.chance(0.7)) l.maxLimit = r.range(0, 1);
        if (r.chance(0.05)) {
          l.minLimit = NaN;
          bad ??= new Bad("NaN minLimit");
        }
        if (r.chance(0.2)) l.stiffness = r.range(1, 100);
        if (r.chance(0.2)) l.damping = r.range(0, 10);
        if (r.chance(0.04)) {
          l.stiffness = -5;
          bad ??= new Bad("negative stiffness");
        }
        limits.push(l);
      }
    }
    if (r.chance(0.02)) {
      type = r.pick([0, 8, 99]);
      bad ??= new Bad(`constraint type ${type}`);
    }
    const ia = this.instanceIndex(a.obj),
      ib = this.instanceIndex(b.obj);
    const instA = (a.obj._pluginDataInstances?.length ?? 0) > 0,
      instB = (b.obj._pluginDataInstances?.length ?? 0) > 0;
    if (instA && ia.bad) bad ??= ia.bad;
    if (instB && ib.bad) bad ??= ib.bad;
    if (a === b && (instA || instB)) bad = null; // two instances of one body may be different bodies
    // An instanced body with no index: Havok warns and creates nothing (not an error).
    if ((instA && ia.i === undefined) || (instB && ib.i === undefined)) bad = null;
    const c =
      type === 7
        ? new Physics6DoFConstraint(opts, limits as never, this.fs.scene)
        : new PhysicsConstraint(type as never, opts as never, this.fs.scene);
    const th = { obj: c, disposed: false };
    this.constraints.push(th);
    this.run(`addConstraint(type ${type}, ${describe(opts)}, limits ${JSON.stringify(limits)}, ${ia.i}, ${ib.i})`, () => a.obj.addConstraint(b.obj, c, ia.i, ib.i), bad);
  }

  // ---------------------------------------------------------------- setters

  private bodySetter(): void {
    const r = this.rng;
    const p = this.plugin;
    const bt = this.anyBody();
    if (!bt) return;
    const b = bt.obj;
    const ii = this.instanceIndex(b);
    const instanced = (b._pluginDataInstances?.length ?? 0) > 0;
    let bad: Bad | null = this.isLive(bt) ? (instanced ? ii.bad : null) : new Bad("disposed body");
    const k = r.int(24);
    const vec = (s: number) => {
      const v = this.vec(s);
      bad ??= v.bad;
      return v.v;
    };
    const num = (f: () => number) => {
      const n = this.num(f);
      bad ??= n.bad;
      return n.v;
    };
    const i = ii.i;
    switch (k) {
      case 0: {
        let m: number = r.pick([0, 1, 2]);
        if (r.chance(0.1)) {
          m = r.pick([3, -1, NaN]);
          bad ??= new Bad(`motionType ${m}`);
        }
        this.run(`setMotionType(${m}, ${i})`, () => p.setMotionType(b, m as never, i), bad);
        break;
      }
      case 1: {
        const v = vec(8);
        this.run(`setLinearVelocity(${v}, ${i})`, () => p.setLinearVelocity(b, v, i), bad);
        break;
      }
      case 2: {
        const v = vec(8);
        this.run(`setAngularVelocity(${v}, ${i})`, () => p.setAngularVelocity(b, v, i), bad);
        break;
      }
      case 3: {
        const v = vec(5),
          l = vec(3);
        this.run(`applyImpulse(${v}, ${l}, ${i})`, () => p.applyImpulse(b, v, l, i), bad);
        break;
      }
      case 4: {
        const v = vec(5);
        this.run(`applyAngularImpulse(${v}, ${i})`, () => p.applyAngularImpulse(b, v, i), bad);
        break;
      }
      case 5: {
        const v = vec(100),
          l = vec(3);
        this.run(`applyForce(${v}, ${l}, ${i})`, () => p.applyForce(b, v, l, i), bad);
        break;
      }
      case 6: {
        const v = vec(100);
        this.run(`applyTorque(${v}, ${i})`, () => p.applyTorque(b, v, i), bad);
        break;
      }
      case 7: {
        let d = num(() => r.range(0, 2));
        if (!bad && r.chance(0.08)) {
          d = -0.5;
          bad = new Bad("negative damping");
        }
        const ang = r.chance(0.5);
        this.run(`set${ang ? "Angular" : "Linear"}Damping(${d}, ${i})`, () => (ang ? p.setAngularDamping(b, d, i) : p.setLinearDamping(b, d, i)), bad);
        break;
      }
      case 8: {
        const f = num(() => r.range(-1, 2));
        this.run(`setGravityFactor(${f}, ${i})`, () => p.setGravityFactor(b, f, i), bad);
        break;
      }
      case 9: {
        const mp: Record<string, unknown> = {};
        if (r.chance(0.6)) {
          // Infinite (0) and tiny masses, then ordinary ones, on the same bodies over a sequence.
          mp.mass = num(() => r.pick([0, 0, r.range(1e-9, 1e-3), r.range(0, 5), r.range(0, 5)]));
          if (!bad && r.chance(0.08)) {
            mp.mass = -1;
            bad = new Bad("negative mass");
          }
        }
        if (r.chance(0.3)) mp.centerOfMass = vec(0.2);
        if (r.chance(0.3)) {
          const v = new Vector3(r.range(0, 1), r.range(0, 1), r.range(0, 1));
          if (r.chance(0.3)) v[r.pick(["x", "y", "z"] as const)] = r.pick([0, 1e-9]);
          if (r.chance(0.1)) {
            v.x = -1;
            bad ??= new Bad("negative inertia");
          }
          mp.inertia = v;
        }
        if (r.chance(0.2)) {
          const q = this.quat();
          mp.inertiaOrientation = q.q;
          bad ??= q.bad;
        }
        this.run(`setMassProperties(${describe(mp)}, ${i})`, () => p.setMassProperties(b, mp as never, i), bad);
        break;
      }
      case 10: {
        const pos = vec(3);
        const q = this.quat();
        bad ??= q.bad;
        this.run(`setTargetTransform(${pos}, ${q.q}, ${i})`, () => p.setTargetTransform(b, pos, q.q, i), bad);
        break;
      }
      case 11: {
        let m: number = r.pick([0, 1, 2]);
        if (r.chance(0.1)) {
          m = r.pick([3, -1, NaN]);
          bad ??= new Bad(`controlMode ${m}`);
        }
        this.run(`setActivationControl(${m}, ${i})`, () => p.setActivationControl(b, m, i), bad);
        break;
      }
      case 12: {
        let m = r.int(8);
        if (r.chance(0.05)) {
          m = NaN;
          bad ??= new Bad("NaN event mask");
        }
        this.run(`setEventMask(${m}, ${i})`, () => p.setEventMask(b, m, i), bad);
        break;
      }
      case 13: {
        const s = r.chance(0.7) ? this.liveShape() : this.createShape();
        if (!s && !r.chance(0.3)) return;
        if (s?.disposed) bad ??= new Bad("disposed shape");
        if (!this.isLive(bt)) bad ??= new Bad("disposed body");
        this.run(`setShape(${s?.obj.type ?? null})`, () => p.setShape(b, s ? s.obj : null), this.isLive(bt) ? (s?.disposed ? bad : null) : bad);
        break;
      }
      case 14: {
        const v = r.chance(0.5);
        this.run(`setCollisionCallbackEnabled(${v}, ${i})`, () => p.setCollisionCallbackEnabled(b, v, i), bad);
        break;
      }
      case 15: {
        // Getters: must not throw on a live body (a disposed one is a validation error).
        const g = r.int(10);
        const out = new Vector3();
        const calls: (() => unknown)[] = [
          () => p.getMotionType(b, i),
          () => p.getMassProperties(b, i),
          () => p.computeMassProperties(b, i),
          () => p.getLinearDamping(b, i),
          () => p.getGravityFactor(b, i),
          () => p.getLinearVelocityToRef(b, out, i),
          () => p.getAngularVelocityToRef(b, out, i),
          () => p.getBodyBoundingBox(b),
          () => p.getBodyGeometry(b),
          () => p.getEventMask(b, i),
        ];
        // getBodyBoundingBox / getBodyGeometry take no instance index.
        this.run(`getter ${g}(${i})`, calls[g], g === 7 || g === 8 ? (this.isLive(bt) ? null : bad) : bad);
        break;
      }
      case 16: {
        // Teleport through the node (the prestep reads it).
        if (!this.isLive(bt)) return;
        const n = b.transformNode;
        if ((b._pluginDataInstances?.length ?? 0) > 0) return;
        this.run("teleport", () => {
          b.setPrestepType(1);
          n.position.set(r.range(-3, 3), r.range(0.3, 4), r.range(-3, 3));
        });
        if (this.wide) {
          // The wide fuzz also turns the node, sometimes to a pose no body can take (the prestep must keep
          // the body and the step go on), and leaves the prestep on for the steps that follow.
          const q = this.quat();
          const euler = r.chance(0.2);
          this.run(`teleport rotation ${euler ? "euler" : q.q}`, () => {
            if (euler) {
              n.rotationQuaternion = null;
              n.rotation.set(r.range(-3, 3), r.range(-3, 3), r.range(-3, 3));
            } else n.rotationQuaternion = q.q;
          });
        }
        break;
      }
      case 17: {
        if (!this.isLive(bt) || !instanced) return;
        const m = b.transformNode as Mesh;
        this.run("updateBodyInstances", () => {
          if (r.chance(0.5) || m.thinInstanceCount <= 1) m.thinInstanceAdd(Matrix.Translation(r.range(-3, 3), r.range(0.5, 4), r.range(-3, 3)));
          else m.thinInstanceCount = m.thinInstanceCount - 1;
          b.updateBodyInstances();
        });
        break;
      }
      case 18: {
        const d = { mode: r.pick([0, 1, 2]), minimumSweepTimestep: 0, sweepConvergenceThreshold: 0.01 };
        if (r.chance(0.1)) {
          d.mode = 7;
          bad ??= new Bad("bad continuity mode");
        }
        this.run(`setContinuousDetection(${d.mode}, ${i})`, () => p.setContinuousDetection(b, d as never, i), bad);
        break;
      }
      case 19: {
        const ended = r.chance(0.5);
        this.run(`get${ended ? "CollisionEnded" : "Collision"}Observable(${i})`, () => (ended ? p.getCollisionEndedObservable(b, i) : p.getCollisionObservable(b, i)), bad);
        break;
      }
      default: {
        // Extreme values that are valid: huge velocities and forces (the step must stay finite).
        const v = new Vector3(r.pick([1e6, -1e9, 1e30]), r.range(-1e5, 1e5), 0);
        const which = r.int(3);
        this.run(
          `extreme ${which} ${v}`,
          () => (which === 0 ? p.setLinearVelocity(b, v, i) : which === 1 ? p.applyImpulse(b, v, Vector3.Zero(), i) : p.applyAngularImpulse(b, v, i)),
          this.isLive(bt) ? (instanced ? ii.bad : null) : bad,
        );
      }
    }
  }

  private shapeSetter(): void {
    const r = this.rng;
    const p = this.plugin;
    const st = this.liveShape();
    if (!st) return;
    const s = st.obj;
    let bad: Bad | null = st.disposed ? new Bad("disposed shape") : null;
    const k = r.int(10);
    switch (k) {
      case 0: {
        const m: Record<string, unknown> = { friction: r.range(0, 1), restitution: r.range(0, 1) };
        if (r.chance(0.15)) {
          const f = r.pick(["friction", "restitution", "staticFriction", "frictionCombine"]);
          m[f] = f === "frictionCombine" ? r.pick([5, -1, 1.5]) : r.pick([-1, NaN, Infinity]);
          bad ??= new Bad(`material.${f} ${m[f]}`);
        }
        this.run(`setMaterial(${describe(m)})`, () => p.setMaterial(s, m as never), bad);
        break;
      }
      case 1: {
        let d = r.range(0, 3000);
        if (r.chance(0.15)) {
          d = r.pick([-1, NaN, Infinity]);
          bad ??= new Bad(`density ${d}`);
        }
        this.run(`setDensity(${d})`, () => p.setDensity(s, d), bad);
        break;
      }
      case 2: {
        let m = r.int(16) - 1;
        if (r.chance(0.1)) {
          m = NaN;
          bad ??= new Bad("NaN mask");
        }
        const which = r.chance(0.5);
        this.run(`setShapeFilter${which ? "Membership" : "Collide"}Mask(${m})`, () => (which ? p.setShapeFilterMembershipMask(s, m) : p.setShapeFilterCollideMask(s, m)), bad);
        break;
      }
      case 3: {
        const t = r.chance(0.5);
        this.run(`setTrigger(${t})`, () => p.setTrigger(s, t), bad);
        break;
      }
      case 4: {
        if (s.type !== 5) {
          if (!st.disposed) bad ??= new Bad("addChild on a non-container");
          const c = this.liveShape();
          if (c) this.run("addChild(non-container)", () => p.addChild(s, c.obj), bad ?? (c.disposed ? new Bad("disposed child") : null));
        } else this.addChild(st, 1);
        break;
      }
      case 5: {
        const n = st.disposed ? 0 : p.getNumChildren(s);
        let i = n > 0 ? r.int(n) : 0;
        if (s.type !== 5 || n === 0 || r.chance(0.1)) {
          if (r.chance(0.5) && n > 0) i = r.pick([-1, n, 0.5]);
          if (!(Number.isInteger(i) && i >= 0 && i < n) || s.type !== 5) bad ??= new Bad(`childIndex ${i} of ${n}`);
        }
        this.run(`removeChild(${i} of ${n})`, () => p.removeChild(s, i), bad);
        break;
      }
      case 6:
        this.run("getBoundingBox", () => p.getBoundingBox(s), bad);
        break;
      case 7:
        this.run("getShapeType", () => p.getShapeType(s));
        break;
      case 8:
        this.run("disposeShape", () => s.dispose());
        st.disposed = true;
        break;
      default:
        this.run("getMaterial/density", () => (p.getMaterial(s), p.getDensity(s)), bad);
    }
  }

  private constraintSetter(): void {
    const r = this.rng;
    const p = this.plugin;
    if (this.constraints.length === 0) return;
    const ct = r.pick(this.constraints);
    const c = ct.obj;
    let axis = r.int(7);
    let bad: Bad | null = null;
    if (r.chance(0.06)) {
      axis = r.pick([7, -1, 0.5, NaN]);
      bad = new Bad(`axis ${axis}`);
    }
    const added = Array.isArray(c._pluginData);
    const k = r.int(11);
    // Setters on a constraint never added: a plain Error in the plugin (Havok crashes); skip those.
    if (!added && k < 8) return;
    const num = (f: () => number, badVals: number[]) => {
      if (r.chance(0.1)) {
        const v = r.pick(badVals);
        bad ??= new Bad(`value ${v}`);
        return v;
      }
      return f();
    };
    switch (k) {
      case 0: {
        let m = r.int(3);
        if (r.chance(0.08)) {
          m = r.pick([3, -1]);
          bad ??= new Bad(`limitMode ${m}`);
        }
        this.run(`setAxisMode(${axis}, ${m})`, () => p.setAxisMode(c, axis as never, m as never), bad);
        break;
      }
      case 1: {
        const v = num(() => r.range(-1, 0), [NaN]);
        this.run(`setAxisMinLimit(${axis}, ${v})`, () => p.setAxisMinLimit(c, axis as never, v), bad);
        break;
      }
      case 2: {
        const v = num(() => r.range(0, 1), [NaN]);
        this.run(`setAxisMaxLimit(${axis}, ${v})`, () => p.setAxisMaxLimit(c, axis as never, v), bad);
        break;
      }
      case 3: {
        const v = num(() => r.range(0, 10), [NaN, -1, Infinity]);
        this.run(`setAxisFriction(${axis}, ${v})`, () => p.setAxisFriction(c, axis as never, v), bad);
        break;
      }
      case 4: {
        let m = r.int(3);
        if (r.chance(0.08)) {
          m = r.pick([3, -1]);
          bad ??= new Bad(`motorType ${m}`);
        }
        this.run(`setAxisMotorType(${axis}, ${m})`, () => p.setAxisMotorType(c, axis as never, m as never), bad);
        break;
      }
      case 5: {
        const v = num(() => r.range(-2, 2), [NaN, Infinity]);
        this.run(`setAxisMotorTarget(${axis}, ${v})`, () => p.setAxisMotorTarget(c, axis as never, v), bad);
        break;
      }
      case 6: {
        const v = num(() => r.range(0, 100), [NaN, -1]);
        this.run(`setAxisMotorMaxForce(${axis}, ${v})`, () => p.setAxisMotorMaxForce(c, axis as never, v), bad);
        break;
      }
      case 7: {
        const e = r.chance(0.5);
        if (r.chance(0.5)) this.run(`setEnabled(${e})`, () => p.setEnabled(c, e));
        else this.run(`setCollisionsEnabled(${e})`, () => p.setCollisionsEnabled(c, e));
        break;
      }
      case 8: {
        const g = r.int(6);
        const calls = [
          () => p.getAxisMode(c, axis as never),
          () => p.getAxisMinLimit(c, axis as never),
          () => p.getAxisFriction(c, axis as never),
          () => p.getAxisMotorType(c, axis as never),
          () => p.getAxisMotorTarget(c, axis as never),
          () => p.getAxisMotorMaxForce(c, axis as never),
        ];
        this.run(`constraint getter ${g}(${axis})`, calls[g], bad);
        break;
      }
      case 9:
        this.run("getBodiesUsingConstraint/getEnabled", () => (p.getBodiesUsingConstraint(c), p.getEnabled(c), p.getCollisionsEnabled(c)));
        break;
      default:
        this.run("disposeConstraint", () => c.dispose());
        ct.disposed = true;
    }
  }

  private query(): void {
    const r = this.rng;
    const p = this.plugin;
    const k = r.int(4);
    if (k === 0 || k === 1) {
      const from = this.vec(5, 0.05),
        to = this.vec(5, 0.05);
      const bad = from.bad ?? to.bad;
      const res = k === 0 ? new PhysicsRaycastResult() : [];
      const ign = r.chance(0.2) ? this.anyBody()?.obj : undefined;
      this.run(`raycast(${from.v}, ${to.v})`, () => p.raycast(from.v, to.v, res, { shouldHitTriggers: r.chance(0.5), ignoreBody: ign }), bad);
    } else if (k === 2) {
      const pos = this.vec(4, 0.05);
      let md = r.range(0, 3);
      let bad = pos.bad;
      if (r.chance(0.05)) {
        md = NaN;
        bad ??= new Bad("NaN maxDistance");
      }
      this.run(`pointProximity(${pos.v}, ${md})`, () => p.pointProximity({ position: pos.v, maxDistance: md, collisionFilter: {}, shouldHitTriggers: false } as never, new ProximityCastResult()), bad);
    } else {
      const s = this.liveShape();
      if (!s) return;
      const a = this.vec(4, 0.05),
        b = this.vec(4, 0.05);
      const q = this.quat();
      const bad = s.disposed ? new Bad("disposed query shape") : (a.bad ?? b.bad ?? q.bad);
      this.run(`shapeCast(${s.obj.type}, ${a.v}, ${b.v})`, () => p.shapeCast({ shape: s.obj, startPosition: a.v, endPosition: b.v, rotation: q.q, shouldHitTriggers: false } as never, new ShapeCastResult(), new ShapeCastResult()), bad);
    }
  }

  // ---------------------------------------------------------------- observers

  /** Called from the scene's observers: sometimes disposes or creates something (mid-step re-entrancy). */
  observerAction(where: string): void {
    if (this.inObserver > 0 || !this.rng.chance(this.observerRate)) return;
    this.inObserver++;
    try {
      const k = this.rng.int(6);
      const what = `[${where}] `;
      if (k === 0) {
        const b = this.liveBodies();
        if (b.length > 0) {
          const t = this.rng.pick(b);
          this.run(`${what}disposeBody`, () => t.obj.dispose());
          t.disposed = true;
        }
      } else if (k === 1) {
        const s = this.shapes.filter((x) => !x.disposed);
        if (s.length > 0) {
          const t = this.rng.pick(s);
          this.run(`${what}disposeShape`, () => t.obj.dispose());
          t.disposed = true;
        }
      } else if (k === 2) {
        const c = this.constraints.filter((x) => !x.disposed);
        if (c.length > 0) {
          const t = this.rng.pick(c);
          this.run(`${what}disposeConstraint`, () => t.obj.dispose());
          t.disposed = true;
        }
      } else if (k === 3) {
        this.createBody();
      } else if (k === 4) {
        this.createConstraint();
      } else this.bodySetter();
    } finally {
      this.inObserver--;
    }
  }

  // ---------------------------------------------------------------- checks

  /** Live Babylon bodies' engine records vs the plugin's records vs the world's count; finite poses. */
  check(where: string): void {
    const p = this.plugin;
    const w = p.world;
    const records = (p as unknown as { _records: Map<number, { handle: number }> })._records;
    let expected = 1; // the ground
    for (const b of this.bodies) {
      if (b.obj.isDisposed) continue;
      const inst = b.obj._pluginDataInstances?.length ?? 0;
      expected += inst > 0 ? inst : b.obj._pluginData ? 1 : 0;
    }
    if (records.size !== w.bodyCount || expected !== w.bodyCount || p.numBodies !== w.bodyCount) {
      this.fail(where, new Error(`body counts differ: live Babylon bodies ${expected}, plugin records ${records.size}, world.bodyCount ${w.bodyCount}`));
    }
    const pos = { x: 0, y: 0, z: 0 },
      q = { x: 0, y: 0, z: 0, w: 0 };
    for (const h of w.getBodyHandles(this.handles)) {
      w.getPosition(h, pos);
      w.getOrientation(h, q);
      if (!(Number.isFinite(pos.x) && Number.isFinite(pos.y) && Number.isFinite(pos.z) && Number.isFinite(q.x) && Number.isFinite(q.y) && Number.isFinite(q.z) && Number.isFinite(q.w))) {
        this.fail(where, new Error(`body ${h} has a non-finite pose (${pos.x}, ${pos.y}, ${pos.z}) (${q.x}, ${q.y}, ${q.z}, ${q.w})`));
        return;
      }
    }
    // What a user reads back through the plugin, for every live body and instance, static and animated ones
    // included: pose (node or thin-instance matrix) and linear and angular velocity must be finite.
    const v = this.scratchV;
    for (const b of this.bodies) {
      if (b.obj.isDisposed || !b.obj._pluginData) continue;
      const n = b.obj.transformNode;
      const rq = n.rotationQuaternion;
      if (!Number.isFinite(n.position.x + n.position.y + n.position.z) || (rq && !Number.isFinite(rq.x + rq.y + rq.z + rq.w))) {
        this.fail(where, new Error(`a live body's node has a non-finite pose ${n.position} ${rq}`));
        return;
      }
      const inst = b.obj._pluginDataInstances?.length ?? 0;
      const matrices = inst > 0 ? (n as Mesh)._thinInstanceDataStorage?.matrixData : null;
      if (matrices) {
        for (let k = 0; k < inst * 16; k++) {
          if (!Number.isFinite(matrices[k])) {
            this.fail(where, new Error(`thin instance ${k >> 4} has a non-finite matrix element ${matrices[k]}`));
            return;
          }
        }
      }
      for (let k = 0; k < Math.max(inst, 1); k++) {
        const idx = inst > 0 ? k : undefined;
        for (const ang of [false, true]) {
          if (ang) p.getAngularVelocityToRef(b.obj, v, idx);
          else p.getLinearVelocityToRef(b.obj, v, idx);
          if (!Number.isFinite(v.x) || !Number.isFinite(v.y) || !Number.isFinite(v.z)) {
            const mt = p.getMotionType(b.obj, idx);
            this.fail(where, new Error(`body (motion type ${mt}, instance ${idx}) reports a non-finite ${ang ? "angular" : "linear"} velocity ${v}`));
            return;
          }
        }
      }
    }
  }
  private readonly scratchV = new Vector3();
  private readonly handles: number[] = [];

  private step(): void {
    this.opIndex++;
    // Babylon clamps a frame's delta to 0.1 s; a 0.5 s step reaches the plugin through executeStep (as with
    // a fixed time step of 0.5 s).
    const long = this.rng.chance(0.1);
    if (this.verbose) this.log.push(`#${this.opIndex} step${long ? " 0.5 s" : ""}`);
    try {
      if (long) {
        const pe = this.fs.scene.getPhysicsEngine() as unknown as { getBodies(): PhysicsBody[] };
        this.plugin.executeStep(0.5, pe.getBodies());
      } else (this.fs.scene as unknown as { _advancePhysicsEngineStep(ms: number): void })._advancePhysicsEngineStep(1000 / 60);
    } catch (e) {
      this.fail("step", e);
      return;
    }
    this.nonFiniteResets += this.fs.world().stats.nonFiniteBodies;
    this.check("after step");
  }

  // ---------------------------------------------------------------- the sequence

  /** Runs `ops` random operations, then disposes everything it made and checks the scene is back to its start. */
  runOps(ops: number): void {
    const r = this.rng;
    this.fs.current = this;
    try {
      for (let n = 0; n < ops && this.failures.length + this.known.length === 0; n++) {
        const x = r.next();
        if (x < 0.22) this.createBody();
        else if (x < 0.3) this.createShape();
        else if (x < 0.38) this.createConstraint();
        else if (x < 0.55) this.bodySetter();
        else if (x < 0.64) this.shapeSetter();
        else if (x < 0.71) this.constraintSetter();
        else if (x < 0.76) this.query();
        else if (x < 0.8) {
          const b = this.anyBody();
          if (b) this.disposeBody(b);
        } else this.step();
      }
      if (this.failures.length + this.known.length === 0) this.step();
    } finally {
      this.fs.current = null;
      this.cleanup();
    }
  }

  private cleanup(): void {
    const p = this.plugin;
    try {
      for (const c of this.constraints) c.obj.dispose();
      for (const b of this.bodies) b.obj.dispose();
      for (const s of this.shapes) s.obj.dispose();
      for (const n of this.nodes) n.dispose();
    } catch (e) {
      this.fail("cleanup", e);
      return;
    }
    const w = p.world;
    if (w.bodyCount !== 1 || w.joints.count !== 0) {
      this.fail("cleanup", new Error(`after disposing everything: world.bodyCount ${w.bodyCount} (want 1), joints ${w.joints.count} (want 0)`));
    }
  }
}

function describe(o: Record<string, unknown>): string {
  const parts: string[] = [];
  for (const [k, v] of Object.entries(o)) {
    let s: string;
    if (v instanceof Vector3 || v instanceof Quaternion) s = v.toString();
    else if (v instanceof Float32Array) s = `Float32Array(${v.length})`;
    else if (v && typeof v === "object" && "name" in v) s = `mesh "${(v as { name: string }).name}"`;
    else s = String(v);
    parts.push(`${k}: ${s}`);
  }
  return `{${parts.join(", ")}}`;
}

// ------------------------------------------------------------------ batches

export interface FuzzOptions {
  /** Operations per sequence. */
  ops: number;
  /** Sequences per shared scene. */
  perScene: number;
  verbose?: boolean;
  /** The wide fuzz's extra operations (see {@link Sequence.wide}). */
  wide?: boolean;
}

/** Runs the seeds [from, to) and returns the failures (a failing sequence gets a fresh scene afterwards). */
export function runSeeds(
  seeds: number[],
  opts: FuzzOptions,
): { failures: Failure[]; known: Failure[]; logs: Map<number, string[]>; nonFiniteResets: number } {
  const prevLevel = Logger.LogLevels;
  Logger.LogLevels = Logger.NoneLogLevel;
  const failures: Failure[] = [];
  const known: Failure[] = [];
  const logs = new Map<number, string[]>();
  let nonFiniteResets = 0;
  let fs: FuzzScene | null = null;
  let used = 0;
  try {
    for (const seed of seeds) {
      if (!fs || used >= opts.perScene) {
        fs?.dispose();
        fs = makeFuzzScene();
        used = 0;
      }
      used++;
      const seq = new Sequence(fs, seed);
      seq.verbose = !!opts.verbose;
      seq.wide = !!opts.wide;
      try {
        seq.runOps(opts.ops);
      } catch (e) {
        seq.failures.push({ seed, op: -1, what: "harness", error: String((e as Error)?.stack ?? e) });
      }
      if (opts.verbose) logs.set(seed, seq.log);
      nonFiniteResets += seq.nonFiniteResets;
      known.push(...seq.known);
      if (seq.failures.length + seq.known.length > 0) {
        failures.push(...seq.failures);
        fs.dispose();
        fs = null;
      }
    }
  } finally {
    fs?.dispose();
    Logger.LogLevels = prevLevel;
  }
  return { failures, known, logs, nonFiniteResets };
}
