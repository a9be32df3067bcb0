/**
 * A one-axis separation test for a broad-phase pair before its narrow phase: the gap between two convex
 * primitives along the line through their centres of mass.
 *
 * Any axis n bounds the distance between two convex shapes from below by the gap between their projections,
 * (cB - cA).n - hA(n) - hB(-n), h the support (half-extent) of a shape along a direction measured from its
 * centre of mass (the separating axis theorem; Ericson, "Real-Time Collision Detection", 5.2.1). The line through
 * the centres is the natural first axis to try (it is the axis of the bounding-sphere test, with each shape's
 * true extent along it instead of its radius): a pair of boxes, capsules or cylinders whose bounds overlap only
 * at their corners is usually apart along it by more than the margin, so its tester (SAT, segment-box, GJK) need
 * not run. Only spheres, capsules, cylinders and boxes are tried (their supports are a few operations; a hull's
 * is a scan, and other shapes are not convex): for other shapes the caller runs the tester.
 */
import type { ConvexShape, Shape } from "../shapes/shape";
import { ShapeType } from "../shapes/shapeType";

/**
 * True when the shapes of bodies ia and ib are farther apart than `margins[ia] + margins[ib]` along the line
 * through their centres of mass (so they have no contact, speculative ones included). False when they may be
 * nearer, when the centres coincide, or when a shape is not a sphere, capsule, cylinder or box.
 *
 * Arrays as in the body set: centre of mass `pos` (3 per body), orientation `rot` (4), local centre of mass
 * `localCom` (3; the shape's origin is pos - rot(localCom)), speculative `margins` (1). Indices, not doubles,
 * are passed (docs/design.md).
 */
export function apartAlongCentreLine(
  shapeA: Shape,
  shapeB: Shape,
  pos: Float64Array,
  rot: Float64Array,
  localCom: Float64Array,
  margins: Float64Array,
  ia: number,
  ib: number,
): boolean {
  if (shapeA.type > ShapeType.Box || shapeB.type > ShapeType.Box) return false;
  const a3 = ia * 3,
    b3 = ib * 3;
  const nx = pos[b3] - pos[a3],
    ny = pos[b3 + 1] - pos[a3 + 1],
    nz = pos[b3 + 2] - pos[a3 + 2];
  const d = Math.sqrt(nx * nx + ny * ny + nz * nz);
  if (!(d > 1e-9)) return false;
  const n = scratch;
  n[0] = nx / d;
  n[1] = ny / d;
  n[2] = nz / d;
  extentAbout(shapeA as ConvexShape, rot, localCom, ia, 1);
  const hA = n[3];
  extentAbout(shapeB as ConvexShape, rot, localCom, ib, -1);
  return d - hA - n[3] > margins[ia] + margins[ib];
}

/** The line's unit direction (0-2) and the last extent (3): passed through memory, not as call arguments. */
const scratch = new Float64Array(4);

/**
 * The support of body i's shape along sign x the scratch direction, measured from the body's centre of mass,
 * into scratch[3]. Doubles go through arrays (the direction, the shape's support point and radii), never
 * through arguments or results (docs/design.md; ConvexShape.supportCoreInto).
 */
function extentAbout(shape: ConvexShape, rot: Float64Array, localCom: Float64Array, i: number, sign: number): void {
  const nx = sign * scratch[0],
    ny = sign * scratch[1],
    nz = sign * scratch[2];
  const q = i * 4;
  const qx = rot[q],
    qy = rot[q + 1],
    qz = rot[q + 2],
    qw = rot[q + 3];
  // n in the body's frame (rotated by the conjugate orientation).
  const tx = 2 * (qz * ny - qy * nz),
    ty = 2 * (qx * nz - qz * nx),
    tz = 2 * (qy * nx - qx * ny);
  const l = localDir;
  const lx = nx + qw * tx - (qy * tz - qz * ty),
    ly = ny + qw * ty - (qz * tx - qx * tz),
    lz = nz + qw * tz - (qx * ty - qy * tx);
  l[0] = lx;
  l[1] = ly;
  l[2] = lz;
  // The core's farthest point along l, plus the rounding radius (spheres, capsules), is the shape's support.
  const p = coreSupport;
  shape.supportCoreInto(l, p);
  shape.radiiInto(radii, 0);
  // From the shape's origin to the centre of mass: the origin is the centre minus the local centre of mass
  // (both in the body's frame, where n is l), so the support about the centre is h - localCom.l.
  const c3 = i * 3;
  scratch[3] = p[0] * lx + p[1] * ly + p[2] * lz + radii[0] - (localCom[c3] * lx + localCom[c3 + 1] * ly + localCom[c3 + 2] * lz);
}

/** The direction in the body's frame, the core's support point along it, and the shape's radii (core, maximum). */
const localDir = new Float64Array(3);
const coreSupport = new Float64Array(3);
const radii = new Float64Array(2);
