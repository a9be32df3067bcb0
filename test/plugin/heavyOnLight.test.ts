/**
 * Issue 16 item 5 (heavy on light): stacks of 1 m boxes with large mass ratios on a static ground, through
 * Babylon. The contact is a soft spring sized on the pair's effective mass, which the light box dominates, so
 * under a heavy load it compresses by x = m_heavy g / (m_eff w^2) (w = 2 pi 60 Hz; m_eff per contact point about
 * a quarter of the light box's mass for a box face): 0.07 mm per unit of mass ratio at the upper contact, plus
 * the ground contact (twice the frequency) under the whole stack.
 *
 * Havok, same scenes (measured with @babylonjs/havok 1.3): 100 kg on 1 kg sinks 33 mm and tilts 1.9 degrees;
 * 1:10:100 sinks 33 mm and tilts 2.1 degrees; 1000 kg on 1 kg squeezes the light box out (the heavy box ends on
 * the ground, the light box tilted 13 degrees a quarter metre aside). Continuum holds all three; at 1000:1 it
 * still sinks 7 cm (the issue asks for 1-2 cm: not met yet, see README's differences).
 */
import { describe, expect, it } from "vitest";
import { MeshBuilder, PhysicsAggregate, PhysicsShapeType, Quaternion, type Mesh } from "@babylonjs/core";
import { makeScene, type TestScene } from "./helpers";

/** Angle (degrees) of a mesh's rotation from upright. */
function tiltDeg(m: Mesh): number {
  const q = m.rotationQuaternion ?? Quaternion.Identity();
  return (2 * Math.acos(Math.min(1, Math.abs(q.w))) * 180) / Math.PI;
}

/** 1 m boxes of the given masses stacked from the ground (top face y = 0) up, each resting on the one below. */
function stack(t: TestScene, masses: number[]): Mesh[] {
  const ground = MeshBuilder.CreateBox("ground", { width: 20, height: 1, depth: 20 }, t.scene);
  ground.position.y = -0.5;
  new PhysicsAggregate(ground, PhysicsShapeType.BOX, { mass: 0 }, t.scene);
  return masses.map((mass, i) => {
    const box = MeshBuilder.CreateBox(`box${i}`, { size: 1 }, t.scene);
    box.position.y = 0.5 + i;
    new PhysicsAggregate(box, PhysicsShapeType.BOX, { mass }, t.scene);
    return box;
  });
}

/**
 * Steps 1 s to settle, then 5 s, and returns the worst overlap (m) of any box with the one below it (or the
 * ground) over those 5 s, measured between centres (each box is 1 m tall), the worst tilt (degrees) and the
 * largest horizontal drift of any box (m).
 */
function settle(t: TestScene, boxes: Mesh[]): { sink: number; tilt: number; drift: number } {
  t.step(60);
  let sink = 0,
    tilt = 0,
    drift = 0;
  for (let s = 0; s < 300; s++) {
    t.step(1);
    for (let i = 0; i < boxes.length; i++) {
      const below = i === 0 ? -0.5 : boxes[i - 1].position.y;
      sink = Math.max(sink, 1 - (boxes[i].position.y - below));
      tilt = Math.max(tilt, tiltDeg(boxes[i]));
      drift = Math.max(drift, Math.hypot(boxes[i].position.x, boxes[i].position.z));
    }
  }
  return { sink, tilt, drift };
}

describe("heavy bodies on light ones (issue 16 item 5)", () => {
  it("continuum: 100 kg on 1 kg holds within 1 cm and 1 degree (Havok: 33 mm, 1.9 degrees)", async () => {
    const t = await makeScene("continuum");
    const r = settle(t, stack(t, [1, 100]));
    // The upper contact: 100 x 0.07 = 7 mm (measured 6.9 mm); the ground's under 101 kg: 1.7 mm. 1 cm.
    expect(r.sink).toBeLessThan(0.01);
    // A square stack has no reason to turn or move: a symmetric load; round-off only (measured 0.01 degrees).
    expect(r.tilt).toBeLessThan(1);
    expect(r.drift).toBeLessThan(0.01);
    t.dispose();
  });

  it("continuum: a 1:10:100 stack holds within 1 cm per contact and 1 degree (Havok: 33 mm, 2.1 degrees)", async () => {
    const t = await makeScene("continuum");
    const r = settle(t, stack(t, [1, 10, 100]));
    // The worst contact is the 1 kg box's top, with 110 kg on it: 110 x 0.07 = 8 mm (measured 8.3 mm); the ground
    // under 111 kg 1.9 mm; the 10 kg box under 100 kg 0.8 mm. 1 cm.
    expect(r.sink).toBeLessThan(0.01);
    expect(r.tilt).toBeLessThan(1);
    expect(r.drift).toBeLessThan(0.01);
    t.dispose();
  });

  it("continuum: 1000 kg on 1 kg stays stacked (Havok squeezes the light box out)", async () => {
    const t = await makeScene("continuum");
    const boxes = stack(t, [1, 1000]);
    const r = settle(t, boxes);
    // The spring's sag at 1000:1: 69 mm at the upper contact (9810 N on four contact points of 0.25 kg effective
    // mass each at 60 Hz) and 17 mm at the ground (the same load at 120 Hz). 10 cm bounds both; a box squeezed
    // out drops the heavy one by a whole metre.
    expect(r.sink).toBeLessThan(0.1);
    // Measured 3.3 degrees at most while it settles (the light box rocks under the load), 1.7 at the end. 5.
    expect(r.tilt).toBeLessThan(5);
    expect(r.drift).toBeLessThan(0.1);
    // The heavy box is still on top of the light one.
    expect(boxes[1].position.y).toBeGreaterThan(boxes[0].position.y + 0.8);
    t.dispose();
  });
});
