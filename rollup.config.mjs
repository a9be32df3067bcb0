// Rollup builds for Continuum.
//
//   1. The library: plugin/index.ts -> dist/continuum.mjs (ESM) and dist/continuum.umd.js (UMD, global
//      CONTINUUM), readable, and the same two minified with terser: dist/continuum.min.mjs and
//      dist/continuum.umd.min.js, each with a source map. The optional entries (ENTRIES: debug, snapshot,
//      vehicle) are ES modules of their own beside it (dist/debug.mjs, dist/debug.min.mjs, ...) that import
//      the core from ./continuum(.min).mjs; for script tags dist/continuum-full.umd(.min).js is the core with
//      every optional entry in it, under the same global CONTINUUM. Every @babylonjs/* import is external; in the UMD
//      builds every @babylonjs/core and @babylonjs/core/... import maps to the global BABYLON. Declarations
//      are emitted separately by `tsc -p tsconfig.build.json` (see package.json "build").
//      plugin/gltf/index.ts -> dist/gltf.mjs (ESM): the `continuum-physics/gltf` entry, Babylon external.
//      For `threads` > 1 (issue 27): src/parallel/workerPool.ts -> dist/continuum.pool.mjs (+ .min.mjs), which the
//      library imports only then; src/parallel/worker.ts -> dist/continuum.worker.mjs, the workers' script; and
//      src/parallel/workerUrl.ts -> dist/continuum.worker-url.mjs, its default URL (see parallelExternals).
//   2. The demo: demo/src/main.ts -> demo/dist/demo.js (ESM, Babylon bundled in and tree-shaken).
//   3. The same demo for demo/umd.html: demo/src/main.ts -> demo/dist/demo.umd.js (a classic script): every
//      @babylonjs/core import is the global BABYLON (Debug/* is BABYLON.Debug) and the library
//      (plugin/index.ts and the optional entries) is the global CONTINUUM of dist/continuum-full.umd.js, as in
//      a script-tag page.
//
// `rollup -c` builds both. `rollup -c --configLib` / `--configDemo` builds only one of them.
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import terser from "@rollup/plugin-terser";
import typescript from "@rollup/plugin-typescript";
import { nodeResolve } from "@rollup/plugin-node-resolve";

const root = path.dirname(fileURLToPath(import.meta.url));
const r = (...p) => path.join(root, ...p);

const isBabylon = (id) => id === "@babylonjs/core" || id.startsWith("@babylonjs/");

/** UMD globals: @babylonjs/core (and any deep import of it) -> BABYLON; other Babylon packages too. */
function umdGlobals(id) {
  if (id === "@babylonjs/havok") return "HavokPhysics";
  if (isBabylon(id)) return "BABYLON";
  return undefined;
}

/**
 * @babylonjs/core has no "exports" map and is "type": "module", so in Node a deep import must carry its
 * file extension ("@babylonjs/core/Maths/math.vector.js"). TypeScript sources often omit it, which works in
 * bundlers but not when dist/continuum.mjs is imported by Node (the bench, the tests). Add it when missing.
 */
function babylonEsmPath(id) {
  const m = /^(@babylonjs\/[^/]+)\/(.+)$/.exec(id);
  if (!m || /\.(m?js|json|wasm)$/.test(id)) return id;
  const pkgDir = r("node_modules", m[1]);
  if (fs.existsSync(path.join(pkgDir, m[2] + ".js"))) return id + ".js";
  if (fs.existsSync(path.join(pkgDir, m[2], "index.js"))) return id + "/index.js";
  return id;
}

/** Lets the demo import the library by its package name and get the TypeScript sources bundled. */
function selfAlias() {
  return {
    name: "continuum-self-alias",
    resolveId(source) {
      if (source === "continuum-physics") return r("plugin", "index.ts");
      return null;
    },
  };
}

/** Babylon's ES modules are full of circular imports and `this` at top level; those warnings are noise. */
function onwarn(warning, warn) {
  const inBabylon = (s) => typeof s === "string" && s.includes(`node_modules${path.sep}@babylonjs`);
  if (warning.code === "CIRCULAR_DEPENDENCY" && (warning.ids ?? []).some(inBabylon)) return;
  if (warning.code === "THIS_IS_UNDEFINED" && inBabylon(warning.id)) return;
  if (warning.code === "EVAL" && inBabylon(warning.id)) return;
  if (warning.code === "SOURCEMAP_ERROR" && inBabylon(warning.id)) return;
  warn(warning);
}

const banner = `/*! Continuum physics ${JSON.parse(fs.readFileSync(r("package.json"), "utf8")).version} | MIT */`;

/**
 * Minifies one output. terser keeps the `/*!` banner (its default keeps such comments); two compress passes
 * take about 1 % more off than one. Names need not survive: nothing in src/ or plugin/ reads a function's
 * or class's `name`. `pure_getters`: no getter in src/ or plugin/ has a side effect, so an unused property read
 * may go (0.3 % of the gzipped bundle).
 */
const minify = () => terser({ compress: { passes: 2, pure_getters: true }, format: { comments: /^!/ } });

/**
 * Source paths in the library's maps, relative to dist/. The TypeScript plugin hands rollup paths that climb
 * one directory too many from dist/ (two `..` where one is right); the part from src/ or plugin/ on is right,
 * so rebuild from that. The maps also carry the sources themselves (inlineSources): the package ships dist/ only.
 */
const mapSourcePath = (relative) => path.relative(r("dist"), r(relative.replace(/^(\.\.\/)+/, "")));

/**
 * The optional entries (package.json "exports"): name -> source. Each is its own ES module, so that a plain
 * plugin's bundle (continuum.mjs) does not carry them (issue 28).
 */
const ENTRIES = {
  debug: r("plugin", "debug.ts"),
  snapshot: r("plugin", "snapshot.ts"),
  vehicle: r("plugin", "wheelConstraint.ts"),
};

/**
 * The ES modules: continuum(.min).mjs and one file per optional entry. Every module the core reaches stays in
 * the core's file (the entries import it from there, so one page never loads two copies of the engine); what
 * only an entry reaches is that entry's.
 */
function esmOutput(min = false) {
  const ext = min ? ".min.mjs" : ".mjs";
  let core = null;
  return {
    dir: r("dist"),
    format: "es",
    entryFileNames: `[name]${ext}`,
    chunkFileNames: `[name]-[hash]${ext}`,
    manualChunks(id, { getModuleInfo }) {
      if (core === null) {
        core = new Set();
        const todo = [r("plugin", "index.ts")];
        while (todo.length > 0) {
          const m = todo.pop();
          if (core.has(m)) continue;
          core.add(m);
          todo.push(...(getModuleInfo(m)?.importedIds ?? []));
        }
      }
      return core.has(id) ? "continuum" : undefined;
    },
    sourcemap: true,
    sourcemapPathTransform: mapSourcePath,
    banner,
    paths: (id) => parallelPath(id, min) ?? babylonEsmPath(id),
    plugins: min ? [minify()] : [],
  };
}

/** The library as UMD with the global CONTINUUM; `min` adds terser. */
function umdOutput(file, min = false) {
  return {
    file: r("dist", file),
    format: "umd",
    name: "CONTINUUM",
    paths: (id) => parallelPath(id, min) ?? id,
    exports: "named",
    sourcemap: true,
    sourcemapPathTransform: mapSourcePath,
    banner,
    globals: umdGlobals,
    plugins: min ? [minify()] : [],
  };
}

/**
 * Two modules of src/parallel/ stay files of their own beside the library, loaded by dynamic `import()` only when
 * a world asks for `threads` > 1, so the plain bundle does not carry them (issue 27):
 *   - src/parallel/workerPool.ts -> dist/continuum.pool.mjs (and .min.mjs), imported by src/parallel/threads.ts.
 *     Self-contained (it bundles the engine code it runs: body columns, predictMotion, the shape classes and testers
 *     of the threaded narrow phase, about 50 KB gzipped), so the ES module
 *     and the UMD builds load the same file, and the UMD build needs no second script tag.
 *   - src/parallel/workerUrl.ts -> dist/continuum.worker-url.mjs, imported by the pool when no `workerUrl` is
 *     given: a consumer's bundler then handles `new URL("./continuum.worker.mjs", import.meta.url)` in those few
 *     lines (and emits the worker), not over the whole library.
 */
const POOL_ID = "continuum-pool";
const WORKER_URL_ID = "continuum-worker-url";
/** How the library's outputs import those modules: the files beside them (the minified pool for `min`). */
function parallelPath(id, min) {
  if (id === POOL_ID) return min ? "./continuum.pool.min.mjs" : "./continuum.pool.mjs";
  if (id === WORKER_URL_ID) return "./continuum.worker-url.mjs";
  return null;
}

function parallelExternals() {
  return {
    name: "continuum-parallel-externals",
    resolveId(source, importer) {
      if (source === "./workerPool" && importer && /[\\/]parallel[\\/]threads\.ts$/.test(importer)) return { id: POOL_ID, external: true };
      if (source === "./workerUrl" && importer && /[\\/]parallel[\\/]workerPool\.ts$/.test(importer)) {
        return { id: WORKER_URL_ID, external: true };
      }
      return null;
    },
  };
}

const typescriptLib = () =>
  typescript({
    tsconfig: r("tsconfig.build.json"),
    // TypeScript only transpiles here (noCheck): declarations and the type check of src/ and plugin/
    // come from `tsc -p tsconfig.build.json`, which runs right after rollup in `npm run build` and fails
    // on type errors; `npm run typecheck` checks everything (tests and demo too).
    compilerOptions: {
      declaration: false,
      declarationMap: false,
      emitDeclarationOnly: false,
      noEmit: false,
      sourceMap: true,
      inlineSources: true,
      noCheck: true,
      outDir: r("dist"),
    },
    include: ["src/**/*.ts", "plugin/**/*.ts"],
  });

const libConfig = {
  input: { continuum: r("plugin", "index.ts"), ...ENTRIES },
  // The core's file may export more than plugin/index.ts does (what the entries import from it, under short names).
  preserveEntrySignatures: "allow-extension",
  external: isBabylon,
  plugins: [parallelExternals(), typescriptLib()],
  onwarn,
  output: [esmOutput(), esmOutput(true)],
};

const umdConfig = {
  input: r("plugin", "index.ts"),
  external: isBabylon,
  plugins: [parallelExternals(), typescriptLib()],
  onwarn,
  output: [umdOutput("continuum.umd.js"), umdOutput("continuum.umd.min.js", true)],
};

/** For script tags: the core and every optional entry in one UMD (a UMD cannot import another file). */
const FULL = "\0continuum-full";
const fullUmdConfig = {
  input: FULL,
  external: isBabylon,
  plugins: [
    parallelExternals(),
    {
      name: "continuum-full",
      resolveId: (id) => (id === FULL ? FULL : null),
      load: (id) =>
        id === FULL ? [r("plugin", "index.ts"), ...Object.values(ENTRIES)].map((f) => `export * from ${JSON.stringify(f)};`).join("\n") : null,
    },
    typescriptLib(),
  ],
  onwarn,
  output: [umdOutput("continuum-full.umd.js"), umdOutput("continuum-full.umd.min.js", true)],
};

/** `continuum-physics/gltf`: the glTF physics loader extension (plugin/gltf), ESM only, Babylon external. */
const gltfConfig = {
  external: isBabylon,
  plugins: [parallelExternals(), typescriptLib()],
  onwarn,
  input: r("plugin", "gltf", "index.ts"),
  output: { file: r("dist", "gltf.mjs"), format: "es", sourcemap: true, banner, paths: babylonEsmPath },
};

/** One self-contained ES module file beside the library (the pool, the worker, its URL); `min` adds terser. */
function esmFile(file, min = false) {
  return {
    file: r("dist", file),
    format: "es",
    sourcemap: true,
    sourcemapPathTransform: mapSourcePath,
    banner,
    paths: (id) => parallelPath(id, min) ?? babylonEsmPath(id),
    plugins: min ? [minify()] : [],
  };
}
const parallelBase = { external: isBabylon, plugins: [parallelExternals(), typescriptLib()], onwarn };

/** The worker threads' entry (src/parallel/worker.ts -> dist/continuum.worker.mjs, ESM, beside the library). */
const workerConfig = {
  ...parallelBase,
  input: r("src", "parallel", "worker.ts"),
  output: { file: r("dist", "continuum.worker.mjs"), format: "es", sourcemap: true, sourcemapPathTransform: mapSourcePath, banner },
};

/** The worker pool, loaded by the library for `threads` > 1 (see parallelExternals). */
const poolConfig = {
  ...parallelBase,
  input: r("src", "parallel", "workerPool.ts"),
  output: [esmFile("continuum.pool.mjs"), esmFile("continuum.pool.min.mjs", true)],
};

/** The default worker script's URL, a module of its own (see parallelExternals). */
const workerUrlConfig = {
  ...parallelBase,
  input: r("src", "parallel", "workerUrl.ts"),
  output: { file: r("dist", "continuum.worker-url.mjs"), format: "es", sourcemap: true, sourcemapPathTransform: mapSourcePath, banner },
};

const demoConfig = {
  input: r("demo", "src", "main.ts"),
  plugins: [
    selfAlias(),
    nodeResolve({ browser: true, extensions: [".mjs", ".js", ".ts", ".json"] }),
    typescript({
      tsconfig: r("tsconfig.json"),
      // Transpile only; `npm run typecheck` (first step of `npm test`) type-checks demo/src.
      compilerOptions: { noEmit: false, noCheck: true, sourceMap: true, outDir: r("demo", "dist") },
      include: ["demo/src/**/*.ts", "src/**/*.ts", "plugin/**/*.ts"],
    }),
  ],
  onwarn,
  output: {
    file: r("demo", "dist", "demo.js"),
    format: "es",
    sourcemap: true,
    // Babylon loads some pieces (shaders, etc.) with dynamic import(); keep them in one file.
    inlineDynamicImports: true,
  },
};

/**
 * For demo.umd.js: plugin/index.ts and the optional entries (however the demo imports them) are the external
 * "continuum-physics", the global CONTINUUM of dist/continuum-full.umd.js.
 */
function continuumExternal() {
  const entries = new Set([r("plugin", "index"), ...Object.values(ENTRIES).map((f) => f.replace(/\.ts$/, ""))]);
  return {
    name: "continuum-external",
    resolveId(source, importer) {
      if (source === "continuum-physics") return { id: "continuum-physics", external: true };
      if (!importer || !source.startsWith(".")) return null;
      const p = path.resolve(path.dirname(importer), source).replace(/\.ts$/, "");
      return entries.has(p) ? { id: "continuum-physics", external: true } : null;
    },
  };
}

function demoUmdGlobals(id) {
  if (id === "continuum-physics") return "CONTINUUM";
  // babylon.glTF2FileLoader.js puts the glTF 2.0 loader's exports (the extension registry too) on BABYLON.GLTF2.
  if (id.startsWith("@babylonjs/loaders/glTF/2.0/")) return "BABYLON.GLTF2";
  if (id.startsWith("@babylonjs/core/Debug/")) return "BABYLON.Debug";
  return umdGlobals(id);
}

const demoUmdConfig = {
  input: r("demo", "src", "main.ts"),
  external: isBabylon,
  plugins: [
    continuumExternal(),
    nodeResolve({ browser: true, extensions: [".mjs", ".js", ".ts", ".json"] }),
    typescript({
      tsconfig: r("tsconfig.json"),
      compilerOptions: { noEmit: false, noCheck: true, sourceMap: true, outDir: r("demo", "dist") },
      include: ["demo/src/**/*.ts", "src/**/*.ts", "plugin/**/*.ts"],
    }),
  ],
  onwarn,
  output: {
    file: r("demo", "dist", "demo.umd.js"),
    format: "iife",
    sourcemap: true,
    globals: demoUmdGlobals,
  },
};

export default (args) => {
  if (args.configLib) return [libConfig, umdConfig, fullUmdConfig, gltfConfig, poolConfig, workerConfig, workerUrlConfig];
  if (args.configDemo) return [demoConfig, demoUmdConfig];
  return [libConfig, umdConfig, fullUmdConfig, gltfConfig, poolConfig, workerConfig, workerUrlConfig, demoConfig, demoUmdConfig];
};
