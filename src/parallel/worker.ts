/**
 * The worker thread's entry (built to dist/continuum.worker.mjs): it waits for the pool's arrays, then loops on
 * the control block (./barrier.ts), claiming and running blocks of each job until the pool stops it. Between
 * jobs it sleeps in `Atomics.wait`. A job over arrays of a newer generation sends it back to its event loop,
 * where the pool's message with those arrays is already waiting.
 *
 * Runs in Node (`worker_threads`) and as a browser module worker.
 */
import { awaitJob, blockDone, claimBlock, Command, CONTACT_SPIN, Ctrl, HomeClaims } from "./barrier";
import { PredictBlocks, type PredictArrays } from "./predictBlocks";
import { NarrowBlocks, type NarrowArrays } from "./narrowBlocks";
import { ContactBlocks, type ContactArrays } from "./contactBlocks";
import { rehydrateShape } from "./shapeReplica";
import type { Shape } from "../shapes/shape";

interface BindMessage {
  type: "bind";
  index: number;
  /** Threads of the pool: the calling thread and every worker. */
  threads: number;
  generation: number;
  ctrl: Int32Array;
  /** The prediction's arrays and the narrow phase's (null before that stage first ran). */
  arrays: PredictArrays | null;
  narrow: NarrowArrays | null;
  contact: ContactArrays | null;
}

/** The world's shapes with ids first, first + 1, ... (structured clones: ./shapeReplica.ts puts their classes back). */
interface ShapesMessage {
  type: "shapes";
  first: number;
  shapes: Shape[];
}

interface Endpoint {
  post(message: unknown): void;
  listen(handler: (message: unknown) => void): void;
  close(): void;
  /** Logical cores of the machine (0: unknown). */
  cores: number;
}

const blocks = new PredictBlocks();
const narrowBlocks = new NarrowBlocks();
const contactBlocks = new ContactBlocks();
const homeClaims = new HomeClaims();

/** Runs jobs until one is over newer arrays (returns true: rebind) or the pool says stop (returns false). */
function runJobs(m: BindMessage, port: Endpoint): boolean {
  const ctrl = m.ctrl;
  let seen = Atomics.load(ctrl, Ctrl.Seq);
  let spin = 0;
  for (;;) {
    const seq = spin > 0 ? awaitJob(ctrl, seen, spin) : awaitJob(ctrl, seen);
    seen = seq;
    const command = Atomics.load(ctrl, Ctrl.Command);
    if (command === Command.Stop) return false;
    // Spinning for the next colour pays where each thread has a core; with more threads than cores it takes the
    // core of a thread that has work, so the worker sleeps as after any other job.
    spin = command === Command.ContactPass && (port.cores === 0 || m.threads <= port.cores) ? CONTACT_SPIN : 0;
    if (Atomics.load(ctrl, Ctrl.Generation) !== m.generation) return true;
    const arrays = command === Command.NarrowPhase ? m.narrow : command === Command.PredictMotion ? m.arrays : command === Command.ContactPass ? m.contact : null;
    if (arrays === null) continue;
    const stamps = arrays.stamps;
    const items = Atomics.load(ctrl, Ctrl.Items);
    // A contact pass's blocks from this worker's home range first (HomeClaims); the other stages' in order of arrival.
    const contact = command === Command.ContactPass ? m.contact! : null;
    if (contact !== null) homeClaims.begin(seq, Atomics.load(ctrl, Ctrl.Blocks), m.index + 1, m.threads);
    try {
      for (;;) {
        const k = contact !== null ? homeClaims.next(contact.claims) : claimBlock(ctrl, seq);
        if (k < 0) break;
        if (command === Command.NarrowPhase) narrowBlocks.run(k, items);
        else if (command === Command.ContactPass) contactBlocks.run(k);
        else blocks.run(k, items);
        Atomics.store(stamps, k, seq);
        blockDone(ctrl);
      }
    } catch (e) {
      // The main thread sees the flag while it waits, runs the block itself and falls back to one thread.
      Atomics.store(ctrl, Ctrl.Failed, m.index + 1);
      Atomics.notify(ctrl, Ctrl.Done);
      port.post({ type: "error", message: e instanceof Error ? e.message : String(e) });
      return false;
    }
  }
}

function onMessage(message: unknown, port: Endpoint): void {
  const s = message as ShapesMessage;
  if (s.type === "shapes") {
    for (let i = 0; i < s.shapes.length; i++) narrowBlocks.shapes[s.first + i] = rehydrateShape(s.shapes[i]);
    return;
  }
  const m = message as BindMessage;
  if (m.type !== "bind") return;
  if (m.arrays !== null) blocks.bind(m.arrays);
  if (m.narrow !== null) narrowBlocks.bind(m.narrow);
  if (m.contact !== null) contactBlocks.bind(m.contact);
  Atomics.store(m.ctrl, Ctrl.Bound + m.index, m.generation);
  if (!runJobs(m, port)) port.close();
}

async function endpoint(): Promise<Endpoint> {
  const scope = globalThis as unknown as {
    postMessage?: (m: unknown) => void;
    close?: () => void;
    addEventListener?: (type: string, f: (e: { data: unknown }) => void) => void;
    process?: { versions?: { node?: string } };
    navigator?: { hardwareConcurrency?: number };
  };
  if (scope.process?.versions?.node !== undefined) {
    const spec = "node:worker_threads";
    const wt = (await import(/* @vite-ignore */ spec)) as typeof import("node:worker_threads");
    const os = (await import(/* @vite-ignore */ "node:os")) as typeof import("node:os");
    const parent = wt.parentPort!;
    return {
      post: (m) => parent.postMessage(m),
      listen: (f) => parent.on("message", f),
      close: () => parent.close(),
      cores: typeof os.availableParallelism === "function" ? os.availableParallelism() : os.cpus().length,
    };
  }
  return {
    post: (m) => scope.postMessage!(m),
    listen: (f) => scope.addEventListener!("message", (e) => f(e.data)),
    close: () => scope.close!(),
    cores: scope.navigator?.hardwareConcurrency ?? 0,
  };
}

void endpoint().then((port) => {
  port.listen((m) => onMessage(m, port));
  port.post({ type: "listening" });
});
