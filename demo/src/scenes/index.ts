/** The demo scenes, in picker order. The first one is shown when the page opens without ?scene=. */
import { ccdGallery } from "./ccdGallery";
import { character } from "./character";
import { constraintsScene } from "./constraints";
import { drive } from "./drive";
import { fallingShapes } from "./fallingShapes";
import { gltfScene } from "./gltfScene";
import { materialsScene } from "./materialsScene";
import { queries } from "./queries";
import { rollback } from "./rollback";
import { stacking } from "./stacking";
import { stress } from "./stress";
import { terrain } from "./terrain";
import { thinInstances } from "./thinInstances";
import type { DemoScene } from "./types";

export const SCENES: readonly DemoScene[] = [fallingShapes, ccdGallery, stacking, materialsScene, thinInstances, constraintsScene, terrain, drive, queries, character, gltfScene, stress, rollback];
export type { DemoScene, SceneContent, SceneControl, TrackedBody } from "./types";
