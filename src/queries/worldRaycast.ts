/**
 * Ray casts over the world's broad-phase trees (World.raycast / raycastAll): a tree visitor that filters each
 * body the ray's bounds reach, casts against its shape (rayShape.ts) and keeps the nearest hit or every hit.
 * It reads the step's state (bodies, trees, origin poses) and nothing of the World class.
 */
import { BodyFlag } from "../dynamics/bodySet";
import type { Vec3Like } from "../math/vec3";
import type { WorldState } from "../world/worldState";
import { RayHit, rayCastShape } from "./rayShape";

/** Filter for ray queries. */
export interface RayFilter {
  membership?: number;
  collideWith?: number;
  hitTriggers?: boolean;
  /** A body handle to skip. */
  ignoreBody?: number;
}

/** A ray hit. */
export class RayResult {
  body = -1;
  distance = 0;
  point = { x: 0, y: 0, z: 0 };
  normal = { x: 0, y: 0, z: 0 };
  /** Compound child index, -1 for other shapes. */
  childIndex = -1;
}

/** Nearest-hit (or every-hit, with `all`) ray visitor over the trees; one per world, reused by every cast. */
export class RayVisitor {
  ox = 0;
  oy = 0;
  oz = 0;
  dx = 0;
  dy = 0;
  dz = 0;
  filter: RayFilter = {};
  best = -1;
  bestT = Infinity;
  bestNormal = new Float64Array(3);
  bestChild = -1;
  all: RayResult[] | null = null;
  allCount = 0;
  readonly hit = new RayHit();

  constructor(private readonly state: WorldState) {}

  /** Starts a cast: origin, unit direction (the caller checked direction is finite and non-zero), filter. */
  prepare(origin: Vec3Like, direction: Vec3Like, maxDistance: number, filter: RayFilter): void {
    const l = Math.sqrt(direction.x * direction.x + direction.y * direction.y + direction.z * direction.z);
    this.ox = origin.x;
    this.oy = origin.y;
    this.oz = origin.z;
    this.dx = direction.x / l;
    this.dy = direction.y / l;
    this.dz = direction.z / l;
    this.filter = filter;
    this.best = -1;
    this.bestT = maxDistance;
  }

  /** Casts through the moving tree, then the static tree (clipped to the nearest hit so far unless collecting all). */
  castTrees(maxDistance: number): void {
    if (maxDistance === Infinity) maxDistance = 1e30;
    this.bestT = maxDistance;
    this.state.movingTree.raycast(this.ox, this.oy, this.oz, this.dx, this.dy, this.dz, maxDistance, this);
    this.state.staticTree.raycast(this.ox, this.oy, this.oz, this.dx, this.dy, this.dz, this.all ? maxDistance : this.bestT, this);
  }

  /** Tree visitor callback: tests one body. */
  onRayLeaf(slot: number, maxT: number): number {
    const s = this.state;
    const b = s.bodies;
    const i = b.slotToDense[slot];
    if (i < 0) return maxT;
    const f = this.filter;
    const h = b.handle[i];
    if (f.ignoreBody !== undefined && f.ignoreBody === h) return maxT;
    if (!f.hitTriggers && b.flags[i] & BodyFlag.Trigger) return maxT;
    const mem = (f.membership ?? -1) | 0,
      col = (f.collideWith ?? -1) | 0;
    if ((mem & b.collideWith[i]) === 0 || (b.membership[i] & col) === 0) return maxT;
    const shape = b.shape[i];
    if (shape === null) return maxT;
    s.originPose(i, s.poseB);
    const limit = this.all ? this.bestT : maxT;
    if (!rayCastShape(shape, s.poseB, this.ox, this.oy, this.oz, this.dx, this.dy, this.dz, limit, this.hit)) return maxT;
    if (this.all) {
      if (this.allCount === this.all.length) this.all.push(new RayResult());
      this.fillResult(i, this.hit.t, this.hit.normalX, this.hit.normalY, this.hit.normalZ, this.hit.childIndex, this.all[this.allCount++]);
      return maxT;
    }
    if (this.hit.t < this.bestT) {
      this.best = i;
      this.bestT = this.hit.t;
      this.bestNormal[0] = this.hit.normalX;
      this.bestNormal[1] = this.hit.normalY;
      this.bestNormal[2] = this.hit.normalZ;
      this.bestChild = this.hit.childIndex;
    }
    return this.bestT;
  }

  /** Writes the hit on the body at dense index i, at distance t along the ray, into out. */
  fillResult(i: number, t: number, nx: number, ny: number, nz: number, child: number, out: RayResult): void {
    out.body = this.state.bodies.handle[i];
    out.distance = t;
    out.point.x = this.ox + this.dx * t;
    out.point.y = this.oy + this.dy * t;
    out.point.z = this.oz + this.dz * t;
    out.normal.x = nx;
    out.normal.y = ny;
    out.normal.z = nz;
    out.childIndex = child;
  }
}
