/**
 * What V8's young-generation collections keep of a run once it is over. A run's objects
 * that outlive a collection while the run goes on die at the next one after it ends, unless
 * something still holds them then: they are then promoted to the old generation, and
 * only a full collection frees them. `promotedAfter` counts the bytes so promoted: `make`
 * returns what a run holds (held through one forced collection, as a collection during
 * the run would), then it is dropped and two more collections run.
 */
import { getHeapSpaceStatistics, setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";

setFlagsFromString("--expose-gc");
// Else a site whose objects all outlive a collection (as a held run's do here) is allocated old from then on.
setFlagsFromString("--no-allocation-site-pretenuring");
const gc = runInNewContext("gc") as (options: { type: "minor" | "major" }) => void;

/** The old generation: its space, and its space of large objects. */
const OLD = new Set(["old_space", "large_object_space"]);

function oldSpaceUsed(): number {
  let used = 0;
  for (const space of getHeapSpaceStatistics()) if (OLD.has(space.space_name)) used += space.space_used_size;
  return used;
}

/** Two collections: an object that survives both is promoted. */
function collectYoung(): void {
  gc({ type: "minor" });
  gc({ type: "minor" });
}

/** Holds what `make` returns through one collection; it is dropped with this call's frame. */
function holdThroughCollection(make: () => unknown): boolean {
  const held = make();
  gc({ type: "minor" });
  return held !== undefined;
}

export function promotedAfter(make: () => unknown): number {
  collectYoung();
  const before = oldSpaceUsed();
  holdThroughCollection(make);
  collectYoung();
  return oldSpaceUsed() - before;
}

/** Small objects (about 40 KB in all): what a test gives a run so that keeping it shows. */
export function manySmallObjects(): { i: number }[] {
  return Array.from({ length: 2_000 }, (_, i) => ({ i }));
}

/** Bytes the old generation holds of what `make` returns while it is held (promoted by two collections). */
export function retainedBy(make: () => unknown): number {
  collectYoung();
  const before = oldSpaceUsed();
  const held = make();
  collectYoung();
  const retained = oldSpaceUsed() - before;
  return held === undefined ? 0 : retained;
}
