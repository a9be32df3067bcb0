/**
 * The layout of the manifold store (contactCache.ts): a header of {@link HEADER} numbers per manifold and 4 contact
 * slots of {@link CONTACT} numbers per manifold, in two flat Float64Arrays. The cache writes the persistent fields
 * (keys, features, anchors, accumulated impulses), the constraints (contactConstraints.ts) the per-step ones; the
 * world's stages read a few through {@link HeaderField} and {@link ContactField}.
 */

/** Header fields per manifold. */
export const H_A = 0,
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
  H_ROLLING_RESISTANCE = 39, // the pair's rolling resistance coefficient (rollingResistance.ts)
  H_FROZEN = 40, // shock propagation: 1 or 2 when the normal rows treat A or B as fixed (see shockPropagation.ts)
  H_ROUTED = 41, // 4 numbers, one per contact: the part of its normal impulse routed from frozen loads above (route)
  // Rolling anchors (rollingAnchors.ts). H_ROLLING_ANCHORS: 1 when this step measures some side's separation on its round
  // feature (set by prepare). H_ROUND: the sides' round features, 0 while not known yet, else 1 + codeA + 5 codeB
  // (code: 0 none, 1 sphere, 2 capsule or cylinder, 3 and 4 the same as a compound's child), found once per manifold
  // key and copied on to the key's next manifolds. Per side (A at H_RA, B at H_RB): kind, axis (3) and centre (3)
  // in the body frame, then u (3); the axis and centre are copied on only for a compound's child (a plain shape's
  // are its Y axis and its origin, written by prepare).
  H_ROLLING_ANCHORS = 45,
  H_ROUND = 46,
  H_RA = 47,
  H_RB = 57,
  R_U = 7; // u's offset in a side's block
/** Header stride. */
export const HEADER = 67;

/**
 * Contact fields per contact slot. The normal row's fields come first, in the order the relax pass reads them
 * (the first 27 numbers); the friction row's and the events' fields follow.
 */
export const C_ANX = 0, // rA x n: A's angular Jacobian of the normal row (fixed for the step)
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
  // Rolling anchors (rollingAnchors.ts): per side a length k, the side's term of the separation being g . l + k f
  // (relax). 0 for a point fixed in its body.
  C_KA = 40,
  C_KB = 41,
  C_FEATURE = 42,
  C_PX = 43, // contact point at t0, world
  C_STICK = 46; // 1: the contact sticks (friction bounded by the static coefficient); 0: it slides
/** Contact stride. */
export const CONTACT = 47;

/** Surfaces this close (m) at the end of a step touch, for islands and contact events, even without impulse. */
export const TOUCH_TOLERANCE = 0.005;

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
