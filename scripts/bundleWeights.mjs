// What each source file weighs in a minified bundle, gzipped: the numbers to decide the bundle's budget from.
//
//   node scripts/bundleWeights.mjs [bundle] [--most N] [--without name=file,file ...]
//
// Reads the bundle (default dist/continuum.min.mjs, built by `npm run build`) and its source map, gives every
// byte to the source file the map names for it, and prints per file its minified bytes and the gzip size of its
// bytes alone (gzip is not additive: the sum of the per-file sizes is above the bundle's, by about 15 %).
// `--without name=a.ts,b.ts` prints what the bundle weighs, gzipped, with those files' bytes taken out (each
// group on its own, then all groups together): the saving if they moved to an entry point of their own.
// Paths are as the map gives them, from the repository root (src/world/debugView.ts).
import fs from "node:fs";
import path from "node:path";
import zlib from "node:zlib";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";

const root = path.join(path.dirname(fileURLToPath(import.meta.url)), "..");
const require = createRequire(path.join(root, "package.json"));
const { SourceMapConsumer } = require("source-map-js");

const args = process.argv.slice(2);
let bundle = path.join(root, "dist", "continuum.min.mjs");
let most = 40;
const groups = [];
for (let i = 0; i < args.length; i++) {
  if (args[i] === "--most") most = Number(args[++i]);
  else if (args[i] === "--without") {
    const [name, files] = args[++i].split("=");
    groups.push({ name, files: new Set(files.split(",")) });
  } else bundle = path.resolve(args[i]);
}

const code = fs.readFileSync(bundle, "utf8");
const map = new SourceMapConsumer(JSON.parse(fs.readFileSync(bundle + ".map", "utf8")));
const lineStart = [0];
for (let k = 0; k < code.length; k++) if (code[k] === "\n") lineStart.push(k + 1);
const segments = [];
map.eachMapping((m) => segments.push(m));
segments.sort((a, b) => a.generatedLine - b.generatedLine || a.generatedColumn - b.generatedColumn);
/** Source of every byte of the bundle ("" where the map names none: the banner, glue). */
const owner = new Array(code.length).fill("");
for (let i = 0; i < segments.length; i++) {
  const s = segments[i],
    n = segments[i + 1];
  const from = lineStart[s.generatedLine - 1] + s.generatedColumn;
  const to = n ? lineStart[n.generatedLine - 1] + n.generatedColumn : code.length;
  const src = path.relative(root, path.resolve(path.dirname(bundle), s.source ?? "")) || "";
  for (let k = from; k < to; k++) owner[k] = src;
}

const gzip = (s) => zlib.gzipSync(s, { level: 9 }).length;
const total = gzip(code);
const perFile = new Map();
for (let k = 0; k < code.length; k++) {
  let a = perFile.get(owner[k]);
  if (!a) perFile.set(owner[k], (a = []));
  a.push(code[k]);
}
const rows = [...perFile].map(([f, chars]) => ({ f: f || "(unmapped)", raw: chars.length, gz: gzip(chars.join("")) }));
rows.sort((a, b) => b.gz - a.gz);
console.log(`${path.relative(root, bundle)}: ${code.length} B, gzip ${total} B; per file (gzip alone, minified):`);
for (const r of rows.slice(0, most)) console.log(`${String(r.gz).padStart(8)} ${String(r.raw).padStart(8)}  ${r.f}`);
if (rows.length > most) console.log(`  ... ${rows.length - most} more files`);

const without = (files) => gzip(code.split("").filter((_, k) => !files.has(owner[k])).join(""));
if (groups.length > 0) {
  const all = new Set();
  for (const g of groups) {
    for (const f of g.files) all.add(f);
    console.log(`without ${g.name}: ${without(g.files)} B gzip (-${total - without(g.files)})`);
  }
  if (groups.length > 1) console.log(`without all of them: ${without(all)} B gzip (-${total - without(all)})`);
}
