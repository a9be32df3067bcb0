/**
 * The package as a user gets it: `npm pack` the built library, install the tarball into a temporary project
 * next to `@babylonjs/core`, and there
 *   - import ContinuumPlugin from ESM under Node and step a scene (and require() it from CommonJS);
 *   - typecheck a TypeScript file that uses it with `moduleResolution: "bundler"` and `"node16"`;
 *   - bundle that file with Vite and find no warnings, then run the bundle.
 * This catches a broken `exports` map, missing or unresolvable declarations and files left out of `files`.
 *
 * Fast and offline: `npm test` has built dist/ already; the project's `@babylonjs/core` is a `file:` link to
 * this repository's copy, so `npm install --offline` only unpacks the tarball; TypeScript and Vite are this
 * repository's. Babylon stays external in the Vite build: bundling it is Babylon's business and takes
 * half a minute, while every warning about this package shows either way.
 */
import { execFile, execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const root = fileURLToPath(new URL("../..", import.meta.url));
const repoModules = path.join(root, "node_modules");

/** Environment for child npm/node: without the npm_* variables `npm test` sets for its own project. */
const childEnv = Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^npm_/i.test(k)));

function run(cmd: string, args: string[], cwd: string, timeout = 100_000): string {
  try {
    return execFileSync(cmd, args, { cwd, env: childEnv, encoding: "utf8", timeout, stdio: ["ignore", "pipe", "pipe"] });
  } catch (e) {
    const err = e as { stdout?: string; stderr?: string; message: string };
    throw new Error(`${cmd} ${args.join(" ")} failed in ${cwd}:\n${err.stdout ?? ""}\n${err.stderr ?? ""}\n${err.message}`);
  }
}
const node = (args: string[], cwd: string) => run(process.execPath, args, cwd);

/** `run` without blocking, for checks that may overlap. */
function runAsync(cmd: string, args: string[], cwd: string, timeout = 100_000): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(cmd, args, { cwd, env: childEnv, encoding: "utf8", timeout }, (e, stdout, stderr) => {
      if (e) reject(new Error(`${cmd} ${args.join(" ")} failed in ${cwd}:\n${stdout}\n${stderr}\n${e.message}`));
      else resolve(stdout);
    });
  });
}

/**
 * The scene every check runs: a 1 m ball dropped from 10 m, Continuous, stepped by `scene.render()` at the
 * plugin's fixed 1/60 s. Written once as TypeScript; the plain-JS copy for Node drops the annotations.
 * Babylon comes in by deep imports, as tree-shaking users write it: Node, tsc and Vite then read a few
 * hundred of Babylon's files instead of all of them, which keeps this test's run short.
 */
const CONSUMER_TS = `import { FreeCamera } from "@babylonjs/core/Cameras/freeCamera.js";
import { NullEngine } from "@babylonjs/core/Engines/nullEngine.js";
import { Vector3 } from "@babylonjs/core/Maths/math.vector.js";
import { CreateSphere } from "@babylonjs/core/Meshes/Builders/sphereBuilder.js";
import "@babylonjs/core/Physics/joinedPhysicsEngineComponent.js";
import { PhysicsShapeType } from "@babylonjs/core/Physics/v2/IPhysicsEnginePlugin.js";
import { PhysicsAggregate } from "@babylonjs/core/Physics/v2/physicsAggregate.js";
import { Scene } from "@babylonjs/core/scene.js";
import { ContinuousDetection, ContinuumPlugin, type ContinuumPluginOptions } from "continuum-physics";

export function dropBall(steps: number): number {
  const engine = new NullEngine();
  const scene = new Scene(engine);
  new FreeCamera("camera", new Vector3(0, 5, -10), scene);
  const options: ContinuumPluginOptions = { substeps: 8 };
  const plugin = new ContinuumPlugin(false, options);
  scene.enablePhysics(new Vector3(0, -9.81, 0), plugin);
  const ball = CreateSphere("ball", { diameter: 1 }, scene);
  ball.position.y = 10;
  const aggregate = new PhysicsAggregate(ball, PhysicsShapeType.SPHERE, { mass: 1 }, scene);
  plugin.setContinuousDetection(aggregate.body, ContinuousDetection.continuous());
  for (let i = 0; i < steps; i++) scene.render();
  const y: number = ball.position.y;
  scene.dispose();
  engine.dispose();
  return y;
}
`;
const CONSUMER_JS = CONSUMER_TS.replace(", type ContinuumPluginOptions", "")
  .replace(": ContinuumPluginOptions", "")
  .replace("(steps: number): number", "(steps)")
  .replace("const y: number", "const y");

/** Steps run under Node, and where free fall puts the ball's centre after them. */
const STEPS = 60;
const FALL_Y = 10 - 0.5 * 9.81 * (STEPS / 60) ** 2; // 5.095 m
/**
 * Semi-implicit Euler lags the exact parabola by g t dt / 2: 9.81 x 1 x (1/60) / 2 = 0.08 m with one
 * substep, less with more. 0.1 m accepts any substep count and still fails a ball that never moved or fell
 * through a floor it does not have.
 */
const FALL_TOLERANCE = 0.1;

/**
 * Timeout for the slow steps (install, tsc, Vite). The whole file takes about 30 s on an idle 2-core machine;
 * the headroom is for a CI runner shared with the other test files.
 */
const SLOW = 120_000;

let dir = "";
let tarball = "";

beforeAll(() => {
  for (const f of ["continuum.mjs", "continuum.min.mjs", "types/plugin/index.d.ts"]) {
    expect(fs.existsSync(path.join(root, "dist", f)), `dist/${f}: run \`npm run build\` first`).toBe(true);
  }
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "continuum-consumer-"));
  const packed = JSON.parse(run("npm", ["pack", "--json", "--ignore-scripts", "--pack-destination", dir], root)) as { filename: string }[];
  tarball = path.join(dir, packed[0].filename);
  const project = path.join(dir, "project");
  fs.mkdirSync(path.join(project, "src"), { recursive: true });
  const pkg = {
    name: "continuum-consumer",
    private: true,
    type: "module",
    dependencies: {
      "@babylonjs/core": `file:${path.join(repoModules, "@babylonjs", "core")}`,
      "continuum-physics": `file:${tarball}`,
    },
  };
  fs.writeFileSync(path.join(project, "package.json"), JSON.stringify(pkg, null, 2));
  fs.writeFileSync(path.join(project, "src", "consumer.ts"), CONSUMER_TS);
  fs.writeFileSync(path.join(project, "consumer.mjs"), CONSUMER_JS);
  run("npm", ["install", "--offline", "--no-audit", "--no-fund", "--ignore-scripts", "--no-package-lock"], project);
}, SLOW);

afterAll(() => {
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

const project = () => path.join(dir, "project");

describe("the packed package in a consumer project", () => {
  it("ships dist/ and package.json only, with every file the exports map names", () => {
    const installed = path.join(project(), "node_modules", "continuum-physics");
    const pkg = JSON.parse(fs.readFileSync(path.join(installed, "package.json"), "utf8")) as {
      exports: Record<string, string | Record<string, string>>;
      unpkg: string;
      jsdelivr: string;
    };
    const targets = Object.values(pkg.exports).flatMap((e) => (typeof e === "string" ? [] : Object.values(e)));
    for (const t of [...targets, pkg.unpkg, pkg.jsdelivr]) expect(fs.existsSync(path.join(installed, t)), t).toBe(true);
    const top = fs.readdirSync(installed).sort();
    // npm always adds package.json, README and LICENSE when present; nothing of src/, test/ or demo/.
    expect(top.filter((f) => !/^(README|LICENSE)/i.test(f))).toEqual(["dist", "package.json"]);
  });

  it(`imports ContinuumPlugin from ESM under Node and drops a ball for ${STEPS} steps`, () => {
    const out = node(["--input-type=module", "-e", `import { dropBall } from "./consumer.mjs"; console.log(JSON.stringify(dropBall(${STEPS})));`], project());
    const y = JSON.parse(out.trim().split("\n").pop()!) as number;
    expect(Math.abs(y - FALL_Y)).toBeLessThan(FALL_TOLERANCE);
  });

  it("runs a world on 2 threads under Node with the default worker URL (the pool and worker files beside the library)", () => {
    const script = `
      import { World, Sphere } from "continuum-physics";
      const world = new World({ threads: 2 });
      for (let i = 0; i < 200; i++) world.createBody({ position: { x: (i % 20) * 2, y: Math.floor(i / 20) * 2, z: 0 }, collidable: { shape: new Sphere(0.5) } });
      const until = Date.now() + 20000;
      while (world.threads !== 2 && Date.now() < until) await new Promise((r) => setTimeout(r, 10));
      for (let s = 0; s < 30; s++) world.step(1 / 60);
      console.log(JSON.stringify({ threads: world.threads, message: world.threadsMessage, blocks: world.workerPool?.workerBlocks ?? -1 }));
      world.stopThreads();
    `;
    const out = JSON.parse(node(["--input-type=module", "-e", script], project()).trim().split("\n").pop()!) as { threads: number; message: string | null; blocks: number };
    expect(out.message).toBeNull();
    expect(out.threads).toBe(2);
    // 200 bodies make 4 blocks a prediction, 120 in 30 steps; the worker took some (never none while it listens).
    expect(out.blocks).toBeGreaterThan(0);
  });

  it("require()s the same module from CommonJS (Node 20.19+ loads ES modules with require)", () => {
    const out = node(["-e", `const c = require("continuum-physics"); console.log(typeof c.ContinuumPlugin, typeof c.World);`], project());
    expect(out.trim().split("\n").pop()).toBe("function function");
  });

  it('typechecks a file that uses it with moduleResolution "bundler" and "node16"', async () => {
    // The two tsc runs (10 s each, mostly reading Babylon's declarations) go side by side.
    const checks = (["bundler", "node16"] as const).map((resolution) => {
      const tsconfig = {
        compilerOptions: {
          strict: true,
          noEmit: true,
          target: "ES2022",
          module: resolution === "bundler" ? "ESNext" : "Node16",
          moduleResolution: resolution,
          lib: ["ES2022", "DOM"],
          types: [],
          // Babylon's own declarations are checked by Babylon. Ours are what this test is about, and an
          // import inside them that does not resolve still shows at the consumer's import, as a missing export.
          skipLibCheck: true,
        },
        files: ["src/consumer.ts"],
      };
      const file = `tsconfig.${resolution}.json`;
      fs.writeFileSync(path.join(project(), file), JSON.stringify(tsconfig, null, 2));
      return runAsync(process.execPath, [path.join(repoModules, "typescript", "bin", "tsc"), "-p", file], project());
    });
    await Promise.all(checks);
  }, SLOW);

  it("bundles with Vite without a warning, and the bundle runs", () => {
    const script = `
      import { build, createLogger } from ${JSON.stringify(path.join(repoModules, "vite", "dist", "node", "index.js"))};
      const warnings = [];
      const logger = createLogger("warn");
      const keep = (level) => (msg) => warnings.push(level + ": " + msg);
      logger.warn = keep("warn");
      logger.warnOnce = keep("warn");
      logger.error = keep("error");
      await build({
        root: process.cwd(),
        configFile: false,
        logLevel: "warn",
        customLogger: logger,
        build: {
          outDir: "out",
          sourcemap: true,
          lib: { entry: "src/consumer.ts", formats: ["es"], fileName: "consumer" },
          rolldownOptions: { external: [/^@babylonjs\\//] },
        },
      });
      console.log(JSON.stringify(warnings));
    `;
    const out = node(["--input-type=module", "-e", script], project());
    const warnings = JSON.parse(out.trim().split("\n").pop()!) as string[];
    expect(warnings).toEqual([]);
    const files = fs.readdirSync(path.join(project(), "out"));
    console.log(`Vite wrote ${files.join(", ")}`);
    const bundle = files.find((f) => f === "consumer.js");
    expect(bundle).toBeDefined();
    // The worker pool (threads > 1) stayed a chunk of its own, out of the consumer's bundle (rollup.config.mjs).
    expect(files.some((f) => /^continuum\.pool.*\.js$/.test(f))).toBe(true);
    expect(fs.readFileSync(path.join(project(), "out", "consumer.js"), "utf8")).not.toContain("Atomics");
    const ran = node(["--input-type=module", "-e", `import { dropBall } from "./out/${bundle}"; console.log(JSON.stringify(dropBall(${STEPS})));`], project());
    expect(Math.abs((JSON.parse(ran.trim().split("\n").pop()!) as number) - FALL_Y)).toBeLessThan(FALL_TOLERANCE);
  }, SLOW);
});
