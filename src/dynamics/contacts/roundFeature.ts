/**
 * Which part of a body a contact may roll on: the round feature of a sphere, capsule or cylinder (itself or a
 * compound's child), for the contact solver's rolling separation (ContactConstraints.prepare and relax).
 *
 * The solver measures a contact's separation during the step from anchors fixed in the bodies (Box2D v3's
 * current separation). A round body rolling turns its anchor away from the surface: a wheel turning 0.08 rad a
 * step lifts a rim anchor r (1 - cos 0.08), millimetres, and the contact reads a gap that is not there and stops
 * pushing within the step. But the support point of a sphere along the normal does not depend on its
 * orientation, nor that of a capsule or a cylinder's rim on a turn about its axis; so on such a feature the
 * anchor follows the feature's centre and axis only.
 */
import type { Shape } from "../../shapes/shape";
import { ShapeType } from "../../shapes/shapeType";
import type { Compound } from "../../shapes/compound";
import type { BodySet } from "../bodySet";

/** No round feature: the anchor is fixed in the body. */
export const ROUND_NONE = 0;
/** A sphere: the support point along any direction is the centre plus the radius along it. */
export const ROUND_SPHERE = 1;
/** Round about an axis (capsule, cylinder): a turn about the axis leaves the support point where it is. */
export const ROUND_AXIS = 2;

/**
 * Writes the round feature of child `child` of body i's shape (the child index of a compound; ignored for other
 * shapes) to out[o..o+6]: its kind (ROUND_*), its axis in the body frame (3; the local Y of a capsule or
 * cylinder) and its centre in the body frame, relative to the body's origin (3; the caller subtracts the centre
 * of mass, which mass overrides may move). Depends on the shape alone, so the solver finds it once per manifold
 * key and keeps it while the manifold lives. Returns 1 for a compound's child (posed in the body), else 0 (a
 * shape's own axis and origin).
 */
export function roundFeatureOf(bodies: BodySet, i: number, child: number, out: Float64Array, o: number): number {
  let s: Shape | null = bodies.shape[i];
  // A plain shape's feature: its own Y axis, centred at its origin.
  let cx = 0, cy = 0, cz = 0, ax = 0, ay = 1, az = 0, posed = 0;
  if (s !== null && s.type === ShapeType.Compound) {
    posed = 1;
    const ch = (s as Compound).children[child];
    s = ch === undefined ? null : ch.shape;
    if (ch !== undefined) {
      const p = ch.pose;
      cx = p.px;
      cy = p.py;
      cz = p.pz;
      // The child's local Y in the compound's frame: the second column of its rotation matrix.
      ax = 2 * (p.qx * p.qy - p.qw * p.qz);
      ay = 1 - 2 * (p.qx * p.qx + p.qz * p.qz);
      az = 2 * (p.qy * p.qz + p.qw * p.qx);
    }
  }
  const t = s === null ? -1 : s.type;
  out[o] = t === ShapeType.Sphere ? ROUND_SPHERE : t === ShapeType.Capsule || t === ShapeType.Cylinder ? ROUND_AXIS : ROUND_NONE;
  out[o + 1] = ax;
  out[o + 2] = ay;
  out[o + 3] = az;
  out[o + 4] = cx;
  out[o + 5] = cy;
  out[o + 6] = cz;
  return posed;
}
