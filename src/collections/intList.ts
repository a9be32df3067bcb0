import { grown } from "./growth";

/** A growable list of int32 values backed by an Int32Array: reused across steps, it allocates only to grow. */
export class IntList {
  data: Int32Array;
  count = 0;

  constructor(capacity = 16) {
    this.data = new Int32Array(Math.max(1, capacity));
  }

  clear(): void {
    this.count = 0;
  }

  push(v: number): void {
    if (this.count === this.data.length) this.grow(this.count + 1);
    this.data[this.count++] = v;
  }

  /** Appends two values (a pair) with one capacity check. */
  push2(a: number, b: number): void {
    if (this.count + 2 > this.data.length) this.grow(this.count + 2);
    this.data[this.count++] = a;
    this.data[this.count++] = b;
  }

  pop(): number {
    return this.data[--this.count];
  }

  get(i: number): number {
    return this.data[i];
  }

  /** Ensures room for at least `capacity` values. */
  reserve(capacity: number): void {
    if (capacity > this.data.length) this.grow(capacity);
  }

  private grow(capacity: number): void {
    this.data = grown(this.data, Math.max(capacity, 16), this.count);
  }
}
