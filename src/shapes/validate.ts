/** Argument checks shared by shape constructors: they throw errors that name the argument and value. */

/** Returns v if it is a finite number > 0, else throws a RangeError naming `name`. */
export function requirePositive(name: string, v: number): number {
  if (typeof v !== "number" || !Number.isFinite(v) || v <= 0) {
    throw new RangeError(`${name} must be a finite number > 0, got ${String(v)}`);
  }
  return v;
}

/** Returns v if it is a finite number >= 0, else throws a RangeError naming `name`. */
export function requireNonNegative(name: string, v: number): number {
  if (typeof v !== "number" || !Number.isFinite(v) || v < 0) {
    throw new RangeError(`${name} must be a finite number >= 0, got ${String(v)}`);
  }
  return v;
}

/** Returns v if it is a finite number, else throws a RangeError naming `name`. */
export function requireFinite(name: string, v: number): number {
  if (typeof v !== "number" || !Number.isFinite(v)) {
    throw new RangeError(`${name} must be a finite number, got ${String(v)}`);
  }
  return v;
}
