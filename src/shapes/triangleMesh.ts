/**
 * A static triangle mesh: a triangle soup with a bounding-volume hierarchy (binned SAH build, Wald,
 * "On fast Construction of SAH-based Bounding Volume Hierarchies", 2007), welded adjacency and
 * per-edge activity (Jolt's active edges: flat and concave edges never give edge normals) and per-corner activity
 * (a vertex on any active edge: triangleSource.ts cornerFlags).
 *
 * Triangles are two-sided. Zero-area triangles are dropped at construction; every other triangle keeps
 * its input index (indices[3t..3t+2]), which is what contacts (manifold child index) and ray hits
 * (RayHit.childIndex) report.
 *
 * Mass properties: for a closed mesh (every edge walked equally often in each direction)
 * the enclosed solid, by signed tetrahedra (volume, centroid and inertia are exact for the polyhedron).
 * For an open mesh (a floor, a terrain) there is no enclosed volume: the solid axis-aligned bounding box
 * of the vertices stands in (volume, centre and box inertia); a flat open mesh thus has volume 0 and a
 * dynamic body made of it gets the engine's default mass. Mesh-mesh pairs collide triangle by triangle
 * (collision/meshMesh.ts).
 */
import type { IntList } from "../collections/intList";
import type { ChildGate } from "./childGate";
import { clipSlab, orientedBoxAabb } from "../math/aabb";
import type { Pose } from "../math/pose";
import { Shape, type MutableVec3 } from "./shape";
import { ShapeType } from "./shapeType";
import {
  EDGE_BACK_SHIFT,
  EDGE_FRONT_SHIFT,
  LocalTriangleHit,
  cornerFlags,
  queryAabbViaBox,
  rayTriangle,
  sharedEdgeFlags,
  type TriangleSource,
} from "./triangleSource";
import { exactCos } from "../math/exactMath";
import { triangleCross } from "../math/vec3";
import { addToBin, bestBinSplit, halfArea, resetBins, SAH_COST } from "../math/binnedSah";

/** A triangle's normal and scale (triangleCross). */
const CROSS = new Float64Array(4);

/** Options for {@link TriangleMesh}. */
export interface TriangleMeshOptions {
  /** Edges bending less than this (radians) are inactive. Default 5 degrees (Jolt's default). */
  activeEdgeAngle?: number;
  /**
   * Open meshes only (closed meshes always collide on their outside). true (the default): triangles
   * collide on the side the other shape's centre is on. false: only on their front side, the side their
   * counter-clockwise winding faces; use it for terrain, where a body pressed more than halfway into the
   * surface must still be pushed out upward.
   */
  doubleSided?: boolean;
}

const LEAF_SIZE = 4;
const BINS = 12;

export class TriangleMesh extends Shape implements TriangleSource {
  readonly type = ShapeType.Mesh;
  readonly maximumRadius: number;
  readonly minimumRadius = 0;

  /** Welded vertex positions (x, y, z per vertex). */
  readonly vertices: Float64Array;
  /** Number of kept (non-degenerate) triangles. */
  readonly triangleCount: number;
  /** Whether the mesh encloses a volume (every edge shared by two oppositely wound triangles). */
  readonly closed: boolean;

  /**
   * Collision sidedness: 0 (two-sided) for open meshes; for a closed mesh +1 or -1, the sign that turns
   * the counter-clockwise normals outward (closed meshes collide on their outer side only).
   */
  readonly faceSign: number;

  /** Welded corner ids per internal triangle (BVH order). */
  private readonly tv: Int32Array;
  /** Input triangle index per internal triangle. */
  private readonly triId: Int32Array;
  /** Internal triangle per input triangle index (-1 for dropped ones). */
  private readonly internalOf: Int32Array;
  /** Unit normals per internal triangle. */
  private readonly normals: Float64Array;
  private readonly flags: Uint8Array;
  /** Active corners per internal triangle (cornerFlags). */
  private readonly vflags: Uint8Array;
  /** Internal index of the neighbour across each edge (-1: none or non-manifold). */
  private readonly neighbors: Int32Array;

  // BVH
  private readonly nodeBounds: Float64Array;
  private readonly nodeFirst: Int32Array;
  private readonly nodeSecond: Int32Array;
  private readonly nodeCount: Int32Array;
  private readonly stack: Int32Array;

  private readonly vol: number;
  private readonly com = new Float64Array(3);
  private readonly inertiaOrigin = new Float64Array(6);
  private readonly localBounds = new Float64Array(6);

  constructor(positions: ArrayLike<number>, indices: ArrayLike<number>, options: TriangleMeshOptions = {}) {
    super();
    if (!positions || typeof positions.length !== "number" || positions.length < 9 || positions.length % 3 !== 0) {
      throw new RangeError(`positions must hold xyz triples for at least 3 vertices, got length ${String(positions?.length)}`);
    }
    if (!indices || typeof indices.length !== "number" || indices.length < 3 || indices.length % 3 !== 0) {
      throw new RangeError(`indices must hold at least one triangle (a multiple of 3 values), got length ${String(indices?.length)}`);
    }
    const nIn = positions.length / 3;
    for (let i = 0; i < positions.length; i++) {
      const v = positions[i];
      if (typeof v !== "number" || !Number.isFinite(v)) throw new RangeError(`positions[${i}] must be a finite number, got ${String(v)}`);
    }
    for (let i = 0; i < indices.length; i++) {
      const v = indices[i];
      if (typeof v !== "number" || !Number.isInteger(v) || v < 0 || v >= nIn) {
        throw new RangeError(`indices[${i}] must be an integer vertex index in [0, ${nIn - 1}], got ${String(v)}`);
      }
    }
    const angle = options.activeEdgeAngle ?? (5 * Math.PI) / 180;
    if (!(Number.isFinite(angle) && angle >= 0 && angle < Math.PI)) {
      throw new RangeError(`activeEdgeAngle must be a finite angle in [0, pi), got ${String(angle)}`);
    }
    const cosThreshold = exactCos(angle); // not Math.cos: the same threshold bits in every JavaScript engine

    // Weld exactly equal positions (split-normal meshes repeat vertices).
    const weld = new Map<string, number>();
    const remap = new Int32Array(nIn);
    const verts: number[] = [];
    for (let i = 0; i < nIn; i++) {
      const x = positions[3 * i] + 0,
        y = positions[3 * i + 1] + 0,
        z = positions[3 * i + 2] + 0;
      const key = `${x},${y},${z}`;
      let id = weld.get(key);
      if (id === undefined) {
        id = verts.length / 3;
        weld.set(key, id);
        verts.push(x, y, z);
      }
      remap[i] = id;
    }
    const V = new Float64Array(verts);
    this.vertices = V;

    // Keep non-degenerate triangles.
    const nTriIn = indices.length / 3;
    const kept: number[] = [];
    for (let t = 0; t < nTriIn; t++) {
      const a = remap[indices[3 * t]],
        b = remap[indices[3 * t + 1]],
        c = remap[indices[3 * t + 2]];
      if (a === b || b === c || a === c) continue;
      triangleCross(V, 3 * a, 3 * b, 3 * c, CROSS, 0);
      const cx = CROSS[0], cy = CROSS[1], cz = CROSS[2];
      const cl = Math.sqrt(cx * cx + cy * cy + cz * cz);
      const scale = CROSS[3];
      if (!(cl > 1e-12 * scale)) continue;
      kept.push(t);
    }
    const n = kept.length;
    if (n === 0) throw new RangeError(`indices: all ${nTriIn} triangles have zero area`);
    this.triangleCount = n;

    // Triangle bounds and centroids for the BVH build.
    const tb = new Float64Array(6 * n);
    const cen = new Float64Array(3 * n);
    for (let k = 0; k < n; k++) {
      const t = kept[k];
      for (let ax = 0; ax < 3; ax++) {
        const p0 = V[3 * remap[indices[3 * t]] + ax],
          p1 = V[3 * remap[indices[3 * t + 1]] + ax],
          p2 = V[3 * remap[indices[3 * t + 2]] + ax];
        tb[6 * k + ax] = Math.min(p0, p1, p2);
        tb[6 * k + 3 + ax] = Math.max(p0, p1, p2);
        cen[3 * k + ax] = (p0 + p1 + p2) / 3;
      }
    }
    const order = new Int32Array(n);
    for (let k = 0; k < n; k++) order[k] = k;
    const cap = 2 * n;
    const nodeBounds = new Float64Array(6 * cap);
    const nodeFirst = new Int32Array(cap);
    const nodeSecond = new Int32Array(cap);
    const nodeCount = new Int32Array(cap);
    let nodes = 1;
    let maxDepth = 1;
    // Work list: node, start, end, depth.
    const work: number[] = [0, 0, n, 1];
    const binCount = new Int32Array(BINS);
    const binBounds = new Float64Array(6 * BINS);
    const rightArea = new Float64Array(BINS);
    while (work.length > 0) {
      const depth = work.pop()!,
        end = work.pop()!,
        start = work.pop()!,
        node = work.pop()!;
      if (depth > maxDepth) maxDepth = depth;
      // Node bounds and centroid bounds.
      let bmin0 = Infinity,
        bmin1 = Infinity,
        bmin2 = Infinity,
        bmax0 = -Infinity,
        bmax1 = -Infinity,
        bmax2 = -Infinity;
      let cmin0 = Infinity,
        cmin1 = Infinity,
        cmin2 = Infinity,
        cmax0 = -Infinity,
        cmax1 = -Infinity,
        cmax2 = -Infinity;
      for (let i = start; i < end; i++) {
        const k = order[i];
        bmin0 = Math.min(bmin0, tb[6 * k]);
        bmin1 = Math.min(bmin1, tb[6 * k + 1]);
        bmin2 = Math.min(bmin2, tb[6 * k + 2]);
        bmax0 = Math.max(bmax0, tb[6 * k + 3]);
        bmax1 = Math.max(bmax1, tb[6 * k + 4]);
        bmax2 = Math.max(bmax2, tb[6 * k + 5]);
        cmin0 = Math.min(cmin0, cen[3 * k]);
        cmin1 = Math.min(cmin1, cen[3 * k + 1]);
        cmin2 = Math.min(cmin2, cen[3 * k + 2]);
        cmax0 = Math.max(cmax0, cen[3 * k]);
        cmax1 = Math.max(cmax1, cen[3 * k + 1]);
        cmax2 = Math.max(cmax2, cen[3 * k + 2]);
      }
      const o = 6 * node;
      nodeBounds[o] = bmin0;
      nodeBounds[o + 1] = bmin1;
      nodeBounds[o + 2] = bmin2;
      nodeBounds[o + 3] = bmax0;
      nodeBounds[o + 4] = bmax1;
      nodeBounds[o + 5] = bmax2;
      const count = end - start;
      const makeLeaf = (): void => {
        nodeFirst[node] = start;
        nodeCount[node] = count;
      };
      if (count <= LEAF_SIZE) {
        makeLeaf();
        continue;
      }
      const ex0 = cmax0 - cmin0,
        ex1 = cmax1 - cmin1,
        ex2 = cmax2 - cmin2;
      const axis = ex0 >= ex1 && ex0 >= ex2 ? 0 : ex1 >= ex2 ? 1 : 2;
      const cmin = axis === 0 ? cmin0 : axis === 1 ? cmin1 : cmin2;
      const ext = axis === 0 ? ex0 : axis === 1 ? ex1 : ex2;
      let mid = -1;
      if (ext > 0) {
        // Binned SAH.
        resetBins(binBounds, binCount, BINS);
        const sc = BINS / ext;
        for (let i = start; i < end; i++) {
          const k = order[i];
          let b = Math.floor((cen[3 * k + axis] - cmin) * sc);
          if (b >= BINS) b = BINS - 1;
          addToBin(binBounds, binCount, b, tb, 6 * k);
        }
        // bestSplit: the last bin on the left (-1: none).
        const bestSplit = bestBinSplit(binBounds, binCount, rightArea, BINS, count) - 1;
        const bestCost = SAH_COST[0];
        const parentArea = halfArea(bmax0 - bmin0, bmax1 - bmin1, bmax2 - bmin2);
        if (bestSplit >= 0 && (bestCost < count * parentArea || count > 4 * LEAF_SIZE)) {
          // Partition by bin.
          let i = start,
            j = end - 1;
          while (i <= j) {
            const k = order[i];
            let b = Math.floor((cen[3 * k + axis] - cmin) * sc);
            if (b >= BINS) b = BINS - 1;
            if (b <= bestSplit) i++;
            else {
              order[i] = order[j];
              order[j] = k;
              j--;
            }
          }
          mid = i;
        } else if (count <= 4 * LEAF_SIZE) {
          makeLeaf();
          continue;
        }
      }
      if (mid <= start || mid >= end) {
        // All centroids coincide (or no useful split): halve by index.
        mid = (start + end) >> 1;
      }
      const left = nodes,
        right = nodes + 1;
      nodes += 2;
      nodeFirst[node] = left;
      nodeSecond[node] = right;
      nodeCount[node] = 0;
      work.push(left, start, mid, depth + 1, right, mid, end, depth + 1);
    }
    this.nodeBounds = nodeBounds.slice(0, 6 * nodes);
    this.nodeFirst = nodeFirst.slice(0, nodes);
    this.nodeSecond = nodeSecond.slice(0, nodes);
    this.nodeCount = nodeCount.slice(0, nodes);
    this.stack = new Int32Array(2 * maxDepth + 4);

    // Internal triangles in BVH leaf order.
    const tv = new Int32Array(3 * n);
    const triId = new Int32Array(n);
    const internalOf = new Int32Array(nTriIn).fill(-1);
    for (let i = 0; i < n; i++) {
      const t = kept[order[i]];
      tv[3 * i] = remap[indices[3 * t]];
      tv[3 * i + 1] = remap[indices[3 * t + 1]];
      tv[3 * i + 2] = remap[indices[3 * t + 2]];
      triId[i] = t;
      internalOf[t] = i;
    }
    this.tv = tv;
    this.triId = triId;
    this.internalOf = internalOf;
    const normals = new Float64Array(3 * n);
    for (let i = 0; i < n; i++) {
      const a = tv[3 * i],
        b = tv[3 * i + 1],
        c = tv[3 * i + 2];
      triangleCross(V, 3 * a, 3 * b, 3 * c, CROSS, 0);
      const cx = CROSS[0], cy = CROSS[1], cz = CROSS[2];
      const l = Math.sqrt(cx * cx + cy * cy + cz * cz);
      normals[3 * i] = cx / l;
      normals[3 * i + 1] = cy / l;
      normals[3 * i + 2] = cz / l;
    }
    this.normals = normals;

    // Adjacency by welded edge.
    const nv = V.length / 3;
    const edgeMap = new Map<number, number[]>();
    for (let i = 0; i < n; i++) {
      for (let e = 0; e < 3; e++) {
        const p = tv[3 * i + e],
          q = tv[3 * i + (e === 2 ? 0 : e + 1)];
        const key = p < q ? p * nv + q : q * nv + p;
        let list = edgeMap.get(key);
        if (list === undefined) {
          list = [];
          edgeMap.set(key, list);
        }
        list.push(3 * i + e);
      }
    }
    // Closed (watertight) when every edge is walked equally often in each direction: the surface then bounds
    // a volume even where parts touch (two boxes sharing a face add two coincident, opposite faces, and their
    // edges are used four times), which is what signed-tetrahedra mass properties and one-sided collision need.
    let closed = true;
    for (const list of edgeMap.values()) {
      if (list.length < 2) {
        closed = false;
        break;
      }
      let balance = 0;
      for (const entry of list) {
        const t = (entry / 3) | 0,
          e = entry % 3;
        const p = tv[3 * t + e],
          q = tv[3 * t + (e === 2 ? 0 : e + 1)];
        balance += p < q ? 1 : -1;
      }
      if (balance !== 0) {
        closed = false;
        break;
      }
    }
    const neighbors = new Int32Array(3 * n).fill(-1);
    const flags = new Uint8Array(n);
    const both = (1 << EDGE_FRONT_SHIFT) | (1 << EDGE_BACK_SHIFT);
    for (let i = 0; i < n; i++) {
      let f = 0;
      for (let e = 0; e < 3; e++) {
        const p = tv[3 * i + e],
          q = tv[3 * i + (e === 2 ? 0 : e + 1)];
        const key = p < q ? p * nv + q : q * nv + p;
        const list = edgeMap.get(key)!;
        if (list.length !== 2) {
          // Boundary or non-manifold edge: no single neighbour; both sides stay active.
          f |= both << e;
          continue;
        }
        const other = list[0] === 3 * i + e ? list[1] : list[0];
        const j = (other / 3) | 0,
          ej = other % 3;
        neighbors[3 * i + e] = j;
        // Consistent winding: the neighbour walks the shared edge the other way (q -> p).
        const consistent = tv[3 * j + ej] === q;
        const s = consistent ? 1 : -1;
        const opp = tv[3 * j + (ej === 0 ? 2 : ej - 1)];
        f |= sharedEdgeFlags(
          e,
          normals[3 * i],
          normals[3 * i + 1],
          normals[3 * i + 2],
          V[3 * p],
          V[3 * p + 1],
          V[3 * p + 2],
          s * normals[3 * j],
          s * normals[3 * j + 1],
          s * normals[3 * j + 2],
          V[3 * opp],
          V[3 * opp + 1],
          V[3 * opp + 2],
          cosThreshold,
        );
      }
      flags[i] = f;
    }
    this.neighbors = neighbors;
    this.flags = flags;
    this.vflags = cornerFlags(n, flags, (t, c) => tv[3 * t + c], nv);
    this.closed = closed;

    // Bounds and radius.
    const lb = this.localBounds;
    lb[0] = lb[1] = lb[2] = Infinity;
    lb[3] = lb[4] = lb[5] = -Infinity;
    let r2 = 0;
    for (let i = 0; i < n; i++) {
      for (let c = 0; c < 3; c++) {
        const v = tv[3 * i + c];
        const x = V[3 * v],
          y = V[3 * v + 1],
          z = V[3 * v + 2];
        if (x < lb[0]) lb[0] = x;
        if (y < lb[1]) lb[1] = y;
        if (z < lb[2]) lb[2] = z;
        if (x > lb[3]) lb[3] = x;
        if (y > lb[4]) lb[4] = y;
        if (z > lb[5]) lb[5] = z;
        r2 = Math.max(r2, x * x + y * y + z * z);
      }
    }
    this.maximumRadius = Math.sqrt(r2);

    // Mass properties.
    let vol = 0;
    let faceSign = 0;
    if (closed) {
      // Signed tetrahedra from the origin: volume, first and second moments (covariance formula).
      let v6 = 0,
        mx = 0,
        my = 0,
        mz = 0,
        cxx = 0,
        cyy = 0,
        czz = 0,
        cxy = 0,
        cxz = 0,
        cyz = 0;
      for (let i = 0; i < n; i++) {
        const a = 3 * tv[3 * i],
          b = 3 * tv[3 * i + 1],
          c = 3 * tv[3 * i + 2];
        const ax = V[a],
          ay = V[a + 1],
          az = V[a + 2],
          bx = V[b],
          by = V[b + 1],
          bz = V[b + 2],
          cx = V[c],
          cy = V[c + 1],
          cz = V[c + 2];
        const d = ax * (by * cz - bz * cy) - ay * (bx * cz - bz * cx) + az * (bx * cy - by * cx);
        v6 += d;
        const sx = ax + bx + cx,
          sy = ay + by + cy,
          sz = az + bz + cz;
        mx += (d * sx) / 24;
        my += (d * sy) / 24;
        mz += (d * sz) / 24;
        const k = d / 120;
        cxx += k * (ax * ax + bx * bx + cx * cx + sx * sx);
        cyy += k * (ay * ay + by * by + cy * cy + sy * sy);
        czz += k * (az * az + bz * bz + cz * cz + sz * sz);
        cxy += k * (ax * ay + bx * by + cx * cy + sx * sy);
        cxz += k * (ax * az + bx * bz + cx * cz + sx * sz);
        cyz += k * (ay * az + by * bz + cy * cz + sy * sz);
      }
      vol = v6 / 6;
      faceSign = vol > 0 ? 1 : vol < 0 ? -1 : 0;
      if (vol !== 0) {
        // Inward winding gives a negative volume: every integral flips sign with it.
        this.com[0] = mx / vol;
        this.com[1] = my / vol;
        this.com[2] = mz / vol;
        const I = this.inertiaOrigin;
        I[0] = (cyy + czz) / vol;
        I[1] = (cxx + czz) / vol;
        I[2] = (cxx + cyy) / vol;
        I[3] = -cxy / vol;
        I[4] = -cxz / vol;
        I[5] = -cyz / vol;
        vol = Math.abs(vol);
      }
    }
    if (!closed || vol === 0) {
      // Open mesh: the solid AABB stands in.
      const hx = (lb[3] - lb[0]) / 2,
        hy = (lb[4] - lb[1]) / 2,
        hz = (lb[5] - lb[2]) / 2;
      const cx = (lb[3] + lb[0]) / 2,
        cy = (lb[4] + lb[1]) / 2,
        cz = (lb[5] + lb[2]) / 2;
      vol = 8 * hx * hy * hz;
      this.com[0] = cx;
      this.com[1] = cy;
      this.com[2] = cz;
      const I = this.inertiaOrigin;
      I[0] = (hy * hy + hz * hz) / 3 + cy * cy + cz * cz;
      I[1] = (hx * hx + hz * hz) / 3 + cx * cx + cz * cz;
      I[2] = (hx * hx + hy * hy) / 3 + cx * cx + cy * cy;
      I[3] = -cx * cy;
      I[4] = -cx * cz;
      I[5] = -cy * cz;
    }
    this.vol = vol;
    // An open mesh asked to be one-sided collides on its counter-clockwise front side.
    this.faceSign = faceSign === 0 && options.doubleSided === false ? 1 : faceSign;
  }

  // ---- Shape ------------------------------------------------------------------------------------

  computeAabb(pose: Pose, out: Float64Array, o: number): void {
    transformAabb(this.localBounds, pose, out, o);
  }

  volume(): number {
    return this.vol;
  }

  /** Per-unit-mass inertia about the local origin (see the class notes for open meshes). */
  unitInertia(out: Float64Array, o: number): void {
    for (let k = 0; k < 6; k++) out[o + k] = this.inertiaOrigin[k];
  }

  override centroid(out: MutableVec3): void {
    out.x = this.com[0];
    out.y = this.com[1];
    out.z = this.com[2];
  }

  // ---- TriangleSource ---------------------------------------------------------------------------

  /** Local bounds of all triangles (minX, minY, minZ, maxX, maxY, maxZ). */
  get bounds(): Float64Array {
    return this.localBounds;
  }

  /** Input triangle index of internal triangle `t`. */
  triangleIndex(t: number): number {
    return this.triId[t];
  }

  /** Internal index of input triangle `tri` (-1 when it was dropped as degenerate). */
  internalIndex(tri: number): number {
    return tri >= 0 && tri < this.internalOf.length ? this.internalOf[tri] : -1;
  }

  /** Unit normal of internal triangle t, into out. */
  triangleNormal(t: number, out: MutableVec3): void {
    out.x = this.normals[3 * t];
    out.y = this.normals[3 * t + 1];
    out.z = this.normals[3 * t + 2];
  }

  /** Internal index of the triangle across edge e of internal triangle t (-1 if none). */
  neighbor(t: number, e: number): number {
    return this.neighbors[3 * t + e];
  }

  /** Appends internal triangle indices whose bounds overlap the box (exactly). Allocation-free. */
  queryAabb(minX: number, minY: number, minZ: number, maxX: number, maxY: number, maxZ: number, out: IntList): void {
    queryAabbViaBox(this, minX, minY, minZ, maxX, maxY, maxZ, out);
  }

  /**
   * {@link queryAabb} with the box in box[o..o+5] (min xyz, max xyz). The narrow phase calls this form
   * (doubles in arrays, docs/design.md).
   */
  queryBox(box: Float64Array, o0: number, out: IntList): void {
    const minX = box[o0],
      minY = box[o0 + 1],
      minZ = box[o0 + 2],
      maxX = box[o0 + 3],
      maxY = box[o0 + 4],
      maxZ = box[o0 + 5];
    const nb = this.nodeBounds,
      st = this.stack;
    let sp = 0;
    st[sp++] = 0;
    while (sp > 0) {
      const node = st[--sp];
      const o = 6 * node;
      if (nb[o] > maxX || nb[o + 3] < minX || nb[o + 1] > maxY || nb[o + 4] < minY || nb[o + 2] > maxZ || nb[o + 5] < minZ) continue;
      const c = this.nodeCount[node];
      if (c > 0) {
        const f = this.nodeFirst[node];
        const V = this.vertices,
          tv = this.tv;
        for (let i = f; i < f + c; i++) {
          // Per-triangle bounds test.
          const a = 3 * tv[3 * i],
            b = 3 * tv[3 * i + 1],
            d = 3 * tv[3 * i + 2];
          if (V[a] > maxX && V[b] > maxX && V[d] > maxX) continue;
          if (V[a] < minX && V[b] < minX && V[d] < minX) continue;
          if (V[a + 1] > maxY && V[b + 1] > maxY && V[d + 1] > maxY) continue;
          if (V[a + 1] < minY && V[b + 1] < minY && V[d + 1] < minY) continue;
          if (V[a + 2] > maxZ && V[b + 2] > maxZ && V[d + 2] > maxZ) continue;
          if (V[a + 2] < minZ && V[b + 2] < minZ && V[d + 2] < minZ) continue;
          out.push(i);
        }
      } else {
        st[sp++] = this.nodeFirst[node];
        st[sp++] = this.nodeSecond[node];
      }
    }
  }

  getTriangle(t: number, out: Float64Array, o: number): void {
    const V = this.vertices;
    for (let c = 0; c < 3; c++) {
      const v = 3 * this.tv[3 * t + c];
      out[o + 3 * c] = V[v];
      out[o + 3 * c + 1] = V[v + 1];
      out[o + 3 * c + 2] = V[v + 2];
    }
  }

  edgeFlags(t: number): number {
    return this.flags[t];
  }

  vertexFlags(t: number): number {
    return this.vflags[t];
  }

  vertexId(t: number, c: number): number {
    return this.tv[3 * t + c];
  }

  /** Closest two-sided hit of the local ray; `out.triangle` is the input triangle index. */
  rayCastLocal(ox: number, oy: number, oz: number, dx: number, dy: number, dz: number, maxT: number, out: LocalTriangleHit, gate: ChildGate | null = null): boolean {
    const nb = this.nodeBounds,
      st = this.stack,
      V = this.vertices,
      tv = this.tv;
    const ix = 1 / dx,
      iy = 1 / dy,
      iz = 1 / dz;
    let best = -1,
      bestT = maxT;
    let sp = 0;
    st[sp++] = 0;
    while (sp > 0) {
      const node = st[--sp];
      const o = 6 * node;
      if (!raySlab(ox, oy, oz, dx, dy, dz, ix, iy, iz, nb, o, bestT)) continue;
      const c = this.nodeCount[node];
      if (c > 0) {
        const f = this.nodeFirst[node];
        for (let i = f; i < f + c; i++) {
          if (gate !== null && !gate.passes(this.triId[i])) continue;
          const a = 3 * tv[3 * i],
            b = 3 * tv[3 * i + 1],
            cc = 3 * tv[3 * i + 2];
          const t = rayTriangle(ox, oy, oz, dx, dy, dz, V[a], V[a + 1], V[a + 2], V[b], V[b + 1], V[b + 2], V[cc], V[cc + 1], V[cc + 2], bestT);
          if (t >= 0 && (best < 0 || t < bestT || (t === bestT && this.triId[i] < this.triId[best]))) {
            best = i;
            bestT = t;
          }
        }
      } else {
        st[sp++] = this.nodeFirst[node];
        st[sp++] = this.nodeSecond[node];
      }
    }
    if (best < 0) return false;
    let nx = this.normals[3 * best],
      ny = this.normals[3 * best + 1],
      nz = this.normals[3 * best + 2];
    if (nx * dx + ny * dy + nz * dz > 0) {
      nx = -nx;
      ny = -ny;
      nz = -nz;
    }
    out.t = bestT;
    out.nx = nx;
    out.ny = ny;
    out.nz = nz;
    out.triangle = this.triId[best];
    return true;
  }
}


/** [tEnter, tExit] of raySlab. */
const SLAB_T = new Float64Array(2);

/** Slab test of a ray against box nb[o..o+5] within [0, maxT] (inclusive; NaN-safe for zero components). */
export function raySlab(
  ox: number,
  oy: number,
  oz: number,
  dx: number,
  dy: number,
  dz: number,
  ix: number,
  iy: number,
  iz: number,
  nb: Float64Array,
  o: number,
  maxT: number,
): boolean {
  const T = SLAB_T;
  T[0] = 0;
  T[1] = maxT;
  if (clipSlab(ox, dx, ix, nb[o], nb[o + 3], T) < 0 || clipSlab(oy, dy, iy, nb[o + 1], nb[o + 4], T) < 0 || clipSlab(oz, dz, iz, nb[o + 2], nb[o + 5], T) < 0) return false;
  const t0 = T[0],
    t1 = T[1];
  // Small relative slack so hits exactly on a box face are not lost to rounding.
  return t0 <= t1 + 1e-12 * (1 + Math.abs(t1));
}

/** World AABB of a local box under a pose (|R| times the half extents). */
export function transformAabb(lb: Float64Array, pose: Pose, out: Float64Array, o: number): void {
  const c = CENTRE_HALF;
  c[0] = (lb[0] + lb[3]) / 2;
  c[1] = (lb[1] + lb[4]) / 2;
  c[2] = (lb[2] + lb[5]) / 2;
  c[3] = (lb[3] - lb[0]) / 2;
  c[4] = (lb[4] - lb[1]) / 2;
  c[5] = (lb[5] - lb[2]) / 2;
  orientedBoxAabb(pose, c, 0, out, o);
}

const CENTRE_HALF = new Float64Array(6);

