/**
 * Manifold reduction across a mesh's triangles (Jolt's PhysicsSettings::mUseManifoldReduction, its
 * ReductionCollideShapeCollector; bepu's NonconvexReduction keeps four contacts per nonconvex pair too):
 * the manifolds one hull or box makes with the triangles of a mesh or heightfield whose normals agree within
 * {@link MERGE_COS} become one manifold of at most four contacts. A hull resting across three triangles of a
 * floor has one contact patch, not three manifolds of up to four points each: the solver pays per contact
 * point, and the extra points hold nothing the four widest of them do not.
 *
 * The merged manifold keeps the normal and the triangle index (its key for warm starting and the contact
 * cache) of the member with the deepest contact; each point keeps its own depth, measured along its own
 * triangle's normal (within five degrees of the kept one). The four points are chosen as within one triangle
 * (featureClip.ts selectFourContacts: deepest, farthest, then the widest on either side). Feature ids carry
 * their triangle (bits 14-30), so a point keeps its warm start when the group's key or its membership changes.
 */
import type { ContactManifold, ManifoldBuffer } from "./contactManifold";
import { grown } from "../collections/growth";
import { selectFourContacts, selectNormal } from "./featureClip";

/** cos 5 degrees: Jolt's default PhysicsSettings::mContactNormalCosMaxDeltaRotation. */
export const MERGE_COS = 0.9961946980917455;

/** The mesh testers' feature ids use the low 14 bits (convexMesh.ts: at most WITNESS_ID = 0x3fff). */
const ID_BITS = 14;
const ID_MASK = (1 << ID_BITS) - 1;
/** Triangle index bits folded into a feature id (17: ids stay positive int32). */
const TRI_MASK = 0x1ffff;

// Candidates of one group (grown on demand; steady state allocates nothing).
let cx = new Float64Array(32);
let cy = new Float64Array(32);
let cz = new Float64Array(32);
let cd = new Float64Array(32);
let cid = new Int32Array(32);
const chosen = new Int32Array(4);
/** Per manifold of the call: 0 free, 1 in the group being built, 2 done. */
let taken = new Uint8Array(16);
/** The groups' kept manifolds and the merged-away ones, for the final reorder (references only). */
const kept: ContactManifold[] = [];
const dropped: ContactManifold[] = [];

/**
 * Room for n candidates, keeping the `live` gathered so far (collections/growth.ts): a group that outgrows the
 * arrays mid-gather keeps its first points, so a scene's contacts never depend on whether an earlier scene in the
 * process grew them first.
 */
function grow(n: number, live: number): void {
  if (n <= cx.length) return;
  cx = grown(cx, n, live);
  cy = grown(cy, cx.length, live);
  cz = grown(cz, cx.length, live);
  cd = grown(cd, cx.length, live);
  cid = grown(cid, cx.length, live);
}

/**
 * Moves to index 0, among the candidates as deep as the deepest (within selectFourContacts' 1e-4 tie), the one
 * farthest from the candidates' centroid, so the selection starts at a corner of the patch. On a flat rest every
 * depth ties and the lowest index would win: a point where a triangle's edge crosses the hull's face, inside the
 * patch, leaving a corner out (Jolt's PruneContactPoints starts from the point farthest from the centre of mass
 * for the same reason).
 */
function leadWithExtreme(n: number): void {
  let mx = 0,
    my = 0,
    mz = 0,
    maxD = -Infinity;
  for (let i = 0; i < n; i++) {
    mx += cx[i];
    my += cy[i];
    mz += cz[i];
    if (cd[i] > maxD) maxD = cd[i];
  }
  mx /= n;
  my /= n;
  mz /= n;
  let pick = 0,
    far = -1;
  for (let i = 0; i < n; i++) {
    if (cd[i] < maxD - 1e-4) continue;
    const dx = cx[i] - mx,
      dy = cy[i] - my,
      dz = cz[i] - mz;
    const dd = dx * dx + dy * dy + dz * dz;
    if (dd > far * (1 + 1e-9) + 1e-18) {
      far = dd;
      pick = i;
    }
  }
  if (pick === 0) return;
  swap(cx, 0, pick);
  swap(cy, 0, pick);
  swap(cz, 0, pick);
  swap(cd, 0, pick);
  const t = cid[0];
  cid[0] = cid[pick];
  cid[pick] = t;
}

function swap(a: Float64Array, i: number, j: number): void {
  const t = a[i];
  a[i] = a[j];
  a[j] = t;
}

/** The mesh side's triangle index of a manifold. */
function triangleOf(m: ContactManifold, convexIsA: boolean): number {
  return convexIsA ? m.childB : m.childA;
}

/**
 * Merges the manifolds out.items[start..out.count) (one convex against triangles of one mesh, normals as the
 * mesh tester wrote them) whose normals are within {@link MERGE_COS} of each other, in place; out.count
 * shrinks. Groups form in order: each manifold not yet taken gathers the later ones parallel to it.
 */
export function mergeTriangleManifolds(out: ManifoldBuffer, start: number, convexIsA: boolean): void {
  const items = out.items;
  const end = out.count;
  const total = end - start;
  // Feature ids carry their triangle, merged or not: a point keeps its id when its manifold joins or leaves a group.
  for (let s = start; s < end; s++) {
    const m = items[s];
    const tag = (triangleOf(m, convexIsA) & TRI_MASK) << ID_BITS;
    for (let k = 0; k < m.count; k++) m.featureId[k] = (m.featureId[k] & ID_MASK) | tag;
  }
  if (total <= 1) return;
  taken = grown(taken, total, 0); // cleared below before it is read
  taken.fill(0, 0, total);
  let w = 0,
    d = 0;
  for (let s = 0; s < total; s++) {
    if (taken[s] !== 0) continue;
    const lead = items[start + s];
    const nx = lead.normalX,
      ny = lead.normalY,
      nz = lead.normalZ;
    // Gather the group's points; the member with the deepest point gives the normal and the key.
    let n = 0,
      best = start + s,
      bestD = -Infinity,
      members = 0;
    for (let r = s; r < total; r++) {
      if (taken[r] !== 0) continue;
      const m = items[start + r];
      if (r !== s && m.normalX * nx + m.normalY * ny + m.normalZ * nz < MERGE_COS) continue;
      taken[r] = 1;
      members++;
      grow(n + m.count, n);
      for (let k = 0; k < m.count; k++) {
        cx[n] = m.positionX[k];
        cy[n] = m.positionY[k];
        cz[n] = m.positionZ[k];
        cd[n] = m.depth[k];
        cid[n] = m.featureId[k];
        // Strictly deeper by more than the selection's tie: the earlier member keeps the key on a flat rest.
        if (m.depth[k] > bestD + 1e-4) {
          bestD = m.depth[k];
          best = start + r;
        }
        n++;
      }
    }
    const keep = items[best];
    if (members > 1) {
      leadWithExtreme(n);
      selectNormal[0] = keep.normalX;
      selectNormal[1] = keep.normalY;
      selectNormal[2] = keep.normalZ;
      const count = selectFourContacts(cx, cy, cz, cd, n, false, chosen);
      for (let k = 0; k < count; k++) {
        const i = chosen[k];
        keep.positionX[k] = cx[i];
        keep.positionY[k] = cy[i];
        keep.positionZ[k] = cz[i];
        keep.depth[k] = cd[i];
        keep.featureId[k] = cid[i];
      }
      keep.count = count;
    }
    kept[w++] = keep;
    for (let r = s; r < total; r++) if (taken[r] === 1 && start + r !== best) {
      taken[r] = 2;
      dropped[d++] = items[start + r];
    }
    taken[best - start] = 2;
  }
  // Kept manifolds first, in group order; the merged-away ones stay in the pool behind them.
  for (let k = 0; k < w; k++) items[start + k] = kept[k];
  for (let k = 0; k < d; k++) items[start + w + k] = dropped[k];
  out.count = start + w;
}
