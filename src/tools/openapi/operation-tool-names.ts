/**
 * The tool name of each operation: its `operationId` with every character outside
 * `[A-Za-z0-9_-]` made `_` (`invoices.create` → `invoices_create`), or, without one, the
 * method and the path (`GET /invoices/{id}/lines` → `get_invoices_id_lines`). Names that
 * still collide all take a short hash of their method and path, so a name never depends
 * on the order of the document.
 */
import { createHash } from "node:crypto";
import type { ApiOperation } from "./api-description.js";

function clean(text: string): string {
  return text.replace(/[^A-Za-z0-9_-]+/g, "_").replace(/^_+|_+$/g, "");
}

export function operationToolName(operation: Pick<ApiOperation, "operationId" | "method" | "path">): string {
  const fromId = operation.operationId === undefined ? "" : clean(operation.operationId);
  if (fromId) return fromId;
  const path = clean(operation.path.replace(/[{}]/g, ""));
  return `${operation.method.toLowerCase()}_${path || "root"}`;
}

export function operationToolNames(operations: readonly ApiOperation[]): string[] {
  const names = operations.map(operationToolName);
  const counts = new Map<string, number>();
  for (const name of names) counts.set(name, (counts.get(name) ?? 0) + 1);
  return names.map((name, index) => {
    if (counts.get(name) === 1) return name;
    const operation = operations[index]!;
    const hash = createHash("sha256")
      .update(`${operation.method} ${operation.path}`)
      .digest("hex")
      .slice(0, 6);
    return `${name}_${hash}`;
  });
}
