/**
 * The playground's timeline: the last 10 seconds of the simulation kept as snapshots (plugin.snapshot(), one
 * every KEY_STEPS steps), a slider under the stats to drag back through them (the scene pauses and shows the
 * restored moment), and a hash readout. Resuming from a dragged-back moment replays the steps that were
 * recorded after it; every replayed step's state hash is compared with the recorded one, so the page shows
 * that the replay is bit-identical ("replayed N steps, all hashes equal").
 *
 * Bodies or constraints created or removed (a scene that spawns bodies, a reset) make older snapshots
 * unusable (plugin.restore refuses them); the timeline then starts again from the current moment.
 */
import type { Scene } from "@babylonjs/core/scene.js";
import type { ContinuumPlugin, PhysicsSnapshot } from "../../plugin/index";
import "../../plugin/snapshot"; // installs plugin.snapshot / restore

/** Steps between kept snapshots (0.1 s at 60 Hz). */
const KEY_STEPS = 6;
/** How far back the slider reaches (s of 1/60 s steps). */
const SPAN_STEPS = 600;
/** Memory cap for the kept snapshots (bytes); large scenes keep a shorter span. */
const MAX_BYTES = 96 * 1024 * 1024;

interface Keyframe {
  step: number;
  snapshot: PhysicsSnapshot;
}

/** What the timeline needs from the page. */
export interface TimelineHost {
  isPaused(): boolean;
  pause(paused: boolean): void;
}

export function hex(h: number): string {
  return "0x" + (h >>> 0).toString(16).padStart(8, "0");
}

export class Timeline {
  private scene: Scene | null = null;
  private plugin: ContinuumPlugin | null = null;
  private keyframes: Keyframe[] = [];
  private bytes = 0;
  /** Index of the state the scene is in: steps since the timeline started. */
  private step = 0;
  /** Hash after each recorded step, by step index modulo SPAN_STEPS + KEY_STEPS. */
  private readonly hashes = new Float64Array(SPAN_STEPS + KEY_STEPS);
  /** Last recorded step (the newest state before any drag back). */
  private recordedTo = 0;
  /** Replay bookkeeping: steps re-simulated over the recorded ones, and the first that differed (-1: none). */
  private replayed = 0;
  private replayDiffers = -1;
  private dragged = false;
  private note = "";

  private readonly root: HTMLElement;
  private readonly slider: HTMLInputElement;
  private readonly readout: HTMLElement;

  constructor(
    container: HTMLElement,
    private readonly host: TimelineHost,
  ) {
    this.root = document.createElement("div");
    this.root.id = "timeline";
    this.root.className = "controls";
    const label = document.createElement("label");
    label.htmlFor = "timeline-slider";
    label.textContent = "Timeline";
    label.title = "Drag back through the last 10 s (pauses); Play resumes from there and replays exactly";
    this.slider = document.createElement("input");
    Object.assign(this.slider, { type: "range", id: "timeline-slider", min: "0", max: "0", step: "1", value: "0" });
    this.readout = document.createElement("output");
    this.readout.id = "timeline-readout";
    this.readout.style.gridColumn = "1 / -1";
    this.readout.style.fontFamily = "ui-monospace, monospace";
    this.readout.style.fontSize = "11px";
    this.root.append(label, this.slider, this.readout);
    container.after(this.root);
    this.slider.addEventListener("input", () => this.seek(Number(this.slider.value)));
  }

  /** Follows a newly loaded scene (the playground builds a new scene on every load and reset). */
  attach(scene: Scene, plugin: object): void {
    this.scene = scene;
    // Havok keeps its world in WebAssembly memory that Babylon does not expose: no snapshots, no timeline.
    const continuum = typeof (plugin as Partial<ContinuumPlugin>).snapshot === "function";
    this.plugin = continuum ? (plugin as ContinuumPlugin) : null;
    this.root.hidden = !continuum;
    this.restart("");
    if (continuum) scene.onAfterPhysicsObservable.add(() => this.afterStep());
  }

  /** The hash of the current state, the step index, and the replay check (for the page's test hook). */
  state(): { step: number; hash: number; recordedTo: number; replayed: number; replayDiffers: number; keyframes: number; recordedHash(step: number): number | null } {
    return {
      step: this.step,
      hash: this.plugin ? this.plugin.stateHash() : 0,
      recordedTo: this.recordedTo,
      replayed: this.replayed,
      replayDiffers: this.replayDiffers,
      keyframes: this.keyframes.length,
      recordedHash: (s: number) => (s <= this.recordedTo && s > this.recordedTo - SPAN_STEPS && s >= 1 ? this.hashes[s % this.hashes.length] : null),
    };
  }

  /** Moves to the kept snapshot `index` (0 = oldest), pausing the scene. */
  seek(index: number): void {
    const kf = this.keyframes[Math.max(0, Math.min(this.keyframes.length - 1, index))];
    if (!kf || !this.plugin) return;
    if (!this.host.isPaused()) this.host.pause(true);
    try {
      this.plugin.restore(kf.snapshot);
    } catch (e) {
      this.restart(`timeline restarted: ${(e as Error).message.replace(/^restore: /, "").split(";")[0]}`);
      return;
    }
    this.step = kf.step;
    this.dragged = true;
    this.replayed = 0;
    this.replayDiffers = -1;
    this.render();
  }

  private restart(note: string): void {
    this.keyframes = [];
    this.bytes = 0;
    this.step = 0;
    this.recordedTo = 0;
    this.replayed = 0;
    this.replayDiffers = -1;
    this.dragged = false;
    this.note = note;
    this.keep();
    this.render();
  }

  private keep(): void {
    if (!this.plugin) return;
    // The oldest keyframe, once out of the span, lends its memory to the new one (plugin.snapshot(reuse)).
    let reuse: PhysicsSnapshot | undefined;
    while (this.keyframes.length > 2 && (this.keyframes[0].step <= this.step - SPAN_STEPS || this.bytes > MAX_BYTES)) {
      reuse = this.keyframes.shift()!.snapshot;
      this.bytes -= reuse.byteLength;
    }
    let snapshot: PhysicsSnapshot;
    try {
      snapshot = this.plugin.snapshot(reuse);
    } catch {
      return; // a world with engine bodies made outside the plugin: no timeline
    }
    this.keyframes.push({ step: this.step, snapshot });
    this.bytes += snapshot.byteLength;
  }

  private afterStep(): void {
    if (!this.plugin) return;
    if (this.dragged) {
      // Resumed from a dragged-back moment: the recorded future is replaced by the replay from here.
      this.dragged = false;
      while (this.keyframes.length > 0 && this.keyframes[this.keyframes.length - 1].step > this.step) {
        this.bytes -= this.keyframes.pop()!.snapshot.byteLength;
      }
    }
    this.step++;
    const h = this.plugin.stateHash();
    const slot = this.step % this.hashes.length;
    if (this.step <= this.recordedTo) {
      // A replayed step: it must reproduce the recorded hash bit for bit.
      this.replayed++;
      if (this.hashes[slot] !== h && this.replayDiffers < 0) this.replayDiffers = this.step;
    } else this.recordedTo = this.step;
    this.hashes[slot] = h;
    if (this.step % KEY_STEPS === 0) {
      const last = this.keyframes[this.keyframes.length - 1];
      if (!last || last.step < this.step) this.keep();
    }
    this.render();
  }

  private render(): void {
    const n = this.keyframes.length;
    this.slider.max = String(Math.max(0, n - 1));
    let at = n - 1;
    for (let k = 0; k < n; k++) if (this.keyframes[k].step <= this.step) at = k;
    this.slider.value = String(Math.max(0, at));
    const back = ((this.recordedTo - this.step) / 60).toFixed(1);
    const hash = this.plugin ? hex(this.plugin.stateHash()) : "–";
    let replay = "";
    if (this.replayDiffers >= 0) replay = ` · replay DIFFERS at step ${this.replayDiffers}`;
    else if (this.replayed > 0) replay = ` · replayed ${this.replayed} steps, all hashes equal ✓`;
    else if (this.step < this.recordedTo) replay = ` · ${back} s back`;
    this.readout.textContent = `step ${this.step} · hash ${hash}${replay}${this.note ? ` · ${this.note}` : ""}`;
  }
}
