/**
 * The Babylon plugin (plugin/) and the demo (demo/src/) reach the engine only through its entries: src/index.ts,
 * and the optional src/debug.ts, src/snapshot.ts and src/vehicle.ts: the surface a user of the bare engine gets (issue 28). What they need beyond it is the engine's public API missing something:
 * it belongs in src/index.ts, documented, not in a deep import. Reads the sources as text: every module specifier
 * of an `import` / `export ... from` / `import()` that resolves into src/ must be one of those entries.
 */
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const root = fileURLToPath(new URL("../..", import.meta.url));
const src = path.join(root, "src");
const engineEntries = new Set(["index", "debug", "snapshot", "vehicle"].map((f) => path.join(src, f)));

function tsFiles(dir: string): string[] {
  const out: string[] = [];
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) out.push(...tsFiles(p));
    else if (e.name.endsWith(".ts")) out.push(p);
  }
  return out;
}

/** Module specifiers of a source's static imports and re-exports, side-effect imports and dynamic imports. */
function specifiers(text: string): string[] {
  const re = /(?:\bfrom\s*|\bimport\s*\(\s*|\bimport\s+)["']([^"']+)["']/g;
  const out: string[] = [];
  for (let m = re.exec(text); m !== null; m = re.exec(text)) out.push(m[1]);
  return out;
}

/** `file: specifier` for every relative import of `files` that lands in src/ elsewhere than an engine entry. */
function deepEngineImports(files: string[]): { offenders: string[]; throughIndex: number } {
  const offenders: string[] = [];
  let throughIndex = 0;
  for (const f of files) {
    for (const s of specifiers(fs.readFileSync(f, "utf8"))) {
      if (!s.startsWith(".")) continue;
      const target = path.resolve(path.dirname(f), s).replace(/\.(m?js|ts)$/, "");
      if (target !== src && !target.startsWith(src + path.sep)) continue;
      if (engineEntries.has(target)) throughIndex++;
      else offenders.push(`${path.relative(root, f)}: ${s}`);
    }
  }
  return { offenders, throughIndex };
}

describe("the plugin and the demo use the engine's public entry only", () => {
  it("no file under plugin/ imports a src/ module other than the engine's entries", () => {
    const files = tsFiles(path.join(root, "plugin"));
    const { offenders, throughIndex } = deepEngineImports(files);
    expect(offenders).toEqual([]);
    // Not vacuous: the plugin does use the engine, through its entry (one import in most of its files).
    expect(files.length).toBeGreaterThan(10);
    expect(throughIndex).toBeGreaterThan(10);
  });

  it("no file under demo/src/ imports a src/ module other than the engine's entries", () => {
    expect(deepEngineImports(tsFiles(path.join(root, "demo", "src"))).offenders).toEqual([]);
  });

  it("the scanner sees every form of import (so an offender cannot hide in one it misses)", () => {
    expect(specifiers(`import { A } from "../src/a";\nimport type { B } from '../src/b';\nexport * from "../src/c";\nimport "../src/d";\nconst e = await import("../src/e");`)).toEqual([
      "../src/a",
      "../src/b",
      "../src/c",
      "../src/d",
      "../src/e",
    ]);
  });
});
