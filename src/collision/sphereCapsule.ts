import type { Pose } from "../math/pose";
import type { Capsule } from "../shapes/capsule";
import type { Sphere } from "../shapes/sphere";
import { CONTACT_POINT as CP, type ContactManifold } from "./contactManifold";

/**
 * Sphere (A) vs capsule (B): the closest point of the capsule's core segment to the sphere centre
 * (Ericson, RTCD 5.1.2), then a sphere-sphere contact against that point. One contact, id 0.
 */
export function collideSphereCapsule(
  a: Sphere,
  pa: Pose,
  b: Capsule,
  pb: Pose,
  speculativeMargin: number | undefined,
  out: ContactManifold,
): void {
  out.begin(speculativeMargin);
  const margin = out.margin;
  const qx = pb.qx,
    qy = pb.qy,
    qz = pb.qz,
    qw = pb.qw;
  // Capsule axis (local +Y) in world: second column of its rotation matrix.
  const ux = 2 * (qx * qy - qw * qz);
  const uy = 1 - 2 * (qx * qx + qz * qz);
  const uz = 2 * (qy * qz + qw * qx);
  const h = b.halfLength;
  const rx = pa.px - pb.px,
    ry = pa.py - pb.py,
    rz = pa.pz - pb.pz;
  let t = rx * ux + ry * uy + rz * uz;
  if (t > h) t = h;
  else if (t < -h) t = -h;
  // Vector from sphere centre to the closest segment point.
  const dx = pb.px + ux * t - pa.px,
    dy = pb.py + uy * t - pa.py,
    dz = pb.pz + uz * t - pa.pz;
  const ra = a.radius,
    rb = b.radius;
  const d2 = dx * dx + dy * dy + dz * dz;
  const reach = ra + rb + margin;
  if (d2 > reach * reach) return;
  const dist = Math.sqrt(d2);
  let nx: number, ny: number, nz: number;
  if (dist > 1e-12) {
    const inv = 1 / dist;
    nx = dx * inv;
    ny = dy * inv;
    nz = dz * inv;
  } else {
    // Centre on the segment: push out along a direction perpendicular to the axis
    // (Duff et al. style branch on the largest-magnitude component keeps it well conditioned).
    if (Math.abs(ux) < 0.57735) {
      // u x X
      nx = 0;
      ny = uz;
      nz = -uy;
    } else {
      // u x Y
      nx = -uz;
      ny = 0;
      nz = ux;
    }
    const inv = 1 / Math.sqrt(nx * nx + ny * ny + nz * nz);
    nx *= inv;
    ny *= inv;
    nz *= inv;
  }
  const k = 0.5 * (ra - rb + dist);
  out.normalX = nx;
  out.normalY = ny;
  out.normalZ = nz;
  CP[0] = pa.px + nx * k;
  CP[1] = pa.py + ny * k;
  CP[2] = pa.pz + nz * k;
  CP[3] = ra + rb - dist;
  out.addPoint(CP, 0);
}
