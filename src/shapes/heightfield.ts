/**
 * A heightfield: a regular grid of height samples centred on the local origin, in Babylon's layout
 * (docs/babylon-differences.md 1.9): x in [-sizeX/2, sizeX/2], z in [-sizeZ/2, sizeZ/2], samplesX columns from -X and
 * samplesZ rows from -Z, and the height at column xi, row zi is heights[(samplesZ - 1 - zi) * samplesX + xi]
 * (row 0 of the data is at +Z). Any samplesX x samplesZ >= 2 x 2 works (rectangular grids too).
 *
 * Each cell holds two triangles split along the diagonal from its (-X, +Z) corner to its (+X, -Z)
 * corner, as Babylon's ground meshes are built, so the collision surface matches the rendered ground.
 * Cell c = zi * (samplesX - 1) + xi holds triangles 2c (the corner at (-X, -Z)) and 2c + 1; those are
 * the indices contacts and ray hits report. A NaN sample marks a hole: cells with a NaN corner have no
 * triangles. Edges between cells and the diagonals are active only where the surface bends convexly
 * by more than the active-edge angle (as for TriangleMesh); boundary and hole edges are active, and so is every
 * vertex on an active edge, in each triangle that meets it (cornerFlags).
 *
 * Mass: a heightfield is meant for static (or kinematic) bodies. A dynamic heightfield body gets the
 * mass of its solid bounding box (volume, centre and inertia of the AABB), zero when the field is flat.
 */
import type { IntList } from "../collections/intList";
import type { ChildGate } from "./childGate";
import type { Pose } from "../math/pose";
import { Shape, type MutableVec3 } from "./shape";
import { ShapeType } from "./shapeType";
import { transformAabb } from "./triangleMesh";
import { LocalTriangleHit, cornerFlags, queryAabbViaBox, rayTriangle, sharedEdgeFlags, type TriangleSource } from "./triangleSource";
import { requirePositive } from "./validate";
import { exactCos } from "../math/exactMath";

/** Options for {@link Heightfield}. */
export interface HeightfieldOptions {
  /** Edges bending less than this (radians) are inactive. Default 5 degrees. */
  activeEdgeAngle?: number;
}

/** rayCells' parameter interval [tMin, tMax], narrowed axis by axis by clipSlab. */
const RAY_T = new Float64Array(2);

/** Narrows RAY_T to where o + t d lies in [lo, hi] along one axis; false when the ray misses that slab. */
function clipSlab(o: number, d: number, lo: number, hi: number): boolean {
  if (d === 0) return !(o < lo || o > hi);
  let a = (lo - o) / d,
    b = (hi - o) / d;
  if (a > b) {
    const s = a;
    a = b;
    b = s;
  }
  if (a > RAY_T[0]) RAY_T[0] = a;
  if (b < RAY_T[1]) RAY_T[1] = b;
  return true;
}

/** Cells per culling block side. */
const BLOCK = 8;

const triScratch = new Float64Array(18);

export class Heightfield extends Shape implements TriangleSource {
  readonly type = ShapeType.Heightfield;
  readonly maximumRadius: number;
  readonly minimumRadius = 0;
  readonly sizeX: number;
  readonly sizeZ: number;
  readonly samplesX: number;
  readonly samplesZ: number;
  /** Sample spacing along X and Z. */
  readonly cellSizeX: number;
  readonly cellSizeZ: number;
  /** Lowest and highest sample (holes ignored). */
  readonly minHeight: number;
  readonly maxHeight: number;

  /** Heights in grid order: h[zi * samplesX + xi] (row 0 at -Z); NaN for holes. */
  private readonly h: Float64Array;
  private readonly flags: Uint8Array;
  private readonly vflags: Uint8Array;
  private readonly blocksX: number;
  private readonly blocksZ: number;
  private readonly blockMin: Float64Array;
  private readonly blockMax: Float64Array;
  private readonly localBounds = new Float64Array(6);

  constructor(sizeX: number, sizeZ: number, samplesX: number, samplesZ: number, heights: ArrayLike<number>, options: HeightfieldOptions = {}) {
    super();
    this.sizeX = requirePositive("sizeX", sizeX);
    this.sizeZ = requirePositive("sizeZ", sizeZ);
    if (!Number.isInteger(samplesX) || samplesX < 2) throw new RangeError(`samplesX must be an integer >= 2, got ${String(samplesX)}`);
    if (!Number.isInteger(samplesZ) || samplesZ < 2) throw new RangeError(`samplesZ must be an integer >= 2, got ${String(samplesZ)}`);
    const nX = samplesX,
      nZ = samplesZ;
    if (!heights || heights.length !== nX * nZ) {
      throw new RangeError(`heights must hold samplesX * samplesZ = ${nX * nZ} values, got length ${String(heights?.length)}`);
    }
    const angle = options.activeEdgeAngle ?? (5 * Math.PI) / 180;
    if (!(Number.isFinite(angle) && angle >= 0 && angle < Math.PI)) {
      throw new RangeError(`activeEdgeAngle must be a finite angle in [0, pi), got ${String(angle)}`);
    }
    const cosThreshold = exactCos(angle); // not Math.cos: the same threshold bits in every JavaScript engine
    this.samplesX = nX;
    this.samplesZ = nZ;
    this.cellSizeX = sizeX / (nX - 1);
    this.cellSizeZ = sizeZ / (nZ - 1);
    const h = new Float64Array(nX * nZ);
    let lo = Infinity,
      hi = -Infinity;
    for (let zi = 0; zi < nZ; zi++) {
      for (let xi = 0; xi < nX; xi++) {
        const k = (nZ - 1 - zi) * nX + xi;
        const v = heights[k];
        if (typeof v !== "number" || v === Infinity || v === -Infinity) {
          throw new RangeError(`heights[${k}] must be a finite number or NaN (a hole), got ${String(v)}`);
        }
        h[zi * nX + xi] = v;
        if (v < lo) lo = v;
        if (v > hi) hi = v;
      }
    }
    this.h = h;
    const cx = nX - 1,
      cz = nZ - 1;
    let anyCell = false;
    for (let zi = 0; zi < cz && !anyCell; zi++) for (let xi = 0; xi < cx && !anyCell; xi++) anyCell = !this.isHole(xi, zi);
    if (!anyCell) throw new RangeError("heights: every cell has a NaN (hole) corner, so the heightfield has no triangles");
    this.minHeight = lo;
    this.maxHeight = hi;
    const lb = this.localBounds;
    lb[0] = -sizeX / 2;
    lb[1] = lo;
    lb[2] = -sizeZ / 2;
    lb[3] = sizeX / 2;
    lb[4] = hi;
    lb[5] = sizeZ / 2;
    const ay = Math.max(Math.abs(lo), Math.abs(hi));
    this.maximumRadius = Math.sqrt((sizeX * sizeX) / 4 + (sizeZ * sizeZ) / 4 + ay * ay);

    // Culling blocks.
    this.blocksX = Math.ceil(cx / BLOCK);
    this.blocksZ = Math.ceil(cz / BLOCK);
    this.blockMin = new Float64Array(this.blocksX * this.blocksZ).fill(Infinity);
    this.blockMax = new Float64Array(this.blocksX * this.blocksZ).fill(-Infinity);
    for (let zi = 0; zi < cz; zi++) {
      for (let xi = 0; xi < cx; xi++) {
        if (this.isHole(xi, zi)) continue;
        const b = ((zi / BLOCK) | 0) * this.blocksX + ((xi / BLOCK) | 0);
        for (let k = 0; k < 4; k++) {
          const v = h[(zi + (k >> 1)) * nX + xi + (k & 1)];
          if (v < this.blockMin[b]) this.blockMin[b] = v;
          if (v > this.blockMax[b]) this.blockMax[b] = v;
        }
      }
    }

    // Active edges.
    const flags = new Uint8Array(2 * cx * cz);
    const both = 1 | 8;
    const n = new Float64Array(3),
      n2 = new Float64Array(3);
    for (let zi = 0; zi < cz; zi++) {
      for (let xi = 0; xi < cx; xi++) {
        const c = zi * cx + xi;
        if (this.isHole(xi, zi)) continue;
        for (let k = 0; k < 2; k++) {
          const t = 2 * c + k;
          this.getTriangle(t, triScratch, 0);
          triNormal(triScratch, 0, n);
          let f = 0;
          for (let e = 0; e < 3; e++) {
            const nb = this.neighborOf(xi, zi, k, e);
            if (nb < 0) {
              f |= both << e;
              continue;
            }
            this.getTriangle(nb, triScratch, 9);
            triNormal(triScratch, 9, n2);
            // The neighbour's corner off the shared edge: its edge (e') opposite corner is e' + 2.
            const oc = (neighborEdge(k, e) + 2) % 3;
            f |= sharedEdgeFlags(
              e,
              n[0],
              n[1],
              n[2],
              triScratch[3 * e],
              triScratch[3 * e + 1],
              triScratch[3 * e + 2],
              n2[0],
              n2[1],
              n2[2],
              triScratch[9 + 3 * oc],
              triScratch[9 + 3 * oc + 1],
              triScratch[9 + 3 * oc + 2],
              cosThreshold,
            );
          }
          flags[t] = f;
        }
      }
    }
    this.flags = flags;
    // Hole cells' triangles have no flags and are never gathered.
    this.vflags = cornerFlags(flags.length, flags, (t, c) => this.vertexId(t, c), nX * nZ);
  }

  /** Height of sample (xi, zi) (column from -X, row from -Z); NaN for a hole. */
  heightAt(xi: number, zi: number): number {
    return this.h[zi * this.samplesX + xi];
  }

  /** True when cell (xi, zi) has a hole corner (no triangles). */
  isHole(xi: number, zi: number): boolean {
    const nX = this.samplesX,
      h = this.h;
    const o = zi * nX + xi;
    const a = h[o],
      b = h[o + 1],
      c = h[o + nX],
      d = h[o + nX + 1];
    return a !== a || b !== b || c !== c || d !== d;
  }

  /** Triangle index across edge e of triangle k (0/1) of cell (xi, zi), or -1 (boundary or hole). */
  private neighborOf(xi: number, zi: number, k: number, e: number): number {
    const cx = this.samplesX - 1,
      cz = this.samplesZ - 1;
    let nx = xi,
      nz = zi,
      nk: number;
    if (k === 0) {
      if (e === 1) return 2 * (zi * cx + xi) + 1;
      if (e === 0) nx = xi - 1;
      else nz = zi - 1;
      nk = 1;
    } else {
      if (e === 0) return 2 * (zi * cx + xi);
      if (e === 1) nz = zi + 1;
      else nx = xi + 1;
      nk = 0;
    }
    if (nx < 0 || nz < 0 || nx >= cx || nz >= cz || this.isHole(nx, nz)) return -1;
    return 2 * (nz * cx + nx) + nk;
  }

  // ---- Shape ------------------------------------------------------------------------------------

  computeAabb(pose: Pose, out: Float64Array, o: number): void {
    transformAabb(this.localBounds, pose, out, o);
  }

  volume(): number {
    const lb = this.localBounds;
    return (lb[3] - lb[0]) * (lb[4] - lb[1]) * (lb[5] - lb[2]);
  }

  unitInertia(out: Float64Array, o: number): void {
    const lb = this.localBounds;
    const hx = (lb[3] - lb[0]) / 2,
      hy = (lb[4] - lb[1]) / 2,
      hz = (lb[5] - lb[2]) / 2;
    const cy = (lb[4] + lb[1]) / 2;
    out[o] = (hy * hy + hz * hz) / 3 + cy * cy;
    out[o + 1] = (hx * hx + hz * hz) / 3;
    out[o + 2] = (hx * hx + hy * hy) / 3 + cy * cy;
    out[o + 3] = 0;
    out[o + 4] = 0;
    out[o + 5] = 0;
  }

  override centroid(out: MutableVec3): void {
    out.x = 0;
    out.y = (this.localBounds[1] + this.localBounds[4]) / 2;
    out.z = 0;
  }

  // ---- TriangleSource ---------------------------------------------------------------------------

  /** Local bounds (minX, minY, minZ, maxX, maxY, maxZ). */
  get bounds(): Float64Array {
    return this.localBounds;
  }

  /** Number of triangle slots (2 per cell, holes included). */
  get triangleCount(): number {
    return 2 * (this.samplesX - 1) * (this.samplesZ - 1);
  }

  /**
   * A heightfield is a terrain: its solid side is below the surface, so it collides on its upper side only
   * (its triangles' counter-clockwise normals point up). A body pressed deeper than half its thickness is
   * still pushed up, never through.
   */
  readonly faceSign = 1;

  triangleIndex(t: number): number {
    return t;
  }

  queryAabb(minX: number, minY: number, minZ: number, maxX: number, maxY: number, maxZ: number, out: IntList): void {
    queryAabbViaBox(this, minX, minY, minZ, maxX, maxY, maxZ, out);
  }

  queryBox(box: Float64Array, o0: number, out: IntList): void {
    const minX = box[o0],
      minY = box[o0 + 1],
      minZ = box[o0 + 2],
      maxX = box[o0 + 3],
      maxY = box[o0 + 4],
      maxZ = box[o0 + 5];
    if (minY > this.maxHeight || maxY < this.minHeight) return;
    const cx = this.samplesX - 1,
      cz = this.samplesZ - 1;
    const x0 = -this.sizeX / 2,
      z0 = -this.sizeZ / 2;
    const fx0 = Math.floor((minX - x0) / this.cellSizeX),
      fx1 = Math.floor((maxX - x0) / this.cellSizeX);
    const fz0 = Math.floor((minZ - z0) / this.cellSizeZ),
      fz1 = Math.floor((maxZ - z0) / this.cellSizeZ);
    if (fx1 < 0 || fz1 < 0 || fx0 >= cx + 1 || fz0 >= cz + 1) return;
    const ix0 = fx0 < 0 ? 0 : fx0,
      ix1 = fx1 >= cx ? cx - 1 : fx1;
    const iz0 = fz0 < 0 ? 0 : fz0,
      iz1 = fz1 >= cz ? cz - 1 : fz1;
    if (ix0 > ix1 || iz0 > iz1) return;
    const nX = this.samplesX,
      h = this.h;
    const bx0 = (ix0 / BLOCK) | 0,
      bx1 = (ix1 / BLOCK) | 0,
      bz0 = (iz0 / BLOCK) | 0,
      bz1 = (iz1 / BLOCK) | 0;
    for (let bz = bz0; bz <= bz1; bz++) {
      for (let bx = bx0; bx <= bx1; bx++) {
        const b = bz * this.blocksX + bx;
        if (this.blockMin[b] > maxY || this.blockMax[b] < minY) continue;
        const zs = Math.max(iz0, bz * BLOCK),
          ze = Math.min(iz1, bz * BLOCK + BLOCK - 1);
        const xs = Math.max(ix0, bx * BLOCK),
          xe = Math.min(ix1, bx * BLOCK + BLOCK - 1);
        for (let zi = zs; zi <= ze; zi++) {
          for (let xi = xs; xi <= xe; xi++) {
            const o = zi * nX + xi;
            const a = h[o],
              b2 = h[o + 1],
              c = h[o + nX],
              d = h[o + nX + 1];
            // NaN fails both comparisons below, so test holes explicitly.
            if (a !== a || b2 !== b2 || c !== c || d !== d) continue;
            const lo = Math.min(a, b2, c, d),
              hi = Math.max(a, b2, c, d);
            if (lo > maxY || hi < minY) continue;
            const cell = zi * cx + xi;
            out.push(2 * cell);
            out.push(2 * cell + 1);
          }
        }
      }
    }
  }

  getTriangle(t: number, out: Float64Array, o: number): void {
    const cx = this.samplesX - 1;
    const cell = t >> 1,
      k = t & 1;
    const zi = (cell / cx) | 0,
      xi = cell - zi * cx;
    // Corners: T0 = (p00, p01, p10), T1 = (p10, p01, p11); pXZ offsets in x and z.
    if (k === 0) {
      this.corner(xi, zi, out, o);
      this.corner(xi, zi + 1, out, o + 3);
      this.corner(xi + 1, zi, out, o + 6);
    } else {
      this.corner(xi + 1, zi, out, o);
      this.corner(xi, zi + 1, out, o + 3);
      this.corner(xi + 1, zi + 1, out, o + 6);
    }
  }

  private corner(xi: number, zi: number, out: Float64Array, o: number): void {
    out[o] = -this.sizeX / 2 + xi * this.cellSizeX;
    out[o + 1] = this.h[zi * this.samplesX + xi];
    out[o + 2] = -this.sizeZ / 2 + zi * this.cellSizeZ;
  }

  edgeFlags(t: number): number {
    return this.flags[t];
  }

  vertexFlags(t: number): number {
    return this.vflags[t];
  }

  vertexId(t: number, c: number): number {
    const cx = this.samplesX - 1;
    const cell = t >> 1,
      k = t & 1;
    const zi = (cell / cx) | 0,
      xi = cell - zi * cx;
    const nX = this.samplesX;
    if (k === 0) return c === 0 ? zi * nX + xi : c === 1 ? (zi + 1) * nX + xi : zi * nX + xi + 1;
    return c === 0 ? zi * nX + xi + 1 : c === 1 ? (zi + 1) * nX + xi : (zi + 1) * nX + xi + 1;
  }

  /** Tests the two triangles of cell (xi, zi); returns the nearer t (<= maxT) or -1, and the triangle in lastTri. */
  private lastTri = -1;
  /** The gate of the ray cast under way (rayCastLocal), read by rayCell. */
  private rayGate: ChildGate | null = null;
  private rayCell(xi: number, zi: number, ox: number, oy: number, oz: number, dx: number, dy: number, dz: number, maxT: number): number {
    if (this.isHole(xi, zi)) return -1;
    const cell = zi * (this.samplesX - 1) + xi;
    let best = -1;
    for (let k = 0; k < 2; k++) {
      if (this.rayGate !== null && !this.rayGate.passes(2 * cell + k)) continue;
      this.getTriangle(2 * cell + k, triScratch, 0);
      const s = triScratch;
      const t = rayTriangle(ox, oy, oz, dx, dy, dz, s[0], s[1], s[2], s[3], s[4], s[5], s[6], s[7], s[8], best >= 0 ? best : maxT);
      if (t >= 0 && (best < 0 || t < best)) {
        best = t;
        this.lastTri = 2 * cell + k;
      }
    }
    return best;
  }

  /** Closest two-sided hit of the local ray, walking the cells the ray crosses (Amanatides-Woo). */
  rayCastLocal(ox: number, oy: number, oz: number, dx: number, dy: number, dz: number, maxT: number, out: LocalTriangleHit, gate: ChildGate | null = null): boolean {
    this.rayGate = gate;
    const hit = this.rayCells(ox, oy, oz, dx, dy, dz, maxT, out);
    this.rayGate = null;
    return hit;
  }

  private rayCells(ox: number, oy: number, oz: number, dx: number, dy: number, dz: number, maxT: number, out: LocalTriangleHit): boolean {
    const x0 = -this.sizeX / 2,
      z0 = -this.sizeZ / 2,
      x1 = this.sizeX / 2,
      z1 = this.sizeZ / 2;
    const cx = this.samplesX - 1,
      cz = this.samplesZ - 1;
    // Clip to the grid's footprint and to the height range.
    const T = RAY_T;
    T[0] = 0;
    T[1] = maxT;
    if (!clipSlab(ox, dx, x0, x1) || !clipSlab(oz, dz, z0, z1) || !clipSlab(oy, dy, this.minHeight, this.maxHeight)) return false;
    const tMin = T[0],
      tMax = T[1];
    if (tMin > tMax) return false;
    const csx = this.cellSizeX,
      csz = this.cellSizeZ;
    const px = ox + tMin * dx,
      pz = oz + tMin * dz;
    let xi = Math.floor((px - x0) / csx),
      zi = Math.floor((pz - z0) / csz);
    if (xi < 0) xi = 0;
    if (xi > cx - 1) xi = cx - 1;
    if (zi < 0) zi = 0;
    if (zi > cz - 1) zi = cz - 1;
    const stepX = dx > 0 ? 1 : dx < 0 ? -1 : 0,
      stepZ = dz > 0 ? 1 : dz < 0 ? -1 : 0;
    let tNextX = stepX === 0 ? Infinity : (x0 + (xi + (stepX > 0 ? 1 : 0)) * csx - ox) / dx;
    let tNextZ = stepZ === 0 ? Infinity : (z0 + (zi + (stepZ > 0 ? 1 : 0)) * csz - oz) / dz;
    const tDeltaX = stepX === 0 ? Infinity : csx / Math.abs(dx),
      tDeltaZ = stepZ === 0 ? Infinity : csz / Math.abs(dz);
    // Slack so that hits on a cell boundary are found in either cell.
    const slack = 1e-9 * (csx + csz) / Math.max(Math.abs(dx) + Math.abs(dz), 1e-300);
    for (;;) {
      const t = this.rayCell(xi, zi, ox, oy, oz, dx, dy, dz, maxT);
      if (t >= 0) {
        // A hit in this cell lies within the cell's t range; the first such cell is the nearest.
        const tri = this.lastTri;
        this.getTriangle(tri, triScratch, 0);
        triNormal(triScratch, 0, nScratch);
        let nx = nScratch[0],
          ny = nScratch[1],
          nz = nScratch[2];
        if (nx * dx + ny * dy + nz * dz > 0) {
          nx = -nx;
          ny = -ny;
          nz = -nz;
        }
        out.t = t;
        out.nx = nx;
        out.ny = ny;
        out.nz = nz;
        out.triangle = tri;
        // A hit exactly on the exit boundary could be beaten by nothing nearer: done.
        return true;
      }
      const tExit = tNextX < tNextZ ? tNextX : tNextZ;
      if (tExit > tMax + slack) return false;
      if (tNextX < tNextZ) {
        xi += stepX;
        tNextX += tDeltaX;
        if (xi < 0 || xi >= cx) return false;
      } else {
        zi += stepZ;
        tNextZ += tDeltaZ;
        if (zi < 0 || zi >= cz) return false;
      }
    }
  }
}

const nScratch = new Float64Array(3);

/** Unit normal of the triangle at s[o..o+8] (counter-clockwise), into n. */
function triNormal(s: Float64Array, o: number, n: Float64Array): void {
  const e1x = s[o + 3] - s[o],
    e1y = s[o + 4] - s[o + 1],
    e1z = s[o + 5] - s[o + 2];
  const e2x = s[o + 6] - s[o],
    e2y = s[o + 7] - s[o + 1],
    e2z = s[o + 8] - s[o + 2];
  const x = e1y * e2z - e1z * e2y,
    y = e1z * e2x - e1x * e2z,
    z = e1x * e2y - e1y * e2x;
  const l = Math.sqrt(x * x + y * y + z * z);
  n[0] = x / l;
  n[1] = y / l;
  n[2] = z / l;
}

/** Edge index in the neighbour triangle matching edge e of a triangle of kind k (see neighborOf). */
function neighborEdge(k: number, e: number): number {
  // T0: e0 <-> T1.e2 (cell to -X), e1 <-> T1.e0 (same cell), e2 <-> T1.e1 (cell to -Z).
  // T1: e0 <-> T0.e1 (same cell), e1 <-> T0.e2 (cell to +Z), e2 <-> T0.e0 (cell to +X).
  if (k === 0) return e === 0 ? 2 : e === 1 ? 0 : 1;
  return e === 0 ? 1 : e === 1 ? 2 : 0;
}
