/**
 * Loads an OpenAPI document for a toolset: reads it (file or URL), parses it keeping
 * positions (a syntax error is reported at its line:column), validates it against the
 * OpenAPI 3.0 / 3.1 (or Swagger 2.0) specification with `@readme/openapi-parser`, and
 * resolves every `$ref`. External `$ref`s are followed for a document read from a file
 * (relative to it, to files in its folder only: `confine-refs.ts`); a document fetched from a URL must be self-contained, so loading it
 * never reaches a server the configuration did not name.
 */
import { readFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { OpenApiToolsetError } from "../openapi-toolset-error.js";
import { refOutsideFolder } from "./confine-refs.js";
import { loadOpenApiParser } from "./load-openapi-parser.js";
import { type ParsedSpecText, parseSpecText } from "./parse-spec-text.js";
import { readSpecSource, type SpecSource } from "./read-spec-source.js";
import { validationProblemPath, validationProblemText } from "./validation-problem-path.js";
import { withoutExtensionRefs } from "./without-extension-refs.js";
import type { DocumentPath } from "./yaml-positions.js";

export interface ApiDocument {
  /** The document with every `$ref` resolved (a recursive schema is a cycle of objects). */
  document: Record<string, any>;
  source: SpecSource;
  positionOf: ParsedSpecText["positionOf"];
}

export interface LoadDocumentOptions {
  toolset: string;
  baseDir: string;
  timeoutMs: number;
  maxBytes: number;
}

const SUPPORTED = /^(3\.0|3\.1)\.\d+$/;

export async function loadOpenApiDocument(spec: string, options: LoadDocumentOptions): Promise<ApiDocument> {
  const source = await readSpecSource(spec, options);
  const parsed = parseSpecText(source, options.toolset);
  const value = withoutExtensionRefs(parsed.value) as Record<string, any>;
  const fail = (problem: string, path: DocumentPath = [], expected?: string, suggestion?: string): never => {
    throw new OpenApiToolsetError({
      toolset: options.toolset,
      at: ["spec"],
      file: source.display,
      ...parsed.positionOf(path),
      problem,
      ...(expected ? { expected } : {}),
      ...(suggestion ? { suggestion } : {}),
    });
  };
  checkVersion(value, fail);

  const parser = await loadOpenApiParser();
  const external = findExternalRef(value, []);
  let bundled: Record<string, any> = value;
  if (external) {
    if (!source.file) {
      fail(
        `$ref "${external.ref}" points outside the document, which a document fetched from a URL may not do`,
        external.path,
        "a self-contained document (bundle it, e.g. with `redocly bundle`), or a local file",
      );
    }
    const outside = refOutsideFolder(source.file!, value);
    if (outside) {
      fail(
        outside.file ? `${outside.problem} (in ${outside.file})` : outside.problem,
        outside.file ? external.path : outside.path,
        "a $ref to a file in the document's folder or below it",
      );
    }
    try {
      // The bundler reads the document itself: it is given the one without extensions' $refs.
      const root = source.file!;
      const read = async (file: { url: string }) =>
        fileUrlPath(file.url) === root ? JSON.stringify(value) : readFile(fileUrlPath(file.url));
      bundled = (await parser.bundle(root, { resolve: { file: { read } } } as never)) as Record<string, any>;
    } catch (error) {
      fail(`cannot resolve $ref "${external.ref}": ${firstLine(error)}`, external.path);
    }
  }

  const validated = structuredClone(bundled);
  let result: Awaited<ReturnType<typeof parser.validate>>;
  try {
    result = await parser.validate(validated as never, { resolve: { external: false } });
  } catch (error) {
    fail(`invalid OpenAPI document: ${firstLine(error)}`);
  }
  if (!result!.valid) {
    const [first, ...rest] = result!.errors;
    const more = rest.length + result!.additionalErrors;
    const message = first?.message ?? "unknown problem";
    const problem = validationProblemText(message);
    fail(
      `invalid OpenAPI document: ${problem.text}` +
        (more ? ` (and ${more} more problem${more === 1 ? "" : "s"})` : ""),
      validationProblemPath(message, validated) ?? [],
      undefined,
      problem.suggestion,
    );
  }
  let document: Record<string, any>;
  try {
    document = (await parser.dereference(bundled as never, { resolve: { external: false } })) as Record<
      string,
      any
    >;
  } catch (error) {
    fail(`cannot resolve the document's $refs: ${firstLine(error)}`);
  }
  return { document: document!, source, positionOf: parsed.positionOf };
}

function checkVersion(
  value: Record<string, any>,
  fail: (problem: string, path?: DocumentPath, expected?: string) => never,
) {
  const expected = 'openapi: 3.0.x or 3.1.x (or swagger: "2.0")';
  if (value.swagger !== undefined) {
    if (String(value.swagger) !== "2.0")
      fail(`swagger: ${value.swagger} is not supported`, ["swagger"], expected);
    return;
  }
  if (value.openapi === undefined) fail("not an OpenAPI document: it has no openapi field", [], expected);
  if (!SUPPORTED.test(String(value.openapi)))
    fail(`openapi: ${value.openapi} is not supported`, ["openapi"], expected);
}

function findExternalRef(
  value: unknown,
  path: DocumentPath,
): { ref: string; path: DocumentPath } | undefined {
  if (Array.isArray(value)) {
    for (let index = 0; index < value.length; index++) {
      const found = findExternalRef(value[index], [...path, index]);
      if (found) return found;
    }
    return undefined;
  }
  if (typeof value !== "object" || value === null) return undefined;
  for (const [key, item] of Object.entries(value)) {
    if (key === "$ref" && typeof item === "string" && !item.startsWith("#")) return { ref: item, path };
    const found = findExternalRef(item, [...path, key]);
    if (found) return found;
  }
  return undefined;
}

/** A file resolver's location as a path (it may come as a `file:` URL). */
function fileUrlPath(url: string): string {
  return url.startsWith("file:") ? fileURLToPath(url) : url;
}

function firstLine(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).split("\n")[0]!;
}
