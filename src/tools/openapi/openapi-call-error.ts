import { HookwiseError } from "../../errors/hookwise-error.js";

/**
 * A call of an OpenAPI tool failed; the loop turns it into a tool error the model reads.
 * `status`: the server answered 4xx/5xx (`status` and the start of `body` are kept);
 * `timeout`; `too_large` (over `max_response_bytes`); `redirect` (to another host, or too
 * many); `network`; `argument` (a value that cannot be sent, such as a path segment `..`).
 * The message and `body` never hold a credential: they are redacted before this is built.
 */
export class OpenApiCallError extends HookwiseError {
  override readonly name = "OpenApiCallError";
  readonly reason: "status" | "timeout" | "too_large" | "redirect" | "network" | "argument";
  readonly status: number | undefined;
  readonly body: string | undefined;

  constructor(options: {
    reason: OpenApiCallError["reason"];
    message: string;
    status?: number;
    body?: string;
  }) {
    super(options.message);
    this.reason = options.reason;
    this.status = options.status;
    this.body = options.body;
  }

  static override isInstance(error: unknown): error is OpenApiCallError {
    return HookwiseError.isInstance(error) && error.name === "OpenApiCallError";
  }
}
