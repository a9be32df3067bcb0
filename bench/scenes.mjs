// Benchmark scenes, described once as plain data so that every engine builds exactly the same bodies.
//
// SCENES[name] = { build, describe, warmup?, steps?, sleep?, engines?, havokBaseline?, kind? }
//   build()        -> a scene (below); called in the runner process.
//   describe       one line for bench/RESULTS.md.
//   warmup, steps  defaults for this scene (the command line's --warmup / --steps override every scene).
//   sleep          sleeping settings that apply (default ["on", "off"]; ["n/a"] for query-only scenes).
//   engines        engines that run the scene (default all).
//   havokBaseline  the scene whose Havok row the ratio uses (for a Continuum-only variant).
//   kind           "step" (time world steps, default) or "raycast" (time a batch of ray queries).
//
// A scene: { bodies, joints?, velocityLimits?, rays?, bullets? }
// A body: { kind, dynamic, position: {x,y,z}, orientation?: {x,y,z,w}, friction, thin?, linearVelocity?,
//           continuous?, ...sizes }
//   box:      hx, hy, hz          (half extents)
//   sphere:   radius
//   capsule:  radius, halfLength  (segment along local Y; total height 2 * (halfLength + radius))
//   cylinder: radius, halfHeight  (along local Y)
//   hull:     points: number[] (x, y, z per point, in the body's frame)
//   mesh:     positions: number[], indices: number[] (static or dynamic)
//   thin: true = the body is one thin instance of a single Babylon mesh (all thin bodies share one shape).
//   continuous: true = ContinuousDetection.continuous() (Continuum engines); otherwise the engine default
//     (Passive). Havok through Babylon has no such setting.
// A body may also set mass (default 1), restitution (default 0), membership / collide (collision filter masks), and a
// cylinder axis: "x".
// A scene may set gravity (y, default -9.81) and timeStep (default 1/60; one step per measured step).
// A joint: { type: "ball" | "hinge" | "sixdof", a, b (body indices), pivotA, pivotB (in each body's frame), axisA?, axisB? }
//   sixdof = Babylon Physics6DoFConstraint with `limits` (Babylon's Physics6DoFLimit list) and `motors`
//   ([{ axis, type, target, maxForce }], Babylon's numbering); Babylon engines only.
//   ball  = Babylon BallAndSocketConstraint = engine joint with LINEAR_X/Y/Z locked;
//   hinge = Babylon HingeConstraint          = engine joint with LINEAR_X/Y/Z and ANGULAR_Y/Z locked (axis = X).
// Dynamic bodies have mass 1 (PhysicsAggregate { mass: 1 } in Babylon, massProperties { mass: 1 } in
// the raw engine). The ground is a static 200 x 1 x 200 box whose top face is at y = 0 (in pile-1000, spheres roll
// without rolling resistance, about 65 m in 1120 steps; on a 100 x 100 ground some rolled off and fell).

const FRICTION = 0.5;

function ground() {
  return { kind: "box", dynamic: false, position: { x: 0, y: -0.5, z: 0 }, hx: 100, hy: 0.5, hz: 100, friction: FRICTION };
}

/** A 2D pyramid of `rows` rows of unit boxes standing on the ground. */
function pyramid(rows) {
  const gap = 0.02; // small horizontal gap so neighbours do not start overlapping
  const bodies = [ground()];
  for (let r = 0; r < rows; r++) {
    const n = rows - r;
    for (let i = 0; i < n; i++) {
      bodies.push({
        kind: "box",
        dynamic: true,
        position: { x: (i - (n - 1) / 2) * (1 + gap), y: 0.5 + r, z: 0 },
        hx: 0.5,
        hy: 0.5,
        hz: 0.5,
        friction: FRICTION,
      });
    }
  }
  return { bodies };
}

/** Deterministic LCG in [0, 1). */
function rng(seed) {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 4294967296;
  };
}

/** A uniformly random unit quaternion (Shoemake), from `rand` in [0, 1). */
function randomQuat(rand) {
  const u1 = rand(),
    u2 = rand() * 2 * Math.PI,
    u3 = rand() * 2 * Math.PI;
  const a = Math.sqrt(1 - u1),
    b = Math.sqrt(u1);
  return { x: a * Math.sin(u2), y: a * Math.cos(u2), z: b * Math.sin(u3), w: b * Math.cos(u3) };
}

function quatMul(a, b) {
  return {
    x: a.w * b.x + a.x * b.w + a.y * b.z - a.z * b.y,
    y: a.w * b.y - a.x * b.z + a.y * b.w + a.z * b.x,
    z: a.w * b.z + a.x * b.y - a.y * b.x + a.z * b.w,
    w: a.w * b.w - a.x * b.x - a.y * b.y - a.z * b.z,
  };
}

function quatAxisAngle(x, y, z, angle) {
  const s = Math.sin(angle / 2);
  return { x: x * s, y: y * s, z: z * s, w: Math.cos(angle / 2) };
}

/** v rotated by unit quaternion q. */
export function rotate(q, v) {
  const tx = 2 * (q.y * v.z - q.z * v.y),
    ty = 2 * (q.z * v.x - q.x * v.z),
    tz = 2 * (q.x * v.y - q.y * v.x);
  return {
    x: v.x + q.w * tx + (q.y * tz - q.z * ty),
    y: v.y + q.w * ty + (q.z * tx - q.x * tz),
    z: v.z + q.w * tz + (q.x * ty - q.y * tx),
  };
}

/**
 * The four pile-1000 kinds, cycling with `k`. Sizes keep every body inside a sphere of radius 0.7, so no two
 * bodies overlap at the start whatever their orientation: box 0.8 m cube (circumradius 0.69), sphere r 0.5,
 * capsule r 0.3 + half length 0.4 (0.7), cylinder r 0.4 half height 0.4 (0.57).
 */
function mixedBody(k, base) {
  switch (k % 4) {
    case 0:
      return { ...base, kind: "box", hx: 0.4, hy: 0.4, hz: 0.4 };
    case 1:
      return { ...base, kind: "sphere", radius: 0.5 };
    case 2:
      return { ...base, kind: "capsule", radius: 0.3, halfLength: 0.4 };
    default:
      return { ...base, kind: "cylinder", radius: 0.4, halfHeight: 0.4 };
  }
}

/**
 * 1000 mixed bodies on a 10 x 10 x 10 grid with spacing 1.5, lowest layer 2 m above the ground, each with
 * a random orientation. The kind cycles with (ix + iy + iz) so that no column is all one kind (a column of
 * upright boxes or cylinders would just land as a tower).
 */
function pile1000() {
  const bodies = [ground()];
  const rand = rng(12345);
  const n = 10;
  const spacing = 1.5;
  for (let iy = 0; iy < n; iy++) {
    for (let ix = 0; ix < n; ix++) {
      for (let iz = 0; iz < n; iz++) {
        const position = { x: (ix - (n - 1) / 2) * spacing, y: 2 + iy * spacing, z: (iz - (n - 1) / 2) * spacing };
        bodies.push(mixedBody(ix + iy + iz, { dynamic: true, position, orientation: randomQuat(rand), friction: FRICTION }));
      }
    }
  }
  return { bodies };
}

/**
 * 500 convex hulls, each of 12 random points (random directions, radius 0.25 to 0.5), on a 10 x 5 x 10 grid
 * with spacing 1.3 (lowest layer 2 m up), dropped onto a static triangle mesh: a 60 x 60 m shallow bowl
 * y = 0.004 (x^2 + z^2) of 1 m cells (7,200 triangles).
 */
/** The bowl of hulls-500: a 60 x 60 m static triangle mesh, 7,200 triangles. */
function bowl() {
  const positions = [];
  const indices = [];
  const half = 30,
    cells = 60;
  for (let j = 0; j <= cells; j++) {
    for (let i = 0; i <= cells; i++) {
      const x = -half + i,
        z = -half + j;
      positions.push(x, 0.004 * (x * x + z * z), z);
    }
  }
  const row = cells + 1;
  for (let j = 0; j < cells; j++) {
    for (let i = 0; i < cells; i++) {
      const a = j * row + i,
        b = a + 1,
        c = a + row,
        d = c + 1;
      // Counter-clockwise seen from above (normals up, Babylon/Havok winding agnostic for a static mesh).
      indices.push(a, c, b, b, c, d);
    }
  }
  return { kind: "mesh", dynamic: false, position: { x: 0, y: 0, z: 0 }, positions, indices, friction: FRICTION };
}

/** A closed triangle mesh: an octahedron of radius r with each face split in four (32 triangles, outward winding). */
function ball32(r) {
  const positions = [];
  const indices = [];
  const key = new Map();
  const vert = (x, y, z) => {
    const l = Math.sqrt(x * x + y * y + z * z);
    const k = `${(x / l).toFixed(6)},${(y / l).toFixed(6)},${(z / l).toFixed(6)}`;
    if (!key.has(k)) {
      key.set(k, positions.length / 3);
      positions.push((r * x) / l, (r * y) / l, (r * z) / l);
    }
    return key.get(k);
  };
  const P = [[1, 0, 0], [-1, 0, 0], [0, 1, 0], [0, -1, 0], [0, 0, 1], [0, 0, -1]];
  const faces = [[0, 2, 4], [2, 1, 4], [1, 3, 4], [3, 0, 4], [2, 0, 5], [1, 2, 5], [3, 1, 5], [0, 3, 5]];
  for (const [a, b, c] of faces) {
    const A = P[a], B = P[b], C = P[c];
    const mid = (u, v) => [(u[0] + v[0]) / 2, (u[1] + v[1]) / 2, (u[2] + v[2]) / 2];
    const ab = mid(A, B), bc = mid(B, C), ca = mid(C, A);
    for (const [u, v, w] of [[A, ab, ca], [ab, B, bc], [ca, bc, C], [ab, bc, ca]]) indices.push(vert(...u), vert(...v), vert(...w));
  }
  return { positions, indices };
}

/** meshes-100: 100 dynamic triangle-mesh balls dropped into the bowl (mesh-mesh pairs only). */
function meshes100() {
  const rand = rng(4242);
  const bodies = [bowl()];
  const { positions, indices } = ball32(0.4);
  for (let iy = 0; iy < 4; iy++) {
    for (let ix = 0; ix < 5; ix++) {
      for (let iz = 0; iz < 5; iz++) {
        bodies.push({
          kind: "mesh",
          dynamic: true,
          position: { x: (ix - 2) * 1.1, y: 1.5 + iy * 1.1, z: (iz - 2) * 1.1 },
          orientation: randomQuat(rand),
          positions,
          indices,
          friction: FRICTION,
        });
      }
    }
  }
  return { bodies };
}

function hulls500() {
  const rand = rng(777);
  const bodies = [bowl()];
  for (let iy = 0; iy < 5; iy++) {
    for (let ix = 0; ix < 10; ix++) {
      for (let iz = 0; iz < 10; iz++) {
        const points = [];
        for (let p = 0; p < 12; p++) {
          const u = 2 * rand() - 1,
            phi = 2 * Math.PI * rand(),
            s = Math.sqrt(1 - u * u),
            r = 0.25 + 0.25 * rand();
          points.push(r * s * Math.cos(phi), r * u, r * s * Math.sin(phi));
        }
        bodies.push({
          kind: "hull",
          dynamic: true,
          position: { x: (ix - 4.5) * 1.3, y: 2 + iy * 1.3, z: (iz - 4.5) * 1.3 },
          orientation: randomQuat(rand),
          points,
          friction: FRICTION,
        });
      }
    }
  }
  return { bodies };
}

/**
 * 2,000 boxes 0.6 m on a 20 x 10 x 10 grid with spacing 1.0 (lowest layer 1 m up), random orientations,
 * dropped onto the ground box. In Babylon they are thin instances of one mesh with one PhysicsAggregate (one
 * PhysicsBody with 2,000 instances); the raw engine has 2,000 bodies.
 */
function thin2000() {
  const rand = rng(4242);
  const bodies = [ground()];
  for (let iy = 0; iy < 10; iy++) {
    for (let ix = 0; ix < 20; ix++) {
      for (let iz = 0; iz < 10; iz++) {
        bodies.push({
          kind: "box",
          thin: true,
          dynamic: true,
          position: { x: (ix - 9.5) * 1.0, y: 1 + iy * 1.0, z: (iz - 4.5) * 1.0 },
          orientation: randomQuat(rand),
          hx: 0.3,
          hy: 0.3,
          hz: 0.3,
          friction: FRICTION,
        });
      }
    }
  }
  return { bodies };
}

/**
 * 10 hanging chains of 20 box links (0.5 x 0.1 x 0.1, ball-and-socket joints at the link ends), each hung from
 * a small static anchor at y = 15 and released horizontal so that it swings; and a pile of 24 ragdolls
 * (10 parts: box torso, sphere head, capsule limbs; ball-and-socket neck, shoulders and hips, hinge elbows
 * and knees), lying down with random yaw in 4 columns of 6, dropped onto the ground box. 440 dynamic bodies,
 * 416 joints.
 */
function chainRagdoll() {
  const bodies = [ground()];
  const joints = [];
  const add = (b) => bodies.push(b) - 1;
  // Chains.
  const linkHalf = 0.25;
  for (let c = 0; c < 10; c++) {
    const z = (c - 4.5) * 1.0;
    const ax = -12;
    const anchor = add({ kind: "box", dynamic: false, position: { x: ax, y: 15, z }, hx: 0.05, hy: 0.05, hz: 0.05, friction: FRICTION });
    let prev = anchor;
    let prevPivot = { x: 0, y: 0, z: 0 };
    for (let k = 0; k < 20; k++) {
      const link = add({
        kind: "box",
        dynamic: true,
        position: { x: ax + linkHalf + 2 * linkHalf * k, y: 15, z },
        hx: linkHalf,
        hy: 0.05,
        hz: 0.05,
        friction: FRICTION,
      });
      joints.push({ type: "ball", a: prev, b: link, pivotA: prevPivot, pivotB: { x: -linkHalf, y: 0, z: 0 } });
      prev = link;
      prevPivot = { x: linkHalf, y: 0, z: 0 };
    }
  }
  // Ragdolls, in a local frame (torso centre at the origin, standing along +y), then laid down and yawed.
  const rand = rng(99);
  const parts = [
    { name: "torso", kind: "box", p: [0, 0, 0], hx: 0.2, hy: 0.3, hz: 0.12 },
    { name: "head", kind: "sphere", p: [0, 0.46, 0], radius: 0.13 },
    { name: "uarmL", kind: "capsule", p: [-0.28, 0.14, 0], radius: 0.06, halfLength: 0.1 },
    { name: "uarmR", kind: "capsule", p: [0.28, 0.14, 0], radius: 0.06, halfLength: 0.1 },
    { name: "larmL", kind: "capsule", p: [-0.28, -0.2, 0], radius: 0.05, halfLength: 0.1 },
    { name: "larmR", kind: "capsule", p: [0.28, -0.2, 0], radius: 0.05, halfLength: 0.1 },
    { name: "ulegL", kind: "capsule", p: [-0.1, -0.52, 0], radius: 0.08, halfLength: 0.12 },
    { name: "ulegR", kind: "capsule", p: [0.1, -0.52, 0], radius: 0.08, halfLength: 0.12 },
    { name: "llegL", kind: "capsule", p: [-0.1, -0.94, 0], radius: 0.07, halfLength: 0.13 },
    { name: "llegR", kind: "capsule", p: [0.1, -0.94, 0], radius: 0.07, halfLength: 0.13 },
  ];
  // [type, parent, child, pivot in the ragdoll frame]
  const links = [
    ["ball", "torso", "head", [0, 0.31, 0]],
    ["ball", "torso", "uarmL", [-0.28, 0.3, 0]],
    ["ball", "torso", "uarmR", [0.28, 0.3, 0]],
    ["hinge", "uarmL", "larmL", [-0.28, -0.035, 0]],
    ["hinge", "uarmR", "larmR", [0.28, -0.035, 0]],
    ["ball", "torso", "ulegL", [-0.1, -0.31, 0]],
    ["ball", "torso", "ulegR", [0.1, -0.31, 0]],
    ["hinge", "ulegL", "llegL", [-0.1, -0.73, 0]],
    ["hinge", "ulegR", "llegR", [0.1, -0.73, 0]],
  ];
  const lieDown = quatAxisAngle(1, 0, 0, Math.PI / 2); // the ragdoll's +y becomes +z, its +z becomes -y
  for (let col = 0; col < 4; col++) {
    for (let layer = 0; layer < 6; layer++) {
      const centre = { x: 6 + (col % 2) * 3, y: 0.6 + layer * 0.5, z: -1.5 + Math.floor(col / 2) * 3 };
      const q = quatMul(quatAxisAngle(0, 1, 0, 2 * Math.PI * rand()), lieDown);
      const ids = {};
      for (const part of parts) {
        const off = rotate(q, { x: part.p[0], y: part.p[1], z: part.p[2] });
        const { name, p, ...shape } = part;
        ids[name] = add({
          ...shape,
          dynamic: true,
          position: { x: centre.x + off.x, y: centre.y + off.y, z: centre.z + off.z },
          orientation: q,
          friction: FRICTION,
        });
      }
      const byName = Object.fromEntries(parts.map((p) => [p.name, p.p]));
      for (const [type, pa, pb, pivot] of links) {
        const a = byName[pa],
          b = byName[pb];
        joints.push({
          type,
          a: ids[pa],
          b: ids[pb],
          pivotA: { x: pivot[0] - a[0], y: pivot[1] - a[1], z: pivot[2] - a[2] },
          pivotB: { x: pivot[0] - b[0], y: pivot[1] - b[1], z: pivot[2] - b[2] },
          axisA: { x: 1, y: 0, z: 0 },
          axisB: { x: 1, y: 0, z: 0 },
        });
      }
    }
  }
  return { bodies, joints };
}

/**
 * 1,000 static bodies (the pile-1000 kinds and sizes, random orientations) on a 10 x 10 x 10 grid with spacing
 * 3 (a 27 m cube, lowest layer 1 m up) and the ground box; 10,000 rays per batch, each from a random point on a
 * sphere of radius 40 around the cube's centre to a random point inside the cube (so most rays hit something;
 * the length runs to the far side). The measured "step" is one batch of 10,000 nearest-hit raycasts (Babylon:
 * `physicsEngine.raycastToRef(from, to, result)`; engine: `world.raycast`), no simulation step.
 */
function raycast10k() {
  const rand = rng(2024);
  const bodies = [ground()];
  const n = 10,
    spacing = 3;
  const cy = 1 + ((n - 1) / 2) * spacing;
  for (let iy = 0; iy < n; iy++) {
    for (let ix = 0; ix < n; ix++) {
      for (let iz = 0; iz < n; iz++) {
        const position = { x: (ix - (n - 1) / 2) * spacing, y: 1 + iy * spacing, z: (iz - (n - 1) / 2) * spacing };
        bodies.push(mixedBody(ix + iy + iz, { dynamic: false, position, orientation: randomQuat(rand), friction: FRICTION }));
      }
    }
  }
  const count = 10000;
  const from = new Float64Array(3 * count);
  const to = new Float64Array(3 * count);
  const halfSize = ((n - 1) / 2) * spacing;
  for (let i = 0; i < count; i++) {
    const u = 2 * rand() - 1,
      phi = 2 * Math.PI * rand(),
      s = Math.sqrt(1 - u * u);
    const ox = 40 * s * Math.cos(phi),
      oy = cy + 40 * u,
      oz = 40 * s * Math.sin(phi);
    const tx = (2 * rand() - 1) * halfSize,
      ty = cy + (2 * rand() - 1) * halfSize,
      tz = (2 * rand() - 1) * halfSize;
    // Extend the segment to twice the origin-to-target length, so it crosses the whole cube.
    from[3 * i] = ox;
    from[3 * i + 1] = oy;
    from[3 * i + 2] = oz;
    to[3 * i] = ox + 2 * (tx - ox);
    to[3 * i + 1] = oy + 2 * (ty - oy);
    to[3 * i + 2] = oz + 2 * (tz - oz);
  }
  return { bodies, rays: { count, from, to } };
}

/**
 * 100 bullets (spheres r 0.05, mass 1) on a 10 x 10 grid (y 1..10, z -4.5..4.5) at x = 0, fired along +x at
 * 250 m/s at thin static walls (0.05 m thick, 0.9 m tall, 11 m wide), one per grid row, at x = 25 + row
 * (25..34 m: 6 to 9 steps of flight). Bullet i is re-fired from its start every 10 steps, at step i mod 10, so
 * at any time 60-90 % of the bullets are in flight and 10 reach a wall per step. Speed limits raised to 1000 m/s
 * in every engine. Sanity: tunnels = shots that ended a step beyond the far face of their wall.
 */
function bullets(continuous) {
  const bodies = [ground()];
  const walls = [];
  const wallHalf = 0.025;
  for (let row = 0; row < 10; row++) {
    const x = 25 + row;
    walls.push(x);
    bodies.push({ kind: "box", dynamic: false, position: { x, y: 1 + row, z: 0 }, hx: wallHalf, hy: 0.45, hz: 5.5, friction: FRICTION });
  }
  const speed = 250;
  const list = [];
  for (let row = 0; row < 10; row++) {
    for (let col = 0; col < 10; col++) {
      const position = { x: 0, y: 1 + row, z: (col - 4.5) * 1.0 };
      const index = bodies.length;
      bodies.push({
        kind: "sphere",
        dynamic: true,
        position,
        radius: 0.05,
        friction: FRICTION,
        linearVelocity: { x: speed, y: 0, z: 0 },
        continuous,
      });
      list.push({ index, start: position, velocity: { x: speed, y: 0, z: 0 }, beyond: walls[row] + wallHalf + 0.05 });
    }
  }
  return { bodies, velocityLimits: [1000, 1000], bullets: { list, period: 10 } };
}

/**
 * The car pattern of test/plugin/carScene.ts (issue 20) driving at full throttle on a triangle-mesh ground: a
 * box chassis, 4 axles on 6-DoF suspension joints (LINEAR_Y a spring beyond +-0.1, steering POSITION motors on
 * the front), 4 cylinder wheels on 6-DoF hubs with VELOCITY drive motors; gravity -240, 1/500 s steps.
 */
function car() {
  const n = 40,
    size = 800,
    positions = [],
    indices = [];
  for (let j = 0; j <= n; j++) for (let i = 0; i <= n; i++) positions.push(-size / 2 + (i * size) / n, 0, -size / 2 + (j * size) / n);
  for (let j = 0; j < n; j++)
    for (let i = 0; i < n; i++) {
      const a = j * (n + 1) + i;
      indices.push(a, a + n + 1, a + 1, a + 1, a + n + 1, a + n + 2);
    }
  const CAR = { membership: 2, collide: 1 };
  const bodies = [
    { kind: "mesh", dynamic: false, position: { x: 0, y: 0, z: 0 }, positions, indices, friction: 1 },
    { kind: "box", dynamic: true, mass: 100, position: { x: 0, y: 1.55, z: -300 }, hx: 1.3, hy: 0.4, hz: 3, friction: 0.5, ...CAR },
  ];
  const joints = [];
  const LOCK = (axis) => ({ axis, minLimit: 0, maxLimit: 0 });
  [
    [-1.6, 2.2],
    [1.6, 2.2],
    [-1.6, -2.2],
    [1.6, -2.2],
  ].forEach(([x, z], k) => {
    const front = k < 2;
    const at = { x, y: 1.05, z: -300 + z };
    const axle = bodies.length;
    bodies.push({ kind: "box", dynamic: true, mass: 5, position: at, hx: 0.15, hy: 0.15, hz: 0.15, friction: 0.5, ...CAR });
    bodies.push({ kind: "cylinder", axis: "x", dynamic: true, mass: 10, position: at, radius: 1, halfHeight: 0.3, friction: 1, ...CAR });
    // Babylon axes: LINEAR_X..Z = 0..2, ANGULAR_X..Z = 3..5; motor types VELOCITY = 1, POSITION = 2.
    joints.push({
      type: "sixdof",
      a: 1,
      b: axle,
      pivotA: { x, y: -0.5, z },
      pivotB: { x: 0, y: 0, z: 0 },
      limits: [LOCK(0), { axis: 1, minLimit: -0.1, maxLimit: 0.1, stiffness: 5e4, damping: 1500 }, LOCK(2), LOCK(3), ...(front ? [] : [LOCK(4)]), LOCK(5)],
      motors: front ? [{ axis: 4, type: 2, target: 0, maxForce: 3e7 }] : [],
    });
    joints.push({
      type: "sixdof",
      a: axle,
      b: axle + 1,
      pivotA: { x: 0, y: 0, z: 0 },
      pivotB: { x: 0, y: 0, z: 0 },
      limits: [LOCK(0), LOCK(1), LOCK(2), LOCK(4), LOCK(5)],
      motors: [{ axis: 3, type: 1, target: 40, maxForce: 2500 }],
    });
  });
  return { bodies, joints, gravity: -240, timeStep: 1 / 500 };
}

/**
 * one-box: a world with one dynamic body, the smallest program a Babylon user writes: a 1 m box (mass 1, friction
 * 0.5) released 3 m above the ground (bottom 2.5 m up) with a 20 degree tilt about x and z, so it lands on an edge,
 * tips over and comes to rest. What the row measures is the fixed cost of a step: the plugin's and the engine's
 * work that does not depend on how many bodies there are.
 */
function oneBox() {
  const tilt = quatMul(quatAxisAngle(1, 0, 0, (20 * Math.PI) / 180), quatAxisAngle(0, 0, 1, (20 * Math.PI) / 180));
  return {
    bodies: [
      ground(),
      { kind: "box", dynamic: true, position: { x: 0, y: 3, z: 0 }, orientation: tilt, hx: 0.5, hy: 0.5, hz: 0.5, friction: FRICTION },
    ],
  };
}

/**
 * A static open box standing on the ground: a floor slab `t` m thick and four walls `t` m thick around an inner
 * space `inner` x `inner` m and `height` m tall above the floor (the floor's top face at y = t).
 */
function container(inner, height, t, friction) {
  const h = inner / 2;
  // The floor slab lies on the ground box (its top face at y = 0), so the container's floor is at y = t.
  const wall = (x, z, hx, hz) => ({ kind: "box", dynamic: false, position: { x, y: t + height / 2, z }, hx, hy: height / 2, hz, friction });
  return [
    { kind: "box", dynamic: false, position: { x: 0, y: t / 2, z: 0 }, hx: h + t, hy: t / 2, hz: h + t, friction },
    wall(h + t / 2, 0, t / 2, h + t),
    wall(-h - t / 2, 0, t / 2, h + t),
    wall(0, h + t / 2, h, t / 2),
    wall(0, -h - t / 2, h, t / 2),
  ];
}

/**
 * spheres-300: 300 balls (radius 0.2 m, mass 1, friction 0.5, restitution 0.5) poured into a static open box (4 x 4
 * m inside, walls 3 m tall and 0.2 m thick, standing on the ground box; the walls are higher than a ball's
 * rebound, a quarter of its fall): a 5 x 6 x 10 grid with spacing 0.6 m (lowest layer 1 m above the floor, the
 * top one 6.4 m), each ball jittered by up to 5 cm and given a random horizontal velocity of up to 0.25 m/s (the
 * top layer drifts at most 0.3 m in its 1.1 s fall, so every ball lands inside), so they arrive over about a second, bounce off the floor, the walls and each other, roll and settle
 * about three layers deep.
 */
function spheres300() {
  const rand = rng(300);
  const bodies = [ground(), ...container(4, 3, 0.2, FRICTION)];
  for (let iy = 0; iy < 10; iy++) {
    for (let ix = 0; ix < 5; ix++) {
      for (let iz = 0; iz < 6; iz++) {
        const j = () => 0.1 * (rand() - 0.5);
        bodies.push({
          kind: "sphere",
          dynamic: true,
          position: { x: (ix - 2) * 0.6 + j(), y: 1.2 + iy * 0.6 + j(), z: (iz - 2.5) * 0.6 + j() },
          radius: 0.2,
          friction: FRICTION,
          restitution: 0.5,
          linearVelocity: { x: 0.5 * (rand() - 0.5), y: 0, z: 0.5 * (rand() - 0.5) },
        });
      }
    }
  }
  return { bodies };
}

/**
 * coins-500: 500 coins poured onto a plate, at the scale a game draws them: each coin a cylinder of radius 1.2 cm
 * and thickness 3 mm (half height 1.5 mm; a 2-euro coin is 1.29 cm and 2.2 mm, a poker chip 2 cm and 3.3 mm),
 * mass 7.5 g, friction 0.5, restitution 0. They start as a 5 x 5 x 20 column (spacing 2.6 cm, more than a coin's
 * 2.42 cm diameter, so no two overlap whatever their orientation; lowest coin 5 cm above the plate, the top one
 * 54 cm), each with a random orientation, over a static plate (a cylinder of radius 15 cm, 1 cm thick, its top
 * 1 cm above the ground box): they land on the plate and on each other, slide, and heap; some slide off onto the
 * ground.
 */
function coins500() {
  const rand = rng(500);
  const bodies = [
    ground(),
    { kind: "cylinder", dynamic: false, position: { x: 0, y: 0.005, z: 0 }, radius: 0.15, halfHeight: 0.005, friction: FRICTION },
  ];
  const spacing = 0.026;
  for (let iy = 0; iy < 20; iy++) {
    for (let ix = 0; ix < 5; ix++) {
      for (let iz = 0; iz < 5; iz++) {
        bodies.push({
          kind: "cylinder",
          dynamic: true,
          mass: 0.0075,
          position: { x: (ix - 2) * spacing, y: 0.06 + iy * spacing, z: (iz - 2) * spacing },
          orientation: randomQuat(rand),
          radius: 0.012,
          halfHeight: 0.0015,
          friction: FRICTION,
        });
      }
    }
  }
  return { bodies };
}

export const SCENES = {
  "pyramid-210": {
    // The runner prints the contact solver's ns per contact point per pass (bench/scene-runner.mjs solverPassCost).
    solverCost: true,
    build: () => pyramid(20),
    describe: "20 rows of unit boxes (210), friction 0.5, on a static 200 x 1 x 200 ground box (top face at y = 0).",
  },
  "pyramid-5050": {
    // The runner prints the contact solver's ns per contact point per pass (bench/scene-runner.mjs solverPassCost).
    solverCost: true,
    build: () => pyramid(100),
    warmup: 60,
    steps: 300,
    describe: "100 rows of unit boxes (5,050), the same 2D pyramid 100 m tall; fewer measured steps (warm-up 60, 300 measured).",
  },
  "pile-1000": {
    // The runner prints the contact solver's ns per contact point per pass (bench/scene-runner.mjs solverPassCost).
    solverCost: true,
    build: pile1000,
    // Steady steps: the top layer lands after about 1.8 s and the first bodies fall asleep at about 3.2 s
    // (step 191). A warm-up of 300 steps (5 s) measures the settling pile rather than the drop, and leaves the
    // first sleep (code that runs for the first time, which V8 deoptimises and re-optimises) out of the
    // measured steps.
    warmup: 300,
    describe:
      "1000 boxes (0.8 m) / spheres (r 0.5) / capsules (r 0.3, length 1.4) / cylinders (r 0.4, height 0.8), the kind " +
      "cycling with ix + iy + iz, on a 10 x 10 x 10 grid with spacing 1.5, random orientations, lowest layer 2 m up, " +
      "dropped onto the ground box; measured while settling, after a 300-step (5 s) warm-up.",
  },
  "hulls-500": {
    build: hulls500,
    describe:
      "500 convex hulls of 12 random points (radius 0.25-0.5) on a 10 x 5 x 10 grid, random orientations, dropped on a " +
      "static triangle mesh (a 60 x 60 m shallow bowl, 7,200 triangles). Babylon: PhysicsShapeConvexHull / " +
      "PhysicsShapeMesh via PhysicsAggregate CONVEX_HULL / MESH; engine: ConvexHull / TriangleMesh.",
  },
  "meshes-100": {
    build: meshes100,
    warmup: 120,
    steps: 300,
    describe:
      "100 dynamic triangle-mesh balls (32 triangles, r 0.4; PhysicsShapeType.MESH / TriangleMesh) on a 5 x 4 x 5 " +
      "grid, random orientations, dropped into the hulls-500 bowl: mesh-mesh pairs only, ball-bowl and ball-ball.",
  },
  "thin-2000": {
    // The runner prints the contact solver's ns per contact point per pass (bench/scene-runner.mjs solverPassCost).
    solverCost: true,
    build: thin2000,
    describe:
      "2,000 boxes (0.6 m, random orientations, 20 x 10 x 10 grid) dropped on the ground box; in Babylon one mesh " +
      "with 2,000 thin instances and one PhysicsAggregate (instanced body), in the raw engine 2,000 bodies.",
  },
  "chain-ragdoll": {
    build: chainRagdoll,
    describe:
      "10 chains of 20 box links (ball-and-socket) hung from static anchors and released horizontal, plus 24 " +
      "ragdolls of 10 parts (box torso, sphere head, capsule limbs; ball-and-socket neck/shoulders/hips, hinge " +
      "elbows/knees) dropped in a pile: 440 dynamic bodies, 416 joints (Babylon BallAndSocketConstraint / " +
      "HingeConstraint; engine world.createJoint).",
  },
  "raycast-10k": {
    build: raycast10k,
    kind: "raycast",
    sleep: ["n/a"],
    warmup: 20,
    steps: 200,
    describe:
      "10,000 nearest-hit raycasts per measured step into a static scene of 1,000 mixed bodies (a 10 x 10 x 10 grid, " +
      "spacing 3) + ground; only the queries are timed (no simulation step); warm-up 20 batches, 200 measured.",
  },
  "spherecast-10k": {
    build: () => {
      const spec = raycast10k();
      // The same 10,000 segments as raycast-10k, swept by a sphere of radius 0.25 (the first hit along each).
      spec.rays.sphereRadius = 0.25;
      return spec;
    },
    kind: "raycast",
    sleep: ["n/a"],
    warmup: 3,
    steps: 20,
    describe:
      "10,000 sphere casts (radius 0.25, first hit) per measured step along the raycast-10k segments, into the same " +
      "1,000 static bodies; Babylon: plugin.shapeCast (HavokPlugin / ContinuumPlugin); engine: world.queries.shapeCast. " +
      "Only the queries are timed; warm-up 3 batches, 20 measured.",
  },
  "bullets-100": {
    build: () => bullets(false),
    describe:
      "100 spheres r 0.05 fired at 250 m/s at thin static walls (0.05 m), each re-fired every 10 steps (staggered), " +
      "Passive (the engine default) on the Continuum engines; Havok as it is.",
  },
  car: {
    build: car,
    engines: ["havok", "continuum-plugin"],
    sleep: ["off"],
    warmup: 500,
    steps: 1500,
    describe:
      "The 6-DoF car pattern Babylon users copy (issue 20; test/plugin/carScene.ts): box chassis, 4 axles on " +
      "Physics6DoFConstraint suspensions (spring, steering POSITION motors), 4 cylinder wheels on 6-DoF hubs with " +
      "VELOCITY drive motors, a 3,200-triangle mesh ground; gravity -240, setTimeStep(1/500), full throttle: 9 " +
      "bodies, 8 joints; one 1/500 s step per measured step.",
  },
  "one-box": {
    build: oneBox,
    // A world of one body runs each function of the step once per step, so V8 (Node 20: no Maglev) has not
    // compiled the step's code with TurboFan after the default 120 steps: the plugin's step falls from about
    // 120 us in the first 250 steps to 5 us after 2,500 (Havok's JS side from 20 to 10). A game runs for
    // minutes: the row measures that steady state.
    warmup: 3000,
    steps: 2000,
    describe:
      "One 1 m box (mass 1) dropped from 3 m with a 20 degree tilt onto the ground box, where it tips over and rests: " +
      "a world with one dynamic body, so the row is the fixed cost of a step (plugin sync, events, stage set-up). " +
      "Sleeping on as shipped: the box lands and sleeps within the warm-up; off: it rests awake. Warm-up 3,000 steps " +
      "(V8 compiles a one-body step's code late: the plugin's first 250 steps take 20x its steady ones), 2,000 measured.",
  },
  "spheres-300": {
    build: spheres300,
    sleep: ["on"],
    warmup: 60,
    // Through the plugin Continuum's balls all sleep at about step 300-450, so a longer window's median would be a
    // sleeping world's step: 300 measured steps keep the pour and the settling the median.
    steps: 300,
    describe:
      "300 balls (r 0.2 m, restitution 0.5, friction 0.5, mass 1) poured into a static open box (4 x 4 m inside, 3 m " +
      "walls; a floor slab and four wall boxes on the ground box): a 5 x 6 x 10 grid (spacing 0.6 m, jittered 5 cm, 1-6.4 m above the floor) with random " +
      "horizontal velocities up to 0.25 m/s; they bounce, roll and settle about three deep. Sleeping on as shipped; " +
      "warm-up 60 steps (the first layers land), then 300 measured (5 s: the pour and the settling; Continuum's balls " +
      "all sleep at 5-7.5 s).",
  },
  "coins-500": {
    build: coins500,
    sleep: ["on"],
    warmup: 60,
    steps: 600,
    describe:
      "500 coins (cylinders r 1.2 cm, 3 mm thick, 7.5 g, friction 0.5) in a 5 x 5 x 20 column (spacing 2.6 cm, random " +
      "orientations, 5-54 cm up) poured onto a static plate (cylinder r 15 cm, 1 cm thick) on the ground box; they " +
      "heap on the plate and some slide off. Sleeping on as shipped; warm-up 60 steps, then 600 measured.",
  },
  "bullets-100-ccd": {
    build: () => bullets(true),
    engines: ["continuum-plugin", "continuum-engine"],
    havokBaseline: "bullets-100",
    describe: "bullets-100 with every bullet Continuous (ContinuousDetection.continuous(), defaults 1e-3); ratio to the Havok row of bullets-100.",
  },
};

export const ENGINES = ["havok", "continuum-plugin", "continuum-engine"];

/** The sleeping settings a scene runs with. */
export function sceneSleepModes(name) {
  return SCENES[name].sleep ?? ["on", "off"];
}
