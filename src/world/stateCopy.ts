/**
 * Deep copies of the world's state for snapshot / restore. Everything the step reads is typed arrays,
 * numbers, booleans, arrays and plain state objects, so a structural copy captures it exactly: restoring it
 * continues the simulation bit for bit. Shapes are immutable and shared by reference; functions and the
 * objects named in `skip` (visitors, query scratch) are left alone.
 */
import { Shape } from "../shapes/shape";

/** An opaque copy of a state object. */
export type StateCopy = { readonly fields: Map<string, unknown> };

type Copied = { kind: "object"; fields: Map<string, unknown> } | { kind: "array"; items: unknown[] };

/** Copies `root`'s own fields (recursively), skipping the named top-level fields. */
export function copyState(root: object, skip: ReadonlySet<string>): StateCopy {
  const seen = new Map<object, unknown>();
  const fields = new Map<string, unknown>();
  for (const key of Object.keys(root)) {
    if (skip.has(key)) continue;
    const v = (root as Record<string, unknown>)[key];
    if (typeof v === "function") continue;
    fields.set(key, copyValue(v, seen));
  }
  return { fields };
}

function copyValue(v: unknown, seen: Map<object, unknown>): unknown {
  if (v === null || typeof v !== "object") return v;
  if (v instanceof Shape) return v;
  const done = seen.get(v);
  if (done !== undefined) return done;
  if (ArrayBuffer.isView(v)) {
    const c = (v as unknown as { slice(): unknown }).slice();
    seen.set(v, c);
    return c;
  }
  if (Array.isArray(v)) {
    const c: Copied = { kind: "array", items: [] };
    seen.set(v, c);
    for (const x of v) c.items.push(copyValue(x, seen));
    return c;
  }
  const c: Copied = { kind: "object", fields: new Map() };
  seen.set(v, c);
  for (const key of Object.keys(v)) {
    const x = (v as Record<string, unknown>)[key];
    if (typeof x === "function") continue;
    c.fields.set(key, copyValue(x, seen));
  }
  return c;
}

/** Writes a copy back into `root` (the same world, or another built the same way). */
export function restoreState(root: object, copy: StateCopy): void {
  const done = new Set<unknown>();
  for (const [key, v] of copy.fields) restoreField(root as Record<string, unknown>, key, v, done);
}

function restoreField(target: Record<string, unknown>, key: string, v: unknown, done: Set<unknown>): void {
  const current = target[key];
  if (v === null || typeof v !== "object" || v instanceof Shape) {
    target[key] = v;
    return;
  }
  if (ArrayBuffer.isView(v)) {
    target[key] = (v as unknown as { slice(): unknown }).slice();
    return;
  }
  const c = v as Copied;
  if (c.kind === "array") {
    target[key] = rebuildArray(c, done);
    return;
  }
  // A state object: restore into the live one (others may hold a reference to it).
  if (current !== null && typeof current === "object" && !Array.isArray(current)) {
    if (done.has(current)) return;
    done.add(current);
    for (const [k, x] of c.fields) restoreField(current as Record<string, unknown>, k, x, done);
    return;
  }
  target[key] = rebuildPlain(c, done);
}

function rebuildArray(c: { items: unknown[] }, done: Set<unknown>): unknown[] {
  const out: unknown[] = [];
  for (const x of c.items) {
    if (x === null || typeof x !== "object" || x instanceof Shape) out.push(x);
    else if (ArrayBuffer.isView(x)) out.push((x as unknown as { slice(): unknown }).slice());
    else {
      const cx = x as Copied;
      if (cx.kind === "array") out.push(rebuildArray(cx, done));
      else out.push(rebuildPlain(cx, done));
    }
  }
  return out;
}

/** Array elements that are objects (surface materials, mass overrides) are plain data: rebuilt as such. */
function rebuildPlain(c: { fields: Map<string, unknown> }, done: Set<unknown>): Record<string, unknown> {
  const o: Record<string, unknown> = {};
  for (const [k, x] of c.fields) restoreField(o, k, x, done);
  return o;
}
