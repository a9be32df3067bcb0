import { afterEach, describe, expect, it } from "vitest";
import { grown, setBufferAllocator } from "../../src/collections/growth";
import { IntList } from "../../src/collections/intList";
import { PairTable } from "../../src/collections/pairTable";
import { BodySet } from "../../src/dynamics/bodySet";

afterEach(() => {
  setBufferAllocator(null);
});

describe("grown", () => {
  it("returns the array itself while it holds n elements", () => {
    const a = new Float64Array([1, 2, 3]);
    expect(grown(a, 3)).toBe(a);
    expect(grown(a, 0)).toBe(a);
  });

  it("doubles at least, keeps every element by default and zeros the rest", () => {
    const a = new Int32Array([7, -8, 9]);
    const b = grown(a, 4);
    expect(b).toBeInstanceOf(Int32Array);
    // max(4, 2 x 3) = 6 elements: doubling, not the bare minimum.
    expect(Array.from(b)).toEqual([7, -8, 9, 0, 0, 0]);
    // More than double asked: exactly that many.
    expect(grown(a, 10).length).toBe(10);
  });

  it("keeps only the live prefix it is told of", () => {
    const a = new Float64Array([1.5, 2.5, 3.5, 4.5]);
    expect(Array.from(grown(a, 5, 2))).toEqual([1.5, 2.5, 0, 0, 0, 0, 0, 0]);
    expect(Array.from(grown(new Uint8Array([1, 2]), 3, 0))).toEqual([0, 0, 0, 0]);
  });

  it("makes new arrays over the allocator its owner sets, and plain memory again once reset", () => {
    const sizes: number[] = [];
    const previous = setBufferAllocator((n) => {
      sizes.push(n);
      return new SharedArrayBuffer(n);
    });
    const a = grown(new Float64Array([1, 2]), 3);
    expect(a.buffer).toBeInstanceOf(SharedArrayBuffer);
    // 4 doubles of 8 bytes.
    expect(sizes).toEqual([32]);
    expect(Array.from(a)).toEqual([1, 2, 0, 0]);
    setBufferAllocator(previous);
    expect(grown(a, 5).buffer).toBeInstanceOf(ArrayBuffer);
  });

  it("lets every store grow over the set allocator without a change of its own", () => {
    setBufferAllocator((n) => new SharedArrayBuffer(n));
    const list = new IntList(2);
    for (let k = 0; k < 5; k++) list.push(k * 3);
    expect(list.data.buffer).toBeInstanceOf(SharedArrayBuffer);
    expect(Array.from(list.data.subarray(0, list.count))).toEqual([0, 3, 6, 9, 12]);
    const table = new PairTable(2);
    for (let k = 0; k < 20; k++) table.payload[table.insert(k, k + 1) * 2] = k + 0.5;
    expect(table.keyA.buffer).toBeInstanceOf(SharedArrayBuffer);
    // Entries gathered before the table grew survive it, payload included.
    expect(table.find(3, 4)).toBe(3);
    expect(table.payload[3 * 2]).toBe(3.5);
    const bodies = new BodySet(1);
    for (let k = 0; k < 3; k++) {
      const i = bodies.allocate();
      bodies.pos[i * 3] = k + 1;
    }
    expect(bodies.pos.buffer).toBeInstanceOf(SharedArrayBuffer);
    expect([bodies.pos[0], bodies.pos[3], bodies.pos[6]]).toEqual([1, 2, 3]);
  });
});
