/**
 * An API error: a status, a stable machine-readable `code`, a message that says what to do,
 * and optional fields (the pending approvals of a waiting session…). Every error answer has
 * the body `{ error: { code, message, …fields } }`.
 */
export class HttpError extends Error {
  override readonly name = "HttpError";
  readonly status: number;
  readonly code: string;
  readonly fields: Record<string, unknown>;

  constructor(status: number, code: string, message: string, fields: Record<string, unknown> = {}) {
    super(message);
    this.status = status;
    this.code = code;
    this.fields = fields;
  }

  body(): { error: Record<string, unknown> } {
    return { error: { code: this.code, message: this.message, ...this.fields } };
  }
}
