import type { Pose } from "../math/pose";
import type { Sphere } from "../shapes/sphere";
import { CONTACT_POINT as CP, type ContactManifold } from "./contactManifold";

/** addSphereContact's input: A-to-B vector (0..2), normal for coincident centres (3..5), radii A and B (6, 7). */
export const SPHERE_PAIR = new Float64Array(8);

/**
 * Sphere vs sphere: one contact on the line of centres (Ericson, RTCD 4.3.1).
 * Speculative: the contact is kept while the gap is at most `speculativeMargin` (depth = -gap).
 */
export function collideSphereSphere(a: Sphere, pa: Pose, b: Sphere, pb: Pose, speculativeMargin: number | undefined, out: ContactManifold): void {
  out.begin(speculativeMargin);
  const D = SPHERE_PAIR;
  D[0] = pb.px - pa.px;
  D[1] = pb.py - pa.py;
  D[2] = pb.pz - pa.pz;
  // Coincident centres: any direction is correct; +Y so that the result is deterministic.
  D[3] = 0;
  D[4] = 1;
  D[5] = 0;
  D[6] = a.radius;
  D[7] = b.radius;
  addSphereContact(out, pa, D);
}

/**
 * The contact of a sphere centred at pa and one centred at pa + D[0..2] (radii D[6], D[7]) on the line of
 * centres, kept while the gap is at most the manifold's margin (depth = -gap); D[3..5] is the unit normal
 * when the centres coincide. Sphere-capsule uses it against the capsule core's closest point. One contact, id 0.
 */
export function addSphereContact(out: ContactManifold, pa: Pose, D: Float64Array): void {
  const dx = D[0],
    dy = D[1],
    dz = D[2];
  const ra = D[6],
    rb = D[7];
  const d2 = dx * dx + dy * dy + dz * dz;
  const reach = ra + rb + out.margin;
  if (d2 > reach * reach) return;
  const dist = Math.sqrt(d2);
  let nx = D[3],
    ny = D[4],
    nz = D[5];
  if (dist > 1e-12) {
    const inv = 1 / dist;
    nx = dx * inv;
    ny = dy * inv;
    nz = dz * inv;
  }
  // Midpoint of the surface points pa + n ra and pa + d - n rb.
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
