/**
 * World-level queries over the broad-phase trees: point proximity, shape proximity and shape cast, each with
 * membership/collideWith filters, triggers on or off and an ignored body (see {@link QueryFilter}), applied per
 * child to bodies whose children have filters and trigger flags of their own (World.setChildSurfaces).
 *
 * Bodies are seen at their current poses (the last step's end, or where they were last placed). Candidates
 * come from both trees (awake moving bodies, static and sleeping ones) with the query's box: the point or
 * the posed shape grown by maxDistance, or the shape's box swept from start to end. Allocation-free per
 * query: scratch and result arrays grow once, then are reused.
 */
import type { TreeRayVisitor } from "../broadphase/dynamicTree";
import { IntList } from "../collections/intList";
import { Pose } from "../math/pose";
import type { QuatLike } from "../math/quat";
import type { Vec3Like } from "../math/vec3";
import { requireQuat, requireVec } from "../math/argCheck";
import type { Shape } from "../shapes/shape";
import { ChildQueryGate } from "./childQueryGate";
import type { QueryWorld } from "./queryWorld";
import { PointProximityResult, PointShapeHit, pointShapeDistance } from "./pointProximity";
import { CandidateCollector, passesFilter, type QueryFilter } from "./queryFilter";
import { CAST_MOTION, CastPairHit, castWithMotion, ShapeCastResult } from "./shapeCast";
import { type BodyPairResult, isQueryShape, ShapePairHit, ShapeProximityResult, shapeShapeDistance } from "./shapeProximity";

export class WorldQueries {
  private readonly candidates = new IntList(64);
  private readonly collector = new CandidateCollector();
  private readonly pose = new Pose();
  private readonly qPose = new Pose();
  private readonly box = new Float64Array(12);
  /** The swept query box as a tree ray: centre, motion, maxT, half extents (DynamicTree.raycastArray). */
  private readonly ray = new Float64Array(10);
  private readonly pointHit = new PointShapeHit();
  private readonly pairHit = new ShapePairHit();
  /** Per-child filters of the body under test (World.setChildSurfaces). */
  private readonly gate = new ChildQueryGate();
  private readonly castVisitor: CastVisitor;

  constructor(private readonly world: QueryWorld) {
    this.castVisitor = new CastVisitor(world, this.qPose);
  }

  /** Collects the slots of the bodies whose tree boxes overlap the box. */
  private gather(minX: number, minY: number, minZ: number, maxX: number, maxY: number, maxZ: number): IntList {
    const c = this.candidates;
    c.clear();
    this.collector.list = c;
    this.world.staticTree.queryAabb(minX, minY, minZ, maxX, maxY, maxZ, this.collector);
    this.world.movingTree.queryAabb(minX, minY, minZ, maxX, maxY, maxZ, this.collector);
    return c;
  }

  /**
   * The nearest body surface to `point` within maxDistance (0: only bodies containing the point). The
   * distance is signed: negative inside a solid shape. Returns false (out untouched) when nothing is near.
   */
  pointProximity(point: Vec3Like, maxDistance: number, filter: QueryFilter, out: PointProximityResult): boolean {
    requireVec("pointProximity: point", point);
    if (!(maxDistance >= 0)) throw new RangeError(`pointProximity: maxDistance must be >= 0, got ${String(maxDistance)}`);
    const r = maxDistance < 1e30 ? maxDistance : 1e30;
    const x = point.x,
      y = point.y,
      z = point.z;
    const cand = this.gather(x - r, y - r, z - r, x + r, y + r, z + r);
    const b = this.world.bodies;
    const hit = this.pointHit;
    let best = maxDistance,
      found = -1;
    for (let k = 0; k < cand.count; k++) {
      const i = b.slotToDense[cand.data[k]];
      if (i < 0 || !passesFilter(b, i, filter)) continue;
      const s = b.shape[i];
      if (s === null) continue;
      this.world.originPose(i, this.pose);
      if (!pointShapeDistance(s, this.pose, x, y, z, best, hit, this.gate.arm(this.world.childSurfacesOf(i), filter))) continue;
      if (found >= 0 && (hit.distance > best || (hit.distance === best && b.handle[i] > out.body))) continue;
      found = i;
      best = hit.distance;
      out.body = b.handle[i];
      out.distance = hit.distance;
      out.point.x = hit.px;
      out.point.y = hit.py;
      out.point.z = hit.pz;
      out.normal.x = hit.nx;
      out.normal.y = hit.ny;
      out.normal.z = hit.nz;
      out.childIndex = hit.childIndex;
    }
    return found >= 0;
  }

  /**
   * Closest points between `shape` (convex or compound) at (position, orientation) and every body within
   * maxDistance: one result per body, nearest first (ties by body handle), written into out[0..n-1] (grown
   * as needed; existing entries are reused). With all = false only the nearest body is written. Returns n.
   */
  shapeProximity(
    shape: Shape,
    position: Vec3Like,
    orientation: QuatLike,
    maxDistance: number,
    filter: QueryFilter,
    out: ShapeProximityResult[],
    all = false,
  ): number {
    if (!isQueryShape(shape)) throw new TypeError(`shapeProximity: the query shape must be convex or a compound, got type ${shape.type}`);
    requireVec("shapeProximity: position", position);
    requireQuat("shapeProximity: orientation", orientation);
    if (!(maxDistance >= 0)) throw new RangeError(`shapeProximity: maxDistance must be >= 0, got ${String(maxDistance)}`);
    const qp = this.qPose.setFrom(position, orientation);
    normalize(qp);
    const box = this.box;
    shape.computeAabb(qp, box, 0);
    const r = maxDistance < 1e30 ? maxDistance : 1e30;
    const cand = this.gather(box[0] - r, box[1] - r, box[2] - r, box[3] + r, box[4] + r, box[5] + r);
    const b = this.world.bodies;
    const hit = this.pairHit;
    let n = 0;
    for (let k = 0; k < cand.count; k++) {
      const i = b.slotToDense[cand.data[k]];
      if (i < 0 || !passesFilter(b, i, filter)) continue;
      const s = b.shape[i];
      if (s === null) continue;
      this.world.originPose(i, this.pose);
      const limit = !all && n > 0 ? out[0].distance : maxDistance;
      if (!shapeShapeDistance(shape, qp, s, this.pose, limit, hit, this.gate.arm(this.world.childSurfacesOf(i), filter))) continue;
      const h = b.handle[i];
      let res: ShapeProximityResult;
      if (all) {
        if (n === out.length) out.push(new ShapeProximityResult());
        res = out[n++];
      } else {
        if (n > 0 && (hit.distance > out[0].distance || (hit.distance === out[0].distance && h > out[0].body))) continue;
        if (out.length === 0) out.push(new ShapeProximityResult());
        res = out[0];
        n = 1;
      }
      res.distance = hit.distance;
      writePair(res, h, hit);
    }
    if (all) sortBy(out, n, proxKey);
    return n;
  }

  /**
   * Casts `shape` (convex or compound) with a fixed orientation from start to end: one result per body hit,
   * sorted by fraction (ties by body handle), written into out[0..n-1] (grown as needed). With all = false
   * only the first hit is written. A shape touching or overlapping a body at the start hits it at fraction 0
   * only when the motion goes into it. Returns n.
   */
  shapeCast(shape: Shape, orientation: QuatLike, start: Vec3Like, end: Vec3Like, filter: QueryFilter, out: ShapeCastResult[], all = false): number {
    if (!isQueryShape(shape)) throw new TypeError(`shapeCast: the query shape must be convex or a compound, got type ${shape.type}`);
    requireVec("shapeCast: start", start);
    requireVec("shapeCast: end", end);
    requireQuat("shapeCast: orientation", orientation);
    const dx = end.x - start.x,
      dy = end.y - start.y,
      dz = end.z - start.z;
    if (!(dx * dx + dy * dy + dz * dz > 0)) return 0;
    const qp = this.qPose.setFrom(start, orientation);
    normalize(qp);
    const box = this.box;
    shape.computeAabb(qp, box, 0);
    // The shape's box swept along the motion through both trees: a ray from the box centre against tree boxes
    // grown by its half extents, nearest first, clipped to the best fraction so far (unless all hits are wanted).
    const v = this.castVisitor;
    v.shape = shape;
    v.filter = filter;
    v.out = out;
    v.all = all;
    v.n = 0;
    const m = v.motion;
    m[0] = start.x;
    m[1] = start.y;
    m[2] = start.z;
    m[3] = dx;
    m[4] = dy;
    m[5] = dz;
    const ray = this.ray;
    for (let k = 0; k < 3; k++) {
      ray[k] = 0.5 * (box[k] + box[k + 3]);
      ray[k + 3] = m[k + 3];
      ray[k + 7] = 0.5 * (box[k + 3] - box[k]);
    }
    ray[6] = 1;
    this.world.movingTree.raycastArray(ray, v);
    if (!all && v.n > 0) ray[6] = out[0].fraction;
    this.world.staticTree.raycastArray(ray, v);
    v.out = null;
    v.shape = null;
    const n = v.n;
    if (all) sortBy(out, n, castKey);
    return n;
  }
}

/** Tree visitor of {@link WorldQueries.shapeCast}: casts against one body and clips the ray to the best hit. */
class CastVisitor implements TreeRayVisitor {
  shape: Shape | null = null;
  filter: QueryFilter = {};
  out: ShapeCastResult[] | null = null;
  all = false;
  /** Results written so far. */
  n = 0;
  /** Start position (0..2) and motion (3..5); a Float64Array (docs/design.md, doubles). */
  readonly motion = new Float64Array(6);
  private readonly pose = new Pose();
  private readonly hit = new CastPairHit();
  private readonly gate = new ChildQueryGate();

  constructor(
    private readonly world: QueryWorld,
    private readonly qPose: Pose,
  ) {}

  onRayLeaf(slot: number, maxT: number): number {
    const b = this.world.bodies;
    const i = b.slotToDense[slot];
    if (i < 0 || !passesFilter(b, i, this.filter)) return maxT;
    const s = b.shape[i];
    if (s === null) return maxT;
    this.world.originPose(i, this.pose);
    const hit = this.hit;
    const out = this.out!;
    const all = this.all;
    const m = this.motion;
    CAST_MOTION[0] = m[3];
    CAST_MOTION[1] = m[4];
    CAST_MOTION[2] = m[5];
    CAST_MOTION[3] = all ? 1 : maxT;
    if (!castWithMotion(this.shape!, this.qPose, s, this.pose, hit, this.gate.arm(this.world.childSurfacesOf(i), this.filter))) return maxT;
    const h = b.handle[i];
    let res: ShapeCastResult;
    if (all) {
      if (this.n === out.length) out.push(new ShapeCastResult());
      res = out[this.n++];
    } else {
      if (this.n > 0 && (hit.fraction > out[0].fraction || (hit.fraction === out[0].fraction && h > out[0].body))) return maxT;
      if (out.length === 0) out.push(new ShapeCastResult());
      res = out[0];
      this.n = 1;
    }
    res.fraction = hit.fraction;
    res.position.x = m[0] + m[3] * hit.fraction;
    res.position.y = m[1] + m[4] * hit.fraction;
    res.position.z = m[2] + m[5] * hit.fraction;
    writePair(res, h, hit.contact);
    return all ? maxT : out[0].fraction;
  }
}

/** Body, points, normal and piece indices of a proximity or cast result from a pair hit. */
function writePair(res: BodyPairResult, body: number, c: ShapePairHit): void {
  res.body = body;
  res.point.x = c.bx;
  res.point.y = c.by;
  res.point.z = c.bz;
  res.pointOnShape.x = c.ax;
  res.pointOnShape.y = c.ay;
  res.pointOnShape.z = c.az;
  res.normal.x = c.nx;
  res.normal.y = c.ny;
  res.normal.z = c.nz;
  res.childIndex = c.childIndex;
  res.queryChildIndex = c.queryChildIndex;
}

function normalize(p: Pose): void {
  const l = 1 / Math.sqrt(p.qx * p.qx + p.qy * p.qy + p.qz * p.qz + p.qw * p.qw);
  p.qx *= l;
  p.qy *= l;
  p.qz *= l;
  p.qw *= l;
}

function proxKey(r: ShapeProximityResult): number {
  return r.distance;
}
function castKey(r: ShapeCastResult): number {
  return r.fraction;
}

/** In-place insertion sort of a[0..n-1] by key, then body handle (no allocation; n is small). */
function sortBy<T extends { body: number }>(a: T[], n: number, key: (r: T) => number): void {
  for (let i = 1; i < n; i++) {
    const x = a[i];
    const kx = key(x);
    let j = i - 1;
    while (j >= 0 && (key(a[j]) > kx || (key(a[j]) === kx && a[j].body > x.body))) {
      a[j + 1] = a[j];
      j--;
    }
    a[j + 1] = x;
  }
}

