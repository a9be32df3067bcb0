/**
 * Physics step timing and the stats line: ms per step is measured around each physics step with the scene's
 * onBeforePhysicsObservable / onAfterPhysicsObservable (the same way on both engines); the counters come from
 * Continuum's world stats (Havok has none: they show "–").
 */
import type { Scene } from "@babylonjs/core/scene.js";
import type { ContinuumPlugin } from "../../plugin/index";

const HISTORY = 120;

export class StepTimer {
  /** Duration of the last HISTORY steps (ms), a ring buffer. */
  readonly history = new Float64Array(HISTORY);
  /** Steps taken since the scene was created. */
  steps = 0;
  /** Simulated time (s). */
  simTime = 0;
  private _t0 = 0;

  /** `stepSeconds`: the simulated length of one physics step (the plugin's time step, which the time scale changes). */
  constructor(scene: Scene, stepSeconds: () => number) {
    scene.onBeforePhysicsObservable.add(() => {
      this._t0 = performance.now();
    });
    scene.onAfterPhysicsObservable.add(() => {
      this.history[this.steps % HISTORY] = performance.now() - this._t0;
      this.steps++;
      this.simTime += stepSeconds();
    });
  }

  /** Mean step time over the recent history (ms), NaN before the first step. */
  meanMs(): number {
    const n = Math.min(this.steps, HISTORY);
    if (n === 0) return NaN;
    let sum = 0;
    for (let i = 0; i < n; i++) sum += this.history[i];
    return sum / n;
  }

  /** The recent step times, oldest first. */
  recent(): number[] {
    const n = Math.min(this.steps, HISTORY);
    const out: number[] = [];
    for (let i = this.steps - n; i < this.steps; i++) out.push(this.history[i % HISTORY]);
    return out;
  }
}

/**
 * The overlay's numbers, written into elements with
 * data-stat="ms|bodies|awake|pairs|contacts|speculative|sweeps|toi|time". Counters are those of the last step.
 */
export class StatsView {
  private readonly _fields = new Map<string, HTMLElement>();
  private readonly _graph: HTMLCanvasElement | null;

  constructor(root: HTMLElement) {
    root.querySelectorAll<HTMLElement>("[data-stat]").forEach((el) => this._fields.set(el.dataset.stat!, el));
    this._graph = root.querySelector<HTMLCanvasElement>("canvas.graph");
  }

  /** `stats`: Continuum's world stats, null on Havok. */
  update(timer: StepTimer, stats: ContinuumPlugin["world"]["stats"] | null): void {
    const ms = timer.meanMs();
    this._set("ms", Number.isNaN(ms) ? "–" : ms.toFixed(2));
    const n = (v: number) => (stats ? String(v) : "–");
    this._set("bodies", n(stats?.bodies ?? 0));
    this._set("awake", n(stats?.awakeBodies ?? 0));
    this._set("pairs", n(stats?.pairs ?? 0));
    this._set("contacts", n(stats?.contacts ?? 0));
    this._set("speculative", n(stats?.speculativeContacts ?? 0));
    this._set("sweeps", n((stats?.sweeps ?? 0) + (stats?.toiChecks ?? 0)));
    this._set("toi", n(stats?.toiEvents ?? 0));
    this._set("time", timer.simTime.toFixed(1));
    this._drawGraph(timer.recent());
  }

  private _set(key: string, text: string): void {
    const el = this._fields.get(key);
    if (el && el.textContent !== text) el.textContent = text;
  }

  /** A sparkline of the recent step times, scaled to their 95th percentile (at least 1 ms); spikes are clipped. */
  private _drawGraph(values: number[]): void {
    const canvas = this._graph;
    const ctx = canvas?.getContext("2d");
    if (!canvas || !ctx) return;
    const { width: w, height: h } = canvas;
    ctx.clearRect(0, 0, w, h);
    const sorted = [...values].sort((a, b) => a - b);
    const max = Math.max(1, 1.25 * (sorted[Math.floor(sorted.length * 0.95)] ?? 0));
    ctx.strokeStyle = "#7fd1ae";
    ctx.lineWidth = 1;
    ctx.beginPath();
    values.forEach((v, i) => {
      const x = (i / (HISTORY - 1)) * (w - 1);
      const y = h - 1 - Math.min(1, v / max) * (h - 2);
      if (i === 0) ctx.moveTo(x, y);
      else ctx.lineTo(x, y);
    });
    ctx.stroke();
    const label = `${max.toFixed(1)} ms`;
    ctx.font = "9px ui-monospace, monospace";
    ctx.fillStyle = "rgba(14,17,23,0.8)";
    ctx.fillRect(w - ctx.measureText(label).width - 5, 0, w, 11);
    ctx.fillStyle = "rgba(255,255,255,0.6)";
    ctx.fillText(label, w - ctx.measureText(label).width - 2, 9);
  }
}
