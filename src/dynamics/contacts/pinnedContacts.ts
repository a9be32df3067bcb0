/**
 * Impacts on pinned bodies: one level of shock propagation (Guendelman, Bridson and Fedkiw, "Nonconvex rigid
 * bodies with stacking", SIGGRAPH 2003, section 7; Erleben's thesis "Stable, robust and versatile multibody
 * dynamics animation", 2004, chapter 6 calls it the same).
 *
 * A light body held against a static (or kinematic) one cannot move further into it. When a heavy body hits it
 * there, the sequential-impulse solver removes only m_heavy / (m_heavy + m_light) of the approach per pass
 * through the two contacts (the light body takes the push, the wall stops it, the next pass starts over): a 10 kg
 * sphere at 50 m/s against a 1 kg box on a wall kept most of its speed through the eight substeps, drove the box
 * through the wall or went 0.4 m into it. Shock propagation solves the hit as it is: against a body that cannot
 * yield along the hit's normal, i.e. with the pinned body's mass taken as infinite in that contact.
 *
 * The pinned body is immovable only along its pins (PinnedContacts.pinnedNormals): it still takes the rest of the
 * hit and its moment.
 *
 * Kept narrow so that resting stacks (which shock propagation makes too stiff to topple) do not change: only
 * manifolds between two dynamic bodies meeting an impact this step (approaching faster than the solver's
 * impact speed at its start) are candidates, and a body counts as pinned only along the normals of its contacts
 * with infinite-mass bodies that touch now (separation at most SolverSettings.pinSeparation).
 */
import { IntList } from "../../collections/intList";
import { StampSet } from "../../collections/stampSet";
import type { BodySet } from "../bodySet";
import type { SolverSettings } from "../solverSettings";
import type { ContactCache } from "./contactCache";
import { type ConstraintArrays, JN, J_ANX, J_BNX, J_IANX, J_IBNX, J_SEP, MF, M_COUNT, M_NX, PT, P_NI, P_WARM, SLOT_ANY_THREAD, SLOT_PIN_CANDIDATE } from "./constraintLayout";

/** Per-manifold pin states: no pin, B pinned (A's push cannot move B), A pinned. */
export const PIN_NONE = 0,
  PIN_B = 1,
  PIN_A = 2;

/** Per-body pin directions of the current substep (only the bodies written this substep count). */
class PinField {
  private dir = new Float64Array(0);
  private readonly members = new StampSet();
  /** The solver's parameters (pinCos), not state. */
  private readonly settings: SolverSettings;

  constructor(settings: SolverSettings) {
    this.settings = settings;
  }

  /** Snapshots (src/world/stateCodec.ts): the settings are the solver's, not state. */
  snapshotExtent(field: string): number {
    return field === "settings" ? 0 : -1;
  }

  /** Readies the field for `bodies` bodies and a new substep's pins. */
  begin(bodies: number): void {
    if (this.members.begin(bodies)) this.dir = new Float64Array(Math.max(bodies, this.dir.length / 3) * 3);
  }

  /**
   * Adds unit normal sign * (v[at], v[at + 1], v[at + 2]) (sign 1 or -1) into body i's pin direction. The vector
   * is passed as an array and an offset, not as doubles: V8 boxes double arguments of a call it does not inline.
   */
  add(i: number, v: Float64Array, at: number, sign: number): void {
    const i3 = i * 3;
    if (this.members.add(i)) this.dir[i3] = this.dir[i3 + 1] = this.dir[i3 + 2] = 0;
    this.dir[i3] += sign * v[at];
    this.dir[i3 + 1] += sign * v[at + 1];
    this.dir[i3 + 2] += sign * v[at + 2];
  }

  /** Writes body i's unit pin direction (the mean of its pins) to out[at..at + 2]. */
  unitDirection(i: number, out: Float64Array, at: number): void {
    const i3 = i * 3;
    const px = this.dir[i3],
      py = this.dir[i3 + 1],
      pz = this.dir[i3 + 2];
    const l = Math.sqrt(px * px + py * py + pz * pz);
    const il = l > 0 ? 1 / l : 0;
    out[at] = px * il;
    out[at + 1] = py * il;
    out[at + 2] = pz * il;
  }

  /** Whether body i is pinned against a push along sign * (v[at], v[at + 1], v[at + 2]) (a unit vector; see add). */
  holds(i: number, v: Float64Array, at: number, sign: number): boolean {
    if (!this.members.has(i)) return false;
    const i3 = i * 3;
    const px = this.dir[i3],
      py = this.dir[i3 + 1],
      pz = this.dir[i3 + 2];
    const d = sign * (px * v[at] + py * v[at + 1] + pz * v[at + 2]);
    const cos = this.settings.pinCos;
    return d > 0 && d * d >= cos * cos * (px * px + py * py + pz * pz);
  }
}

/** Whether some contact of manifold i (of n) meets an impact this step (its P_WARM is >= 0, see ContactConstraints.prepare). */
function meetsImpact(pt: Float64Array, i: number, n: number): boolean {
  for (let k = 0; k < n; k++) if (pt[(i * 4 + k) * PT + P_WARM] >= 0) return true;
  return false;
}

/** This step's pins: the candidates, the manifolds with fixed bodies that can pin, and each candidate's state. */
export class PinnedContacts {
  /** Whether this step has candidates. */
  pinning = false;
  /** Per manifold: PIN_NONE, PIN_A or PIN_B (read while {@link pinning}). */
  state = new Uint8Array(64);
  /** Per pinned manifold: the unit direction its pinned body cannot move along (the mean of its pins; 3 numbers). */
  axis = new Float64Array(64 * 3);
  private readonly pins: PinField;
  /** The solver's parameters (pin thresholds), not state. */
  private readonly settings: SolverSettings;

  constructor(settings: SolverSettings) {
    this.settings = settings;
    this.pins = new PinField(settings);
  }

  /** Snapshots (src/world/stateCodec.ts): the settings are the solver's, not state. */
  snapshotExtent(field: string): number {
    return field === "settings" ? 0 : -1;
  }
  private readonly impacted = new StampSet();
  private readonly touchesFixed = new StampSet();
  private readonly fixedManifolds = new IntList(16);
  /** This step's pin candidates, in slot order (solved after every other manifold of a pass, ContactConstraints.visit). */
  readonly candidates = new IntList(16);

  /**
   * Marks this step's pin candidates (pinnedContacts.ts): manifolds between two finite-mass bodies that meet an
   * impact themselves with a body that touches a fixed one, or that share a body meeting an impact with a fixed
   * one (a box about to be stopped by a wall, and what follows it in). Lists them and the manifolds with fixed
   * bodies that can pin their bodies, so the passes visit only those.
   */
  prepare(cache: ContactCache, k4: ConstraintArrays, bodies: BodySet): void {
    const s = cache;
    if (this.state.length < s.count) {
      this.state = new Uint8Array(Math.max(s.count, this.state.length * 2));
      this.axis = new Float64Array(this.state.length * 3);
    }
    // By slot (constraintLayout.ts): the slot's bodies and count are the arrays' copies.
    const bi = k4.pair,
      mf = k4.mf,
      invMass = bodies.invMass;
    const touchesFixed = this.touchesFixed,
      impacted = this.impacted;
    touchesFixed.begin(bodies.count);
    impacted.begin(bodies.count);
    this.fixedManifolds.clear();
    this.candidates.clear();
    this.pinning = false;
    let fixedImpact = false;
    for (let i = 0; i < s.count; i++) {
      k4.kind[i] = SLOT_ANY_THREAD;
      this.state[i] = PIN_NONE;
      const a = bi[i * 2],
        b = bi[i * 2 + 1];
      const fixedA = !(invMass[a] > 0),
        fixedB = !(invMass[b] > 0);
      if (fixedA === fixedB) continue;
      const body = fixedB ? a : b;
      touchesFixed.add(body);
      this.fixedManifolds.push(i);
      if (meetsImpact(k4.pt, i, mf[i * MF + M_COUNT])) {
        impacted.add(body);
        fixedImpact = true;
      }
    }
    if (this.fixedManifolds.count === 0) return;
    for (let i = 0; i < s.count; i++) {
      const a = bi[i * 2],
        b = bi[i * 2 + 1];
      if (!(invMass[a] > 0 && invMass[b] > 0)) continue;
      const cand =
        (fixedImpact && (impacted.has(a) || impacted.has(b))) ||
        ((touchesFixed.has(a) || touchesFixed.has(b)) && meetsImpact(k4.pt, i, mf[i * MF + M_COUNT]));
      if (!cand) continue;
      k4.kind[i] = SLOT_PIN_CANDIDATE;
      this.candidates.push(i);
      this.pinning = true;
    }
  }

  /**
   * Pins at the current separations (J_SEP: the narrow phase's, then each relax pass's): every body's
   * touching manifolds with infinite-mass bodies, then each candidate's state. A pass calls it after every other
   * manifold and before the candidates: a box stopped by a wall in this pass is pinned for the ball behind it.
   */
  updatePins(cache: ContactCache, k4: ConstraintArrays, bodies: BodySet): void {
    const s = cache;
    // By slot: the normal (M_NX) and count are the constraint arrays' copies of the header's.
    const mf = k4.mf,
      jn = k4.jn,
      pt = k4.pt,
      bi = k4.pair,
      invMass = bodies.invMass;
    const pins = this.pins;
    pins.begin(bodies.count);
    const pinSeparation = this.settings.pinSeparation,
      pinMassRatio = this.settings.pinMassRatio;
    const fixed = this.fixedManifolds;
    for (let f = 0; f < fixed.count; f++) {
      const i = fixed.data[f];
      const a = bi[i * 2],
        b = bi[i * 2 + 1];
      const o = i * MF + M_NX;
      const n = mf[i * MF + M_COUNT];
      // Pinning: touching, or pushing in this pass (a body being stopped by the fixed one).
      let pinning = false;
      for (let k = 0; k < n && !pinning; k++) {
        const pi = i * 4 + k;
        pinning = jn[pi * JN + J_SEP] <= pinSeparation || pt[pi * PT + P_NI] > 0;
      }
      if (!pinning) continue;
      // The normal runs from A to B: into the fixed body seen from A, out of it seen from B.
      if (!(invMass[b] > 0)) pins.add(a, mf, o, 1);
      else pins.add(b, mf, o, -1);
    }
    const cand = this.candidates;
    for (let q = 0; q < cand.count; q++) {
      const i = cand.data[q];
      const o = i * MF + M_NX;
      // A's push moves B along +n; B's moves A along -n; only a hit by a body pinMassRatio times heavier or
      // more counts. Both pinned: an ordinary contact.
      const a = bi[i * 2],
        b = bi[i * 2 + 1];
      const holdsB = invMass[b] >= pinMassRatio * invMass[a] && pins.holds(b, mf, o, 1),
        holdsA = invMass[a] >= pinMassRatio * invMass[b] && pins.holds(a, mf, o, -1);
      const state = holdsB === holdsA ? PIN_NONE : holdsB ? PIN_B : PIN_A;
      this.state[i] = state;
      if (state !== PIN_NONE) pins.unitDirection(state === PIN_B ? b : a, this.axis, i * 3);
    }
  }

  /**
   * The directions along which pinned manifold i's normal rows move each body (into pinnedNormals: A's, then B's):
   * the normal n for a free body; for the pinned one n less its part along the pin axis p, n - p (p . n). A body
   * pinned against a static one is immovable only along that pin: it takes the rest of the hit, and all of its
   * moment (a domino struck on its top edge by a ball from above and behind tips forward, issue 29 item 1).
   */
  pinnedNormals(i: number, v: Float64Array, at: number): void {
    const nx = v[at],
      ny = v[at + 1],
      nz = v[at + 2];
    const ax = this.axis;
    const px = ax[i * 3],
      py = ax[i * 3 + 1],
      pz = ax[i * 3 + 2];
    const d = px * nx + py * ny + pz * nz;
    const out = pinnedNormals;
    const pinB = this.state[i] === PIN_B;
    out[0] = pinB ? nx : nx - d * px;
    out[1] = pinB ? ny : ny - d * py;
    out[2] = pinB ? nz : nz - d * pz;
    out[3] = pinB ? nx - d * px : nx;
    out[4] = pinB ? ny - d * py : ny;
    out[5] = pinB ? nz - d * pz : nz;
  }

  /**
   * Takes out of pinned body `body`'s velocity the change along manifold i's pin axis since saveVelocity: what the
   * rebound's impulses (restitution.ts) would move it by into its pins.
   */
  releaseAlongAxis(bodies: BodySet, body: number, i: number): void {
    const v = bodies.vel,
      b3 = body * 3,
      ax = this.axis;
    const px = ax[i * 3],
      py = ax[i * 3 + 1],
      pz = ax[i * 3 + 2];
    const d = (v[b3] - heldVelocity[0]) * px + (v[b3 + 1] - heldVelocity[1]) * py + (v[b3 + 2] - heldVelocity[2]) * pz;
    v[b3] -= d * px;
    v[b3 + 1] -= d * py;
    v[b3 + 2] -= d * pz;
  }
}

/** PinnedContacts.pinnedNormals' result: the directions of A's and B's linear response (3 numbers each). */
export const pinnedNormals = new Float64Array(6);

/** pinnedNormalMass's result. */
export const pinnedMass = new Float64Array(1);

/**
 * The normal effective mass of the contact at jn[jo] between dense bodies a and b, their linear responses along the
 * directions in pinnedNormals (PinnedContacts.pinnedNormals: a pinned body's without its part along the pin), the
 * normal at v[at], written to pinnedMass[0]. Integers in, the result through a scratch array: the call is taken only for pinned
 * contacts, so V8 often does not inline it, and then boxes double arguments and the return value. Worse, the
 * solver loops' merge of a contact's stored normal mass (a double) with an unknown return value became a tagged
 * value, boxing the common path's double at every contact: the intermittent GCs of the relax pass
 * (bench/RESULTS.md, "Where time goes").
 */
export function pinnedNormalMass(jn: Float64Array, jo: number, invMass: Float64Array, a: number, b: number, v: Float64Array, at: number): void {
  const d = pinnedNormals;
  const nx = v[at],
    ny = v[at + 1],
    nz = v[at + 2];
  const k =
    invMass[a] * (d[0] * nx + d[1] * ny + d[2] * nz) + invMass[b] * (d[3] * nx + d[4] * ny + d[5] * nz) +
    (jn[jo + J_ANX] * jn[jo + J_IANX] + jn[jo + J_ANX + 1] * jn[jo + J_IANX + 1] + jn[jo + J_ANX + 2] * jn[jo + J_IANX + 2]) +
    (jn[jo + J_BNX] * jn[jo + J_IBNX] + jn[jo + J_BNX + 1] * jn[jo + J_IBNX + 1] + jn[jo + J_BNX + 2] * jn[jo + J_IBNX + 2]);
  pinnedMass[0] = k > 0 ? 1 / k : 0;
}

/** The pinned body's linear velocity before an impulse (saveVelocity, PinnedContacts.releaseAlongAxis). */
const heldVelocity = new Float64Array(3);

/** Keeps body i's linear velocity for PinnedContacts.releaseAlongAxis. */
export function saveVelocity(bodies: BodySet, i: number): void {
  for (let k = 0; k < 3; k++) heldVelocity[k] = bodies.vel[i * 3 + k];
}
