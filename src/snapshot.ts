/**
 * The engine's snapshot entry (`continuum-physics/snapshot`): importing it installs the byte codec behind
 * `World.snapshot` / `restore` / `encodeState` / `decodeState` (stateCodec.ts), and exports the byte buffers
 * and shape table for state kept in the caller's own format. Kept out of src/index.ts so that a world that
 * never takes a snapshot does not carry the codec. Never imports Babylon.
 */
import { ByteReader, ByteWriter, ShapeList, StateDecoder, StateEncoder, type ShapeTable } from "./world/stateCodec";
import { installStateCodec, WorldSnapshot } from "./world/world";

export { ByteReader, ByteWriter, ShapeList, type ShapeTable };

/** Encoder, decoder and byte buffer shared by every world's snapshots (reused: they keep their capacity). */
const encoder = new StateEncoder();
const decoder = new StateDecoder();
const writer = new ByteWriter();

installStateCodec({
  snapshot(world) {
    const list = new ShapeList();
    return new WorldSnapshot(this.encodeState(world, list, writer).result(), list.shapes);
  },
  restore(world, snapshot) {
    if (!(snapshot instanceof WorldSnapshot)) throw new TypeError(`restore: snapshot must be a WorldSnapshot, got ${String(snapshot)}`);
    const shapes = snapshot.shapes;
    this.decodeState(world, new ByteReader(snapshot.bytes), {
      indexOf: () => {
        throw new Error("restore: the shape table is read-only");
      },
      at: (k: number) => {
        const sh = shapes[k];
        if (sh === undefined) throw new RangeError(`restore: shape index ${k} is not in the snapshot's shape table`);
        return sh;
      },
    });
  },
  encodeState(world, shapes: ShapeTable, w = new ByteWriter()) {
    if (w === writer) w.pos = 0;
    encoder.encode(world, w, shapes);
    return w;
  },
  decodeState(world, r, shapes) {
    decoder.decodeInto(world, r, shapes);
  },
});
