/**
 * The "Contacts & CCD" overlay (button and key C): what Continuum predicted in the last step, drawn from
 * a WorldDebugView of the plugin's world (continuum-physics/debug, src/world/debugView.ts):
 * - contacts as a small cross at the point and a line along the normal, orange when touching, cyan when
 *   speculative (still apart at the end of the step);
 * - every moving body's velocity-expanded bounds (green; violet for Continuous bodies);
 * - for Continuous bodies that were swept, the box of their shape at the sweep's start (grey) and end (white)
 *   poses joined by a line, and at the time-of-impact pose (red) when one was found this step.
 *
 * Everything is one LinesMesh, drawn over the scene (rendering group 1), whose vertex buffers are rewritten in place every frame (grown, rarely, by
 * doubling): no per-frame allocation. On Havok there is nothing to draw (the view is Continuum's).
 */
import "@babylonjs/core/Meshes/linesMesh.js"; // registers LinesMesh
import { VertexBuffer } from "@babylonjs/core/Buffers/buffer.js";
import { LinesMesh } from "@babylonjs/core/Meshes/linesMesh.js";
import { VertexData } from "@babylonjs/core/Meshes/mesh.vertexData.js";
import type { Observer } from "@babylonjs/core/Misc/observable.js";
import type { Scene } from "@babylonjs/core/scene.js";
import type { ContinuumPlugin } from "../../plugin/index";
import {
  DEBUG_BOUNDS_STRIDE,
  DEBUG_CONTACT_STRIDE,
  DEBUG_SWEEP_STRIDE,
  DebugBounds,
  DebugBoundsFlag,
  DebugContact,
  DebugSweep,
  DebugSweepKind,
  WorldDebugView,
} from "../../plugin/debug";
import type { Stage } from "./stage";

/** A contact this close (m) at the end of the step touches (the engine's own touch tolerance is 5 mm). */
const TOUCH = 0.005;
const NORMAL_LENGTH = 0.35;
const CROSS = 0.06;

type Rgb = readonly [number, number, number];
const COLORS = {
  touching: [0.95, 0.65, 0.07],
  speculative: [0.3, 0.85, 0.95],
  bounds: [0.42, 0.75, 0.35],
  continuousBounds: [0.61, 0.45, 0.81],
  sweepStart: [0.55, 0.6, 0.68],
  sweepEnd: [0.92, 0.93, 0.95],
  toi: [0.9, 0.2, 0.15],
  path: [0.91, 0.84, 0.35],
} satisfies Record<string, Rgb>;

/** What the overlay drew in its last frame (the test hook reports it). */
export interface OverlayCounts {
  contacts: number;
  touching: number;
  speculative: number;
  bounds: number;
  sweeps: number;
  /** Sweep records with a time of impact in the last frame, and in all frames since the overlay was switched on. */
  toi: number;
  toiSeen: number;
  /** Line segments drawn. */
  segments: number;
  /** Time the overlay takes per frame (ms, reading the view and writing the buffers; smoothed over ~10 frames). */
  drawMs: number;
}

/** Line segments in a growable pair of typed arrays (positions xyz, colours rgba, two vertices each). */
class SegmentBuffer {
  positions = new Float32Array(0);
  colors = new Float32Array(0);
  count = 0;

  get capacity(): number {
    return this.positions.length / 6;
  }

  /** Makes room for `n` segments; returns true if the arrays were replaced (the mesh must be rebuilt). */
  reserve(n: number): boolean {
    if (n <= this.capacity) return false;
    let cap = Math.max(1024, this.capacity);
    while (cap < n) cap *= 2;
    const p = new Float32Array(cap * 6);
    const c = new Float32Array(cap * 8);
    p.set(this.positions);
    c.set(this.colors);
    this.positions = p;
    this.colors = c;
    return true;
  }

  push(ax: number, ay: number, az: number, bx: number, by: number, bz: number, rgb: Rgb): void {
    if (this.count >= this.capacity) return; // reserve() ran for this frame's worst case
    const p = this.positions,
      c = this.colors;
    const o = this.count * 6,
      co = this.count * 8;
    p[o] = ax;
    p[o + 1] = ay;
    p[o + 2] = az;
    p[o + 3] = bx;
    p[o + 4] = by;
    p[o + 5] = bz;
    c[co] = c[co + 4] = rgb[0];
    c[co + 1] = c[co + 5] = rgb[1];
    c[co + 2] = c[co + 6] = rgb[2];
    c[co + 3] = c[co + 7] = 1;
    this.count++;
  }
}

/** Box corner offsets: bit 0 picks max x, bit 1 max y, bit 2 max z. The 12 edges join corners one bit apart. */
const EDGES = [0, 1, 2, 3, 4, 5, 6, 7, 0, 2, 1, 3, 4, 6, 5, 7, 0, 4, 1, 5, 2, 6, 3, 7];

export class DebugOverlay {
  on = false;
  readonly counts: OverlayCounts = { contacts: 0, touching: 0, speculative: 0, bounds: 0, sweeps: 0, toi: 0, toiSeen: 0, segments: 0, drawMs: 0 };
  private readonly button: HTMLButtonElement;
  private readonly legend: HTMLElement;
  private stage: Stage | null = null;
  private mesh: LinesMesh | null = null;
  private observer: Observer<Scene> | null = null;
  private readonly segs = new SegmentBuffer();
  private debugView: WorldDebugView | null = null;
  private viewWorld: ContinuumPlugin["world"] | null = null;
  private contactData = new Float64Array(1024 * DEBUG_CONTACT_STRIDE);
  private boundsData = new Float64Array(512 * DEBUG_BOUNDS_STRIDE);
  private sweepData = new Float64Array(64 * DEBUG_SWEEP_STRIDE);
  /** 8 box corners (x, y, z), scratch. */
  private readonly corners = new Float64Array(24);

  constructor(overlay: HTMLElement) {
    this.button = document.createElement("button");
    this.button.type = "button";
    this.button.id = "contacts";
    this.button.title = "C: what the engine predicted: contacts (orange touching, cyan speculative), swept bounds, sweeps and times of impact";
    this.button.textContent = "Contacts & CCD";
    this.button.addEventListener("click", () => this.set(!this.on));
    (overlay.querySelector(".buttons") ?? overlay).append(this.button);
    this.legend = document.createElement("p");
    this.legend.id = "debug-legend";
    this.legend.style.display = "none";
    (overlay.querySelector("#stats") ?? overlay).after(this.legend);
    window.addEventListener("keydown", (e) => {
      if (e.target instanceof HTMLInputElement || e.target instanceof HTMLSelectElement || e.ctrlKey || e.metaKey || e.altKey) return;
      if (e.key.toLowerCase() === "c") this.set(!this.on);
    });
    this.button.setAttribute("aria-pressed", "false");
  }

  /** Follows a newly built scene (the overlay stays on or off across scene and engine changes). */
  attach(stage: Stage): void {
    this.detach();
    this.stage = stage;
    if (this.on) this.start();
  }

  set(on: boolean): void {
    this.on = on;
    this.button.setAttribute("aria-pressed", String(on));
    this.counts.toiSeen = 0;
    if (on) this.start();
    else this.detach(false);
  }

  private view(): WorldDebugView | null {
    const p = this.stage?.physics.continuum as ContinuumPlugin | null | undefined;
    if (!p) return null;
    // One view per world (the plugin's world is replaced when its scene is).
    if (this.viewWorld !== p.world || this.debugView === null) {
      this.viewWorld = p.world;
      this.debugView = new WorldDebugView(p.world);
    }
    return this.debugView;
  }

  private start(): void {
    const stage = this.stage;
    if (!stage || this.observer) return;
    const view = this.view();
    this.legend.style.display = "";
    if (!view) {
      this.legend.textContent = "Contacts & CCD: Continuum's debug view; Havok has none to show.";
      return;
    }
    view.enabled = true;
    this.legend.innerHTML =
      '<i style="background:#f2a612"></i>touching <i style="background:#4dd9f2"></i>speculative <i style="background:#6bbf59"></i>swept bounds ' +
      '<i style="background:#9b72cf"></i>Continuous <i style="background:#8c99ad"></i>sweep start <i style="background:#eaeef2"></i>end <i style="background:#e6331f"></i>TOI';
    this.observer = stage.scene.onBeforeRenderObservable.add(() => this.draw(view, stage.scene));
  }

  /** Removes the drawing from the current scene (and forgets the scene when `forget`). */
  private detach(forget = true): void {
    const view = this.view();
    if (view) view.enabled = false;
    if (this.observer) this.stage?.scene.onBeforeRenderObservable.remove(this.observer);
    this.observer = null;
    this.mesh?.dispose();
    this.mesh = null;
    this.legend.style.display = "none";
    if (forget) this.stage = null;
  }

  private draw(view: WorldDebugView, scene: Scene): void {
    const t0 = performance.now();
    // Read: grow the arrays when they came back full (rare; then read again next frame).
    const nc = view.contacts(this.contactData);
    if (nc * DEBUG_CONTACT_STRIDE === this.contactData.length) this.contactData = new Float64Array(this.contactData.length * 2);
    const nb = view.bounds(this.boundsData);
    if (nb * DEBUG_BOUNDS_STRIDE === this.boundsData.length) this.boundsData = new Float64Array(this.boundsData.length * 2);
    const ns = view.sweeps(this.sweepData);
    if (ns * DEBUG_SWEEP_STRIDE === this.sweepData.length) this.sweepData = new Float64Array(this.sweepData.length * 2);

    const segs = this.segs;
    const grew = segs.reserve(nc * 4 + nb * 12 + ns * 37);
    segs.count = 0;
    const counts = this.counts;
    counts.contacts = nc;
    counts.touching = counts.speculative = 0;

    const c = this.contactData;
    for (let k = 0; k < nc; k++) {
      const o = k * DEBUG_CONTACT_STRIDE;
      const x = c[o + DebugContact.pointX],
        y = c[o + DebugContact.pointX + 1],
        z = c[o + DebugContact.pointX + 2];
      const touching = c[o + DebugContact.separation] <= TOUCH;
      if (touching) counts.touching++;
      else counts.speculative++;
      const rgb = touching ? COLORS.touching : COLORS.speculative;
      segs.push(x - CROSS, y, z, x + CROSS, y, z, rgb);
      segs.push(x, y - CROSS, z, x, y + CROSS, z, rgb);
      segs.push(x, y, z - CROSS, x, y, z + CROSS, rgb);
      const nx = c[o + DebugContact.normalX],
        ny = c[o + DebugContact.normalX + 1],
        nz = c[o + DebugContact.normalX + 2];
      segs.push(x, y, z, x + nx * NORMAL_LENGTH, y + ny * NORMAL_LENGTH, z + nz * NORMAL_LENGTH, rgb);
    }

    const b = this.boundsData;
    counts.bounds = 0;
    for (let k = 0; k < nb; k++) {
      const o = k * DEBUG_BOUNDS_STRIDE;
      const flags = b[o + DebugBounds.flags];
      if ((flags & DebugBoundsFlag.Moving) === 0) continue; // statics and sleepers: their boxes do not move
      counts.bounds++;
      const cs = this.corners;
      for (let v = 0; v < 8; v++) {
        cs[v * 3] = b[o + (v & 1 ? DebugBounds.maxX : DebugBounds.minX)];
        cs[v * 3 + 1] = b[o + (v & 2 ? DebugBounds.maxX : DebugBounds.minX) + 1];
        cs[v * 3 + 2] = b[o + (v & 4 ? DebugBounds.maxX : DebugBounds.minX) + 2];
      }
      this.pushBox(flags & DebugBoundsFlag.Continuous ? COLORS.continuousBounds : COLORS.bounds);
    }

    const s = this.sweepData;
    counts.sweeps = ns;
    counts.toi = 0;
    for (let k = 0; k < ns; k++) {
      const o = k * DEBUG_SWEEP_STRIDE;
      this.poseBox(s, o, o + DebugSweep.start);
      this.pushBox(COLORS.sweepStart);
      this.poseBox(s, o, o + DebugSweep.end);
      this.pushBox(COLORS.sweepEnd);
      segs.push(s[o + DebugSweep.start], s[o + DebugSweep.start + 1], s[o + DebugSweep.start + 2], s[o + DebugSweep.end], s[o + DebugSweep.end + 1], s[o + DebugSweep.end + 2], COLORS.path);
      if (s[o + DebugSweep.kind] !== DebugSweepKind.None) {
        counts.toi++;
        this.poseBox(s, o, o + DebugSweep.toiPose);
        this.pushBox(COLORS.toi);
      }
    }
    counts.toiSeen += counts.toi;
    counts.segments = segs.count;
    this.upload(scene, grew);
    counts.drawMs += 0.1 * (performance.now() - t0 - counts.drawMs);
  }

  /** corners = the record's local bounds (at o) placed at the pose at p (px, py, pz, qx, qy, qz, qw). */
  private poseBox(s: Float64Array, o: number, p: number): void {
    const px = s[p],
      py = s[p + 1],
      pz = s[p + 2],
      qx = s[p + 3],
      qy = s[p + 4],
      qz = s[p + 5],
      qw = s[p + 6];
    const cs = this.corners;
    for (let v = 0; v < 8; v++) {
      const lx = s[o + (v & 1 ? DebugSweep.localMax : DebugSweep.localMin)],
        ly = s[o + (v & 2 ? DebugSweep.localMax : DebugSweep.localMin) + 1],
        lz = s[o + (v & 4 ? DebugSweep.localMax : DebugSweep.localMin) + 2];
      // Rotate (lx, ly, lz) by q: v + 2w(q x v) + 2 q x (q x v).
      const tx = 2 * (qy * lz - qz * ly),
        ty = 2 * (qz * lx - qx * lz),
        tz = 2 * (qx * ly - qy * lx);
      cs[v * 3] = px + lx + qw * tx + (qy * tz - qz * ty);
      cs[v * 3 + 1] = py + ly + qw * ty + (qz * tx - qx * tz);
      cs[v * 3 + 2] = pz + lz + qw * tz + (qx * ty - qy * tx);
    }
  }

  private pushBox(rgb: Rgb): void {
    const cs = this.corners;
    for (let e = 0; e < 24; e += 2) {
      const a = EDGES[e] * 3,
        b = EDGES[e + 1] * 3;
      this.segs.push(cs[a], cs[a + 1], cs[a + 2], cs[b], cs[b + 1], cs[b + 2], rgb);
    }
  }

  /** Writes the segments into the line mesh's buffers in place; draws only the used range. */
  private upload(scene: Scene, grew: boolean): void {
    const segs = this.segs;
    if (!this.mesh || grew) {
      this.mesh?.dispose();
      const mesh = new LinesMesh("contacts-ccd", scene, null, null, undefined, true, false);
      const data = new VertexData();
      data.positions = segs.positions;
      data.colors = segs.colors;
      const indices = new Uint32Array(segs.capacity * 2);
      for (let i = 0; i < indices.length; i++) indices[i] = i;
      data.indices = indices;
      data.applyToMesh(mesh, true);
      mesh.isPickable = false;
      mesh.alwaysSelectAsActiveMesh = true; // bounds would be those of the first frame
      mesh.doNotSyncBoundingInfo = true;
      mesh.renderingGroupId = 1; // over the scene: contacts inside a pile stay visible
      this.mesh = mesh;
    } else {
      this.mesh.updateVerticesData(VertexBuffer.PositionKind, segs.positions, false, false);
      this.mesh.updateVerticesData(VertexBuffer.ColorKind, segs.colors, false, false);
    }
    const sub = this.mesh.subMeshes?.[0];
    if (sub) sub.indexCount = segs.count * 2;
  }
}
