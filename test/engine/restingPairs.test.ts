import { describe, expect, it } from "vitest";
import { PairTable } from "../../src/collections/pairTable";
import { Box, ContactEventType, type World } from "../../src/index";
import { addGround, makeWorld, steps } from "./helpers";

/** Events of the last step for the pair (a, b) in either order, by type. */
function eventsOf(world: World, a: number, b: number): ContactEventType[] {
  const ev = world.contactEvents;
  const out: ContactEventType[] = [];
  for (let e = 0; e < ev.count; e++) {
    if ((ev.bodyA[e] === a && ev.bodyB[e] === b) || (ev.bodyA[e] === b && ev.bodyB[e] === a)) out.push(ev.type[e] as ContactEventType);
  }
  return out;
}

/** Ten 1 m boxes resting apart on the ground, stepped until every one sleeps. */
function sleepingRow(): { world: World; ground: number; boxes: number[] } {
  const world = makeWorld();
  const ground = addGround(world);
  const boxes: number[] = [];
  for (let k = 0; k < 10; k++) {
    boxes.push(world.createBody({ position: { x: 3 * k - 13.5, y: 0.5, z: 0 }, collidable: { shape: new Box(0.5, 0.5, 0.5) } }));
  }
  for (let s = 0; s < 600 && (s < 2 || world.stats.awakeBodies > 0); s++) world.step(1 / 60);
  expect(world.stats.awakeBodies).toBe(0);
  return { world, ground, boxes };
}

describe("touching pairs of resting bodies (events.ts)", () => {
  it("a sleeping row costs the per-step touching table nothing and reports nothing", () => {
    const { world } = sleepingRow();
    let events = 0;
    steps(world, 60, () => (events += world.contactEvents.count));
    // Sleep keeps the ten box-ground pairs silent (no Ended while they sleep) ...
    expect(events).toBe(0);
    // ... held once in the resting table, not carried through the per-step one every step (it was: 10 entries).
    expect(world.touchingCur.count).toBe(0);
    expect(world.touchingResting.count).toBe(10);
  });

  it("a woken box that leaves the ground ends its contact once, with the last point and normal; one that stays persists", () => {
    const { world, ground, boxes } = sleepingRow();
    // Box 0 thrown up at 5 m/s (it wakes): the step it leaves reports Ended for its ground pair and nothing else.
    world.setLinearVelocity(boxes[0], { x: 0, y: 5, z: 0 });
    let ended = -1;
    for (let s = 0; s < 5 && ended < 0; s++) {
      world.step(1 / 60);
      const types = eventsOf(world, boxes[0], ground);
      if (types.includes(ContactEventType.Ended)) ended = s;
      // None of the other nine boxes is touched: they stay silent.
      for (let k = 1; k < 10; k++) expect(eventsOf(world, boxes[k], ground)).toEqual([]);
    }
    expect(ended).toBeGreaterThanOrEqual(0);
    const ev = world.contactEvents;
    const e = [...Array(ev.count).keys()].find((i) => ev.type[i] === ContactEventType.Ended)!;
    // The contact it ends is the one it slept on: a point on the ground's top face (y = 0, within the box's
    // 1 m footprint around x = -13.5) with a vertical normal.
    expect(ev.point[3 * e + 1]).toBeCloseTo(0, 2);
    expect(Math.abs(ev.point[3 * e] + 13.5)).toBeLessThanOrEqual(0.5 + 1e-6);
    expect(Math.abs(ev.normal[3 * e + 1])).toBeCloseTo(1, 6);
    expect(world.touchingResting.count).toBe(9);

    // Box 5 woken where it lies: its pair touches on, so the step reports Persisted (not Began) for it.
    world.wake(boxes[5]);
    world.step(1 / 60);
    expect(eventsOf(world, boxes[5], ground)).toEqual([ContactEventType.Persisted]);
    expect(world.touchingResting.count).toBe(8);
    // Removed while it sleeps, a box's resting pair goes without an event when the table is next examined (here
    // when box 6 wakes: its pair persists, and both leave the table).
    world.removeBody(boxes[9]);
    world.wake(boxes[6]);
    world.step(1 / 60);
    expect(eventsOf(world, boxes[9], ground)).toEqual([]);
    expect(eventsOf(world, boxes[6], ground)).toEqual([ContactEventType.Persisted]);
    expect(world.touchingResting.count).toBe(6);
  });
});

describe("PairTable.clear", () => {
  it("after a table grew, clearing a few entries leaves every slot free and the table usable", () => {
    const t = new PairTable(0);
    for (let k = 0; k < 1000; k++) t.insert(k, k + 7);
    t.clear(); // the full fill
    for (let k = 0; k < 3; k++) t.insert(5 * k, 5 * k + 1);
    t.clear(); // three entries in 4,096 slots: only theirs are zeroed
    for (let k = 0; k < 3; k++) expect(t.find(5 * k, 5 * k + 1)).toBe(-1);
    // A stale slot would make an insert land beside it and find return the old entry's index: none does.
    for (let k = 0; k < 1000; k++) expect(t.insert(k, k + 7)).toBe(k);
    for (let k = 0; k < 1000; k++) expect(t.find(k, k + 7)).toBe(k);
    expect(t.find(0, 1)).toBe(-1);
  });
});
