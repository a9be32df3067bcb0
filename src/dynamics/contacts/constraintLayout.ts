/**
 * The per-step contact constraints' layout (contactConstraints.ts): compact arrays of only what the solver passes
 * read, built once per step by prepare from the contact cache's manifolds and written back to them once at the end
 * (Box2D v3 keeps its persistent contacts apart from the per-step constraints the same way: b2PrepareContactsTask
 * and b2StoreImpulses; bepu's type batches hold only what a solve reads).
 *
 * Why: a manifold in the cache is 67 header numbers and 4 x 47 per contact, and every pass streamed it, so scenes
 * whose store falls out of L2 were memory-bound (a 5,050-box pyramid paid 3-4x more per contact point and pass
 * than a 210-box one). Here each pass reads its own narrow streams: the warm start only {@link PT}, the normal rows
 * {@link JN}, the friction rows {@link PT} and {@link FM}, the relax pass those and {@link GM}.
 *
 * The manifolds are laid out in the passes' order (constraintGraph.ts: colour by colour, then the overflow set), so
 * every pass streams these arrays front to back: slot j holds cache manifold {@link ConstraintArrays.manifold}[j],
 * its bodies are {@link ConstraintArrays.pair}[2j, 2j + 1], and its contact k is point j * 4 + k in every point
 * array, so a pass finds a slot's points without an index table; points past a manifold's count are never read.
 * What stays in the cache (the header's materials and round features, the contacts' world points) is read through
 * the map.
 */

/** Per point: lever arms, accumulated impulses, stick state and impact tracking (every pass). */
export const P_RAX = 0, // lever arm on A at t0 (world, from its centre of mass)
  P_RBX = 3,
  P_NI = 6, // accumulated normal impulse
  P_T1I = 7,
  P_T2I = 8,
  P_STICK = 9, // 1: bounded by the static friction coefficient (ContactCache's C_STICK)
  P_WARM = 10, // impact tracking: the normal impulse this substep was warm started with (-1: not tracked)
  P_IMPACT = 11; // impulse an impact substep added beyond its warm start, not to be re-applied
/** Point stride of {@link ConstraintArrays.pt}. */
export const PT = 12;

/** Per point: the normal row (the biased and the relax pass). */
export const J_ANX = 0, // rA x n: A's angular Jacobian (fixed for the step)
  J_BNX = 3, // rB x n
  J_IANX = 6, // IA (rA x n): A's angular velocity change per unit normal impulse
  J_IBNX = 9, // IB (rB x n)
  J_NM = 12, // normal effective mass
  J_SEP = 13, // current separation (set by each relax pass for the next substep)
  J_MAXNI = 14, // largest normal impulse this step (restitution: whether the contact pushed)
  J_RELVEL = 15; // normal velocity at the contact's first push this step (restitution)
/** Point stride of {@link ConstraintArrays.jn}. */
export const JN = 16;

/** Per point: the friction row's inverse 2x2 tangent mass and its eigenbasis (frictionProjection.ts). */
export const F_T1M = 0,
  F_T2M = 1,
  F_T12M = 2,
  F_E1X = 3,
  F_E1Y = 4;
/** Point stride of {@link ConstraintArrays.fm}. */
export const FM = 5;

/** Per point: the separation's geometry (the relax pass) and the step's summed normal impulse. */
export const G_ADJ = 0, // separation at t0 (the cache's C_ADJ_SEP): the separation is it + n . (anchor B - anchor A)
  G_LAX = 1, // anchor on A in A's frame (relative to its centre of mass)
  G_LBX = 4,
  G_KA = 7, // rolling anchors (rollingAnchors.ts): the side's term of the separation is g . l + k f
  G_KB = 8,
  G_TOTAL = 9; // normal impulse summed over the step's substeps (events)
/** Point stride of {@link ConstraintArrays.gm}. */
export const GM = 10;

/** Per manifold: the pair's frame, materials, softness and who gives way. */
export const M_NX = 0,
  M_T1X = 3,
  M_T2X = 6,
  M_COUNT = 9,
  M_FRICTION = 10,
  M_STATIC_FRICTION = 11,
  M_BIAS_RATE = 12,
  M_MASS_SCALE = 13,
  M_IMPULSE_SCALE = 14,
  M_MAX_RECOVERY = 15,
  M_FROZEN = 16, // shock propagation: 1 or 2 when the normal rows treat A or B as fixed (shockPropagation.ts)
  M_IMPACT = 17, // 1: 2+ contacts meeting an impact this step (the centroid pre-pass runs)
  M_ROLLING_ANCHORS = 18, // 1: some side's separation is measured on its round feature (rollingAnchors.ts)
  M_ROLLING_RESISTANCE = 19, // the pair's rolling resistance coefficient (rollingResistance.ts)
  M_CENTROID_MASS = 20, // normal effective mass at the contacts' centroid
  M_ROUTED = 21; // 4 numbers, per contact: the part of its normal impulse routed from frozen loads above
/** Manifold stride of {@link ConstraintArrays.mf}. */
export const MF = 25;

/**
 * Per slot with rolling anchors (M_ROLLING_ANCHORS): each side's round feature as rollingAnchors.ts left it in the
 * cache's header (kind, axis, u), copied here by prepare so that the relax pass reads the slot's own arrays only.
 */
export const RF_KIND = 0,
  RF_AXIS = 1,
  RF_U = 4,
  RF_SIDE = 7;
/** Slot stride of {@link ConstraintArrays.rf}: side A's {@link RF_SIDE} numbers, then side B's. */
export const RF = 2 * RF_SIDE;

/**
 * Per slot ({@link ConstraintArrays.kind}): who may solve it. A colour's slots of kind {@link SLOT_ANY_THREAD} go over
 * the worker pool's blocks; the others stay on the calling thread: {@link SLOT_CALLER} for a slot whose passes read
 * or write beyond its own two bodies and arrays (shock propagation routes into another slot, rolling resistance keeps
 * per-manifold state outside these arrays, a jointed body's relax-pass friction reads the joints' set), {@link SLOT_PIN_CANDIDATE} for a pin candidate, which the normal and relax passes visit last
 * (pinnedContacts.ts).
 */
export const SLOT_ANY_THREAD = 0,
  SLOT_PIN_CANDIDATE = 1,
  SLOT_CALLER = 2;

/** The step's constraint arrays (scratch: rebuilt by every prepare, never in snapshots). */
export class ConstraintArrays {
  pt = new Float64Array(0);
  jn = new Float64Array(0);
  fm = new Float64Array(0);
  gm = new Float64Array(0);
  mf = new Float64Array(0);
  /** Per slot: the round features of its rolling anchors ({@link RF} numbers; read where M_ROLLING_ANCHORS is 1). */
  rf = new Float64Array(0);
  /** Per slot: the dense body indices of its manifold, A then B (the cache's bodyIndex in slot order). */
  pair = new Int32Array(0);
  /** Per slot: its manifold's index in the contact cache (the constraint graph's order; identity when not coloured). */
  manifold = new Int32Array(0);
  /** Per slot: {@link SLOT_ANY_THREAD}, {@link SLOT_CALLER} or {@link SLOT_PIN_CANDIDATE}. */
  kind = new Uint8Array(0);
}
