import type { Pose } from "../math/pose";
import type { Capsule } from "../shapes/capsule";
import type { Sphere } from "../shapes/sphere";
import type { ContactManifold } from "./contactManifold";
import { addSphereContact, SPHERE_PAIR } from "./sphereSphere";
import { perpendicularTo } from "../math/vec3";

/** The capsule's axis in world. */
const AXIS = new Float64Array(3);

/**
 * Sphere (A) vs capsule (B): the closest point of the capsule's core segment to the sphere centre
 * (Ericson, RTCD 5.1.2), then a sphere-sphere contact against that point (addSphereContact). One contact, id 0.
 */
export function collideSphereCapsule(a: Sphere, pa: Pose, b: Capsule, pb: Pose, speculativeMargin: number | undefined, out: ContactManifold): void {
  out.begin(speculativeMargin);
  pb.axisY(AXIS, 0);
  const ux = AXIS[0], uy = AXIS[1], uz = AXIS[2];
  const h = b.halfLength;
  const rx = pa.px - pb.px,
    ry = pa.py - pb.py,
    rz = pa.pz - pb.pz;
  let t = rx * ux + ry * uy + rz * uz;
  if (t > h) t = h;
  else if (t < -h) t = -h;
  const D = SPHERE_PAIR;
  // Vector from sphere centre to the closest segment point.
  D[0] = pb.px + ux * t - pa.px;
  D[1] = pb.py + uy * t - pa.py;
  D[2] = pb.pz + uz * t - pa.pz;
  // Centre on the segment: push out along a direction perpendicular to the axis
  // (Duff et al. style branch on the largest-magnitude component keeps it well conditioned).
  perpendicularTo(AXIS, 0, D, 3);
  const inv = 1 / Math.sqrt(D[3] * D[3] + D[4] * D[4] + D[5] * D[5]);
  D[3] *= inv;
  D[4] *= inv;
  D[5] *= inv;
  D[6] = a.radius;
  D[7] = b.radius;
  addSphereContact(out, pa, D);
}
