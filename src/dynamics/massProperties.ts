/**
 * Mass properties of shapes: mass, centre of mass and inertia tensor from density, and the principal
 * axes of a tensor (Jacobi eigen-decomposition). Not on the step's hot path.
 */
import { mat3ToQuat, rotateParts, type QuatLike } from "../math/quat";
import type { Vec3Like } from "../math/vec3";
import { childInertiaAboutOrigin, Compound } from "../shapes/compound";
import type { Shape } from "../shapes/shape";

/** Mass properties of a body about its centre of mass. */
export interface MassProperties {
  /** Mass in kg; 0 means infinite mass. */
  mass: number;
  /** Centre of mass in the body's local frame. */
  centerOfMass: Vec3Like;
  /**
   * Principal moments of inertia in kg m^2 (not per unit mass); a 0 component means infinite
   * inertia about that axis.
   */
  inertia: Vec3Like;
  /** Rotation from the principal axes to the body's local frame. */
  inertiaOrientation: QuatLike;
}

/** Mass properties in tensor form, as the body store keeps them (about the centre of mass, body frame). */
export class MassData {
  mass = 0;
  comX = 0;
  comY = 0;
  comZ = 0;
  /** Inertia tensor about the centre of mass (xx, yy, zz, xy, xz, yz), kg m^2. */
  readonly inertia = new Float64Array(6);
}

const scratch6 = new Float64Array(6);
const cen = { x: 0, y: 0, z: 0 };
/** A compound child's centroid turned into the compound frame. */
const turned = new Float64Array(3);

/**
 * Computes mass, centre of mass and inertia tensor (about the centre of mass, in the shape's frame) of a
 * shape of uniform `density`; compound children with their own density use it.
 */
export function computeMassData(shape: Shape | null, density: number, out: MassData): MassData {
  out.inertia.fill(0);
  out.comX = out.comY = out.comZ = 0;
  out.mass = 0;
  if (shape === null) return out;
  if (shape instanceof Compound) {
    // Sum children about the compound origin, then shift to the combined centre of mass.
    let m = 0,
      cx = 0,
      cy = 0,
      cz = 0;
    const acc = new Float64Array(6);
    for (const ch of shape.children) {
      const mc = ch.shape.volume() * (ch.density ?? density);
      childInertiaAboutOrigin(ch, scratch6);
      // The child's centroid c (a convex hull's is not at its origin), rotated into the compound frame.
      const p = ch.pose;
      ch.shape.centroid(cen);
      rotateParts(p.qx, p.qy, p.qz, p.qw, cen.x, cen.y, cen.z, turned, 0);
      const rx = turned[0],
        ry = turned[1],
        rz = turned[2];
      // childInertiaAboutOrigin shifts from the child's origin as if it were the centroid; the exact
      // shift (through the centroid) differs by 2 (Rc . p) E - (Rc p^T + p Rc^T).
      const rp = rx * p.px + ry * p.py + rz * p.pz;
      scratch6[0] += 2 * (rp - rx * p.px);
      scratch6[1] += 2 * (rp - ry * p.py);
      scratch6[2] += 2 * (rp - rz * p.pz);
      scratch6[3] -= rx * p.py + p.px * ry;
      scratch6[4] -= rx * p.pz + p.px * rz;
      scratch6[5] -= ry * p.pz + p.py * rz;
      for (let k = 0; k < 6; k++) acc[k] += mc * scratch6[k];
      m += mc;
      cx += mc * (p.px + rx);
      cy += mc * (p.py + ry);
      cz += mc * (p.pz + rz);
    }
    if (m > 0) {
      cx /= m;
      cy /= m;
      cz /= m;
    }
    out.mass = m;
    out.comX = cx;
    out.comY = cy;
    out.comZ = cz;
    out.inertia.set(acc);
    shiftToCentre(out.inertia, m, cx, cy, cz);
    return out;
  }
  const m = shape.volume() * density;
  out.mass = m;
  shape.unitInertia(out.inertia, 0);
  for (let k = 0; k < 6; k++) out.inertia[k] *= m;
  // Centre of mass at the shape's centroid (not at the origin for a convex hull); the inertia about the
  // origin is shifted to it by the parallel-axis theorem.
  shape.centroid(cen);
  const gx = cen.x,
    gy = cen.y,
    gz = cen.z;
  if (gx !== 0 || gy !== 0 || gz !== 0) {
    out.comX = gx;
    out.comY = gy;
    out.comZ = gz;
    shiftToCentre(out.inertia, m, gx, gy, gz);
  }
  return out;
}

/** Parallel axis from the origin to the centre of mass c: I (xx, yy, zz, xy, xz, yz) -= m (|c|^2 E - c c^T). */
function shiftToCentre(I: Float64Array, m: number, cx: number, cy: number, cz: number): void {
  I[0] -= m * (cy * cy + cz * cz);
  I[1] -= m * (cx * cx + cz * cz);
  I[2] -= m * (cx * cx + cy * cy);
  I[3] += m * cx * cy;
  I[4] += m * cx * cz;
  I[5] += m * cy * cz;
}

/**
 * Principal moments and axes of a symmetric tensor (xx, yy, zz, xy, xz, yz) by cyclic Jacobi rotations.
 * Writes the moments into `moments` (3) and the rotation from principal axes to the tensor's frame into
 * `orientation`. Moments are sorted in axis order of the rotated frame (not by size).
 */
export function principalAxes(t: ArrayLike<number>, moments: Float64Array, orientation: QuatLike): void {
  // a = symmetric matrix, v = accumulated rotation (columns = eigenvectors).
  const a = [
    [t[0], t[3], t[4]],
    [t[3], t[1], t[5]],
    [t[4], t[5], t[2]],
  ];
  const v = [
    [1, 0, 0],
    [0, 1, 0],
    [0, 0, 1],
  ];
  for (let sweep = 0; sweep < 50; sweep++) {
    const off = Math.abs(a[0][1]) + Math.abs(a[0][2]) + Math.abs(a[1][2]);
    const scale = Math.abs(a[0][0]) + Math.abs(a[1][1]) + Math.abs(a[2][2]);
    if (off <= 1e-15 * scale || off === 0) break;
    for (let p = 0; p < 2; p++) {
      for (let q = p + 1; q < 3; q++) {
        const apq = a[p][q];
        if (apq === 0) continue;
        // Rotation angle that zeroes a[p][q] (Golub & Van Loan, symmetric Schur decomposition).
        const theta = (a[q][q] - a[p][p]) / (2 * apq);
        const tt = (theta >= 0 ? 1 : -1) / (Math.abs(theta) + Math.sqrt(theta * theta + 1));
        const c = 1 / Math.sqrt(tt * tt + 1);
        const s = tt * c;
        for (let k = 0; k < 3; k++) {
          const akp = a[k][p],
            akq = a[k][q];
          a[k][p] = c * akp - s * akq;
          a[k][q] = s * akp + c * akq;
        }
        for (let k = 0; k < 3; k++) {
          const apk = a[p][k],
            aqk = a[q][k];
          a[p][k] = c * apk - s * aqk;
          a[q][k] = s * apk + c * aqk;
        }
        for (let k = 0; k < 3; k++) {
          const vkp = v[k][p],
            vkq = v[k][q];
          v[k][p] = c * vkp - s * vkq;
          v[k][q] = s * vkp + c * vkq;
        }
      }
    }
  }
  moments[0] = a[0][0];
  moments[1] = a[1][1];
  moments[2] = a[2][2];
  // Make v a proper rotation (det = +1).
  const det =
    v[0][0] * (v[1][1] * v[2][2] - v[1][2] * v[2][1]) -
    v[0][1] * (v[1][0] * v[2][2] - v[1][2] * v[2][0]) +
    v[0][2] * (v[1][0] * v[2][1] - v[1][1] * v[2][0]);
  if (det < 0) {
    v[0][2] = -v[0][2];
    v[1][2] = -v[1][2];
    v[2][2] = -v[2][2];
  }
  mat3ToQuat([v[0][0], v[0][1], v[0][2], v[1][0], v[1][1], v[1][2], v[2][0], v[2][1], v[2][2]], 0, orientation);
}
