/**
 * The server's API as the page uses it: JSON calls and event streams, with the bearer token
 * (asked once when the server wants one, kept for this tab only).
 */
const TOKEN_KEY = "hookwise.token";

export class UnauthorizedError extends Error {}

export function token() {
  return sessionStorage.getItem(TOKEN_KEY) ?? "";
}

export function setToken(value) {
  if (value) sessionStorage.setItem(TOKEN_KEY, value);
  else sessionStorage.removeItem(TOKEN_KEY);
}

function headers(extra = {}) {
  const value = token();
  return value ? { ...extra, authorization: `Bearer ${value}` } : extra;
}

export async function api(path, { method = "GET", body, accept = "application/json" } = {}) {
  const response = await fetch(path, {
    method,
    headers: headers({ accept, ...(body === undefined ? {} : { "content-type": "application/json" }) }),
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (response.status === 401) throw new UnauthorizedError("this server needs a token");
  const text = await response.text();
  const value = text ? JSON.parse(text) : undefined;
  if (!response.ok) throw new Error(value?.error?.message ?? `${method} ${path}: ${response.status}`);
  return value;
}

/**
 * Follows a Server-Sent Events endpoint (fetch, so the token travels in a header), calling
 * `onEvent(name, data)` per event; reconnects after a drop. Returns the stop function.
 */
export function follow(path, onEvent, onState = () => {}) {
  const controller = new AbortController();
  let delay = 500;
  const run = async () => {
    while (!controller.signal.aborted) {
      try {
        const response = await fetch(path, {
          headers: headers({ accept: "text/event-stream" }),
          signal: controller.signal,
        });
        if (!response.ok || !response.body) throw new Error(`${path}: ${response.status}`);
        onState("open");
        delay = 500;
        const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
        let buffer = "";
        for (;;) {
          const { value, done } = await reader.read();
          if (done) break;
          buffer += value;
          let end = buffer.indexOf("\n\n");
          while (end >= 0) {
            const frame = buffer.slice(0, end);
            buffer = buffer.slice(end + 2);
            end = buffer.indexOf("\n\n");
            let name = "message";
            const data = [];
            for (const line of frame.split("\n")) {
              if (line.startsWith("event: ")) name = line.slice(7);
              else if (line.startsWith("data: ")) data.push(line.slice(6));
            }
            if (data.length > 0) onEvent(name, JSON.parse(data.join("\n")));
          }
        }
      } catch {
        if (controller.signal.aborted) return;
      }
      onState("closed");
      await new Promise((resolve) => setTimeout(resolve, delay));
      delay = Math.min(delay * 2, 10_000);
    }
  };
  run();
  return () => controller.abort();
}
