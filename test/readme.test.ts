import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const readme = readFileSync(join(root, "README.md"), "utf8");

/** The ```ts blocks of README.md, in order. */
function tsBlocks(): string[] {
  return [...readme.matchAll(/```ts\n([\s\S]*?)```/g)].map((m) => m[1]);
}

/** Writes a README snippet as a module (the package name pointing at the sources) and imports it. */
async function load(code: string, name: string): Promise<Record<string, unknown>> {
  const dir = join(root, "test-output", "readme");
  mkdirSync(dir, { recursive: true });
  const file = join(dir, `${name}.ts`);
  const entries: Record<string, string> = { "": "index.ts", "/snapshot": "snapshot.ts", "/debug": "debug.ts", "/vehicle": "wheelConstraint.ts" };
  writeFileSync(file, code.replace(/"continuum-physics(\/\w+)?"/g, (m, sub: string | undefined) => (entries[sub ?? ""] ? JSON.stringify(join(root, "plugin", entries[sub ?? ""])) : m)));
  return (await import(file)) as Record<string, unknown>;
}

describe("README examples run as written", () => {
  it("the engine example steps a ball onto the ground", async () => {
    const block = tsBlocks().find((b) => b.includes("new World("));
    expect(block).toBeDefined();
    // The example's last statements read the ball's position and the contact events: export them to check.
    const mod = await load(`${block}\nexport { world, ball, p };\n`, "engine");
    const world = mod.world as { stepCount?: number; getPosition(h: number, o: { x: number; y: number; z: number }): { y: number } };
    const p = mod.p as { y: number };
    // Thrown down at 50 m/s from 10 m it meets the ground at sqrt(50^2 + 2 g 9.75) = 51.9 m/s after 0.19 s and
    // leaves at e v = 0.3 x 51.9 = 15.6 m/s; its apex, (15.6)^2 / 2g = 12.4 m above the surface plus the
    // radius, comes 1.59 s later, right at the 2 s the example runs. Within 1 m of it.
    const v = Math.sqrt(50 * 50 + 2 * 9.81 * 9.75);
    const apex = (0.3 * v) ** 2 / (2 * 9.81) + 0.25;
    expect(Math.abs(p.y - apex)).toBeLessThan(1);
    expect(world).toBeDefined();
  });

  it("the Babylon example builds a scene whose ball lands on the ground", async () => {
    const block = tsBlocks().find((b) => b.includes("createScene"));
    expect(block).toBeDefined();
    const mod = await load(block!, "babylon");
    const { NullEngine } = await import("@babylonjs/core");
    const engine = new NullEngine();
    const scene = (mod.createScene as (e: unknown) => { getPhysicsEngine(): { _step(dt: number): void } | null; getMeshByName(n: string): { position: { y: number } } | null; dispose(): void })(engine);
    for (let i = 0; i < 180; i++) scene.getPhysicsEngine()!._step(1 / 60);
    const ball = scene.getMeshByName("ball")!;
    // Diameter 1 resting on the ground's top face at y = 0 (restitution 0.6 bounces settle within 3 s).
    expect(ball.position.y).toBeGreaterThan(0.45);
    expect(ball.position.y).toBeLessThan(0.6);
    scene.dispose();
    engine.dispose();
  }, 120_000);

  it("the snapshot example rewinds after a kick and replays the same hashes, bit for bit", async () => {
    const block = tsBlocks().find((b) => b.includes("plugin.snapshot()"));
    expect(block).toBeDefined();
    const mod = await load(`${block}\nexport { hashes, replayed, crate };\n`, "snapshot");
    const hashes = mod.hashes as number[],
      replayed = mod.replayed as number[];
    expect(hashes.length).toBe(60);
    // The crate falls and lands in those 60 steps: the hashes change; the replay matches each one.
    expect(new Set(hashes).size).toBeGreaterThan(30);
    expect(replayed).toEqual(hashes);
    // It ends resting on the ground (half size 0.5 on the top face at y = 0), not kicked away.
    const y = (mod.crate as { position: { y: number } }).position.y;
    expect(Math.abs(y - 0.5)).toBeLessThan(0.02);
  }, 120_000);
});
