/**
 * `fetch` that follows redirects only within the origin it started on. A redirect to
 * another host (or scheme, or port) is refused, not followed: credentials and request
 * bodies never travel to a server the configuration did not name.
 */
const REDIRECTS = new Set([301, 302, 303, 307, 308]);
const MAX_REDIRECTS = 5;

export type SameOriginAnswer =
  | { kind: "response"; response: Response; url: URL }
  | { kind: "refused"; location: URL }
  | { kind: "too_many" };

export interface SameOriginRequest {
  method: string;
  headers: Record<string, string>;
  body?: string | Uint8Array;
  signal: AbortSignal;
}

export async function sameOriginFetch(start: URL, request: SameOriginRequest): Promise<SameOriginAnswer> {
  let url = start;
  let { method, body } = request;
  const headers = { ...request.headers };
  for (let hop = 0; ; hop++) {
    const response = await fetch(url, {
      method,
      headers,
      ...(body === undefined ? {} : { body }),
      redirect: "manual",
      signal: request.signal,
    });
    const location = response.headers.get("location");
    if (!REDIRECTS.has(response.status) || location === null) return { kind: "response", response, url };
    await response.body?.cancel().catch(() => {});
    const next = new URL(location, url);
    if (next.origin !== start.origin) return { kind: "refused", location: next };
    if (hop >= MAX_REDIRECTS) return { kind: "too_many" };
    // What browsers do: 303 always, and 301/302 after a POST, continue as a GET without a body.
    if (
      response.status === 303 ||
      ((response.status === 301 || response.status === 302) && method === "POST")
    ) {
      if (method !== "HEAD") method = "GET";
      body = undefined;
      delete headers["content-type"];
    }
    url = next;
  }
}
