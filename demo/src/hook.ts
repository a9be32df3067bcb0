/**
 * The test hook, `window.__continuum`: lets the browser test (test/e2e/demo.test.ts) read the live scene.
 * Everything here is read-only reporting plus the same actions as the page's buttons.
 */
import { VertexBuffer } from "@babylonjs/core/Buffers/buffer.js";
import { Vector3 } from "@babylonjs/core/Maths/math.vector.js";
import type { AbstractMesh } from "@babylonjs/core/Meshes/abstractMesh.js";
import type { Scene } from "@babylonjs/core/scene.js";
import type { OverlayCounts } from "./debugOverlay";
import type { EngineKind, ScenePlugin } from "./engines";
import type { SideReport } from "./splitView";
import type { SceneContent } from "./scenes/index";
import type { Timeline } from "./timeline";

export interface BodyReport {
  name: string;
  shape: string;
  material: string;
  x: number;
  y: number;
  z: number;
  /** Lowest world y of the body's mesh vertices (its bottom). */
  minY: number;
  /** Distance from where it was created (m). */
  moved: number;
}

export interface ContinuumHook {
  /** True once the scene is built, rendered and has taken its first physics step. */
  ready: boolean;
  scene: Scene;
  /** The running scene's plugin (ContinuumPlugin or HavokPlugin). */
  plugin: ScenePlugin;
  /** The engine the scene runs on. */
  engine: EngineKind;
  /** Continuum-only calls the scene made that were skipped on Havok. */
  skipped: string[];
  /** Split view (`?split=1`): each side's engine, ms/step, steps and counters (right: also its probe); null otherwise. */
  splitReport(): { left: SideReport; right: SideReport & { probe: Record<string, unknown> } } | null;
  sceneId: string;
  /** Every scene's id, in picker order. */
  sceneIds: string[];
  /** Physics steps and simulated seconds since the scene was (re)built. */
  steps: number;
  simTime: number;
  paused: boolean;
  /** Bodies created in all, dynamic and static. */
  created: number;
  groundTop: number;
  /** Time scale (1: real time). */
  timeScale: number;
  /** Whether the physics viewer is on. */
  viewer: boolean;
  /** Whether the "Contacts & CCD" overlay is on, and what it drew in its last frame. */
  contactsOverlay: boolean;
  overlayCounts(): OverlayCounts;
  setContactsOverlay(on: boolean): void;
  bodies(): BodyReport[];
  /** The timeline under the stats (demo/src/timeline.ts): step, hash, replay check. */
  timeline(): ReturnType<Timeline["state"]>;
  /** The scene's own numbers (SceneContent.probe). */
  probe(): Record<string, unknown>;
  /** Reloads the scene on `kind` (as the engine buttons and E do); `ready` is false until it has stepped. */
  setEngine(kind: EngineKind): void;
  /** Opens a scene by id (as the picker does). */
  load(id: string): void;
  setTimeScale(value: number): void;
  setViewer(on: boolean): void;
  pause(paused?: boolean): void;
  step(): void;
  reset(): void;
}

declare global {
  interface Window {
    __continuum?: ContinuumHook;
  }
}

const tmp = new Vector3();

/** Lowest world-space y over the mesh's vertices. */
export function bottomOf(mesh: AbstractMesh): number {
  const positions = mesh.getVerticesData(VertexBuffer.PositionKind);
  const world = mesh.computeWorldMatrix(true);
  if (!positions) return mesh.getBoundingInfo().boundingBox.minimumWorld.y;
  let min = Infinity;
  for (let i = 0; i < positions.length; i += 3) {
    Vector3.TransformCoordinatesFromFloatsToRef(positions[i], positions[i + 1], positions[i + 2], world, tmp);
    if (tmp.y < min) min = tmp.y;
  }
  return min;
}

export function reportBodies(content: SceneContent): BodyReport[] {
  return content.bodies.map((b) => {
    const p = b.mesh.getAbsolutePosition();
    return {
      name: b.name,
      shape: b.shape,
      material: b.material,
      x: p.x,
      y: p.y,
      z: p.z,
      minY: bottomOf(b.mesh),
      moved: Vector3.Distance(p, b.start),
    };
  });
}
