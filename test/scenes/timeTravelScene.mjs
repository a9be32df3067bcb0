// A mixed Babylon scene for the time-travel tests: every shape type (sphere, box, capsule, cylinder, convex
// hull, mesh, heightfield, container), joints of five types (ball and socket, distance, prismatic, lock, 6-DoF) with a motor, a trigger, Continuous bullets, a
// kinematic paddle, bodies that fall asleep and are woken. Plain JavaScript on namespaces passed in, so the
// same code builds the scene in Node (@babylonjs/core + the plugin's source) and in Chromium (the globals
// BABYLON and CONTINUUM of babylon.js and dist/continuum.umd.js). Geometry comes from explicit numbers, not
// from MeshBuilder's trigonometry, so both sides start from the same bits.
//
// Inputs are a function of the step index only (`inputs(i)`): a replayable input stream.

/**
 * Builds the scene in a new Scene on `engine`.
 * @param {any} B the Babylon namespace
 * @param {any} C the Continuum namespace (ContinuumPlugin, ContinuousDetection)
 * @param {any} engine a Babylon engine (NullEngine in Node)
 */
export function buildTimeTravelScene(B, C, engine) {
  // NullEngine reports no instanced arrays, which disables thin instances (test/plugin/helpers.ts does the same).
  engine.getCaps().instancedArrays = true;
  const scene = new B.Scene(engine);
  const plugin = new C.ContinuumPlugin();
  scene.enablePhysics(new B.Vector3(0, -9.81, 0), plugin);
  const pe = scene.getPhysicsEngine();
  const V = (x, y, z) => new B.Vector3(x, y, z);
  const T = B.PhysicsShapeType;
  const box = (name, w, h, d) => B.MeshBuilder.CreateBox(name, { width: w, height: h, depth: d }, scene);
  const at = (node, x, y, z) => {
    node.position.set(x, y, z);
    return node;
  };

  // Ground: a heightfield of gentle polynomial bumps (no trigonometry), 24 m square, 13 x 13 samples.
  const n = 13;
  const heights = new Float32Array(n * n);
  for (let zi = 0; zi < n; zi++)
    for (let xi = 0; xi < n; xi++) {
      const u = (xi - 6) / 6,
        v = (zi - 6) / 6;
      heights[zi * n + xi] = 0.4 * u * u * (1 - v * v) + 0.25 * v * v;
    }
  const groundBody = new B.PhysicsBody(new B.TransformNode("terrain", scene), B.PhysicsMotionType.STATIC, false, scene);
  groundBody.shape = new B.PhysicsShape(
    {
      type: T.HEIGHTFIELD,
      parameters: { heightFieldSizeX: 24, heightFieldSizeZ: 24, numHeightFieldSamplesX: n, numHeightFieldSamplesZ: n, heightFieldData: heights },
    },
    scene,
  );

  // A static triangle-mesh ramp (two quads), from explicit vertices.
  const ramp = new B.Mesh("ramp", scene);
  const rv = new B.VertexData();
  rv.positions = [-2, 0, -2, 2, 0, -2, 2, 1.5, 2, -2, 1.5, 2, -2, 0.6, 3.5, 2, 0.6, 3.5];
  rv.indices = [0, 2, 1, 0, 3, 2, 3, 4, 5, 3, 5, 2];
  rv.applyToMesh(ramp);
  at(ramp, 5, 0.3, -4);
  new B.PhysicsAggregate(ramp, T.MESH, { mass: 0, friction: 0.3 }, scene);

  // A trigger volume the pile falls through (under its first columns, so that it fires whatever the pile's
  // scattering: bodies crossing it are neither slowed nor deflected).
  const zone = at(box("zone", 4, 1, 4), -2, 1.2, -0.5);
  const zoneShape = new B.PhysicsShapeBox(V(0, 0, 0), B.Quaternion.Identity(), V(4, 1, 4), scene);
  zoneShape.isTrigger = true;
  const zoneBody = new B.PhysicsBody(zone, B.PhysicsMotionType.STATIC, false, scene);
  zoneBody.shape = zoneShape;
  let triggerEvents = 0;
  plugin.onTriggerCollisionObservable.add(() => triggerEvents++);

  // A convex hull mesh from explicit vertices (a squashed octahedron with a cap).
  const hullVerts = [0, 0.45, 0, 0.4, 0, 0, -0.4, 0, 0, 0, 0, 0.35, 0, 0, -0.35, 0, -0.3, 0, 0.2, 0.25, 0.2];
  const makeHullMesh = (name) => {
    const m = new B.Mesh(name, scene);
    const vd = new B.VertexData();
    vd.positions = hullVerts;
    vd.indices = [0, 1, 3, 0, 3, 2, 0, 2, 4, 0, 4, 1, 5, 3, 1, 5, 2, 3, 5, 4, 2, 5, 1, 4, 6, 0, 1];
    vd.applyToMesh(m);
    return m;
  };

  // The pile: 5 x 4 columns of mixed shapes, 3 high, with some spin and a tilt.
  const dynamic = [];
  let k = 0;
  for (let iy = 0; iy < 3; iy++)
    for (let ix = 0; ix < 5; ix++)
      for (let iz = 0; iz < 4; iz++) {
        const kind = k % 6;
        const name = `b${k++}`;
        let node, type, options;
        if (kind === 0) ((node = B.MeshBuilder.CreateSphere(name, { diameter: 0.6, segments: 4 }, scene)), (type = T.SPHERE));
        else if (kind === 1) ((node = box(name, 0.6, 0.5, 0.7)), (type = T.BOX));
        else if (kind === 2) ((node = box(name, 0.44, 0.94, 0.44)), (type = T.CAPSULE), (options = { pointA: V(0, -0.25, 0), pointB: V(0, 0.25, 0), radius: 0.22 }));
        else if (kind === 3) ((node = box(name, 0.56, 0.5, 0.56)), (type = T.CYLINDER), (options = { pointA: V(0, -0.25, 0), pointB: V(0, 0.25, 0), radius: 0.28 }));
        else if (kind === 4) ((node = makeHullMesh(name)), (type = T.CONVEX_HULL));
        else node = new B.TransformNode(name, scene);
        at(node, -3 + ix * 1.05 + 0.05 * iy, 2 + iy * 1.1, -2 + iz * 1.05);
        node.rotationQuaternion = new B.Quaternion(0.1 * (iz - 1.5), 0.05 * ix, 0.08 * iy, 1).normalize();
        let body;
        if (kind === 5) {
          // A container: a box with a sphere on top and a capsule across.
          const c = new B.PhysicsShapeContainer(scene);
          c.addChildFromParent(node, new B.PhysicsShapeBox(V(0, 0, 0), B.Quaternion.Identity(), V(0.5, 0.3, 0.5), scene), node);
          const s = new B.PhysicsShapeSphere(V(0, 0, 0), 0.2, scene);
          c.addChild(s, V(0, 0.3, 0));
          c.addChild(new B.PhysicsShapeCapsule(V(-0.3, 0, 0), V(0.3, 0, 0), 0.1, scene), V(0, -0.15, 0));
          body = new B.PhysicsBody(node, B.PhysicsMotionType.DYNAMIC, false, scene);
          body.shape = c;
          body.setMassProperties({ mass: 1.5 });
        } else {
          body = new B.PhysicsAggregate(node, type, { mass: 1 + 0.25 * (k % 3), friction: 0.4 + 0.1 * (k % 4), restitution: 0.1 * (k % 3), ...(options ?? {}) }, scene).body;
        }
        body.setAngularVelocity(V(0.3 * (ix - 2), 0.2 * (iz - 1.5), 0.1 * iy));
        dynamic.push(body);
      }

  // A sleeper that starts asleep out of the way, woken by an impulse at step 1300.
  const sleeper = at(box("sleeper", 0.5, 0.5, 0.5), 9, 1.2, 9);
  const sleeperAgg = new B.PhysicsAggregate(sleeper, T.BOX, { mass: 1, startAsleep: true }, scene);

  // A chain of 4 ball-and-socket links hanging from a static anchor, and a distance link at its end.
  const anchor = at(box("anchor", 0.3, 0.3, 0.3), 7, 7, 0);
  let prev = new B.PhysicsAggregate(anchor, T.BOX, { mass: 0 }, scene).body;
  for (let l = 0; l < 4; l++) {
    const link = at(box(`link${l}`, 0.5, 0.12, 0.12), 7.5 + 0.55 * l, 7, 0);
    const body = new B.PhysicsAggregate(link, T.BOX, { mass: 0.5 }, scene).body;
    const pivotA = l === 0 ? V(0.2, 0, 0) : V(0.275, 0, 0);
    prev.addConstraint(body, new B.BallAndSocketConstraint(pivotA, V(-0.275, 0, 0), V(0, 1, 0), V(0, 1, 0), scene));
    prev = body;
  }
  const weight = at(B.MeshBuilder.CreateSphere("weight", { diameter: 0.5, segments: 4 }, scene), 10.2, 7, 0);
  const weightBody = new B.PhysicsAggregate(weight, T.SPHERE, { mass: 2 }, scene).body;
  prev.addConstraint(weightBody, new B.DistanceConstraint(0.6, scene));

  // A motorised hinge: a paddle wheel turning about X on a static axle.
  const axle = at(box("axle", 0.2, 0.2, 0.2), 0, 4.5, 7);
  const axleBody = new B.PhysicsAggregate(axle, T.BOX, { mass: 0 }, scene).body;
  const wheel = at(box("wheel", 0.2, 2.4, 0.4), 0, 4.5, 7);
  const wheelBody = new B.PhysicsAggregate(wheel, T.BOX, { mass: 3 }, scene).body;
  // A 6-DoF constraint set up as a hinge about X (the motor API is on Physics6DoFConstraint).
  const A = B.PhysicsConstraintAxis;
  const hinge = new B.Physics6DoFConstraint(
    { pivotA: V(0, 0, 0), pivotB: V(0, 0, 0), axisA: V(1, 0, 0), axisB: V(1, 0, 0), perpAxisA: V(0, 1, 0), perpAxisB: V(0, 1, 0) },
    [A.LINEAR_X, A.LINEAR_Y, A.LINEAR_Z, A.ANGULAR_Y, A.ANGULAR_Z].map((axis) => ({ axis, minLimit: 0, maxLimit: 0 })),
    scene,
  );
  axleBody.addConstraint(wheelBody, hinge);
  hinge.setAxisMotorType(A.ANGULAR_X, B.PhysicsConstraintMotorType.VELOCITY);
  hinge.setAxisMotorTarget(A.ANGULAR_X, 2);
  hinge.setAxisMotorMaxForce(A.ANGULAR_X, 200);

  // A prismatic block on a static rail, and a box locked to it.
  const rail = at(box("rail", 0.2, 0.2, 0.2), -7, 3, -6);
  const railBody = new B.PhysicsAggregate(rail, T.BOX, { mass: 0 }, scene).body;
  const slider = at(box("slider", 0.5, 0.5, 0.5), -6, 3, -6);
  const sliderBody = new B.PhysicsAggregate(slider, T.BOX, { mass: 1 }, scene).body;
  railBody.addConstraint(sliderBody, new B.PrismaticConstraint(V(1, 0, 0), V(0, 0, 0), V(1, 0, 0), V(1, 0, 0), scene));
  const locked = at(box("locked", 0.3, 0.3, 0.3), -6, 2.6, -6);
  const lockedBody = new B.PhysicsAggregate(locked, T.BOX, { mass: 0.5 }, scene).body;
  sliderBody.addConstraint(lockedBody, new B.LockConstraint(V(0, -0.4, 0), V(0, 0, 0), V(1, 0, 0), V(1, 0, 0), scene));

  // A kinematic paddle sweeping across the pile's edge.
  const paddle = at(box("paddle", 0.3, 1, 3), -6, 0.9, 0);
  const paddleBody = new B.PhysicsAggregate(paddle, T.BOX, { mass: 0 }, scene).body;
  paddleBody.setMotionType(B.PhysicsMotionType.ANIMATED);
  const paddleTarget = V(0, 0.9, 0);
  const identity = B.Quaternion.Identity();

  // Four crates as thin instances of one mesh (one instanced body), on the ramp side.
  const crates = box("crates", 0.4, 0.4, 0.4);
  const matrices = new Float32Array(16 * 4);
  for (let c = 0; c < 4; c++) B.Matrix.Translation(4 + 0.6 * c, 3 + 0.5 * c, -4.5).copyToArray(matrices, 16 * c);
  crates.thinInstanceSetBuffer("matrix", matrices, 16);
  const cratesBody = new B.PhysicsAggregate(crates, T.BOX, { mass: 0.8 }, scene).body;

  // Continuous bullets, fired by the input stream.
  const bullets = [];
  for (let q = 0; q < 3; q++) {
    const node = at(B.MeshBuilder.CreateSphere(`bullet${q}`, { diameter: 0.1, segments: 2 }, scene), 12, 0.6 + 0.4 * q, -1 + q);
    const body = new B.PhysicsAggregate(node, T.SPHERE, { mass: 0.05 }, scene).body;
    plugin.setContinuousDetection(body, C.ContinuousDetection.continuous());
    body.setGravityFactor(0);
    bullets.push(body);
  }

  /** The input stream: what a player would do at step i (depends on i only). */
  function inputs(i) {
    // The paddle follows a triangle wave in x (piecewise linear: no trigonometry in the inputs either).
    const phase = (i % 240) / 120;
    paddleTarget.x = -6 + 1.5 * (phase < 1 ? phase : 2 - phase);
    paddleBody.setTargetTransform(paddleTarget, identity);
    if (i === 400 || i === 900 || i === 1450) for (const b of bullets) b.setLinearVelocity(V(-90, 0, 0));
    if (i === 1300) sleeperAgg.body.applyImpulse(V(-3, 2, -3), sleeper.position);
    if (i === 1600) hinge.setAxisMotorTarget(B.PhysicsConstraintAxis.ANGULAR_X, -3);
  }

  let stepIndex = 0;
  return {
    scene,
    plugin,
    dynamic,
    bullets,
    hinge,
    crates,
    cratesBody,
    get triggerEvents() {
      return triggerEvents;
    },
    /** The next step index (inputs are applied for it by `step`). */
    get stepIndex() {
      return stepIndex;
    },
    set stepIndex(v) {
      stepIndex = v;
    },
    inputs,
    /** Applies the inputs of the current step index, steps 1/60 s through Babylon's physics engine, returns the hash. */
    step() {
      inputs(stepIndex++);
      pe._step(1 / 60);
      return plugin.stateHash();
    },
  };
}
