/**
 * Time travel through the plugin: `plugin.snapshot()` / `restore()` / `stateHash()` and `PhysicsSnapshot`
 * bytes, on the mixed scene of test/scenes/timeTravelScene.mjs stepped through Babylon at 1/60 s.
 *
 * Replay must be bit-identical: the hash after every step of a run interrupted by divergent play and restores
 * equals the hash of an uninterrupted run, and the Babylon nodes end bit-identical too. The divergent play
 * changes plugin-side and engine-side settings (materials, filters, trigger flags, mass, motion type, motor
 * target, activation control, CCD mode, gravity), so a restore that missed any of them would break the
 * sequence of hashes. Structural changes (bodies, constraints, shapes) are refused with an error naming them.
 */
import * as B from "@babylonjs/core";
import { describe, expect, it } from "vitest";
import * as C from "../../plugin/index";
import { ContinuumPlugin } from "../../plugin/index";
import { PhysicsSnapshot } from "../../plugin/snapshot"; // and installs plugin.snapshot / restore
import { buildTimeTravelScene, type TimeTravelScene } from "../scenes/timeTravelScene.mjs";

const STEPS = 2000;

function build(): TimeTravelScene {
  return buildTimeTravelScene(B, C, new B.NullEngine());
}

function plugin(t: TimeTravelScene): ContinuumPlugin {
  return t.plugin as ContinuumPlugin;
}

function asleepCount(t: TimeTravelScene): number {
  const w = plugin(t).world;
  let n = 0;
  for (const h of w.getBodyHandles()) if (w.isSleeping(h)) n++;
  return n;
}

/** Every body node's position and rotation, and the thin-instance matrices: what a renderer shows. */
function nodeState(t: TimeTravelScene): number[] {
  const out: number[] = [];
  for (const m of t.scene.transformNodes.concat(t.scene.meshes as B.TransformNode[])) {
    if (!m.physicsBody) continue;
    out.push(m.position.x, m.position.y, m.position.z);
    const q = m.rotationQuaternion;
    if (q) out.push(q.x, q.y, q.z, q.w);
  }
  const thin = (t.crates as unknown as { _thinInstanceDataStorage: { matrixData: Float32Array } })._thinInstanceDataStorage.matrixData;
  out.push(...thin);
  return out;
}

/** Play that the replay must forget: inputs of another game, and settings changed on every side of the plugin. */
function diverge(t: TimeTravelScene, steps: number): void {
  const pe = t.scene.getPhysicsEngine()!;
  const p = plugin(t);
  const [sphere, box, capsule, cylinder, hull, container] = t.dynamic;
  box.shape!.material = { friction: 0.05, restitution: 0.9 };
  capsule.shape!.filterMembershipMask = 2;
  capsule.shape!.filterCollideMask = 4;
  cylinder.shape!.isTrigger = true;
  hull.setMassProperties({ mass: 7, inertia: new B.Vector3(3, 3, 3) });
  container.setMotionType(B.PhysicsMotionType.ANIMATED);
  p.setActivationControl(sphere, 2); // ALWAYS_INACTIVE
  t.dynamic[7].setLinearDamping(3);
  t.hinge.setAxisMotorTarget(B.PhysicsConstraintAxis.ANGULAR_X, 9);
  p.setContinuousDetection(t.bullets[0], C.ContinuousDetection.discrete());
  t.cratesBody.applyImpulse(new B.Vector3(0, 4, 0), new B.Vector3(4, 3, -4.5), 2);
  pe.setGravity(new B.Vector3(1, -4, 0));
  for (let k = 0; k < steps; k++) {
    for (const b of t.dynamic) b.applyImpulse(new B.Vector3(0.01 * (k % 5), 0.05, 0), b.transformNode.position);
    pe._step(1 / 60);
  }
}

describe("snapshot, restore and replay through the plugin", () => {
  it("2,000 steps with restores in the middle (in memory, from bytes, from a clone) hash identically to an uninterrupted run, step after step", () => {
    const ref = build();
    const refHashes: number[] = [];
    const refAsleep: number[] = [];
    for (let i = 0; i < STEPS; i++) {
      refHashes.push(ref.step());
      refAsleep.push(asleepCount(ref));
    }
    // The scene is alive and exercises what it should: hashes change, bodies sleep, the trigger fires.
    expect(new Set(refHashes).size).toBeGreaterThan(1900);
    expect(Math.max(...refAsleep)).toBeGreaterThan(3);
    expect(ref.triggerEvents).toBeGreaterThan(0);

    const t = build();
    const p = plugin(t);
    const hashes: number[] = [];
    const runTo = (end: number) => {
      while (t.stepIndex < end) {
        const i = t.stepIndex;
        hashes[i] = t.step();
        // Compared step by step, so a failure names the first step that differs.
        if (hashes[i] !== refHashes[i]) expect({ step: i, hash: hashes[i] }).toEqual({ step: i, hash: refHashes[i] });
      }
    };

    // 1. In memory: snapshot at 500, diverge for 150 steps, restore, replay.
    runTo(500);
    const s500 = p.snapshot();
    const asleep500 = asleepCount(t);
    diverge(t, 150);
    expect(p.stateHash()).not.toBe(refHashes[499]);
    p.restore(s500);
    t.stepIndex = 500;
    expect(p.stateHash()).toBe(refHashes[499]);
    expect(asleepCount(t)).toBe(asleep500);
    // Babylon's side follows at once: a node shows its body's restored pose.
    const node = t.dynamic[1].transformNode;
    const pose = new Float64Array(7);
    p.world.getOriginPose((t.dynamic[1]._pluginData as { handle: number }).handle, pose, 0);
    expect([node.position.x, node.position.y, node.position.z]).toEqual([pose[0], pose[1], pose[2]]);
    runTo(1000);

    // 2. From bytes: serialised at 1,000, diverge, read back, restore, replay.
    const bytes = p.snapshot().toBytes();
    expect(bytes).toBeInstanceOf(ArrayBuffer);
    diverge(t, 100);
    p.restore(PhysicsSnapshot.fromBytes(new Uint8Array(bytes)));
    t.stepIndex = 1000;
    runTo(1500);

    // 3. A clone restored after 200 more steps of the same play (rewinding without divergence).
    const s1500 = p.snapshot().clone();
    runTo(1700);
    p.restore(s1500);
    t.stepIndex = 1500;
    runTo(STEPS);

    expect(hashes).toEqual(refHashes);
    expect(asleepCount(t)).toBe(refAsleep[STEPS - 1]);
    // What the renderer shows ends bit-identical too (nodes and thin instances).
    expect(nodeState(t)).toEqual(nodeState(ref));
    ref.scene.dispose();
    t.scene.dispose();
  }, 300_000);

  it("a restore undoes plugin-side settings: shape material, filters and trigger flag, mass, activation control, CCD mode read back as at the snapshot", () => {
    const t = build();
    const p = plugin(t);
    for (let k = 0; k < 20; k++) t.step();
    const [, box, capsule, cylinder, hull] = t.dynamic;
    const before = {
      material: box.shape!.material,
      membership: capsule.shape!.filterMembershipMask,
      collide: capsule.shape!.filterCollideMask,
      trigger: cylinder.shape!.isTrigger,
      mass: hull.getMassProperties().mass,
      ccd: p.getContinuousDetection(t.bullets[0]).mode,
      motor: t.hinge.getAxisMotorTarget(B.PhysicsConstraintAxis.ANGULAR_X),
      gravity: p.world.getGravity({ x: 0, y: 0, z: 0 }),
    };
    const snap = p.snapshot();
    diverge(t, 5);
    expect(box.shape!.material.friction).toBe(0.05);
    p.restore(snap);
    expect(box.shape!.material).toMatchObject(before.material);
    expect(capsule.shape!.filterMembershipMask).toBe(before.membership);
    expect(capsule.shape!.filterCollideMask).toBe(before.collide);
    expect(cylinder.shape!.isTrigger).toBe(before.trigger);
    expect(hull.getMassProperties().mass).toBe(before.mass);
    expect(p.getContinuousDetection(t.bullets[0]).mode).toBe(before.ccd);
    expect(t.hinge.getAxisMotorTarget(B.PhysicsConstraintAxis.ANGULAR_X)).toBe(before.motor);
    expect(p.world.getGravity({ x: 0, y: 0, z: 0 })).toEqual(before.gravity);
    t.scene.dispose();
  });

  it("snapshot(reuse) writes into an old snapshot's memory and returns it; restoring either gives its own moment", () => {
    const t = build();
    const p = plugin(t);
    for (let k = 0; k < 10; k++) t.step();
    const a = p.snapshot();
    const hashA = p.stateHash();
    for (let k = 0; k < 10; k++) t.step();
    const hashB = p.stateHash();
    const old = p.snapshot();
    const b = p.snapshot(old);
    expect(b).toBe(old);
    for (let k = 0; k < 10; k++) t.step();
    p.restore(a);
    expect(p.stateHash()).toBe(hashA);
    p.restore(b);
    expect(p.stateHash()).toBe(hashB);
    // Bytes of a reused snapshot are exactly its length (the header's length matches fromBytes' check).
    expect(PhysicsSnapshot.fromBytes(b.toBytes()).byteLength).toBe(b.byteLength);
    // A snapshot too small to hold the state is not written into: a new one is returned.
    const tiny = new ContinuumPlugin().snapshot(); // an empty world's
    expect(tiny.byteLength).toBeLessThan(a.byteLength);
    const fresh = p.snapshot(tiny);
    expect(fresh).not.toBe(tiny);
    expect(fresh.byteLength).toBe(a.byteLength);
    expect(() => p.snapshot({} as PhysicsSnapshot)).toThrow(TypeError);
    t.scene.dispose();
  });

  describe("structural changes are refused, naming what changed, and leave the scene as it was", () => {
    function setup() {
      const t = build();
      for (let k = 0; k < 10; k++) t.step();
      const p = plugin(t);
      return { t, p, snap: p.snapshot(), hash: p.stateHash() };
    }

    it("a body created since the snapshot", () => {
      const { t, p, snap, hash } = setup();
      const extra = B.MeshBuilder.CreateBox("extra", { size: 1 }, t.scene);
      const agg = new B.PhysicsAggregate(extra, B.PhysicsShapeType.BOX, { mass: 1 }, t.scene);
      expect(() => p.restore(snap)).toThrow(/bodies created since the snapshot: 'extra'/);
      expect(p.stateHash()).not.toBe(0);
      agg.dispose();
      // Without the extra body the structure matches again: the restore goes through.
      p.restore(snap);
      expect(p.stateHash()).toBe(hash);
      t.scene.dispose();
    });

    it("a body disposed since the snapshot", () => {
      const { t, p, snap } = setup();
      const h = (t.dynamic[3]._pluginData as { handle: number }).handle;
      const before = p.stateHash();
      t.dynamic[3].dispose();
      const after = p.stateHash();
      expect(() => p.restore(snap)).toThrow(new RegExp(`bodies disposed since the snapshot: handle ${h}`));
      expect(p.stateHash()).toBe(after);
      expect(after).not.toBe(before);
      t.scene.dispose();
    });

    it("a constraint added since the snapshot", () => {
      const { t, p, snap } = setup();
      t.dynamic[0].addConstraint(t.dynamic[1], new B.DistanceConstraint(1, t.scene));
      expect(() => p.restore(snap)).toThrow(/constraints changed since the snapshot \(8 joints then, 9 now\)/);
      t.scene.dispose();
    });

    it("a body given another shape, and a container whose children changed", () => {
      const { t, p, snap, hash } = setup();
      const body = t.dynamic[0];
      const old = body.shape!;
      body.shape = new B.PhysicsShapeSphere(new B.Vector3(0, 0, 0), 0.4, t.scene);
      expect(() => p.restore(snap)).toThrow(/body 'b0' \(handle \d+\) has another shape than at the snapshot/);
      body.shape = old;
      p.restore(snap);
      expect(p.stateHash()).toBe(hash);
      (t.dynamic[5].shape as B.PhysicsShapeContainer).addChild(new B.PhysicsShapeSphere(new B.Vector3(0, 0, 0), 0.1, t.scene), new B.Vector3(0, 0.5, 0));
      expect(() => p.restore(snap)).toThrow(/shape \d+ \(CONTAINER\) was rebuilt \(container children added or removed\) since the snapshot/);
      t.scene.dispose();
    });

    it("bad input: not a snapshot, bytes that are not a snapshot, a snapshot of another scene", () => {
      const { t, p, snap } = setup();
      expect(() => p.restore({} as PhysicsSnapshot)).toThrow(TypeError);
      expect(() => PhysicsSnapshot.fromBytes(new ArrayBuffer(3))).toThrow(/got 3 bytes/);
      expect(() => PhysicsSnapshot.fromBytes(new Uint8Array(64).buffer)).toThrow(/snapshot mark/);
      expect(() => PhysicsSnapshot.fromBytes(snap.toBytes().slice(0, 5000))).toThrow(/truncated or padded \(5000 bytes, its header says \d+\)/);
      const other = build();
      expect(() => plugin(other).restore(snap)).toThrow(/another ContinuumPlugin/);
      other.scene.dispose();
      t.scene.dispose();
    });
  });
});
