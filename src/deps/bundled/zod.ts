// Built into one file (dist/deps/zod.cjs) that holds only the part of zod hookwise's own code
// calls: the package as published is about ninety modules (every locale among them), and
// loading it costs a CLI command most of its start-up.
//
// Values still cross with an app's own zod: a zod 4 schema made by another copy is read
// through its `_zod` definition and zod's shared registry, which is how zod 4 itself works
// across copies, so `toJSONSchema` here gives an app's schema exactly what its own zod gives.
import * as zod from "zod";

/** zod's `z`, the members hookwise calls; add one here before using it. */
const z = {
  array: zod.array,
  boolean: zod.boolean,
  custom: zod.custom,
  discriminatedUnion: zod.discriminatedUnion,
  enum: zod.enum,
  fromJSONSchema: zod.fromJSONSchema,
  literal: zod.literal,
  looseObject: zod.looseObject,
  number: zod.number,
  object: zod.object,
  record: zod.record,
  strictObject: zod.strictObject,
  string: zod.string,
  toJSONSchema: zod.toJSONSchema,
  union: zod.union,
  unknown: zod.unknown,
};

export default z;
