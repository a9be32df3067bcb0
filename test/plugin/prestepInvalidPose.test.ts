/**
 * Issue 29 item 10: the step never throws. A teleport prestep (`disablePreStep = false`) hands the node's pose to
 * the body inside the step; a node left at a pose no setter accepts (a zero quaternion, a NaN position) threw
 * "setPose: orientation must be a finite non-zero quaternion" from the step and stopped the scene. Its body now
 * stays where it is (one warning), and the next valid pose teleports it.
 */
import { describe, expect, it, vi } from "vitest";
import { Logger, MeshBuilder, PhysicsAggregate, PhysicsShapeType, Quaternion, Vector3 } from "@babylonjs/core";
import { makeScene } from "./helpers";

describe("teleport prestep with a node pose no body can take", () => {
  it("continuum: a zero quaternion or a NaN position: the step goes on, the body stays, one warning", async () => {
    const t = await makeScene("continuum", { gravity: Vector3.Zero() });
    const m = MeshBuilder.CreateBox("crate", { size: 0.5 }, t.scene);
    m.position.set(1, 2, 3);
    m.rotationQuaternion = Quaternion.Identity();
    const agg = new PhysicsAggregate(m, PhysicsShapeType.BOX, { mass: 1 }, t.scene);
    agg.body.disablePreStep = false;
    const warn = vi.spyOn(Logger, "Warn").mockImplementation(() => {});
    m.rotationQuaternion = new Quaternion(0, 0, 0, 0);
    expect(() => t.step(3)).not.toThrow();
    const pos = new Vector3(),
      handle = (agg.body._pluginData as { handle: number }).handle;
    const plugin = t.plugin as unknown as { world: { getPosition(h: number, o: Vector3): Vector3; getOrientation(h: number, o: Quaternion): Quaternion } };
    plugin.world.getPosition(handle, pos);
    expect(pos.asArray()).toEqual([1, 2, 3]);
    // The node shows the body where it stays.
    expect(m.rotationQuaternion!.asArray()).toEqual([0, 0, 0, 1]);
    m.position.x = NaN;
    expect(() => t.step(2)).not.toThrow();
    plugin.world.getPosition(handle, pos);
    expect(pos.asArray()).toEqual([1, 2, 3]);
    expect(m.position.asArray()).toEqual([1, 2, 3]);
    expect(warn).toHaveBeenCalledTimes(1); // once per node
    expect(String(warn.mock.calls[0][0])).toMatch(/node 'crate' has a pose no body can take/);
    // A valid pose teleports it again.
    m.position.set(4, 5, 6);
    t.step(1);
    plugin.world.getPosition(handle, pos);
    expect(pos.asArray()).toEqual([4, 5, 6]);
    // A static body (not synced after a step): its node is put back at once.
    const g = MeshBuilder.CreateBox("wall", { size: 1 }, t.scene);
    g.position.set(0, -3, 0);
    g.rotationQuaternion = Quaternion.Identity();
    const wall = new PhysicsAggregate(g, PhysicsShapeType.BOX, { mass: 0 }, t.scene);
    wall.body.disablePreStep = false;
    g.rotationQuaternion = new Quaternion(NaN, 0, 0, 1);
    expect(() => t.step(1)).not.toThrow();
    expect(g.rotationQuaternion!.asArray()).toEqual([0, 0, 0, 1]);
    expect(g.position.asArray()).toEqual([0, -3, 0]);
    warn.mockRestore();
    t.dispose();
  });
});
