/**
 * Replicas of shapes for the threaded narrow phase. A shape is plain data (numbers and typed arrays, and for a
 * compound its children and their poses), so a structured clone carries all of it; what a clone loses is the
 * prototypes, which this module puts back from the classes of the bundle it runs in (the pool's on the main
 * thread, the worker's in a worker). The main thread runs its blocks on replicas too, not on the world's shapes:
 * those are instances of the library's own classes, and a tester's `instanceof ConvexHull` (gjk.ts, convexMesh.ts)
 * must see the same answer on every thread.
 */
import { Pose } from "../math/pose";
import { Box } from "../shapes/box";
import { Capsule } from "../shapes/capsule";
import { Compound, CompoundChild } from "../shapes/compound";
import { ConvexHull } from "../shapes/convexHull";
import { Cylinder } from "../shapes/cylinder";
import { Heightfield } from "../shapes/heightfield";
import type { Shape } from "../shapes/shape";
import { Sphere } from "../shapes/sphere";
import { TriangleMesh } from "../shapes/triangleMesh";

/** The classes by ShapeType (src/shapes/shapeType.ts). */
const CLASSES: { prototype: object }[] = [Sphere, Capsule, Cylinder, Box, ConvexHull, Compound, TriangleMesh, Heightfield];

/** An object with the own properties of `data` and the prototype `proto`. */
function withPrototype<T>(proto: object, data: object): T {
  return Object.assign(Object.create(proto) as object, data) as T;
}

/**
 * The shape of a structured clone, with its classes back: a compound's children (CompoundChild, their Pose and
 * shape) and its scratch pose too. Throws for a type this bundle has no class for.
 */
export function rehydrateShape(data: Shape): Shape {
  const cls = CLASSES[data.type];
  if (cls === undefined) throw new TypeError(`threads: no replica for shape type ${String(data.type)}`);
  if (data.type === 5) {
    const d = data as unknown as { children: CompoundChild[]; scratchPose: Pose };
    d.children = d.children.map((c) =>
      withPrototype<CompoundChild>(CompoundChild.prototype, { ...c, shape: rehydrateShape(c.shape), pose: withPrototype(Pose.prototype, c.pose) }),
    );
    d.scratchPose = withPrototype(Pose.prototype, d.scratchPose);
  }
  return withPrototype(cls.prototype, data);
}

/** A replica of `shape` on this thread (the main thread's, for its own blocks). */
export function replicateShape(shape: Shape): Shape {
  return rehydrateShape(structuredClone(shape));
}
