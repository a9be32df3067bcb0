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
});
