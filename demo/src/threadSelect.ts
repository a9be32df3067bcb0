/**
 * The thread selector (issue 27): how many threads Continuum's step runs on (`new ContinuumPlugin(true, { threads })`),
 * beside the engine row's ms/step, with the threads actually in use (1 until the workers are ready, 1 on a page
 * without cross-origin isolation or after a fall-back; the title then says why). `?threads=N` in the URL.
 */
import type { ContinuumPlugin } from "../../plugin/index";

/** The choices: 1, 2, 4 and the machine's core count when it is more (at most 8). */
function choices(): number[] {
  const cores = Math.min(8, Math.max(1, navigator.hardwareConcurrency || 1));
  return [...new Set([1, 2, 4, cores])].filter((n) => n <= Math.max(4, cores)).sort((a, b) => a - b);
}

/** `?threads=N` (an integer 1..8), else 1. */
export function threadsFromUrl(url: URL): number {
  const n = Number(url.searchParams.get("threads"));
  return Number.isInteger(n) && n >= 1 && n <= 8 ? n : 1;
}

export interface ThreadSelect {
  /** Shows the threads of `plugin` in use now (null: the running engine is not Continuum). */
  update(plugin: ContinuumPlugin | null): void;
}

/** Adds the selector under the engine row; `onChange(n)` reloads the scene on n threads. */
export function createThreadSelect(overlay: HTMLElement, current: () => number, onChange: (threads: number) => void): ThreadSelect {
  const label = document.createElement("label");
  label.textContent = "Threads";
  label.htmlFor = "threads";
  const select = document.createElement("select");
  select.id = "threads";
  select.title = "Threads Continuum's step runs on (the page must be cross-origin isolated for more than 1)";
  for (const n of choices()) select.append(new Option(String(n), String(n)));
  select.value = String(current());
  select.addEventListener("change", () => onChange(Number(select.value)));
  const inUse = document.createElement("span");
  inUse.id = "threads-in-use";
  // Its own row right under the engine row (whose line holds the ms/step), so neither wraps.
  const row = document.createElement("div");
  row.id = "threads-row";
  row.append(label, select, inUse);
  const engineRow = overlay.querySelector("#engine-row");
  if (engineRow) engineRow.after(row);
  else overlay.prepend(row);
  return {
    update(plugin) {
      select.value = String(current());
      const text = plugin === null ? "Havok: 1 thread" : `${plugin.threads} in use`;
      if (inUse.textContent !== text) inUse.textContent = text;
      const why = plugin?.world.threadsMessage ?? "";
      if (inUse.title !== why) inUse.title = why;
    },
  };
}
