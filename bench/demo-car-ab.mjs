// Same-process CPU-time A/B of the Havok demo car (test/plugin/demoCarScene.ts's scene, rebuilt here in plain JS:
// mesh frame, cylinder axles and wheels on 6-DoF joints, 500 x 500 two-triangle ground and mesh walls, gravity -240,
// setTimeStep(1/500), one 1/500 s step per _step) on HavokPlugin and on one or more ContinuumPlugin bundles:
//
//   node bench/demo-car-ab.mjs <a.mjs> [b.mjs ...] [steps]     (env: TURN=<step> steers left from that step,
//        NOHK=1 leaves Havok out, HKONLY=1 runs Havok alone, SUB=<n> sets the plugin's substeps)
//
// Throttle from step 500 (the car drops and settles first); each measured step runs every world once, the order
// rotating, timed by process.cpuUsage. Prints per-250-step window medians, the median and mean from step 400, the
// mean over the first 250 and 1,100 steps (JIT warm-up included), and the frame's final position (12 digits: two
// builds that should behave identically must print the same).
import fs from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { createRequire } from "node:module";
import * as B from "@babylonjs/core";
import HavokPhysics from "@babylonjs/havok";
const { Mesh, MeshBuilder, Physics6DoFConstraint, PhysicsBody, PhysicsConstraintAxis: AX, PhysicsConstraintMotorType, PhysicsMotionType, PhysicsShapeCylinder, PhysicsShapeMesh, Vector3, NullEngine, Scene, HavokPlugin } = B;
const args = process.argv.slice(2);
const files = args.filter((a) => a.endsWith(".mjs"));
const steps = Number(args.find((a) => /^\d+$/.test(a)) ?? 1500);
const TURN = Number(process.env.TURN ?? 1e9);
const req = createRequire(import.meta.url);
const dir = path.dirname(req.resolve("@babylonjs/havok/lib/esm/HavokPhysics.wasm"));
const hk = await HavokPhysics({ wasmBinary: fs.readFileSync(path.join(dir, "HavokPhysics.wasm")) });
function build(plugin) {
  const engine = new NullEngine();
  engine.getCaps().instancedArrays = true;
  const scene = new Scene(engine);
  scene.enablePhysics(new Vector3(0, -240, 0), plugin);
  const pe = scene.getPhysicsEngine();
  pe.setTimeStep(1 / 500); pe.setSubTimeStep(4.5);
  const stat = (mesh, f) => { const s = new PhysicsShapeMesh(mesh, scene); const b = new PhysicsBody(mesh, PhysicsMotionType.STATIC, false, scene); s.material = { restitution: 0, friction: f }; b.shape = s; };
  const g = MeshBuilder.CreateGround("G", { height: 500, width: 500 }, scene); g.position = new Vector3(0, -10, 0); stat(g, 300);
  for (const [w, d, x, y, z] of [[500, 1, 0, 0, 250], [500, 1, 0, 0, -250], [1, 500, 250, 0, 0], [1, 500, -250, 0, 0]]) { const m = MeshBuilder.CreateBox("W", { height: 20, width: w, depth: d }, scene); m.position = new Vector3(x, y, z); stat(m, 300); }
  const filt = (m) => { m.physicsBody.shape.filterMembershipMask = 1; m.physicsBody.shape.filterCollideMask = 2; };
  const dyn = (m, s, mass, r, f) => { const b = new PhysicsBody(m, PhysicsMotionType.DYNAMIC, false, scene); b.setMassProperties({ mass }); s.material = { restitution: r, friction: f }; b.shape = s; return b; };
  const fm = MeshBuilder.CreateBox("F", { height: 1, width: 12, depth: 24 }, scene); fm.position = new Vector3(0, 0.3, 0);
  const frame = dyn(fm, new PhysicsShapeMesh(fm, scene), 1000, 0, 0); filt(fm);
  const at = [new Vector3(5, 0, 8), new Vector3(-5, 0, 8), new Vector3(5, 0, -8), new Vector3(-5, 0, -8)];
  const wm = at.map((p) => { const m = MeshBuilder.CreateCylinder("Wh", { height: 1.6, diameter: 4 }, scene); m.rotation = new Vector3(0, 0, Math.PI / 2); m.bakeCurrentTransformIntoVertices(); m.position = p.clone(); return m; });
  const am = at.map((p) => { const m = MeshBuilder.CreateBox("A", { height: 1, width: 2.5, depth: 1 }, scene); m.position = p.clone(); return m; });
  for (const m of am) { fm.addChild(m); dyn(m, new PhysicsShapeCylinder(new Vector3(-0.8, 0, 0), new Vector3(0.8, 0, 0), 1.8, scene), 100, 0, 0); filt(m); }
  for (const m of wm) { dyn(m, new PhysicsShapeCylinder(new Vector3(-0.8, 0, 0), new Vector3(0.8, 0, 0), 2, scene), 100, 0.1, 50); filt(m); }
  const motors = [], steering = [];
  for (let i = 0; i < 4; i++) {
    const j = new Physics6DoFConstraint({}, [{ axis: AX.LINEAR_DISTANCE, minLimit: 0, maxLimit: 0 }, { axis: AX.ANGULAR_Y, minLimit: 0, maxLimit: 0 }, { axis: AX.ANGULAR_Z, minLimit: 0, maxLimit: 0 }], scene);
    am[i].addChild(wm[i]); am[i].physicsBody.addConstraint(wm[i].physicsBody, j);
    if (i < 2) { j.setAxisMotorType(AX.ANGULAR_X, PhysicsConstraintMotorType.VELOCITY); j.setAxisMotorMaxForce(AX.ANGULAR_X, 180000); j.setAxisMotorTarget(AX.ANGULAR_X, 0); motors.push(j); }
  }
  for (let i = 0; i < 4; i++) {
    const axle = am[i].physicsBody, p = axle.transformNode.position, st = i < 2;
    const j = new Physics6DoFConstraint({ pivotA: new Vector3(0, 0, 0), pivotB: new Vector3(p.x, p.y, p.z) }, [
      { axis: AX.LINEAR_X, minLimit: 0, maxLimit: 0 }, { axis: AX.LINEAR_Y, minLimit: -0.15, maxLimit: 0.15, stiffness: 100000, damping: 5000 }, { axis: AX.LINEAR_Z, minLimit: 0, maxLimit: 0 },
      { axis: AX.ANGULAR_X, minLimit: -0.25, maxLimit: 0.25 }, { axis: AX.ANGULAR_Y, minLimit: st ? null : 0, maxLimit: st ? null : 0 }, { axis: AX.ANGULAR_Z, minLimit: -0.05, maxLimit: 0.05 }], scene);
    axle.addConstraint(frame, j);
    if (st) { j.setAxisMotorType(AX.ANGULAR_Y, PhysicsConstraintMotorType.POSITION); j.setAxisMotorMaxForce(AX.ANGULAR_Y, 30000000); j.setAxisMotorTarget(AX.ANGULAR_Y, 0); steering.push(j); }
  }
  let speed = 0, n = 0, steer = 0;
  return { frame, step() { pe._step(1 / 500); if (++n > 500 && speed < 150) { speed += 8 / 3.7; } for (const m of motors) m.setAxisMotorTarget(AX.ANGULAR_X, speed); if (n > TURN) { steer = Math.min(steer + 0.01/3.7, Math.PI/6); for (const s of steering) s.setAxisMotorTarget(AX.ANGULAR_Y, steer); } } };
}
const sims = process.env.NOHK ? [] : process.env.HKONLY ? [{ name: "havok", s: build(new HavokPlugin(false, hk)) }] : [{ name: "havok", s: build(new HavokPlugin(false, hk)) }];
if (!process.env.HKONLY) for (const f of files) { const C = await import(pathToFileURL(path.resolve(f)).href); sims.push({ name: path.basename(f), s: build(new C.ContinuumPlugin(false, process.env.SUB ? { substeps: Number(process.env.SUB) } : {})) }); }
const cpu = () => { const c = process.cpuUsage(); return (c.user + c.system) / 1000; };
const t = sims.map(() => []);
for (let i = 0; i < steps; i++) {
  for (let k0 = 0; k0 < sims.length; k0++) { const k = (k0 + i) % sims.length; if (i === 400 && k0 === 0) globalThis.__mark?.(); const a = cpu(); sims[k].s.step(); t[k].push(cpu() - a); }
}
const med = (a) => { const b = a.slice(400).sort((x, y) => x - y); return b[b.length >> 1]; };
const mean = (a) => a.slice(400).reduce((x, y) => x + y, 0) / (a.length - 400);
for (let k = 0; k < sims.length; k++) { const w=[]; for (let i=0;i<t[k].length;i+=250){const b=t[k].slice(i,i+250).sort((x,y)=>x-y); w.push(b[b.length>>1].toFixed(2));} console.log(sims[k].name, "win medians", w.join(" ")); const p = sims[k].s.frame.transformNode.position; console.log(sims[k].name.padEnd(14), "median", med(t[k]).toFixed(3), "mean", mean(t[k]).toFixed(3), "ms/step  frame at", p.x.toFixed(12), p.y.toFixed(12), p.z.toFixed(12)); }
if (globalThis.__C) console.log("per step", Object.fromEntries(Object.entries(globalThis.__C).map(([k, v]) => [k, v / steps])));
for (let k = 0; k < sims.length; k++) { const a = t[k]; const s = (i0, i1) => a.slice(i0, i1).reduce((x, y) => x + y, 0) / (i1 - i0); console.log(sims[k].name, "mean first 250", s(0, 250).toFixed(3), "first 1100", s(0, 1100).toFixed(3)); }
