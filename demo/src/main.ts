/**
 * Continuum playground: a Babylon.js scene simulated by ContinuumPlugin (or, switched with E or
 * `?engine=havok`, by Babylon's HavokPlugin), a scene picker, a stats overlay, pause / step / reset / time
 * scale, per-scene controls, a physics viewer and Babylon's inspector.
 *
 * The same code is built twice (rollup.config.mjs): demo/dist/demo.js bundles Babylon (index.html), and
 * demo/dist/demo.umd.js takes Babylon from the global BABYLON and Continuum from the global CONTINUUM
 * (umd.html, which loads babylon.js and dist/continuum.umd.js with script tags and can show the inspector).
 */
import { Engine } from "@babylonjs/core/Engines/engine.js";
import { PhysicsViewer } from "@babylonjs/core/Debug/physicsViewer.js";
import "@babylonjs/core/Rendering/edgesRenderer.js"; // PhysicsViewer.showConstraint draws edges
import type { PhysicsBody } from "@babylonjs/core/Physics/v2/physicsBody.js";
import { bindControls } from "./controls";
import { reportBodies, type ContinuumHook } from "./hook";
import { MATERIALS } from "./materials";
import { SCENES, type DemoScene, type SceneContent, type SceneControl } from "./scenes/index";
import { cameraView, createStage, DEFAULT_VIEW, type Stage } from "./stage";
import { StatsView, StepTimer } from "./stats";
import { isGlobalBabylonScene, openInspector } from "./inspector";
import { createPhysics, engineFromUrl, engineReady, otherEngine, prepareEngine, type EngineKind } from "./engines";
import { mergeControls, sideReport, splitFromUrl, SplitView } from "./splitView";
import { createEngineSwitch } from "./engineSwitch";
import { createThreadSelect, threadsFromUrl } from "./threadSelect";
import { DebugOverlay } from "./debugOverlay";
import { Timeline } from "./timeline";

/** Fixed physics step: Babylon's deterministic lockstep runs whole 1/60 s steps, up to 4 per frame. */
const STEP_MS = 1000 / 60;

interface Running {
  def: DemoScene;
  stage: Stage;
  content: SceneContent;
  timer: StepTimer;
  ready: boolean;
  viewer?: PhysicsViewer;
}

const canvas = document.getElementById("render") as HTMLCanvasElement;
const overlay = document.getElementById("overlay") as HTMLElement;
const makeEngine = (c: HTMLCanvasElement) => new Engine(c, true, { deterministicLockstep: true, lockstepMaxSteps: 4, timeStep: STEP_MS / 1000 }, true);
const engine = makeEngine(canvas);
const statsView = new StatsView(overlay);
const contactsOverlay = new DebugOverlay(overlay);
const picker = overlay.querySelector<HTMLSelectElement>("#scene")!;
const sceneControls = overlay.querySelector<HTMLElement>("#scene-controls")!;
const statusLine = overlay.querySelector<HTMLElement>("#status")!;
const legend = overlay.querySelector<HTMLElement>("#legend")!;
const viewerButton = overlay.querySelector<HTMLButtonElement>("#viewer")!;
const timeScaleInput = overlay.querySelector<HTMLInputElement>("#timescale")!;
const timeScaleOut = overlay.querySelector<HTMLOutputElement>("#timescale-value")!;

let running!: Running;
let paused = false;
/** Set by step(): physics runs for exactly one step, then switches off again. */
let stepOnce = false;
let timeScale = 1;
let viewerOn = false;
/** The engine scenes are built on (E and the engine buttons switch it; `?engine=havok` opens with Havok). */
let engineKind: EngineKind = engineFromUrl(new URL(location.href));
/** Threads of Continuum's step (the thread selector, `?threads=N`). */
let threads = threadsFromUrl(new URL(location.href));
/** Counts load requests: a scene waiting for Havok's wasm is dropped if another load came after it. */
let loadToken = 0;
let loading = false;
/** Shown after the caption when an engine could not be loaded. */
let engineNote = "";
/** `?split=1`: the same scene on the other engine in a second canvas (splitView.ts). */
const split = splitFromUrl(new URL(location.href))
  ? new SplitView(canvas, makeEngine, () => (running ? { report: sideReport(running.stage.physics.kind, running.timer, running.content), camera: running.stage.camera } : null))
  : null;
if (split) engine.resize(); // the canvas became half as wide
/** How much further back the camera stands in the split view (each canvas has half the width). */
const SPLIT_ZOOM_OUT = 1.45;
/** The engines a build needs: the page's, and the other one in the split view. */
const neededEngines = (): EngineKind[] => (split ? [engineKind, otherEngine(engineKind)] : [engineKind]);
/** Snapshots of the last 10 s under the stats: drag back, resume, replay (timeline.ts). */
const timeline = new Timeline(overlay.querySelector<HTMLElement>("#stats")!, {
  isPaused: () => paused,
  pause(value: boolean) {
    actions.pause(value);
    refreshControls();
  },
});

function buildControls(controls: readonly SceneControl[]): void {
  sceneControls.replaceChildren();
  for (const c of controls) {
    const label = document.createElement("label");
    label.textContent = c.label;
    if (c.kind === "slider") {
      const input = document.createElement("input");
      Object.assign(input, { type: "range", id: `ctl-${c.id}`, min: String(c.min), max: String(c.max), step: String(c.step), value: String(c.value) });
      label.htmlFor = input.id;
      const out = document.createElement("output");
      const show = () => (out.textContent = c.format ? c.format(Number(input.value)) : input.value);
      show();
      input.addEventListener("input", () => {
        c.onInput(Number(input.value));
        show();
      });
      sceneControls.append(label, input, out);
    } else {
      const seg = document.createElement("div");
      seg.className = "seg";
      seg.id = `ctl-${c.id}`;
      const buttons = c.options.map((opt) => {
        const b = document.createElement("button");
        b.type = "button";
        b.textContent = opt;
        b.dataset.value = opt;
        b.setAttribute("aria-pressed", String(opt === c.value));
        b.addEventListener("click", () => {
          buttons.forEach((x) => x.setAttribute("aria-pressed", String(x === b)));
          c.onChange(opt);
        });
        return b;
      });
      seg.append(...buttons);
      sceneControls.append(label, seg);
    }
  }
}

function physicsBodies(stage: Stage): PhysicsBody[] {
  const out: PhysicsBody[] = [];
  for (const n of [...stage.scene.meshes, ...stage.scene.transformNodes]) if (n.physicsBody) out.push(n.physicsBody);
  return out;
}

/** The physics viewer: every body's collision shape, its inertia box, and the scene's constraints. */
function setViewer(on: boolean): void {
  viewerOn = on;
  viewerButton.setAttribute("aria-pressed", String(on));
  running.viewer?.dispose();
  running.viewer = undefined;
  if (!on) return;
  const viewer = new PhysicsViewer(running.stage.scene);
  for (const body of physicsBodies(running.stage)) {
    viewer.showBody(body);
    if (body.getMotionType() !== 0 /* STATIC */ && !body.transformNode.name.startsWith("thin")) viewer.showInertia(body);
  }
  for (const c of running.content.constraints ?? []) viewer.showConstraint(c);
  running.viewer = viewer;
}

/** Opens `def` on the current engine, once that engine is loaded (Havok's wasm the first time). */
function load(def: DemoScene, keepView = false): void {
  const token = ++loadToken;
  if (neededEngines().every(engineReady)) {
    loading = false;
    build(def, keepView);
    return;
  }
  loading = true;
  void Promise.all(neededEngines().map(prepareEngine)).then(
    () => {
      if (token !== loadToken) return;
      loading = false;
      build(def, keepView);
    },
    (err: unknown) => {
      // E.g. umd.html, whose script-tag page has no module loader for @babylonjs/havok: stay on Continuum.
      if (token !== loadToken) return;
      engineKind = "continuum";
      engineSwitch.show(engineKind);
      loading = false;
      if (!split) build(def, keepView);
      engineNote = `Havok could not be loaded here (${err instanceof Error ? err.message : String(err)}).`;
    },
  );
}

/** Reloads the running scene on `kind`, keeping the camera. */
function switchEngine(kind: EngineKind): void {
  engineKind = kind;
  engineSwitch.show(kind);
  load(running.def, true);
}

function build(def: DemoScene, keepView: boolean): void {
  let view = keepView && running ? cameraView(running.stage.camera) : (def.view ?? DEFAULT_VIEW);
  // Split: each canvas is half as wide; step back so the scene still fits.
  if (split && !(keepView && running)) view = { ...view, radius: view.radius * SPLIT_ZOOM_OUT };
  running?.viewer?.dispose();
  running?.stage.scene.dispose();

  const stage = createStage(engine, canvas, view, createPhysics(engineKind, threads));
  const { scene, plugin } = stage;
  plugin.setTimeStep((STEP_MS / 1000) * timeScale);
  const content = def.build(stage);
  const timer = new StepTimer(scene, () => plugin.getTimeStep());
  timeline.attach(scene, plugin); // after the timer: its snapshots are not counted in ms/step
  const run: Running = { def, stage, content, timer, ready: false };
  const rightContent = split?.build(def, otherEngine(engineKind), view, plugin.getTimeStep(), paused);
  running = run;

  scene.physicsEnabled = !paused;
  if (content.beforeStep) scene.onBeforePhysicsObservable.add(() => content.beforeStep!(plugin.getTimeStep()));
  if (content.afterStep) scene.onAfterPhysicsObservable.add(() => content.afterStep!(plugin.getTimeStep()));
  if (content.frame) scene.onBeforeRenderObservable.add(() => content.frame!());
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
  const captionEl = overlay.querySelector("#caption")!;
  const refreshStats = () => {
    statsView.update(timer, stage.physics.continuum?.world.stats ?? null);
    engineSwitch.compare(def.id, stage.physics.kind, timer.meanMs());
    threadSelect.update(stage.physics.continuum);
    const status = content.status?.() ?? "";
    if (statusLine.innerHTML !== status) statusLine.innerHTML = status;
    // Continuum-only calls skipped on Havok (some scenes make them later, e.g. per shot).
    const caption = [def.caption, stage.physics.skippedNote(), engineNote].filter(Boolean).join(" ");
    if (captionEl.textContent !== caption) captionEl.textContent = caption;
  };
  scene.onAfterRenderObservable.add(() => {
    const now = performance.now();
    if (now - lastUpdate < 200) return;
    lastUpdate = now;
    refreshStats();
  });
  overlay.querySelector("#title")!.textContent = def.title;
  legend.style.display = def.legend ? "" : "none";
  picker.value = def.id;
  buildControls(rightContent ? mergeControls(content.controls ?? [], rightContent.controls ?? []) : (content.controls ?? []));
  if (viewerOn) setViewer(true);
  // Split: the overlay draws the Continuum side.
  contactsOverlay.attach(!stage.physics.continuum && split?.right ? split.right.stage : stage);
  refreshStats();

  const url = new URL(location.href);
  if (url.searchParams.get("scene") !== def.id || engineFromUrl(url) !== engineKind || threadsFromUrl(url) !== threads) {
    url.searchParams.set("scene", def.id);
    if (engineKind === "havok") url.searchParams.set("engine", "havok");
    else url.searchParams.delete("engine");
    if (threads > 1) url.searchParams.set("threads", String(threads));
    else url.searchParams.delete("threads");
    history.replaceState(null, "", url);
  }
}

function setPaused(value: boolean): void {
  paused = value;
  stepOnce = false;
  running.stage.scene.physicsEnabled = !paused;
  split?.setPaused(value);
}

function setTimeScale(value: number): void {
  timeScale = value;
  timeScaleInput.value = String(value);
  timeScaleOut.textContent = `${value.toFixed(2)}×`;
  running.stage.plugin.setTimeStep((STEP_MS / 1000) * value);
  split?.setTimeStep((STEP_MS / 1000) * value);
}

const sceneById = (id: string | null) => SCENES.find((s) => s.id === id);

const actions = {
  isPaused: () => paused,
  pause: (value = !paused) => setPaused(value),
  step() {
    if (!paused) setPaused(true);
    stepOnce = true;
    running.stage.scene.physicsEnabled = true;
    split?.step();
  },
  reset: () => load(running.def, true),
};
const refreshControls = bindControls(overlay, actions);
const engineSwitch = createEngineSwitch(overlay, () => engineKind, switchEngine);
engineSwitch.show(engineKind);
const threadSelect = createThreadSelect(
  overlay,
  () => threads,
  (n) => {
    threads = n;
    load(running.def, true);
  },
);

// Picker, time scale, viewer, inspector.
for (const s of SCENES) picker.append(new Option(s.title, s.id));
picker.addEventListener("change", () => load(sceneById(picker.value) ?? SCENES[0]));
timeScaleInput.addEventListener("input", () => setTimeScale(Number(timeScaleInput.value)));
viewerButton.addEventListener("click", () => setViewer(!viewerOn));
const inspect = () => void openInspector(running.stage.scene, running.def.id);
overlay.querySelector("#inspector")!.addEventListener("click", inspect);
window.addEventListener("keydown", (e) => {
  if (e.target instanceof HTMLInputElement || e.target instanceof HTMLSelectElement || e.ctrlKey || e.metaKey || e.altKey) return;
  const i = SCENES.indexOf(running.def);
  if (e.key === "]") load(SCENES[(i + 1) % SCENES.length]);
  else if (e.key === "[") load(SCENES[(i + SCENES.length - 1) % SCENES.length]);
  else if (e.key.toLowerCase() === "v") setViewer(!viewerOn);
  else if (e.key.toLowerCase() === "i") inspect();
});

// Material legend.
for (const m of MATERIALS) {
  const item = document.createElement("span");
  item.innerHTML = `<i style="background:${m.color}"></i>${m.name}`;
  legend.append(item);
}

load(sceneById(new URL(location.href).searchParams.get("scene")) ?? SCENES[0]);
engine.runRenderLoop(() => running?.stage.scene.render());
window.addEventListener("resize", () => engine.resize());
overlay.querySelector("#split")?.addEventListener("click", () => {
  const url = new URL(location.href);
  if (split) url.searchParams.delete("split");
  else url.searchParams.set("split", "1");
  location.href = url.href;
});
overlay.querySelector("#split")?.setAttribute("aria-pressed", String(split !== null));

const hook: ContinuumHook = {
  get ready() {
    return !loading && running !== undefined && running.ready && running.timer.steps > 0;
  },
  get engine() {
    return running.stage.physics.kind;
  },
  get skipped() {
    return [...running.stage.physics.skipped];
  },
  splitReport() {
    const right = split?.right;
    if (!right) return null;
    return { left: sideReport(running.stage.physics.kind, running.timer, running.content), right: { ...sideReport(right.kind, right.timer, right.content), probe: right.content.probe?.() ?? {} } };
  },
  setEngine(kind: EngineKind) {
    if (kind !== engineKind) switchEngine(kind);
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
  sceneIds: SCENES.map((s) => s.id),
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
  get timeScale() {
    return timeScale;
  },
  get viewer() {
    return running.viewer !== undefined;
  },
  get contactsOverlay() {
    return contactsOverlay.on;
  },
  overlayCounts: () => ({ ...contactsOverlay.counts }),
  setContactsOverlay: (on: boolean) => contactsOverlay.set(on),
  bodies: () => reportBodies(running.content),
  timeline: () => timeline.state(),
  probe: () => running.content.probe?.() ?? {},
  load(id: string) {
    const def = sceneById(id);
    if (!def) throw new Error(`no scene "${id}"; scenes: ${SCENES.map((s) => s.id).join(", ")}`);
    load(def);
  },
  pause(value = true) {
    actions.pause(value);
    refreshControls();
  },
  step() {
    actions.step();
    refreshControls();
  },
  reset: actions.reset,
  setTimeScale,
  setViewer,
};
window.__continuum = hook;

// umd.html?inspector=1 (what the bundled page's Inspector button opens): show the inspector once ready.
if (new URL(location.href).searchParams.get("inspector") === "1" && running && isGlobalBabylonScene(running.stage.scene)) {
  running.stage.scene.executeWhenReady(inspect);
}
