/**
 * Side by side (`?split=1`, or the Split button): the page's canvas on the left runs the scene on one engine,
 * a second canvas on the right runs the same scene on the other. Both are built by the same scene code, get
 * the same control inputs (every control acts on both), pause / step / time scale together, and the right
 * camera follows the left one. Under each side: its engine, ms/step, the bodies that passed through
 * something (the scene's `through()`) and the scene's status line.
 *
 * Each side is its own Babylon Engine (WebGL context) with its own physics plugin; nothing is shared but
 * the inputs.
 */
import type { Engine } from "@babylonjs/core/Engines/engine.js";
import type { ArcRotateCamera } from "@babylonjs/core/Cameras/arcRotateCamera.js";
import { createPhysics, ENGINE_NAMES, type EngineKind } from "./engines";
import type { DemoScene, SceneContent, SceneControl } from "./scenes/index";
import { createStage, type CameraView, type Stage } from "./stage";
import { StepTimer } from "./stats";

/** What a side's bar shows. */
export interface SideReport {
  engine: EngineKind;
  ms: number;
  steps: number;
  simTime: number;
  /** Bodies that passed through something (the scene's through()), or null if the scene does not count them. */
  through: number | null;
  status: string;
}

/** One side's bar (under its canvas). */
class SideBar {
  readonly el = document.createElement("div");
  constructor(side: "left" | "right") {
    this.el.className = `side-bar side-${side}`;
    this.el.id = `side-${side}`;
    document.body.append(this.el);
  }
  show(r: SideReport): void {
    const through = r.through === null ? "" : ` · <b data-side="through">${r.through}</b> passed through`;
    const ms = Number.isFinite(r.ms) ? r.ms.toFixed(2) : "–";
    const html = `<b class="engine">${ENGINE_NAMES[r.engine]}</b> · <b data-side="ms">${ms}</b> ms/step${through} · t ${r.simTime.toFixed(1)} s<br><span class="status">${r.status}</span>`;
    if (this.el.innerHTML !== html) this.el.innerHTML = html;
  }
}

/** `report` for any side: its timer, content and engine. */
export function sideReport(kind: EngineKind, timer: StepTimer, content: SceneContent): SideReport {
  return { engine: kind, ms: timer.meanMs(), steps: timer.steps, simTime: timer.simTime, through: content.through?.() ?? null, status: content.status?.() ?? "" };
}

/** Every control acts on both sides: the left side's control, with handlers calling both. */
export function mergeControls(left: readonly SceneControl[], right: readonly SceneControl[]): SceneControl[] {
  return left.map((c) => {
    const twin = right.find((r) => r.id === c.id && r.kind === c.kind);
    if (!twin) return c;
    if (c.kind === "slider" && twin.kind === "slider") {
      return { ...c, onInput: (v: number) => (c.onInput(v), twin.onInput(v)) };
    }
    if (c.kind === "choice" && twin.kind === "choice") {
      return { ...c, onChange: (v: string) => (c.onChange(v), twin.onChange(v)) };
    }
    return c;
  });
}

interface RightSide {
  kind: EngineKind;
  stage: Stage;
  content: SceneContent;
  timer: StepTimer;
}

export class SplitView {
  readonly canvas: HTMLCanvasElement;
  readonly engine: Engine;
  private side: RightSide | null = null;
  private readonly leftBar = new SideBar("left");
  private readonly rightBar = new SideBar("right");
  private stepOnce = false;
  private paused = false;
  private lastBars = 0;

  constructor(
    leftCanvas: HTMLCanvasElement,
    makeEngine: (canvas: HTMLCanvasElement) => Engine,
    /** The left side's report and camera (main.ts's running scene). */
    private readonly left: () => { report: SideReport; camera: ArcRotateCamera } | null,
  ) {
    document.body.classList.add("split");
    this.canvas = document.createElement("canvas");
    this.canvas.id = "render-b";
    leftCanvas.after(this.canvas);
    this.engine = makeEngine(this.canvas);
    this.engine.runRenderLoop(() => {
      const side = this.side;
      if (!side) return;
      const l = this.left();
      if (l) this.follow(l.camera, side.stage.camera);
      side.stage.scene.render();
      const now = performance.now();
      if (now - this.lastBars > 200 && l) {
        this.lastBars = now;
        this.leftBar.show(l.report);
        this.rightBar.show(sideReport(side.kind, side.timer, side.content));
      }
    });
    window.addEventListener("resize", () => this.engine.resize());
  }

  /** The right side's scene, or null before the first build. */
  get right(): RightSide | null {
    return this.side;
  }

  /** Builds `def` on `kind` in the right canvas (its engine must be loaded), replacing the previous scene. */
  build(def: DemoScene, kind: EngineKind, view: CameraView, stepSeconds: number, paused: boolean): SceneContent {
    this.side?.stage.scene.dispose();
    const stage = createStage(this.engine, this.canvas, view, createPhysics(kind));
    stage.camera.detachControl(); // it follows the left camera
    const { scene, plugin } = stage;
    plugin.setTimeStep(stepSeconds);
    const content = def.build(stage);
    const timer = new StepTimer(scene, () => plugin.getTimeStep());
    if (content.beforeStep) scene.onBeforePhysicsObservable.add(() => content.beforeStep!(plugin.getTimeStep()));
    if (content.afterStep) scene.onAfterPhysicsObservable.add(() => content.afterStep!(plugin.getTimeStep()));
    if (content.frame) scene.onBeforeRenderObservable.add(() => content.frame!());
    scene.onAfterPhysicsObservable.add(() => {
      if (this.stepOnce) {
        this.stepOnce = false;
        scene.physicsEnabled = false;
      }
    });
    this.paused = paused;
    scene.physicsEnabled = !paused;
    this.side = { kind, stage, content, timer };
    return content;
  }

  setPaused(paused: boolean): void {
    this.paused = paused;
    this.stepOnce = false;
    if (this.side) this.side.stage.scene.physicsEnabled = !paused;
  }

  step(): void {
    if (!this.paused) this.setPaused(true);
    this.stepOnce = true;
    if (this.side) this.side.stage.scene.physicsEnabled = true;
  }

  setTimeStep(seconds: number): void {
    this.side?.stage.plugin.setTimeStep(seconds);
  }

  private follow(from: ArcRotateCamera, to: ArcRotateCamera): void {
    to.alpha = from.alpha;
    to.beta = from.beta;
    to.radius = from.radius;
    // In place: setTarget would recompute alpha / beta / radius from the camera's old position.
    to.target.copyFrom(from.target);
  }
}

/** `?split=1` */
export const splitFromUrl = (url: URL): boolean => url.searchParams.get("split") === "1";
