import { defineConfig } from "vitest/config";

// Probes measure, they do not test: run one with `npx vitest run --config bench/probe/vitest.config.ts <file>`.
export default defineConfig({
  test: {
    root: ".",
    include: ["bench/probe/*.probe.ts"],
    environment: "node",
    testTimeout: 3_600_000,
    pool: "forks",
    reporters: ["default"],
  },
});
