export { type FilesystemToolsetOptions, filesystemToolset } from "./filesystem-toolset.js";
export { type MemoryToolsetOptions, memoryToolset } from "./memory-toolset.js";
export { PathEscapeError } from "./path-escape-error.js";
export { resolveInside } from "./resolve-inside.js";
