/**
 * The step's workspace (Rapier's PhysicsPipeline: "no point in making this serializable"): the active list,
 * the broad phase's pair buffer, per-step tables, poses, sweeps and visitors, and what the world wires in beside
 * its state (the pair-material hook, the debug recorder, per-child surfaces, the query objects). Every buffer is
 * rewritten before it is read within a step, so a restored world continues bit for bit without it; snapshots
 * therefore never walk it (it is a {@link Workspace}). What the next step reads of the last one (warm-start
 * impulses, separating axes, sleep timers, touching pairs) is state and lives in worldState.ts.
 */
import { IntList } from "../collections/intList";
import { StampSet } from "../collections/stampSet";
import { PairTable } from "../collections/pairTable";
import { ManifoldBuffer } from "../collision/contactManifold";
import { SweepResult } from "../collision/sweep";
import { SweptMotion } from "../math/sweptTransform";
import { Pose } from "../math/pose";
import type { BodySet } from "../dynamics/bodySet";
import { UnionFind } from "../dynamics/islands";
import { MassData } from "../dynamics/massProperties";
import type { QueryWorld } from "../queries/queryWorld";
import { WorldQueries } from "../queries/worldQueries";
import { RayVisitor } from "../queries/worldRaycast";
import type { PairMaterial, SpringSettings } from "./descriptions";
import type { ChildSurfaces } from "./childSurfaces";
import { ChildPairFilter } from "./childPairGate";
import type { WorkerPool } from "../parallel/workerPool";

/**
 * What the step hands an enabled debug view (debugView.ts's SweepRecorder): the narrow phase's sweep hits
 * and the continuous pass's TOI clamps. An interface here so that the world does not import the view.
 */
export interface StepRecorder {
  beginStep(bodyCount: number): void;
  onSweepHit(b: BodySet, ia: number, ib: number, motionA: SweptMotion, motionB: SweptMotion, t: number, dt: number): void;
  onToiClamp(b: BodySet, i: number, t: number): void;
}

/**
 * Marks an object as workspace, not state: the snapshot walk (stateCodec.ts) leaves it out (the live one stays on restore). A symbol, so
 * the mark itself is never walked.
 */
export const WORKSPACE: unique symbol = Symbol("workspace");

/** An object the snapshot walk leaves out (see {@link WORKSPACE}). */
export interface Workspace {
  readonly [WORKSPACE]: true;
}

/** Collects broad-phase pairs as (slotA, slotB). */
export class PairCollector {
  readonly pairs = new IntList(256);
  onPair(a: number, b: number): void {
    this.pairs.push2(a, b);
  }
}

/** The step's workspace and the world's wiring (see the file comment). */
export class StepScratch implements Workspace {
  readonly [WORKSPACE] = true as const;

  // ---- wiring: set by the user or the debug view, kept beside the state
  /** World.pairMaterialCallback. */
  pairMaterialCallback: ((a: number, b: number, material: PairMaterial) => void) | null = null;
  /** Set by an enabled WorldDebugView (debugView.ts): receives the step's sweeps and TOIs; null otherwise. */
  debugRecorder: StepRecorder | null = null;
  /**
   * Per-child surfaces by body slot (set for bodies flagged BodyFlag.ChildSurfaces, else null or stale). Like
   * shapes, they are configuration a snapshot does not copy.
   */
  readonly childSurfaceSlots: (ChildSurfaces | null)[] = [];
  /** World.queries. */
  readonly queries: WorldQueries;
  /** World.raycast's visitor. */
  readonly rayVisitor: RayVisitor;
  /** True while World.step runs (re-entrancy guard). */
  stepping = false;
  /** World.applyMass's scratch. */
  readonly massData = new MassData();

  // ---- threads (src/parallel/threads.ts)
  /**
   * The worker pool (settings.threads > 1), once its module loaded and it was made; null before, and with one
   * thread. Predict runs its motion stage over it.
   */
  pool: WorkerPool | null = null;
  /** Threads the world asks for: settings.threads, 1 after World.stopThreads (a pool still loading is not made). */
  threadsWanted = 1;
  /** Why the world runs on one thread though it asked for more, when no pool says it (no SharedArrayBuffer). */
  threadsMessage: string | null = null;

  // ---- predict
  /** The awake moving bodies of this step, in storage order (predict.ts). */
  readonly active = new IntList(64);
  /** Scalars of the current step read by per-body methods (dt, gravity, speed limits), so those take only an index. */
  readonly stepScalars = new Float64Array(6);
  readonly boundsIO = new Float64Array(4);

  // ---- contacts
  readonly collector = new PairCollector();
  readonly manifolds = new ManifoldBuffer();
  readonly poseA = new Pose();
  readonly poseB = new Pose();
  /** The pair material being combined (every field rewritten by combineMaterial before use). */
  readonly pairMaterial: PairMaterial;
  /** The pair material of a manifold between children with surfaces of their own. */
  readonly childPairMaterial: PairMaterial;
  readonly combineScratch = new Float64Array(9);
  /** dt for the partner push (stages/partnerPushStage.ts), in an array (docs/design.md). */
  readonly pushIO = new Float64Array(1);
  /** Bodies whose margins the partner push grew this step; the contact solver treats their contacts as impacts. */
  readonly pushedBodies = new StampSet();
  /** Pairs of Continuous dynamic bodies that had contacts this step (their meeting was solved). */
  readonly continuousContactPairs = new PairTable(0);

  // ---- sweeps and the continuous pass
  readonly motionA = new SweptMotion();
  readonly motionB = new SweptMotion();
  readonly sweepResult = new SweepResult();
  /** The sweeps' per-child gate (childPairGate.ts), re-armed per pair. */
  readonly childPairFilter = new ChildPairFilter();
  readonly vPredA = new Float64Array(3);
  readonly vPredB = new Float64Array(3);
  readonly candidates = new IntList(32);
  readonly candidateVisitor = {
    list: null as IntList | null,
    onOverlap(slot: number): void {
      this.list!.push(slot);
    },
  };
  readonly sweptBox = new Float64Array(12);
  /** TOI events of the post-solve pass: (time, body, other) triples, sorted before handling. */
  toiTime = new Float64Array(16);
  toiBody = new Int32Array(16);
  toiOther = new Int32Array(16);
  toiCount = 0;
  toiOrder = new Int32Array(16);
  clampedAt = new Float64Array(64);
  readonly toiQueue = new IntList(16);

  // ---- islands and sleep
  readonly unionFind = new UnionFind();
  islandMin = new Float64Array(64);
  readonly sleepScratch = new IntList(64);
  activePos = new Int32Array(64);
  /** Handle lists of released islands, reused by the next islands to fall asleep (no allocation per sleep). */
  readonly islandListPool: number[][] = [];

  constructor(world: QueryWorld, restitutionThreshold: number, spring: SpringSettings, maximumRecoveryVelocity: number) {
    this.queries = new WorldQueries(world);
    this.rayVisitor = new RayVisitor(world);
    this.pairMaterial = {
      friction: 0.5,
      staticFriction: 0.5,
      restitution: 0,
      rollingResistance: 0,
      restitutionThreshold,
      spring: { frequency: spring.frequency, dampingRatio: spring.dampingRatio },
      maximumRecoveryVelocity,
    };
    this.childPairMaterial = { ...this.pairMaterial, spring: { ...this.pairMaterial.spring } };
  }
}
