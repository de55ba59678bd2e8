/**
 * Where an operation's requests go. A toolset talks to one origin, the one its config
 * names: `base_url` when given (it replaces every server of the document), else the
 * document's top-level server. An operation (or its path) may declare a server of its own
 * on that origin — another base path — but a server on another origin is refused when the
 * toolset is built: credentials and bodies never reach a host the config does not name.
 * A relative server URL resolves against the URL the document was fetched from; for a
 * document read from a file it needs `base_url`. Credentials never go over plain `http://`
 * to a remote host unless the config's own `base_url` says `http://`.
 */
import type { ApiOperation } from "../api-description.js";
import type { ApiDocument } from "../document/load-openapi-document.js";
import { OpenApiToolsetError } from "../openapi-toolset-error.js";

export interface ServerSettings {
  toolset: string;
  /** `base_url`, expanded. */
  configured: string | undefined;
  /** The document's first top-level server. */
  documentServer: string | undefined;
  loaded: ApiDocument;
}

const LOOPBACK = /^(localhost|127(?:\.\d{1,3}){3}|\[::1\])$/;

/** The base URL (no trailing slash) of one operation, or an OpenApiToolsetError. */
export function operationBaseUrl(
  settings: ServerSettings,
  operation: ApiOperation,
  call: { tool: string; sendsSecrets: boolean },
): string {
  if (settings.configured !== undefined) return resolveBaseUrl(settings, settings.configured, true);
  const own = operation.server;
  const base =
    own === undefined
      ? resolveBaseUrl(settings, settings.documentServer, false)
      : resolveBaseUrl(settings, own, false);
  const label = `${operation.method} ${operation.path} (${call.tool})`;
  if (own !== undefined) {
    const documentBase =
      settings.documentServer === undefined
        ? undefined
        : resolveBaseUrl(settings, settings.documentServer, false);
    const origin = new URL(base).origin;
    const allowed = documentBase === undefined ? undefined : new URL(documentBase).origin;
    if (origin !== allowed) {
      throw new OpenApiToolsetError({
        toolset: settings.toolset,
        at: ["spec"],
        file: settings.loaded.source.display,
        ...settings.loaded.positionOf(operation.serverPointer ?? operation.pointer),
        problem:
          `${label} declares the server ${origin}, ` +
          (allowed === undefined
            ? "and the document has no top-level server"
            : `another origin than the API's (${allowed})`) +
          ": credentials and request bodies go only to the origin the config names",
        expected: `base_url (every operation is then called there), or operations: ["!${call.tool}"] and a toolset of its own with base_url: ${base}`,
      });
    }
  }
  const url = new URL(base);
  if (call.sendsSecrets && url.protocol === "http:" && !LOOPBACK.test(url.hostname)) {
    throw new OpenApiToolsetError({
      toolset: settings.toolset,
      at: ["base_url"],
      problem: `${label} would send credentials unencrypted: the document's server ${url.origin} is plain http`,
      expected: `base_url: https://${url.host}${url.pathname.replace(/\/$/, "")} (or base_url: ${base}, to send them over http knowingly)`,
    });
  }
  return base;
}

function resolveBaseUrl(settings: ServerSettings, server: string | undefined, configured: boolean): string {
  const { toolset } = settings;
  const documentUrl = settings.loaded.source.url;
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
    url = configured || !documentUrl ? new URL(server) : new URL(server, documentUrl);
  } catch {
    throw new OpenApiToolsetError({
      toolset,
      at,
      problem: configured
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
