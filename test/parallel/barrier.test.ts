/**
 * The pool's barrier (src/parallel/barrier.ts) in one thread, and the one-thread fall-back where SharedArrayBuffer
 * is missing: a claimed block that never finishes makes the main thread's wait give up (instead of hanging) when the
 * workers are not all running, or after its patience; a worker that woke late cannot claim a block of a later job.
 */
import { describe, expect, it, vi } from "vitest";
import { awaitBlocks, blockDone, claimBlock, Command, controlWords, Ctrl, HomeClaims, nextSeq, openBlocks, publishJob } from "../../src/parallel/barrier";
import { NO_SHARED_MEMORY_MESSAGE } from "../../src/parallel/workerPool";
import { World } from "../../src/index";

const control = () => new Int32Array(new SharedArrayBuffer(controlWords(2) * 4));

describe("barrier", () => {
  it("blocks are claimed once each, in order, and the wait returns when all are done", () => {
    const ctrl = control();
    const seq = publishJob(ctrl, Command.PredictMotion, 1, 3, 150);
    expect([claimBlock(ctrl, seq), claimBlock(ctrl, seq), claimBlock(ctrl, seq), claimBlock(ctrl, seq)]).toEqual([0, 1, 2, -1]);
    for (let k = 0; k < 3; k++) blockDone(ctrl);
    expect(awaitBlocks(ctrl, 3, true, () => true, 1000)).toBe(true);
  });

  it("a late worker holding the previous job's sequence number claims nothing of the next job", () => {
    const ctrl = control();
    const first = publishJob(ctrl, Command.PredictMotion, 1, 2, 100);
    const second = publishJob(ctrl, Command.PredictMotion, 1, 2, 100);
    expect(claimBlock(ctrl, first)).toBe(-1);
    expect(claimBlock(ctrl, second)).toBe(0);
  });

  it("a block claimed by a worker that died ends the wait: at once when the workers are not all running, else after the patience", () => {
    const ctrl = control();
    const seq = publishJob(ctrl, Command.PredictMotion, 1, 2, 100);
    expect(claimBlock(ctrl, seq)).toBe(0); // the worker's block, never done
    expect(claimBlock(ctrl, seq)).toBe(1);
    blockDone(ctrl);
    let t = performance.now();
    expect(awaitBlocks(ctrl, 2, true, () => false, 60_000)).toBe(false);
    expect(performance.now() - t).toBeLessThan(1000);
    t = performance.now();
    expect(awaitBlocks(ctrl, 2, true, () => true, 50)).toBe(false);
    expect(performance.now() - t).toBeGreaterThanOrEqual(50);
    // A worker's failure flag ends the wait too.
    Atomics.store(ctrl, Ctrl.Failed, 1);
    expect(awaitBlocks(ctrl, 2, true, () => true, 60_000)).toBe(false);
  });

  it("home claims: each thread takes its own part of the blocks first, then the others' from their ends, every block once", () => {
    const ctrl = control();
    const claims = new Int32Array(new SharedArrayBuffer(16 * 4));
    openBlocks(claims, nextSeq(ctrl), 10);
    const seq = publishJob(ctrl, Command.ContactPass, 1, 10, 300);
    const threads = [0, 1, 2].map((t) => {
      const h = new HomeClaims();
      h.begin(seq, 10, t, 3);
      return h;
    });
    // Homes of 3 threads over 10 blocks: [0, 3), [3, 6), [6, 10).
    expect([threads[0].next(claims), threads[1].next(claims), threads[2].next(claims)]).toEqual([0, 3, 6]);
    // Thread 2 runs alone: the rest of its home, then thread 1's from its end, then thread 0's from its end.
    const alone: number[] = [];
    for (let k = threads[2].next(claims); k >= 0; k = threads[2].next(claims)) alone.push(k);
    expect(alone).toEqual([7, 8, 9, 5, 4, 2, 1]);
    expect(threads[0].next(claims)).toBe(-1);
    expect(threads[1].next(claims)).toBe(-1);
    for (let k = 0; k < 10; k++) expect(claims[k]).toBe(seq);
  });

  it("home claims: a late worker of the previous job claims nothing of the next", () => {
    const ctrl = control();
    const claims = new Int32Array(new SharedArrayBuffer(16 * 4));
    openBlocks(claims, nextSeq(ctrl), 4);
    const first = publishJob(ctrl, Command.ContactPass, 1, 4, 100);
    const late = new HomeClaims();
    late.begin(first, 4, 1, 2);
    openBlocks(claims, nextSeq(ctrl), 4);
    const second = publishJob(ctrl, Command.ContactPass, 1, 4, 100);
    expect(late.next(claims)).toBe(-1);
    const now = new HomeClaims();
    now.begin(second, 4, 1, 2);
    expect(now.next(claims)).toBe(2);
  });
});

describe("no SharedArrayBuffer", () => {
  it("runs on one thread and says once why, naming the two headers", async () => {
    const saved = globalThis.SharedArrayBuffer;
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    try {
      delete (globalThis as { SharedArrayBuffer?: unknown }).SharedArrayBuffer;
      const a = new World({ threads: 2 });
      const b = new World({ threads: 4 });
      // The pool's module loads in the background (src/parallel/threads.ts); it says why once it is made.
      for (let t = 0; t < 2000 && (a.workerPool === null || b.workerPool === null); t++) await new Promise((r) => setTimeout(r, 5));
      expect(a.threads).toBe(1);
      expect(b.threads).toBe(1);
      expect(a.threadsMessage).toBe(NO_SHARED_MEMORY_MESSAGE);
      expect(NO_SHARED_MEMORY_MESSAGE).toContain("Cross-Origin-Opener-Policy: same-origin");
      expect(NO_SHARED_MEMORY_MESSAGE).toContain("Cross-Origin-Embedder-Policy: require-corp");
      expect(warn).toHaveBeenCalledTimes(1);
      a.step(1 / 60);
    } finally {
      (globalThis as { SharedArrayBuffer?: unknown }).SharedArrayBuffer = saved;
      warn.mockRestore();
    }
  });
});
