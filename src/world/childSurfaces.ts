/**
 * Per-child surfaces of a body whose shape has several children (a compound's children, or runs of a triangle
 * mesh's triangles): material, collision filter and trigger flag per child, as Havok keeps them per leaf shape
 * of a container. A body without them uses its own material, filter and trigger flag for every child.
 *
 * Trigger children of a compound (CompoundChildDescription.isTrigger) are folded into the same runs
 * ({@link withShapeTriggers}), so the world has one per-child mechanism. The narrow phase looks them up per
 * manifold, from the manifold's child index on each side, only for pairs in which a body has them (a body flag
 * gates it), so bodies with one shape pay nothing; queries skip the children a query's filter does not see
 * (queries/childQueryGate.ts).
 */
import type { Compound } from "../shapes/compound";
import type { Shape } from "../shapes/shape";
import { ShapeType } from "../shapes/shapeType";
import type { SurfaceMaterial } from "./descriptions";

/** One run of children that share a surface. */
export interface ChildSurfaceDescription {
  /**
   * First child index of the run: a compound child, or a triangle of a triangle mesh. Runs are given in
   * increasing order of `start`, the first at 0; a run lasts until the next one starts.
   */
  start: number;
  /** The run's material; omitted = the body's material. */
  material?: Partial<SurfaceMaterial>;
  /** Membership bits (default all). A child pair collides when each side's membership meets the other's collideWith. */
  membership?: number;
  /** Collide-with bits (default all). */
  collideWith?: number;
  /** A trigger child reports overlaps as trigger events of the body pair and makes no contacts. Default false. */
  isTrigger?: boolean;
}

/** The validated, flattened form the narrow phase reads. */
export class ChildSurfaces {
  constructor(
    /** First child index of each run, increasing, starts[0] = 0. */
    readonly starts: Int32Array,
    /** Per run: material, or null for the body's. */
    readonly materials: readonly (SurfaceMaterial | null)[],
    readonly membership: Int32Array,
    readonly collideWith: Int32Array,
    /** Per run: 1 for a trigger. */
    readonly trigger: Uint8Array,
  ) {}

  /** True when some run is a trigger. */
  get hasTrigger(): boolean {
    return this.trigger.indexOf(1) >= 0;
  }

  /** The run holding child `c` (binary search over the starts). */
  runOf(c: number): number {
    const s = this.starts;
    let lo = 0,
      hi = s.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (s[mid] <= c) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  }
}

/**
 * Validates descriptions into {@link ChildSurfaces}; `material` turns a partial material into a validated
 * one (the world's defaults and checks). Throws a TypeError / RangeError naming the bad entry.
 */
export function toChildSurfaces(runs: readonly ChildSurfaceDescription[], material: (m: Partial<SurfaceMaterial>) => SurfaceMaterial): ChildSurfaces {
  if (!Array.isArray(runs)) throw new TypeError(`surfaces must be an array of ChildSurfaceDescription, got ${String(runs)}`);
  if (runs.length === 0) throw new RangeError("surfaces must hold at least one run (or pass null for none)");
  const n = runs.length;
  const starts = new Int32Array(n),
    membership = new Int32Array(n),
    collideWith = new Int32Array(n),
    trigger = new Uint8Array(n);
  const materials: (SurfaceMaterial | null)[] = [];
  for (let i = 0; i < n; i++) {
    const r = runs[i];
    const name = `surfaces[${i}]`;
    if (r === null || typeof r !== "object") throw new TypeError(`${name} must be a ChildSurfaceDescription, got ${String(r)}`);
    const prev = i === 0 ? -1 : starts[i - 1];
    if (!Number.isInteger(r.start) || r.start < 0 || r.start <= prev || (i === 0 && r.start !== 0)) {
      throw new RangeError(`${name}.start must be an integer above the previous run's start (the first 0), got ${String(r.start)}`);
    }
    starts[i] = r.start;
    for (const k of ["membership", "collideWith"] as const) {
      const v = r[k];
      if (v !== undefined && !Number.isInteger(v)) throw new RangeError(`${name}.${k} must be an integer, got ${String(v)}`);
    }
    membership[i] = (r.membership ?? -1) | 0;
    collideWith[i] = (r.collideWith ?? -1) | 0;
    if (r.isTrigger !== undefined && typeof r.isTrigger !== "boolean") throw new TypeError(`${name}.isTrigger must be a boolean, got ${String(r.isTrigger)}`);
    trigger[i] = r.isTrigger ? 1 : 0;
    if (r.material !== undefined && (r.material === null || typeof r.material !== "object")) throw new TypeError(`${name}.material must be a material object, got ${String(r.material)}`);
    materials.push(r.material === undefined ? null : material(r.material));
  }
  return new ChildSurfaces(starts, materials, membership, collideWith, trigger);
}

/**
 * The surfaces a body's narrow phase and queries use: the given runs with the trigger children of a compound
 * shape made triggers (a run split where the flag changes). Null when there is neither.
 */
export function withShapeTriggers(given: ChildSurfaces | null, shape: Shape | null): ChildSurfaces | null {
  if (shape === null || shape.type !== ShapeType.Compound || (shape as Compound).triggerChildCount === 0) return given;
  const ch = (shape as Compound).children;
  const starts: number[] = [],
    runOf: number[] = [],
    trig: number[] = [];
  for (let c = 0; c < ch.length; c++) {
    const r = given === null ? -1 : given.runOf(c);
    const t = ch[c].isTrigger || (r >= 0 && given!.trigger[r] === 1) ? 1 : 0;
    const k = starts.length - 1;
    if (k >= 0 && runOf[k] === r && trig[k] === t) continue;
    starts.push(c);
    runOf.push(r);
    trig.push(t);
  }
  const n = starts.length;
  const pick = (src: Int32Array | undefined, k: number): number => (src === undefined || runOf[k] < 0 ? -1 : src[runOf[k]]);
  return new ChildSurfaces(
    Int32Array.from(starts),
    runOf.map((r) => (r < 0 ? null : given!.materials[r])),
    Int32Array.from({ length: n }, (_, k) => pick(given?.membership, k)),
    Int32Array.from({ length: n }, (_, k) => pick(given?.collideWith, k)),
    Uint8Array.from(trig),
  );
}
