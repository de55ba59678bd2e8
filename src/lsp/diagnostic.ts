/**
 * A diagnostic as language servers publish it (the LSP `Diagnostic`, the fields hookwise
 * reads), declared here so hookwise's public types need no LSP package installed.
 */
export interface Diagnostic {
  range: { start: { line: number; character: number }; end: { line: number; character: number } };
  /** 1 error, 2 warning, 3 information, 4 hint. */
  severity?: 1 | 2 | 3 | 4;
  code?: number | string;
  source?: string;
  /** Text, or (LSP 3.18) markup with its kind. */
  message: string | { kind: string; value: string };
}
