// Built into one file (dist/deps/zod.mjs) that holds only the part of zod hookwise's own code
// calls: the package as published is about ninety modules (every locale among them), and
// loading it costs a CLI command most of its start-up.
//
// Values still cross with an app's own zod: a zod 4 schema made by another copy is read
// through its `_zod` definition and zod's shared registry, which is how zod 4 itself works
// across copies, so `toJSONSchema` here gives an app's schema exactly what its own zod gives.
import {
  array,
  boolean,
  custom,
  discriminatedUnion,
  enum as enumOf,
  fromJSONSchema,
  literal,
  looseObject,
  number,
  object,
  record,
  strictObject,
  string,
  toJSONSchema,
  union,
  unknown,
} from "zod";

/** zod's `z`, the members hookwise calls; add one here before using it. */
const z = {
  array,
  boolean,
  custom,
  discriminatedUnion,
  enum: enumOf,
  fromJSONSchema,
  literal,
  looseObject,
  number,
  object,
  record,
  strictObject,
  string,
  toJSONSchema,
  union,
  unknown,
};

export default z;
