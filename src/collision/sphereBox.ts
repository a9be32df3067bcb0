import type { Pose } from "../math/pose";
import type { Box } from "../shapes/box";
import type { Sphere } from "../shapes/sphere";
import { CONTACT_POINT as CP, type ContactManifold } from "./contactManifold";

const R = new Float64Array(9);
/** The sphere's centre in box space. */
const CENTRE = new Float64Array(3);

/**
 * Sphere (A) vs box (B). Outside: clamp the centre to the box in box space (Ericson, RTCD 5.1.3)
 * and take the offset as normal. Inside: push out through the nearest face. One contact, id 0.
 */
export function collideSphereBox(a: Sphere, pa: Pose, b: Box, pb: Pose, speculativeMargin: number | undefined, out: ContactManifold): void {
  out.begin(speculativeMargin);
  const margin = out.margin;
  // Sphere centre in box space: R^T (pa - pb).
  pb.localPositionOf(pa, R, CENTRE, 0);
  const cx = CENTRE[0], cy = CENTRE[1], cz = CENTRE[2];
  const hx = b.halfX,
    hy = b.halfY,
    hz = b.halfZ;
  const r = a.radius;
  // Closest box point (local).
  const qx = cx > hx ? hx : cx < -hx ? -hx : cx;
  const qy = cy > hy ? hy : cy < -hy ? -hy : cy;
  const qz = cz > hz ? hz : cz < -hz ? -hz : cz;
  // Local normal from A (sphere) toward B (box), and the box surface point (local).
  let lnx: number, lny: number, lnz: number;
  let sx = qx,
    sy = qy,
    sz = qz;
  let dist: number; // signed distance from the centre to the box surface (negative inside)
  const dx = qx - cx,
    dy = qy - cy,
    dz = qz - cz;
  const d2 = dx * dx + dy * dy + dz * dz;
  if (d2 > 1e-24) {
    const reach = r + margin;
    if (d2 > reach * reach) return;
    dist = Math.sqrt(d2);
    const inv = 1 / dist;
    lnx = dx * inv;
    lny = dy * inv;
    lnz = dz * inv;
  } else {
    // Centre inside (or on) the box: the face with the least penetration; ties go to x, then y.
    const ex = hx - Math.abs(cx),
      ey = hy - Math.abs(cy),
      ez = hz - Math.abs(cz);
    lnx = 0;
    lny = 0;
    lnz = 0;
    if (ex <= ey && ex <= ez) {
      const s = cx >= 0 ? 1 : -1;
      lnx = -s;
      sx = s * hx;
      dist = -ex;
    } else if (ey <= ez) {
      const s = cy >= 0 ? 1 : -1;
      lny = -s;
      sy = s * hy;
      dist = -ey;
    } else {
      const s = cz >= 0 ? 1 : -1;
      lnz = -s;
      sz = s * hz;
      dist = -ez;
    }
  }
  const nx = R[0] * lnx + R[1] * lny + R[2] * lnz;
  const ny = R[3] * lnx + R[4] * lny + R[5] * lnz;
  const nz = R[6] * lnx + R[7] * lny + R[8] * lnz;
  // Box surface point in world.
  const bx = pb.px + R[0] * sx + R[1] * sy + R[2] * sz;
  const by = pb.py + R[3] * sx + R[4] * sy + R[5] * sz;
  const bz = pb.pz + R[6] * sx + R[7] * sy + R[8] * sz;
  // Sphere surface point is pa + n*r; contact at the midpoint of the two.
  out.normalX = nx;
  out.normalY = ny;
  out.normalZ = nz;
  CP[0] = 0.5 * (pa.px + nx * r + bx);
  CP[1] = 0.5 * (pa.py + ny * r + by);
  CP[2] = 0.5 * (pa.pz + nz * r + bz);
  CP[3] = r - dist;
  out.addPoint(CP, 0);
}
