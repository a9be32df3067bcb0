/**
 * Issue 29 item 10: the pose integration q += h/2 (w, 0) q, normalised, gave the zero quaternion when the spin
 * was so large (past ~2e155 rad/s at 1/60 s) that the squared length overflowed while every component stayed finite:
 * 1 / sqrt(Infinity) = 0. The non-finite guard did not see it (all finite), the plugin wrote it to the node,
 * and the next step's teleport prestep threw "setPose: orientation must be a finite non-zero quaternion, got
 * (0, 0, 0, 0)" (the plugin fuzz, seed 111 at 400 operations, reached it through 1e30 m inputs on jointed
 * bodies). The integration now scales by the largest component first.
 */
import { describe, expect, it } from "vitest";
import { BodySet } from "../../src/dynamics/bodySet";
import { integratePositions } from "../../src/dynamics/integrator";
import { IntList } from "../../src/collections/intList";

describe("pose integration at an overflowing spin", () => {
  for (const w of [1e100, 1e154, 1e157, 1e300]) {
    it(`w = ${w} rad/s about (1, 2, 3): the orientation stays a unit quaternion`, () => {
      const b = new BodySet(4);
      const i = b.allocate();
      b.rot.set([0.1, 0.2, 0.3, Math.sqrt(1 - 0.14)], i * 4);
      b.angVel.set([w, 2 * w, 3 * w], i * 3);
      const active = new IntList();
      active.push(i);
      // No overlap push-out: zero pseudo-velocities (ContactConstraints.pushVel).
      integratePositions(b, active, 1 / 60, 1, new Float64Array(12), new Float64Array(12));
      const q = Array.from(b.rot.subarray(i * 4, i * 4 + 4));
      const len = Math.hypot(...q);
      // Unit within round-off; before the fix 1e157 and 1e300 gave (0, 0, 0, 0) (h/2 w q squared past 1.8e308).
      expect(len).toBeCloseTo(1, 12);
      // At such a spin the update is all h/2 (w, 0) q: q ends along it, (w x q_v + q_w w, -w . q_v) normalised.
      const [qx, qy, qz, qw] = [0.1, 0.2, 0.3, Math.sqrt(1 - 0.14)];
      const [wx, wy, wz] = [1, 2, 3];
      const d = [wx * qw + wy * qz - wz * qy, wy * qw + wz * qx - wx * qz, wz * qw + wx * qy - wy * qx, -wx * qx - wy * qy - wz * qz];
      const dl = Math.hypot(...d);
      if (w >= 1e154) for (let k = 0; k < 4; k++) expect(q[k]).toBeCloseTo(d[k] / dl, 9);
    });
  }
});
