import { describe, expect, it } from "vitest";
import { Box, collideShapes, Compound, ConvexHull, Heightfield, ManifoldBuffer, MotionType, Pose, Sphere, TriangleMesh, type World } from "../../src/index";
import "../../src/snapshot"; // installs World.snapshot / restore
import { addGround, makeWorld, pos, steps } from "./helpers";

// The contact cache keeps a convex pair's manifold while the pair's relative pose has barely changed
// (ContactCache.findReusable). A resting pair never moves, so these tests check that what the cache keeps
// is dropped when the geometry changes without a pose change (World.setShape calls ContactCache.forgetBody).
// Today setShape also re-creates the body's broad-phase proxy and the pair is absent for one step, which drops
// the kept manifold as well, so these tests pass without forgetBody; they guard the behaviour, whichever path
// provides it.
describe("contact cache", () => {
  it("a resting box given a slightly lower shape drops onto the ground at its new half height", () => {
    const world = makeWorld({ sleepingEnabled: false });
    addGround(world);
    const h = world.createBody({ position: { x: 0, y: 0.5, z: 0 }, collidable: { shape: new Box(0.5, 0.5, 0.5) } });
    steps(world, 60);
    // Resting on its 0.5 m half height (within the soft contact's sag under gravity: under 1 mm at 60 Hz x 2).
    expect(Math.abs(pos(world, h).y - 0.5)).toBeLessThan(0.002);
    // Same origin, same pose, 2 cm lower (still within the pair's speculative margin, so the pair stays in
    // the narrow phase): last step's manifold, kept at the old bottom face, would hold the box 2 cm up.
    world.setShape(h, new Box(0.5, 0.48, 0.5));
    steps(world, 60);
    // A 2 cm drop takes 0.06 s; after 1 s it rests at 0.48 m (same sag bound as above).
    expect(Math.abs(pos(world, h).y - 0.48)).toBeLessThan(0.002);
  });

  it("a resting box given a larger shape is pushed up to its new half height", () => {
    const world = makeWorld({ sleepingEnabled: false });
    addGround(world);
    const h = world.createBody({ position: { x: 0, y: 0.25, z: 0 }, collidable: { shape: new Box(0.25, 0.25, 0.25) } });
    steps(world, 60);
    world.setShape(h, new Box(0.5, 0.5, 0.5));
    // The new box starts 0.25 m into the ground; recovery at up to 3 m/s (the default maximum recovery
    // velocity) takes under 0.1 s; 2 s settles it.
    steps(world, 120);
    expect(Math.abs(pos(world, h).y - 0.5)).toBeLessThan(0.002);
  });
});

// Pairs against meshes, heightfields and compounds are cached as a run of manifolds (one per triangle or child
// pair): the whole run is kept or the narrow phase runs again.
describe("contact cache: runs of manifolds", () => {
  /** A flat 2-triangle mesh, a 1-cell heightfield and a box ground, side by side; a hull on the mesh, a cube on
   * the heightfield and a two-box compound on the box ground. */
  function build(): World {
    const world = makeWorld({ sleepingEnabled: false });
    world.createBody({
      motionType: MotionType.Static,
      position: { x: -4, y: 0, z: 0 },
      collidable: { shape: new TriangleMesh([-2, 0, -2, 2, 0, -2, 2, 0, 2, -2, 0, 2], [0, 2, 1, 0, 3, 2]) },
    });
    world.createBody({
      motionType: MotionType.Static,
      position: { x: 0, y: 0, z: 0 },
      collidable: { shape: new Heightfield(4, 4, 2, 2, new Float64Array(4)) },
    });
    world.createBody({ motionType: MotionType.Static, position: { x: 4, y: -0.5, z: 0 }, collidable: { shape: new Box(2, 0.5, 2) } });
    const hull = new ConvexHull([-0.4, 0, -0.4, 0.4, 0, -0.4, 0.4, 0, 0.4, -0.4, 0, 0.4, 0, 0.5, 0, 0.1, 0.3, -0.2]);
    world.createBody({ position: { x: -4, y: 0.05, z: 0 }, collidable: { shape: hull } });
    world.createBody({ position: { x: 0, y: 0.3, z: 0 }, collidable: { shape: new Box(0.25, 0.25, 0.25) } });
    const compound = new Compound([
      { shape: new Box(0.2, 0.2, 0.2), position: { x: -0.3, y: 0, z: 0 } },
      { shape: new Box(0.2, 0.2, 0.2), position: { x: 0.3, y: 0, z: 0 } },
    ]);
    world.createBody({ position: { x: 4, y: 0.25, z: 0 }, collidable: { shape: compound } });
    return world;
  }

  it("resting bodies on a mesh, a heightfield and as a compound reuse all their manifolds", () => {
    const world = build();
    steps(world, 120);
    // After 2 s at rest each pair's relative pose stays within the cache's 1 mm / 2 degree limits of the pose
    // its manifolds were made at: every manifold of the step is a kept one. The hull's base face lies on one
    // or two triangles and the cube's on the heightfield's two (each merged into one manifold, triangleManifoldMerge.ts),
    // the compound's two children on the box: at least 4.
    expect(world.stats.manifolds).toBeGreaterThanOrEqual(4);
    expect(world.stats.reusedManifolds).toBe(world.stats.manifolds);
  });

  it("a triangle manifold carries the margin of its own pair, not that of the pair that last used its slot", () => {
    // The cache compares a pair's margin with the one its run was made at (ContactCache.findReusable), read
    // from the manifolds. The manifold pool is shared by every pair of the step; the mesh path writes its
    // manifolds without a tester call that sets the margin, so a slot must get it from the buffer.
    const buf = new ManifoldBuffer();
    // A convex pair with a 0.3 m margin uses the pool's first slot (spheres 0.1 m apart: one manifold).
    collideShapes(new Sphere(0.5), new Pose().set(0, 0, 0, 0, 0, 0, 1), new Sphere(0.5), new Pose().set(1.1, 0, 0, 0, 0, 0, 1), 0.3, buf);
    expect(buf.count).toBe(1);
    expect(buf.items[0].margin).toBe(0.3);
    // A box resting on a two-triangle mesh with a 0.02 m margin: one manifold per triangle under it, in the same
    // slots (the narrow phase clears the buffer between pairs).
    buf.clear();
    const mesh = new TriangleMesh([-2, 0, -2, 2, 0, -2, 2, 0, 2, -2, 0, 2], [0, 2, 1, 0, 3, 2]);
    collideShapes(new Box(0.25, 0.25, 0.25), new Pose().set(0, 0.25, 0, 0, 0, 0, 1), mesh, new Pose().set(0, 0, 0, 0, 0, 0, 1), 0.02, buf);
    expect(buf.count).toBeGreaterThanOrEqual(1);
    for (let m = 0; m < buf.count; m++) expect(buf.items[m].margin).toBe(0.02);
  });

  it("a snapshot restores the kept manifolds: the replay after it hashes as the original run", () => {
    const world = build();
    steps(world, 30);
    const snap = world.snapshot();
    const original: number[] = [];
    steps(world, 60, () => original.push(world.stateHash()));
    world.restore(snap);
    const replay: number[] = [];
    steps(world, 60, () => replay.push(world.stateHash()));
    expect(replay).toEqual(original);
  });
});

// Convex pairs GJK proved apart keep their separating axis (src/collision/separatingAxisCache.ts): the cache
// must never call a pair apart that has come within its speculative margin.
describe("separating axis cache", () => {
  it("a spinning plank's tip is caught by a hull wall that only its turn brings it to", () => {
    const world = makeWorld({ gravity: { x: 0, y: 0, z: 0 }, sleepingEnabled: false });
    // A static hull slab (the generic tester, so the cache applies) across the diagonal: its face is the plane
    // n . x = 0.9, n = (1, 0, 1) / sqrt(2), 4 m wide along t = (1, 0, -1) / sqrt(2). Its bounds cover the
    // plank below from the start, so the pair is in the narrow phase while 16 cm apart.
    const r = Math.SQRT1_2;
    const slab: number[] = [];
    for (const sn of [0.9, 1]) for (const u of [-2, 2]) for (const y of [-1, 1]) slab.push(r * (sn + u), y, r * (sn - u));
    world.createBody({ motionType: MotionType.Static, collidable: { shape: new ConvexHull(slab) } });
    // A 2 m plank along z centred at the origin, turning about y at 0.5 rad/s: its tips (n . tip = cos(theta -
    // 45 deg) at angle theta) reach the face after about 23 degrees, 0.8 s.
    const pts = [-0.05, -0.05, -1, 0.05, -0.05, -1, -0.05, 0.05, -1, 0.05, 0.05, -1, -0.05, -0.05, 1, 0.05, -0.05, 1, -0.05, 0.05, 1, 0.05, 0.05, 1];
    const h = world.createBody({ collidable: { shape: new ConvexHull(pts) }, angularVelocity: { x: 0, y: 0.5, z: 0 } });
    const pose = new Float64Array(7);
    let reach = -Infinity;
    let contactStep = -1;
    steps(world, 120, (i) => {
      // The plank's farthest corner along n: how far into the slab it went.
      world.getOriginPose(h, pose, 0);
      const [px, , pz, qx, qy, qz, qw] = pose;
      for (let k = 0; k < 24; k += 3) {
        const vx = pts[k], vy = pts[k + 1], vz = pts[k + 2];
        // x and z of q v q* + p.
        const tx = 2 * (qy * vz - qz * vy), ty = 2 * (qz * vx - qx * vz), tz = 2 * (qx * vy - qy * vx);
        const x = px + vx + qw * tx + (qy * tz - qz * ty);
        const z = pz + vz + qw * tz + (qx * ty - qy * tx);
        reach = Math.max(reach, r * (x + z));
      }
      if (contactStep < 0 && world.stats.contacts > 0) contactStep = i;
    });
    // At 0.5 rad/s the tip (1 m out) closes on the slab at up to 0.5 m/s, 8 mm per step, while the plank's
    // centre stays put: only the turn brings them together, which a cache that watched the relative position
    // alone would miss (and the turn per step is under 2 degrees). A contact must exist before the tips reach
    // the face (step 48), and a corner may sink in no more than the contact's sag and one step's approach
    // (under 1 cm).
    expect(contactStep).toBeGreaterThan(0);
    expect(contactStep).toBeLessThan(48);
    expect(reach).toBeLessThan(0.91);
  });
});
