/**
 * `continuum-physics/gltf`: glTF physics (KHR_physics_rigid_bodies, KHR_implicit_shapes) for Babylon's glTF
 * loader, on any Physics V2 plugin (ContinuumPlugin, HavokPlugin). Call {@link registerGltfPhysics} once, import
 * Babylon's glTF loader (`@babylonjs/loaders/glTF`), enable physics on the scene, then load files as usual.
 */
import { registerGLTFExtension, unregisterGLTFExtension } from "@babylonjs/loaders/glTF/2.0/glTFLoaderExtensionRegistry.js";
import { KHR_IMPLICIT_SHAPES, KHR_PHYSICS_RIGID_BODIES, KHRImplicitShapesLoader, KHRPhysicsRigidBodiesLoader } from "./khrPhysicsRigidBodies";

export { KHR_IMPLICIT_SHAPES, KHR_PHYSICS_RIGID_BODIES, KHRImplicitShapesLoader, KHRPhysicsRigidBodiesLoader, combineMode, implicitShape, toBabylonMaterial } from "./khrPhysicsRigidBodies";

/** Registers both extensions with Babylon's glTF loader (idempotent). */
export function registerGltfPhysics(): void {
  registerGLTFExtension(KHR_IMPLICIT_SHAPES, true, () => new KHRImplicitShapesLoader());
  registerGLTFExtension(KHR_PHYSICS_RIGID_BODIES, true, (loader) => new KHRPhysicsRigidBodiesLoader(loader));
}

/** Removes them again. */
export function unregisterGltfPhysics(): void {
  unregisterGLTFExtension(KHR_IMPLICIT_SHAPES);
  unregisterGLTFExtension(KHR_PHYSICS_RIGID_BODIES);
}
