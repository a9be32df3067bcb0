/**
 * The broad and narrow phase drivers (steps 3-4 of docs/design.md): pairs from the trees, sleepers woken by
 * moving bodies touching them, the partner push, and each pair's manifolds (speculative within the pair margin) into the contact solver,
 * with the pair materials combined; trigger overlaps.
 */
import type { ContactManifold } from "../../collision/contactManifold";
import { apartAlongCentreLine } from "../../collision/centreLineGap";
import { collideShapes, collideShapesInto } from "../../collision/narrowPhase";
import { SeparatingAxisCache } from "../../collision/separatingAxisCache";
import type { ConvexShape, Shape } from "../../shapes/shape";
import { ShapeType } from "../../shapes/shapeType";
import { BodyFlag } from "../../dynamics/bodySet";
import { anchorOnFasterTurningBody } from "../../dynamics/contacts/contactAnchors";
import { CombineMode, ContinuousDetectionMode, MotionType, type PairMaterial, type SurfaceMaterial } from "../descriptions";
import type { WorldState } from "../worldState";
import { sweepPair, rewindManifolds } from "./pairSweep";
import { buildActiveList, predict } from "./predict";
import { pushPartners } from "./partnerPushStage";
import { CHILDREN_APART, CHILDREN_TRIGGER, childPairKind } from "../childPairGate";

/**
 * 3. Broad phase: refit the moving tree, then collect pairs. A moving body's bounds touching a sleeper wake its
 * island: the woken bodies join the active list and the moving tree, so they are predicted and the pairs
 * collected again. Then bodies a fast partner is about to push get that push's margin and bounds, and their new
 * pairs (partnerPushStage.ts). Each pass that changes something collects again; four at most (a chain of wakes and
 * pushes longer than that is picked up next step).
 */
export function broadPhase(ws: WorldState, dt: number): void {
  refitMovingTree(ws);
  ws.scratch.pushedBodies.begin(ws.bodies.count);
  for (let pass = 0; pass < 4; pass++) {
    collectPairs(ws);
    if (wakeTouchedSleepers(ws)) {
      buildActiveList(ws);
      predict(ws, dt);
      ws.movingTree.refit();
    } else if (pushPartners(ws, dt)) ws.movingTree.refit();
    else break;
  }
}

/**
 * Before collecting: refit the moving tree and refine part of it, ceil(leaves / 20) leaves in integers: run once a
 * step, this stays unoptimised for a thousand steps, and there leaves / 20 was a heap number every step.
 */
function refitMovingTree(ws: WorldState): void {
  const tree = ws.movingTree;
  tree.refit();
  const c = tree.leafCount + 19;
  if (c > 19) tree.refine((c - (c % 20)) / 20);
}

/** Collect moving x moving and moving x static pairs (as slot pairs, into ws.scratch.collector). */
function collectPairs(ws: WorldState): void {
  const tree = ws.movingTree;
  const pairs = ws.scratch.collector.pairs;
  pairs.clear();
  tree.selfOverlaps(ws.scratch.collector);
  tree.overlapsWith(ws.staticTree, ws.scratch.collector);
}

/** Wakes sleeping islands that a moving dynamic or kinematic body's bounds overlap. Returns true if any woke. */
function wakeTouchedSleepers(ws: WorldState): boolean {
  const b = ws.bodies;
  const p = ws.scratch.collector.pairs;
  let woke = false;
  for (let k = 0; k < p.count; k += 2) {
    const ia = b.slotToDense[p.data[k]],
      ib = b.slotToDense[p.data[k + 1]];
    const sa = (b.flags[ia] & BodyFlag.Sleeping) !== 0,
      sb = (b.flags[ib] & BodyFlag.Sleeping) !== 0;
    if (sa === sb) continue;
    const sleeper = sa ? ia : ib,
      mover = sa ? ib : ia;
    if (!ws.shouldCollide(mover, sleeper)) continue;
    if ((b.flags[mover] | b.flags[sleeper]) & BodyFlag.Trigger) continue;
    ws.wakeIndex(sleeper);
    woke = true;
  }
  return woke;
}

/** Spheres, capsules, cylinders, boxes and convex hulls (the shape types up to ConvexHull). */
function isConvex(s: Shape): s is ConvexShape {
  return s.type <= ShapeType.ConvexHull;
}

/** 4. Narrow phase: manifolds (speculative within the pair margin) into the solver; trigger overlaps. */
export function narrowPhase(ws: WorldState, dt: number): void {
  const b = ws.bodies;
  const p = ws.scratch.collector.pairs;
  const solver = ws.contactCache;
  solver.beginStep();
  ws.separations.beginStep();
  ws.stats.sweeps = 0;
  ws.stats.toiChecks = 0;
  ws.stats.toiEvents = 0;
  ws.scratch.continuousContactPairs.clear();
  const trig = ws.triggerPrev;
  ws.triggerPrev = ws.triggerCur;
  ws.triggerCur = trig;
  ws.triggerCur.clear();
  let contacts = 0,
    speculative = 0,
    pairCount = 0;
  const mb = ws.scratch.manifolds;
  for (let k = 0; k < p.count; k += 2) {
    let ia = b.slotToDense[p.data[k]],
      ib = b.slotToDense[p.data[k + 1]];
    const ta = b.motionType[ia],
      tb = b.motionType[ib];
    const trigger = ((b.flags[ia] | b.flags[ib]) & BodyFlag.Trigger) !== 0;
    // Trigger children (Havok's trigger shapes in a container) sense like trigger bodies.
    const childTriggers = ((b.flags[ia] | b.flags[ib]) & BodyFlag.ChildTriggers) !== 0;
    const solid = ta === MotionType.Dynamic || tb === MotionType.Dynamic;
    if (!solid && !trigger && !childTriggers) continue;
    if (!ws.shouldCollide(ia, ib)) continue;
    // Order: a static (or the non-moving) body is B; otherwise the smaller handle is A.
    if (ta === MotionType.Static || (tb !== MotionType.Static && b.handle[ia] > b.handle[ib])) {
      const t = ia;
      ia = ib;
      ib = t;
    }
    const shapeA = b.shape[ia]!,
      shapeB = b.shape[ib]!;
    pairCount++;
    mb.clear();
    const split = ((b.flags[ia] | b.flags[ib]) & BodyFlag.ChildSurfaces) !== 0;
    // One manifold per contact patch against a mesh, unless the triangles carry their own surfaces.
    mb.mergeTriangles = !split;
    if (trigger) {
      ws.originPose(ia, ws.scratch.poseA);
      ws.originPose(ib, ws.scratch.poseB);
      collideShapes(shapeA, ws.scratch.poseA, shapeB, ws.scratch.poseB, 0, mb);
      let overlap = false;
      for (let m = 0; m < mb.count && !overlap; m++) {
        const man = mb.items[m];
        for (let c = 0; c < man.count; c++) if (man.depth[c] >= 0) overlap = true;
      }
      if (overlap) ws.triggerCur.insert(b.handle[ia], b.handle[ib]);
      continue;
    }
    const margin = b.margin[ia] + b.margin[ib];
    const sweepT = sweepPair(ws, ia, ib, shapeA, shapeB, dt);
    // The sweep proved they do not meet this step: no ghost contacts (sweeps skip trigger children, so
    // those still need their overlap test).
    if (sweepT < 0 && !childTriggers) continue;
    // Bounding spheres about the centres of mass farther apart than the margin: no point of the shapes is
    // within the margin, so the pair has no contacts (speculative ones included) and needs neither the cache
    // nor a test (a third of a pile's broad-phase pairs).
    if (sweepT === 0 && !childTriggers) {
      const pos = b.pos;
      const a3 = ia * 3,
        b3 = ib * 3;
      const dx = pos[b3] - pos[a3],
        dy = pos[b3 + 1] - pos[a3 + 1],
        dz = pos[b3 + 2] - pos[a3 + 2];
      const reach = b.radius[ia] + b.radius[ib] + margin;
      if (dx * dx + dy * dy + dz * dz > reach * reach) continue;
    }
    // No trigger children, no child surfaces and no sweep: the contact cache may keep last step's manifolds
    // of the pair (ContactCache.findReusable), one per convex pair, one per triangle or child pair otherwise.
    const cacheable = !childTriggers && !split && sweepT === 0;
    const reuse = cacheable ? solver.findReusable(b, ia, ib) : -1;
    if (reuse < 0) {
      // Not kept from last step: the line through the centres with the primitives' true extents along it may
      // prove the pair apart before its tester runs (centreLineGap.ts).
      if (sweepT === 0 && !childTriggers && apartAlongCentreLine(shapeA, shapeB, b.pos, b.rot, b.localCom, b.margin, ia, ib)) continue;
      // Poses only for pairs that run the narrow phase (the cache's reuse works on the bodies' arrays).
      ws.originPose(ia, ws.scratch.poseA);
      ws.originPose(ib, ws.scratch.poseB);
      if (sweepT > 0) {
        // Contacts at the poses of the time of impact (bepu: pick t1, then rewind the depths).
        ws.scratch.motionA.poseAt(sweepT, ws.scratch.poseA);
        ws.scratch.motionB.poseAt(sweepT, ws.scratch.poseB);
      }
      mb.margin = margin;
      // A convex pair GJK proved apart last step: its separating axis may prove it again (separatingAxisCache.ts).
      const axisPair = cacheable && isConvex(shapeA) && isConvex(shapeB) && SeparatingAxisCache.handles(shapeA, shapeB);
      if (axisPair) {
        const q = ws.separations.query;
        q[0] = b.handle[ia];
        q[1] = b.handle[ib];
        q[2] = margin;
        if (ws.separations.separates(shapeA, ws.scratch.poseA, shapeB, ws.scratch.poseB)) continue;
      }
      // Threads: the pool ran this step's testers over its blocks (at the first call); it hands this one's output.
      if (!ws.scratch.pool?.take(k, mb)) collideShapesInto(shapeA, ws.scratch.poseA, shapeB, ws.scratch.poseB, mb);
      if (mb.count === 0) {
        if (axisPair) ws.separations.record(ws.scratch.poseA, ws.scratch.poseB);
        continue;
      }
      if (sweepT > 0) rewindManifolds(ws, mb, sweepT);
    }
    const mat = combineMaterial(ws, ia, ib, b.material[ia], b.material[ib], ws.scratch.pairMaterial);
    if (
      b.continuity[ia] === ContinuousDetectionMode.Continuous &&
      b.continuity[ib] === ContinuousDetectionMode.Continuous &&
      ta === MotionType.Dynamic &&
      tb === MotionType.Dynamic
    ) {
      const ha = b.handle[ia],
        hb = b.handle[ib];
      if (ha < hb) ws.scratch.continuousContactPairs.insert(ha, hb);
      else ws.scratch.continuousContactPairs.insert(hb, ha);
    }
    if (reuse >= 0) {
      contacts += solver.reuse(b, ia, ib, reuse, mat);
      continue;
    }
    const first = solver.count;
    for (let m = 0; m < mb.count; m++) {
      const man = mb.items[m];
      if (man.count === 0) continue;
      const mm = split ? childManifoldMaterial(ws, ia, ib, man, mat) : mat;
      // A pair that is not solid is here only for its trigger children's overlaps.
      if (mm === null || !solid) continue;
      // Each contact's point on the faster-turning body, so a fast spin cannot carry its feature through
      // a speculative contact unseen (contactAnchors.ts).
      anchorOnFasterTurningBody(b, ia, ib, man);
      solver.add(b, ia, ib, man, mm);
      contacts += man.count;
      for (let c = 0; c < man.count; c++) if (man.depth[c] < 0) speculative++;
    }
    // The pair's manifolds (at t0 poses) are what the cache may reuse next step.
    if (cacheable) solver.markReusable(first);
  }
  ws.stats.pairs = pairCount;
  ws.stats.manifolds = solver.count;
  ws.stats.reusedManifolds = solver.reused;
  ws.stats.contacts = contacts;
  ws.stats.speculativeContacts = speculative + solver.speculativeReused;
}

/**
 * A manifold between children of bodies with per-child surfaces (setChildSurfaces): null when the
 * children's filters keep them apart or a child is a trigger (its overlap becomes a trigger event of the
 * pair), else the pair material, combined from the children's materials when either has its own.
 */
function childManifoldMaterial(ws: WorldState, ia: number, ib: number, man: ContactManifold, mat: PairMaterial): PairMaterial | null {
  const b = ws.bodies;
  const kind = childPairKind(ws, ia, ib, man.childA, man.childB);
  if (kind === CHILDREN_APART) return null;
  if (kind === CHILDREN_TRIGGER) {
    for (let c = 0; c < man.count; c++) {
      if (man.depth[c] >= 0) {
        ws.triggerCur.insert(b.handle[ia], b.handle[ib]);
        break;
      }
    }
    return null;
  }
  const sa = ws.childSurfacesOf(ia),
    sb = ws.childSurfacesOf(ib);
  const ra = sa ? sa.runOf(man.childA) : -1,
    rb = sb ? sb.runOf(man.childB) : -1;
  const ma = sa ? sa.materials[ra] : null,
    mb = sb ? sb.materials[rb] : null;
  if (ma === null && mb === null) return mat;
  return combineMaterial(ws, ia, ib, ma ?? b.material[ia], mb ?? b.material[ib], ws.scratch.childPairMaterial);
}

/** Combines two surfaces into the pair material `m` (Babylon/Havok combine modes; the larger mode wins). */
function combineMaterial(ws: WorldState, ia: number, ib: number, A: SurfaceMaterial, B: SurfaceMaterial, m: PairMaterial): PairMaterial {
  const fm = A.frictionCombine > B.frictionCombine ? A.frictionCombine : B.frictionCombine;
  const rm = A.restitutionCombine > B.restitutionCombine ? A.restitutionCombine : B.restitutionCombine;
  // Combined in a loop over a scratch array: no calls with double arguments per pair.
  const c = ws.scratch.combineScratch;
  c[0] = A.friction;
  c[1] = B.friction;
  c[2] = A.staticFriction;
  c[3] = B.staticFriction;
  c[4] = A.restitution;
  c[5] = B.restitution;
  for (let k = 0; k < 6; k += 2) {
    const x = c[k],
      y = c[k + 1];
    const mode = k === 4 ? rm : fm;
    c[6 + k / 2] =
      mode === CombineMode.GeometricMean
        ? Math.sqrt(x * y)
        : mode === CombineMode.Maximum
          ? (x > y ? x : y)
          : mode === CombineMode.ArithmeticMean
            ? (x + y) * 0.5
            : mode === CombineMode.Multiply
              ? x * y
              : x < y
                ? x
                : y;
  }
  m.friction = c[6];
  m.staticFriction = c[7];
  m.restitution = c[8];
  // The larger coefficient, whatever the combine modes (see SurfaceMaterial.rollingResistance).
  m.rollingResistance = A.rollingResistance > B.rollingResistance ? A.rollingResistance : B.rollingResistance;
  m.restitutionThreshold = ws.restitutionThreshold;
  m.spring.frequency = ws.contactSpring.frequency;
  m.spring.dampingRatio = ws.contactSpring.dampingRatio;
  m.maximumRecoveryVelocity = ws.maximumRecoveryVelocity;
  if (ws.scratch.pairMaterialCallback) ws.scratch.pairMaterialCallback(ws.bodies.handle[ia], ws.bodies.handle[ib], m);
  return m;
}
