/** A node of the CEL engine's parsed expression, as hookwise reads it (its positions in the text). */
export interface AstNode {
  op: string;
  args: unknown;
  pos?: number;
  start?: number;
  end?: number;
}

export function isNode(value: unknown): value is AstNode {
  return typeof value === "object" && value !== null && typeof (value as AstNode).op === "string";
}
