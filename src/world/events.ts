/**
 * Contact and trigger events, gathered in flat arrays during the step and handed out after it
 * (one event per body pair per step; docs/babylon-differences.md, Decisions).
 */
import { grown } from "../collections/growth";

/** Kinds of contact events. */
export const ContactEventType = { Began: 0, Persisted: 1, Ended: 2 } as const;
/** One of {@link ContactEventType}'s values. */
export type ContactEventType = (typeof ContactEventType)[keyof typeof ContactEventType];

/** Kinds of trigger events. */
export const TriggerEventType = { Entered: 0, Exited: 1 } as const;
/** One of {@link TriggerEventType}'s values. */
export type TriggerEventType = (typeof TriggerEventType)[keyof typeof TriggerEventType];

/**
 * The contact events of the last step, as parallel arrays indexed 0..count-1. Per event: the two body
 * handles (A, B), the type, the contact point with the largest impulse (world, midway between the
 * surfaces), the normal from A toward B, `separation` (the smallest signed gap over the pair's contacts,
 * positive = apart) and `impulse` (the pair's total normal impulse over the step, N s).
 * Ended events carry the last known point and normal and zero impulse.
 */
export class ContactEventBuffer {
  count = 0;
  bodyA = new Float64Array(64);
  bodyB = new Float64Array(64);
  type = new Uint8Array(64);
  /** xyz per event */
  point = new Float64Array(64 * 3);
  /** xyz per event */
  normal = new Float64Array(64 * 3);
  separation = new Float64Array(64);
  impulse = new Float64Array(64);

  clear(): void {
    this.count = 0;
  }

  /**
   * Appends an event with its point and normal copied from `src[o..o+5]` (px, py, pz, nx, ny, nz);
   * returns its index. Separation and impulse are written by the caller into {@link separation} and
   * {@link impulse}: doubles passed as arguments would be heap-allocated by V8 when the call is not inlined.
   */
  add(a: number, b: number, type: ContactEventType, src: Float64Array, o: number): number {
    const i = this.count;
    if (i === this.bodyA.length) this.grow(i + 1);
    this.bodyA[i] = a;
    this.bodyB[i] = b;
    this.type[i] = type;
    const p = this.point,
      n = this.normal;
    p[i * 3] = src[o];
    p[i * 3 + 1] = src[o + 1];
    p[i * 3 + 2] = src[o + 2];
    n[i * 3] = src[o + 3];
    n[i * 3 + 1] = src[o + 4];
    n[i * 3 + 2] = src[o + 5];
    this.separation[i] = 0;
    this.impulse[i] = 0;
    this.count = i + 1;
    return i;
  }

  private grow(n: number): void {
    this.bodyA = grown(this.bodyA, n);
    n = this.bodyA.length;
    this.bodyB = grown(this.bodyB, n);
    this.type = grown(this.type, n);
    this.point = grown(this.point, 3 * n);
    this.normal = grown(this.normal, 3 * n);
    this.separation = grown(this.separation, n);
    this.impulse = grown(this.impulse, n);
  }
}

/** The trigger events of the last step: body handles A and B (either may be the trigger) and the type. */
export class TriggerEventBuffer {
  count = 0;
  bodyA = new Float64Array(16);
  bodyB = new Float64Array(16);
  type = new Uint8Array(16);

  clear(): void {
    this.count = 0;
  }

  add(a: number, b: number, type: TriggerEventType): void {
    const i = this.count;
    if (i === this.bodyA.length) {
      this.bodyA = grown(this.bodyA, i + 1);
      this.bodyB = grown(this.bodyB, i + 1);
      this.type = grown(this.type, i + 1);
    }
    this.bodyA[i] = a;
    this.bodyB[i] = b;
    this.type[i] = type;
    this.count = i + 1;
  }
}
