import type { Pose } from "../math/pose";
import type { Sphere } from "../shapes/sphere";
import { CONTACT_POINT as CP, type ContactManifold } from "./contactManifold";

/**
 * Sphere vs sphere: one contact on the line of centres (Ericson, RTCD 4.3.1).
 * Speculative: the contact is kept while the gap is at most `speculativeMargin` (depth = -gap).
 */
export function collideSphereSphere(
  a: Sphere,
  pa: Pose,
  b: Sphere,
  pb: Pose,
  speculativeMargin: number | undefined,
  out: ContactManifold,
): void {
  out.begin(speculativeMargin);
  const margin = out.margin;
  const dx = pb.px - pa.px,
    dy = pb.py - pa.py,
    dz = pb.pz - pa.pz;
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
    // Coincident centres: any direction is correct; pick +Y so the result is deterministic.
    nx = 0;
    ny = 1;
    nz = 0;
  }
  const depth = ra + rb - dist;
  // Midpoint of the surface points pa + n*ra and pb - n*rb.
  const k = 0.5 * (ra - rb + dist);
  out.normalX = nx;
  out.normalY = ny;
  out.normalZ = nz;
  CP[0] = pa.px + nx * k;
  CP[1] = pa.py + ny * k;
  CP[2] = pa.pz + nz * k;
  CP[3] = depth;
  out.addPoint(CP, 0);
}
