import { describe, expect, it } from "vitest";
import { integrateOrientation, nlerpAngularSpeedBound, SweptMotion } from "../../src/math/sweptTransform";
import { Pose } from "../../src/math/pose";

const motion = new SweptMotion();

/** The origin pose at time t of the constant-velocity motion (SweptMotion.setVelocity, as the narrow phase sweeps). */
function poseAtTimeFromVelocity(
  cx: number, cy: number, cz: number, qx: number, qy: number, qz: number, qw: number,
  vx: number, vy: number, vz: number, wx: number, wy: number, wz: number,
  lx: number, ly: number, lz: number, t: number, out: Pose,
): Pose {
  return motion.setVelocity(cx, cy, cz, qx, qy, qz, qw, vx, vy, vz, wx, wy, wz, lx, ly, lz).poseAt(t, out);
}

/** The origin pose at fraction alpha of the endpoint motion (SweptMotion.setEndpoints, as the post-solve pass sweeps). */
function poseAtFraction(
  c0x: number, c0y: number, c0z: number, q0x: number, q0y: number, q0z: number, q0w: number,
  c1x: number, c1y: number, c1z: number, q1x: number, q1y: number, q1z: number, q1w: number,
  lx: number, ly: number, lz: number, alpha: number, out: Pose,
): Pose {
  return motion.setEndpoints(c0x, c0y, c0z, q0x, q0y, q0z, q0w, c1x, c1y, c1z, q1x, q1y, q1z, q1w, lx, ly, lz).poseAt(alpha, out);
}

/** Unit quaternion for `angle` about the unit axis (ax, ay, az) (trigonometry is fine in tests). */
function axisAngle(ax: number, ay: number, az: number, angle: number): [number, number, number, number] {
  const s = Math.sin(angle / 2);
  return [ax * s, ay * s, az * s, Math.cos(angle / 2)];
}

/** q = a * b. */
function mul(a: number[], b: number[]): [number, number, number, number] {
  return [
    a[3] * b[0] + a[0] * b[3] + a[1] * b[2] - a[2] * b[1],
    a[3] * b[1] - a[0] * b[2] + a[1] * b[3] + a[2] * b[0],
    a[3] * b[2] + a[0] * b[1] - a[1] * b[0] + a[2] * b[3],
    a[3] * b[3] - a[0] * b[0] - a[1] * b[1] - a[2] * b[2],
  ];
}

/** Rotates v by unit q. */
function rot(q: number[], v: number[]): [number, number, number] {
  const [x, y, z, w] = q;
  const tx = 2 * (y * v[2] - z * v[1]);
  const ty = 2 * (z * v[0] - x * v[2]);
  const tz = 2 * (x * v[1] - y * v[0]);
  return [v[0] + w * tx + (y * tz - z * ty), v[1] + w * ty + (z * tx - x * tz), v[2] + w * tz + (x * ty - y * tx)];
}

/** Largest component difference between two quaternions, sign-insensitive. */
function qdiff(p: Pose, q: number[]): number {
  const s = p.qx * q[0] + p.qy * q[1] + p.qz * q[2] + p.qw * q[3] < 0 ? -1 : 1;
  return Math.max(Math.abs(p.qx - s * q[0]), Math.abs(p.qy - s * q[1]), Math.abs(p.qz - s * q[2]), Math.abs(p.qw - s * q[3]));
}

describe("SweptMotion, constant velocity (setVelocity, poseAt)", () => {
  it("pure translation: origin moves with the centre of mass", () => {
    const out = new Pose();
    poseAtTimeFromVelocity(1, 2, 3, 0, 0, 0, 1, 10, -20, 5, 0, 0, 0, 0, 0, 0, 0.25, out);
    expect(out.px).toBeCloseTo(3.5, 12);
    expect(out.py).toBeCloseTo(-3, 12);
    expect(out.pz).toBeCloseTo(4.25, 12);
    expect([out.qx, out.qy, out.qz, out.qw]).toEqual([0, 0, 0, 1]);
  });

  it("pure rotation about an axis matches sin/cos within 1e-9 for small angles", () => {
    const out = new Pose();
    const n = [1 / Math.sqrt(3), 1 / Math.sqrt(3), -1 / Math.sqrt(3)];
    const q0 = axisAngle(0, 1, 0, 0.3);
    let worst = 0;
    for (const angle of [1e-9, 1e-6, 1e-4, 1e-3, 0.01, 0.05, 0.1]) {
      const w = 7; // rad/s
      const t = angle / w;
      poseAtTimeFromVelocity(0, 0, 0, q0[0], q0[1], q0[2], q0[3], 0, 0, 0, n[0] * w, n[1] * w, n[2] * w, 0, 0, 0, t, out);
      const expected = mul(axisAngle(n[0], n[1], n[2], angle), q0);
      worst = Math.max(worst, qdiff(out, expected));
    }
    expect(worst).toBeLessThan(1e-9);
  });

  it("rotation up to several radians matches sin/cos within 1e-6 (measured ~1e-15)", () => {
    const out = new Pose();
    let worst = 0;
    for (let i = 1; i <= 40; i++) {
      const angle = i * 0.1; // up to 4 rad, through the range-reduction branch
      const w = 50;
      const t = angle / w;
      poseAtTimeFromVelocity(0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, w, 0, 0, 0, t, out);
      worst = Math.max(worst, qdiff(out, axisAngle(0, 0, 1, angle)));
      // negative time rewinds
      poseAtTimeFromVelocity(0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, w, 0, 0, 0, -t, out);
      worst = Math.max(worst, qdiff(out, axisAngle(0, 0, 1, -angle)));
    }
    expect(worst).toBeLessThan(1e-6);
    expect(worst).toBeLessThan(1e-12);
  });

  it("is the composition of two half steps (group property of the exponential)", () => {
    const a = new Pose(),
      b = new Pose();
    poseAtTimeFromVelocity(0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 3, -4, 12, 0, 0, 0, 0.05, a);
    poseAtTimeFromVelocity(0, 0, 0, a.qx, a.qy, a.qz, a.qw, 0, 0, 0, 3, -4, 12, 0, 0, 0, 0.05, b);
    const c = new Pose();
    poseAtTimeFromVelocity(0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 3, -4, 12, 0, 0, 0, 0.1, c);
    expect(qdiff(b, [c.qx, c.qy, c.qz, c.qw])).toBeLessThan(1e-14);
  });

  it("recomputes the origin from the centre of mass (body spinning about an off-origin COM)", () => {
    // A body whose centre of mass sits at local (1, 0, 0), COM at world (5, 0, 0), spinning about z.
    const out = new Pose();
    const w = 10,
      t = 0.1; // quarter-ish turn: 1 rad
    poseAtTimeFromVelocity(5, 0, 0, 0, 0, 0, 1, 0, 2, 0, 0, 0, w, 1, 0, 0, t, out);
    // COM at (5, 0.2, 0); origin = COM - Rz(1 rad) (1, 0, 0).
    expect(out.px).toBeCloseTo(5 - Math.cos(1), 12);
    expect(out.py).toBeCloseTo(0.2 - Math.sin(1), 12);
    expect(out.pz).toBeCloseTo(0, 12);
    // At t = 0 the origin is COM - localCom.
    poseAtTimeFromVelocity(5, 0, 0, 0, 0, 0, 1, 0, 2, 0, 0, 0, w, 1, 0, 0, 0, out);
    expect(out.px).toBeCloseTo(4, 14);
    // The centre of mass (origin + R localCom) follows the straight line at every time.
    for (const tt of [0.013, 0.05, 0.3, 1.7]) {
      poseAtTimeFromVelocity(5, 0, 0, 0, 0, 0, 1, 0, 2, 0, 0, 0, w, 1, 0, 0, tt, out);
      const r = rot([out.qx, out.qy, out.qz, out.qw], [1, 0, 0]);
      expect(out.px + r[0]).toBeCloseTo(5, 12);
      expect(out.py + r[1]).toBeCloseTo(2 * tt, 12);
    }
  });

  it("integrateOrientation with zero angular velocity keeps q", () => {
    const out = new Pose();
    const q = axisAngle(1, 0, 0, 0.7);
    integrateOrientation(q[0], q[1], q[2], q[3], 0, 0, 0, 0.5, out);
    expect(qdiff(out, q)).toBeLessThan(1e-15);
  });
});

describe("SweptMotion, endpoints (setEndpoints, poseAt)", () => {
  it("lerps the centre of mass, nlerps orientation and recomputes the origin", () => {
    const out = new Pose();
    const q0 = axisAngle(0, 0, 1, 0),
      q1 = axisAngle(0, 0, 1, Math.PI / 2);
    // local COM (0.5, 0, 0); COM from (0,0,0) to (2,0,0)
    poseAtFraction(0, 0, 0, ...q0, 2, 0, 0, ...q1, 0.5, 0, 0, 0.5, out);
    // nlerp at the midpoint of a symmetric arc equals slerp: 45 degrees.
    expect(qdiff(out, axisAngle(0, 0, 1, Math.PI / 4))).toBeLessThan(1e-14);
    const r = rot([out.qx, out.qy, out.qz, out.qw], [0.5, 0, 0]);
    expect(out.px).toBeCloseTo(1 - r[0], 14);
    expect(out.py).toBeCloseTo(-r[1], 14);
    // endpoints
    poseAtFraction(0, 0, 0, ...q0, 2, 0, 0, ...q1, 0.5, 0, 0, 1, out);
    expect(qdiff(out, q1)).toBeLessThan(1e-14);
    expect(out.px).toBeCloseTo(2, 14);
    expect(out.py).toBeCloseTo(-0.5, 14);
  });

  it("takes the shortest arc when q1 is on the other hemisphere", () => {
    const out = new Pose();
    const q0 = axisAngle(0, 1, 0, 0.2),
      q1 = axisAngle(0, 1, 0, 0.6).map((v) => -v) as [number, number, number, number];
    poseAtFraction(0, 0, 0, ...q0, 0, 0, 0, ...q1, 0, 0, 0, 0.5, out);
    expect(qdiff(out, axisAngle(0, 1, 0, 0.4))).toBeLessThan(1e-12);
  });

  it("nlerp angular speed bound: 4 tan(theta / 4), at least the true peak rate", () => {
    for (const theta of [0.01, 0.5, 1.5, 3.0]) {
      const q1 = axisAngle(1, 0, 0, theta);
      const bound = nlerpAngularSpeedBound(0, 0, 0, 1, ...q1);
      expect(bound).toBeCloseTo(4 * Math.tan(theta / 4), 12);
      // Numerical peak rate of the nlerp rotation angle.
      const out = new Pose();
      let peak = 0,
        prev = 0;
      const n = 2000;
      for (let i = 0; i <= n; i++) {
        poseAtFraction(0, 0, 0, 0, 0, 0, 1, 0, 0, 0, ...q1, 0, 0, 0, i / n, out);
        const ang = 2 * Math.atan2(out.qx, out.qw);
        if (i > 0) peak = Math.max(peak, (ang - prev) * n);
        prev = ang;
      }
      expect(peak).toBeLessThanOrEqual(bound * (1 + 1e-9));
      expect(peak).toBeGreaterThan(bound * 0.999);
    }
  });
});
