/** The inspector's PhysicsViewer draws Continuum bodies (getBodyGeometry + syncTransform on its debug meshes). */
import { describe, expect, it } from "vitest";
import { FreeCamera, Matrix, Vector3, MeshBuilder, PhysicsAggregate, PhysicsShapeType, PhysicsViewer } from "@babylonjs/core";
import { makeScene } from "./helpers";

describe("continuum: PhysicsViewer", () => {
  it("shows every primitive and an instanced body, and its debug meshes follow the bodies", async () => {
    const t = await makeScene("continuum");
    new FreeCamera("cam", new Vector3(0, 5, -20), t.scene);
    const viewer = new PhysicsViewer(t.scene);
    const types = [PhysicsShapeType.SPHERE, PhysicsShapeType.BOX, PhysicsShapeType.CAPSULE, PhysicsShapeType.CYLINDER];
    const aggs = types.map((type, i) => {
      const m = MeshBuilder.CreateBox("m" + i, { size: 1 }, t.scene);
      m.position.set(i * 2, 5, 0);
      return new PhysicsAggregate(m, type, { mass: 1 }, t.scene);
    });
    const inst = MeshBuilder.CreateBox("inst", { size: 1 }, t.scene);
    inst.thinInstanceAdd(Matrix.Translation(0, 8, 3));
    inst.thinInstanceAdd(Matrix.Translation(2, 8, 3));
    aggs.push(new PhysicsAggregate(inst, PhysicsShapeType.BOX, { mass: 1 }, t.scene));
    const debug = aggs.map((a) => viewer.showBody(a.body));
    for (const d of debug) expect(d).toBeTruthy();
    t.step(30);
    t.scene.render();
    // the sphere's debug mesh follows the falling body
    expect(debug[0]!.position.y).toBeLessThan(5);
    expect(Math.abs(debug[0]!.position.y - aggs[0].transformNode.position.y)).toBeLessThan(0.02);
    viewer.dispose();
    t.dispose();
  });
});
