/**
 * Continuum demo page: a Babylon.js scene simulated by ContinuumPlugin, a stats overlay and pause / step /
 * reset. Scenes live in ./scenes (one for now; the playground's picker will list them all).
 */
import { Engine } from "@babylonjs/core/Engines/engine.js";
import { bindControls } from "./controls";
import { reportBodies, type ContinuumHook } from "./hook";
import { MATERIALS } from "./materials";
import { SCENES, type DemoScene, type SceneContent } from "./scenes/index";
import { cameraView, createStage, DEFAULT_VIEW, type Stage } from "./stage";
import { StatsView, StepTimer } from "./stats";

/** Fixed physics step: Babylon's deterministic lockstep runs whole 1/60 s steps, up to 4 per frame. */
const STEP_MS = 1000 / 60;

interface Running {
  def: DemoScene;
  stage: Stage;
  content: SceneContent;
  timer: StepTimer;
  ready: boolean;
}

const canvas = document.getElementById("render") as HTMLCanvasElement;
const overlay = document.getElementById("overlay") as HTMLElement;
const engine = new Engine(canvas, true, { deterministicLockstep: true, lockstepMaxSteps: 4, timeStep: STEP_MS / 1000 }, true);
const statsView = new StatsView(overlay);

let running: Running;
let paused = false;
/** Set by step(): physics runs for exactly one step, then switches off again. */
let stepOnce = false;

function load(def: DemoScene): void {
  const view = running ? cameraView(running.stage.camera) : DEFAULT_VIEW;
  running?.stage.scene.dispose();

  const stage = createStage(engine, canvas, view);
  const { scene } = stage;
  const content = def.build(stage);
  const timer = new StepTimer(scene, STEP_MS / 1000);
  const run: Running = { def, stage, content, timer, ready: false };
  running = run;

  scene.physicsEnabled = !paused;
  scene.onAfterPhysicsObservable.add(() => {
    if (stepOnce) {
      stepOnce = false;
      scene.physicsEnabled = false;
    }
  });
  scene.executeWhenReady(() => {
    scene.onAfterRenderObservable.addOnce(() => {
      run.ready = true;
    });
  });
  let lastUpdate = 0;
  scene.onAfterRenderObservable.add(() => {
    const now = performance.now();
    if (now - lastUpdate < 200) return;
    lastUpdate = now;
    statsView.update(timer, stage.plugin);
  });

  overlay.querySelector("#title")!.textContent = def.title;
  overlay.querySelector("#caption")!.textContent = def.caption;
}

function setPaused(value: boolean): void {
  paused = value;
  stepOnce = false;
  running.stage.scene.physicsEnabled = !paused;
}

const actions = {
  isPaused: () => paused,
  pause: (value = !paused) => setPaused(value),
  step() {
    if (!paused) setPaused(true);
    stepOnce = true;
    running.stage.scene.physicsEnabled = true;
  },
  reset: () => load(running.def),
};
const refreshControls = bindControls(overlay, actions);

// Material legend.
const legend = overlay.querySelector("#legend")!;
for (const m of MATERIALS) {
  const item = document.createElement("span");
  item.innerHTML = `<i style="background:${m.color}"></i>${m.name}`;
  legend.append(item);
}

load(SCENES[0]);
engine.runRenderLoop(() => running.stage.scene.render());
window.addEventListener("resize", () => engine.resize());

const hook: ContinuumHook = {
  get ready() {
    return running.ready && running.timer.steps > 0;
  },
  get scene() {
    return running.stage.scene;
  },
  get plugin() {
    return running.stage.plugin;
  },
  get sceneId() {
    return running.def.id;
  },
  get steps() {
    return running.timer.steps;
  },
  get simTime() {
    return running.timer.simTime;
  },
  get paused() {
    return paused;
  },
  get created() {
    return running.content.created;
  },
  get groundTop() {
    return running.content.groundTop;
  },
  bodies: () => reportBodies(running.content),
  pause(value = true) {
    actions.pause(value);
    refreshControls();
  },
  step() {
    actions.step();
    refreshControls();
  },
  reset: actions.reset,
};
window.__continuum = hook;
