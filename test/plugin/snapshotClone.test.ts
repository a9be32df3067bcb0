/**
 * Issue 29 item 6: `plugin.restore(structuredClone(snapshot))` threw a TypeError. `structuredClone` and
 * `postMessage` are how a snapshot reaches a Worker or IndexedDB; they keep the snapshot's own fields and drop
 * its class. Restore takes what they give, and the snapshot's bytes, and replays bit for bit.
 */
import * as B from "@babylonjs/core";
import { describe, expect, it } from "vitest";
import * as C from "../../plugin/index";
import { ContinuumPlugin } from "../../plugin/index";
import { PhysicsSnapshot } from "../../plugin/snapshot"; // and installs plugin.snapshot / restore
import { buildTimeTravelScene, type TimeTravelScene } from "../scenes/timeTravelScene.mjs";

function build(): TimeTravelScene {
  return buildTimeTravelScene(B, C, new B.NullEngine());
}

/** The snapshot sent through a MessageChannel (what a Worker receives). */
function posted<T>(value: T): Promise<T> {
  return new Promise((resolve) => {
    const ch = new MessageChannel();
    ch.port2.onmessage = (e) => {
      ch.port1.close();
      ch.port2.close();
      resolve(e.data as T);
    };
    ch.port1.postMessage(value);
  });
}

describe("restore from a structured clone, a message and bytes", () => {
  it("each restores the moment of the snapshot: the next 20 steps hash as the uninterrupted run", async () => {
    const ref = build();
    const refHashes: number[] = [];
    for (let i = 0; i < 260; i++) refHashes.push(ref.step());
    ref.scene.dispose();

    const t = build();
    const p = t.plugin as ContinuumPlugin;
    while (t.stepIndex < 240) t.step();
    const snap = p.snapshot();
    const at = t.stepIndex;
    const cloned = structuredClone(snap);
    expect(cloned).not.toBeInstanceOf(PhysicsSnapshot); // what broke restore: the class is gone
    const sources: [string, unknown][] = [
      ["structuredClone", cloned],
      ["postMessage", await posted(snap)],
      ["toBytes()", snap.toBytes()],
      ["Uint8Array of the bytes", new Uint8Array(snap.toBytes())],
    ];
    for (const [name, source] of sources) {
      // Play that the restore must undo.
      for (let k = 0; k < 15; k++) t.step();
      p.restore(source as PhysicsSnapshot);
      t.stepIndex = at;
      const hashes: number[] = [];
      for (let k = 0; k < 20; k++) hashes.push(t.step());
      expect({ name, hashes }).toEqual({ name, hashes: refHashes.slice(at, at + 20) });
      p.restore(source as PhysicsSnapshot); // restore keeps nothing of it: it can be used again
      t.stepIndex = at;
    }
    // A clone whose bytes are not a snapshot, or that is not a clone at all, is refused by name.
    const bad = structuredClone(snap) as unknown as { _buf: ArrayBuffer; _length: number };
    new Uint8Array(bad._buf)[0] ^= 1;
    expect(() => p.restore(bad as unknown as PhysicsSnapshot)).toThrow(/restore: snapshot must be a snapshot \(they do not start with the snapshot mark\)/);
    expect(() => p.restore({ _buf: snap.toBytes(), _length: 1e9 } as unknown as PhysicsSnapshot)).toThrow(/restore: snapshot must be a PhysicsSnapshot, its structured clone or its bytes/);
    t.scene.dispose();
  }, 120_000);
});
