import { type Heightfield, TriangleMesh, type TriangleMeshOptions } from "../../src/index";

/** A flat square grid mesh of n x n quads of `cell` metres (two triangles each), top at y = 0. */
export function gridMesh(
  n: number,
  cell: number,
  height: (x: number, z: number) => number = () => 0,
  options: TriangleMeshOptions = {},
): TriangleMesh {
  const pos: number[] = [],
    idx: number[] = [];
  const half = (n * cell) / 2;
  for (let z = 0; z <= n; z++) for (let x = 0; x <= n; x++) pos.push(-half + x * cell, height(-half + x * cell, -half + z * cell), -half + z * cell);
  for (let z = 0; z < n; z++) {
    for (let x = 0; x < n; x++) {
      const a = z * (n + 1) + x,
        b = a + 1,
        c = a + n + 1,
        d = c + 1;
      idx.push(a, c, b, b, c, d);
    }
  }
  return new TriangleMesh(pos, idx, options);
}


/** Height of the heightfield's triangulated surface at (x, z) (diagonal from (-X,+Z) to (+X,-Z) per cell). */
export function surfaceHeight(hf: Heightfield, x: number, z: number): number {
  const fx = (x + hf.sizeX / 2) / hf.cellSizeX,
    fz = (z + hf.sizeZ / 2) / hf.cellSizeZ;
  const xi = Math.min(Math.floor(fx), hf.samplesX - 2),
    zi = Math.min(Math.floor(fz), hf.samplesZ - 2);
  const u = fx - xi,
    v = fz - zi;
  const h00 = hf.heightAt(xi, zi),
    h10 = hf.heightAt(xi + 1, zi),
    h01 = hf.heightAt(xi, zi + 1),
    h11 = hf.heightAt(xi + 1, zi + 1);
  // Triangle (00, 01, 10) when u + v <= 1, else (10, 01, 11).
  if (u + v <= 1) return h00 + u * (h10 - h00) + v * (h01 - h00);
  return h11 + (1 - u) * (h01 - h11) + (1 - v) * (h10 - h11);
}
