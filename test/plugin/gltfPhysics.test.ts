/**
 * The glTF physics loader extension (plugin/gltf, `continuum-physics/gltf`): small glTF files written here
 * (JSON with the KHR_physics_rigid_bodies / KHR_implicit_shapes extensions, buffers as data URIs), loaded
 * through Babylon's glTF loader into the same scene on Havok and on Continuum, each field checked by its
 * effect. Babylon's default scene is left-handed: the loader's root turns the file half a turn about y and
 * mirrors z, so the file's x is the scene's -x (and its z is z).
 */
import { beforeAll, describe, expect, it } from "vitest";
import { AppendSceneAsync, PhysicsEventType, PhysicsMotionType, Vector3, type TransformNode } from "@babylonjs/core";
import "@babylonjs/loaders/glTF/index.js";
import { registerGltfPhysics } from "../../plugin/gltf/index";
import { KINDS, makeScene, type Kind, type TestScene } from "./helpers";

type Json = Record<string, unknown>;

/** A glTF document: the given nodes (all in the scene), shapes, and physics document extension. */
function gltf(nodes: Json[], shapes: Json[], physics: Json = {}, extra: Json = {}): Json {
  return {
    asset: { version: "2.0" },
    extensionsUsed: ["KHR_physics_rigid_bodies", "KHR_implicit_shapes"],
    extensions: { KHR_implicit_shapes: { shapes }, KHR_physics_rigid_bodies: physics },
    scene: 0,
    scenes: [{ nodes: nodes.map((_, i) => i).filter((i) => !nodes.some((n) => ((n.children as number[]) ?? []).includes(i))) }],
    nodes,
    ...extra,
  };
}

const rb = (ext: Json) => ({ KHR_physics_rigid_bodies: ext });
/** A 20 x 1 x 20 static floor (top at y = 0): shape index 0 in every file below. */
const FLOOR_SHAPE = { type: "box", box: { size: [20, 1, 20] } };
const floor = (extra: Json = {}) => ({ name: "floor", translation: [0, -0.5, 0], extensions: rb({ collider: { geometry: { shape: 0 }, ...extra } }) });

async function load(kind: Kind, doc: Json): Promise<TestScene> {
  const t = await makeScene(kind);
  await AppendSceneAsync("data:" + JSON.stringify(doc), t.scene, { pluginExtension: ".gltf" });
  return t;
}
const node = (t: TestScene, name: string) => t.scene.getNodeByName(name) as TransformNode;
const y = (t: TestScene, name: string) => node(t, name).absolutePosition.y;

beforeAll(() => registerGltfPhysics());

describe("glTF physics: motion", () => {
  for (const kind of KINDS) {
    it(`${kind}: mass, velocity, gravity factor, kinematic, inertia`, async () => {
      const t = await load(
        kind,
        gltf(
          [
            { name: "heavy", translation: [0, 10, 0], extensions: rb({ motion: { mass: 3, linearVelocity: [2, 0, 0] }, collider: { geometry: { shape: 1 } } }) },
            { name: "floating", translation: [5, 10, 0], extensions: rb({ motion: { gravityFactor: 0 }, collider: { geometry: { shape: 1 } } }) },
            { name: "kinematic", translation: [-5, 10, 0], extensions: rb({ motion: { isKinematic: true, linearVelocity: [0, 1, 0] }, collider: { geometry: { shape: 1 } } }) },
            { name: "spinner", translation: [10, 10, 0], extensions: rb({ motion: { mass: 1, inertiaDiagonal: [2, 2, 2], gravityFactor: 0, angularVelocity: [0, 3, 0] }, collider: { geometry: { shape: 1 } } }) },
          ],
          [{ type: "sphere", sphere: { radius: 0.5 } }, { type: "sphere", sphere: { radius: 0.5 } }],
        ),
      );
      const heavy = node(t, "heavy").physicsBody!;
      expect(heavy.getMassProperties().mass).toBeCloseTo(3, 6);
      expect(node(t, "kinematic").physicsBody!.getMotionType()).toBe(PhysicsMotionType.ANIMATED);
      expect(node(t, "spinner").physicsBody!.getMassProperties().inertia!.x).toBeCloseTo(2, 5);
      t.step(30);
      // Velocity 2 m/s along the file's x (the scene's -x): 1 m in 0.5 s; free fall 0.5 g t^2 = 1.23 m.
      expect(node(t, "heavy").absolutePosition.x).toBeCloseTo(-1, 2);
      expect(y(t, "heavy")).toBeCloseTo(10 - 0.5 * 9.81 * 0.25, 1);
      // Gravity factor 0: stays put.
      expect(y(t, "floating")).toBeCloseTo(10, 3);
      // Kinematic with 1 m/s up: 0.5 m up, no gravity.
      expect(y(t, "kinematic")).toBeCloseTo(10.5, 2);
      // 3 rad/s about y: still spinning at 3 rad/s (no damping but the default 0.1/s angular damping: 3 e^-0.05).
      expect(Math.abs(node(t, "spinner").physicsBody!.getAngularVelocity().y)).toBeCloseTo(3 * Math.exp(-0.05), 1);
      t.dispose();
    });
  }
});

describe("glTF physics: inertia", () => {
  for (const kind of KINDS) {
    it(`${kind}: a mass alone keeps the shapes' inertia per unit mass; inertiaDiagonal is in kg m^2`, async () => {
      const t = await load(
        kind,
        gltf(
          [
            { name: "cube", translation: [0, 10, 0], extensions: rb({ motion: { mass: 1, gravityFactor: 0 }, collider: { geometry: { shape: 0 } } }) },
            { name: "given", translation: [5, 10, 0], extensions: rb({ motion: { mass: 2, gravityFactor: 0, inertiaDiagonal: [0.5, 0.5, 0.5] }, collider: { geometry: { shape: 0 } } }) },
          ],
          [{ type: "box", box: { size: [0.6, 0.6, 0.6] } }],
        ),
      );
      const spin = (name: string) => {
        const b = node(t, name).physicsBody!;
        b.applyAngularImpulse(new Vector3(0, 1, 0));
        return b;
      };
      const cube = spin("cube"),
        given = spin("given");
      t.step(1);
      // omega = L / I: the 1 kg 0.6 m cube has I = m (0.6^2 + 0.6^2) / 12 = 0.06 kg m^2 (16.7 rad/s; it was
      // 216 times smaller, the shapes' per-unit-mass inertia scaled again by the mass ratio); the given body
      // has I = 0.5 kg m^2 (2 rad/s). 1 %: one step of the default angular damping (0.1/s) and rounding.
      expect(Math.abs(Math.abs(cube.getAngularVelocity().y) * 0.06 - 1)).toBeLessThan(0.01);
      expect(Math.abs(Math.abs(given.getAngularVelocity().y) * 0.5 - 1)).toBeLessThan(0.01);
      t.dispose();
    });
  }
});

describe("glTF physics: collider shapes", () => {
  // Each shape dropped onto the floor rests with its lowest point on it: the centre's height is the shape's
  // half extent along y. Tapered capsule / cylinder are convex hulls of rings.
  const shapes: [string, Json, number][] = [
    ["sphere", { type: "sphere", sphere: { radius: 0.3 } }, 0.3],
    ["box", { type: "box", box: { size: [1, 0.4, 1] } }, 0.2],
    ["cylinder", { type: "cylinder", cylinder: { height: 0.6, radiusTop: 0.4, radiusBottom: 0.4 } }, 0.3],
    ["tapered cylinder", { type: "cylinder", cylinder: { height: 0.6, radiusTop: 0.2, radiusBottom: 0.4 } }, 0.3],
    ["capsule (on its side)", { type: "capsule", capsule: { height: 0.6, radiusTop: 0.2, radiusBottom: 0.2 } }, 0.2],
  ];
  for (const kind of KINDS) {
    it(`${kind}: rest heights`, async () => {
      const nodes: Json[] = [floor()];
      shapes.forEach(([name], i) => {
        // The capsule lies on its side (a quarter turn about x), so it rests on its radius.
        const rotation = name.startsWith("capsule") ? [Math.SQRT1_2, 0, 0, Math.SQRT1_2] : [0, 0, 0, 1];
        nodes.push({ name, translation: [i * 2 - 4, 1.5, 0], rotation, extensions: rb({ motion: {}, collider: { geometry: { shape: i + 1 } } }) });
      });
      const t = await load(kind, gltf(nodes, [FLOOR_SHAPE, ...shapes.map((s) => s[1])]));
      t.step(180);
      // 1 cm: contact slop and softness (and the hull's ring facets).
      for (const [name, , h] of shapes) expect(Math.abs(y(t, name) - h), `${kind} ${name}`).toBeLessThan(0.01);
      t.dispose();
    });
  }

  it("planes and mesh geometry (geometry.node, convexHull) on both engines", async () => {
    // A 1 m cube as a glTF mesh: 8 corners, 12 triangles, in a data-URI buffer.
    const p = [-0.5, -0.5, -0.5, 0.5, -0.5, -0.5, 0.5, 0.5, -0.5, -0.5, 0.5, -0.5, -0.5, -0.5, 0.5, 0.5, -0.5, 0.5, 0.5, 0.5, 0.5, -0.5, 0.5, 0.5];
    const idx = [0, 2, 1, 0, 3, 2, 4, 5, 6, 4, 6, 7, 0, 1, 5, 0, 5, 4, 3, 6, 2, 3, 7, 6, 0, 4, 7, 0, 7, 3, 1, 2, 6, 1, 6, 5];
    const bytes = new Uint8Array(p.length * 4 + idx.length * 2);
    new Float32Array(bytes.buffer, 0, p.length).set(p);
    new Uint16Array(bytes.buffer, p.length * 4, idx.length).set(idx);
    const extra = {
      buffers: [{ byteLength: bytes.length, uri: "data:application/octet-stream;base64," + Buffer.from(bytes).toString("base64") }],
      bufferViews: [
        { buffer: 0, byteOffset: 0, byteLength: p.length * 4 },
        { buffer: 0, byteOffset: p.length * 4, byteLength: idx.length * 2 },
      ],
      accessors: [
        { bufferView: 0, componentType: 5126, count: 8, type: "VEC3", min: [-0.5, -0.5, -0.5], max: [0.5, 0.5, 0.5] },
        { bufferView: 1, componentType: 5123, count: 36, type: "SCALAR" },
      ],
      meshes: [{ primitives: [{ attributes: { POSITION: 0 }, indices: 1 }] }],
    };
    for (const kind of KINDS) {
      const t = await load(
        kind,
        gltf(
          [
            { name: "plane", extensions: rb({ collider: { geometry: { shape: 0 } } }) },
            { name: "hullCube", mesh: 0, translation: [0, 2, 0], extensions: rb({ motion: {}, collider: { geometry: { node: 1, convexHull: true } } }) },
            { name: "meshCube", mesh: 0, translation: [3, 2, 0], extensions: rb({ motion: {}, collider: { geometry: { node: 2 } } }) },
          ],
          [{ type: "plane", plane: {} }],
          {},
          extra,
        ),
      );
      t.step(180);
      // Both cubes rest on the infinite plane y = 0 (centre 0.5 up); the MESH one needs mesh-mesh? No: the
      // plane is a box, so convex-vs-mesh.
      expect(Math.abs(y(t, "hullCube") - 0.5), kind).toBeLessThan(0.01);
      expect(Math.abs(y(t, "meshCube") - 0.5), kind).toBeLessThan(0.01);
      t.dispose();
    }
  });
});

describe("glTF physics: materials, filters, triggers", () => {
  for (const kind of KINDS) {
    it(`${kind}: restitution and combine modes, friction, collision filters, a trigger`, async () => {
      const t = await load(
        kind,
        gltf(
          [
            floor({ physicsMaterial: 0, collisionFilter: 0 }),
            // Bouncy ball: restitution 0.8 "maximum" against the floor's 0: e = 0.8.
            { name: "bouncy", translation: [-6, 2.3, 0], extensions: rb({ motion: {}, collider: { geometry: { shape: 1 }, physicsMaterial: 1 } }) },
            // Restitution 0.8 but "minimum" (the loader's default combine): e = min(0.8, 0) = 0.
            { name: "dead", translation: [-3, 2.3, 0], extensions: rb({ motion: {}, collider: { geometry: { shape: 1 }, physicsMaterial: 2 } }) },
            // Not in the floor's collide systems: falls through.
            { name: "ghost", translation: [0, 2.3, 0], extensions: rb({ motion: {}, collider: { geometry: { shape: 1 }, collisionFilter: 1 } }) },
            // Sliding at 3 m/s, resting on the floor, friction 1 "maximum" vs the floor's 0: stops after
            // v^2 / (2 mu g) = 0.46 m (measured 0.43 on both).
            { name: "slider", translation: [3, 0.3, 0], extensions: rb({ motion: { linearVelocity: [3, 0, 0] }, collider: { geometry: { shape: 2 }, physicsMaterial: 3 } }) },
            // The same box on friction 0 "minimum": glides on (3 m/s for 1.5 s: 4.5 m).
            { name: "glider", translation: [3, 0.3, 4], extensions: rb({ motion: { linearVelocity: [3, 0, 0] }, collider: { geometry: { shape: 2 }, physicsMaterial: 4 } }) },
            // A static trigger volume the bouncy ball falls through on its way down.
            { name: "sensor", translation: [-6, 1.2, 0], extensions: rb({ trigger: { geometry: { shape: 3 } } }) },
          ],
          [FLOOR_SHAPE, { type: "sphere", sphere: { radius: 0.3 } }, { type: "box", box: { size: [0.6, 0.6, 0.6] } }, { type: "box", box: { size: [1, 0.2, 1] } }],
          {
            physicsMaterials: [
              { staticFriction: 0, dynamicFriction: 0, restitution: 0 },
              { restitution: 0.8, restitutionCombine: "maximum" },
              { restitution: 0.8 },
              { staticFriction: 1, dynamicFriction: 1, frictionCombine: "maximum" },
              { staticFriction: 0, dynamicFriction: 0, frictionCombine: "minimum" },
            ],
            collisionFilters: [{ collisionSystems: ["ground"], collideWithSystems: ["balls"] }, { collisionSystems: ["ghosts"] }],
          },
        ),
      );
      let entered = 0;
      t.plugin.onTriggerCollisionObservable.add((e) => {
        if (e.type === PhysicsEventType.TRIGGER_ENTERED) entered++;
      });
      // The bouncy and dead balls are members of no named system (all bits) and collide with everything.
      const start = node(t, "slider").absolutePosition.x; // the glider starts at the same x
      let apex = 0,
        deadApex = 0,
        landed = false;
      for (let s = 0; s < 90; s++) {
        t.step(1);
        const yb = y(t, "bouncy");
        if (yb < 0.35) landed = true;
        if (landed) apex = Math.max(apex, yb);
        if (landed) deadApex = Math.max(deadApex, y(t, "dead"));
      }
      // Drop 2 m onto the floor: rebound to e^2 * 2 = 1.28 m above contact (centre 1.58 m); 1.1 m bounds it
      // well away from a dead stop, and the e = 0 ball stays within 5 cm of rest (0.3 m).
      expect(apex).toBeGreaterThan(1.1);
      expect(deadApex).toBeLessThan(0.35);
      expect(y(t, "ghost")).toBeLessThan(-3);
      // (Along the scene's -x.)
      expect(start - node(t, "slider").absolutePosition.x).toBeLessThan(0.6);
      expect(start - node(t, "glider").absolutePosition.x).toBeGreaterThan(4);
      expect(entered).toBeGreaterThan(0);
      t.dispose();
    });
  }
});

describe("glTF physics: joints", () => {
  for (const kind of KINDS) {
    it(`${kind}: a hinge from limits, a linear spring drive to its target`, async () => {
      const t = await load(
        kind,
        gltf(
          [
            // A pendulum: a ball on a 1 m arm, hinged to the world at the pivot node, whose connected frame is
            // the bob's child node at the pivot (limits lock the linear axes and two angular ones). Released
            // horizontal, it swings; its distance to the pivot stays 1 m.
            { name: "pivot", translation: [0, 5, 0], extensions: rb({ joint: { connectedNode: 2, joint: 0 } }) },
            { name: "bob", translation: [1, 5, 0], children: [2], extensions: rb({ motion: { mass: 1 }, collider: { geometry: { shape: 0 } } }) },
            { name: "bobPivot", translation: [-1, 0, 0] },
            // A slider driven along x to 1 m by a critically damped spring (k = 100, c = 20 at 1 kg, force
            // mode), no gravity on it.
            { name: "base", translation: [10, 5, 0], extensions: rb({ joint: { connectedNode: 4, joint: 1 } }) },
            { name: "sled", translation: [10, 5, 0], extensions: rb({ motion: { mass: 1, gravityFactor: 0 }, collider: { geometry: { shape: 0 } } }) },
          ],
          [{ type: "sphere", sphere: { radius: 0.1 } }],
          {
            physicsJoints: [
              { limits: [{ linearAxes: [0, 1, 2], min: 0, max: 0 }, { angularAxes: [0, 1], min: 0, max: 0 }] },
              {
                limits: [{ linearAxes: [1], min: 0, max: 0 }, { linearAxes: [2], min: 0, max: 0 }, { angularAxes: [0, 1, 2], min: 0, max: 0 }],
                drives: [{ type: "linear", mode: "force", axis: 0, positionTarget: 1, stiffness: 100, damping: 20 }],
              },
            ],
          },
        ),
      );
      const sled = node(t, "sled");
      const x0 = sled.absolutePosition.x;
      t.step(30);
      const bob = node(t, "bob").absolutePosition;
      // The hinge: the bob stays 1 m from the pivot (1 cm of joint softness) and has swung down.
      expect(Math.abs(bob.subtract(node(t, "pivot").absolutePosition).length() - 1)).toBeLessThan(0.01);
      expect(bob.y).toBeLessThan(4.5);
      // The drive: 1 - (1 + w t) e^(-w t) = 0.96 m at 0.5 s (w = 10), along the file's x.
      expect(Math.abs(Math.abs(sled.absolutePosition.x - x0) - 0.96)).toBeLessThan(0.05);
      t.dispose();
    });
  }
});

describe("glTF physics: compound triggers and animated kinematic bodies", () => {
  for (const kind of KINDS) {
    it(`${kind}: a compound trigger's listed trigger shapes report as one trigger body`, async () => {
      const t = await load(
        kind,
        gltf(
          [
            { name: "zone", translation: [0, 1, 0], extensions: rb({ trigger: { nodes: [1, 2] } }) },
            { name: "partA", translation: [-3, 1, 0], extensions: rb({ trigger: { geometry: { shape: 0 } } }) },
            { name: "partB", translation: [3, 1, 0], extensions: rb({ trigger: { geometry: { shape: 0 } } }) },
            { name: "ballA", translation: [-3, 3, 0], extensions: rb({ motion: {}, collider: { geometry: { shape: 1 } } }) },
            { name: "ballB", translation: [3, 3, 0], extensions: rb({ motion: {}, collider: { geometry: { shape: 1 } } }) },
          ],
          [{ type: "box", box: { size: [1, 1, 1] } }, { type: "sphere", sphere: { radius: 0.2 } }],
        ),
      );
      const zone = node(t, "zone").physicsBody!;
      expect(zone).toBeDefined();
      expect(node(t, "partA").physicsBody).toBeUndefined();
      expect(node(t, "partB").physicsBody).toBeUndefined();
      const entered = new Set<string>();
      let other = 0;
      t.plugin.onTriggerCollisionObservable.add((e) => {
        if (e.type !== PhysicsEventType.TRIGGER_ENTERED) return;
        const [trigger, ball] = e.collider === zone ? [e.collider, e.collidedAgainst] : [e.collidedAgainst, e.collider];
        if (trigger !== zone) other++;
        else entered.add(ball.transformNode.name);
      });
      // Each ball falls 2 m onto its part (the top at y = 1.5 is reached after 0.55 s) and through it.
      t.step(60);
      expect([...entered].sort()).toEqual(["ballA", "ballB"]);
      expect(other).toBe(0);
      t.dispose();
    });

    it(`${kind}: a kinematic body whose node the file animates follows the animation and carries a box`, async () => {
      // An elevator: translation keys (0, 0, 0) at 0 s and (0, 2, 0) at 2 s, linear.
      const times = [0, 2],
        values = [0, 0, 0, 0, 2, 0];
      const bytes = new Uint8Array(32);
      new Float32Array(bytes.buffer, 0, 2).set(times);
      new Float32Array(bytes.buffer, 8, 6).set(values);
      const extra = {
        buffers: [{ byteLength: 32, uri: "data:application/octet-stream;base64," + Buffer.from(bytes).toString("base64") }],
        bufferViews: [
          { buffer: 0, byteOffset: 0, byteLength: 8 },
          { buffer: 0, byteOffset: 8, byteLength: 24 },
        ],
        accessors: [
          { bufferView: 0, componentType: 5126, count: 2, type: "SCALAR", min: [0], max: [2] },
          { bufferView: 1, componentType: 5126, count: 2, type: "VEC3" },
        ],
        animations: [{ channels: [{ sampler: 0, target: { node: 0, path: "translation" } }], samplers: [{ input: 0, output: 1, interpolation: "LINEAR" }] }],
      };
      const t = await load(
        kind,
        gltf(
          [
            { name: "platform", extensions: rb({ motion: { isKinematic: true }, collider: { geometry: { shape: 0 } } }) },
            { name: "rider", translation: [0, 0.36, 0], extensions: rb({ motion: { mass: 1 }, collider: { geometry: { shape: 1 } } }) },
          ],
          [{ type: "box", box: { size: [2, 0.2, 2] } }, { type: "box", box: { size: [0.5, 0.5, 0.5] } }],
          {},
          extra,
        ),
      );
      const group = t.scene.animationGroups[0];
      group.play(true);
      group.pause();
      for (let s = 1; s <= 60; s++) {
        // Babylon advances animations when it renders; here the test moves the clock: frame s at 60 frames a second.
        group.goToFrame(s);
        t.step(1);
      }
      // After 1 s the keys put the platform at y = 1: its body is moved there by velocity each step (without
      // the prestep it stays at 0 and its node is synced back there). The rider rides on top, its centre
      // 0.1 + 0.25 m above the platform's; 5 mm is contact slop (both engines measure 0.35 within 0.1 mm).
      const py = y(t, "platform");
      expect(Math.abs(py - 1)).toBeLessThan(0.005);
      expect(Math.abs(y(t, "rider") - py - 0.35)).toBeLessThan(0.005);
      t.dispose();
    });
  }
});
