/**
 * Triangle shapes against triangle shapes: mesh–mesh, mesh–heightfield and heightfield–heightfield pairs.
 *
 * Each triangle of A under B's bounding box (taken into A's frame and expanded by the speculative margin) is
 * a convex piece, collided with B by the convex-against-triangles path (convexMesh.ts): B's triangles under the
 * piece are gathered from its BVH or grid, and B's side, active edges and manifold reduction apply as they do
 * for any convex. A's triangles are thin two-sided pieces, so a body of mesh A is held by B's surface wherever
 * its triangles touch it (Havok's mesh–mesh collision does the same job with its own triangle pairs). The
 * manifold's childA is A's triangle index, childB B's, so manifolds persist per triangle pair.
 *
 * Cost grows with the number of A's triangles near B times the triangles each piece meets; bench/ has a row.
 */
import { IntList } from "../collections/intList";
import type { Pose } from "../math/pose";
import { rotateParts } from "../math/quat";
import type { Shape } from "../shapes/shape";
import type { TriangleSource } from "../shapes/triangleSource";
import type { ManifoldBuffer } from "./contactManifold";
import { collideConvexTrianglesInto } from "./convexMesh";
import { TrianglePiece } from "./trianglePiece";

const piece = new TrianglePiece();
const list = new IntList(64);
/** A triangle's corners; first boxIntoFrame's turned box corner (it runs before any triangle is read). */
const corners = new Float64Array(9);
/** B's world box, then B's box in A's frame (min xyz, max xyz). */
const worldBox = new Float64Array(6);
const localBox = new Float64Array(6);

/** Appends A-triangle x B manifolds to `out` (normal from A to B), within out.margin. */
export function collideTrianglesTrianglesInto(a: Shape & TriangleSource, pa: Pose, b: Shape & TriangleSource, pb: Pose, out: ManifoldBuffer): void {
  b.computeAabb(pb, worldBox, 0);
  boxIntoFrame(pa, out.margin);
  list.clear();
  a.queryBox(localBox, 0, list);
  for (let i = 0; i < list.count; i++) {
    const t = list.data[i];
    a.getTriangle(t, corners, 0);
    piece.set(corners);
    collideConvexTrianglesInto(piece, pa, a.triangleIndex(t), b, pb, true, out);
  }
}

/** localBox = the box of worldBox's 8 corners in the frame of pose p, grown by `margin` on every side. */
function boxIntoFrame(p: Pose, margin: number): void {
  const w = worldBox,
    l = localBox;
  l[0] = l[1] = l[2] = Infinity;
  l[3] = l[4] = l[5] = -Infinity;
  // Each corner turned by the inverse rotation (the conjugate quaternion).
  const r = corners;
  for (let c = 0; c < 8; c++) {
    rotateParts(-p.qx, -p.qy, -p.qz, p.qw, (c & 1 ? w[3] : w[0]) - p.px, (c & 2 ? w[4] : w[1]) - p.py, (c & 4 ? w[5] : w[2]) - p.pz, r, 0);
    const x = r[0],
      y = r[1],
      z = r[2];
    if (x < l[0]) l[0] = x;
    if (y < l[1]) l[1] = y;
    if (z < l[2]) l[2] = z;
    if (x > l[3]) l[3] = x;
    if (y > l[4]) l[4] = y;
    if (z > l[5]) l[5] = z;
  }
  for (let k = 0; k < 3; k++) {
    l[k] -= margin;
    l[k + 3] += margin;
  }
}
