/**
 * Rolling anchors: the relax pass's separation of a contact on a round feature (a sphere, a capsule's or a
 * cylinder's rim) follows the feature's support, not the body's turn. Not rolling resistance (rollingResistance.ts).
 */
import type { BodySet } from "../bodySet";
import { ROUND_NONE, ROUND_SPHERE } from "./roundFeature";
import { GM, G_KA, G_KB, G_LAX, G_LBX, RF, RF_AXIS, RF_KIND, RF_SIDE, RF_U } from "./constraintLayout";
import {
  HEADER,
  H_COUNT,
  H_NX,
  H_RA,
  H_RB,
  H_ROUND,
} from "./manifoldLayout";


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
 * Otherwise this writes each side's kind, axis and u (slot i's RF numbers, which the relax pass reads) and the
 * contacts' k (G_KA, G_KB; prepare zeroed them), from the poses at the start of the step, and returns 1; one more number per side and contact in the
 * relax pass's loop, no branch there. Cache manifold ci's header, slot i's geometry (constraintLayout.ts).
 */
export function rollingAnchors(bodies: BodySet, hd: Float64Array, ci: number, gm: Float64Array, rf: Float64Array, i: number, a: number, b: number): number {
  const o = ci * HEADER;
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
    const ho = o + (side === 0 ? H_RA : H_RB),
      ro = i * RF + side * RF_SIDE;
    rf[ro + RF_U] = rf[ro + RF_U + 1] = rf[ro + RF_U + 2] = 0;
    const code = side === 0 ? codeA : codeB;
    const kind = code > 2 ? code - 2 : code;
    rf[ro + RF_KIND] = kind;
    if (kind === ROUND_NONE) continue;
    if (code <= 2) {
      // A plain sphere, capsule or cylinder: its Y axis, centred at its origin.
      hd[ho + 1] = 0; hd[ho + 2] = 1; hd[ho + 3] = 0;
      hd[ho + 4] = 0; hd[ho + 5] = 0; hd[ho + 6] = 0;
    }
    for (let d = 0; d < 3; d++) rf[ro + RF_AXIS + d] = hd[ho + 1 + d];
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
    rf[ro + RF_U] = ux;
    rf[ro + RF_U + 1] = uy;
    rf[ro + RF_U + 2] = uz;
    // The feature's centre from the centre of mass.
    const b3 = body * 3;
    const cx = hd[ho + 4] - lc[b3],
      cy = hd[ho + 5] - lc[b3 + 1],
      cz = hd[ho + 6] - lc[b3 + 2];
    const lo = side === 0 ? G_LAX : G_LBX,
      ko = side === 0 ? G_KA : G_KB;
    for (let k = 0; k < n; k++) {
      const go = (i * 4 + k) * GM;
      const lx = gm[go + lo] - cx,
        ly = gm[go + lo + 1] - cy,
        lz = gm[go + lo + 2] - cz;
      const le = lx * ex + ly * ey + lz * ez;
      const rx = lx - le * ex, ry = ly - le * ey, rz = lz - le * ez;
      const d = rx * ux + ry * uy + rz * uz;
      if (d * d >= 0.998 * (rx * rx + ry * ry + rz * rz)) gm[go + ko] = d;
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
export const stepTime = new Float64Array(1);
