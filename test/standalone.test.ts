/**
 * The repository stands alone: no source, test, document or configuration file refers to files outside it.
 * Comments once pointed to design notes kept beside the repository; a clone does not have them. What the code
 * relies on is in docs/ (design.md, babylon-differences.md), and outside sources are cited by public name
 * (bepuphysics2's file, Box2D's function, Babylon.js's source path).
 */
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const root = fileURLToPath(new URL("..", import.meta.url));
const self = fileURLToPath(import.meta.url);

/** What is scanned: everything the repository holds as text, minus build output and data. */
const DIRS = ["src", "plugin", "test", "demo", "bench", "docs", "scripts", ".ci"];
const FILES = ["README.md", "package.json", "rollup.config.mjs", "vitest.config.ts", "tsconfig.json", "tsconfig.build.json"];
const SKIP_DIRS = new Set(["node_modules", "dist", "out", "screenshots", "test-output"]);
const TEXT = /\.(ts|mts|mjs|js|json|md|html|css)$|^run$/;

function textFiles(): string[] {
  const out = FILES.map((f) => path.join(root, f)).filter((f) => fs.existsSync(f));
  const walk = (dir: string): void => {
    for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
      const p = path.join(dir, e.name);
      if (e.isDirectory()) {
        if (!SKIP_DIRS.has(e.name)) walk(p);
      } else if (TEXT.test(e.name) && p !== self) out.push(p);
    }
  };
  for (const d of DIRS) if (fs.existsSync(path.join(root, d))) walk(path.join(root, d));
  return out;
}

/**
 * Names of the notes that lived outside the repository (the design notes, the Babylon contract, the engine
 * research, the reference copies and the Havok probe scripts), however a comment spells the way there.
 */
const OUTSIDE_NAMES = [
  /\.\.\/shared\b/,
  /(^|[\s("'`[])shared\/(DESIGN|BABYLON|ENGINES|reference|babylon-probes|LAYOUT)/,
  /\bDESIGN\.md\b/,
  /\bBABYLON-V2-CONTRACT\b/,
  /\bENGINES-RESEARCH\b/,
  /\bbabylon-probes\b/,
  /(^|[\s("'`[])(\.\.\/)*reference\/[\w.-]+\.(txt|md|cs)/,
  /\/work\//,
  // Section numbers and tables of the Babylon contract notes, and the Havok probe scripts by number: the
  // contract now lives in docs/babylon-differences.md, whose sections and Decisions table comments cite.
  /\bcontract\s*(§|section\s*)?\d/i,
  /\bthe contract's\b/i,
  /\bprobes?\s+t\d+\b/i,
];

/** Relative paths (`../x`, `./x`) in a file. */
const RELATIVE_PATH = /(?:^|[\s("'`[])((?:\.\.\/)+[\w.@-][\w./@-]*)/g;

interface Finding {
  file: string;
  line: number;
  text: string;
}

function scan(): { names: Finding[]; escapes: Finding[]; docs: Finding[] } {
  const names: Finding[] = [];
  const escapes: Finding[] = [];
  const docs: Finding[] = [];
  for (const file of textFiles()) {
    const rel = path.relative(root, file);
    const lines = fs.readFileSync(file, "utf8").split("\n");
    lines.forEach((text, i) => {
      const at = { file: rel, line: i + 1, text: text.trim() };
      if (OUTSIDE_NAMES.some((re) => re.test(text))) names.push(at);
      // A relative path that, from the file's own folder, leaves the repository.
      for (const m of text.matchAll(RELATIVE_PATH)) {
        const target = path.resolve(path.dirname(file), m[1]);
        if (path.relative(root, target).startsWith("..")) escapes.push({ ...at, text: m[1] });
      }
      // docs/<name>.md named anywhere must exist.
      for (const m of text.matchAll(/\bdocs\/([\w.-]+\.md)\b/g)) {
        if (!fs.existsSync(path.join(root, "docs", m[1]))) docs.push({ ...at, text: `docs/${m[1]}` });
      }
    });
  }
  return { names, escapes, docs };
}

describe("the repository stands alone", () => {
  const found = scan();

  it("scans the sources, tests, docs and configuration", () => {
    // A guard for the guard: if the walk found nothing (a moved folder), the checks below would pass vacuously.
    const files = textFiles().map((f) => path.relative(root, f));
    expect(files).toContain(path.join("src", "world", "world.ts"));
    expect(files).toContain(path.join("plugin", "continuumPlugin.ts"));
    expect(files).toContain(path.join("docs", "design.md"));
    expect(files).toContain("README.md");
  });

  it("names none of the notes that lived outside the repository", () => {
    expect(found.names).toEqual([]);
  });

  it("has no relative path that leaves the repository", () => {
    expect(found.escapes).toEqual([]);
  });

  it("points only to documents that exist in docs/", () => {
    expect(found.docs).toEqual([]);
  });
});
