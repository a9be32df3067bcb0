/**
 * The layout of the manifold store (contactCache.ts): a header of {@link HEADER} numbers per manifold and 4 contact
 * slots of {@link CONTACT} numbers per manifold, in two flat Float64Arrays: keys, features, anchors and accumulated
 * impulses, which the constraints (contactConstraints.ts) read once per step and write back once; the world's
 * stages read a few through {@link HeaderField} and {@link ContactField}.
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
  H_FREQ = 16,
  H_DAMPING = 17,
  H_HANDLE_A = 18,
  H_HANDLE_B = 19,
  H_CHILD_KEY = 20,
  // Contact cache (see findReusable): the normal in A's frame, B's pose relative to A's and the pair's margin
  // when the narrow phase made the manifold, and on the first manifold of a pair's run the run's length when the
  // pair may reuse it (0: not reusable, or not the run's first). These 12 numbers are copied as one block.
  H_LNX = 21,
  H_REL_PX = 24,
  H_REL_QX = 27,
  H_MARGIN = 31,
  H_REUSABLE = 32,
  H_STATIC_FRICTION = 33,
  H_ROLLING_RESISTANCE = 34, // the pair's rolling resistance coefficient (rollingResistance.ts)
  H_ROUTED = 35, // 4 numbers, one per contact: the part of its normal impulse routed from frozen loads above (route)
  // Rolling anchors (rollingAnchors.ts). H_ROUND: the sides' round features, 0 while not known yet, else
  // 1 + codeA + 5 codeB (code: 0 none, 1 sphere, 2 capsule or cylinder, 3 and 4 the same as a compound's child),
  // found once per manifold key and copied on to the key's next manifolds. Per side (A at H_RA, B at H_RB): kind,
  // axis (3) and centre (3) in the body frame, then u (3); the axis and centre are copied on only for a compound's
  // child (a plain shape's are its Y axis and its origin, written by prepare).
  H_ROUND = 39,
  H_RA = 40,
  H_RB = 50,
  R_U = 7; // u's offset in a side's block
/** Header stride. */
export const HEADER = 60;

/**
 * Contact fields per contact slot: what persists from step to step (anchors, features, accumulated impulses) and
 * what events read. The solver's per-step numbers live in its constraint arrays (constraintLayout.ts).
 */
export const C_LAX = 0, // anchor on A in A's frame (relative to its centre of mass)
  C_LBX = 3,
  C_RAX = 6, // lever arms at t0 (world)
  C_RBX = 9,
  C_ADJ_SEP = 12, // separation at t0; the anchors start at the contact point, so later it is this + n . (anchor B - anchor A)
  C_SEPARATION = 13, // the separation at the end of the step (the last relax pass's), for events and pins
  C_NORMAL_IMPULSE = 14,
  C_T1_IMPULSE = 15,
  C_T2_IMPULSE = 16,
  C_STICK = 17, // 1: the contact sticks (friction bounded by the static coefficient); 0: it slides
  C_TOTAL_IMPULSE = 18, // normal impulse summed over the step's substeps
  C_FEATURE = 19,
  C_PX = 20; // contact point at t0, world
/** Contact stride. */
export const CONTACT = 23;

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
