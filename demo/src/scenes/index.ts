/** The demo scenes, in picker order. The first one is shown when the page opens. */
import { fallingShapes } from "./fallingShapes";
import type { DemoScene } from "./types";

export const SCENES: readonly DemoScene[] = [fallingShapes];
export type { DemoScene, SceneContent, TrackedBody } from "./types";
