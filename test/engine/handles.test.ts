import { describe, expect, it } from "vitest";
import { Box, MotionType, Sphere, World } from "../../src/index";
import { pos } from "./helpers";

describe("bodies and handles", () => {
  it("a stale handle is an error, never another body", () => {
    const w = new World();
    const a = w.createBody({ position: { x: 1, y: 2, z: 3 }, collidable: { shape: new Sphere(0.5) } });
    w.removeBody(a);
    const b = w.createBody({ position: { x: 7, y: 8, z: 9 }, collidable: { shape: new Sphere(0.5) } });
    expect(b).not.toBe(a);
    expect(w.isAlive(a)).toBe(false);
    expect(() => w.getPosition(a, { x: 0, y: 0, z: 0 })).toThrow(RangeError);
    expect(() => w.getPosition(a, { x: 0, y: 0, z: 0 })).toThrow(/handle/);
    expect(pos(w, b)).toEqual({ x: 7, y: 8, z: 9 });
  });

  it("removing a body in the middle keeps the others' state (swap-remove)", () => {
    const w = new World({ gravity: { x: 0, y: 0, z: 0 } });
    const hs = [0, 1, 2, 3, 4].map((i) =>
      w.createBody({ position: { x: i * 3, y: 0, z: 0 }, linearVelocity: { x: 0, y: i, z: 0 }, collidable: { shape: new Box(0.5, 0.5, 0.5) } }),
    );
    w.removeBody(hs[1]);
    w.step(1);
    for (const i of [0, 2, 3, 4]) {
      expect(pos(w, hs[i]).x).toBe(i * 3);
      expect(pos(w, hs[i]).y).toBeCloseTo(i, 12);
    }
    expect(w.bodyCount).toBe(4);
  });

  it("bodies can be added and removed between any steps, including the static kind", () => {
    const w = new World();
    const ground = w.createBody({ motionType: MotionType.Static, position: { x: 0, y: -0.5, z: 0 }, collidable: { shape: new Box(10, 0.5, 10) } });
    const b = w.createBody({ position: { x: 0, y: 0.5, z: 0 }, collidable: { shape: new Box(0.5, 0.5, 0.5) } });
    for (let i = 0; i < 30; i++) w.step(1 / 60);
    w.removeBody(ground);
    for (let i = 0; i < 30; i++) w.step(1 / 60);
    // Without the ground it falls.
    expect(pos(w, b).y).toBeLessThan(0);
  });

  it("rejects bad input with errors naming the argument", () => {
    const w = new World();
    expect(() => w.createBody({ position: { x: NaN, y: 0, z: 0 } })).toThrow(/position/);
    expect(() => new Box(-1, 1, 1)).toThrow(/halfX/);
    expect(() => w.step(-1)).toThrow(/dt/);
    expect(() => w.createBody({ collidable: { shape: new Sphere(1), material: { restitution: 2 } } })).toThrow(/restitution/);
    expect(w.bodyCount).toBe(0);
  });

  it("sleeping bodies wake when touched, when pushed, and on velocity changes", () => {
    const w = new World();
    w.createBody({ motionType: MotionType.Static, position: { x: 0, y: -0.5, z: 0 }, collidable: { shape: new Box(10, 0.5, 10) } });
    const b = w.createBody({ position: { x: 0, y: 0.5, z: 0 }, collidable: { shape: new Box(0.5, 0.5, 0.5) } });
    for (let i = 0; i < 90; i++) w.step(1 / 60);
    expect(w.isSleeping(b)).toBe(true);
    w.applyLinearImpulse(b, { x: 100, y: 0, z: 0 });
    expect(w.isSleeping(b)).toBe(false);
    for (let i = 0; i < 120; i++) w.step(1 / 60);
    expect(w.isSleeping(b)).toBe(true);
    // A falling box lands on it and wakes it.
    w.createBody({ position: { x: pos(w, b).x, y: 3, z: 0 }, collidable: { shape: new Box(0.5, 0.5, 0.5) } });
    let woke = false;
    for (let i = 0; i < 60; i++) {
      w.step(1 / 60);
      if (!w.isSleeping(b)) woke = true;
    }
    expect(woke).toBe(true);
    // startAsleep keeps a body in mid-air until something wakes it.
    const floating = w.createBody({ position: { x: 5, y: 5, z: 0 }, startAsleep: true, collidable: { shape: new Sphere(0.5) } });
    for (let i = 0; i < 30; i++) w.step(1 / 60);
    expect(pos(w, floating).y).toBe(5);
    w.setLinearVelocity(floating, { x: 0, y: 1, z: 0 });
    w.step(1 / 60);
    expect(pos(w, floating).y).toBeGreaterThan(5);
  });
  it("getOriginPose writes the origin (not the centre of mass) and the orientation as seven numbers", () => {
    const w = new World({ gravity: { x: 0, y: 0, z: 0 } });
    // 90 degrees about z, centre of mass 1 m along the body's local x: the origin sits 1 m below the
    // centre of mass in world y once rotated (R * (1, 0, 0) = (0, 1, 0)).
    const s = Math.SQRT1_2;
    const h = w.createBody({
      position: { x: 2, y: 3, z: 4 },
      orientation: { x: 0, y: 0, z: s, w: s },
      collidable: { shape: new Box(0.5, 0.5, 0.5) },
      massProperties: { centerOfMass: { x: 1, y: 0, z: 0 } },
    });
    const out = new Float64Array(9).fill(-7);
    w.getOriginPose(h, out, 1);
    expect(out[0]).toBe(-7); // writes only out[1..7]
    expect(out[8]).toBe(-7);
    // 1e-12: one quaternion rotation in doubles.
    expect(out[1]).toBeCloseTo(2, 12);
    expect(out[2]).toBeCloseTo(3, 12);
    expect(out[3]).toBeCloseTo(4, 12);
    expect([out[4], out[5], out[6], out[7]]).toEqual([0, 0, s, s]);
    const com = w.getCenterOfMass(h, { x: 0, y: 0, z: 0 });
    expect(com.x).toBeCloseTo(2, 12);
    expect(com.y).toBeCloseTo(4, 12);
    expect(() => w.getOriginPose(-1, out, 0)).toThrow(/getOriginPose/);
  });
});
