/**
 * Growth of the typed arrays that hold the engine's state and scratch: one rule for every store that grows (a
 * list, a table, per-body columns, a module's scratch). {@link grown} returns the array itself while it is large
 * enough; otherwise a larger one of the same kind that keeps the elements the caller says are live, so a store's
 * contents never depend on when it grew.
 *
 * New buffers come from one allocator, plain `ArrayBuffer`s by default. Whoever needs the stores in other memory
 * sets it (a worker pool: `SharedArrayBuffer`s, so that workers see the arrays the stages write; growth then
 * happens between steps, where the pool's owner runs it) without any call site changing.
 */

/** The typed-array kinds the engine stores. */
export type GrowableArray = Float64Array | Float32Array | Int32Array | Uint32Array | Int16Array | Uint16Array | Int8Array | Uint8Array;

/** Makes the memory of a new array of `byteLength` bytes. */
export type BufferAllocator = (byteLength: number) => ArrayBufferLike;

type ArrayKind<T extends GrowableArray> = new (buffer: ArrayBufferLike, byteOffset: number, length: number) => T;

const plainMemory: BufferAllocator = (byteLength) => new ArrayBuffer(byteLength);
let allocator: BufferAllocator = plainMemory;

/**
 * Sets the allocator of every array {@link grown} makes from now on (null: plain `ArrayBuffer`s) and returns the
 * one it replaces, for its owner to put back.
 */
export function setBufferAllocator(next: BufferAllocator | null): BufferAllocator {
  const previous = allocator;
  allocator = next ?? plainMemory;
  return previous;
}

/**
 * `a` when it holds at least `n` elements; otherwise a new array of the same kind, of max(n, 2 a.length) elements
 * (doubling keeps the cost of growing by one constant on average), holding a's first `live` elements (all of them
 * unless told) followed by zeros. Pass `live = 0` for scratch that is rewritten before it is read.
 */
export function grown<T extends GrowableArray>(a: T, n: number, live: number = a.length): T {
  if (n <= a.length) return a;
  const length = Math.max(n, 2 * a.length);
  const kind = a.constructor as ArrayKind<T>;
  const next = new kind(allocator(length * a.BYTES_PER_ELEMENT), 0, length);
  if (live > 0) next.set(live < a.length ? (a.subarray(0, live) as T) : a);
  return next;
}
