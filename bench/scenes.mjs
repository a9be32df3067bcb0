// Benchmark scenes, described once as plain data so that every engine builds exactly the same bodies.
//
// A body: { kind: "box"|"sphere"|"capsule"|"cylinder", dynamic, position: {x,y,z}, orientation?: {x,y,z,w},
//           friction, ...sizes }
//   box:      hx, hy, hz          (half extents)
//   sphere:   radius
//   capsule:  radius, halfLength  (segment along local Y; total height 2 * (halfLength + radius))
//   cylinder: radius, halfHeight  (along local Y)
// Dynamic bodies have mass 1 (PhysicsAggregate { mass: 1 } in Babylon, massProperties { mass: 1 } in
// the raw engine). The ground is a static 200 x 1 x 200 box whose top face is at y = 0 (in pile-1000, spheres roll
// without rolling resistance, about 65 m in 1120 steps; on a 100 x 100 ground some rolled off and fell).

const FRICTION = 0.5;

function ground() {
  return { kind: "box", dynamic: false, position: { x: 0, y: -0.5, z: 0 }, hx: 100, hy: 0.5, hz: 100, friction: FRICTION };
}

/** 20 rows of unit boxes (20 + 19 + ... + 1 = 210), a 2D pyramid standing on the ground. */
function pyramid210() {
  const rows = 20;
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
  return bodies;
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

/**
 * 1000 mixed bodies on a 10 x 10 x 10 grid with spacing 1.5, lowest layer 2 m above the ground, each with
 * a random orientation. The kind cycles with (ix + iy + iz) so that no column is all one kind (a column of
 * upright boxes or cylinders would just land as a tower). Sizes keep every body inside a sphere of
 * radius 0.7, so no two bodies overlap at the start whatever their orientation:
 *   box 0.8 m cube (circumradius 0.69), sphere r 0.5, capsule r 0.3 + half length 0.4 (0.7),
 *   cylinder r 0.4 half height 0.4 (0.57).
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
        const base = { dynamic: true, position, orientation: randomQuat(rand), friction: FRICTION };
        switch ((ix + iy + iz) % 4) {
          case 0:
            bodies.push({ ...base, kind: "box", hx: 0.4, hy: 0.4, hz: 0.4 });
            break;
          case 1:
            bodies.push({ ...base, kind: "sphere", radius: 0.5 });
            break;
          case 2:
            bodies.push({ ...base, kind: "capsule", radius: 0.3, halfLength: 0.4 });
            break;
          default:
            bodies.push({ ...base, kind: "cylinder", radius: 0.4, halfHeight: 0.4 });
        }
      }
    }
  }
  return bodies;
}

export const SCENES = {
  "pyramid-210": pyramid210,
  "pile-1000": pile1000,
};

export const ENGINES = ["havok", "continuum-plugin", "continuum-engine"];
