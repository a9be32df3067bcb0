/**
 * Issue 16 item 5 (heavy on light): stacks of 1 m boxes with large mass ratios on a static ground, through
 * Babylon.
 *
 * A soft contact sized on its pair's effective mass, which the light box dominates, compresses under a heavy
 * load by x = m_heavy g / (m_eff w^2) (w = 2 pi 60 Hz, m_eff about a quarter of the light box's mass per contact
 * point): 0.07 mm per unit of mass ratio, 69 mm at 1000:1 before shock propagation. With it
 * (src/dynamics/contacts/shockPropagation.ts), a heavy box on a light one solves its contact as if the light one were
 * fixed, and the load goes down to the ground through the light box's support without compressing its springs:
 * each spring holds only the weight of the body right above it against a fixed one, g / w^2 = 0.07 mm.
 *
 * Havok, same scenes (measured with @babylonjs/havok 1.3): 100 kg on 1 kg sinks 33 mm and tilts 1.9 degrees;
 * 1:10:100 sinks 33 mm and tilts 2.1 degrees; 1000 kg on 1 kg squeezes the light box out (the heavy box ends on
 * the ground, the light box tilted 13 degrees a quarter metre aside). Havok is not the reference here: its
 * figures are reported, not asserted.
 */
import { describe, expect, it } from "vitest";
import { MeshBuilder, PhysicsAggregate, PhysicsShapeType, Quaternion, type Mesh } from "@babylonjs/core";
import { makeScene, type TestScene } from "./helpers";

/** Angle (degrees) of a mesh's rotation from upright. */
function tiltDeg(m: Mesh): number {
  const q = m.rotationQuaternion ?? Quaternion.Identity();
  return (2 * Math.acos(Math.min(1, Math.abs(q.w))) * 180) / Math.PI;
}

/**
 * 1 m boxes of the given masses stacked from the ground (top face y = 0) up, `gap` apart (and above the ground):
 * with a gap each box lands on the one below.
 */
function stack(t: TestScene, masses: number[], gap = 0): Mesh[] {
  const ground = MeshBuilder.CreateBox("ground", { width: 20, height: 1, depth: 20 }, t.scene);
  ground.position.y = -0.5;
  new PhysicsAggregate(ground, PhysicsShapeType.BOX, { mass: 0 }, t.scene);
  return masses.map((mass, i) => {
    const box = MeshBuilder.CreateBox(`box${i}`, { size: 1 }, t.scene);
    box.position.y = 0.5 + i * (1 + gap) + gap;
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

const cases: { masses: number[]; gap: number; label: string }[] = [
  { masses: [1, 100], gap: 0, label: "100 kg on 1 kg" },
  { masses: [1, 1000], gap: 0, label: "1000 kg on 1 kg" },
  { masses: [1, 10, 100], gap: 0, label: "a 1:10:100 stack" },
  { masses: [1, 30, 1000], gap: 0, label: "a 1:30:1000 stack" },
  { masses: [1, 1000], gap: 0.01, label: "1000 kg dropped 1 cm onto 1 kg" },
  { masses: [1, 10, 100], gap: 0.01, label: "a 1:10:100 stack dropped 1 cm a box" },
];

describe("heavy bodies on light ones (issue 16 item 5)", () => {
  for (const c of cases) {
    it(`continuum: ${c.label} holds within 2 mm and 1 degree`, async () => {
      const t = await makeScene("continuum");
      const boxes = stack(t, c.masses, c.gap);
      const r = settle(t, boxes);
      // Each contact's spring holds the weight of one body against a fixed one (0.07 mm; measured 0.1 mm).
      // 2 mm; without shock propagation the sag is 0.07 mm per unit of mass ratio: 7, 69, 8, 75 mm.
      expect(r.sink).toBeLessThan(0.002);
      // A square stack has no reason to turn or move (measured 0.00-0.04 degrees and under 1 mm; 3.3 degrees at
      // 1000:1 without shock propagation, and the heavy box slides 9 cm).
      expect(r.tilt).toBeLessThan(1);
      expect(r.drift).toBeLessThan(0.01);
      t.dispose();
    });
  }
});
