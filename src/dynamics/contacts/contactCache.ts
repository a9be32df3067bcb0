/**
 * The contact cache: the persistent manifolds, one store of every pair's manifolds of the last step, matched by
 * key (the bodies' handles and the children's indices) when the narrow phase writes this step's, so each contact
 * with the same feature id warm starts from its accumulated impulses; and the body pair cache (Jolt's, with its
 * 1 mm / 2 degree limits) that keeps a pair's manifolds, their points fixed in the bodies, when the pair has hardly
 * moved since the narrow phase last ran on it. Snapshots keep the store (the manifolds the cache reuses next step);
 * the constraints (contactConstraints.ts) solve over it.
 */
import { grown } from "../../collections/growth";
import type { ContactManifold } from "../../collision/contactManifold";
import type { PairMaterial } from "../surfaceMaterial";
import type { BodySet } from "../bodySet";
import { ROUND_NONE, roundFeatureOf } from "./roundFeature";
import {
  CONTACT,
  C_ADJ_SEP,
  C_FEATURE,
  C_LAX,
  C_LBX,
  C_NORMAL_IMPULSE,
  C_PX,
  C_RAX,
  C_RBX,
  C_SEPARATION,
  C_STICK,
  C_T1_IMPULSE,
  C_T2_IMPULSE,
  C_TOTAL_IMPULSE,
  HEADER,
  H_A,
  H_B,
  H_CHILD_KEY,
  H_COUNT,
  H_DAMPING,
  H_FREQ,
  H_FRICTION,
  H_HANDLE_A,
  H_HANDLE_B,
  H_LNX,
  H_MARGIN,
  H_MAX_RECOVERY,
  H_NX,
  H_RA,
  H_RB,
  H_REL_PX,
  H_REL_QX,
  H_RESTITUTION,
  H_REST_THRESHOLD,
  H_REUSABLE,
  H_ROLLING_RESISTANCE,
  H_ROUND,
  H_ROUTED,
  H_STATIC_FRICTION,
  H_T1X,
  H_T2X,
  R_U,
  TOUCH_TOLERANCE,
} from "./manifoldLayout";

/**
 * The contact cache's limits (Jolt's PhysicsSettings mBodyPairCacheMaxDeltaPositionSq and
 * mBodyPairCacheCosMaxDeltaRotationDiv2): a pair whose relative pose has moved less than 1 mm and turned less
 * than 2 degrees since the narrow phase last ran on it keeps that manifold, its points fixed in the bodies.
 */
const REUSE_MAX_DELTA_POSITION_SQ = 1e-6;
const REUSE_COS_MAX_DELTA_ROTATION_DIV2 = 0.9998476951563913;
/** A store of manifolds (the solver writes a step's over the previous step's, see ContactCache.beginStep). */
export class ManifoldStore {
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
    this.header = grown(this.header, n * HEADER);
    this.bodyIndex = grown(this.bodyIndex, n * 2);
    this.contacts = grown(this.contacts, n * 4 * CONTACT);
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
   * header of the store they were moved to, see ContactCache.evict).
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

  /** The first manifold of the pair's reusable run (see ContactCache.markReusable), -1 if none; `moved` as in find. */
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

/** The contact cache: the step's manifolds, written over the previous step's (see {@link beginStep}). */
export class ContactCache {
  /** The manifolds: during the narrow phase this step's, written over the previous step's (see beginStep). */
  private cur = new ManifoldStore();
  /** Where a previous manifold goes when this step's would overwrite it before it is read (see evict). */
  private spare = new ManifoldStore();
  /** How many manifolds the previous step had, and per one of them: 1 once read this step, 1 once moved to spare. */
  private prevCount = 0;
  private consumed = new Uint8Array(64);
  private moved = new Uint8Array(64);
  /** Manifolds the contact cache reused this step, and how many of their contacts are apart. */
  reused = 0;
  speculativeReused = 0;
  /**
   * Whether some contact's impulse holds a part routed by shock propagation (shockPropagation.ts): the next
   * prepare strips it before routing again. State: it decides what the next step's warm start keeps.
   */
  routed = false;

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
  /** Dense body indices (a, b) per manifold of the current step, as int32. */
  get bodyIndex(): Int32Array {
    return this.cur.bodyIndex;
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
  hd[o + H_ROLLING_RESISTANCE] = mat.rollingResistance;
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
