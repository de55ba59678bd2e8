/**
 * `@readme/openapi-parser` is an optional peer dependency: loaded on the first OpenAPI
 * toolset, never by code every user loads. Missing, it is an error naming the package.
 */
import { HookwiseError } from "../../../errors/hookwise-error.js";

export type OpenApiParser = typeof import("@readme/openapi-parser");

const PACKAGE = "@readme/openapi-parser";
let loading: Promise<OpenApiParser> | undefined;

/** `specifier` is for tests of the missing-package path; users never pass it. */
export function loadOpenApiParser(specifier: string = PACKAGE): Promise<OpenApiParser> {
  if (specifier !== PACKAGE) return importParser(specifier);
  loading ??= importParser(specifier).catch((error: unknown) => {
    loading = undefined;
    throw error;
  });
  return loading;
}

async function importParser(specifier: string): Promise<OpenApiParser> {
  try {
    return (await import(specifier)) as OpenApiParser;
  } catch (error) {
    const code = (error as { code?: string }).code;
    const missing = code === "ERR_MODULE_NOT_FOUND" || code === "MODULE_NOT_FOUND";
    throw new HookwiseError(
      missing
        ? `OpenAPI toolsets need the package ${specifier}, which is not installed: npm install ${specifier}`
        : `cannot load ${specifier}: ${(error as Error).message}`,
    );
  }
}
