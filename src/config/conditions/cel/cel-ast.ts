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

/** Calls `visit` on every node of the AST, parents before their children. */
export function forEachNode(root: unknown, visit: (node: AstNode) => void): void {
  if (Array.isArray(root)) {
    for (const item of root) forEachNode(item, visit);
    return;
  }
  if (!isNode(root)) return;
  visit(root);
  forEachNode(root.args, visit);
}
