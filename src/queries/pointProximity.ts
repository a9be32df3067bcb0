/**
 * Point proximity: the signed distance from a point to a shape's surface (negative inside solid shapes),
 * the closest surface point and the outward normal there.
 *
 * Spheres, boxes, capsules and cylinders are exact closed forms; convex hulls use their face planes inside
 * and GJK outside; compounds take the nearest child (the smallest signed distance); triangle meshes and
 * heightfields are surfaces (unsigned distance to the nearest triangle near the point).
 * Allocation-free: module-level scratch.
 */
import { IntList } from "../collections/intList";
import { epaPenetration, EpaResult } from "../collision/epa";
import { gjkDistance, GjkResult } from "../collision/gjk";
import { Pose } from "../math/pose";
import type { Box } from "../shapes/box";
import type { Capsule } from "../shapes/capsule";
import type { ChildGate } from "../shapes/childGate";
import type { Compound } from "../shapes/compound";
import type { ConvexHull } from "../shapes/convexHull";
import type { Cylinder } from "../shapes/cylinder";
import type { ConvexShape, Shape } from "../shapes/shape";
import { ShapeType } from "../shapes/shapeType";
import type { Sphere } from "../shapes/sphere";
import type { TriangleSource } from "../shapes/triangleSource";
import { closestOnTriangle, dirToWorld, pointToLocal, pointToWorld } from "./poseMath";
import { PointPiece } from "./pointPiece";
import { triangleCross } from "../math/vec3";

/** A triangle's normal and scale (triangleCross). */
const CROSS = new Float64Array(4);

/** Result of {@link pointShapeDistance} (world space). */
export class PointShapeHit {
  /** Signed distance: negative when the point is inside a solid shape. */
  distance = 0;
  /** Closest point on the surface. */
  px = 0;
  py = 0;
  pz = 0;
  /** Outward unit normal at that point (for a point off a surface, the direction from it to the point). */
  nx = 0;
  ny = 1;
  nz = 0;
  /** Compound child index or mesh/heightfield triangle index; -1 for plain convex shapes. */
  childIndex = -1;
}

/** Result of a world point proximity query. */
export class PointProximityResult {
  /** Body handle, -1 when nothing was found. */
  body = -1;
  /** Signed distance (negative inside). */
  distance = 0;
  /** Closest point on the body's surface (world). */
  point = { x: 0, y: 0, z: 0 };
  /** Outward surface normal there (world). */
  normal = { x: 0, y: 1, z: 0 };
  /** Compound child index or mesh/heightfield triangle index; -1 for plain convex shapes. */
  childIndex = -1;
}

// local results of the convex closed forms: closest point L[0..2], outward normal L[3..5]
const L = new Float64Array(6);
const P = new Float64Array(3);
const W = new Float64Array(3);
const TRI = new Float64Array(9);
const triList = new IntList(64);
const gjk = new GjkResult();
const epa = new EpaResult();
const point = new PointPiece();
const pointPose = new Pose();
const identity = new Pose();
const childPose = new Pose();

function setL(px: number, py: number, pz: number, nx: number, ny: number, nz: number): void {
  L[0] = px;
  L[1] = py;
  L[2] = pz;
  L[3] = nx;
  L[4] = ny;
  L[5] = nz;
}

/** Signed distance from the local point to a convex shape's surface; closest point and normal into L. */
export function pointConvexLocal(shape: ConvexShape, x: number, y: number, z: number): number {
  switch (shape.type) {
    case ShapeType.Sphere: {
      const r = (shape as Sphere).radius;
      const l = Math.sqrt(x * x + y * y + z * z);
      if (l > 0) setL((x / l) * r, (y / l) * r, (z / l) * r, x / l, y / l, z / l);
      else setL(0, r, 0, 0, 1, 0);
      return l - r;
    }
    case ShapeType.Box: {
      const s = shape as Box;
      const hx = s.halfX,
        hy = s.halfY,
        hz = s.halfZ;
      const ox = Math.abs(x) - hx,
        oy = Math.abs(y) - hy,
        oz = Math.abs(z) - hz;
      if (ox > 0 || oy > 0 || oz > 0) {
        const cx = x > hx ? hx : x < -hx ? -hx : x,
          cy = y > hy ? hy : y < -hy ? -hy : y,
          cz = z > hz ? hz : z < -hz ? -hz : z;
        const dx = x - cx,
          dy = y - cy,
          dz = z - cz;
        const d = Math.sqrt(dx * dx + dy * dy + dz * dz);
        setL(cx, cy, cz, dx / d, dy / d, dz / d);
        return d;
      }
      // Inside: the nearest face.
      if (ox >= oy && ox >= oz) {
        const sx = x >= 0 ? 1 : -1;
        setL(sx * hx, y, z, sx, 0, 0);
        return ox;
      }
      if (oy >= oz) {
        const sy = y >= 0 ? 1 : -1;
        setL(x, sy * hy, z, 0, sy, 0);
        return oy;
      }
      const sz = z >= 0 ? 1 : -1;
      setL(x, y, sz * hz, 0, 0, sz);
      return oz;
    }
    case ShapeType.Capsule: {
      const s = shape as Capsule;
      const hl = s.halfLength,
        r = s.radius;
      const cy = y > hl ? hl : y < -hl ? -hl : y;
      const dy = y - cy;
      const l = Math.sqrt(x * x + dy * dy + z * z);
      if (l > 0) setL((x / l) * r, cy + (dy / l) * r, (z / l) * r, x / l, dy / l, z / l);
      else setL(r, cy, 0, 1, 0, 0);
      return l - r;
    }
    case ShapeType.Cylinder: {
      const s = shape as Cylinder;
      const r = s.radius,
        h = s.halfHeight;
      const rho = Math.sqrt(x * x + z * z);
      const ux = rho > 0 ? x / rho : 1,
        uz = rho > 0 ? z / rho : 0;
      const sy = y >= 0 ? 1 : -1;
      const dr = rho - r,
        dh = Math.abs(y) - h;
      if (dr <= 0 && dh <= 0) {
        if (dr >= dh) {
          setL(ux * r, y, uz * r, ux, 0, uz);
          return dr;
        }
        setL(x, sy * h, z, 0, sy, 0);
        return dh;
      }
      const cr = dr > 0 ? r : rho,
        cy = dh > 0 ? sy * h : y;
      const qx = ux * cr,
        qz = uz * cr;
      const ex = x - qx,
        ey = y - cy,
        ez = z - qz;
      const d = Math.sqrt(ex * ex + ey * ey + ez * ez);
      setL(qx, cy, qz, ex / d, ey / d, ez / d);
      return d;
    }
    case ShapeType.ConvexHull: {
      const hull = shape as ConvexHull;
      if (typeof hull.containsLocal === "function" && hull.containsLocal(x, y, z)) {
        const fn = hull.faceNormals,
          fo = hull.faceOffsets;
        let best = -Infinity,
          bf = 0;
        for (let f = 0; f < fo.length; f++) {
          const d = fn[3 * f] * x + fn[3 * f + 1] * y + fn[3 * f + 2] * z - fo[f];
          if (d > best) {
            best = d;
            bf = f;
          }
        }
        const nx = fn[3 * bf],
          ny = fn[3 * bf + 1],
          nz = fn[3 * bf + 2];
        setL(x - best * nx, y - best * ny, z - best * nz, nx, ny, nz);
        return best;
      }
      return pointConvexGjk(shape, x, y, z);
    }
    default:
      return pointConvexGjk(shape, x, y, z);
  }
}

/** Any convex shape: GJK outside the core, EPA inside it. */
function pointConvexGjk(shape: ConvexShape, x: number, y: number, z: number): number {
  pointPose.set(x, y, z, 0, 0, 0, 1);
  const r = shape.coreRadius;
  // A = the shape, B = the point: n points from the shape toward the point.
  if (gjkDistance(shape, identity, point, pointPose, gjk)) {
    const nx = gjk.nx,
      ny = gjk.ny,
      nz = gjk.nz;
    setL(gjk.ax + nx * r, gjk.ay + ny * r, gjk.az + nz * r, nx, ny, nz);
    return gjk.distance - r;
  }
  if (epaPenetration(shape, identity, point, pointPose, gjk, epa)) {
    // EPA's normal points from A toward B: moving the point by depth along it brings it to the core surface.
    const nx = epa.nx,
      ny = epa.ny,
      nz = epa.nz;
    setL(x + nx * (epa.depth + r), y + ny * (epa.depth + r), z + nz * (epa.depth + r), nx, ny, nz);
    return -epa.depth - r;
  }
  setL(x, y + r, z, 0, 1, 0);
  return -r;
}

/**
 * Signed distance from the world point (x, y, z) to `shape` at `pose`. Returns false (out undefined) when
 * the shape is farther than maxDistance. With a gate, only the compound children or triangles it passes count.
 */
export function pointShapeDistance(shape: Shape, pose: Pose, x: number, y: number, z: number, maxDistance: number, out: PointShapeHit, gate: ChildGate | null = null): boolean {
  const t = shape.type;
  if (t === ShapeType.Mesh || t === ShapeType.Heightfield) return pointTriangles(shape as Shape & TriangleSource, pose, x, y, z, maxDistance, out, gate);
  if (t === ShapeType.Compound) {
    const ch = (shape as Compound).children;
    let found = false,
      best = maxDistance;
    for (let i = 0; i < ch.length; i++) {
      if (gate !== null && !gate.passes(i)) continue;
      const cp = ch[i].pose;
      childPose.compose(pose, cp.px, cp.py, cp.pz, cp.qx, cp.qy, cp.qz, cp.qw);
      pointToLocal(childPose, x, y, z, P, 0);
      const d = pointConvexLocal(ch[i].shape, P[0], P[1], P[2]);
      if (d > best || (found && d === best)) continue;
      found = true;
      best = d;
      writeHit(childPose, d, i, out);
    }
    return found;
  }
  pointToLocal(pose, x, y, z, P, 0);
  const d = pointConvexLocal(shape as ConvexShape, P[0], P[1], P[2]);
  if (d > maxDistance) return false;
  writeHit(pose, d, -1, out);
  return true;
}

function writeHit(pose: Pose, d: number, child: number, out: PointShapeHit): void {
  pointToWorld(pose, L[0], L[1], L[2], W, 0);
  out.px = W[0];
  out.py = W[1];
  out.pz = W[2];
  dirToWorld(pose, L[3], L[4], L[5], W, 0);
  out.nx = W[0];
  out.ny = W[1];
  out.nz = W[2];
  out.distance = d;
  out.childIndex = child;
}

/** Unsigned distance to the nearest triangle within maxDistance. */
function pointTriangles(mesh: Shape & TriangleSource, pose: Pose, x: number, y: number, z: number, maxDistance: number, out: PointShapeHit, gate: ChildGate | null): boolean {
  pointToLocal(pose, x, y, z, P, 0);
  const px = P[0],
    py = P[1],
    pz = P[2];
  const r = maxDistance < 1e30 ? maxDistance : 1e30;
  triList.clear();
  mesh.queryAabb(px - r, py - r, pz - r, px + r, py + r, pz + r, triList);
  let best = maxDistance,
    bt = -1;
  for (let k = 0; k < triList.count; k++) {
    const t = triList.data[k];
    if (gate !== null && !gate.passes(mesh.triangleIndex(t))) continue;
    mesh.getTriangle(t, TRI, 0);
    closestOnTriangle(px, py, pz, TRI, 0, W, 0);
    const dx = px - W[0],
      dy = py - W[1],
      dz = pz - W[2];
    const d = Math.sqrt(dx * dx + dy * dy + dz * dz);
    if (d > best || (bt >= 0 && d === best)) continue;
    best = d;
    bt = t;
    let nx: number, ny: number, nz: number;
    if (d > 1e-12) {
      nx = dx / d;
      ny = dy / d;
      nz = dz / d;
    } else {
      // On the triangle: its normal, toward the front.
      triangleCross(TRI, 0, 3, 6, CROSS, 0);
      nx = CROSS[0];
      ny = CROSS[1];
      nz = CROSS[2];
      const l = Math.sqrt(nx * nx + ny * ny + nz * nz) || 1;
      nx /= l;
      ny /= l;
      nz /= l;
    }
    setL(W[0], W[1], W[2], nx, ny, nz);
    writeHit(pose, d, mesh.triangleIndex(t), out);
  }
  return bt >= 0;
}
