/**
 * WorldDebugView over a plugin's world (`continuum-physics/debug`, src/world/debugView.ts): the last step's contacts, velocity-expanded bounds and
 * Continuous sweeps / times of impact, read through Babylon at 1/60 s steps.
 */
import { MeshBuilder, PhysicsAggregate, PhysicsShapeType, Quaternion, Vector3 } from "@babylonjs/core";
import { afterEach, describe, expect, it } from "vitest";
import { ContinuousDetection, ContinuumPlugin } from "../../plugin/index";
import {
  DEBUG_BOUNDS_STRIDE,
  DEBUG_CONTACT_STRIDE,
  DEBUG_SWEEP_STRIDE,
  DebugBounds,
  DebugBoundsFlag,
  DebugContact,
  DebugSweep,
  DebugSweepKind,
  WorldDebugView,
} from "../../plugin/debug";
import { makeScene, type TestScene } from "./helpers";

const DT = 1 / 60;
const G = 9.81;
let ts: TestScene | undefined;
afterEach(() => {
  ts?.dispose();
  ts = undefined;
});

/** The plugin's debug view, one per plugin (as an app keeps it). */
const views = new WeakMap<ContinuumPlugin, WorldDebugView>();
function debugView(plugin: ContinuumPlugin): WorldDebugView {
  let v = views.get(plugin);
  if (!v) views.set(plugin, (v = new WorldDebugView(plugin.world)));
  return v;
}

async function continuumScene(gravity = new Vector3(0, -G, 0)): Promise<{ ts: TestScene; plugin: ContinuumPlugin }> {
  ts = await makeScene("continuum", { gravity });
  return { ts, plugin: ts.plugin as ContinuumPlugin };
}

function groundBox(t: TestScene, top = 0): PhysicsAggregate {
  const g = MeshBuilder.CreateBox("ground", { width: 20, height: 1, depth: 20 }, t.scene);
  g.position.y = top - 0.5;
  return new PhysicsAggregate(g, PhysicsShapeType.BOX, { mass: 0, friction: 0.5, restitution: 0 }, t.scene);
}

function sphere(t: TestScene, diameter: number, x: number, y: number, z = 0, mass = 1): PhysicsAggregate {
  const m = MeshBuilder.CreateSphere("ball", { diameter, segments: 8 }, t.scene);
  m.position.set(x, y, z);
  return new PhysicsAggregate(m, PhysicsShapeType.SPHERE, { mass, friction: 0.5, restitution: 0 }, t.scene);
}

describe("WorldDebugView through the plugin", () => {
  it("contacts: a resting sphere's contact is at the ground, normal vertical, touching, carrying m g dt", async () => {
    const { ts, plugin } = await continuumScene();
    groundBox(ts);
    sphere(ts, 1, 0, 0.5, 0, 2);
    ts.step(20); // settled (it starts touching), not yet asleep
    const out = new Float64Array(16 * DEBUG_CONTACT_STRIDE);
    const n = debugView(plugin).contacts(out);
    // A sphere on a box: one contact point.
    expect(n).toBe(1);
    // At the bottom of the sphere, on the ground's top face (the solver settles it within a millimetre).
    expect(out[DebugContact.pointX]).toBeCloseTo(0, 3);
    expect(out[DebugContact.pointX + 1]).toBeCloseTo(0, 2);
    // The normal is vertical (its sign is the pair's A-to-B order).
    expect(Math.abs(out[DebugContact.normalX + 1])).toBeCloseTo(1, 6);
    // Touching: separation within the solver's resting slop (a few mm at most).
    expect(Math.abs(out[DebugContact.separation])).toBeLessThan(0.005);
    // The impulse over one step holds up the weight: m g dt = 2 * 9.81 / 60 = 0.327 N s (±5%: the spring's rest wobble).
    expect(out[DebugContact.impulse]).toBeCloseTo(2 * G * DT, 1);
    expect(Math.abs(out[DebugContact.impulse] - 2 * G * DT) / (2 * G * DT)).toBeLessThan(0.05);
  });

  it("contacts: a sphere gliding along a box's face 5 cm off keeps a speculative (separated) contact", async () => {
    const { ts, plugin } = await continuumScene(Vector3.Zero());
    // A 2 m box turned 45 degrees about y: its bounds reach past its faces, so a sphere 5 cm off a face is
    // a broad-phase pair (bounds grow with motion only, as bepu's do).
    const block = MeshBuilder.CreateBox("block", { size: 2 }, ts.scene);
    block.rotationQuaternion = Quaternion.RotationAxis(Vector3.Up(), Math.PI / 4);
    new PhysicsAggregate(block, PhysicsShapeType.BOX, { mass: 0 }, ts.scene);
    const n = new Vector3(1, 0, 1).normalize(); // the face's normal; the face is 1 m from the centre
    const c = n.scale(1 + 0.5 + 0.05);
    const s = sphere(ts, 1, c.x, c.y, c.z);
    // Moving along the face at 6 m/s: its velocity-based margin (0.1 m per step) covers the 5 cm gap.
    s.body.setLinearVelocity(new Vector3(1, 0, -1).normalize().scale(6));
    ts.step(1);
    const out = new Float64Array(8 * DEBUG_CONTACT_STRIDE);
    expect(debugView(plugin).contacts(out)).toBe(1);
    // Nothing closes the gap (no velocity towards the face): it stays 5 cm, a speculative contact, no impulse.
    expect(out[DebugContact.separation]).toBeCloseTo(0.05, 4);
    expect(out[DebugContact.impulse]).toBe(0);
    // Along the face normal (sign: the pair's A-to-B order).
    expect(Math.abs(out[DebugContact.normalX] * n.x + out[DebugContact.normalX + 2] * n.z)).toBeCloseTo(1, 6);
  });

  it("bounds: a Passive body's bounds cover its motion over the step; statics are flagged", async () => {
    const { ts, plugin } = await continuumScene(Vector3.Zero());
    groundBox(ts, -5);
    const s = sphere(ts, 1, 0, 0);
    s.body.setLinearVelocity(new Vector3(30, 0, 0));
    ts.step(1);
    const out = new Float64Array(4 * DEBUG_BOUNDS_STRIDE);
    const n = debugView(plugin).bounds(out);
    expect(n).toBe(2);
    const handle = (s.body._pluginData as { handle: number }).handle;
    const k = out[DebugBounds.handle] === handle ? 0 : 1;
    const o = k * DEBUG_BOUNDS_STRIDE;
    expect(out[o + DebugBounds.flags]).toBe(DebugBoundsFlag.Moving);
    // Predicted at the start of the step (centre x = 0): the sphere's 1 m plus v dt = 0.5 m ahead in x.
    expect(out[o + DebugBounds.minX]).toBeCloseTo(-0.5, 6);
    expect(out[o + DebugBounds.maxX]).toBeCloseTo(0.5 + 30 * DT, 6);
    expect(out[o + DebugBounds.maxX + 1] - out[o + DebugBounds.minX + 1]).toBeCloseTo(1, 6);
    expect(out[(1 - k) * DEBUG_BOUNDS_STRIDE + DebugBounds.flags]).toBe(DebugBoundsFlag.Static);
  });

  /** A Continuous 0.45 m ball at 150 m/s towards an 8 cm wall 1.5 m ahead, margin capped at 10 cm. */
  async function shot(enabled: boolean) {
    const { ts, plugin } = await continuumScene(Vector3.Zero());
    const wall = MeshBuilder.CreateBox("wall", { width: 0.08, height: 3, depth: 3 }, ts.scene);
    wall.position.set(6, 0, 0);
    new PhysicsAggregate(wall, PhysicsShapeType.BOX, { mass: 0 }, ts.scene);
    const ball = sphere(ts, 0.45, 4.5 - 2.5, 0, 0, 0.2);
    plugin.setContinuousDetection(ball.body, ContinuousDetection.continuous());
    plugin.setSpeculativeMargins(ball.body, 0, 0.1);
    ball.body.setLinearVelocity(new Vector3(150, 0, 0));
    debugView(plugin).enabled = enabled;
    ts.step(1); // 2.0 -> 4.5: not there yet
    ts.step(1); // 4.5 -> 7.0 would pass the wall at 5.96
    const out = new Float64Array(4 * DEBUG_SWEEP_STRIDE);
    const n = debugView(plugin).sweeps(out);
    return { plugin, ball, out, n, hash: plugin.world.stateHash() };
  }

  it("sweeps: the Continuous ball's start, end and time-of-impact poses", async () => {
    const { out, n, ball } = await shot(true);
    expect(n).toBe(1);
    expect(out[DebugSweep.handle]).toBe((ball.body._pluginData as { handle: number }).handle);
    expect(out[DebugSweep.kind]).not.toBe(DebugSweepKind.None);
    // Start of the second step at x = 4.5 (the first step flew freely: 2.0 + 150 / 60).
    expect(out[DebugSweep.start]).toBeCloseTo(4.5, 6);
    // The swept motion ends 2.5 m on, behind the wall.
    expect(out[DebugSweep.end]).toBeCloseTo(7.0, 6);
    // Impact when the ball's surface reaches the wall's face at 5.96: centre at 5.96 - 0.225 = 5.735, a
    // fraction (5.735 - 4.5) / 2.5 = 0.494 of the step; the sweep stops short by its convergence distance
    // (bepu's 1e-3 of the step's motion per default, here a few mm).
    expect(out[DebugSweep.toiPose]).toBeGreaterThan(5.735 - 0.01);
    expect(out[DebugSweep.toiPose]).toBeLessThanOrEqual(5.735 + 1e-9);
    expect(out[DebugSweep.toi]).toBeCloseTo((out[DebugSweep.toiPose] - 4.5) / 2.5, 6);
    // Orientation unchanged (no spin), local bounds are the sphere's.
    expect(out[DebugSweep.toiPose + 6]).toBeCloseTo(1, 9);
    expect(out[DebugSweep.localMax]).toBeCloseTo(0.225, 9);
    expect(out[DebugSweep.localMin + 1]).toBeCloseTo(-0.225, 9);
  });

  it("sweeps: off, no time of impact is recorded; recording does not change the simulation", async () => {
    const on = await shot(true);
    ts?.dispose();
    const off = await shot(false);
    expect(off.n).toBe(1);
    expect(off.out[DebugSweep.kind]).toBe(DebugSweepKind.None);
    expect(Number.isNaN(off.out[DebugSweep.toi])).toBe(true);
    // Start: where the step began; end: where the ball ended (stopped at the wall, not through it).
    expect(off.out[DebugSweep.start]).toBeCloseTo(4.5, 6);
    expect(off.out[DebugSweep.end]).toBeLessThan(6 - 0.04 - 0.2);
    // Same bits with and without the recorder.
    expect(off.hash).toBe(on.hash);
  });
});
