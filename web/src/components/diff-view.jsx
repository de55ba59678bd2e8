import { asText, diffLines } from "../diff.js";

/** Before → after of one change, as a line diff. */
export function DiffView({ field, before, after }) {
  const lines = before === undefined ? diffLines("", after) : diffLines(before, after);
  return (
    <div class="diff">
      <div class="diff-field">{field}</div>
      <pre>
        {lines.map((line, index) => (
          <div key={index} class={`diff-${line.kind}`}>
            {line.kind === "added" ? "+ " : line.kind === "removed" ? "- " : "  "}
            {line.text}
          </div>
        ))}
      </pre>
    </div>
  );
}

export function Json({ value }) {
  return <pre class="json">{asText(value)}</pre>;
}
