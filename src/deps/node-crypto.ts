/**
 * node:crypto, loaded at its first use: importing it costs `import "hookwise"` about 6 ms on
 * Node 20, and most programs first need it when a run starts.
 */
let loaded: typeof import("node:crypto") | undefined;

export function nodeCrypto(): typeof import("node:crypto") {
  loaded ??= process.getBuiltinModule("node:crypto");
  return loaded;
}
