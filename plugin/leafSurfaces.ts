/**
 * Which material, collision filter and trigger flag a body's contacts use, Havok's way: for a CONTAINER they
 * come from each leaf shape (a container's own material, masks and trigger flag are ignored, as HavokPlugin
 * ignores them), for any other shape from the shape itself. When every leaf agrees, the body carries the
 * leaves' values and nothing else is needed (no cost per contact); when they differ, the body's filter is the
 * union of the leaves' masks (it gates the pair) and the engine gets one surface run per leaf
 * (World.setChildSurfaces), looked up per manifold.
 */
import { type ChildSurfaceDescription, sameSurfaceMaterial, type SurfaceMaterial, type World } from "../src/index";
import { SHAPE_CONTAINER, type ShapeData } from "./shapeMapping";

function sameSurface(a: ShapeData, b: ShapeData): boolean {
  return a.membership === b.membership && a.collideWith === b.collideWith && a.isTrigger === b.isTrigger && sameSurfaceMaterial(a.material, b.material);
}

/** Pushes the surfaces of `data` (see the module comment) to the body `handle`. */
export function applyLeafSurfaces(world: World, handle: number, data: ShapeData): void {
  // Leaves with the child index where each starts: compound children one each, mesh leaves by triangle runs.
  const runs: { start: number; leaf: ShapeData }[] =
    data.type !== SHAPE_CONTAINER ? [] : data.triangles ? data.triangleRuns : data.leaves.map((leaf, start) => ({ start, leaf }));
  if (runs.length === 0) {
    set(world, handle, data.material, data.membership, data.collideWith, data.isTrigger, null);
    return;
  }
  const first = runs[0].leaf;
  let uniform = true;
  for (let i = 1; i < runs.length && uniform; i++) uniform = sameSurface(first, runs[i].leaf);
  if (uniform) {
    set(world, handle, first.material, first.membership, first.collideWith, first.isTrigger, null);
    return;
  }
  let membership = 0,
    collideWith = 0,
    allTriggers = true;
  const surfaces: ChildSurfaceDescription[] = [];
  for (const r of runs) {
    const l = r.leaf;
    membership |= l.membership;
    collideWith |= l.collideWith;
    allTriggers &&= l.isTrigger;
    surfaces.push({ start: r.start, material: l.material, membership: l.membership, collideWith: l.collideWith, isTrigger: l.isTrigger });
  }
  set(world, handle, first.material, membership, collideWith, allTriggers, allTriggers ? null : surfaces);
}

function set(
  world: World,
  h: number,
  material: SurfaceMaterial,
  membership: number,
  collideWith: number,
  isTrigger: boolean,
  surfaces: ChildSurfaceDescription[] | null,
): void {
  world.setMaterial(h, material);
  world.setCollisionFilter(h, membership, collideWith);
  world.setTrigger(h, isTrigger);
  world.setChildSurfaces(h, surfaces);
}
