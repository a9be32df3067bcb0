/**
 * A Babylon glTF loader extension for `KHR_physics_rigid_bodies` and `KHR_implicit_shapes` (the Khronos
 * physics extensions, as the public Blender exporter writes them): it builds the file's physics through
 * Babylon's Physics V2 API, so it works with ContinuumPlugin and with HavokPlugin.
 *
 * After the scene's nodes are loaded it creates, in this order:
 * - a body per node with `motion` (DYNAMIC, or ANIMATED when `isKinematic`), with its initial linear and
 *   angular velocity (node space) and gravity factor; a kinematic body whose node (or an ancestor) the file's
 *   animations move follows the node (prestep ACTION: moved to the node's pose by velocity every step);
 * - a shape per `collider` and per `trigger`, from its `geometry`: an implicit shape (sphere, box, capsule,
 *   cylinder, plane; tapered capsules and cylinders as convex hulls) or a mesh (`geometry.node`, or the older
 *   `geometry.mesh`), as a MESH or, with `convexHull`, a CONVEX_HULL. Each shape goes into a container on the
 *   body of the nearest node with `motion` at or above it, at the node's transform relative to that body; a
 *   collider or trigger with no such node gets a STATIC body of its own. The shape carries its material
 *   (`staticFriction`, `dynamicFriction`, `restitution` and the combine modes), its collision filter (each
 *   system name is one bit: `collisionSystems` the membership mask, `collideWithSystems` the collide mask, or
 *   `notCollideWithSystems` its complement) and, for triggers, `isTrigger`. A compound trigger (a `trigger` with
 *   `nodes` instead of a geometry) puts the listed nodes' trigger shapes into its own node's body (its filter
 *   applies to those without one), so their overlaps are reported as one trigger body's events;
 * - mass properties: computed from the shapes, then overridden by the file's `mass`, `centerOfMass`,
 *   `inertiaDiagonal` and `inertiaOrientation` (a 0 mass or inertia stays 0: the engine's "infinite");
 * - a 6-DoF constraint per `joint`, between the bodies of the joint node and its `connectedNode` (a STATIC
 *   body when there is none), with the joint description's limits (1-D linear and angular limits per axis, a
 *   3-D linear limit as LINEAR_DISTANCE, stiffness and damping) and drives: `type`, `mode` (force or
 *   acceleration), `axis`, `positionTarget`, `velocityTarget`, `stiffness`, `damping` and `maxForce`. Drives
 *   are set through the plugin's `_hknp` joint calls, which HavokPlugin and ContinuumPlugin both have.
 *
 * Defaults for a material's missing fields follow the public glTF_Physics_Babylon loader, which the sample
 * assets were tuned with: friction 0.5, restitution 0, frictionCombine "maximum", restitutionCombine
 * "minimum". In a left-handed scene (Babylon's default) the file's right-handed frames arrive mirrored; joint
 * frames and linear limits and drives are converted as that loader does.
 */
import { Matrix, Quaternion, Vector3 } from "@babylonjs/core/Maths/math.vector.js";
import { Mesh } from "@babylonjs/core/Meshes/mesh.js";
import { VertexData } from "@babylonjs/core/Meshes/mesh.vertexData.js";
import { TransformNode } from "@babylonjs/core/Meshes/transformNode.js";
import { Logger } from "@babylonjs/core/Misc/logger.js";
import { PhysicsConstraintAxis, PhysicsMotionType, PhysicsPrestepType, PhysicsShapeType, type PhysicsMassProperties } from "@babylonjs/core/Physics/v2/IPhysicsEnginePlugin.js";
import { PhysicsBody } from "@babylonjs/core/Physics/v2/physicsBody.js";
import { Physics6DoFConstraint, type Physics6DoFLimit } from "@babylonjs/core/Physics/v2/physicsConstraint.js";
import type { PhysicsMaterial } from "@babylonjs/core/Physics/v2/physicsMaterial.js";
import {
  PhysicsShape,
  PhysicsShapeBox,
  PhysicsShapeCapsule,
  PhysicsShapeContainer,
  PhysicsShapeConvexHull,
  PhysicsShapeCylinder,
  PhysicsShapeSphere,
} from "@babylonjs/core/Physics/v2/physicsShape.js";
import type { Scene } from "@babylonjs/core/scene.js";
import type { GLTFLoader } from "@babylonjs/loaders/glTF/2.0/glTFLoader.js";
import type { IGLTFLoaderExtension } from "@babylonjs/loaders/glTF/2.0/glTFLoaderExtension.js";
import type { INode, IScene } from "@babylonjs/loaders/glTF/2.0/glTFLoaderInterfaces.js";

/** The extension names. */
export const KHR_PHYSICS_RIGID_BODIES = "KHR_physics_rigid_bodies";
export const KHR_IMPLICIT_SHAPES = "KHR_implicit_shapes";

// ---------------------------------------------------------------- the file's JSON

interface ImplicitShape {
  type?: string;
  sphere?: { radius?: number };
  box?: { size?: number[] };
  capsule?: { height?: number; radiusTop?: number; radiusBottom?: number };
  cylinder?: { height?: number; radiusTop?: number; radiusBottom?: number };
  plane?: { sizeX?: number; sizeZ?: number; doubleSided?: boolean };
}
interface Geometry {
  shape?: number;
  node?: number;
  /** An earlier revision's mesh reference. */
  mesh?: number;
  convexHull?: boolean;
}
interface Motion {
  isKinematic?: boolean;
  mass?: number;
  centerOfMass?: number[];
  inertiaDiagonal?: number[];
  inertiaOrientation?: number[];
  linearVelocity?: number[];
  angularVelocity?: number[];
  gravityFactor?: number;
}
interface Collider {
  geometry?: Geometry;
  physicsMaterial?: number;
  collisionFilter?: number;
}
interface Trigger {
  geometry?: Geometry;
  nodes?: number[];
  collisionFilter?: number;
}
interface JointRef {
  connectedNode?: number;
  joint?: number;
  enableCollision?: boolean;
}
interface NodePhysics {
  motion?: Motion;
  collider?: Collider;
  trigger?: Trigger;
  joint?: JointRef;
}
interface MaterialDef {
  staticFriction?: number;
  dynamicFriction?: number;
  restitution?: number;
  frictionCombine?: string;
  restitutionCombine?: string;
}
interface FilterDef {
  collisionSystems?: string[];
  collideWithSystems?: string[];
  notCollideWithSystems?: string[];
}
interface LimitDef {
  linearAxes?: number[];
  angularAxes?: number[];
  min?: number;
  max?: number;
  stiffness?: number;
  damping?: number;
}
interface DriveDef {
  type?: string;
  mode?: string;
  axis?: number;
  positionTarget?: number;
  velocityTarget?: number;
  stiffness?: number;
  damping?: number;
  maxForce?: number;
}
interface JointDef {
  limits?: LimitDef[];
  drives?: DriveDef[];
}
interface DocPhysics {
  physicsMaterials?: MaterialDef[];
  collisionFilters?: FilterDef[];
  physicsJoints?: JointDef[];
}

/** Babylon's PhysicsMaterialCombineMode for a glTF combine name (undefined for none or an unknown name). */
export function combineMode(name: string | undefined): number | undefined {
  switch (name) {
    case "average":
      return 3; // ARITHMETIC_MEAN
    case "minimum":
      return 1;
    case "maximum":
      return 2;
    case "multiply":
      return 4;
    default:
      return undefined;
  }
}

/** The Babylon material of a glTF physics material (see the module comment for the defaults). */
export function toBabylonMaterial(m: MaterialDef): PhysicsMaterial {
  const dynamic = m.dynamicFriction ?? m.staticFriction ?? 0.5;
  return {
    friction: dynamic,
    staticFriction: m.staticFriction ?? dynamic,
    restitution: m.restitution ?? 0,
    frictionCombine: combineMode(m.frictionCombine) ?? 2,
    restitutionCombine: combineMode(m.restitutionCombine) ?? 1,
  };
}

type Glb = GLTFLoader & { gltf: { nodes?: (INode & { extensions?: Record<string, unknown> })[]; meshes?: unknown[]; extensions?: Record<string, unknown> } };

/** The glTF loader extension (register it with {@link registerGltfPhysics}). */
export class KHRPhysicsRigidBodiesLoader implements IGLTFLoaderExtension {
  readonly name = KHR_PHYSICS_RIGID_BODIES;
  enabled = true;
  /** Collision system names, in the order they got their bit. */
  private readonly _systems: string[] = [];
  private readonly _scratchMeshes: Mesh[] = [];

  constructor(private readonly _loader: GLTFLoader) {}

  dispose(): void {
    for (const m of this._scratchMeshes) m.dispose();
    this._scratchMeshes.length = 0;
  }

  /** Loads the scene as usual, then builds its physics. */
  loadSceneAsync(context: string, scene: IScene): Promise<void> {
    return this._loader.loadSceneAsync(context, scene).then(() => this._build());
  }

  // ---------------------------------------------------------------- building

  private async _build(): Promise<void> {
    const loader = this._loader as Glb;
    const scene = loader.babylonScene;
    const gltf = loader.gltf;
    const doc = (gltf.extensions?.[KHR_PHYSICS_RIGID_BODIES] ?? {}) as DocPhysics;
    const shapes = ((gltf.extensions?.[KHR_IMPLICIT_SHAPES] as { shapes?: ImplicitShape[] } | undefined)?.shapes ?? []) as ImplicitShape[];
    const nodes = gltf.nodes ?? [];
    const physicsOf = (i: number) => nodes[i]?.extensions?.[KHR_PHYSICS_RIGID_BODIES] as NodePhysics | undefined;
    if (!nodes.some((_, i) => physicsOf(i))) return;
    if (!scene.getPhysicsEngine()) {
      Logger.Warn(`${KHR_PHYSICS_RIGID_BODIES}: the scene has no physics engine (call scene.enablePhysics first); physics not loaded`);
      return;
    }
    const tn = (i: number) => nodes[i]?._babylonTransformNode as TransformNode | undefined;
    for (let i = 0; i < nodes.length; i++) tn(i)?.computeWorldMatrix(true);

    // Nodes the file's animations move (their descendants move with them).
    const animated = new Set<TransformNode>();
    for (const a of (gltf as { animations?: { channels?: { target?: { node?: number; path?: string } }[] }[] }).animations ?? []) {
      for (const c of a.channels ?? []) {
        const n = c.target?.node !== undefined ? tn(c.target.node) : undefined;
        if (n && c.target!.path !== "weights") animated.add(n);
      }
    }
    const isAnimated = (n: TransformNode): boolean => {
      for (let p: TransformNode | null = n; p; p = p.parent as TransformNode | null) if (animated.has(p)) return true;
      return false;
    };

    // Bodies.
    const bodies = new Map<TransformNode, PhysicsBody>();
    const dynamicBodies: [PhysicsBody, Motion, TransformNode][] = [];
    for (let i = 0; i < nodes.length; i++) {
      const motion = physicsOf(i)?.motion;
      const node = tn(i);
      if (!motion || !node) continue;
      const body = new PhysicsBody(node, motion.isKinematic ? PhysicsMotionType.ANIMATED : PhysicsMotionType.DYNAMIC, false, scene);
      // A kinematic body whose node (or a node above it) the file animates follows the node: Babylon hands the
      // node's transform to the body before every step, and the plugin moves the body there with the velocity
      // that gets it there (so it pushes what it meets, as an animated platform should).
      if (motion.isKinematic && isAnimated(node)) {
        body.disablePreStep = false;
        body.setPrestepType(PhysicsPrestepType.ACTION);
      }
      body.shape = new PhysicsShapeContainer(scene);
      bodies.set(node, body);
      dynamicBodies.push([body, motion, node]);
      const world = node.getWorldMatrix();
      if (motion.linearVelocity) body.setLinearVelocity(Vector3.TransformNormal(Vector3.FromArray(motion.linearVelocity), world));
      if (motion.angularVelocity) {
        // An angular velocity is a pseudovector: a mirroring frame (a left-handed scene) flips it.
        const w = Vector3.TransformNormal(Vector3.FromArray(motion.angularVelocity), world);
        body.setAngularVelocity(world.determinant() < 0 ? w.scale(-1) : w);
      }
      if (motion.gravityFactor !== undefined) body.setGravityFactor(motion.gravityFactor);
    }
    const bodyAbove = (node: TransformNode | null): TransformNode | null => {
      for (let n: TransformNode | null = node; n; n = n.parent as TransformNode | null) if (bodies.has(n)) return n;
      return null;
    };

    // Compound triggers (a trigger with `nodes` instead of a geometry): the listed nodes' trigger shapes go
    // into the compound node's body, so their overlaps are one trigger's events.
    const compoundOf = new Map<number, number>();
    for (let i = 0; i < nodes.length; i++) {
      const tr = physicsOf(i)?.trigger;
      if (tr && !tr.geometry) for (const j of tr.nodes ?? []) compoundOf.set(j, i);
    }

    // Colliders and triggers.
    for (let i = 0; i < nodes.length; i++) {
      const p = physicsOf(i);
      const node = tn(i);
      if (!p || !node) continue;
      for (const [def, isTrigger] of [
        [p.collider, false],
        [p.trigger, true],
      ] as const) {
        if (!def?.geometry) continue;
        const shape = await this._shape(`/nodes/${i}`, def.geometry, shapes, scene);
        if (!shape) continue;
        const compound = isTrigger ? compoundOf.get(i) : undefined;
        const filter = def.collisionFilter ?? (compound !== undefined ? physicsOf(compound)!.trigger!.collisionFilter : undefined);
        if (filter !== undefined) this._applyFilter(shape, doc.collisionFilters?.[filter]);
        if (isTrigger) shape.isTrigger = true;
        else {
          const matIndex = (def as Collider).physicsMaterial;
          const mat = matIndex !== undefined ? doc.physicsMaterials?.[matIndex] : undefined;
          if (mat) shape.material = toBabylonMaterial(mat);
        }
        const host = (compound !== undefined ? tn(compound) : undefined) ?? node;
        let owner = bodyAbove(host);
        if (!owner) {
          owner = host;
          const body = new PhysicsBody(host, PhysicsMotionType.STATIC, false, scene);
          body.shape = new PhysicsShapeContainer(scene);
          bodies.set(host, body);
        }
        const [t, r, s] = relativeTransform(node, owner);
        (bodies.get(owner)!.shape as PhysicsShapeContainer).addChild(shape, t, r, s);
      }
    }

    // Mass properties: the shapes', then the file's.
    for (const [body, motion, node] of dynamicBodies) {
      const computed = body.computeMassProperties();
      const mp: PhysicsMassProperties = { ...computed };
      if (motion.mass !== undefined) mp.mass = motion.mass;
      if (motion.centerOfMass) mp.centerOfMass = Vector3.FromArray(motion.centerOfMass).multiply(node.absoluteScaling);
      // Babylon's inertia is per unit mass (HavokPlugin's convention), so the shapes' computed inertia scales
      // with the file's mass as it is; the file's inertiaDiagonal is in kg m^2.
      if (motion.inertiaDiagonal) {
        const diag = Vector3.FromArray(motion.inertiaDiagonal);
        const m = mp.mass ?? 0;
        mp.inertia = m > 0 ? diag.scale(1 / m) : diag;
      }
      if (motion.inertiaOrientation) mp.inertiaOrientation = Quaternion.FromArray(motion.inertiaOrientation);
      body.setMassProperties(mp);
    }

    // Joints.
    for (let i = 0; i < nodes.length; i++) {
      const j = physicsOf(i)?.joint;
      const node = tn(i);
      if (!j || !node || j.joint === undefined) continue;
      const def = doc.physicsJoints?.[j.joint];
      if (!def) continue;
      const other = j.connectedNode !== undefined ? tn(j.connectedNode) ?? null : null;
      this._joint(scene, node, other, def, !!j.enableCollision, bodies, bodyAbove);
    }
  }

  /** The Babylon shape of a geometry (null when it names nothing usable). */
  private async _shape(context: string, g: Geometry, shapes: ImplicitShape[], scene: Scene): Promise<PhysicsShape | null> {
    if (g.shape !== undefined) {
      const s = shapes[g.shape];
      return s ? implicitShape(s, scene) : null;
    }
    const mesh = g.node !== undefined ? await this._nodeMesh(context, g.node) : g.mesh !== undefined ? await this._meshFromData(context, g.mesh) : null;
    if (!mesh) return null;
    return new PhysicsShape({ type: g.convexHull ? PhysicsShapeType.CONVEX_HULL : PhysicsShapeType.MESH, parameters: { mesh, includeChildMeshes: true } }, scene);
  }

  /**
   * A node's mesh geometry: its loaded Babylon mesh (with its children's, in its frame), or, for a node that
   * is not a loaded mesh (several primitives, or outside the scene), a scratch mesh from its glTF mesh.
   */
  private async _nodeMesh(context: string, index: number): Promise<Mesh | null> {
    const n = (this._loader as Glb).gltf.nodes?.[index];
    const node = n?._babylonTransformNode;
    if (node instanceof Mesh && node.getTotalVertices() > 0) return node;
    return n?.mesh !== undefined ? this._meshFromData(context, n.mesh) : null;
  }

  /** A scratch Babylon mesh holding a glTF mesh's triangles (positions and indices of every primitive). */
  private async _meshFromData(context: string, meshIndex: number): Promise<Mesh | null> {
    const gltf = (this._loader as Glb).gltf as unknown as {
      meshes?: { primitives: { attributes: Record<string, number>; indices?: number }[] }[];
      accessors?: unknown[];
    };
    const mesh = gltf.meshes?.[meshIndex];
    if (!mesh) return null;
    const loader = this._loader as unknown as {
      _loadFloatAccessorAsync(c: string, a: unknown): Promise<Float32Array>;
      _loadIndicesAccessorAsync(c: string, a: unknown): Promise<ArrayLike<number>>;
    };
    const positions: number[] = [];
    const indices: number[] = [];
    for (const prim of mesh.primitives) {
      const pa = gltf.accessors?.[prim.attributes.POSITION];
      if (!pa) continue;
      const p = await loader._loadFloatAccessorAsync(`${context}/mesh/${meshIndex}`, pa);
      const base = positions.length / 3;
      for (let k = 0; k < p.length; k++) positions.push(p[k]);
      if (prim.indices !== undefined) {
        const idx = await loader._loadIndicesAccessorAsync(`${context}/mesh/${meshIndex}`, gltf.accessors?.[prim.indices]);
        for (let k = 0; k < idx.length; k++) indices.push(idx[k] + base);
      } else for (let k = 0; k < p.length / 3; k++) indices.push(base + k);
    }
    const m = new Mesh(`${KHR_PHYSICS_RIGID_BODIES}-geometry-${meshIndex}`, this._loader.babylonScene);
    const vd = new VertexData();
    vd.positions = positions;
    vd.indices = indices;
    vd.applyToMesh(m);
    m.setEnabled(false);
    this._scratchMeshes.push(m);
    return m;
  }

  /** Sets a shape's masks from a filter: one bit per system name, in order of first appearance. */
  private _applyFilter(shape: PhysicsShape, f: FilterDef | undefined): void {
    if (!f) return;
    const bits = (names: string[]) => {
      let m = 0;
      for (const n of names) {
        let k = this._systems.indexOf(n);
        if (k < 0) {
          k = this._systems.length;
          this._systems.push(n);
        }
        if (k < 32) m |= 1 << k;
      }
      return m;
    };
    if (f.collisionSystems) shape.filterMembershipMask = bits(f.collisionSystems);
    if (f.collideWithSystems) shape.filterCollideMask = bits(f.collideWithSystems);
    else if (f.notCollideWithSystems) shape.filterCollideMask = ~bits(f.notCollideWithSystems);
  }

  private _joint(
    scene: Scene,
    nodeA: TransformNode,
    nodeB: TransformNode | null,
    def: JointDef,
    collide: boolean,
    bodies: Map<TransformNode, PhysicsBody>,
    bodyAbove: (n: TransformNode | null) => TransformNode | null,
  ): void {
    const ownerA = bodyAbove(nodeA) ?? staticBody(scene, nodeA, bodies);
    let ownerB = bodyAbove(nodeB);
    if (!ownerB) {
      // Attached to the world: a static body at the other frame (or at A's pivot).
      const at = new TransformNode(`${KHR_PHYSICS_RIGID_BODIES}-anchor`, scene);
      const src = nodeB ?? nodeA;
      at.position.copyFrom(src.absolutePosition);
      at.rotationQuaternion = src.absoluteRotationQuaternion.clone();
      at.computeWorldMatrix(true);
      ownerB = staticBody(scene, at, bodies);
    }
    const lh = !scene.useRightHandedSystem;
    const [pivotA, frameA] = pivotIn(nodeA, ownerA);
    const [pivotB, frameB] = pivotIn(nodeB ?? nodeA, ownerB);
    const limits: Physics6DoFLimit[] = [];
    for (const l of def.limits ?? []) {
      if (l.linearAxes) {
        if (l.linearAxes.length === 3 && (l.max ?? Infinity) > 0) {
          limits.push({ axis: PhysicsConstraintAxis.LINEAR_DISTANCE, minLimit: l.min, maxLimit: l.max, stiffness: l.stiffness, damping: l.damping });
          continue;
        }
        // A 3-D limit of length 0 is a ball-and-socket: three locked axes (a zero-length distance row has no
        // direction), as are 1-D and 2-D limits, per axis.
        for (const a of l.linearAxes) {
          // The mirrored x axis of a left-handed scene runs the other way: the range flips.
          const min = lh ? (l.max !== undefined ? -l.max : undefined) : l.min;
          const max = lh ? (l.min !== undefined ? -l.min : undefined) : l.max;
          limits.push({ axis: linearAxis(a), minLimit: min, maxLimit: max, stiffness: l.stiffness, damping: l.damping });
        }
      } else if (l.angularAxes) {
        for (const a of l.angularAxes) limits.push({ axis: angularAxis(a), minLimit: l.min, maxLimit: l.max, stiffness: l.stiffness, damping: l.damping });
      }
    }
    const xDir = lh ? -1 : 1;
    const constraint = new Physics6DoFConstraint(
      {
        pivotA,
        pivotB,
        axisA: new Vector3(xDir, 0, 0).applyRotationQuaternion(frameA),
        axisB: new Vector3(xDir, 0, 0).applyRotationQuaternion(frameB),
        perpAxisA: new Vector3(0, 1, 0).applyRotationQuaternion(frameA),
        perpAxisB: new Vector3(0, 1, 0).applyRotationQuaternion(frameB),
      },
      limits,
      scene,
    );
    bodies.get(ownerA)!.addConstraint(bodies.get(ownerB)!, constraint);
    constraint.isCollisionsEnabled = collide;
    for (const d of def.drives ?? []) setDrive(scene, constraint, d, lh);
  }
}

/** Sets one drive through the plugin's `_hknp` joint calls (HavokPlugin's internals; ContinuumPlugin has them too). */
function setDrive(scene: Scene, c: Physics6DoFConstraint, d: DriveDef, lh: boolean): void {
  const axis = d.type === "linear" ? linearAxis(d.axis ?? 0) : angularAxis(d.axis ?? 0);
  const plugin = scene.getPhysicsEngine()?.getPhysicsPlugin() as unknown as {
    _constraintAxisToNative?(a: number): unknown;
    _hknp?: Record<string, unknown> & { ConstraintMotorType?: Record<string, unknown> };
  };
  const hk = plugin?._hknp;
  const id = (c as unknown as { _pluginData?: unknown[] })._pluginData?.[0];
  // Linear targets run along the mirrored axis in a left-handed scene.
  const sign = lh && d.type === "linear" ? -1 : 1;
  if (!hk || !plugin._constraintAxisToNative || !hk.ConstraintMotorType || typeof hk.HP_Constraint_SetAxisMotorType !== "function") {
    Logger.Warn(`${KHR_PHYSICS_RIGID_BODIES}: this physics plugin cannot set spring drives; using a ${d.stiffness ? "position" : "velocity"} motor`);
    c.setAxisMotorType(axis, d.stiffness ? 2 : 1);
    c.setAxisMotorTarget(axis, sign * ((d.stiffness ? d.positionTarget : d.velocityTarget) ?? 0));
    c.setAxisMotorMaxForce(axis, d.maxForce ?? 3.4e38);
    return;
  }
  const call = (fn: string, ...args: unknown[]) => (hk[fn] as (...a: unknown[]) => unknown)(id, plugin._constraintAxisToNative!(axis), ...args);
  call("HP_Constraint_SetAxisMotorType", d.mode === "acceleration" ? hk.ConstraintMotorType.SPRING_ACCELERATION : hk.ConstraintMotorType.SPRING_FORCE);
  call("HP_Constraint_SetAxisMotorVelocityTarget", sign * (d.velocityTarget ?? 0));
  call("HP_Constraint_SetAxisMotorPositionTarget", sign * (d.positionTarget ?? 0));
  call("HP_Constraint_SetAxisMotorStiffness", d.stiffness ?? 0);
  call("HP_Constraint_SetAxisMotorDamping", d.damping ?? 0);
  c.setAxisMotorMaxForce(axis, d.maxForce ?? 3.4e38);
}

function linearAxis(i: number): PhysicsConstraintAxis {
  if (i === 0 || i === 1 || i === 2) return i as PhysicsConstraintAxis; // LINEAR_X..Z = 0..2
  throw new RangeError(`${KHR_PHYSICS_RIGID_BODIES}: a linear axis must be 0, 1 or 2, got ${String(i)}`);
}

function angularAxis(i: number): PhysicsConstraintAxis {
  if (i === 0 || i === 1 || i === 2) return (i + 3) as PhysicsConstraintAxis; // ANGULAR_X..Z = 3..5
  throw new RangeError(`${KHR_PHYSICS_RIGID_BODIES}: an angular axis must be 0, 1 or 2, got ${String(i)}`);
}

function staticBody(scene: Scene, node: TransformNode, bodies: Map<TransformNode, PhysicsBody>): TransformNode {
  if (!bodies.has(node)) {
    const body = new PhysicsBody(node, PhysicsMotionType.STATIC, false, scene);
    body.shape = new PhysicsShapeContainer(scene);
    bodies.set(node, body);
  }
  return node;
}

/** The node's transform in the owner body's frame, with the owner's scale applied (the body frame has none). */
function relativeTransform(node: TransformNode, owner: TransformNode): [Vector3, Quaternion, Vector3] {
  const s = owner.absoluteScaling;
  const m = node.computeWorldMatrix(true).multiply(Matrix.Invert(owner.computeWorldMatrix(true))).multiply(Matrix.Scaling(s.x, s.y, s.z));
  const t = new Vector3(),
    r = new Quaternion(),
    sc = new Vector3();
  m.decompose(sc, r, t);
  return [t, r, sc];
}

/** A joint frame (a node) as a pivot and orientation in its body's unscaled frame. */
function pivotIn(node: TransformNode, owner: TransformNode): [Vector3, Quaternion] {
  node.computeWorldMatrix(true);
  owner.computeWorldMatrix(true);
  const frame = Matrix.Compose(Vector3.One(), node.absoluteRotationQuaternion, node.absolutePosition);
  const body = Matrix.Compose(Vector3.One(), owner.absoluteRotationQuaternion, owner.absolutePosition);
  const rel = frame.multiply(Matrix.Invert(body));
  const q = new Quaternion();
  rel.decompose(undefined, q);
  return [Vector3.TransformCoordinates(Vector3.Zero(), rel), q];
}

/** A KHR_implicit_shapes shape as a Babylon shape. */
export function implicitShape(s: ImplicitShape, scene: Scene): PhysicsShape | null {
  const type = s.type ?? (s.sphere ? "sphere" : s.box ? "box" : s.capsule ? "capsule" : s.cylinder ? "cylinder" : s.plane ? "plane" : undefined);
  switch (type) {
    case "sphere":
      return new PhysicsShapeSphere(Vector3.Zero(), s.sphere?.radius ?? 0.5, scene);
    case "box":
      return new PhysicsShapeBox(Vector3.Zero(), Quaternion.Identity(), Vector3.FromArray(s.box?.size ?? [1, 1, 1]), scene);
    case "capsule": {
      const h = s.capsule?.height ?? 0.5,
        top = s.capsule?.radiusTop ?? 0.25,
        bottom = s.capsule?.radiusBottom ?? 0.25;
      if (top === bottom) return new PhysicsShapeCapsule(new Vector3(0, -h / 2, 0), new Vector3(0, h / 2, 0), top, scene);
      return hullShape(scene, roundedPoints(h, top, bottom, true));
    }
    case "cylinder": {
      const h = s.cylinder?.height ?? 0.5,
        top = s.cylinder?.radiusTop ?? 0.25,
        bottom = s.cylinder?.radiusBottom ?? 0.25;
      if (top === bottom) return new PhysicsShapeCylinder(new Vector3(0, -h / 2, 0), new Vector3(0, h / 2, 0), top, scene);
      return hullShape(scene, roundedPoints(h, top, bottom, false));
    }
    case "plane": {
      // A plane through the origin with normal +Y: a box under it, 1 km wide when unbounded, 1 m deep
      // (double-sided: centred on it, 2 cm thick).
      const sx = s.plane?.sizeX ?? 1000,
        sz = s.plane?.sizeZ ?? 1000;
      const two = !!s.plane?.doubleSided;
      const depth = two ? 0.02 : 1;
      return new PhysicsShapeBox(new Vector3(0, two ? 0 : -depth / 2, 0), Quaternion.Identity(), new Vector3(sx, depth, sz), scene);
    }
    default:
      Logger.Warn(`${KHR_IMPLICIT_SHAPES}: unsupported shape type ${String(type)}`);
      return null;
  }
}

/**
 * Points of a tapered cylinder (two rings) or capsule (two hemispheres' rings), along Y, height h between the
 * ring / sphere centres.
 */
function roundedPoints(h: number, top: number, bottom: number, capsule: boolean): number[] {
  const pts: number[] = [];
  const n = 24;
  const ring = (y: number, r: number) => {
    for (let i = 0; i < n; i++) {
      const a = (2 * Math.PI * i) / n;
      pts.push(r * Math.cos(a), y, r * Math.sin(a));
    }
  };
  if (!capsule) {
    ring(h / 2, top);
    ring(-h / 2, bottom);
    return pts;
  }
  for (const [y0, r, dir] of [
    [h / 2, top, 1],
    [-h / 2, bottom, -1],
  ] as const) {
    for (let k = 0; k <= 6; k++) {
      const phi = (Math.PI / 2) * (k / 6);
      ring(y0 + dir * r * Math.sin(phi), r * Math.cos(phi));
    }
  }
  return pts;
}

function hullShape(scene: Scene, points: number[]): PhysicsShape {
  const m = new Mesh(`${KHR_IMPLICIT_SHAPES}-hull`, scene);
  const vd = new VertexData();
  vd.positions = points;
  vd.indices = [];
  vd.applyToMesh(m);
  const shape = new PhysicsShapeConvexHull(m, scene);
  m.dispose();
  return shape;
}

/** The no-op extension object for `KHR_implicit_shapes` (its data is read by {@link KHRPhysicsRigidBodiesLoader}). */
export class KHRImplicitShapesLoader implements IGLTFLoaderExtension {
  readonly name = KHR_IMPLICIT_SHAPES;
  enabled = true;
  dispose(): void {}
}
