import { TriangleMesh } from "../../src/index";

/** Closed box mesh with half extents (hx, hy, hz) centred at (cx, cy, cz), outward winding. */
export function boxMesh(hx: number, hy: number, hz: number, cx = 0, cy = 0, cz = 0, inward = false): TriangleMesh {
  const p: number[] = [];
  for (let i = 0; i < 8; i++) p.push(cx + (i & 1 ? hx : -hx), cy + (i & 2 ? hy : -hy), cz + (i & 4 ? hz : -hz));
  // Faces as quads (outward CCW): -x, +x, -y, +y, -z, +z.
  const quads = [
    [0, 4, 6, 2],
    [1, 3, 7, 5],
    [0, 1, 5, 4],
    [2, 6, 7, 3],
    [0, 2, 3, 1],
    [4, 5, 7, 6],
  ];
  const idx: number[] = [];
  for (const [a, b, c, d] of quads) {
    if (inward) idx.push(a, c, b, a, d, c);
    else idx.push(a, b, c, a, c, d);
  }
  return new TriangleMesh(p, idx);
}

/** Flat grid of n x n unit quads in the xz plane at height y (optionally skipping some quads). */
export function grid(n: number, skip: (x: number, z: number) => boolean = () => false): TriangleMesh {
  const p: number[] = [],
    idx: number[] = [];
  for (let z = 0; z <= n; z++) for (let x = 0; x <= n; x++) p.push(x - n / 2, 0, z - n / 2);
  for (let z = 0; z < n; z++) {
    for (let x = 0; x < n; x++) {
      if (skip(x, z)) continue;
      const a = z * (n + 1) + x;
      idx.push(a, a + n + 1, a + 1, a + 1, a + n + 1, a + n + 2);
    }
  }
  return new TriangleMesh(p, idx);
}

