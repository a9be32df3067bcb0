import { Pose } from "../math/pose";
import type { QuatLike } from "../math/quat";
import type { Vec3Like } from "../math/vec3";
import { Box } from "./box";
import { Capsule } from "./capsule";
import { ConvexHull } from "./convexHull";
import { Cylinder } from "./cylinder";
import { ConvexShape, Shape } from "./shape";
import { ShapeType } from "./shapeType";
import { Sphere } from "./sphere";
import { requireFinite } from "./validate";
import { rotateSymmetric } from "../math/symmetric";

const QSCRATCH = new Float64Array(4);

/** A child of a compound: a convex shape at a local pose, with an optional density of its own. */
export interface CompoundChildDescription {
  /** The child's shape: a convex shape, or a compound whose children are flattened into this one. */
  shape: Shape;
  /** Position in the compound's frame (default origin). */
  position?: Vec3Like;
  /** Orientation in the compound's frame (default identity). */
  orientation?: QuatLike;
  /** Scale applied in the child's own frame before its pose (default 1, 1, 1); baked into the child shape. */
  scale?: Vec3Like;
  /** Density of this child in kg/m^3; when omitted the body's density is used. */
  density?: number;
  /**
   * A trigger child (default false): it reports overlaps as trigger events and never makes contacts, so it
   * neither stops nor deflects what it touches (Havok's trigger shapes inside a compound). A compound child
   * marked as a trigger makes all its children triggers.
   */
  isTrigger?: boolean;
}

/** A flattened compound child: a convex shape and its pose in the compound's frame. */
export class CompoundChild {
  constructor(
    readonly shape: ConvexShape,
    readonly pose: Pose,
    readonly density: number | undefined,
    /** See {@link CompoundChildDescription.isTrigger}. */
    readonly isTrigger = false,
  ) {}
}

/**
 * Scales a convex shape in its own frame. Boxes scale exactly; spheres take the largest scale
 * component; capsules and cylinders scale their radius by the larger of x and z and their length by y;
 * convex hulls scale their vertices (exact for any non-uniform scale: the hull of the scaled points).
 * A negative component mirrors: hulls mirror their vertices (the hull of the mirrored points, so its faces
 * still wind outward); boxes, spheres, capsules and cylinders are symmetric about their own axes' planes,
 * so only the magnitude matters.
 */
export function scaleConvex(shape: ConvexShape, sx: number, sy: number, sz: number): ConvexShape {
  if (shape instanceof ConvexHull) return sx === 1 && sy === 1 && sz === 1 ? shape : scaleHull(shape, sx, sy, sz);
  sx = Math.abs(sx);
  sy = Math.abs(sy);
  sz = Math.abs(sz);
  if (sx === 1 && sy === 1 && sz === 1) return shape;
  if (shape instanceof Box) return new Box(shape.halfX * sx, shape.halfY * sy, shape.halfZ * sz);
  if (shape instanceof Sphere) return new Sphere(shape.radius * Math.max(sx, sy, sz));
  if (shape instanceof Capsule) return new Capsule(shape.radius * Math.max(sx, sz), shape.halfLength * sy);
  if (shape instanceof Cylinder) return new Cylinder(shape.radius * Math.max(sx, sz), shape.halfHeight * sy);
  throw new TypeError(`scaleConvex: unsupported shape type ${shape.type}`);
}

function scaleHull(shape: ConvexHull, sx: number, sy: number, sz: number): ConvexHull {
  const v = shape.vertices;
  const scaled = new Float64Array(v.length);
  for (let i = 0; i < v.length; i += 3) {
    scaled[i] = v[i] * sx;
    scaled[i + 1] = v[i + 1] * sy;
    scaled[i + 2] = v[i + 2] * sz;
  }
  return new ConvexHull(scaled);
}

/**
 * A rigid union of convex children, each at a local pose. Nested compounds are flattened on
 * construction, so narrow-phase code sees one level of children.
 */
export class Compound extends Shape {
  readonly type = ShapeType.Compound;
  readonly children: readonly CompoundChild[];
  readonly maximumRadius: number;
  readonly minimumRadius = 0;
  /** Number of trigger children (see {@link CompoundChildDescription.isTrigger}). */
  readonly triggerChildCount: number;
  private readonly scratchPose = new Pose();

  constructor(children: readonly CompoundChildDescription[]) {
    super();
    const flat: CompoundChild[] = [];
    for (let i = 0; i < children.length; i++) {
      const c = children[i];
      if (!c || !(c.shape instanceof Shape)) {
        throw new TypeError(`children[${i}].shape must be a Shape, got ${String(c?.shape)}`);
      }
      flattenInto(flat, c, i, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, c.density, c.isTrigger === true);
    }
    this.children = flat;
    let triggers = 0;
    for (const ch of flat) if (ch.isTrigger) triggers++;
    this.triggerChildCount = triggers;
    let maxR = 0;
    for (const ch of flat) {
      const d = Math.sqrt(ch.pose.px * ch.pose.px + ch.pose.py * ch.pose.py + ch.pose.pz * ch.pose.pz);
      maxR = Math.max(maxR, d + ch.shape.maximumRadius);
    }
    this.maximumRadius = maxR;
  }

  computeAabb(pose: Pose, out: Float64Array, o: number): void {
    if (this.children.length === 0) {
      out[o] = out[o + 3] = pose.px;
      out[o + 1] = out[o + 4] = pose.py;
      out[o + 2] = out[o + 5] = pose.pz;
      return;
    }
    let minX = Infinity,
      minY = Infinity,
      minZ = Infinity,
      maxX = -Infinity,
      maxY = -Infinity,
      maxZ = -Infinity;
    const p = this.scratchPose;
    for (const ch of this.children) {
      const cp = ch.pose;
      p.compose(pose, cp.px, cp.py, cp.pz, cp.qx, cp.qy, cp.qz, cp.qw);
      ch.shape.computeAabb(p, out, o);
      if (out[o] < minX) minX = out[o];
      if (out[o + 1] < minY) minY = out[o + 1];
      if (out[o + 2] < minZ) minZ = out[o + 2];
      if (out[o + 3] > maxX) maxX = out[o + 3];
      if (out[o + 4] > maxY) maxY = out[o + 4];
      if (out[o + 5] > maxZ) maxZ = out[o + 5];
    }
    out[o] = minX;
    out[o + 1] = minY;
    out[o + 2] = minZ;
    out[o + 3] = maxX;
    out[o + 4] = maxY;
    out[o + 5] = maxZ;
  }

  volume(): number {
    let v = 0;
    for (const ch of this.children) v += ch.shape.volume();
    return v;
  }

  /** Per-unit-mass inertia about the local origin, children weighted by volume (uniform density). */
  unitInertia(out: Float64Array, o: number): void {
    const t = new Float64Array(6);
    const acc = new Float64Array(6);
    let total = 0;
    for (const ch of this.children) {
      const m = ch.shape.volume();
      childInertiaAboutOrigin(ch, t);
      for (let k = 0; k < 6; k++) acc[k] += m * t[k];
      total += m;
    }
    for (let k = 0; k < 6; k++) out[o + k] = total > 0 ? acc[k] / total : 0;
  }
}

/**
 * Writes the inertia tensor per unit mass of a child about the compound's origin: the child's own
 * tensor rotated into the compound frame (R I R^T) plus the parallel-axis term.
 */
export function childInertiaAboutOrigin(ch: CompoundChild, out: Float64Array): void {
  const l = new Float64Array(6);
  ch.shape.unitInertia(l, 0);
  const p = ch.pose;
  const q = QSCRATCH;
  q[0] = p.qx;
  q[1] = p.qy;
  q[2] = p.qz;
  q[3] = p.qw;
  rotateSymmetric(l, 0, q, 0, out, 0);
  const x = p.px,
    y = p.py,
    z = p.pz;
  // Parallel axis: I += (|d|^2 E - d d^T) per unit mass.
  out[0] += y * y + z * z;
  out[1] += x * x + z * z;
  out[2] += x * x + y * y;
  out[3] -= x * y;
  out[4] -= x * z;
  out[5] -= y * z;
}


function flattenInto(
  out: CompoundChild[],
  c: CompoundChildDescription,
  index: number,
  ppx: number,
  ppy: number,
  ppz: number,
  pqx: number,
  pqy: number,
  pqz: number,
  pqw: number,
  psx: number,
  psy: number,
  psz: number,
  density: number | undefined,
  trigger: boolean,
): void {
  const pos = c.position ?? { x: 0, y: 0, z: 0 };
  const rot = c.orientation ?? { x: 0, y: 0, z: 0, w: 1 };
  const sc = c.scale ?? { x: 1, y: 1, z: 1 };
  for (const [k, v] of [
    ["position.x", pos.x],
    ["position.y", pos.y],
    ["position.z", pos.z],
    ["orientation.x", rot.x],
    ["orientation.y", rot.y],
    ["orientation.z", rot.z],
    ["orientation.w", rot.w],
    ["scale.x", sc.x],
    ["scale.y", sc.y],
    ["scale.z", sc.z],
  ] as const) {
    requireFinite(`children[${index}].${k}`, v);
  }
  if (sc.x === 0 || sc.y === 0 || sc.z === 0) {
    throw new RangeError(`children[${index}].scale must be non-zero, got (${sc.x}, ${sc.y}, ${sc.z})`);
  }
  if (density !== undefined && !(Number.isFinite(density) && density >= 0)) {
    throw new RangeError(`children[${index}].density must be a finite number >= 0, got ${String(density)}`);
  }
  // The parent's scale acts on this child's position; parent scale applies along parent axes.
  const parent = new Pose().set(ppx, ppy, ppz, pqx, pqy, pqz, pqw);
  const ql = Math.sqrt(rot.x * rot.x + rot.y * rot.y + rot.z * rot.z + rot.w * rot.w) || 1;
  // A parent scale with negative components (signs D, a mirror when det D < 0) turns this child's frame R
  // into D R, no rotation when mirroring. D R S = (D R D)(D S) with D D = I: the child takes the rotation
  // D R D and the signed scale D |Sp| S, the product the code passes on anyway. D R D rotates by the same
  // angle about the axis det(D) D a.
  const dx = psx < 0 ? -1 : 1,
    dy = psy < 0 ? -1 : 1,
    dz = psz < 0 ? -1 : 1;
  const det = dx * dy * dz;
  const world = new Pose().compose(
    parent,
    pos.x * psx,
    pos.y * psy,
    pos.z * psz,
    (det * dx * rot.x) / ql,
    (det * dy * rot.y) / ql,
    (det * dz * rot.z) / ql,
    rot.w / ql,
  );
  // Scale composes per-axis; exact for axis-aligned children, the documented approximation otherwise.
  const sx = sc.x * psx,
    sy = sc.y * psy,
    sz = sc.z * psz;
  if (c.shape instanceof Compound) {
    for (const g of c.shape.children) {
      const gp = g.pose;
      flattenInto(
        out,
        { shape: g.shape, position: { x: gp.px, y: gp.py, z: gp.pz }, orientation: { x: gp.qx, y: gp.qy, z: gp.qz, w: gp.qw } },
        index,
        world.px,
        world.py,
        world.pz,
        world.qx,
        world.qy,
        world.qz,
        world.qw,
        sx,
        sy,
        sz,
        g.density ?? density,
        trigger || g.isTrigger,
      );
    }
    return;
  }
  if (!(c.shape instanceof ConvexShape)) {
    throw new TypeError(`children[${index}].shape must be convex or a compound, got type ${c.shape.type}`);
  }
  out.push(new CompoundChild(scaleConvex(c.shape, sx, sy, sz), world, density, trigger));
}
