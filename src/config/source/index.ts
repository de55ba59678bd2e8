/**
 * Reading a config and pointing into it: the file's text, its YAML/JSON parsed keeping the
 * position of every key and value, and the errors that name a file, line, column and config
 * path. A room of its own below `harnesses/`, which reads Claude Code settings files the
 * same way; it imports nothing of the rest of `config/`.
 */
export {
  ConfigError,
  ConfigFileError,
  type ConfigIssue,
  type ConfigPath,
  ConfigReferenceError,
  formatIssue,
  formatPath,
} from "./config-error.js";
export { isProgramPath, programProblem } from "./program-problem.js";
export { readConfigFile } from "./read-config-file.js";
export { documentData, parseSource, positionOf, type SourceDocument } from "./source-map.js";
export { zodIssues } from "./zod-issues.js";
