/**
 * Which `{{…}}` values are inputs: anything the model, a tool or a user can choose
 * (`{{tool.…}}`, `{{run.input}}`, `{{error.…}}`, `{{session.id}}` …). `{{workspace}}`,
 * `{{agent.…}}` and `{{request.…}}` are the config's own values.
 */
export function hasInputTemplate(word: string): boolean {
  for (const match of word.matchAll(/\{\{\s*([^{}]+?)\s*\}\}/g)) {
    const root = match[1]!.split(".")[0];
    if (root !== "workspace" && root !== "agent" && root !== "request") return true;
  }
  return false;
}
