/**
 * Reads an OpenAPI document's text: a file (relative to the config's folder) or a URL.
 * URLs are `https://` (plain `http://` only for a loopback host, where nothing can tamper
 * with it on the way), fetched with a timeout and a size cap, following redirects only
 * within the same origin.
 */
import { readFile, stat } from "node:fs/promises";
import { isAbsolute, relative, resolve } from "node:path";
import { readCappedBody } from "../http/read-capped-body.js";
import { sameOriginFetch } from "../http/same-origin-fetch.js";
import { OpenApiToolsetError } from "../openapi-toolset-error.js";

export interface SpecSource {
  text: string;
  /** How messages name it: a path relative to the working folder when inside it, or the URL. */
  display: string;
  /** The absolute path, for a file. */
  file?: string;
  /** The final URL, for a fetched document. */
  url?: URL;
}

export interface ReadSpecOptions {
  toolset: string;
  baseDir: string;
  timeoutMs: number;
  maxBytes: number;
}

const LOOPBACK = /^(localhost|127(?:\.\d{1,3}){3}|\[::1\])$/;

export function isSpecUrl(spec: string): boolean {
  return /^[A-Za-z][A-Za-z0-9+.-]*:\/\//.test(spec);
}

export async function readSpecSource(spec: string, options: ReadSpecOptions): Promise<SpecSource> {
  return isSpecUrl(spec) ? fetchSpec(spec, options) : readSpecFile(spec, options);
}

function fail(options: ReadSpecOptions, problem: string, expected?: string): never {
  throw new OpenApiToolsetError({
    toolset: options.toolset,
    at: ["spec"],
    problem,
    ...(expected ? { expected } : {}),
  });
}

function displayPath(file: string): string {
  const shown = relative(process.cwd(), file);
  return shown.startsWith("..") || isAbsolute(shown) ? file : shown;
}

async function readSpecFile(spec: string, options: ReadSpecOptions): Promise<SpecSource> {
  const file = resolve(options.baseDir, spec);
  try {
    const info = await stat(file);
    if (info.isDirectory())
      fail(options, `${file} is a folder`, "an OpenAPI document (.yaml, .yml or .json)");
    if (info.size > options.maxBytes)
      fail(
        options,
        `${file} is ${info.size} bytes, more than the ${options.maxBytes} an OpenAPI document may have`,
      );
    return { text: await readFile(file, "utf8"), display: displayPath(file), file };
  } catch (error) {
    if (OpenApiToolsetError.isInstance(error)) throw error;
    const code = (error as { code?: string }).code;
    fail(
      options,
      code === "ENOENT" ? `no such file ${file}` : `cannot read ${file}: ${code ?? (error as Error).message}`,
      "a path relative to the config's folder, or an https:// URL",
    );
  }
}

async function fetchSpec(spec: string, options: ReadSpecOptions): Promise<SpecSource> {
  let url: URL;
  try {
    url = new URL(spec);
  } catch {
    fail(options, `"${spec}" is not a valid URL`, "https://host/path/openapi.yaml");
  }
  const secure = url.protocol === "https:" || (url.protocol === "http:" && LOOPBACK.test(url.hostname));
  if (!secure) {
    fail(
      options,
      `the document URL ${url.origin} is not https`,
      "an https:// URL (http:// is accepted only for localhost / 127.0.0.1), or a file path",
    );
  }
  const signal = AbortSignal.timeout(options.timeoutMs);
  try {
    const answer = await sameOriginFetch(url, {
      method: "GET",
      headers: { accept: "application/yaml, application/json;q=0.9, */*;q=0.5" },
      signal,
    });
    if (answer.kind === "refused")
      fail(options, `${url.href} redirects to another host (${answer.location.origin}); refused`);
    if (answer.kind === "too_many") fail(options, `${url.href} redirects too many times`);
    const { response } = answer;
    if (!response.ok) {
      await response.body?.cancel().catch(() => {});
      fail(options, `fetching ${url.href} answered ${response.status} ${response.statusText}`.trimEnd());
    }
    const body = await readCappedBody(response, options.maxBytes);
    if (!body.ok)
      fail(options, `${url.href} is larger than the ${options.maxBytes} bytes an OpenAPI document may have`);
    return { text: body.bytes.toString("utf8"), display: url.href, url: answer.url };
  } catch (error) {
    if (OpenApiToolsetError.isInstance(error)) throw error;
    if (signal.aborted) fail(options, `fetching ${url.href} took more than ${options.timeoutMs / 1000} s`);
    fail(options, `cannot fetch ${url.href}: ${(error as Error).message}`);
  }
}
