import { describe, expect, it } from "vitest";
import { Box, Capsule, Compound, Cylinder, Sphere, World } from "../../src/index";
import { axisAngle } from "./helpers";

const world = new World();

describe("mass properties from density (checked against analytic values and Havok's numbers)", () => {
  it("box 1 m at 1000 kg/m^3: 1000 kg, inertia 1000/6", () => {
    const m = world.computeMassProperties(new Box(0.5, 0.5, 0.5), 1000);
    expect(m.mass).toBeCloseTo(1000, 9);
    expect(m.inertia.x).toBeCloseTo(1000 / 6, 9);
    expect(m.inertia.y).toBeCloseTo(1000 / 6, 9);
  });

  it("sphere r 1: 4188.79 kg, inertia 0.4 m r^2", () => {
    const m = world.computeMassProperties(new Sphere(1), 1000);
    expect(m.mass).toBeCloseTo((4000 / 3) * Math.PI, 6);
    expect(m.inertia.x / m.mass).toBeCloseTo(0.4, 12);
  });

  it("capsule (0,-1,0)-(0,1,0) r 0.5: 2094.4 kg, per-unit inertia (0.666, 0.119, 0.666) as Havok", () => {
    const m = world.computeMassProperties(new Capsule(0.5, 1), 1000);
    expect(m.mass).toBeCloseTo(2094.395, 2);
    const ix = m.inertia.x / m.mass,
      iy = m.inertia.y / m.mass;
    // Havok reports 0.666 and 0.119 (3 digits).
    expect(Math.abs(ix - 0.666)).toBeLessThan(1e-3);
    expect(Math.abs(iy - 0.119)).toBeLessThan(1e-3);
  });

  it("cylinder r 0.5 height 2: 1570.8 kg, I = m(3r^2 + h^2)/12 and m r^2 / 2", () => {
    const m = world.computeMassProperties(new Cylinder(0.5, 1), 1000);
    expect(m.mass).toBeCloseTo(1570.796, 2);
    expect(m.inertia.y).toBeCloseTo((m.mass * 0.25) / 2, 6);
    expect(m.inertia.x).toBeCloseTo((m.mass * (3 * 0.25 + 4)) / 12, 6);
  });

  it("compound: a sphere child at x = 2 puts the centre of mass at (2, 0, 0)", () => {
    const m = world.computeMassProperties(new Compound([{ shape: new Sphere(0.5), position: { x: 2, y: 0, z: 0 } }]), 1000);
    expect(m.centerOfMass.x).toBeCloseTo(2, 12);
    expect(m.inertia.x / m.mass).toBeCloseTo(0.4 * 0.25, 12);
  });

  it("compound of two boxes: parallel axis theorem and principal axes of a rotated child", () => {
    const two = world.computeMassProperties(
      new Compound([
        { shape: new Box(0.5, 0.5, 0.5), position: { x: -1, y: 0, z: 0 } },
        { shape: new Box(0.5, 0.5, 0.5), position: { x: 1, y: 0, z: 0 } },
      ]),
      1000,
    );
    expect(two.mass).toBeCloseTo(2000, 9);
    // Each box: 1000/6 about its centre plus 1000 * 1^2 about the y and z axes through the middle.
    const moments = [two.inertia.x, two.inertia.y, two.inertia.z].sort((a, b) => a - b);
    expect(moments[0]).toBeCloseTo(2000 / 6, 6);
    expect(moments[1]).toBeCloseTo(2000 / 6 + 2000, 6);
    // A long box rotated 30 degrees about z: principal moments are the box's own.
    const rot = world.computeMassProperties(new Compound([{ shape: new Box(2, 0.5, 0.5), orientation: axisAngle(0, 0, 1, Math.PI / 6) }]), 1000);
    const m = rot.mass;
    const expected = [(m * (0.25 + 0.25)) / 3, (m * (4 + 0.25)) / 3, (m * (4 + 0.25)) / 3].sort((a, b) => a - b);
    const got = [rot.inertia.x, rot.inertia.y, rot.inertia.z].sort((a, b) => a - b);
    for (let k = 0; k < 3; k++) expect(got[k]).toBeCloseTo(expected[k], 6);
  });

  it("overrides: mass alone scales inertia; mass 0 is infinite; a shapeless body has mass 1 and inertia 1", () => {
    const w = new World();
    const h = w.createBody({ collidable: { shape: new Box(0.5, 0.5, 0.5) }, massProperties: { mass: 2 } });
    const m = w.getMassProperties(h);
    expect(m.mass).toBe(2);
    expect(m.inertia.x).toBeCloseTo(2 / 6, 12);
    const fixed = w.createBody({ position: { x: 5, y: 0, z: 0 }, collidable: { shape: new Box(0.5, 0.5, 0.5) }, massProperties: { mass: 0 } });
    w.step(1 / 60);
    expect(w.getLinearVelocity(fixed, { x: 0, y: 0, z: 0 }).y).toBe(0);
    const bare = w.createBody({ position: { x: 9, y: 0, z: 0 } });
    expect(w.getMassProperties(bare).mass).toBe(1);
    expect(w.getMassProperties(bare).inertia).toEqual({ x: 1, y: 1, z: 1 });
  });
});
