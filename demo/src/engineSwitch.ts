/**
 * The engine switch: a Continuum | Havok toggle in the overlay (key E) and the line that compares the two:
 * the running engine's ms/step and the last value measured on the other one for the same scene.
 *
 * The last value of each (scene, engine) is kept in sessionStorage, so it survives the switch (which rebuilds
 * the scene) and a page reload with `?engine=`.
 */
import { ENGINE_KINDS, ENGINE_NAMES, otherEngine, type EngineKind } from "./engines";

const KEY = (sceneId: string, kind: EngineKind) => `continuum-demo/ms/${sceneId}/${kind}`;

/** Remembers the latest mean ms/step of a scene on an engine. */
export function rememberMs(sceneId: string, kind: EngineKind, ms: number): void {
  if (!Number.isFinite(ms)) return;
  try {
    sessionStorage.setItem(KEY(sceneId, kind), ms.toFixed(3));
  } catch {
    // Storage disabled (private mode, sandboxed frame): the comparison just is not shown.
  }
}

/** The last mean ms/step remembered for a scene on an engine, or NaN. */
export function lastMs(sceneId: string, kind: EngineKind): number {
  try {
    const v = sessionStorage.getItem(KEY(sceneId, kind));
    return v === null ? NaN : Number(v);
  } catch {
    return NaN;
  }
}

export interface EngineSwitch {
  /** Marks `kind` as the running engine. */
  show(kind: EngineKind): void;
  /** Writes the comparison line: the running engine's ms/step now, the other's last value. */
  compare(sceneId: string, kind: EngineKind, ms: number): void;
}

/**
 * Adds the engine row after the scene picker; `onSwitch(kind)` reloads the scene on `kind` (the button of the
 * other engine, or the E key).
 */
export function createEngineSwitch(overlay: HTMLElement, current: () => EngineKind, onSwitch: (kind: EngineKind) => void): EngineSwitch {
  const row = document.createElement("div");
  row.id = "engine-row";
  const label = document.createElement("label");
  label.textContent = "Engine";
  const seg = document.createElement("div");
  seg.className = "seg";
  seg.id = "engine";
  seg.title = "E: run this scene on the other engine";
  const buttons = ENGINE_KINDS.map((kind) => {
    const b = document.createElement("button");
    b.type = "button";
    b.textContent = ENGINE_NAMES[kind];
    b.dataset.value = kind;
    b.addEventListener("click", () => kind !== current() && onSwitch(kind));
    return b;
  });
  seg.append(...buttons);
  const line = document.createElement("span");
  line.id = "engine-compare";
  row.append(label, seg, line);
  const picker = overlay.querySelector("#picker");
  if (picker) picker.after(row);
  else overlay.prepend(row);

  window.addEventListener("keydown", (e) => {
    if (e.target instanceof HTMLInputElement || e.target instanceof HTMLSelectElement || e.ctrlKey || e.metaKey || e.altKey) return;
    if (e.key.toLowerCase() === "e") onSwitch(otherEngine(current()));
  });

  return {
    show(kind) {
      for (const b of buttons) b.setAttribute("aria-pressed", String(b.dataset.value === kind));
    },
    compare(sceneId, kind, ms) {
      rememberMs(sceneId, kind, ms);
      const other = otherEngine(kind);
      const before = lastMs(sceneId, other);
      const now = Number.isFinite(ms) ? ms.toFixed(2) : "–";
      const html =
        `<b>${ENGINE_NAMES[kind]}</b> ${now} ms/step` +
        (Number.isFinite(before) ? ` · ${ENGINE_NAMES[other]} last <b data-engine-last="${other}">${before.toFixed(2)}</b>` : ` · E: try ${ENGINE_NAMES[other]}`);
      if (line.innerHTML !== html) line.innerHTML = html;
    },
  };
}
