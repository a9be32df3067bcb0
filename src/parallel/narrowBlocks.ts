/**
 * The threaded narrow phase's stage: the shape testers (src/collision/narrowPhase.ts collideShapesInto) of the
 * step's pairs that need one, over fixed blocks of {@link NARROW_BLOCK} jobs in pair order. A job is a pair's
 * input as the world's narrow phase would call its tester: the two shapes (replica ids, ./shapeReplica.ts), the
 * origin poses, the margin and the triangle-merge flag. Its output, written in its block's region of `out`, is
 * the manifolds that call makes. A tester's result depends on its inputs only, so the block cut (by job count) and the thread that ran a block change nothing: the main thread
 * hands each job's output to the world's narrow phase at that pair's turn (WorkerPool.take), in pair order.
 *
 * A block can be run again (it writes only its region and its jobs' heads), so a worker that dies holding one
 * costs the rerun. A job whose output does not fit its block's region is marked (count -1): the main thread runs
 * its tester itself at the pair's turn, and the regions grow before the next step.
 */
import type { ManifoldBuffer as ManifoldBufferType } from "../collision/contactManifold";
import { ManifoldBuffer } from "../collision/contactManifold";
import { collideShapesInto } from "../collision/narrowPhase";
import { Pose } from "../math/pose";
import type { Shape } from "../shapes/shape";

/** Jobs per block. */
export const NARROW_BLOCK = 8;
/** Numbers per job in `jobIn`: pose A (7), pose B (7), margin, merge-triangles flag. */
export const JOB_IN = 16;
/** Numbers of one manifold record: count, normal (3), childA, childB, margin, then per point x, y, z, depth, feature id. */
export const MANIFOLD_RECORD = 27;
/** Region of a block at first (numbers): room for two manifolds a job. */
export const INITIAL_REGION = NARROW_BLOCK * 2 * MANIFOLD_RECORD;

/** The arrays a block reads and writes, as the main thread shares them with the workers. */
export interface NarrowArrays {
  /** Per job: {@link JOB_IN} numbers. */
  jobIn: Float64Array;
  /** Per job: the replica ids of shape A and shape B. */
  jobShapes: Int32Array;
  /** Per job: where its output starts in `out`, and its manifold count (-1: did not fit, the main thread runs it). */
  jobOut: Int32Array;
  /** The blocks' output regions, `region` numbers each. */
  out: Float64Array;
  /** Numbers in each block's region. */
  region: number;
  /** The job sequence number that finished each block (the main thread reruns the others on a fall-back). */
  stamps: Int32Array;
}

/** Blocks of a job of `jobs` pair tests. */
export function narrowBlockCount(jobs: number): number {
  return Math.ceil(jobs / NARROW_BLOCK);
}

/** Runs blocks of the stage over one binding of the arrays and this thread's shape replicas. */
export class NarrowBlocks {
  /** Shape replicas by id (this thread's). */
  readonly shapes: Shape[] = [];
  private a: NarrowArrays | null = null;
  private readonly mb = new ManifoldBuffer();
  private readonly pa = new Pose();
  private readonly pb = new Pose();

  bind(a: NarrowArrays): void {
    this.a = a;
  }

  /** Runs block k of a job of `jobs` pair tests. */
  run(k: number, jobs: number): void {
    const a = this.a!;
    const inp = a.jobIn,
      ids = a.jobShapes,
      head = a.jobOut,
      out = a.out;
    const mb = this.mb,
      pa = this.pa,
      pb = this.pb;
    let o = k * a.region;
    const end = o + a.region;
    const last = Math.min(jobs, (k + 1) * NARROW_BLOCK);
    for (let j = k * NARROW_BLOCK; j < last; j++) {
      const i = j * JOB_IN;
      readPose(inp, i, pa);
      readPose(inp, i + 7, pb);
      mb.clear();
      mb.margin = inp[i + 14];
      mb.mergeTriangles = inp[i + 15] === 1;
      collideShapesInto(this.shapes[ids[2 * j]], pa, this.shapes[ids[2 * j + 1]], pb, mb);
      head[2 * j] = o;
      if (o + mb.count * MANIFOLD_RECORD > end) {
        head[2 * j + 1] = -1;
        continue;
      }
      for (let m = 0; m < mb.count; m++) {
        const man = mb.items[m];
        out[o] = man.count;
        out[o + 1] = man.normalX;
        out[o + 2] = man.normalY;
        out[o + 3] = man.normalZ;
        out[o + 4] = man.childA;
        out[o + 5] = man.childB;
        out[o + 6] = man.margin;
        for (let c = 0; c < man.count; c++) {
          const p = o + 7 + 5 * c;
          out[p] = man.positionX[c];
          out[p + 1] = man.positionY[c];
          out[p + 2] = man.positionZ[c];
          out[p + 3] = man.depth[c];
          out[p + 4] = man.featureId[c];
        }
        o += MANIFOLD_RECORD;
      }
      head[2 * j + 1] = mb.count;
    }
  }
}

/**
 * Writes job j's manifolds into `mb` (the world's buffer, cleared, its margin set), as if its tester had just run
 * (`n` of them: its count in jobOut, not -1).
 */
export function readJobOutput(a: NarrowArrays, j: number, n: number, mb: ManifoldBufferType): void {
  const out = a.out;
  let o = a.jobOut[2 * j];
  for (let m = 0; m < n; m++) {
    const man = mb.push();
    const count = out[o];
    man.count = count;
    man.normalX = out[o + 1];
    man.normalY = out[o + 2];
    man.normalZ = out[o + 3];
    man.childA = out[o + 4];
    man.childB = out[o + 5];
    man.margin = out[o + 6];
    for (let c = 0; c < count; c++) {
      const p = o + 7 + 5 * c;
      man.positionX[c] = out[p];
      man.positionY[c] = out[p + 1];
      man.positionZ[c] = out[p + 2];
      man.depth[c] = out[p + 3];
      man.featureId[c] = out[p + 4];
    }
    o += MANIFOLD_RECORD;
  }
}

/** A pose from inp[i..i+6] (position, orientation). */
function readPose(inp: Float64Array, i: number, p: Pose): void {
  p.px = inp[i];
  p.py = inp[i + 1];
  p.pz = inp[i + 2];
  p.qx = inp[i + 3];
  p.qy = inp[i + 4];
  p.qz = inp[i + 5];
  p.qw = inp[i + 6];
}

/** Writes pose p into out[i..i+6]. */
export function writePose(p: Pose, out: Float64Array, i: number): void {
  out[i] = p.px;
  out[i + 1] = p.py;
  out[i + 2] = p.pz;
  out[i + 3] = p.qx;
  out[i + 4] = p.qy;
  out[i + 5] = p.qz;
  out[i + 6] = p.qw;
}
