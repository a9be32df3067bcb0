/**
 * Babylon's inspector. It is published for script-tag pages (the `babylonjs-inspector` UMD bundle, which
 * works on the global BABYLON), so it is shown on umd.html, where this same demo runs on babylon.js and
 * dist/continuum.umd.js. On the bundled page (index.html) the Inspector button opens umd.html with the
 * current scene and the inspector open: the ES-module @babylonjs/inspector needs React, Fluent UI and five
 * editors as peers (two only through npm overrides), which README.md's UMD section weighs.
 */
import type { Scene } from "@babylonjs/core/scene.js";

/** Scripts the inspector bundle needs, in order (it reads the globals ADDONS, BABYLON.GLTF2, ...). */
export const INSPECTOR_SCRIPTS = [
  "vendor/babylonjs-addons/babylonjs.addons.js",
  "vendor/babylonjs-materials/babylonjs.materials.js",
  "vendor/babylonjs-loaders/babylonjs.loaders.js",
  "vendor/babylonjs-inspector/babylon.inspector-v2.bundle.js",
];

interface Globals {
  BABYLON?: { Scene?: abstract new (...args: never[]) => unknown };
  INSPECTOR?: { ShowInspector(scene: Scene, options?: Record<string, unknown>): unknown };
}

/** True when `scene` is a scene of the global BABYLON (the page runs on babylon.js, not on the bundle). */
export function isGlobalBabylonScene(scene: Scene): boolean {
  const B = (globalThis as Globals).BABYLON;
  return typeof B?.Scene === "function" && scene instanceof B.Scene;
}

function loadScript(src: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const s = document.createElement("script");
    s.src = src;
    s.onload = () => resolve();
    s.onerror = () => reject(new Error(`could not load ${src}`));
    document.head.append(s);
  });
}

let loading: Promise<void> | undefined;

/** Shows the inspector for `scene` (loading its scripts once), or opens umd.html on the bundled page. */
export async function openInspector(scene: Scene, sceneId: string): Promise<void> {
  if (!isGlobalBabylonScene(scene)) {
    location.href = `umd.html?scene=${encodeURIComponent(sceneId)}&inspector=1`;
    return;
  }
  const g = globalThis as Globals;
  if (!g.INSPECTOR) {
    loading ??= (async () => {
      for (const src of INSPECTOR_SCRIPTS) await loadScript(src);
    })();
    await loading;
  }
  g.INSPECTOR!.ShowInspector(scene);
}
