/**
 * Rollback: two simulated peers of a two-player game, each its own Babylon scene with its own ContinuumPlugin
 * (stepped off screen; the playground draws both arenas side by side, A on the left, B on the right). Each
 * player steers a pusher; a peer knows its own player's input at once and the other's only `latency` frames
 * later. Until it arrives the peer predicts it (the last input it heard) and simulates ahead; when the real
 * input differs from the prediction, the peer restores its snapshot of that frame (plugin.restore) and
 * re-simulates up to the present with the corrected input: rollback netcode (GGPO's scheme).
 *
 * The arenas may briefly disagree on screen (each shows its own prediction), but every confirmed frame — one
 * whose inputs both peers know — must have the same state hash on both: the status line shows the two hashes
 * of the latest confirmed frame and counts confirmed frames compared and mismatches (always 0, because the
 * re-simulation is bit-identical).
 */
import type { AbstractEngine } from "@babylonjs/core/Engines/abstractEngine.js";
import { Quaternion, Vector3 } from "@babylonjs/core/Maths/math.vector.js";
import { CreateBox } from "@babylonjs/core/Meshes/Builders/boxBuilder.js";
import { CreateCylinder } from "@babylonjs/core/Meshes/Builders/cylinderBuilder.js";
import { CreateSphere } from "@babylonjs/core/Meshes/Builders/sphereBuilder.js";
import type { Mesh } from "@babylonjs/core/Meshes/mesh.js";
import { TransformNode } from "@babylonjs/core/Meshes/transformNode.js";
import { PhysicsMotionType, PhysicsShapeType } from "@babylonjs/core/Physics/v2/IPhysicsEnginePlugin.js";
import { PhysicsAggregate } from "@babylonjs/core/Physics/v2/physicsAggregate.js";
import { PhysicsBody } from "@babylonjs/core/Physics/v2/physicsBody.js";
import type { PhysicsEngine } from "@babylonjs/core/Physics/v2/physicsEngine.js";
import { PhysicsShapeBox, PhysicsShapeCylinder, PhysicsShapeSphere } from "@babylonjs/core/Physics/v2/physicsShape.js";
import { Scene } from "@babylonjs/core/scene.js";
import { ContinuumPlugin, type PhysicsSnapshot } from "../../../plugin/index";
import "../../../plugin/snapshot"; // installs plugin.snapshot / restore
import type { Stage } from "../stage";
import { hex } from "../timeline";
import { colorMaterial, PALETTE } from "./common";
import type { DemoScene, SceneContent } from "./types";

/** Frames of history kept per peer (snapshots, inputs, hashes); the latency slider stops below it. */
const RING = 64;
const MAX_LATENCY = 40;
const DT = 1 / 60;
/** Where each peer's arena is drawn (x offset). */
const OFFSETS = [-7.5, 7.5];
/** Input directions: 0 = idle, 1..8 = the eight compass directions (unit vectors; no trigonometry). */
const S = Math.SQRT1_2;
const DIRS: readonly [number, number][] = [[0, 0], [1, 0], [S, S], [0, 1], [-S, S], [-1, 0], [-S, -S], [0, -1], [S, -S]];
const PUSH_SPEED = 4;

/** Player p's input at frame f: a bot that picks a new direction every 20–50 frames (a pure function of p, f). */
function botInput(p: number, f: number): number {
  let h = Math.imul(p + 1, 0x9e3779b1) ^ Math.imul(Math.floor(f / 35) + 7, 0x85ebca77);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return (h >>> 0) % 9;
}

interface BodySpec {
  kind: "box" | "sphere" | "cylinder";
  size: number;
  x: number;
  y: number;
  z: number;
  mass: number;
  color: string;
}

/** The arena every peer builds the same way: ground, walls, two pushers and a dozen loose bodies. */
function arenaSpec(): BodySpec[] {
  const out: BodySpec[] = [
    { kind: "box", size: 1, x: -3, y: 0.5, z: 0, mass: 6, color: PALETTE.blue },
    { kind: "box", size: 1, x: 3, y: 0.5, z: 0, mass: 6, color: PALETTE.red },
  ];
  const colors = [PALETTE.yellow, PALETTE.green, PALETTE.orange, PALETTE.violet];
  const kinds = ["sphere", "box", "cylinder"] as const;
  for (let i = 0; i < 12; i++) {
    out.push({ kind: kinds[i % 3], size: 0.7, x: -2.5 + (i % 4) * 1.6, y: 0.5 + 0.8 * Math.floor(i / 8), z: -2.4 + Math.floor(i / 4) * 1.6, mass: 1, color: colors[i % 4] });
  }
  return out;
}

const ARENA = 10;

/** One peer: its own scene and plugin, its input history, snapshots and hashes. */
class Peer {
  readonly scene: Scene;
  readonly plugin = new ContinuumPlugin();
  readonly nodes: TransformNode[] = [];
  readonly bodies: PhysicsBody[] = [];
  private readonly physics: PhysicsEngine;
  /** Next frame to simulate. */
  frame = 0;
  /** Inputs by frame (ring): [player][frame % RING]; read only for frames already set. */
  readonly inputs = [new Int8Array(RING), new Int8Array(RING)];
  /** The remote input each simulated frame used (ring). */
  private readonly used = new Int8Array(RING);
  private readonly snaps: (PhysicsSnapshot | null)[] = new Array(RING).fill(null);
  readonly hashes = new Float64Array(RING);
  /** Newest frame whose remote input is known. */
  remoteKnown = -1;
  rollbacks = 0;
  resimulated = 0;
  private readonly v = new Vector3();
  private readonly zero = new Vector3();

  constructor(
    engine: AbstractEngine,
    readonly me: number,
    specs: readonly BodySpec[],
  ) {
    this.scene = new Scene(engine, { virtual: true });
    this.scene.enablePhysics(new Vector3(0, -9.81, 0), this.plugin);
    this.physics = this.scene.getPhysicsEngine() as PhysicsEngine;
    const staticBox = (x: number, y: number, z: number, w: number, h: number, d: number) => {
      const node = new TransformNode("static", this.scene);
      node.position.set(x, y, z);
      const body = new PhysicsBody(node, PhysicsMotionType.STATIC, false, this.scene);
      body.shape = new PhysicsShapeBox(Vector3.Zero(), Quaternion.Identity(), new Vector3(w, h, d), this.scene);
    };
    staticBox(0, -0.5, 0, ARENA, 1, ARENA);
    for (const [x, z, w, d] of [[ARENA / 2, 0, 0.4, ARENA], [-ARENA / 2, 0, 0.4, ARENA], [0, ARENA / 2, ARENA, 0.4], [0, -ARENA / 2, ARENA, 0.4]]) staticBox(x, 0.6, z, w, 1.2, d);
    for (const s of specs) {
      const node = new TransformNode(s.kind, this.scene);
      node.position.set(s.x, s.y, s.z);
      node.rotationQuaternion = Quaternion.Identity();
      const body = new PhysicsBody(node, PhysicsMotionType.DYNAMIC, false, this.scene);
      const h = s.size / 2;
      body.shape =
        s.kind === "box"
          ? new PhysicsShapeBox(Vector3.Zero(), Quaternion.Identity(), new Vector3(s.size, s.size, s.size), this.scene)
          : s.kind === "sphere"
            ? new PhysicsShapeSphere(Vector3.Zero(), h, this.scene)
            : new PhysicsShapeCylinder(new Vector3(0, -h, 0), new Vector3(0, h, 0), h, this.scene);
      body.shape.material = { friction: 0.5, restitution: 0.3 };
      body.setMassProperties({ mass: s.mass });
      this.nodes.push(node);
      this.bodies.push(body);
    }
    // Pushers stay upright (steered by velocity).
    for (let p = 0; p < 2; p++) this.bodies[p].setMassProperties({ mass: 6, inertia: new Vector3(0, 0, 0) });
  }

  /** This peer's own input for frame f (known at once). */
  setLocal(f: number, input: number): void {
    this.inputs[this.me][f % RING] = input;
  }

  /** The remote input for frame f arrives; a misprediction rolls back and re-simulates. */
  receiveRemote(f: number, input: number): void {
    const other = 1 - this.me;
    this.inputs[other][f % RING] = input;
    this.remoteKnown = f;
    if (f < this.frame && this.used[f % RING] !== input) {
      // Mispredicted: back to the snapshot taken before frame f, then forward again with what is known now.
      const now = this.frame;
      this.plugin.restore(this.snaps[f % RING]!);
      this.frame = f;
      this.rollbacks++;
      while (this.frame < now) {
        this.simulate();
        this.resimulated++;
      }
    }
  }

  /** The remote input used for frame f: known, or predicted as the last one heard. */
  private remoteFor(f: number): number {
    const other = 1 - this.me;
    if (f <= this.remoteKnown) return this.inputs[other][f % RING];
    return this.remoteKnown >= 0 ? this.inputs[other][this.remoteKnown % RING] : 0;
  }

  /** Simulates the next frame: snapshot, inputs, one 1/60 s step, hash. */
  simulate(): void {
    const f = this.frame;
    // Into the ring slot's old snapshot: no new memory per frame.
    this.snaps[f % RING] = this.plugin.snapshot(this.snaps[f % RING] ?? undefined);
    const remote = this.remoteFor(f);
    this.used[f % RING] = remote;
    for (let p = 0; p < 2; p++) {
      const input = p === this.me ? this.inputs[p][f % RING] : remote;
      const [dx, dz] = DIRS[input];
      const pusher = this.bodies[p];
      pusher.getLinearVelocityToRef(this.v);
      this.v.set(dx * PUSH_SPEED, this.v.y, dz * PUSH_SPEED);
      pusher.setLinearVelocity(this.v);
      pusher.setAngularVelocity(this.zero);
    }
    this.plugin.executeStep(DT, this.physics.getBodies());
    this.hashes[f % RING] = this.plugin.stateHash();
    this.frame++;
  }

  dispose(): void {
    this.scene.dispose();
  }
}

function build(stage: Stage): SceneContent {
  const { scene } = stage;
  const specs = arenaSpec();
  const engine = scene.getEngine();
  // The peers are Continuum worlds whatever the engine switch says: rollback needs snapshots, which Havok's
  // WebAssembly world does not offer through Babylon. On Havok the caption says so.
  stage.physics.continuumOnly("snapshots (both peers run on Continuum)", () => undefined);
  const peers = [new Peer(engine, 0, specs), new Peer(engine, 1, specs)];
  scene.onDisposeObservable.add(() => peers.forEach((p) => p.dispose()));
  let latency = 8;
  let compared = 0,
    mismatches = 0,
    lastConfirmed = -1;

  // The two arenas drawn in the playground's scene: each mesh follows its peer's body.
  const visuals: Mesh[][] = [];
  for (let k = 0; k < 2; k++) {
    const ox = OFFSETS[k];
    const floor = CreateBox(`arena-${k}`, { width: ARENA, height: 1, depth: ARENA }, scene);
    floor.position.set(ox, -0.5, 0);
    floor.material = colorMaterial(scene, k === 0 ? "#3d5470" : "#6b4a3d");
    floor.receiveShadows = true;
    // A static body under each drawn arena, so that the stats line has the playground world's own numbers.
    new PhysicsAggregate(floor, PhysicsShapeType.BOX, { mass: 0 }, scene);
    for (const [x, z, w, d] of [[ARENA / 2, 0, 0.4, ARENA], [-ARENA / 2, 0, 0.4, ARENA], [0, ARENA / 2, ARENA, 0.4], [0, -ARENA / 2, ARENA, 0.4]]) {
      const wall = CreateBox(`wall-${k}`, { width: w, height: 1.2, depth: d }, scene);
      wall.position.set(ox + x, 0.6, z);
      wall.material = colorMaterial(scene, PALETTE.wall, 0.35);
    }
    const list: Mesh[] = [];
    specs.forEach((s, i) => {
      const name = `peer${k === 0 ? "A" : "B"}-${i}`;
      const mesh =
        s.kind === "box"
          ? CreateBox(name, { size: s.size }, scene)
          : s.kind === "sphere"
            ? CreateSphere(name, { diameter: s.size, segments: 12 }, scene)
            : CreateCylinder(name, { diameter: s.size, height: s.size, tessellation: 20 }, scene);
      mesh.material = colorMaterial(scene, s.color);
      mesh.rotationQuaternion = Quaternion.Identity();
      stage.addShadows(mesh);
      list.push(mesh);
    });
    visuals.push(list);
  }

  const draw = () => {
    for (let k = 0; k < 2; k++) {
      const peer = peers[k];
      for (let i = 0; i < peer.nodes.length; i++) {
        const n = peer.nodes[i],
          m = visuals[k][i];
        m.position.set(n.position.x + OFFSETS[k], n.position.y, n.position.z);
        m.rotationQuaternion!.copyFrom(n.rotationQuaternion!);
      }
    }
  };
  draw();

  return {
    bodies: [],
    created: 0,
    groundTop: 0,
    controls: [
      {
        kind: "slider",
        id: "latency",
        label: "Latency",
        min: 0,
        max: MAX_LATENCY,
        step: 1,
        value: latency,
        format: (v) => `${v} frames (${Math.round((v * 1000) / 60)} ms)`,
        onInput: (v) => (latency = v),
      },
    ],
    // One network tick per playground step: inputs, delivery of the late ones (with rollbacks), one frame.
    beforeStep() {
      const n = peers[0].frame;
      for (let k = 0; k < 2; k++) peers[k].setLocal(n, botInput(k, n));
      // Inputs sent `latency` frames ago arrive now (after the latency shrinks, several at once, in order).
      for (let k = 0; k < 2; k++) {
        const peer = peers[k];
        for (let f = peer.remoteKnown + 1; f <= n - latency; f++) peer.receiveRemote(f, botInput(1 - k, f));
      }
      for (const p of peers) p.simulate();
      const c = n - latency;
      if (c > lastConfirmed && c >= 0) {
        for (let f = lastConfirmed + 1; f <= c; f++) {
          compared++;
          if (peers[0].hashes[f % RING] !== peers[1].hashes[f % RING]) mismatches++;
        }
        lastConfirmed = c;
      }
      draw();
    },
    probe: () => ({
      frame: peers[0].frame,
      latency,
      confirmed: lastConfirmed,
      hashA: lastConfirmed >= 0 ? peers[0].hashes[lastConfirmed % RING] : 0,
      hashB: lastConfirmed >= 0 ? peers[1].hashes[lastConfirmed % RING] : 0,
      compared,
      mismatches,
      rollbacks: [peers[0].rollbacks, peers[1].rollbacks],
      resimulated: [peers[0].resimulated, peers[1].resimulated],
    }),
    status() {
      if (lastConfirmed < 0) return "waiting for the first confirmed frame…";
      const a = peers[0].hashes[lastConfirmed % RING],
        b = peers[1].hashes[lastConfirmed % RING];
      const sync = mismatches === 0 ? `<b style="color:#7fd1ae">in sync ✓</b>` : `<b style="color:#e4572e">${mismatches} frames differ</b>`;
      return (
        `confirmed frame ${lastConfirmed}: A ${hex(a)} · B ${hex(b)} · ${sync} (${compared} frames compared)<br>` +
        `rollbacks A ${peers[0].rollbacks} (${peers[0].resimulated} steps re-simulated) · B ${peers[1].rollbacks} (${peers[1].resimulated})`
      );
    },
  };
}

export const rollback: DemoScene = {
  id: "rollback",
  title: "Rollback netcode",
  caption:
    "Two peers, each its own Continuum world (A left, B right), each steering one pusher; the other's input arrives late, so each peer predicts, then rolls back (restore a snapshot) and re-simulates. Confirmed frames hash the same on both.",
  // Both arenas right of the overlay panel.
  view: { alpha: -Math.PI / 2, beta: 0.8, radius: 35, target: new Vector3(-9, 0, -1) },
  build,
};
