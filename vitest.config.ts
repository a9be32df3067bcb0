import { defineConfig } from "vitest/config";

// Physics scenes can take seconds, and the e2e test starts Chromium against the built demo
// (`npm test` builds before running vitest), so the timeouts are generous.
export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    exclude: ["**/node_modules/**", "**/dist/**"],
    environment: "node",
    testTimeout: 60_000,
    hookTimeout: 60_000,
    teardownTimeout: 30_000,
    // Each test file in its own child process: isolates global state (Babylon's engine registry, the
    // Havok wasm instance, Chromium) and lets a crashing file fail alone.
    pool: "forks",
    // gc() for the tests that measure heap growth (allocation checks are meaningless without it).
    execArgv: ["--expose-gc"],
    isolate: true,
    maxWorkers: 2,
    fileParallelism: true,
    // Deterministic order helps when comparing runs; physics tests must not depend on each other.
    sequence: { shuffle: false },
    reporters: ["default"],
    passWithNoTests: false,
  },
});
