/**
 * Where an operation's requests go: `base_url` when given (it replaces every server of
 * the document), else the operation's server, else the document's. A relative server URL
 * resolves against the URL the document was fetched from; for a document read from a file
 * it needs `base_url`.
 */
import { OpenApiToolsetError } from "./openapi-toolset-error.js";

export function resolveBaseUrl(
  toolset: string,
  server: string | undefined,
  options: { configured: boolean; documentUrl: URL | undefined },
): string {
  const at = ["base_url"];
  if (server === undefined) {
    throw new OpenApiToolsetError({
      toolset,
      at,
      problem: "the document declares no server",
      expected: "base_url: the API's address (e.g. https://api.example.com/v1)",
    });
  }
  let url: URL;
  try {
    url = options.configured || !options.documentUrl ? new URL(server) : new URL(server, options.documentUrl);
  } catch {
    throw new OpenApiToolsetError({
      toolset,
      at,
      problem: options.configured
        ? `"${server}" is not a URL`
        : `the document's server "${server}" is relative, and the document was read from a file`,
      expected: "base_url: an absolute http(s) URL (e.g. https://api.example.com/v1)",
    });
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") {
    throw new OpenApiToolsetError({
      toolset,
      at,
      problem: `${url.protocol} URLs cannot be called`,
      expected: "an http(s) URL",
    });
  }
  if (url.search || url.hash) {
    throw new OpenApiToolsetError({
      toolset,
      at,
      problem: `"${server}" has a query or fragment`,
      expected: "the API's address without ? or #",
    });
  }
  return url.href.replace(/\/+$/, "");
}
