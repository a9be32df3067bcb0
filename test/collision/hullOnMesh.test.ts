import { describe, expect, it } from "vitest";
import { ConvexHull, MotionType, TriangleMesh } from "../../src/index";
import { makeWorld, pos, steps } from "../engine/helpers";

// A 12-point hull (from the hulls-500 bench scene) whose centre of mass sits near its bottom: landing on a
// vertex it tips, and its centre crosses the plane while most of it is still above. Two-sided triangles must
// push it back the short way (minimum translation), not toward the side its centre is on.
const points = [0.022605712946665125,-0.2934216390190184,-0.15943332776110705,-0.1517891999066548,0.3126144193741603,-0.14644148135750462,-0.3279314410459917,-0.2629770634130044,-0.12114976338739028,-0.2718751480671873,0.15736806337369152,0.15099492673740725,-0.05114626365167696,0.2425005609565972,-0.4273887748588326,-0.19712609255112717,0.03976976759855007,-0.1527746001415218,-0.11700129530075067,0.46844527508708045,0.07216822483622916,-0.30717592909044683,0.26550718997152184,-0.04489898501164693,-0.25720357844973346,0.0733057007995774,-0.18662331109553865,-0.26335704380851915,-0.22145103498358387,0.21101601014345306,0.293764993918604,0.21382081990954024,-0.312764221746347,-0.2503300991508391,0.19522732182535335,0.18008666384455219];
const orientation = { x: 0.2882562149628482, y: -0.5798350119648418, z: 0.6558346072270388, w: -0.38804726696419317 };

describe("a flat hull landing on a two-sided mesh", () => {
  it("rests on a flat two-triangle mesh as it does on a box floor", () => {
    const world = makeWorld({ sleepingEnabled: false });
    world.createBody({
      motionType: MotionType.Static,
      collidable: { shape: new TriangleMesh([-30, 0, -30, 30, 0, -30, -30, 0, 30, 30, 0, 30], [0, 2, 1, 1, 2, 3]) },
    });
    const h = world.createBody({ position: { x: 0, y: 2, z: 0 }, orientation, collidable: { shape: new ConvexHull(points) }, massProperties: { mass: 1 } });
    steps(world, 180);
    // On a box floor the same hull ends with its origin at y = -0.027 (its origin is near its bottom face).
    expect(pos(world, h).y).toBeGreaterThan(-0.05);
    expect(pos(world, h).y).toBeLessThan(0.5);
  });
});
