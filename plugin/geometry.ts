/**
 * Debug-display geometry of a shape for the inspector's PhysicsViewer (`getBodyGeometry`): a triangle list
 * in the body's local space, tessellated from the engine shape itself (so it shows what collides, with the
 * container children's poses and scales baked in). Convex hulls give their faces fan-triangulated, triangle
 * meshes their (welded, non-degenerate) triangles, heightfields the grid: nX * nZ vertices and two triangles
 * per cell without a hole.
 */
import { Box, Capsule, Compound, ConvexHull, Cylinder, Heightfield, type Shape, Sphere, TriangleMesh } from "../src/index";
import { heightfieldGeometry } from "./heightfieldOptions";

const SEGMENTS = 16;
const RINGS = 8; // per hemisphere

class Builder {
  positions: number[] = [];
  indices: number[] = [];
  // pose of the current leaf
  px = 0;
  py = 0;
  pz = 0;
  qx = 0;
  qy = 0;
  qz = 0;
  qw = 1;

  vertex(x: number, y: number, z: number): number {
    const { qx, qy, qz, qw } = this;
    // v' = q v q* + p
    const tx = 2 * (qy * z - qz * y),
      ty = 2 * (qz * x - qx * z),
      tz = 2 * (qx * y - qy * x);
    this.positions.push(
      x + qw * tx + (qy * tz - qz * ty) + this.px,
      y + qw * ty + (qz * tx - qx * tz) + this.py,
      z + qw * tz + (qx * ty - qy * tx) + this.pz,
    );
    return this.positions.length / 3 - 1;
  }

  tri(a: number, b: number, c: number): void {
    this.indices.push(a, b, c);
  }

  /** A surface of revolution about local Y through the profile points (r, y), bottom to top. */
  lathe(profile: readonly (readonly [number, number])[]): void {
    const rings: number[] = [];
    for (const [r, y] of profile) {
      rings.push(this.positions.length / 3);
      for (let s = 0; s < SEGMENTS; s++) {
        const a = (2 * Math.PI * s) / SEGMENTS;
        this.vertex(r * Math.cos(a), y, r * Math.sin(a));
      }
    }
    for (let k = 0; k + 1 < profile.length; k++) {
      const r0 = rings[k],
        r1 = rings[k + 1];
      for (let s = 0; s < SEGMENTS; s++) {
        const s1 = (s + 1) % SEGMENTS;
        if (profile[k][0] !== 0) this.tri(r0 + s, r1 + s, r0 + s1);
        if (profile[k + 1][0] !== 0) this.tri(r0 + s1, r1 + s, r1 + s1);
      }
    }
  }

  box(hx: number, hy: number, hz: number): void {
    const base = this.positions.length / 3;
    for (let i = 0; i < 8; i++) this.vertex(i & 1 ? hx : -hx, i & 2 ? hy : -hy, i & 4 ? hz : -hz);
    const faces = [
      [0, 2, 3, 1], // -z
      [4, 5, 7, 6], // +z
      [0, 1, 5, 4], // -y
      [2, 6, 7, 3], // +y
      [0, 4, 6, 2], // -x
      [1, 3, 7, 5], // +x
    ];
    for (const f of faces) {
      this.tri(base + f[0], base + f[1], base + f[2]);
      this.tri(base + f[0], base + f[2], base + f[3]);
    }
  }

  leaf(shape: Shape): void {
    if (shape instanceof Sphere) {
      this.lathe(hemisphere(shape.radius, 0, -1).concat(hemisphere(shape.radius, 0, 1).slice(1)));
    } else if (shape instanceof Capsule) {
      this.lathe(hemisphere(shape.radius, -shape.halfLength, -1).concat(hemisphere(shape.radius, shape.halfLength, 1)));
    } else if (shape instanceof Cylinder) {
      const r = shape.radius,
        h = shape.halfHeight;
      this.lathe([
        [0, -h],
        [r, -h],
        [r, h],
        [0, h],
      ]);
    } else if (shape instanceof Box) {
      this.box(shape.halfX, shape.halfY, shape.halfZ);
    } else if (shape instanceof ConvexHull) {
      this.hull(shape);
    } else if (shape instanceof TriangleMesh) {
      this.triangleMesh(shape);
    } else if (shape instanceof Heightfield) {
      const g = heightfieldGeometry(shape);
      const base = this.positions.length / 3;
      for (let i = 0; i < g.positions.length; i += 3) this.vertex(g.positions[i], g.positions[i + 1], g.positions[i + 2]);
      for (let i = 0; i < g.indices.length; i += 3) {
        const a = g.indices[i],
          b = g.indices[i + 1],
          c = g.indices[i + 2];
        if (a !== b) this.tri(base + a, base + b, base + c); // hole triangles are degenerate
      }
    }
  }

  /** Faces fan-triangulated (counter-clockwise from outside). */
  hull(h: ConvexHull): void {
    const base = this.positions.length / 3;
    const v = h.vertices;
    for (let i = 0; i < v.length; i += 3) this.vertex(v[i], v[i + 1], v[i + 2]);
    for (let f = 0; f < h.faceCount; f++) {
      const s = h.faceStart[f],
        n = h.faceStart[f + 1] - s;
      for (let k = 1; k + 1 < n; k++) {
        this.tri(base + h.faceVertices[s], base + h.faceVertices[s + k], base + h.faceVertices[s + k + 1]);
      }
    }
  }

  /** The mesh's kept triangles over its welded vertices. */
  triangleMesh(m: TriangleMesh): void {
    const base = this.positions.length / 3;
    const v = m.vertices;
    for (let i = 0; i < v.length; i += 3) this.vertex(v[i], v[i + 1], v[i + 2]);
    for (let t = 0; t < m.triangleCount; t++) this.tri(base + m.vertexId(t, 0), base + m.vertexId(t, 1), base + m.vertexId(t, 2));
  }
}

/** Profile of a hemisphere of radius r centred at y = cy, from the pole (dir -1: bottom, +1: top) ordered bottom to top. */
function hemisphere(r: number, cy: number, dir: -1 | 1): [number, number][] {
  const pts: [number, number][] = [];
  for (let k = 0; k <= RINGS; k++) {
    // angle from the equator toward the pole
    const a = (Math.PI / 2) * (k / RINGS);
    pts.push([r * Math.cos(a), cy + dir * r * Math.sin(a)]);
  }
  if (dir < 0) pts.reverse(); // bottom pole first
  pts[dir < 0 ? 0 : pts.length - 1][0] = 0;
  return pts;
}

/** Positions (xyz) and triangle indices of the shape in its own frame; empty for null. */
export function shapeGeometry(shape: Shape | null): { positions: Float32Array; indices: Uint32Array } {
  const b = new Builder();
  if (shape instanceof Compound) {
    for (const ch of shape.children) {
      const p = ch.pose;
      b.px = p.px;
      b.py = p.py;
      b.pz = p.pz;
      b.qx = p.qx;
      b.qy = p.qy;
      b.qz = p.qz;
      b.qw = p.qw;
      b.leaf(ch.shape);
    }
  } else if (shape) {
    b.leaf(shape);
  }
  return { positions: new Float32Array(b.positions), indices: new Uint32Array(b.indices) };
}
