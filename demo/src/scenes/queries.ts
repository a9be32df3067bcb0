/**
 * Queries: a fan of 48 rays sweeping the room (hits in green with their normals, misses in grey) and two
 * shape casts (a sphere along x, a box along z) drawn at their first hit, among static pillars and bodies
 * an animated arm keeps pushing around.
 */
import { Color3, Color4 } from "@babylonjs/core/Maths/math.color.js";
import { Quaternion, Vector3 } from "@babylonjs/core/Maths/math.vector.js";
import { CreateBox } from "@babylonjs/core/Meshes/Builders/boxBuilder.js";
import { CreateCylinder } from "@babylonjs/core/Meshes/Builders/cylinderBuilder.js";
import { CreateLineSystem } from "@babylonjs/core/Meshes/Builders/linesBuilder.js";
import { CreateSphere } from "@babylonjs/core/Meshes/Builders/sphereBuilder.js";
import type { LinesMesh } from "@babylonjs/core/Meshes/linesMesh.js";
import { PhysicsRaycastResult } from "@babylonjs/core/Physics/physicsRaycastResult.js";
import { ShapeCastResult } from "@babylonjs/core/Physics/shapeCastResult.js";
import { PhysicsMotionType, PhysicsPrestepType, PhysicsShapeType } from "@babylonjs/core/Physics/v2/IPhysicsEnginePlugin.js";
import { PhysicsAggregate } from "@babylonjs/core/Physics/v2/physicsAggregate.js";
import { PhysicsShapeBox, PhysicsShapeSphere, type PhysicsShape } from "@babylonjs/core/Physics/v2/physicsShape.js";
import type { Scene } from "@babylonjs/core/scene.js";
import { seededRandom } from "../random";
import type { Stage } from "../stage";
import { box, colorMaterial, ground, PALETTE, track } from "./common";
import type { DemoScene, SceneContent, TrackedBody } from "./types";

const RAYS = 48;
const RAY_ORIGIN = new Vector3(0, 2.4, 0);
const RAY_LENGTH = 15;
const SPHERE_R = 0.6;
const CAST_BOX = new Vector3(0.6, 0.6, 1.4);

/** A line system whose segments are rewritten every update (the segment count is fixed). */
class Lines {
  private readonly lines: Vector3[][];
  private mesh: LinesMesh;
  constructor(name: string, count: number, color: Color3, private readonly scene: Scene) {
    this.lines = Array.from({ length: count }, () => [Vector3.Zero(), Vector3.Zero()]);
    const c = new Color4(color.r, color.g, color.b, 1);
    this.mesh = CreateLineSystem(name, { lines: this.lines, colors: this.lines.map(() => [c, c]), updatable: true }, scene);
    this.mesh.isPickable = false;
  }
  set(i: number, a: Vector3, b: Vector3): void {
    this.lines[i][0].copyFrom(a);
    this.lines[i][1].copyFrom(b);
  }
  hide(i: number): void {
    this.lines[i][0].setAll(0);
    this.lines[i][1].setAll(0);
  }
  commit(): void {
    this.mesh = CreateLineSystem(this.mesh.name, { lines: this.lines, instance: this.mesh }, this.scene);
  }
}

interface CastView {
  shape: PhysicsShape;
  ghost: ReturnType<typeof CreateSphere>;
  path: Lines;
  hit: ShapeCastResult;
  input: ShapeCastResult;
  hits: number;
  casts: number;
  fraction: number;
}

function build(stage: Stage): SceneContent {
  const { scene, plugin } = stage;
  ground(stage, 32, 32);
  const bodies: TrackedBody[] = [];
  const random = seededRandom(3);

  // Static pillars around the room.
  for (let i = 0; i < 10; i++) {
    const a = (i / 10) * Math.PI * 2 + 0.3;
    const r = 7 + (i % 3) * 2.2;
    const p = CreateCylinder(`pillar-${i}`, { diameter: 1.1, height: 3.5, tessellation: 16 }, scene);
    p.position.set(Math.cos(a) * r, 1.75, Math.sin(a) * r);
    p.material = colorMaterial(scene, "#b9c3cf", 1, 0.3);
    stage.addShadows(p, true);
    new PhysicsAggregate(p, PhysicsShapeType.CYLINDER, { mass: 0 }, scene);
  }
  // Bodies to hit, pushed around by an animated arm.
  for (let i = 0; i < 18; i++) {
    const a = random() * Math.PI * 2;
    const r = 2.5 + random() * 5;
    const { mesh, aggregate } = box(stage, { name: `crate-${i}`, size: [0.9, 0.9, 0.9], position: [Math.cos(a) * r, 0.5 + (i % 3) * 1.0, Math.sin(a) * r], color: i % 2 ? PALETTE.orange : PALETTE.yellow, mass: 1 });
    track(bodies, mesh, aggregate, "box", "crate");
  }
  const arm = box(stage, { name: "arm", size: [6.5, 0.6, 0.5], position: [3.75, 0.35, 0], color: PALETTE.blue, mass: 0, cast: true });
  arm.aggregate.body.setMotionType(PhysicsMotionType.ANIMATED);
  arm.aggregate.body.disablePreStep = false;
  arm.aggregate.body.setPrestepType(PhysicsPrestepType.ACTION);
  arm.mesh.rotationQuaternion = Quaternion.Identity();

  const rayHit = new Lines("rays-hit", RAYS, new Color3(0.5, 0.95, 0.7), scene);
  const rayMiss = new Lines("rays-miss", RAYS, new Color3(0.4, 0.44, 0.5), scene);
  const normals = new Lines("ray-normals", RAYS, new Color3(1, 0.85, 0.3), scene);
  const result = new PhysicsRaycastResult();
  let rayHits = 0;
  let bodyHits = 0;

  const castView = (name: string, shape: PhysicsShape, ghost: ReturnType<typeof CreateSphere>): CastView => {
    ghost.material = colorMaterial(scene, PALETTE.red, 0.45, 0.2);
    ghost.isPickable = false;
    return { shape, ghost, path: new Lines(`${name}-path`, 3, new Color3(1, 0.45, 0.35), scene), hit: new ShapeCastResult(), input: new ShapeCastResult(), hits: 0, casts: 0, fraction: 1 };
  };
  const sphereCast = castView("sphere-cast", new PhysicsShapeSphere(Vector3.Zero(), SPHERE_R, scene), CreateSphere("sphere-ghost", { diameter: 2 * SPHERE_R, segments: 12 }, scene));
  const boxCast = castView("box-cast", new PhysicsShapeBox(Vector3.Zero(), Quaternion.Identity(), CAST_BOX, scene), CreateBox("box-ghost", { width: CAST_BOX.x, height: CAST_BOX.y, depth: CAST_BOX.z }, scene));

  const cast = (v: CastView, start: Vector3, end: Vector3, rotation: Quaternion) => {
    plugin.shapeCast({ shape: v.shape, rotation, startPosition: start, endPosition: end, shouldHitTriggers: false }, v.input, v.hit);
    v.casts++;
    const f = v.hit.hasHit ? v.hit.hitFraction : 1;
    v.fraction = f;
    if (v.hit.hasHit) v.hits++;
    const at = Vector3.Lerp(start, end, f);
    v.ghost.position.copyFrom(at);
    v.ghost.rotationQuaternion = rotation.clone();
    v.path.set(0, start, at);
    if (v.hit.hasHit) {
      v.path.set(1, v.hit.hitPoint, v.hit.hitPoint.add(v.hit.hitNormal.scale(1.2)));
      v.path.set(2, v.hit.hitPoint.add(new Vector3(0, 0.3, 0)), v.hit.hitPoint.add(new Vector3(0, -0.3, 0)));
    } else {
      v.path.hide(1);
      v.path.hide(2);
    }
    v.path.commit();
  };

  let t = 0;
  const dir = new Vector3();
  const end = new Vector3();
  const afterStep = (dt: number) => {
    t += dt;
    // The arm turns about y; the prestep moves its body to the mesh's pose (velocity from the motion).
    Quaternion.RotationYawPitchRollToRef(t * 0.9, 0, 0, arm.mesh.rotationQuaternion!);
    arm.mesh.position.set(Math.cos(-t * 0.9) * 3.75, 0.35, Math.sin(-t * 0.9) * 3.75);

    rayHits = 0;
    bodyHits = 0;
    for (let i = 0; i < RAYS; i++) {
      const a = (i / RAYS) * Math.PI * 2 + t * 0.4;
      dir.set(Math.cos(a), -0.16, Math.sin(a)).normalize();
      RAY_ORIGIN.addToRef(dir.scale(RAY_LENGTH), end);
      plugin.raycast(RAY_ORIGIN, end, result);
      if (result.hasHit) {
        rayHits++;
        if (result.body && result.body.transformNode.name !== "ground") bodyHits++;
        rayHit.set(i, RAY_ORIGIN, result.hitPointWorld);
        normals.set(i, result.hitPointWorld, result.hitPointWorld.add(result.hitNormalWorld.scale(0.6)));
        rayMiss.hide(i);
      } else {
        rayHit.hide(i);
        normals.hide(i);
        rayMiss.set(i, RAY_ORIGIN, end);
      }
    }
    rayHit.commit();
    rayMiss.commit();
    normals.commit();

    const sz = Math.sin(t * 0.5) * 9;
    cast(sphereCast, new Vector3(-14, 0.9, sz), new Vector3(14, 0.9, sz), Quaternion.Identity());
    const bx = Math.cos(t * 0.37) * 9;
    cast(boxCast, new Vector3(bx, 1.2, -14), new Vector3(bx, 1.2, 14), Quaternion.RotationYawPitchRoll(0, 0, t));
  };

  return {
    bodies,
    created: 1 + 10 + bodies.length + 1,
    groundTop: 0,
    afterStep,
    status: () => `rays: ${rayHits}/${RAYS} hit (${bodyHits} on bodies) · sphere cast ${sphereCast.hit.hasHit ? `hit at ${(sphereCast.fraction * 100).toFixed(0)} %` : "clear"} · box cast ${boxCast.hit.hasHit ? `hit at ${(boxCast.fraction * 100).toFixed(0)} %` : "clear"}`,
    probe: () => ({
      rays: RAYS,
      rayHits,
      bodyHits,
      sphereCasts: sphereCast.casts,
      sphereHits: sphereCast.hits,
      boxCasts: boxCast.casts,
      boxHits: boxCast.hits,
      sphereFraction: sphereCast.fraction,
      boxFraction: boxCast.fraction,
    }),
  };
}

export const queries: DemoScene = {
  id: "queries",
  title: "Queries",
  caption: "48 raycasts sweep the room (green: hit, with normals; grey: miss); a sphere and a box are shape-cast across it and drawn at their first hit. The blue arm is an animated body.",
  view: { alpha: -1.2, beta: 0.85, radius: 32, target: new Vector3(-2, 0, 0) },
  build,
};
