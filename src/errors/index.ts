export { ApprovalError } from "./approval-error.js";
export { HookError } from "./hook-error.js";
export { HookwiseError } from "./hookwise-error.js";
export { editDistance, nearest } from "./nearest.js";
export { MissingPackageError } from "./optional-package.js";
export { SessionBusyError } from "./session-busy-error.js";
export { SessionNotKeptError } from "./session-not-kept-error.js";
