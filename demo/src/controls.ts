/** The page's buttons and keyboard shortcuts: pause / step / reset. */
export interface ControlActions {
  isPaused(): boolean;
  pause(paused?: boolean): void;
  step(): void;
  reset(): void;
}

export function bindControls(root: HTMLElement, actions: ControlActions): () => void {
  const button = (id: string) => root.querySelector<HTMLButtonElement>(`#${id}`)!;
  const pauseButton = button("pause");
  const refresh = () => {
    const paused = actions.isPaused();
    pauseButton.textContent = paused ? "▶ Play" : "❚❚ Pause";
    pauseButton.setAttribute("aria-pressed", String(paused));
  };
  pauseButton.addEventListener("click", () => {
    actions.pause(!actions.isPaused());
    refresh();
  });
  button("step").addEventListener("click", () => {
    actions.step();
    refresh();
  });
  button("reset").addEventListener("click", () => actions.reset());

  window.addEventListener("keydown", (e) => {
    if (e.target instanceof HTMLInputElement || e.ctrlKey || e.metaKey || e.altKey) return;
    const key = e.key.toLowerCase();
    if (key === " ") actions.pause(!actions.isPaused());
    else if (key === "n" || key === ".") actions.step();
    else if (key === "r") actions.reset();
    else return;
    e.preventDefault();
    refresh();
  });
  refresh();
  return refresh;
}
