/**
 * Contact constraints: speculative, soft (springs), warm started, substepped.
 *
 * The structure is Box2D v3's soft step (solver.c / contact_solver.c): contacts are prepared once per
 * step with fixed lever arms and effective masses; every substep warm starts, solves with the spring
 * bias, integrates, then relaxes without bias; a restitution pass runs after the last substep.
 * The current separation of each contact is recomputed every substep from the bodies' current poses
 * and the contact's body-local anchors, so speculative rows (separation > 0) let bodies close exactly
 * the gap, and penetrating rows push out with the spring (bepu's PenetrationLimit: contacts are springs
 * of a frequency and damping ratio with a maximum recovery velocity).
 *
 * Storage is two flat Float64Arrays per buffer: a header per manifold and 4 contact slots per manifold.
 * Friction is mu times the normal impulse of the same contact (not mu / n: bepu PR #410).
 * Friction is solved once per substep, in the biased pass; the relax pass solves the normal rows only (but for
 * manifolds whose impact it stops and those of resting bodies, see relax). Friction has no position error for the
 * relax pass to take energy out of, and eight substeps solve it eight times a step, as bepu's one-iteration-per-
 * substep solver does; this is about a quarter of the solver's work.
 */
import type { ContactManifold } from "../collision/contactManifold";
import type { PairMaterial } from "./surfaceMaterial";
import type { BodySet } from "./bodySet";
import { IntList } from "../collections/intList";
import { StampSet } from "../collections/stampSet";
import { PIN_MASS_RATIO, meetsImpact, PinField, PIN_A, PIN_B, PIN_NONE, PIN_SEPARATION } from "./pinnedContacts";
import { ensureRolling, prepareRolling, solveRolling, warmStartRolling } from "./rollingResistance";
import { SHOCK_MAX_DEPTH, ShockPropagation } from "./shockPropagation";
import { ROUND_AXIS, ROUND_NONE, ROUND_SPHERE, roundFeatureOf } from "./roundFeature";

/** Header fields per manifold. */
const H_A = 0,
  H_B = 1,
  H_COUNT = 2,
  H_NX = 3,
  H_T1X = 6,
  H_T2X = 9,
  H_FRICTION = 12,
  H_RESTITUTION = 13,
  H_REST_THRESHOLD = 14,
  H_MAX_RECOVERY = 15,
  H_BIAS_RATE = 16,
  H_MASS_SCALE = 17,
  H_IMPULSE_SCALE = 18,
  H_FREQ = 19,
  H_DAMPING = 20,
  H_HANDLE_A = 21,
  H_HANDLE_B = 22,
  H_CHILD_KEY = 23,
  // Contact cache (see findReusable): the normal in A's frame, B's pose relative to A's and the pair's margin
  // when the narrow phase made the manifold, and on the first manifold of a pair's run the run's length when the
  // pair may reuse it (0: not reusable, or not the run's first).
  H_LNX = 24,
  H_REL_PX = 27,
  H_REL_QX = 30,
  H_MARGIN = 34,
  H_REUSABLE = 35,
  H_STATIC_FRICTION = 36,
  H_IMPACT = 37, // 1: a manifold of 2+ contacts meeting an impact this step (the centroid pre-pass runs)
  H_CENTROID_MASS = 38, // normal effective mass at the centroid of the contacts
  H_ROLLING = 39, // the pair's rolling resistance coefficient (./rollingResistance)
  H_FROZEN = 40, // shock propagation: 1 or 2 when the normal rows treat A or B as fixed (see shockPropagation.ts)
  H_ROUTED = 41, // 4 numbers, one per contact: the part of its normal impulse routed from frozen loads above (route)
  // Rolling anchors (rollingAnchors). H_ROLLS: 1 when this step measures some side's separation on its round
  // feature (set by prepare). H_ROUND: the sides' round features, 0 while not known yet, else 1 + codeA + 5 codeB
  // (code: 0 none, 1 sphere, 2 capsule or cylinder, 3 and 4 the same as a compound's child), found once per manifold
  // key and copied on to the key's next manifolds. Per side (A at H_RA, B at H_RB): kind, axis (3) and centre (3)
  // in the body frame, then u (3); the axis and centre are copied on only for a compound's child (a plain shape's
  // are its Y axis and its origin, written by prepare).
  H_ROLLS = 45,
  H_ROUND = 46,
  H_RA = 47,
  H_RB = 57,
  R_U = 7; // u's offset in a side's block
/** Header stride. */
export const HEADER = 67;

/**
 * The contact cache's limits (Jolt's PhysicsSettings mBodyPairCacheMaxDeltaPositionSq and
 * mBodyPairCacheCosMaxDeltaRotationDiv2): a pair whose relative pose has moved less than 1 mm and turned less
 * than 2 degrees since the narrow phase last ran on it keeps that manifold, its points fixed in the bodies.
 */
const REUSE_MAX_DELTA_POSITION_SQ = 1e-6;
const REUSE_COS_MAX_DELTA_ROTATION_DIV2 = 0.9998476951563913;

/**
 * Contact fields per contact slot. The normal row's fields come first, in the order the relax pass reads them
 * (the first 27 numbers); the friction row's and the events' fields follow.
 */
const C_ANX = 0, // rA x n: A's angular Jacobian of the normal row (fixed for the step)
  C_BNX = 3, // rB x n
  C_IANX = 6, // IA (rA x n): A's angular velocity change per unit normal impulse
  C_IBNX = 9, // IB (rB x n)
  C_NORMAL_MASS = 12,
  C_NORMAL_IMPULSE = 13,
  C_SEPARATION = 14, // current separation (set by the relax pass for the next substep; at the end, for events)
  C_ADJ_SEP = 15,
  C_LAX = 16, // anchor on A in A's frame (relative to its centre of mass)
  C_LBX = 19,
  C_TOTAL_IMPULSE = 22, // normal impulse summed over the step's substeps
  C_WARM = 23, // impact tracking: the normal impulse this substep was warm started with (-1: not tracked)
  C_IMPACT_IMPULSE = 24, // impulse an impact substep added beyond its warm start, not to be re-applied
  C_MAX_NORMAL_IMPULSE = 25,
  C_REL_VEL = 26,
  C_RAX = 27, // lever arms at t0 (world), for the friction rows, warm start and restitution
  C_RBX = 30,
  C_T1_IMPULSE = 33,
  C_T2_IMPULSE = 34,
  C_T1_MASS = 35,
  C_T2_MASS = 36,
  C_T12_MASS = 37, // off-diagonal of the inverse 2x2 tangent mass
  C_E1X = 38, // eigenbasis of the tangent effective mass: first eigenvector (x, y in the t1/t2 frame)
  C_E1Y = 39,
  // Rolling anchors (rollingAnchors): per side a length k, the side's term of the separation being g . l + k f
  // (relax). 0 for a point fixed in its body.
  C_KA = 40,
  C_KB = 41,
  C_FEATURE = 42,
  C_PX = 43, // contact point at t0, world
  C_STICK = 46; // 1: the contact sticks (friction bounded by the static coefficient); 0: it slides
/** Contact stride. */
export const CONTACT = 47;

/**
 * A contact whose bodies approach faster than this at the start of the step meets an impact during the
 * step: its impulses are tracked substep by substep so that the impact's is not warm-started again.
 * Gravity adds about g dt = 0.16 m/s per step, far below.
 */
const IMPACT_SPEED = 0.5;

/**
 * A pushing contact whose surfaces slide slower than this (m/s) after a substep's solve sticks: its friction is
 * bounded by the static coefficient in the next substep; faster, it slides with the dynamic one. Well above
 * what one Gauss-Seidel pass leaves of a held contact's tangential speed, and above the sliding a body placed a
 * few millimetres above a slope gathers before it lands (so it lands held, as on Havok).
 */
const STICK_SPEED = 0.1;

/**
 * Bodies slower than this (m/s at their farthest point) rest: the relax pass solves their manifolds' friction
 * too (see relax). Twice the default sleep threshold's speed, so bodies settling toward sleep qualify.
 */
const RESTING_SPEED = 0.1;
/**
 * ... if one of their contacts slides faster than this (m/s) when the relax pass reaches it. A resting pile's
 * contacts slide far slower and cost nothing (friction solved again on every resting manifold made a 210-box
 * pyramid's step 25 % slower); the braked car's wheels jitter at ~0.1 m/s and hold as well at 0.001 as at 0.03.
 */
const RESTING_SLIP = 0.01;
const RESTING_SLIP_SQ = RESTING_SLIP * RESTING_SLIP;

/**
 * Variants of the contact solver for fewer substeps, measured in bench/RESULTS.md ("four contact substeps after
 * shock propagation") with bench/probe/substeps.probe.ts; the defaults are the solver's own behaviour, and nothing
 * but that probe changes them. hertzCap: contact hertz at most this fraction of the substep rate (Box2D v3's
 * b2World_Step in world.c caps it at a quarter in v3.0, an eighth since; 0: no cap). staticScale: hertz factor
 * of a contact whose other body cannot be pushed (Box2D v3's staticSoftness: 2), then at most staticCap of the
 * substep rate (0: no cap); staticDamping: that contact's damping-ratio factor. friction: where the friction rows
 * run, 0 the biased pass, 1 the relax pass (Box2D v3's and bepu's single friction solve after the normal rows),
 * 2 both.
 */
export interface ContactVariant {
  hertzCap: number;
  staticScale: number;
  staticCap: number;
  staticDamping: number;
  friction: number;
}

/** Surfaces this close (m) at the end of a step touch, for islands and contact events, even without impulse. */
export const TOUCH_TOLERANCE = 0.005;

/** A store of manifolds (the solver writes a step's over the previous step's, see ContactSolver.beginStep). */
class ManifoldStore {
  count = 0;
  header = new Float64Array(HEADER * 64);
  /** Dense body indices (a, b) per manifold, as int32 for the loops' array indexing. */
  bodyIndex = new Int32Array(2 * 64);
  contacts = new Float64Array(CONTACT * 4 * 64);
  /** Open-addressed table: manifold index + 1, 0 = empty. */
  table = new Int32Array(256);
  /** The same for the first manifold of each reusable pair's run, keyed by the pair alone (the contact cache). */
  runTable = new Int32Array(256);
  tableMask = 255;

  ensure(n: number): void {
    if (n * HEADER <= this.header.length) return;
    const cap = Math.max(n, (this.header.length / HEADER) * 2);
    const h = new Float64Array(cap * HEADER);
    h.set(this.header);
    this.header = h;
    const bi = new Int32Array(cap * 2);
    bi.set(this.bodyIndex);
    this.bodyIndex = bi;
    const c = new Float64Array(cap * 4 * CONTACT);
    c.set(this.contacts);
    this.contacts = c;
  }

  buildTable(): void {
    let size = 256;
    while (size < this.count * 2) size *= 2;
    // The mask follows the table's size even when the table is kept: a restore writes a snapshot's mask
    // (snapshotExtent leaves the tables out) beside a table sized for another step.
    this.tableMask = size - 1;
    if (this.table.length !== size) {
      this.table = new Int32Array(size);
      this.runTable = new Int32Array(size);
    } else {
      this.table.fill(0);
      this.runTable.fill(0);
    }
    const hd = this.header;
    for (let i = 0; i < this.count; i++) {
      const o = i * HEADER;
      let slot = hashKey(hd[o + H_HANDLE_A], hd[o + H_HANDLE_B], hd[o + H_CHILD_KEY]) & this.tableMask;
      while (this.table[slot] !== 0) slot = (slot + 1) & this.tableMask;
      this.table[slot] = i + 1;
      if (hd[o + H_REUSABLE] > 0) {
        slot = hashKey(hd[o + H_HANDLE_A], hd[o + H_HANDLE_B], -1) & this.tableMask;
        while (this.runTable[slot] !== 0) slot = (slot + 1) & this.tableMask;
        this.runTable[slot] = i + 1;
      }
    }
  }

  /** Snapshots (src/world/stateCodec.ts): between steps only the first `count` manifolds are live; the table is rebuilt. */
  snapshotExtent(field: string): number {
    if (field === "header") return this.count * HEADER;
    if (field === "bodyIndex") return this.count * 2;
    if (field === "contacts") return this.count * 4 * CONTACT;
    return field === "table" || field === "runTable" ? 0 : -1;
  }

  /**
   * The previous step's manifold of the key, -1 if none. Entries flagged in `moved` are read from `alt` (the
   * header of the store they were moved to, see ContactSolver.evict).
   */
  find(ha: number, hb: number, ck: number, moved: Uint8Array, alt: Float64Array): number {
    let slot = hashKey(ha, hb, ck) & this.tableMask;
    for (;;) {
      const e = this.table[slot];
      if (e === 0) return -1;
      const hd = moved[e - 1] === 0 ? this.header : alt;
      const o = (e - 1) * HEADER;
      if (hd[o + H_HANDLE_A] === ha && hd[o + H_HANDLE_B] === hb && hd[o + H_CHILD_KEY] === ck) return e - 1;
      slot = (slot + 1) & this.tableMask;
    }
  }

  /** The first manifold of the pair's reusable run (see ContactSolver.markReusable), -1 if none; `moved` as in find. */
  findRun(ha: number, hb: number, moved: Uint8Array, alt: Float64Array): number {
    let slot = hashKey(ha, hb, -1) & this.tableMask;
    for (;;) {
      const e = this.runTable[slot];
      if (e === 0) return -1;
      const hd = moved[e - 1] === 0 ? this.header : alt;
      const o = (e - 1) * HEADER;
      if (hd[o + H_HANDLE_A] === ha && hd[o + H_HANDLE_B] === hb) return e - 1;
      slot = (slot + 1) & this.tableMask;
    }
  }
}

function hashKey(a: number, b: number, c: number): number {
  // Handles are exact integers below 2^53; mixing their low 32 bits is enough for a hash.
  let h = Math.imul(a | 0, 0x9e3779b1) ^ Math.imul((b | 0) + 0x7f4a7c15, 0x85ebca77) ^ Math.imul(c | 0, 0xc2b2ae3d);
  h ^= h >>> 15;
  h = Math.imul(h, 0x2c1b3c6d);
  h ^= h >>> 12;
  // Kept below 2^30 so the result is a small integer (Smi): a uint32 above that is a heap number when the
  // call is not inlined. Callers mask the low bits.
  return h & 0x3fffffff;
}


/** The contact constraint solver. */
export class ContactSolver {
  /** The manifolds: during the narrow phase this step's, written over the previous step's (see beginStep). */
  private cur = new ManifoldStore();
  /** Where a previous manifold goes when this step's would overwrite it before it is read (see evict). */
  private spare = new ManifoldStore();
  /** How many manifolds the previous step had, and per one of them: 1 once read this step, 1 once moved to spare. */
  private prevCount = 0;
  private consumed = new Uint8Array(64);
  private moved = new Uint8Array(64);
  private shock = new ShockPropagation();
  /** Whether some contact's impulse holds a routed part (prepare strips it before routing again). */
  private routedLastStep = false;
  /** Manifolds the contact cache reused this step, and how many of their contacts are apart. */
  reused = 0;
  speculativeReused = 0;
  /** Impacts on pinned bodies (pinnedContacts.ts): whether this step has candidates, and each manifold's state. */
  private pinning = false;
  private pinCandidate = new Uint8Array(64);
  private pinState = new Uint8Array(64);
  private readonly pins = new PinField();
  private readonly impacted = new StampSet();
  private readonly touchesFixed = new StampSet();
  private readonly fixedManifolds = new IntList(16);
  private readonly candidates = new IntList(16);
  /**
   * Bodies a fast partner may push this step (the world's partner push, partnerPush.ts): their contacts are
   * treated as meeting an impact, as the push makes them approach within the step.
   */
  pushed: StampSet | null = null;
  /**
   * Bodies with an enabled joint this step (the world's solve stage fills it after the joints' prepare): only
   * their manifolds get the relax pass's resting friction (see relax).
   */
  readonly jointed = new StampSet();
  /** Solver variants ({@link ContactVariant}); the defaults are the solver's behaviour. */
  readonly variant: ContactVariant = { hertzCap: 0, staticScale: 2, staticCap: 0, staticDamping: 1, friction: 0 };
  /**
   * Substeps solved this step (reset by prepare, counted by relax). Odd substeps visit a manifold's contacts in
   * reverse order, in the normal and friction rows: sequential impulses give the first contact of a pair more of
   * the shared push and all the traction it can hold, and in the same order every substep a wheel's two rim
   * contacts carried its drive unequally, a yaw moment of the same sign on every driven wheel (a WheelConstraint
   * car turned 3 degrees over 100 m). Counted within the step, so a restored snapshot repeats it.
   */
  private substep = 0;

  /**
   * Snapshots (src/world/stateCodec.ts): between steps `spare`, `consumed` and `moved` are idle (beginStep and
   * evict overwrite them); `cur` holds the manifolds the contact cache reuses next step.
   */
  snapshotExtent(field: string): number {
    return field === "spare" || field === "consumed" || field === "moved" ? 0 : -1;
  }

  /** Manifolds of the current step. */
  get count(): number {
    return this.cur.count;
  }
  /** Header array of the current step (HEADER numbers per manifold). */
  get header(): Float64Array {
    return this.cur.header;
  }
  /** Contact array of the current step (4 slots of CONTACT numbers per manifold). */
  get contacts(): Float64Array {
    return this.cur.contacts;
  }

  /**
   * Starts a new step: this step's manifolds become the previous ones, matched by key.
   *
   * The step's manifolds are written over the previous ones in the same store, in order: the contact cache
   * refreshes a kept manifold's per-step fields where it lies when it lands at its own index, instead of copying
   * its 1,864 bytes into a second store (the stores of a large pile are beyond L2: this halves the memory
   * traffic). A previous manifold still to be read whose place this step's manifold takes first (a pair new this
   * step, pairs in another order) is moved to `spare` at the same index first ({@link evict}); when pairs go,
   * this step's manifolds land below their predecessors, on places already read, and nothing moves. The step's
   * manifolds, their order and every number the step reads are those of a copy into a second store.
   */
  beginStep(): void {
    const s = this.cur;
    s.buildTable();
    const n = s.count;
    this.prevCount = n;
    if (this.consumed.length < n) {
      const cap = Math.max(n, this.consumed.length * 2);
      this.consumed = new Uint8Array(cap);
      this.moved = new Uint8Array(cap);
    } else {
      this.consumed.fill(0, 0, n);
      this.moved.fill(0, 0, n);
    }
    s.count = 0;
    this.reused = 0;
    this.speculativeReused = 0;
  }

  /** The store holding the previous step's manifold j (see evict). */
  private prevStore(j: number): ManifoldStore {
    return this.moved[j] === 0 ? this.cur : this.spare;
  }

  /**
   * Makes place i of the store free for this step's manifold i: the previous step's manifold there, if not read
   * yet (and not the one about to be written there), moves to the same place in `spare`. A loop, no allocation.
   */
  private evict(i: number, old: number): void {
    if (i >= this.prevCount || i === old || this.consumed[i] !== 0 || this.moved[i] !== 0) return;
    const from = this.cur,
      to = this.spare;
    to.ensure(i + 1);
    const fh = from.header,
      th = to.header,
      fc = from.contacts,
      tc = to.contacts;
    for (let k = i * HEADER, e = k + HEADER; k < e; k++) th[k] = fh[k];
    // Only the contacts in use: the rest is never read.
    for (let k = i * 4 * CONTACT, e = k + fh[i * HEADER + H_COUNT] * CONTACT; k < e; k++) tc[k] = fc[k];
    this.moved[i] = 1;
  }

  /** Forgets every manifold (used when the world is cleared). */
  clear(): void {
    this.cur.count = 0;
    this.prevCount = 0;
  }

  /**
   * Adds a manifold between the bodies at dense indices a and b, warm-starting each
   * contact from last step's contact with the same feature id in the manifold with the same key.
   * A pair whose manifolds the contact cache may reuse next step is marked after its last one
   * ({@link markReusable}).
   */
  add(bodies: BodySet, a: number, b: number, m: ContactManifold, mat: PairMaterial): void {
    // Handles are read here, not passed: doubles passed to a function V8 does not inline get boxed.
    const ha = bodies.handle[a],
      hb = bodies.handle[b];
    // Child indices (compound children, mesh triangles) below 2^21 each pack exactly into one double.
    const ck = m.childA * 2097152 + m.childB;
    // Last step's manifold of the same key, its warm start read before this one may overwrite it (beginStep).
    const old = this.cur.find(ha, hb, ck, this.moved, this.spare.header);
    const oc = old >= 0 ? this.readWarm(old) : 0;
    this.evict(this.cur.count, old);
    const s = this.cur;
    const i = s.count;
    s.ensure(i + 1);
    s.count = i + 1;
    const hd = s.header;
    const o = i * HEADER;
    hd[o + H_COUNT] = m.count;
    hd[o + H_NX] = m.normalX;
    hd[o + H_NX + 1] = m.normalY;
    hd[o + H_NX + 2] = m.normalZ;
    hd[o + H_CHILD_KEY] = ck;
    writeHeader(s, i, bodies, a, b, mat);
    // What the contact cache compares against next step (relPose: B's pose in A's frame).
    relPose(bodies, a, b, hd, o + H_REL_PX);
    hd[o + H_MARGIN] = m.margin;
    hd[o + H_REUSABLE] = 0;
    {
      // The normal in A's frame (rotated by A's conjugate orientation).
      const q = a * 4,
        rot = bodies.rot;
      const qx = -rot[q], qy = -rot[q + 1], qz = -rot[q + 2], qw = rot[q + 3];
      const vx = m.normalX, vy = m.normalY, vz = m.normalZ;
      const tx = 2 * (qy * vz - qz * vy), ty = 2 * (qz * vx - qx * vz), tz = 2 * (qx * vy - qy * vx);
      hd[o + H_LNX] = vx + qw * tx + (qy * tz - qz * ty);
      hd[o + H_LNX + 1] = vy + qw * ty + (qz * tx - qx * tz);
      hd[o + H_LNX + 2] = vz + qw * tz + (qx * ty - qy * tx);
    }

    // Read from last step's manifold of the key, wherever it lies (prevStore): the fields it reads are not among
    // those written above.
    this.roundFeatures(bodies, i, old, a, b);
    const w = warmScratch;
    const c = s.contacts;
    const pos = bodies.pos;
    const rot0 = bodies.rot;
    for (let k = 0; k < m.count; k++) {
      const co = (i * 4 + k) * CONTACT;
      const px = m.positionX[k],
        py = m.positionY[k],
        pz = m.positionZ[k];
      const rax = px - pos[a * 3],
        ray = py - pos[a * 3 + 1],
        raz = pz - pos[a * 3 + 2];
      const rbx = px - pos[b * 3],
        rby = py - pos[b * 3 + 1],
        rbz = pz - pos[b * 3 + 2];
      c[co + C_RAX] = rax;
      c[co + C_RAX + 1] = ray;
      c[co + C_RAX + 2] = raz;
      c[co + C_RBX] = rbx;
      c[co + C_RBX + 1] = rby;
      c[co + C_RBX + 2] = rbz;
      // Anchors in each body's frame: the lever arms rotated by the inverse orientations (written out).
      for (let side = 0; side < 2; side++) {
        const q = (side === 0 ? a : b) * 4;
        const vx = side === 0 ? rax : rbx,
          vy = side === 0 ? ray : rby,
          vz = side === 0 ? raz : rbz;
        const qx = -rot0[q],
          qy = -rot0[q + 1],
          qz = -rot0[q + 2],
          qw = rot0[q + 3];
        const tx = 2 * (qy * vz - qz * vy),
          ty = 2 * (qz * vx - qx * vz),
          tz = 2 * (qx * vy - qy * vx);
        const d = co + (side === 0 ? C_LAX : C_LBX);
        c[d] = vx + qw * tx + (qy * tz - qz * ty);
        c[d + 1] = vy + qw * ty + (qz * tx - qx * tz);
        c[d + 2] = vz + qw * tz + (qx * ty - qy * tx);
      }
      // Separation at t0 is -depth; both anchors start at the contact point, so later the separation is
      // this plus the normal component of the anchors' relative displacement (Box2D v3's current
      // separation, written with absolute anchors).
      c[co + C_ADJ_SEP] = -m.depth[k];
      c[co + C_SEPARATION] = -m.depth[k];
      c[co + C_FEATURE] = m.featureId[k];
      c[co + C_PX] = px;
      c[co + C_PX + 1] = py;
      c[co + C_PX + 2] = pz;
      let routed = 0;
      let ni = 0,
        t1 = 0,
        t2 = 0,
        stick = 1;
      for (let j = 0; j < oc; j++) {
        const wo = j * WARM;
        if (w[wo] === m.featureId[k]) {
          ni = w[wo + 1];
          t1 = w[wo + 2];
          t2 = w[wo + 3];
          stick = w[wo + 4];
          routed = w[wo + 5];
          // A body put back by the world's numerical guard must not warm start from a NaN impulse.
          if (!(ni >= 0 && t1 - t1 === 0 && t2 - t2 === 0)) ni = t1 = t2 = 0;
          break;
        }
      }
      c[co + C_NORMAL_IMPULSE] = ni;
      c[co + C_T1_IMPULSE] = t1;
      c[co + C_T2_IMPULSE] = t2;
      c[co + C_STICK] = stick;
      hd[o + H_ROUTED + k] = ni > 0 && routed > 0 ? (routed < ni ? routed : ni) : 0;
      c[co + C_WARM] = -1;
      c[co + C_IMPACT_IMPULSE] = 0;
      c[co + C_MAX_NORMAL_IMPULSE] = 0;
      c[co + C_TOTAL_IMPULSE] = 0;
    }
  }

  /** Copies what add() warm starts from, of the previous step's manifold `old`, to warmScratch; returns its count. */
  private readWarm(old: number): number {
    const ps = this.prevStore(old);
    const ph = ps.header,
      pc = ps.contacts,
      w = warmScratch;
    const n = ph[old * HEADER + H_COUNT];
    for (let j = 0; j < n; j++) {
      const po = (old * 4 + j) * CONTACT,
        wo = j * WARM;
      w[wo] = pc[po + C_FEATURE];
      w[wo + 1] = pc[po + C_NORMAL_IMPULSE];
      w[wo + 2] = pc[po + C_T1_IMPULSE];
      w[wo + 3] = pc[po + C_T2_IMPULSE];
      w[wo + 4] = pc[po + C_STICK];
      w[wo + 5] = ph[old * HEADER + H_ROUTED + j];
    }
    this.consumed[old] = 1;
    return n;
  }

  /**
   * The contact cache (Jolt's body pair cache, Havok's contact caching): last step's manifolds of the pair
   * (a, b) (one for two convex shapes; one per triangle or child pair against a mesh, heightfield or compound),
   * as the index of the first of their run among the previous step's manifolds, when the narrow phase need not run
   * again: the pair's relative pose has moved less than the cache's limits since those manifolds were made and
   * its margin has not grown (a larger margin may want speculative points the old manifolds lack). -1 otherwise.
   * The manifolds kept are state: snapshots save the store, so a restored world reuses exactly what the
   * original did.
   */
  findReusable(bodies: BodySet, a: number, b: number): number {
    const old = this.cur.findRun(bodies.handle[a], bodies.handle[b], this.moved, this.spare.header);
    if (old < 0) return -1;
    // The pair's margin is read here, not passed: a double argument of a call V8 does not inline is boxed.
    const margin = bodies.margin[a] + bodies.margin[b];
    const ph = this.prevStore(old).header;
    const o = old * HEADER;
    if (!(ph[o + H_REUSABLE] > 0) || !(margin <= ph[o + H_MARGIN])) return -1;
    const r = relScratch;
    relPose(bodies, a, b, r, 0);
    const dx = r[0] - ph[o + H_REL_PX],
      dy = r[1] - ph[o + H_REL_PX + 1],
      dz = r[2] - ph[o + H_REL_PX + 2];
    if (!(dx * dx + dy * dy + dz * dz < REUSE_MAX_DELTA_POSITION_SQ)) return -1;
    const dot = r[3] * ph[o + H_REL_QX] + r[4] * ph[o + H_REL_QX + 1] + r[5] * ph[o + H_REL_QX + 2] + r[6] * ph[o + H_REL_QX + 3];
    return Math.abs(dot) > REUSE_COS_MAX_DELTA_ROTATION_DIV2 ? old : -1;
  }

  /**
   * Marks the manifolds added since the store held `first` (the whole of one pair's narrow-phase output, at the
   * step's t0 poses) as a run the contact cache may reuse next step.
   */
  markReusable(first: number): void {
    const s = this.cur;
    if (s.count > first) s.header[first * HEADER + H_REUSABLE] = s.count - first;
  }

  /**
   * Adds last step's run of manifolds starting at `old` (from {@link findReusable}) again for the bodies'
   * current poses: their points stay where they are on each body (the same body-frame anchors and feature ids,
   * so the warm start carries on), each normal turns with A, and each point's separation is measured along it.
   * Returns the number of contacts; {@link speculativeReused} counts those that are apart.
   */
  reuse(bodies: BodySet, a: number, b: number, old: number, mat: PairMaterial): number {
    const runLength = this.prevStore(old).header[old * HEADER + H_REUSABLE];
    let contacts = 0;
    for (let r = 0; r < runLength; r++) contacts += this.reuseOne(bodies, a, b, old + r, mat);
    return contacts;
  }

  /** {@link reuse} for one manifold of the run. */
  private reuseOne(bodies: BodySet, a: number, b: number, old: number, mat: PairMaterial): number {
    // In place when old is i: every field below is read before it is written.
    this.evict(this.cur.count, old);
    const ps = this.prevStore(old);
    this.consumed[old] = 1;
    const s = this.cur;
    const i = s.count;
    s.ensure(i + 1);
    s.count = i + 1;
    const hd = s.header,
      ph = ps.header;
    const o = i * HEADER,
      po = old * HEADER;
    const n = ph[po + H_COUNT];
    hd[o + H_COUNT] = n;
    hd[o + H_CHILD_KEY] = ph[po + H_CHILD_KEY];
    this.roundFeatures(bodies, i, old, a, b);
    // The cache's fields, the run's length on its first manifold included (the run stays whole).
    for (let k = 0; k < 12; k++) hd[o + H_LNX + k] = ph[po + H_LNX + k];
    const rot = bodies.rot,
      pos = bodies.pos;
    const a3 = a * 3,
      b3 = b * 3,
      a4 = a * 4,
      b4 = b * 4;
    const aqx = rot[a4], aqy = rot[a4 + 1], aqz = rot[a4 + 2], aqw = rot[a4 + 3];
    const bqx = rot[b4], bqy = rot[b4 + 1], bqz = rot[b4 + 2], bqw = rot[b4 + 3];
    let lx = ph[po + H_LNX], ly = ph[po + H_LNX + 1], lz = ph[po + H_LNX + 2];
    let tx = 2 * (aqy * lz - aqz * ly), ty = 2 * (aqz * lx - aqx * lz), tz = 2 * (aqx * ly - aqy * lx);
    const nx = lx + aqw * tx + (aqy * tz - aqz * ty),
      ny = ly + aqw * ty + (aqz * tx - aqx * tz),
      nz = lz + aqw * tz + (aqx * ty - aqy * tx);
    hd[o + H_NX] = nx;
    hd[o + H_NX + 1] = ny;
    hd[o + H_NX + 2] = nz;
    writeHeader(s, i, bodies, a, b, mat);
    const c = s.contacts,
      pc = ps.contacts;
    for (let k = 0; k < n; k++) {
      const co = (i * 4 + k) * CONTACT,
        pk = (old * 4 + k) * CONTACT;
      lx = pc[pk + C_LAX]; ly = pc[pk + C_LAX + 1]; lz = pc[pk + C_LAX + 2];
      c[co + C_LAX] = lx; c[co + C_LAX + 1] = ly; c[co + C_LAX + 2] = lz;
      tx = 2 * (aqy * lz - aqz * ly); ty = 2 * (aqz * lx - aqx * lz); tz = 2 * (aqx * ly - aqy * lx);
      const rax = lx + aqw * tx + (aqy * tz - aqz * ty),
        ray = ly + aqw * ty + (aqz * tx - aqx * tz),
        raz = lz + aqw * tz + (aqx * ty - aqy * tx);
      lx = pc[pk + C_LBX]; ly = pc[pk + C_LBX + 1]; lz = pc[pk + C_LBX + 2];
      c[co + C_LBX] = lx; c[co + C_LBX + 1] = ly; c[co + C_LBX + 2] = lz;
      tx = 2 * (bqy * lz - bqz * ly); ty = 2 * (bqz * lx - bqx * lz); tz = 2 * (bqx * ly - bqy * lx);
      const rbx = lx + bqw * tx + (bqy * tz - bqz * ty),
        rby = ly + bqw * ty + (bqz * tx - bqx * tz),
        rbz = lz + bqw * tz + (bqx * ty - bqy * tx);
      c[co + C_RAX] = rax; c[co + C_RAX + 1] = ray; c[co + C_RAX + 2] = raz;
      c[co + C_RBX] = rbx; c[co + C_RBX + 1] = rby; c[co + C_RBX + 2] = rbz;
      const px = pos[a3] + rax,
        py = pos[a3 + 1] + ray,
        pz = pos[a3 + 2] + raz;
      c[co + C_PX] = px; c[co + C_PX + 1] = py; c[co + C_PX + 2] = pz;
      const adj = pc[pk + C_ADJ_SEP];
      c[co + C_ADJ_SEP] = adj;
      const sep = adj + (pos[b3] + rbx - px) * nx + (pos[b3 + 1] + rby - py) * ny + (pos[b3 + 2] + rbz - pz) * nz;
      c[co + C_SEPARATION] = sep;
      if (sep > 0) this.speculativeReused++;
      c[co + C_FEATURE] = pc[pk + C_FEATURE];
      let ni = pc[pk + C_NORMAL_IMPULSE],
        t1 = pc[pk + C_T1_IMPULSE],
        t2 = pc[pk + C_T2_IMPULSE];
      const stick = pc[pk + C_STICK];
      const routed = ph[po + H_ROUTED + k];
      // A body put back by the world's numerical guard must not warm start from a NaN impulse.
      if (!(ni >= 0 && t1 - t1 === 0 && t2 - t2 === 0)) ni = t1 = t2 = 0;
      c[co + C_NORMAL_IMPULSE] = ni;
      c[co + C_T1_IMPULSE] = t1;
      c[co + C_T2_IMPULSE] = t2;
      c[co + C_STICK] = stick;
      hd[o + H_ROUTED + k] = ni > 0 && routed > 0 ? (routed < ni ? routed : ni) : 0;
      c[co + C_WARM] = -1;
      c[co + C_IMPACT_IMPULSE] = 0;
      c[co + C_MAX_NORMAL_IMPULSE] = 0;
      c[co + C_TOTAL_IMPULSE] = 0;
    }
    this.reused++;
    return n;
  }

  /**
   * The round features of manifold i's sides (H_ROUND, H_RA, H_RB; see rollingAnchors): copied from last step's
   * manifold of the same key (index old in the previous store, -1 if none) when that knew them, else found from
   * the shapes, so roundFeatureOf's loads of shape fields (of many shape classes) run once per key, not per step.
   */
  private roundFeatures(bodies: BodySet, i: number, old: number, a: number, b: number): void {
    const hd = this.cur.header;
    const o = i * HEADER;
    if (old >= 0) {
      const ph = this.prevStore(old).header,
        po = old * HEADER;
      const known = ph[po + H_ROUND];
      if (known !== 0) {
        hd[o + H_ROUND] = known;
        if (known === 1) return;
        // A compound child's axis and centre (a plain shape's are written by prepare).
        const codeA = (known - 1) % 5;
        if (codeA > 2) for (let k = 1; k < R_U; k++) hd[o + H_RA + k] = ph[po + H_RA + k];
        if (known - 1 - codeA > 10) for (let k = 1; k < R_U; k++) hd[o + H_RB + k] = ph[po + H_RB + k];
        return;
      }
    }
    // Compound child indices, packed as in add.
    const ck = hd[o + H_CHILD_KEY];
    const childA = (ck / 2097152) | 0;
    const posedA = roundFeatureOf(bodies, a, childA, hd, o + H_RA),
      posedB = roundFeatureOf(bodies, b, (ck - childA * 2097152) | 0, hd, o + H_RB);
    const kA = hd[o + H_RA],
      kB = hd[o + H_RB];
    const codeA = kA === ROUND_NONE ? 0 : kA + 2 * posedA,
      codeB = kB === ROUND_NONE ? 0 : kB + 2 * posedB;
    hd[o + H_ROUND] = 1 + codeA + 5 * codeB;
  }

  /** Keeps the contact cache from reusing any manifold of this body (its shape or mass changed). */
  forgetBody(handle: number): void {
    const s = this.cur;
    const hd = s.header;
    for (let i = 0; i < s.count; i++) {
      const o = i * HEADER;
      // Its round features (H_ROUND) are found again from the new shape.
      if (hd[o + H_HANDLE_A] === handle || hd[o + H_HANDLE_B] === handle) hd[o + H_REUSABLE] = hd[o + H_ROUND] = 0;
    }
  }

  /**
   * Computes effective masses, softness for the substep length h, and the pre-solve normal velocity
   * used by restitution. Inverse inertias are the world ones at the start of the step. `up` (unit, against gravity)
   * is for shock propagation; `substeps` (of length h) make the step, for the rolling anchors' turn in it.
   */
  prepare(bodies: BodySet, h: number, upX = 0, upY = 0, upZ = 0, substeps = 8): void {
    this.substep = 0;
    stepTime[0] = h * substeps;
    const s = this.cur;
    const shock = this.shock;
    shock.begin(bodies.count);
    const hd = s.header,
      c = s.contacts,
      bi = s.bodyIndex;
    const invMass = bodies.invMass,
      inv = bodies.invInertiaWorld,
      vel = bodies.vel,
      w = bodies.angVel;
    ensureRolling(s.count);
    const pushed = this.pushed;
    const v = this.variant;
    for (let i = 0; i < s.count; i++) {
      const o = i * HEADER;
      const a = bi[i * 2],
        b = bi[i * 2 + 1];
      const mA = invMass[a],
        mB = invMass[b];
      // Contacts against bodies that cannot be pushed are twice as stiff (Box2D v3 static softness).
      const rigidOther = mA === 0 || mB === 0;
      let freq = hd[o + H_FREQ];
      if (v.hertzCap > 0 && freq * h > v.hertzCap) freq = v.hertzCap / h;
      if (rigidOther) {
        freq *= v.staticScale;
        if (v.staticCap > 0 && freq * h > v.staticCap) freq = v.staticCap / h;
      }
      const zeta = rigidOther ? hd[o + H_DAMPING] * v.staticDamping : hd[o + H_DAMPING];
      const omega = 2 * Math.PI * freq;
      const a1 = 2 * zeta + h * omega;
      const a2 = h * omega * a1;
      const a3 = 1 / (1 + a2);
      hd[o + H_BIAS_RATE] = omega / a1;
      hd[o + H_MASS_SCALE] = a2 * a3;
      hd[o + H_IMPULSE_SCALE] = a3;
      const nx = hd[o + H_NX],
        ny = hd[o + H_NX + 1],
        nz = hd[o + H_NX + 2];
      const t1x = hd[o + H_T1X],
        t1y = hd[o + H_T1X + 1],
        t1z = hd[o + H_T1X + 2];
      const t2x = hd[o + H_T2X],
        t2y = hd[o + H_T2X + 1],
        t2z = hd[o + H_T2X + 2];
      const ia = a * 6,
        ib = b * 6;
      // Shock propagation: a heavy body resting on a light one solves its normal rows with the light one fixed.
      shock.up[0] = nx * upX + ny * upY + nz * upZ;
      const frozen = shock.classify(i, a, b, invMass, vel);
      hd[o + H_FROZEN] = frozen;
      const sA = frozen === 1 ? 0 : 1,
        sB = frozen === 2 ? 0 : 1;
      const iA0 = inv[ia], iA1 = inv[ia + 1], iA2 = inv[ia + 2], iA3 = inv[ia + 3], iA4 = inv[ia + 4], iA5 = inv[ia + 5];
      const iB0 = inv[ib], iB1 = inv[ib + 1], iB2 = inv[ib + 2], iB3 = inv[ib + 3], iB4 = inv[ib + 4], iB5 = inv[ib + 5];
      const n = hd[o + H_COUNT];
      // A body a fast partner may push approaches the rest of its contacts within the step (partnerPush.ts): its
      // speculative ones meet an impact.
      const pushedPair = pushed !== null && (pushed.has(a) || pushed.has(b));
      for (let k = 0; k < n; k++) {
        const co = (i * 4 + k) * CONTACT;
        const rax = c[co + C_RAX],
          ray = c[co + C_RAX + 1],
          raz = c[co + C_RAX + 2];
        const rbx = c[co + C_RBX],
          rby = c[co + C_RBX + 1],
          rbz = c[co + C_RBX + 2];
        // Effective masses, inline (calls with many double arguments would box them): for directions
        // d, e: K(d, e) = (mA + mB) d.e + (rA x d) IA (rA x e) + (rB x d) IB (rB x e).
        const an_x = ray * nz - raz * ny, an_y = raz * nx - rax * nz, an_z = rax * ny - ray * nx;
        const bn_x = rby * nz - rbz * ny, bn_y = rbz * nx - rbx * nz, bn_z = rbx * ny - rby * nx;
        const a1x = ray * t1z - raz * t1y, a1y = raz * t1x - rax * t1z, a1z = rax * t1y - ray * t1x;
        const b1x = rby * t1z - rbz * t1y, b1y = rbz * t1x - rbx * t1z, b1z = rbx * t1y - rby * t1x;
        const a2x = ray * t2z - raz * t2y, a2y = raz * t2x - rax * t2z, a2z = rax * t2y - ray * t2x;
        const b2x = rby * t2z - rbz * t2y, b2y = rbz * t2x - rbx * t2z, b2z = rbx * t2y - rby * t2x;
        // I*(a x d) for A and B
        let ux = iA0 * an_x + iA3 * an_y + iA4 * an_z, uy = iA3 * an_x + iA1 * an_y + iA5 * an_z, uz = iA4 * an_x + iA5 * an_y + iA2 * an_z;
        let vx = iB0 * bn_x + iB3 * bn_y + iB4 * bn_z, vy = iB3 * bn_x + iB1 * bn_y + iB5 * bn_z, vz = iB4 * bn_x + iB5 * bn_y + iB2 * bn_z;
        if (frozen !== 0) {
          ux *= sA; uy *= sA; uz *= sA;
          vx *= sB; vy *= sB; vz *= sB;
        }
        const kn = mA * sA + mB * sB + an_x * ux + an_y * uy + an_z * uz + bn_x * vx + bn_y * vy + bn_z * vz;
        c[co + C_NORMAL_MASS] = kn > 0 ? 1 / kn : 0;
        // The normal row's angular terms, once per step: the passes then read 12 numbers per contact instead
        // of recomputing two cross products and two inertia products per visit (Box2D v3 and bepu keep the
        // Jacobians and the inverse-inertia-weighted ones in the constraint the same way).
        c[co + C_ANX] = an_x; c[co + C_ANX + 1] = an_y; c[co + C_ANX + 2] = an_z;
        c[co + C_BNX] = bn_x; c[co + C_BNX + 1] = bn_y; c[co + C_BNX + 2] = bn_z;
        c[co + C_IANX] = ux; c[co + C_IANX + 1] = uy; c[co + C_IANX + 2] = uz;
        c[co + C_IBNX] = vx; c[co + C_IBNX + 1] = vy; c[co + C_IBNX + 2] = vz;
        ux = iA0 * a1x + iA3 * a1y + iA4 * a1z; uy = iA3 * a1x + iA1 * a1y + iA5 * a1z; uz = iA4 * a1x + iA5 * a1y + iA2 * a1z;
        vx = iB0 * b1x + iB3 * b1y + iB4 * b1z; vy = iB3 * b1x + iB1 * b1y + iB5 * b1z; vz = iB4 * b1x + iB5 * b1y + iB2 * b1z;
        const k11 = mA + mB + a1x * ux + a1y * uy + a1z * uz + b1x * vx + b1y * vy + b1z * vz;
        const k12 = a2x * ux + a2y * uy + a2z * uz + b2x * vx + b2y * vy + b2z * vz;
        ux = iA0 * a2x + iA3 * a2y + iA4 * a2z; uy = iA3 * a2x + iA1 * a2y + iA5 * a2z; uz = iA4 * a2x + iA5 * a2y + iA2 * a2z;
        vx = iB0 * b2x + iB3 * b2y + iB4 * b2z; vy = iB3 * b2x + iB1 * b2y + iB5 * b2z; vz = iB4 * b2x + iB5 * b2y + iB2 * b2z;
        const k22 = mA + mB + a2x * ux + a2y * uy + a2z * uz + b2x * vx + b2y * vy + b2z * vz;
        // The tangent pair's 2x2 effective mass (lever arms couple the two directions), stored inverted.
        const det = k11 * k22 - k12 * k12;
        const id = det > 1e-300 ? 1 / det : 0;
        c[co + C_T1_MASS] = k22 * id;
        c[co + C_T2_MASS] = k11 * id;
        c[co + C_T12_MASS] = -k12 * id;
        // Its eigen-decomposition, once per step rather than at every friction projection (projectFriction).
        tangentK[0] = k11;
        tangentK[1] = k12;
        tangentK[2] = k22;
        tangentEigen(c, co);
        // Relative normal velocity before the solve (B relative to A; negative = approaching).
        const dvx = vel[b * 3] + (w[b * 3 + 1] * rbz - w[b * 3 + 2] * rby) - vel[a * 3] - (w[a * 3 + 1] * raz - w[a * 3 + 2] * ray);
        const dvy = vel[b * 3 + 1] + (w[b * 3 + 2] * rbx - w[b * 3] * rbz) - vel[a * 3 + 1] - (w[a * 3 + 2] * rax - w[a * 3] * raz);
        const dvz = vel[b * 3 + 2] + (w[b * 3] * rby - w[b * 3 + 1] * rbx) - vel[a * 3 + 2] - (w[a * 3] * ray - w[a * 3 + 1] * rax);
        c[co + C_REL_VEL] = dvx * nx + dvy * ny + dvz * nz;
        // Approaching fast at the start of the step: an impact happens during it (see warmStart).
        c[co + C_WARM] = c[co + C_REL_VEL] < -IMPACT_SPEED || (pushedPair && c[co + C_SEPARATION] > 0) ? 0 : -1;
        c[co + C_IMPACT_IMPULSE] = 0;
        // Anchors fixed in the bodies; rollingAnchors below sets those on a round feature.
        c[co + C_KA] = 0;
        c[co + C_KB] = 0;
      }
      hd[o + H_ROLLS] = hd[o + H_ROUND] > 1 ? rollingAnchors(bodies, hd, c, i, a, b) : 0;
      if (hd[o + H_ROLLING] > 0) prepareRolling(bodies, i, a, b, hd, o + H_ROLLING, o + H_NX, o + H_T1X, c, i * 4 * CONTACT + C_RAX, i * 4 * CONTACT + C_RBX, CONTACT, n | 0);
      // A manifold meeting an impact gets the normal effective mass at its contacts' centroid (see solve).
      let impact = 0;
      for (let k = 0; k < n; k++) if (c[(i * 4 + k) * CONTACT + C_WARM] >= 0) impact = 1;
      // A frozen pair's impact is stopped by its rows alone (the centroid pre-pass moves both bodies).
      hd[o + H_IMPACT] = n >= 2 && frozen === 0 ? impact : 0;
      if (n >= 2 && impact === 1) {
        let cax = 0, cay = 0, caz = 0, cbx = 0, cby = 0, cbz = 0;
        for (let k = 0; k < n; k++) {
          const co = (i * 4 + k) * CONTACT;
          cax += c[co + C_RAX]; cay += c[co + C_RAX + 1]; caz += c[co + C_RAX + 2];
          cbx += c[co + C_RBX]; cby += c[co + C_RBX + 1]; cbz += c[co + C_RBX + 2];
        }
        cax /= n; cay /= n; caz /= n; cbx /= n; cby /= n; cbz /= n;
        const an_x = cay * nz - caz * ny, an_y = caz * nx - cax * nz, an_z = cax * ny - cay * nx;
        const bn_x = cby * nz - cbz * ny, bn_y = cbz * nx - cbx * nz, bn_z = cbx * ny - cby * nx;
        const kn =
          mA + mB +
          an_x * (iA0 * an_x + iA3 * an_y + iA4 * an_z) + an_y * (iA3 * an_x + iA1 * an_y + iA5 * an_z) + an_z * (iA4 * an_x + iA5 * an_y + iA2 * an_z) +
          bn_x * (iB0 * bn_x + iB3 * bn_y + iB4 * bn_z) + bn_y * (iB3 * bn_x + iB1 * bn_y + iB5 * bn_z) + bn_z * (iB4 * bn_x + iB5 * bn_y + iB2 * bn_z);
        hd[o + H_CENTROID_MASS] = kn > 0 ? 1 / kn : 0;
      }
    }
    if (this.routedLastStep) {
      // Last step's routed loads leave the warm start: they are routed again below from what the frozen manifolds
      // carry now (their contacts may have changed), so that the lower bodies' warm starts balance.
      for (let i = 0; i < s.count; i++) {
        const n = hd[i * HEADER + H_COUNT];
        for (let k = 0; k < n; k++) {
          const co = (i * 4 + k) * CONTACT;
          const r = hd[i * HEADER + H_ROUTED + k];
          if (r === 0) continue;
          const ni = c[co + C_NORMAL_IMPULSE] - r;
          c[co + C_NORMAL_IMPULSE] = ni > 0 ? ni : 0;
          hd[i * HEADER + H_ROUTED + k] = 0;
        }
      }
    }
    this.routedLastStep = shock.active;
    if (shock.active) {
      // Each frozen manifold's load goes down to its support (and on down the stack), marked as routed there.
      for (let i = 0; i < s.count; i++) {
        if (hd[i * HEADER + H_FROZEN] === 0) continue;
        let f = 0, mx = 0, my = 0, mz = 0;
        const n = hd[i * HEADER + H_COUNT];
        for (let k = 0; k < n; k++) {
          const co = (i * 4 + k) * CONTACT;
          const l = c[co + C_NORMAL_IMPULSE] - hd[i * HEADER + H_ROUTED + k];
          f += l;
          mx += l * c[co + C_PX]; my += l * c[co + C_PX + 1]; mz += l * c[co + C_PX + 2];
        }
        routeIO[0] = f; routeIO[1] = mx; routeIO[2] = my; routeIO[3] = mz;
        this.route(i);
      }
    }
    this.preparePins(bodies);
  }

  /**
   * After the normal rows of frozen manifold i (n contacts) ran with `body` fixed: puts that body's velocity back
   * (see saveFrozen) and routes what the rows added down the stack.
   */
  private routeFrozen(bodies: BodySet, i: number, n: number, body: number): void {
    const b3 = body * 3;
    for (let k = 0; k < 3; k++) {
      bodies.vel[b3 + k] = savedVelocity[k];
      bodies.angVel[b3 + k] = savedVelocity[3 + k];
    }
    impulseChange(this.cur.contacts, i, n);
    this.route(i);
  }

  /**
   * The warm start's impact rule (below) for frozen manifolds, before any manifold is warm started: the impulse an
   * impact added is dropped from the contact and from what was routed down for it (route), so that the lower body's
   * warm starts still balance.
   */
  private dropFrozenImpacts(): void {
    const s = this.cur;
    const hd = s.header,
      c = s.contacts;
    for (let i = 0; i < s.count; i++) {
      const o = i * HEADER;
      if (hd[o + H_FROZEN] === 0) continue;
      const n = hd[o + H_COUNT];
      let f = 0, mx = 0, my = 0, mz = 0;
      for (let k = 0; k < n; k++) {
        const co = (i * 4 + k) * CONTACT;
        const impact = c[co + C_IMPACT_IMPULSE];
        if (!(impact > 0)) continue;
        const pn = c[co + C_NORMAL_IMPULSE];
        const next = pn > impact ? pn - impact : 0;
        const scale = pn > 0 ? next / pn : 0;
        c[co + C_NORMAL_IMPULSE] = next;
        c[co + C_T1_IMPULSE] *= scale;
        c[co + C_T2_IMPULSE] *= scale;
        c[co + C_IMPACT_IMPULSE] = 0;
        const d = next - pn;
        f += d;
        mx += d * c[co + C_PX]; my += d * c[co + C_PX + 1]; mz += d * c[co + C_PX + 2];
      }
      if (f === 0) continue;
      routeIO[0] = f; routeIO[1] = mx; routeIO[2] = my; routeIO[3] = mz;
      this.route(i);
    }
  }

  /**
   * Marks this step's pin candidates (pinnedContacts.ts): manifolds between two finite-mass bodies that meet an
   * impact themselves with a body that touches a fixed one, or that share a body meeting an impact with a fixed
   * one (a box about to be stopped by a wall, and what follows it in). Lists them and the manifolds with fixed
   * bodies that can pin their bodies, so the passes visit only those.
   */
  private preparePins(bodies: BodySet): void {
    const s = this.cur;
    if (this.pinCandidate.length < s.count) {
      this.pinCandidate = new Uint8Array(Math.max(s.count, this.pinCandidate.length * 2));
      this.pinState = new Uint8Array(this.pinCandidate.length);
    }
    const bi = s.bodyIndex,
      invMass = bodies.invMass;
    const touchesFixed = this.touchesFixed,
      impacted = this.impacted;
    touchesFixed.begin(bodies.count);
    impacted.begin(bodies.count);
    this.fixedManifolds.clear();
    this.candidates.clear();
    this.pinning = false;
    let fixedImpact = false;
    for (let i = 0; i < s.count; i++) {
      this.pinCandidate[i] = 0;
      this.pinState[i] = PIN_NONE;
      const a = bi[i * 2],
        b = bi[i * 2 + 1];
      const fixedA = !(invMass[a] > 0),
        fixedB = !(invMass[b] > 0);
      if (fixedA === fixedB) continue;
      const body = fixedB ? a : b;
      touchesFixed.add(body);
      this.fixedManifolds.push(i);
      if (meetsImpact(s.contacts, i, s.header[i * HEADER + H_COUNT], CONTACT, C_WARM)) {
        impacted.add(body);
        fixedImpact = true;
      }
    }
    if (this.fixedManifolds.count === 0) return;
    for (let i = 0; i < s.count; i++) {
      const a = bi[i * 2],
        b = bi[i * 2 + 1];
      if (!(invMass[a] > 0 && invMass[b] > 0)) continue;
      const cand =
        (fixedImpact && (impacted.has(a) || impacted.has(b))) ||
        ((touchesFixed.has(a) || touchesFixed.has(b)) && meetsImpact(s.contacts, i, s.header[i * HEADER + H_COUNT], CONTACT, C_WARM));
      if (!cand) continue;
      this.pinCandidate[i] = 1;
      this.candidates.push(i);
      this.pinning = true;
    }
  }

  /**
   * Visits in a solver pass: the manifolds once, or twice over with pin candidates this step, which are solved
   * after every other manifold of the pass, against the pins those leave (pinnedContacts.ts): a box stopped by a
   * wall in this pass is pinned for the ball behind it.
   */
  private passLength(): number {
    return this.pinning ? this.cur.count + this.candidates.count : this.cur.count;
  }

  /** The manifold of visit q of a pass (see passLength), or -1 to skip; finds the pins before the candidates. */
  private passManifold(q: number, bodies: BodySet): number {
    if (!this.pinning) return q;
    const count = this.cur.count;
    if (q < count) return this.pinCandidate[q] === 1 ? -1 : q;
    if (q === count) this.updatePins(bodies);
    return this.candidates.data[q - count];
  }

  /**
   * Pins at the current separations (C_SEPARATION: the narrow phase's, then each relax pass's): every body's
   * touching manifolds with infinite-mass bodies, then each candidate's state.
   */
  private updatePins(bodies: BodySet): void {
    const s = this.cur;
    const hd = s.header,
      c = s.contacts,
      bi = s.bodyIndex,
      invMass = bodies.invMass;
    const pins = this.pins;
    pins.begin(bodies.count);
    const fixed = this.fixedManifolds;
    for (let f = 0; f < fixed.count; f++) {
      const i = fixed.data[f];
      const a = bi[i * 2],
        b = bi[i * 2 + 1];
      const o = i * HEADER;
      const n = hd[o + H_COUNT];
      // Pinning: touching, or pushing in this pass (a body being stopped by the fixed one).
      let pinning = false;
      for (let k = 0; k < n && !pinning; k++) {
        const co = (i * 4 + k) * CONTACT;
        pinning = c[co + C_SEPARATION] <= PIN_SEPARATION || c[co + C_NORMAL_IMPULSE] > 0;
      }
      if (!pinning) continue;
      // The normal runs from A to B: into the fixed body seen from A, out of it seen from B.
      if (!(invMass[b] > 0)) pins.add(a, hd, o + H_NX, 1);
      else pins.add(b, hd, o + H_NX, -1);
    }
    const cand = this.candidates;
    for (let q = 0; q < cand.count; q++) {
      const i = cand.data[q];
      const o = i * HEADER;
      // A's push moves B along +n; B's moves A along -n; only a hit by a body PIN_MASS_RATIO times heavier or
      // more counts. Both pinned: an ordinary contact.
      const a = bi[i * 2],
        b = bi[i * 2 + 1];
      const holdsB = invMass[b] >= PIN_MASS_RATIO * invMass[a] && pins.holds(b, hd, o + H_NX, 1),
        holdsA = invMass[a] >= PIN_MASS_RATIO * invMass[b] && pins.holds(a, hd, o + H_NX, -1);
      this.pinState[i] = holdsB === holdsA ? PIN_NONE : holdsB ? PIN_B : PIN_A;
    }
  }


  /** Applies the accumulated impulses (normal and friction) to the bodies. */
  warmStart(bodies: BodySet): void {
    const s = this.cur;
    const hd = s.header,
      c = s.contacts,
      bi = s.bodyIndex;
    if (this.shock.active) this.dropFrozenImpacts();
    const invMass = bodies.invMass,
      I = bodies.invInertiaWorld,
      vel = bodies.vel,
      w = bodies.angVel;
    for (let i = 0; i < s.count; i++) {
      const o = i * HEADER;
      const a = bi[i * 2],
        b = bi[i * 2 + 1];
      const n = hd[o + H_COUNT];
      const nx = hd[o + H_NX],
        ny = hd[o + H_NX + 1],
        nz = hd[o + H_NX + 2];
      const t1x = hd[o + H_T1X],
        t1y = hd[o + H_T1X + 1],
        t1z = hd[o + H_T1X + 2];
      const t2x = hd[o + H_T2X],
        t2y = hd[o + H_T2X + 1],
        t2z = hd[o + H_T2X + 2];
      // Impulses applied inline (no calls with many double arguments: V8 would box them).
      const a3 = a * 3,
        b3 = b * 3,
        a6 = a * 6,
        b6 = b * 6;
      // A pinned body takes no share of the hit on it (pinnedContacts.ts). A frozen manifold (shock propagation)
      // warm starts both bodies whatever its pin: the load routed to the lower body's support cancels its share.
      const pin = this.pinning && hd[o + H_FROZEN] === 0 ? this.pinState[i] : PIN_NONE;
      const sA = pin === PIN_A ? 0 : 1,
        sB = pin === PIN_B ? 0 : 1;
      // The warm start is linear in the impulses: their sum and the sums of their moments about each centre of mass
      // go to the bodies once per manifold (one inverse-inertia product per body instead of one per contact).
      let px = 0, py = 0, pz = 0, lax = 0, lay = 0, laz = 0, lbx = 0, lby = 0, lbz = 0;
      for (let k = 0; k < n; k++) {
        const co = (i * 4 + k) * CONTACT;
        // Warm start with the impulse the contact sustains, not with an impact's: the impulse that stopped an
        // approach in the last substep is not needed again, and re-applying it would throw the bodies back
        // for an iteration that every contact solved after this one sees (a box stopped by a wall throwing
        // back what is behind it).
        let pn = c[co + C_NORMAL_IMPULSE];
        let p1 = c[co + C_T1_IMPULSE],
          p2 = c[co + C_T2_IMPULSE];
        const impact = c[co + C_IMPACT_IMPULSE];
        if (impact > 0) {
          const next = pn > impact ? pn - impact : 0;
          const scale = pn > 0 ? next / pn : 0;
          pn = next;
          p1 *= scale;
          p2 *= scale;
          c[co + C_NORMAL_IMPULSE] = pn;
          c[co + C_T1_IMPULSE] = p1;
          c[co + C_T2_IMPULSE] = p2;
          c[co + C_IMPACT_IMPULSE] = 0;
        }
        if (c[co + C_WARM] >= 0) c[co + C_WARM] = pn;
        const qx = pn * nx + p1 * t1x + p2 * t2x;
        const qy = pn * ny + p1 * t1y + p2 * t2y;
        const qz = pn * nz + p1 * t1z + p2 * t2z;
        const rax = c[co + C_RAX], ray = c[co + C_RAX + 1], raz = c[co + C_RAX + 2];
        const rbx = c[co + C_RBX], rby = c[co + C_RBX + 1], rbz = c[co + C_RBX + 2];
        px += qx; py += qy; pz += qz;
        lax += ray * qz - raz * qy; lay += raz * qx - rax * qz; laz += rax * qy - ray * qx;
        lbx += rby * qz - rbz * qy; lby += rbz * qx - rbx * qz; lbz += rbx * qy - rby * qx;
      }
      const mA = invMass[a] * sA,
        mB = invMass[b] * sB;
      vel[a3] -= mA * px; vel[a3 + 1] -= mA * py; vel[a3 + 2] -= mA * pz;
      vel[b3] += mB * px; vel[b3 + 1] += mB * py; vel[b3 + 2] += mB * pz;
      w[a3] -= sA * (I[a6] * lax + I[a6 + 3] * lay + I[a6 + 4] * laz);
      w[a3 + 1] -= sA * (I[a6 + 3] * lax + I[a6 + 1] * lay + I[a6 + 5] * laz);
      w[a3 + 2] -= sA * (I[a6 + 4] * lax + I[a6 + 5] * lay + I[a6 + 2] * laz);
      w[b3] += sB * (I[b6] * lbx + I[b6 + 3] * lby + I[b6 + 4] * lbz);
      w[b3 + 1] += sB * (I[b6 + 3] * lbx + I[b6 + 1] * lby + I[b6 + 5] * lbz);
      w[b3 + 2] += sB * (I[b6 + 4] * lbx + I[b6 + 5] * lby + I[b6 + 2] * lbz);
      if (hd[o + H_ROLLING] > 0) warmStartRolling(bodies, i, a, b);
    }
  }

  /**
   * The biased pass of a substep: normal rows with the spring bias (penetration pushed out, capped at the
   * maximum recovery velocity; speculative rows close exactly their gap), then the friction rows. The
   * separation is the one the previous relax pass stored (the poses have not moved since).
   */
  solve(bodies: BodySet, h: number): void {
    const s = this.cur;
    const flip = this.substep & 1;
    const hd = s.header,
      c = s.contacts,
      bi = s.bodyIndex;
    const invMass = bodies.invMass,
      vel = bodies.vel,
      w = bodies.angVel;
    const invH = 1 / h;
    const frictionHere = this.variant.friction !== 1;
    for (let q = 0, end = this.passLength(); q < end; q++) {
      const i = this.passManifold(q, bodies);
      if (i < 0) continue;
      const o = i * HEADER;
      const a = bi[i * 2],
        b = bi[i * 2 + 1];
      const n = hd[o + H_COUNT];
      const nx = hd[o + H_NX],
        ny = hd[o + H_NX + 1],
        nz = hd[o + H_NX + 2];
      const biasRate = hd[o + H_BIAS_RATE],
        massScale = hd[o + H_MASS_SCALE],
        impulseScale = hd[o + H_IMPULSE_SCALE],
        maxRecovery = hd[o + H_MAX_RECOVERY];
      const a3 = a * 3,
        b3 = b * 3;
      // A frozen manifold's lower body (shock propagation) and a pinned body (pinnedContacts.ts) take no share of
      // the normal rows. Both can only be the lighter body, so a frozen manifold ignores its pin: its rows already
      // hold the lower body fixed (the normal mass and the rows' angular terms are the upper body's, see prepare).
      const frozen = hd[o + H_FROZEN];
      const pin = this.pinning && frozen === 0 ? this.pinState[i] : PIN_NONE;
      const sA = pin === PIN_A || frozen === 1 ? 0 : 1,
        sB = pin === PIN_B || frozen === 2 ? 0 : 1;
      const mA = invMass[a] * sA,
        mB = invMass[b] * sB;
      // A pinned manifold is solved row by row against the pinned body (the centroid mass has both bodies); a
      // frozen one has no centroid pre-pass (prepare clears its H_IMPACT).
      if (hd[o + H_IMPACT] === 1 && pin === PIN_NONE) {
        // Impact pre-pass: one normal impulse at the contacts' centroid stops the manifold's mean approach
        // before the contacts are solved one by one. Sequential impulses alone let the first contact of a
        // face hit square take the whole impact and spin the body (a box stopped at 270 m/s by a wall left
        // with tens of rad/s); shared equally (the same torque as at the centroid), the impact stays square
        // and the per-contact rows below only correct it. Approach up to the smallest gap is allowed, as for
        // a speculative contact; the per-contact rows push penetration out.
        let minSep = Infinity;
        for (let k = 0; k < n; k++) {
          const sep = c[(i * 4 + k) * CONTACT + C_SEPARATION];
          if (sep < minSep) minSep = sep;
        }
        centroidIO[0] = minSep > 0 ? minSep * invH : 0;
        shareCentroidImpulse(bodies, a, b, c, i, n, hd, o);
        if (centroidIO[1] > 0) {
          for (let k = 0; k < n; k++) {
            const co = (i * 4 + k) * CONTACT;
            // Restitution wants each contact's approach speed at its first push (as the rows below record it).
            if (c[co + C_MAX_NORMAL_IMPULSE] === 0) c[co + C_REL_VEL] = preVn[k];
            if (c[co + C_NORMAL_IMPULSE] > c[co + C_MAX_NORMAL_IMPULSE]) c[co + C_MAX_NORMAL_IMPULSE] = c[co + C_NORMAL_IMPULSE];
          }
        }
      }
      if (frozen !== 0) saveFrozen(bodies, c, i, n, frozen === 1 ? a : b);
      let vax = vel[a3], vay = vel[a3 + 1], vaz = vel[a3 + 2];
      let wax = w[a3], way = w[a3 + 1], waz = w[a3 + 2];
      let vbx = vel[b3], vby = vel[b3 + 1], vbz = vel[b3 + 2];
      let wbx = w[b3], wby = w[b3 + 1], wbz = w[b3 + 2];
      if (frozen === 1) vax = vay = vaz = wax = way = waz = 0;
      else if (frozen === 2) vbx = vby = vbz = wbx = wby = wbz = 0;
      // The contacts' order alternates per substep (see substep), as an integer start and step.
      const first = flip === 1 ? (n | 0) - 1 : 0,
        dk = flip === 1 ? -1 : 1;
      for (let kk = 0, k = first; kk < n; kk++, k += dk) {
        const co = (i * 4 + k) * CONTACT;
        const sep = c[co + C_SEPARATION];
        let bias = 0,
          ms = 1,
          is = 0;
        if (sep > 0) {
          // Speculative: allow the approach that exactly closes the gap in this substep.
          bias = sep * invH;
        } else {
          bias = biasRate * sep;
          if (bias < -maxRecovery) bias = -maxRecovery;
          ms = massScale;
          is = impulseScale;
        }
        const vn =
          (vbx - vax) * nx + (vby - vay) * ny + (vbz - vaz) * nz +
          wbx * c[co + C_BNX] + wby * c[co + C_BNX + 1] + wbz * c[co + C_BNX + 2] -
          (wax * c[co + C_ANX] + way * c[co + C_ANX + 1] + waz * c[co + C_ANX + 2]);
        const old = c[co + C_NORMAL_IMPULSE];
        // The spring holds the contact's own load; a load routed through it from a frozen pair above (route) is
        // not the spring's to give back.
        const own = old - hd[o + H_ROUTED + k];
        let nm = c[co + C_NORMAL_MASS];
        if (pin !== PIN_NONE) {
          pinnedNormalMass(c, co, invMass, a, b, sA, sB);
          nm = pinnedMass[0];
        }
        let next = old - nm * ms * (vn + bias) - is * (own > 0 ? own : 0);
        if (next < 0) next = 0;
        const lambda = next - old;
        // Restitution wants the approach speed at impact: record it at the substep where the contact
        // first pushes this step (gravity up to then included), not at the start of the step.
        if (next > 0 && c[co + C_MAX_NORMAL_IMPULSE] === 0) c[co + C_REL_VEL] = vn;
        c[co + C_NORMAL_IMPULSE] = next;
        if (next > c[co + C_MAX_NORMAL_IMPULSE]) c[co + C_MAX_NORMAL_IMPULSE] = next;
        // Applied unconditionally: a branch that is rarely taken would deoptimise this loop the first time.
        const la = lambda * mA,
          lb = lambda * mB;
        vax -= la * nx; vay -= la * ny; vaz -= la * nz;
        vbx += lb * nx; vby += lb * ny; vbz += lb * nz;
        const lwa = lambda * sA,
          lwb = lambda * sB;
        wax -= lwa * c[co + C_IANX]; way -= lwa * c[co + C_IANX + 1]; waz -= lwa * c[co + C_IANX + 2];
        wbx += lwb * c[co + C_IBNX]; wby += lwb * c[co + C_IBNX + 1]; wbz += lwb * c[co + C_IBNX + 2];
      }
      vel[a3] = vax; vel[a3 + 1] = vay; vel[a3 + 2] = vaz;
      w[a3] = wax; w[a3 + 1] = way; w[a3 + 2] = waz;
      vel[b3] = vbx; vel[b3 + 1] = vby; vel[b3 + 2] = vbz;
      w[b3] = wbx; w[b3 + 1] = wby; w[b3 + 2] = wbz;
      if (frozen !== 0) this.routeFrozen(bodies, i, n, frozen === 1 ? a : b);
      if (frictionHere) frictionRows(bodies, hd, c, bi, i, flip);
    }
  }

  /**
   * The relax pass of a substep, after the position integration: normal rows without the spring bias (only
   * the speculative gap is honoured, so no push-out energy remains in the velocities), at the separation of
   * the current poses, which it stores for the next substep's biased pass. Adds each contact's impulse to its
   * step total (for events), tracks impacts (see warmStart) and decides each contact's stick or slide.
   *
   * The separation is the t0 value plus the change of n . (anchorB - anchorA). With the anchors in body frames,
   * n . (R l) = (R^T n) . l, so n is rotated into each body's frame once per manifold and each contact costs two
   * dot products (Box2D v3's contact_solver.c keeps the same per-contact cost with its delta-position form).
   * On a round feature the anchor follows the feature's centre and axis, not its turn (rollingAnchors): a rolling
   * wheel's anchor fixed in it turned up off the floor within the step, and the contact stopped pushing.
   *
   * Friction is solved here only for a manifold whose impact this pass stops (in part): a speculative contact's
   * impact is stopped by the relax pass (the gap closes in the position update before it), and friction must act
   * within that impulse, bounded by mu times it (a domino landing flat must not keep its sliding speed).
   * Approaching at the start of the step (C_WARM) is not enough: the contacts of a rolling wheel sit ahead of its
   * lowest point and "approach" at ~0.1 x its speed every step, though the biased pass holds them; friction
   * solved twice on some wheels' substeps and once on others' yawed a car 1.3 degrees over 100 m. Only a relax
   * pass that pushes (the centroid pre-pass or a row of a contact meeting an impact) counts.
   *
   * Friction is solved here too for the manifolds of resting bodies (both slower than RESTING_SPEED, one of them
   * jointed) whose contacts slide (faster than RESTING_SLIP): the joints' relax rows run just before this pass,
   * rigid, and move a jointed body's contact points again after the biased pass's friction held them.
   * Unanswered, that velocity integrates into creep: a braked 1.2 t car on four wheel joints slid 45 mm in 3 s
   * down a 15 degree slope (its wheels' contact points kept ~0.1 m/s of jitter, more than the friction cone left
   * room to take out in one pass); answered, it holds within 0.2 mm. Moving bodies are left out: friction solved
   * twice per substep on rolling wheels yawed a car 1.5 degrees over 100 m. Bodies without joints are left out
   * too: no joint row changes their velocities after the biased pass's friction, and a second friction solve per
   * substep for them is a friction whose effect grows with the substep rate (a pile of 220 thin boxes stood 12 %
   * taller at 1/60 s than at 1/240 s with it, 0.1 % without: pileHeight.test.ts).
   */
  relax(bodies: BodySet, h: number): void {
    const s = this.cur;
    const flip = this.substep & 1;
    this.substep++;
    const hd = s.header,
      c = s.contacts,
      bi = s.bodyIndex;
    const invMass = bodies.invMass,
      vel = bodies.vel,
      w = bodies.angVel,
      pos = bodies.pos,
      rot = bodies.rot;
    const invH = 1 / h;
    const frictionAfter = this.variant.friction !== 0;
    for (let q = 0, end = this.passLength(); q < end; q++) {
      const i = this.passManifold(q, bodies);
      if (i < 0) continue;
      const o = i * HEADER;
      const a = bi[i * 2],
        b = bi[i * 2 + 1];
      const n = hd[o + H_COUNT];
      const nx = hd[o + H_NX],
        ny = hd[o + H_NX + 1],
        nz = hd[o + H_NX + 2];
      const a3 = a * 3,
        b3 = b * 3,
        a4 = a * 4,
        b4 = b * 4;
      // Frozen lower bodies and pinned bodies as in solve.
      const frozen = hd[o + H_FROZEN];
      const pin = this.pinning && frozen === 0 ? this.pinState[i] : PIN_NONE;
      const sA = pin === PIN_A || frozen === 1 ? 0 : 1,
        sB = pin === PIN_B || frozen === 2 ? 0 : 1;
      const mA = invMass[a] * sA,
        mB = invMass[b] * sB;
      // n in A's and B's frames (rotation by the conjugate orientations), and n . (pB - pA).
      let qx = -rot[a4], qy = -rot[a4 + 1], qz = -rot[a4 + 2], qw = rot[a4 + 3];
      let tx = 2 * (qy * nz - qz * ny), ty = 2 * (qz * nx - qx * nz), tz = 2 * (qx * ny - qy * nx);
      const gax = nx + qw * tx + (qy * tz - qz * ty),
        gay = ny + qw * ty + (qz * tx - qx * tz),
        gaz = nz + qw * tz + (qx * ty - qy * tx);
      qx = -rot[b4]; qy = -rot[b4 + 1]; qz = -rot[b4 + 2]; qw = rot[b4 + 3];
      tx = 2 * (qy * nz - qz * ny); ty = 2 * (qz * nx - qx * nz); tz = 2 * (qx * ny - qy * nx);
      const gbx = nx + qw * tx + (qy * tz - qz * ty),
        gby = ny + qw * ty + (qz * tx - qx * tz),
        gbz = nz + qw * tz + (qx * ty - qy * tx);
      const dn = (pos[b3] - pos[a3]) * nx + (pos[b3 + 1] - pos[a3 + 1]) * ny + (pos[b3 + 2] - pos[a3 + 2]) * nz;
      // Each side's rolling factor f = |g_perp| - g . u (rollingAnchors): 0 unless the side has a round feature.
      let fa = 0,
        fb = 0;
      if (hd[o + H_ROLLS] === 1) {
        for (let side = 0; side < 2; side++) {
          const ho = o + (side === 0 ? H_RA : H_RB);
          const kind = hd[ho];
          if (kind === ROUND_NONE) continue;
          const gx = side === 0 ? gax : gbx,
            gy = side === 0 ? gay : gby,
            gz = side === 0 ? gaz : gbz;
          let gp = 1;
          if (kind === ROUND_AXIS) {
            const ge = gx * hd[ho + 1] + gy * hd[ho + 2] + gz * hd[ho + 3];
            gp = ge * ge < 1 ? Math.sqrt(1 - ge * ge) : 0;
          }
          const f = gp - (gx * hd[ho + R_U] + gy * hd[ho + R_U + 1] + gz * hd[ho + R_U + 2]);
          if (side === 0) fa = f;
          else fb = f;
        }
      }
      // Whether this pass raised the normal impulse of a contact meeting an impact (friction below).
      let impacting = 0;
      // Whether a contact slides faster than RESTING_SLIP after the joints' relax rows (friction below).
      let slipping = 0;
      // A pinned manifold is solved row by row against the pinned body (the centroid mass has both bodies).
      if (hd[o + H_IMPACT] === 1 && pin === PIN_NONE) {
        // The impact pre-pass (see solve) at the current separations: the position update has (partly) closed
        // the gap the biased pass saw, and allowing that stale gap again let the centroid approach into
        // penetration (thin plates through a mesh floor, a disc hull landing with spin).
        let minSep = Infinity;
        for (let k = 0; k < n; k++) {
          const co = (i * 4 + k) * CONTACT;
          const sep =
            c[co + C_ADJ_SEP] + dn +
            gbx * c[co + C_LBX] + gby * c[co + C_LBX + 1] + gbz * c[co + C_LBX + 2] + fb * c[co + C_KB] -
            (gax * c[co + C_LAX] + gay * c[co + C_LAX + 1] + gaz * c[co + C_LAX + 2] + fa * c[co + C_KA]);
          if (sep < minSep) minSep = sep;
        }
        centroidIO[0] = minSep > 0 ? minSep * invH : 0;
        shareCentroidImpulse(bodies, a, b, c, i, n, hd, o);
        if (centroidIO[1] > 0) {
          impacting = 1;
          for (let k = 0; k < n; k++) {
            const co = (i * 4 + k) * CONTACT;
            if (c[co + C_NORMAL_IMPULSE] > c[co + C_MAX_NORMAL_IMPULSE]) c[co + C_MAX_NORMAL_IMPULSE] = c[co + C_NORMAL_IMPULSE];
          }
        }
      }
      if (frozen !== 0) saveFrozen(bodies, c, i, n, frozen === 1 ? a : b);
      let vax = vel[a3], vay = vel[a3 + 1], vaz = vel[a3 + 2];
      let wax = w[a3], way = w[a3 + 1], waz = w[a3 + 2];
      let vbx = vel[b3], vby = vel[b3 + 1], vbz = vel[b3 + 2];
      let wbx = w[b3], wby = w[b3 + 1], wbz = w[b3 + 2];
      if (frozen === 1) vax = vay = vaz = wax = way = waz = 0;
      else if (frozen === 2) vbx = vby = vbz = wbx = wby = wbz = 0;
      const first = flip === 1 ? (n | 0) - 1 : 0,
        dk = flip === 1 ? -1 : 1;
      for (let kk = 0, k = first; kk < n; kk++, k += dk) {
        const co = (i * 4 + k) * CONTACT;
        const sep =
          c[co + C_ADJ_SEP] + dn +
          gbx * c[co + C_LBX] + gby * c[co + C_LBX + 1] + gbz * c[co + C_LBX + 2] + fb * c[co + C_KB] -
          (gax * c[co + C_LAX] + gay * c[co + C_LAX + 1] + gaz * c[co + C_LAX + 2] + fa * c[co + C_KA]);
        c[co + C_SEPARATION] = sep;
        // Speculative: allow the approach that exactly closes the gap in this substep; touching: no bias.
        const bias = sep > 0 ? sep * invH : 0;
        const rax = c[co + C_RAX], ray = c[co + C_RAX + 1], raz = c[co + C_RAX + 2];
        const rbx = c[co + C_RBX], rby = c[co + C_RBX + 1], rbz = c[co + C_RBX + 2];
        const dvx = vbx + (wby * rbz - wbz * rby) - vax - (way * raz - waz * ray);
        const dvy = vby + (wbz * rbx - wbx * rbz) - vay - (waz * rax - wax * raz);
        const dvz = vbz + (wbx * rby - wby * rbx) - vaz - (wax * ray - way * rax);
        const vn = dvx * nx + dvy * ny + dvz * nz;
        const old = c[co + C_NORMAL_IMPULSE];
        let nm = c[co + C_NORMAL_MASS];
        if (pin !== PIN_NONE) {
          pinnedNormalMass(c, co, invMass, a, b, sA, sB);
          nm = pinnedMass[0];
        }
        let next = old - nm * (vn + bias);
        if (next < 0) next = 0;
        const lambda = next - old;
        c[co + C_NORMAL_IMPULSE] = next;
        if (next > c[co + C_MAX_NORMAL_IMPULSE]) c[co + C_MAX_NORMAL_IMPULSE] = next;
        const la = lambda * mA,
          lb = lambda * mB;
        vax -= la * nx; vay -= la * ny; vaz -= la * nz;
        vbx += lb * nx; vby += lb * ny; vbz += lb * nz;
        const lwa = lambda * sA,
          lwb = lambda * sB;
        wax -= lwa * c[co + C_IANX]; way -= lwa * c[co + C_IANX + 1]; waz -= lwa * c[co + C_IANX + 2];
        wbx += lwb * c[co + C_IBNX]; wby += lwb * c[co + C_IBNX + 1]; wbz += lwb * c[co + C_IBNX + 2];
        // Stick or slide in the next substep: a contact that pushed and still slides after the solve
        // slides (static friction could not stop it); one that stopped, or did not push, tries static.
        const vt2 = dvx * dvx + dvy * dvy + dvz * dvz - vn * vn;
        if (vt2 > RESTING_SLIP_SQ) slipping = 1;
        c[co + C_STICK] = next === 0 || vt2 < STICK_SPEED * STICK_SPEED ? 1 : 0;
        c[co + C_TOTAL_IMPULSE] += next;
        const warm = c[co + C_WARM];
        if (warm >= 0) {
          if (lambda > 0) impacting = 1;
          const added = next - warm;
          c[co + C_IMPACT_IMPULSE] = added > 0 ? added : 0;
        }
      }
      vel[a3] = vax; vel[a3 + 1] = vay; vel[a3 + 2] = vaz;
      w[a3] = wax; w[a3 + 1] = way; w[a3 + 2] = waz;
      vel[b3] = vbx; vel[b3 + 1] = vby; vel[b3 + 2] = vbz;
      w[b3] = wbx; w[b3 + 1] = wby; w[b3 + 2] = wbz;
      if (frozen !== 0) this.routeFrozen(bodies, i, n, frozen === 1 ? a : b);
      // An impact's friction gets a second Gauss-Seidel iteration: in one sequential pass over a face's contacts the
      // first rows' impulses, bounded contact by contact, spin the body about the normal and the later rows answer
      // that spin sideways (a box landing flat and square on a 29 degree slope left with 0.18 m/s across the
      // slope and 0.15 rad/s at 8 substeps, 0.29 and 0.31 at 4; 0.03 and 0.04 with the second pass). Only the
      // step a manifold's bodies close faster than IMPACT_SPEED pays for it.
      if (impacting === 1) frictionRows(bodies, hd, c, bi, i, flip);
      if (frictionAfter || impacting === 1 || (slipping === 1 && this.jointedPair(a, b) && resting(bodies, a, b))) frictionRows(bodies, hd, c, bi, i, flip);
      // Rolling resistance after the friction (Box2D v3's order), here where the normal impulses carry the load
      // without the biased pass's push-out (bounded by those, a ball rolling at 5 m/s, its contact 2 mm deep
      // within the step, slowed 2.6 times too fast).
      if (hd[o + H_ROLLING] > 0) solveRolling(bodies, i, a, b, c, i * 4 * CONTACT + C_NORMAL_IMPULSE, CONTACT, n | 0);
    }
  }

  /** Whether body a or b has a joint this step (see {@link jointed}). */
  private jointedPair(a: number, b: number): boolean {
    return this.jointed.has(a) || this.jointed.has(b);
  }

  /**
   * Restitution after the substeps (Box2D v3 b2ApplyRestitution): contacts that were approaching faster
   * than the threshold and pushed during the step get the normal velocity -e * (approach velocity).
   */
  applyRestitution(bodies: BodySet): void {
    const s = this.cur;
    const hd = s.header,
      c = s.contacts,
      bi = s.bodyIndex;
    const invMass = bodies.invMass,
      inv = bodies.invInertiaWorld,
      vel = bodies.vel,
      w = bodies.angVel;
    for (let i = 0; i < s.count; i++) {
      const o = i * HEADER;
      const e = hd[o + H_RESTITUTION];
      if (e === 0) continue;
      const threshold = hd[o + H_REST_THRESHOLD];
      const a = bi[i * 2],
        b = bi[i * 2 + 1];
      const n = hd[o + H_COUNT];
      const nx = hd[o + H_NX],
        ny = hd[o + H_NX + 1],
        nz = hd[o + H_NX + 2];
      const t1x = hd[o + H_T1X], t1y = hd[o + H_T1X + 1], t1z = hd[o + H_T1X + 2];
      const t2x = hd[o + H_T2X], t2y = hd[o + H_T2X + 1], t2z = hd[o + H_T2X + 2];
      const mu = hd[o + H_FRICTION],
        muS = hd[o + H_STATIC_FRICTION];
      restShare[0] = restShare[1] = restShare[2] = restShare[3] = 0;
      // A pinned body takes no share of the rebound either: its mass counts as infinite (pinnedContacts.ts),
      // for the rebound impulses below, while they are applied. A frozen manifold ignores its pin (see solve).
      const frozen = hd[o + H_FROZEN];
      let rf = 0, rmx = 0, rmy = 0, rmz = 0;
      const pin = this.pinning && frozen === 0 ? this.pinState[i] : PIN_NONE;
      const pinned = pin === PIN_A ? a : pin === PIN_B ? b : -1;
      if (pinned >= 0) holdPinned(bodies, pinned);
      if (hd[o + H_IMPACT] === 1 && pinned < 0) {
        // The rebound of a manifold meeting an impact starts as one impulse at the centroid, shared equally (the
        // impact pre-pass of solve, for the same reason: contact by contact, a square rebound would spin).
        let rsum = 0,
          q = 0;
        for (let k = 0; k < n; k++) {
          const co = (i * 4 + k) * CONTACT;
          const rel = c[co + C_REL_VEL];
          if (rel > -threshold || c[co + C_MAX_NORMAL_IMPULSE] === 0) continue;
          q++;
          rsum += rel;
        }
        centroidIO[0] = (e * rsum) / n;
        centroidIO[1] = 0;
        if (q === n) shareCentroidImpulse(bodies, a, b, c, i, n, hd, o);
        const share = centroidIO[1];
        for (let k = 0; k < n; k++) {
          restShare[k] = share;
          c[(i * 4 + k) * CONTACT + C_TOTAL_IMPULSE] += share;
        }
      }
      for (let k = 0; k < n; k++) {
        const co = (i * 4 + k) * CONTACT;
        const rel = c[co + C_REL_VEL];
        if (rel > -threshold || c[co + C_MAX_NORMAL_IMPULSE] === 0) continue;
        const rax = c[co + C_RAX],
          ray = c[co + C_RAX + 1],
          raz = c[co + C_RAX + 2];
        const rbx = c[co + C_RBX],
          rby = c[co + C_RBX + 1],
          rbz = c[co + C_RBX + 2];
        const a3 = a * 3,
          b3 = b * 3;
        const dvx = vel[b3] + (w[b3 + 1] * rbz - w[b3 + 2] * rby) - vel[a3] - (w[a3 + 1] * raz - w[a3 + 2] * ray);
        const dvy = vel[b3 + 1] + (w[b3 + 2] * rbx - w[b3] * rbz) - vel[a3 + 1] - (w[a3 + 2] * rax - w[a3] * raz);
        const dvz = vel[b3 + 2] + (w[b3] * rby - w[b3 + 1] * rbx) - vel[a3 + 2] - (w[a3] * ray - w[a3 + 1] * rax);
        let vn = dvx * nx + dvy * ny + dvz * nz;
        // A frozen pair's rebound is the upper body's alone, off a lower body taken as fixed (see solve).
        if (frozen === 1) vn += (vel[a3] + (w[a3 + 1] * raz - w[a3 + 2] * ray)) * nx + (vel[a3 + 1] + (w[a3 + 2] * rax - w[a3] * raz)) * ny + (vel[a3 + 2] + (w[a3] * ray - w[a3 + 1] * rax)) * nz;
        else if (frozen === 2) vn -= (vel[b3] + (w[b3 + 1] * rbz - w[b3 + 2] * rby)) * nx + (vel[b3 + 1] + (w[b3 + 2] * rbx - w[b3] * rbz)) * ny + (vel[b3 + 2] + (w[b3] * rby - w[b3 + 1] * rbx)) * nz;
        const old = c[co + C_NORMAL_IMPULSE];
        let nm = c[co + C_NORMAL_MASS];
        if (pinned >= 0) {
          pinnedNormalMass(c, co, invMass, a, b, pin === PIN_A ? 0 : 1, pin === PIN_B ? 0 : 1);
          nm = pinnedMass[0];
        }
        let lambda = -nm * (vn + e * rel);
        let next = old + lambda;
        if (next < 0) next = 0;
        lambda = next - old;
        c[co + C_NORMAL_IMPULSE] = next;
        c[co + C_TOTAL_IMPULSE] += lambda;
        if (lambda !== 0 || restShare[k] > 0) {
          // Friction acts within the rebound too: up to mu times the rebound's normal impulse, against the
          // tangential sliding that is left (Coulomb over the whole impact, restitution included). Not added
          // to the warm-start impulses: the rebound is not sustained.
          const maxF = (c[co + C_STICK] === 1 ? muS : mu) * (lambda + restShare[k]);
          const v1 = dvx * t1x + dvy * t1y + dvz * t1z,
            v2 = dvx * t2x + dvy * t2y + dvz * t2z;
          fr[0] = -(c[co + C_T1_MASS] * v1 + c[co + C_T12_MASS] * v2);
          fr[1] = -(c[co + C_T12_MASS] * v1 + c[co + C_T2_MASS] * v2);
          fr[2] = maxF;
          if (fr[0] * fr[0] + fr[1] * fr[1] > maxF * maxF) projectFriction(fr, c, co);
          const f1 = fr[0],
            f2 = fr[1];
          const ln = frozen === 0 ? lambda : 0;
          contactImpulse[0] = ln * nx + f1 * t1x + f2 * t2x;
          contactImpulse[1] = ln * ny + f1 * t1y + f2 * t2y;
          contactImpulse[2] = ln * nz + f1 * t1z + f2 * t2z;
          applyImpulse(invMass, inv, vel, w, a, b, c, co + C_RAX, contactImpulse);
          if (frozen !== 0) {
            // The normal part moves the upper body only and goes down the stack (route).
            if (frozen === 1) {
              const lb = lambda * invMass[b];
              vel[b3] += lb * nx; vel[b3 + 1] += lb * ny; vel[b3 + 2] += lb * nz;
              w[b3] += lambda * c[co + C_IBNX]; w[b3 + 1] += lambda * c[co + C_IBNX + 1]; w[b3 + 2] += lambda * c[co + C_IBNX + 2];
            } else {
              const la = lambda * invMass[a];
              vel[a3] -= la * nx; vel[a3 + 1] -= la * ny; vel[a3 + 2] -= la * nz;
              w[a3] -= lambda * c[co + C_IANX]; w[a3 + 1] -= lambda * c[co + C_IANX + 1]; w[a3 + 2] -= lambda * c[co + C_IANX + 2];
            }
            rf += lambda;
            rmx += lambda * c[co + C_PX]; rmy += lambda * c[co + C_PX + 1]; rmz += lambda * c[co + C_PX + 2];
          }
        }
      }
      if (pinned >= 0) releasePinned(bodies, pinned);
      if (frozen !== 0 && rf !== 0) {
        routeIO[0] = rf; routeIO[1] = rmx; routeIO[2] = rmy; routeIO[3] = rmz;
        this.route(i);
      }
    }
  }

  /**
   * Shock propagation (shockPropagation.ts): the normal impulse routeIO[0] (first moment routeIO[1..3]) that frozen
   * manifold m's rows just added is added to the accumulated impulse of the manifold supporting its lower body,
   * projected on its normal and split over its contacts with the same force and moment (supportShares), marked as
   * routed there (H_ROUTED), and so on down while that support is frozen too. No velocity changes: the warm
   * start applies both next substep, where they cancel on the lower body.
   */
  private route(m: number): void {
    const s = this.cur;
    const hd = s.header,
      c = s.contacts,
      bi = s.bodyIndex;
    const support = this.shock.support;
    let f = routeIO[0],
      mx = routeIO[1],
      my = routeIO[2],
      mz = routeIO[3];
    let cur = m;
    for (let depth = 0; depth < SHOCK_MAX_DEPTH; depth++) {
      const o = cur * HEADER;
      const fz = hd[o + H_FROZEN];
      const lower = fz === 1 ? bi[cur * 2] : bi[cur * 2 + 1];
      // This manifold's normal pointing up (from its lower body to its upper one).
      const sg = fz === 1 ? 1 : -1;
      const ux = sg * hd[o + H_NX],
        uy = sg * hd[o + H_NX + 1],
        uz = sg * hd[o + H_NX + 2];
      const sm = support[lower];
      if (sm < 0 || sm === cur) return;
      const so = sm * HEADER;
      // The support's normal pointing up at `lower` (which is its upper body).
      const ss = bi[sm * 2 + 1] === lower ? 1 : -1;
      const dot = ss * (hd[so + H_NX] * ux + hd[so + H_NX + 1] * uy + hd[so + H_NX + 2] * uz);
      if (!(dot > 0)) return;
      const cnt = hd[so + H_COUNT];
      routeIO[0] = f * dot;
      routeIO[1] = mx * dot;
      routeIO[2] = my * dot;
      routeIO[3] = mz * dot;
      supportShares(hd, c, sm, cnt);
      f = 0; mx = 0; my = 0; mz = 0;
      for (let k = 0; k < cnt; k++) {
        const co = (sm * 4 + k) * CONTACT;
        const g = routeShare[k];
        const old = c[co + C_NORMAL_IMPULSE];
        const ni = old + g > 0 ? old + g : 0;
        c[co + C_NORMAL_IMPULSE] = ni;
        const added = ni - old;
        const r = hd[so + H_ROUTED + k] + added;
        hd[so + H_ROUTED + k] = r > 0 ? r : 0;
        f += added;
        mx += added * c[co + C_PX]; my += added * c[co + C_PX + 1]; mz += added * c[co + C_PX + 2];
      }
      if (hd[so + H_FROZEN] === 0) return;
      // The support is frozen too: what its contacts took goes on down the stack.
      cur = sm;
    }
  }



  /**
   * Whether manifold m of this step touches: the solver pushed (some contact's step impulse is positive) or
   * some contact's end-of-step separation is within {@link TOUCH_TOLERANCE}. Speculative manifolds of bodies
   * merely passing near each other do not touch (islands and contact events use this, as Box2D links islands
   * by touching contacts only).
   */
  isTouching(m: number): boolean {
    const s = this.cur;
    const c = s.contacts;
    const n = s.header[m * HEADER + H_COUNT];
    for (let k = 0; k < n; k++) {
      const co = (m * 4 + k) * CONTACT;
      if (c[co + C_TOTAL_IMPULSE] > 0 || c[co + C_SEPARATION] <= TOUCH_TOLERANCE) return true;
    }
    return false;
  }
}

/** Field offsets for readers of the contact arrays (events, diagnostics). */
export const ContactField = {
  separation: C_SEPARATION,
  totalImpulse: C_TOTAL_IMPULSE,
  normalImpulse: C_NORMAL_IMPULSE,
  pointX: C_PX,
} as const;
/** Header offsets for readers. */
export const HeaderField = {
  bodyA: H_A,
  bodyB: H_B,
  count: H_COUNT,
  normalX: H_NX,
  handleA: H_HANDLE_A,
  handleB: H_HANDLE_B,
} as const;

const fr = new Float64Array(3);
/** Normal velocities of a manifold's contacts before the impact pre-pass (solve). */
const preVn = new Float64Array(4);
/** shareCentroidImpulse's double in (the velocity offset) and out (the share). */
const centroidIO = new Float64Array(2);
/** Each contact's share of the centroid rebound impulse (applyRestitution). */
const restShare = new Float64Array(4);
const contactImpulse = new Float64Array(3);
/** The impulse route() carries down a stack (a double through a typed array: V8 boxes double arguments). */
const routeIO = new Float64Array(4);
/** route()'s share per support contact. */
const routeShare = new Float64Array(4);
const relScratch = new Float64Array(7);
/** add()'s warm start, per contact of the previous manifold: feature, normal, t1, t2 impulses, stick, routed. */
const WARM = 6;
const warmScratch = new Float64Array(4 * WARM);

/**
 * Writes the header fields common to fresh and reused manifolds of store entry i: bodies, the tangent basis of
 * the normal already in the header, the pair's material and the handles.
 */
function writeHeader(s: ManifoldStore, i: number, bodies: BodySet, a: number, b: number, mat: PairMaterial): void {
  const hd = s.header;
  const o = i * HEADER;
  hd[o + H_A] = a;
  hd[o + H_B] = b;
  s.bodyIndex[i * 2] = a;
  s.bodyIndex[i * 2 + 1] = b;
  // Tangent basis of the normal, written out (tangentBasis in math/vec3.ts: Duff et al. 2017).
  const nx = hd[o + H_NX],
    ny = hd[o + H_NX + 1],
    nz = hd[o + H_NX + 2];
  const sg = nz >= 0 ? 1 : -1;
  const ta = -1 / (sg + nz);
  const tb = nx * ny * ta;
  hd[o + H_T1X] = 1 + sg * nx * nx * ta;
  hd[o + H_T1X + 1] = sg * tb;
  hd[o + H_T1X + 2] = -sg * nx;
  hd[o + H_T2X] = tb;
  hd[o + H_T2X + 1] = sg + ny * ny * ta;
  hd[o + H_T2X + 2] = -ny;
  hd[o + H_FRICTION] = mat.friction;
  // Static friction below the dynamic one would let a contact that stopped sliding slip again at once.
  hd[o + H_STATIC_FRICTION] = mat.staticFriction > mat.friction ? mat.staticFriction : mat.friction;
  hd[o + H_RESTITUTION] = mat.restitution;
  hd[o + H_ROLLING] = mat.rollingResistance;
  hd[o + H_REST_THRESHOLD] = mat.restitutionThreshold;
  hd[o + H_MAX_RECOVERY] = mat.maximumRecoveryVelocity;
  hd[o + H_FREQ] = mat.spring.frequency;
  hd[o + H_DAMPING] = mat.spring.dampingRatio;
  hd[o + H_HANDLE_A] = bodies.handle[a];
  hd[o + H_HANDLE_B] = bodies.handle[b];
}

/** B's pose in A's frame (centres of mass): position (3) then orientation conj(qA) qB (4), into out[o..o+6]. */
function relPose(bodies: BodySet, a: number, b: number, out: Float64Array, o: number): void {
  const pos = bodies.pos,
    rot = bodies.rot;
  const a3 = a * 3,
    b3 = b * 3,
    a4 = a * 4,
    b4 = b * 4;
  const ax = rot[a4], ay = rot[a4 + 1], az = rot[a4 + 2], aw = rot[a4 + 3];
  const bx = rot[b4], by = rot[b4 + 1], bz = rot[b4 + 2], bw = rot[b4 + 3];
  const vx = pos[b3] - pos[a3],
    vy = pos[b3 + 1] - pos[a3 + 1],
    vz = pos[b3 + 2] - pos[a3 + 2];
  // conj(qA) applied to v.
  const tx = 2 * (-ay * vz + az * vy),
    ty = 2 * (-az * vx + ax * vz),
    tz = 2 * (-ax * vy + ay * vx);
  out[o] = vx + aw * tx + (-ay * tz + az * ty);
  out[o + 1] = vy + aw * ty + (-az * tx + ax * tz);
  out[o + 2] = vz + aw * tz + (-ax * ty + ay * tx);
  out[o + 3] = aw * bx - bw * ax - ay * bz + az * by;
  out[o + 4] = aw * by - bw * ay - az * bx + ax * bz;
  out[o + 5] = aw * bz - bw * az - ax * by + ay * bx;
  out[o + 6] = aw * bw + ax * bx + ay * by + az * bz;
}

/** tangentEigen's input K = [[k11, k12], [k12, k22]] as (k11, k12, k22): V8 boxes double arguments of a call it does not inline. */
const tangentK = new Float64Array(3);

/**
 * Writes the eigenvectors of the symmetric 2x2 tangent effective mass K = [[k11, k12], [k12, k22]] (tangentK) to
 * the contact: unit eigenvector e1 (C_E1X, C_E1Y) of the larger eigenvalue; e2 = perp(e1). The eigenvalues are not
 * stored: projectFriction reads them off the inverse K^-1 the contact keeps (C_T1_MASS...), whose eigenvectors are
 * the same (two slots fewer per contact).
 */
function tangentEigen(c: Float64Array, co: number): void {
  const k11 = tangentK[0],
    k12 = tangentK[1],
    k22 = tangentK[2];
  const half = 0.5 * (k11 - k22);
  const disc = Math.sqrt(half * half + k12 * k12);
  const mid = 0.5 * (k11 + k22);
  const big = mid + disc;
  let ex: number, ey: number;
  if (Math.abs(k12) > 1e-300) {
    ex = k12;
    ey = big - k11;
    const l = Math.sqrt(ex * ex + ey * ey);
    ex /= l;
    ey /= l;
  } else if (k11 >= k22) {
    ex = 1;
    ey = 0;
  } else {
    ex = 0;
    ey = 1;
  }
  c[co + C_E1X] = ex;
  c[co + C_E1Y] = ey;
}

/**
 * Projects the unclamped friction impulse u onto the disc |n| <= max in the metric of the tangent
 * effective mass K (the velocity response), i.e. the Coulomb impulse that leaves the least relative
 * kinetic energy: n = (K + beta I)^-1 K u with beta >= 0 such that |n| = max. Fast sliding gives
 * n = -max * (sliding direction); a contact on the edge of sticking gives u scaled onto the disc.
 * K's eigenvectors come from the contact (tangentEigen, once per step), its eigenvalues from K^-1; beta solves the secular equation by
 * Newton on 1/|n(beta)| - 1/max (More and Sorensen's trust-region iteration), which converges monotonically.
 */
function projectFriction(io: Float64Array, c: Float64Array, co: number): void {
  // In: u (io[0], io[1]), max (io[2]); out: n (io[0], io[1]).
  const u1 = io[0],
    u2 = io[1],
    max = io[2];
  const out = io;
  if (!(max > 0)) {
    // No normal impulse: no friction (tested here, not in the solver loop, to keep its branches few).
    out[0] = 0;
    out[1] = 0;
    return;
  }
  const e1x = c[co + C_E1X],
    e1y = c[co + C_E1Y];
  const e2x = -e1y,
    e2y = e1x;
  // K's eigenvalues: 1 / (e . K^-1 e) for each eigenvector (0 where K^-1 is 0: a singular K, see prepare).
  const m11 = c[co + C_T1_MASS],
    m12 = c[co + C_T12_MASS],
    m22 = c[co + C_T2_MASS];
  const q1 = e1x * e1x * m11 + 2 * e1x * e1y * m12 + e1y * e1y * m22,
    q2 = e2x * e2x * m11 + 2 * e2x * e2y * m12 + e2y * e2y * m22;
  const l1 = q1 > 0 ? 1 / q1 : 0,
    l2 = q2 > 0 ? 1 / q2 : 0;
  if (!(l2 > 0)) {
    const sc = max / Math.sqrt(u1 * u1 + u2 * u2);
    out[0] = u1 * sc;
    out[1] = u2 * sc;
    return;
  }
  // K u in the eigenbasis.
  const p1 = l1 * (e1x * u1 + e1y * u2),
    p2 = l2 * (e2x * u1 + e2y * u2);
  let beta = 0;
  for (let it = 0; it < 8; it++) {
    const d1 = l1 + beta,
      d2 = l2 + beta;
    const q1 = p1 / d1,
      q2 = p2 / d2;
    const f = Math.sqrt(q1 * q1 + q2 * q2);
    if (f <= max * (1 + 1e-9)) break;
    const df = -(q1 * q1 / d1 + q2 * q2 / d2) / f;
    // Newton on psi(beta) = 1/f - 1/max, psi' = -df / f^2.
    beta += ((1 / f - 1 / max) * f * f) / df;
  }
  const n1 = p1 / (l1 + beta),
    n2 = p2 / (l2 + beta);
  // Land exactly on the disc (the iteration stops within round-off of it).
  const l = Math.sqrt(n1 * n1 + n2 * n2);
  const sc = l > max ? max / l : 1;
  out[0] = (e1x * n1 + e2x * n2) * sc;
  out[1] = (e1y * n1 + e2y * n2) * sc;
}

/**
 * Applies -K_c^-1 (mean normal velocity of manifold i's n contacts + centroidIO[0]) along the normal at the
 * contacts' centroid (K_c: H_CENTROID_MASS), if it pushes, as equal shares at each contact (the same force and
 * torque), adding each share to the contact's normal impulse. Writes the contacts' normal velocities before it
 * to preVn and the share (0 if none) to centroidIO[1]. Doubles go through centroidIO, not arguments or the
 * return value: V8 boxes those when the call is not inlined.
 */
function shareCentroidImpulse(bodies: BodySet, a: number, b: number, c: Float64Array, i: number, n: number, hd: Float64Array, o: number): void {
  const vel = bodies.vel,
    w = bodies.angVel;
  const nx = hd[o + H_NX],
    ny = hd[o + H_NX + 1],
    nz = hd[o + H_NX + 2];
  const a3 = a * 3,
    b3 = b * 3;
  let vsum = 0;
  for (let k = 0; k < n; k++) {
    const co = (i * 4 + k) * CONTACT;
    const rax = c[co + C_RAX], ray = c[co + C_RAX + 1], raz = c[co + C_RAX + 2];
    const rbx = c[co + C_RBX], rby = c[co + C_RBX + 1], rbz = c[co + C_RBX + 2];
    const vn =
      (vel[b3] + (w[b3 + 1] * rbz - w[b3 + 2] * rby) - vel[a3] - (w[a3 + 1] * raz - w[a3 + 2] * ray)) * nx +
      (vel[b3 + 1] + (w[b3 + 2] * rbx - w[b3] * rbz) - vel[a3 + 1] - (w[a3 + 2] * rax - w[a3] * raz)) * ny +
      (vel[b3 + 2] + (w[b3] * rby - w[b3 + 1] * rbx) - vel[a3 + 2] - (w[a3] * ray - w[a3 + 1] * rax)) * nz;
    preVn[k] = vn;
    vsum += vn;
  }
  const lc = -hd[o + H_CENTROID_MASS] * (vsum / n + centroidIO[0]);
  centroidIO[1] = 0;
  if (!(lc > 0)) return;
  const share = lc / n;
  centroidIO[1] = share;
  contactImpulse[0] = share * nx;
  contactImpulse[1] = share * ny;
  contactImpulse[2] = share * nz;
  for (let k = 0; k < n; k++) {
    const co = (i * 4 + k) * CONTACT;
    c[co + C_NORMAL_IMPULSE] += share;
    applyImpulse(bodies.invMass, bodies.invInertiaWorld, vel, w, a, b, c, co + C_RAX, contactImpulse);
  }
}

/** pinnedNormalMass's result. */
const pinnedMass = new Float64Array(1);

/**
 * The normal effective mass of contact co between dense bodies a and b, with A's and B's shares scaled by sA, sB
 * (0 for a pinned body, whose mass counts as infinite in its hit: pinnedContacts.ts), written to pinnedMass[0].
 * Integers in, the result through a scratch array: the call is taken only for pinned contacts, so V8 often does
 * not inline it, and then boxes double arguments and the return value. Worse, the solver loops' merge of a
 * contact's stored normal mass (a double) with an unknown return value became a tagged value, boxing the common
 * path's double at every contact: the intermittent GCs of the relax pass (bench/RESULTS.md, "Where time goes").
 */
function pinnedNormalMass(c: Float64Array, co: number, invMass: Float64Array, a: number, b: number, sA: number, sB: number): void {
  const k =
    invMass[a] * sA + invMass[b] * sB +
    sA * (c[co + C_ANX] * c[co + C_IANX] + c[co + C_ANX + 1] * c[co + C_IANX + 1] + c[co + C_ANX + 2] * c[co + C_IANX + 2]) +
    sB * (c[co + C_BNX] * c[co + C_IBNX] + c[co + C_BNX + 1] * c[co + C_IBNX + 1] + c[co + C_BNX + 2] * c[co + C_IBNX + 2]);
  pinnedMass[0] = k > 0 ? 1 / k : 0;
}

/** The pinned body's inverse mass and world inverse inertia while holdPinned has them zeroed. */
const heldMass = new Float64Array(7);

/** Zeroes body i's inverse mass and world inverse inertia (kept in heldMass) until releasePinned. */
function holdPinned(bodies: BodySet, i: number): void {
  heldMass[0] = bodies.invMass[i];
  bodies.invMass[i] = 0;
  for (let k = 0; k < 6; k++) {
    heldMass[k + 1] = bodies.invInertiaWorld[i * 6 + k];
    bodies.invInertiaWorld[i * 6 + k] = 0;
  }
}

/** Restores what holdPinned zeroed. */
function releasePinned(bodies: BodySet, i: number): void {
  bodies.invMass[i] = heldMass[0];
  for (let k = 0; k < 6; k++) bodies.invInertiaWorld[i * 6 + k] = heldMass[k + 1];
}

/**
 * The friction rows of manifold i: per contact, the tangent pair with its 2x2 effective mass, limited to the
 * Coulomb disc of radius mu * (this contact's normal impulse). Coulomb with two coefficients: the static mu for a
 * contact that sticks (or touches anew) and the dynamic one for a contact that slides (C_STICK, set by the relax
 * pass from the tangential speed its solve left). Reads and writes the bodies' velocities; integers only as
 * arguments (V8 boxes doubles passed to a call it does not inline). Odd `flip`: the contacts in reverse order.
 */
function frictionRows(bodies: BodySet, hd: Float64Array, c: Float64Array, bi: Int32Array, i: number, flip: number): void {
  const o = i * HEADER;
  const n = hd[o + H_COUNT];
  const a = bi[i * 2],
    b = bi[i * 2 + 1];
  const invMass = bodies.invMass,
    I = bodies.invInertiaWorld,
    vel = bodies.vel,
    w = bodies.angVel;
  const mu = hd[o + H_FRICTION],
    muS = hd[o + H_STATIC_FRICTION];
  const t1x = hd[o + H_T1X], t1y = hd[o + H_T1X + 1], t1z = hd[o + H_T1X + 2];
  const t2x = hd[o + H_T2X], t2y = hd[o + H_T2X + 1], t2z = hd[o + H_T2X + 2];
  const a3 = a * 3,
    b3 = b * 3,
    a6 = a * 6,
    b6 = b * 6;
  const mA = invMass[a],
    mB = invMass[b];
  const iA0 = I[a6], iA1 = I[a6 + 1], iA2 = I[a6 + 2], iA3 = I[a6 + 3], iA4 = I[a6 + 4], iA5 = I[a6 + 5];
  const iB0 = I[b6], iB1 = I[b6 + 1], iB2 = I[b6 + 2], iB3 = I[b6 + 3], iB4 = I[b6 + 4], iB5 = I[b6 + 5];
  let vax = vel[a3], vay = vel[a3 + 1], vaz = vel[a3 + 2];
  let wax = w[a3], way = w[a3 + 1], waz = w[a3 + 2];
  let vbx = vel[b3], vby = vel[b3 + 1], vbz = vel[b3 + 2];
  let wbx = w[b3], wby = w[b3 + 1], wbz = w[b3 + 2];
  // In the order of the normal rows (ContactSolver.substep).
  const first = flip === 1 ? (n | 0) - 1 : 0,
    dk = flip === 1 ? -1 : 1;
  for (let kk = 0, k = first; kk < n; kk++, k += dk) {
    const co = (i * 4 + k) * CONTACT;
    const o1 = c[co + C_T1_IMPULSE],
      o2 = c[co + C_T2_IMPULSE];
    const maxF = (c[co + C_STICK] === 1 ? muS : mu) * c[co + C_NORMAL_IMPULSE];
    if (maxF === 0 && o1 === 0 && o2 === 0) {
      // No normal force and no friction held: nothing to do (speculative contacts at rest).
      continue;
    }
    const rax = c[co + C_RAX], ray = c[co + C_RAX + 1], raz = c[co + C_RAX + 2];
    const rbx = c[co + C_RBX], rby = c[co + C_RBX + 1], rbz = c[co + C_RBX + 2];
    const dvx = vbx + (wby * rbz - wbz * rby) - vax - (way * raz - waz * ray);
    const dvy = vby + (wbz * rbx - wbx * rbz) - vay - (waz * rax - wax * raz);
    const dvz = vbz + (wbx * rby - wby * rbx) - vaz - (wax * ray - way * rax);
    const v1 = dvx * t1x + dvy * t1y + dvz * t1z;
    const v2 = dvx * t2x + dvy * t2y + dvz * t2z;
    const m11 = c[co + C_T1_MASS],
      m12 = c[co + C_T12_MASS],
      m22 = c[co + C_T2_MASS];
    let n1 = o1 - (m11 * v1 + m12 * v2);
    let n2 = o2 - (m12 * v1 + m22 * v2);
    const l2 = n1 * n1 + n2 * n2;
    if (l2 > maxF * maxF) {
      fr[0] = n1;
      fr[1] = n2;
      fr[2] = maxF;
      projectFriction(fr, c, co);
      n1 = fr[0];
      n2 = fr[1];
    }
    c[co + C_T1_IMPULSE] = n1;
    c[co + C_T2_IMPULSE] = n2;
    const d1 = n1 - o1,
      d2 = n2 - o2;
    const px = d1 * t1x + d2 * t2x, py = d1 * t1y + d2 * t2y, pz = d1 * t1z + d2 * t2z;
    vax -= mA * px; vay -= mA * py; vaz -= mA * pz;
    vbx += mB * px; vby += mB * py; vbz += mB * pz;
    let cx = ray * pz - raz * py, cy = raz * px - rax * pz, cz = rax * py - ray * px;
    wax -= iA0 * cx + iA3 * cy + iA4 * cz;
    way -= iA3 * cx + iA1 * cy + iA5 * cz;
    waz -= iA4 * cx + iA5 * cy + iA2 * cz;
    cx = rby * pz - rbz * py; cy = rbz * px - rbx * pz; cz = rbx * py - rby * px;
    wbx += iB0 * cx + iB3 * cy + iB4 * cz;
    wby += iB3 * cx + iB1 * cy + iB5 * cz;
    wbz += iB4 * cx + iB5 * cy + iB2 * cz;
  }
  vel[a3] = vax; vel[a3 + 1] = vay; vel[a3 + 2] = vaz;
  w[a3] = wax; w[a3 + 1] = way; w[a3 + 2] = waz;
  vel[b3] = vbx; vel[b3 + 1] = vby; vel[b3 + 2] = vbz;
  w[b3] = wbx; w[b3 + 1] = wby; w[b3 + 2] = wbz;
}

/**
 * Whether bodies a and b both move slower than {@link RESTING_SPEED} at every point (linear speed, and angular
 * speed times the body's radius: the sleep test's measure).
 */
function resting(bodies: BodySet, a: number, b: number): boolean {
  const v = bodies.vel,
    w = bodies.angVel,
    r = bodies.radius;
  const lim = RESTING_SPEED * RESTING_SPEED;
  for (let s = 0; s < 2; s++) {
    const i = s === 0 ? a : b,
      i3 = i * 3;
    if (v[i3] * v[i3] + v[i3 + 1] * v[i3 + 1] + v[i3 + 2] * v[i3 + 2] > lim) return false;
    if ((w[i3] * w[i3] + w[i3 + 1] * w[i3 + 1] + w[i3 + 2] * w[i3 + 2]) * r[i] * r[i] > lim) return false;
  }
  return true;
}

/**
 * Shock propagation's load transfer (ContactSolver.route): splits the load routeIO[0] (normal impulse, positive
 * pushes) whose first moment is routeIO[1..3] (sum of impulse times world point) over the contacts of support
 * manifold sm, into routeShare, with the same total and the same line of action in the contact plane, so the body
 * between gets neither force nor torque from the transfer. A load's moment is matched by the least-norm shares
 * g_j = f/n + d_j . x over the active contacts (d_j: offset from their centroid in the tangent plane, G x = moment,
 * G = sum d_j d_j^T); a share of the wrong sign (a load near one contact of a square asks the opposite one to pull)
 * (a routed part below zero) drops that contact from the active set, as an active-set non-negative least squares does (Lawson and Hanson).
 * A load outside the support polygon keeps what moment the contacts can take: the rest tips the body, as it should.
 */
function supportShares(hd: Float64Array, c: Float64Array, sm: number, cnt: number): void {
  const so = sm * HEADER;
  const t1x = hd[so + H_T1X], t1y = hd[so + H_T1X + 1], t1z = hd[so + H_T1X + 2];
  const t2x = hd[so + H_T2X], t2y = hd[so + H_T2X + 1], t2z = hd[so + H_T2X + 2];
  let active = (1 << cnt) - 1;
  for (let pass = 0; pass < 4; pass++) {
    // What the contacts held at their bound (all their routed part given back) leave to the active ones.
    let f = routeIO[0],
      fmx = routeIO[1],
      fmy = routeIO[2],
      fmz = routeIO[3];
    let na = 0,
      cx = 0,
      cy = 0,
      cz = 0;
    for (let k = 0; k < cnt; k++) {
      const co = (sm * 4 + k) * CONTACT;
      if ((active & (1 << k)) === 0) {
        const g = -hd[so + H_ROUTED + k];
        routeShare[k] = g;
        f -= g;
        fmx -= g * c[co + C_PX]; fmy -= g * c[co + C_PX + 1]; fmz -= g * c[co + C_PX + 2];
        continue;
      }
      na++;
      cx += c[co + C_PX]; cy += c[co + C_PX + 1]; cz += c[co + C_PX + 2];
    }
    if (na === 0) return;
    cx /= na; cy /= na; cz /= na;
    // The load's moment about the centroid, in the tangent plane.
    const ox = fmx - f * cx, oy = fmy - f * cy, oz = fmz - f * cz;
    const m1 = ox * t1x + oy * t1y + oz * t1z,
      m2 = ox * t2x + oy * t2y + oz * t2z;
    let g11 = 0, g12 = 0, g22 = 0;
    for (let k = 0; k < cnt; k++) {
      if ((active & (1 << k)) === 0) continue;
      const co = (sm * 4 + k) * CONTACT;
      const dx = c[co + C_PX] - cx, dy = c[co + C_PX + 1] - cy, dz = c[co + C_PX + 2] - cz;
      const d1 = dx * t1x + dy * t1y + dz * t1z,
        d2 = dx * t2x + dy * t2y + dz * t2z;
      g11 += d1 * d1; g12 += d1 * d2; g22 += d2 * d2;
    }
    const tr = g11 + g22;
    const det = g11 * g22 - g12 * g12;
    let x1 = 0,
      x2 = 0;
    if (det > 1e-6 * tr * tr) {
      x1 = (g22 * m1 - g12 * m2) / det;
      x2 = (g11 * m2 - g12 * m1) / det;
    } else if (tr > 1e-12) {
      // Contacts on a line: only the moment about it can be matched (G's pseudo-inverse, G = tr e e^T).
      let e1 = g11 >= g22 ? g11 : g12,
        e2 = g11 >= g22 ? g12 : g22;
      const el = Math.sqrt(e1 * e1 + e2 * e2);
      e1 /= el;
      e2 /= el;
      const me = (e1 * m1 + e2 * m2) / tr;
      x1 = me * e1;
      x2 = me * e2;
    }
    let worst = -1,
      worstShare = 0;
    for (let k = 0; k < cnt; k++) {
      if ((active & (1 << k)) === 0) continue;
      const co = (sm * 4 + k) * CONTACT;
      const dx = c[co + C_PX] - cx, dy = c[co + C_PX + 1] - cy, dz = c[co + C_PX + 2] - cz;
      const g = f / na + (dx * t1x + dy * t1y + dz * t1z) * x1 + (dx * t2x + dy * t2y + dz * t2z) * x2;
      routeShare[k] = g;
      // A contact cannot pass on more load than it carries: its routed part must stay non-negative.
      const wrong = -(hd[so + H_ROUTED + k] + g);
      if (wrong > worstShare) {
        worstShare = wrong;
        worst = k;
      }
    }
    if (worst < 0) return;
    active &= ~(1 << worst);
  }
}

/** The normal impulses of manifold i's n contacts, before a pass over a frozen manifold (see impulseChange). */
const savedImpulse = new Float64Array(4);
/** The frozen body's linear and angular velocity before that pass. */
const savedVelocity = new Float64Array(6);

/**
 * Before the normal rows of frozen manifold i run: saves its normal impulses and the frozen body's velocity (the
 * rows read it as zero, and the pass writes its locals back; ContactSolver.routeFrozen puts the velocity back).
 */
function saveFrozen(bodies: BodySet, c: Float64Array, i: number, n: number, body: number): void {
  for (let k = 0; k < n; k++) savedImpulse[k] = c[(i * 4 + k) * CONTACT + C_NORMAL_IMPULSE];
  const b3 = body * 3;
  for (let k = 0; k < 3; k++) {
    savedVelocity[k] = bodies.vel[b3 + k];
    savedVelocity[3 + k] = bodies.angVel[b3 + k];
  }
}

/**
 * What manifold i's rows added to its normal impulses since saveImpulses, as route() takes a load: the total in
 * routeIO[0] and its first moment (sum of impulse times contact point) in routeIO[1..3].
 */
function impulseChange(c: Float64Array, i: number, n: number): void {
  let f = 0, mx = 0, my = 0, mz = 0;
  for (let k = 0; k < n; k++) {
    const co = (i * 4 + k) * CONTACT;
    const d = c[co + C_NORMAL_IMPULSE] - savedImpulse[k];
    f += d;
    mx += d * c[co + C_PX]; my += d * c[co + C_PX + 1]; mz += d * c[co + C_PX + 2];
  }
  routeIO[0] = f; routeIO[1] = mx; routeIO[2] = my; routeIO[3] = mz;
}

/**
 * Rolling anchors: the relax pass measures a contact's separation from anchors fixed in the bodies, each side's
 * term n . (R l) = g . l (g = R^T n, the normal in the body's frame). On a round feature (roundFeature.ts) that
 * anchor turns with the body, and a wheel turning 0.08 rad a step lifted its rim anchor millimetres off the floor
 * within the step: the contact read a gap, stopped pushing, and the wheel sank and bounced (at 6 substeps a lone
 * wheel wandered 0.3 m sideways in 1 s). The support point of a sphere along the normal does not depend on its
 * orientation, nor that of a capsule or a cylinder's rim on a turn about its axis, so there the term is written
 * g . l + k f: with u the unit part of g0 (g at the start of the step) across the axis e (g0 itself on a sphere),
 * k = (l - centre) . u per contact, and per pass f = |g_perp| - g . u (|g_perp| = sqrt(1 - (g . e)^2), 1 on a
 * sphere). At the start f = 0 (the separation is continuous); as the body turns about e, g . l loses what k f
 * gives back, so the point stays the support across the axis (its tilt still moves it). Only points at that
 * support (l - centre across the axis within 2.6 degrees of u) roll: a cylinder's cap-face points, and any contact
 * whose normal runs along the axis, stay fixed in the body (an upright cylinder must tip on them).
 * A body-fixed anchor lifts r (1 - cos a) ~ r a^2 / 2 off the surface in a turn a: while that stays under
 * ROLL_LIFT for both bodies over the step (at their angular speeds at its start), the anchors stay fixed and the
 * relax pass skips the factors (a settling pile's round bodies turn slowly, and the factors' reads cost it ~5 %).
 * Otherwise this writes each side's kind, axis and u (header) and the contacts' k (C_KA, C_KB; prepare zeroed
 * them), from the poses at the start of the step, and returns 1; one more number per side and contact in the
 * relax pass's loop, no branch there.
 */
function rollingAnchors(bodies: BodySet, hd: Float64Array, c: Float64Array, i: number, a: number, b: number): number {
  const o = i * HEADER;
  const n = hd[o + H_COUNT];
  const r = hd[o + H_ROUND] - 1;
  const codeA = r % 5,
    codeB = (r - codeA) / 5;
  const w = bodies.angVel,
    radius = bodies.radius;
  const t = stepTime[0];
  let turning = 0;
  for (let side = 0; side < 2; side++) {
    if ((side === 0 ? codeA : codeB) === 0) continue;
    const body = side === 0 ? a : b,
      b3 = body * 3;
    const w2 = w[b3] * w[b3] + w[b3 + 1] * w[b3 + 1] + w[b3 + 2] * w[b3 + 2];
    if (radius[body] * w2 * t * t > 2 * ROLL_LIFT) turning = 1;
  }
  if (turning === 0) return 0;
  const nx = hd[o + H_NX],
    ny = hd[o + H_NX + 1],
    nz = hd[o + H_NX + 2];
  const rot = bodies.rot,
    lc = bodies.localCom;
  for (let side = 0; side < 2; side++) {
    const ho = o + (side === 0 ? H_RA : H_RB);
    hd[ho + R_U] = hd[ho + R_U + 1] = hd[ho + R_U + 2] = 0;
    const code = side === 0 ? codeA : codeB;
    const kind = code > 2 ? code - 2 : code;
    hd[ho] = kind;
    if (kind === ROUND_NONE) continue;
    if (code <= 2) {
      // A plain sphere, capsule or cylinder: its Y axis, centred at its origin.
      hd[ho + 1] = 0; hd[ho + 2] = 1; hd[ho + 3] = 0;
      hd[ho + 4] = 0; hd[ho + 5] = 0; hd[ho + 6] = 0;
    }
    const body = side === 0 ? a : b;
    // g0: n in the body's frame (its conjugate orientation applied).
    const q = body * 4;
    const qx = -rot[q], qy = -rot[q + 1], qz = -rot[q + 2], qw = rot[q + 3];
    const tx = 2 * (qy * nz - qz * ny), ty = 2 * (qz * nx - qx * nz), tz = 2 * (qx * ny - qy * nx);
    const gx = nx + qw * tx + (qy * tz - qz * ty),
      gy = ny + qw * ty + (qz * tx - qx * tz),
      gz = nz + qw * tz + (qx * ty - qy * tx);
    // The axis (none on a sphere) and the part of g0 across it.
    const sphere = kind === ROUND_SPHERE;
    const ex = sphere ? 0 : hd[ho + 1],
      ey = sphere ? 0 : hd[ho + 2],
      ez = sphere ? 0 : hd[ho + 3];
    const ge = gx * ex + gy * ey + gz * ez;
    const px = gx - ge * ex, py = gy - ge * ey, pz = gz - ge * ez;
    const gl2 = px * px + py * py + pz * pz;
    // The normal within 0.6 degree of the axis: nothing rolls.
    if (!(gl2 > 1e-4)) continue;
    const il = 1 / Math.sqrt(gl2);
    const ux = px * il, uy = py * il, uz = pz * il;
    hd[ho + R_U] = ux;
    hd[ho + R_U + 1] = uy;
    hd[ho + R_U + 2] = uz;
    // The feature's centre from the centre of mass.
    const b3 = body * 3;
    const cx = hd[ho + 4] - lc[b3],
      cy = hd[ho + 5] - lc[b3 + 1],
      cz = hd[ho + 6] - lc[b3 + 2];
    const lo = side === 0 ? C_LAX : C_LBX,
      ko = side === 0 ? C_KA : C_KB;
    for (let k = 0; k < n; k++) {
      const co = (i * 4 + k) * CONTACT;
      const lx = c[co + lo] - cx,
        ly = c[co + lo + 1] - cy,
        lz = c[co + lo + 2] - cz;
      const le = lx * ex + ly * ey + lz * ez;
      const rx = lx - le * ex, ry = ly - le * ey, rz = lz - le * ez;
      const d = rx * ux + ry * uy + rz * uz;
      if (d * d >= 0.998 * (rx * rx + ry * ry + rz * rz)) c[co + ko] = d;
    }
  }
  return 1;
}

/**
 * The largest lift (m) of a body-fixed anchor on a round feature over a step that the relax pass leaves unanswered
 * (rollingAnchors): a hundredth of a millimetre, far below any contact's spring sag, where the lift that stopped a
 * fast wheel's contact pushing was 3 mm.
 */
const ROLL_LIFT = 1e-5;
/** The step's length (prepare), for rollingAnchors (a double through a typed array: V8 boxes double arguments). */
const stepTime = new Float64Array(1);

/** Applies impulse P (p[0..2]) at the lever arms rA, rB in c[o..o+5]: A gets -P, B gets +P. */
function applyImpulse(
  invMass: Float64Array,
  inv: Float64Array,
  vel: Float64Array,
  w: Float64Array,
  a: number,
  b: number,
  c: Float64Array,
  co: number,
  p: Float64Array,
): void {
  const px = p[0],
    py = p[1],
    pz = p[2];
  const rax = c[co],
    ray = c[co + 1],
    raz = c[co + 2],
    rbx = c[co + 3],
    rby = c[co + 4],
    rbz = c[co + 5];
  const mA = invMass[a],
    mB = invMass[b];
  const a3 = a * 3,
    b3 = b * 3;
  vel[a3] -= mA * px;
  vel[a3 + 1] -= mA * py;
  vel[a3 + 2] -= mA * pz;
  vel[b3] += mB * px;
  vel[b3 + 1] += mB * py;
  vel[b3 + 2] += mB * pz;
  let cx = ray * pz - raz * py,
    cy = raz * px - rax * pz,
    cz = rax * py - ray * px;
  let o = a * 6;
  w[a3] -= inv[o] * cx + inv[o + 3] * cy + inv[o + 4] * cz;
  w[a3 + 1] -= inv[o + 3] * cx + inv[o + 1] * cy + inv[o + 5] * cz;
  w[a3 + 2] -= inv[o + 4] * cx + inv[o + 5] * cy + inv[o + 2] * cz;
  cx = rby * pz - rbz * py;
  cy = rbz * px - rbx * pz;
  cz = rbx * py - rby * px;
  o = b * 6;
  w[b3] += inv[o] * cx + inv[o + 3] * cy + inv[o + 4] * cz;
  w[b3 + 1] += inv[o + 3] * cx + inv[o + 1] * cy + inv[o + 5] * cz;
  w[b3 + 2] += inv[o + 4] * cx + inv[o + 5] * cy + inv[o + 2] * cz;
}
