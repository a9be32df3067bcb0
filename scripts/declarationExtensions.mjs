// Gives every relative import in the emitted declarations (dist/types/**/*.d.ts) its ".js" extension.
//
//   node scripts/declarationExtensions.mjs [dir]      (run by `npm run build` after tsc)
//
// The sources import each other without extensions ("./world"), which bundlers and `moduleResolution:
// "bundler"` accept; tsc copies the specifiers into the declarations as written. A consumer whose tsconfig
// says `"moduleResolution": "node16"` (or "nodenext") resolves imports inside an ES module package as Node
// does, by exact file name, so "./world" finds nothing and the package's exports vanish from its types.
// "./world.js" (or "./world/index.js" for a folder) resolves under every setting.
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.join(path.dirname(fileURLToPath(import.meta.url)), "..");
const typesDir = path.resolve(process.argv[2] ?? path.join(root, "dist", "types"));

/** `from "./x"` and `import("./x")` with a relative specifier that has no extension yet. */
const RELATIVE = /(\bfrom\s+|\bimport\(\s*)(["'])(\.{1,2}\/[^"']*?)\2/g;

/** The specifier with the extension Node needs, checked against the files tsc emitted. */
function withExtension(file, spec) {
  if (/\.(m?js|json)$/.test(spec)) return spec;
  const target = path.resolve(path.dirname(file), spec);
  if (fs.existsSync(`${target}.d.ts`)) return `${spec}.js`;
  if (fs.existsSync(path.join(target, "index.d.ts"))) return `${spec}/index.js`;
  throw new Error(`${path.relative(root, file)}: "${spec}" names no emitted declaration`);
}

function* declarations(dir) {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, entry.name);
    if (entry.isDirectory()) yield* declarations(p);
    else if (entry.name.endsWith(".d.ts")) yield p;
  }
}

let files = 0;
let specifiers = 0;
for (const file of declarations(typesDir)) {
  const text = fs.readFileSync(file, "utf8");
  const fixed = text.replace(RELATIVE, (_, lead, quote, spec) => {
    const next = withExtension(file, spec);
    if (next !== spec) specifiers++;
    return `${lead}${quote}${next}${quote}`;
  });
  if (fixed !== text) {
    fs.writeFileSync(file, fixed);
    files++;
  }
}
console.log(`declarationExtensions: ${specifiers} relative imports given an extension in ${files} files under ${path.relative(root, typesDir)}`);
