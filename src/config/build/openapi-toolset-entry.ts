/**
 * `kind: openapi` toolsets (src/tools/openapi): the entry's fields to the toolset's
 * options, its setup problems to ConfigErrors at the config's (or the document's) line and
 * column, its warnings to the config's logger (or to `validate`'s report).
 */
import {
  OpenApiToolsetError,
  type OpenApiToolsetOptions,
  openapiToolset,
} from "../../tools/openapi/index.js";
import { ConfigError, type ConfigIssue, formatPath } from "../source/config-error.js";
import type { ToolsetFactory } from "./build-toolsets.js";

export const openapiToolsetEntry: ToolsetFactory = async (name, entry, baseDir, context) => {
  if (entry.kind !== "openapi") throw new Error("unreachable");
  const options: OpenApiToolsetOptions = {
    spec: entry.spec,
    baseDir,
    prefix: entry.prefix ?? true,
    onWarning: ({ at, message }) => {
      const path = ["toolsets", name, ...at];
      if (context.warn) context.warn(path, message);
      else if (context.log) context.log.warn(`${formatPath(path)}: ${message}`);
      else console.warn(`[hookwise] ${formatPath(path)}: ${message}`);
    },
  };
  if (entry.base_url !== undefined) options.baseUrl = entry.base_url;
  if (entry.operations) options.operations = entry.operations;
  if (entry.auth) options.auth = entry.auth;
  if (entry.headers) options.headers = entry.headers;
  if (entry.timeout !== undefined) options.timeoutMs = entry.timeout * 1000;
  if (entry.max_response_bytes !== undefined) options.maxResponseBytes = entry.max_response_bytes;
  if (entry.retries !== undefined) options.retries = entry.retries;
  try {
    return await openapiToolset(name, options);
  } catch (error) {
    if (!OpenApiToolsetError.isInstance(error) || !context.source) throw error;
    const path = ["toolsets", name, ...error.at];
    const issue: ConfigIssue = {
      severity: "error",
      file: error.file ?? context.source.file,
      ...(error.line === undefined
        ? context.source.positionOf(path)
        : { line: error.line, column: error.column ?? 1 }),
      path,
      message: error.problem,
    };
    if (error.expected) issue.expected = error.expected;
    if (error.suggestion) issue.suggestion = error.suggestion;
    throw new ConfigError([issue]);
  }
};
