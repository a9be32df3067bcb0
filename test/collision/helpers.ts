import { Pose } from "../../src/math/pose";
import type { ContactManifold } from "../../src/collision/contactManifold";

/** Pose at (x, y, z) rotated by `angle` radians about the (normalised) axis (ax, ay, az). */
export function pose(x: number, y: number, z: number, ax = 0, ay = 1, az = 0, angle = 0): Pose {
  const l = Math.hypot(ax, ay, az) || 1;
  const s = Math.sin(angle / 2) / l;
  return new Pose().set(x, y, z, ax * s, ay * s, az * s, Math.cos(angle / 2));
}

/** Rotation that takes local +Y onto world +X (a capsule/cylinder axis lying along X). */
export function alongX(x: number, y: number, z: number): Pose {
  return pose(x, y, z, 0, 0, 1, -Math.PI / 2);
}

/** Rotation that takes local +Y onto world +Z. */
export function alongZ(x: number, y: number, z: number): Pose {
  return pose(x, y, z, 1, 0, 0, Math.PI / 2);
}

export interface Pt {
  x: number;
  y: number;
  z: number;
  depth: number;
  id: number;
}

export function contacts(m: ContactManifold): Pt[] {
  const r: Pt[] = [];
  for (let i = 0; i < m.count; i++) {
    r.push({ x: m.positionX[i], y: m.positionY[i], z: m.positionZ[i], depth: m.depth[i], id: m.featureId[i] });
  }
  return r;
}

/** Contacts sorted by x, then z, then y (for order-independent comparisons). */
export function sorted(m: ContactManifold): Pt[] {
  const r = contacts(m);
  const key = (v: number): number => Math.round(v * 1e6);
  r.sort((a, b) => key(a.x) - key(b.x) || key(a.z) - key(b.z) || key(a.y) - key(b.y));
  return r;
}

export function normal(m: ContactManifold): [number, number, number] {
  return [m.normalX, m.normalY, m.normalZ];
}

export function expectVec(v: [number, number, number], e: [number, number, number], digits = 9): void {
  for (let i = 0; i < 3; i++) {
    const d = Math.abs(v[i] - e[i]);
    if (!(d < 0.5 * 10 ** -digits)) {
      throw new Error(`vector ${JSON.stringify(v)} != expected ${JSON.stringify(e)} (component ${i})`);
    }
  }
}

/** Checks the midpoint convention: the point on A is p + n*depth/2, on B p - n*depth/2. */
export function pointOnA(m: ContactManifold, i: number): [number, number, number] {
  const h = m.depth[i] / 2;
  return [m.positionX[i] + m.normalX * h, m.positionY[i] + m.normalY * h, m.positionZ[i] + m.normalZ * h];
}
export function pointOnB(m: ContactManifold, i: number): [number, number, number] {
  const h = m.depth[i] / 2;
  return [m.positionX[i] - m.normalX * h, m.positionY[i] - m.normalY * h, m.positionZ[i] - m.normalZ * h];
}

/** Pose at (x, y, z) whose local +Y points along (ux, uy, uz) (shortest-arc rotation). */
export function poseAlong(x: number, y: number, z: number, ux: number, uy: number, uz: number): Pose {
  const l = Math.hypot(ux, uy, uz);
  ux /= l;
  uy /= l;
  uz /= l;
  // q = (Y x u, 1 + Y.u), normalised.
  let qx = uz,
    qy = 0,
    qz = -ux,
    qw = 1 + uy;
  if (qw < 1e-9) {
    qx = 1;
    qz = 0;
    qw = 0;
  }
  const n = Math.hypot(qx, qy, qz, qw);
  return new Pose().set(x, y, z, qx / n, qy / n, qz / n, qw / n);
}
