/**
 * What the parked runs hold, by kind of object: reads the two heap snapshots
 * bench/scale/park-heap.ts writes (`--snapshot=DIR`), keeps the objects of the parked one
 * that the first did not have (snapshot ids are stable within a process), and prints them
 * grouped by kind, with their count and bytes per parked run, largest first. An object
 * reads as its constructor and its first properties, a closure as its function, a context
 * as its variables, anything else (arrays, promise reactions…) as what holds it.
 *
 *   npx tsx bench/scale/heap-diff.ts DIR [--runs=1000] [--top=60]
 */
import { readFileSync } from "node:fs";

interface Snapshot {
  snapshot: {
    meta: {
      node_fields: string[];
      node_types: [string[], ...unknown[]];
      edge_fields: string[];
      edge_types: [string[], ...unknown[]];
    };
  };
  nodes: number[];
  edges: number[];
  locations?: number[];
  strings: string[];
}

const [dir] = process.argv.slice(2).filter((arg) => !arg.startsWith("--"));
if (!dir) throw new Error("usage: heap-diff.ts DIR [--runs=1000] [--top=60]");
const option = (name: string, fallback: number) =>
  Number(process.argv.find((arg) => arg.startsWith(`--${name}=`))?.split("=")[1] ?? fallback);
const runs = option("runs", 1000);
const top = option("top", 60);

function read(file: string): Snapshot {
  return JSON.parse(readFileSync(`${dir}/${file}`, "utf8")) as Snapshot;
}

const NODE = { type: 0, name: 1, id: 2, size: 3, edges: 4 };
const EDGE = { type: 0, name: 1, to: 2 };

function ids(snapshot: Snapshot): Set<number> {
  const width = snapshot.snapshot.meta.node_fields.length;
  const seen = new Set<number>();
  for (let at = 0; at < snapshot.nodes.length; at += width) seen.add(snapshot.nodes[at + NODE.id]!);
  return seen;
}

const before = ids(read("before.heapsnapshot"));
const heap = read("parked.heapsnapshot");
const { nodes, edges, strings } = heap;
const width = heap.snapshot.meta.node_fields.length;
const edgeWidth = heap.snapshot.meta.edge_fields.length;
const nodeTypes = heap.snapshot.meta.node_types[0];
const edgeTypes = heap.snapshot.meta.edge_types[0];
const count = nodes.length / width;

// Each node's first edge, and each node's first retainer (preferring a new one).
const firstEdge = new Uint32Array(count + 1);
for (let node = 0, edge = 0; node < count; node++) {
  firstEdge[node] = edge;
  edge += nodes[node * width + NODE.edges]! * edgeWidth;
}
firstEdge[count] = edges.length;
const isNew = (node: number) => !before.has(nodes[node * width + NODE.id]!);
const retainer = new Int32Array(count).fill(-1);
const retainerEdge = new Int32Array(count).fill(-1);
for (let node = 0; node < count; node++)
  for (let edge = firstEdge[node]!; edge < firstEdge[node + 1]!; edge += edgeWidth) {
    const type = edgeTypes[edges[edge + EDGE.type]!];
    if (type === "weak" || type === "shortcut") continue;
    const to = edges[edge + EDGE.to]! / width;
    if (retainer[to] === -1 || (!isNew(retainer[to]!) && isNew(node))) {
      retainer[to] = node;
      retainerEdge[to] = edge;
    }
  }

// Where each closure's function is (script id, line, column), and the scripts' names.
const located = new Map<number, string>();
const locations = heap.locations ?? [];
for (let at = 0; at < locations.length; at += 4)
  located.set(
    locations[at]! / width,
    `${locations[at + 1]}:${locations[at + 2]! + 1}:${locations[at + 3]! + 1}`,
  );
function follow(node: number, name: string): number {
  for (let edge = firstEdge[node]!; edge < firstEdge[node + 1]!; edge += edgeWidth) {
    const type = edgeTypes[edges[edge + EDGE.type]!];
    if (type !== "element" && type !== "hidden" && strings[edges[edge + EDGE.name]!] === name)
      return edges[edge + EDGE.to]! / width;
  }
  return -1;
}
function scriptOf(closure: number): string {
  const shared = follow(closure, "shared");
  const script = shared < 0 ? -1 : follow(shared, "script");
  const name = script < 0 ? -1 : follow(script, "name");
  return name < 0 ? "?" : (nameOf(name).split("/").pop() ?? "?");
}

const typeOf = (node: number) => nodeTypes[nodes[node * width + NODE.type]!]!;
const nameOf = (node: number) => strings[nodes[node * width + NODE.name]!]!;
function edgeName(edge: number): string {
  const type = edgeTypes[edges[edge + EDGE.type]!];
  const name = edges[edge + EDGE.name]!;
  return type === "element" || type === "hidden" ? `[${name}]` : strings[name]!;
}
function namedEdges(node: number, types: string[], limit: number): string[] {
  const names: string[] = [];
  for (let edge = firstEdge[node]!; edge < firstEdge[node + 1]! && names.length < limit; edge += edgeWidth)
    if (types.includes(edgeTypes[edges[edge + EDGE.type]!]!)) names.push(edgeName(edge));
  return names;
}
function short(node: number): string {
  const type = typeOf(node);
  const name = nameOf(node);
  if (type === "object" && name === "Object") return `{${namedEdges(node, ["property"], 4).join(",")}}`;
  if (type === "object" || type === "closure") return name || type;
  return `(${type} ${name.slice(0, 30)})`;
}
function kind(node: number): string {
  const type = typeOf(node);
  const name = nameOf(node);
  if (type === "object" && name === "Generator") {
    const fn = follow(node, "function");
    return `Generator of ${fn < 0 ? "?" : nameOf(fn) || "(anonymous)"}`;
  }
  if (type === "array" && edgeName(retainerEdge[node]!) === "parameters_and_registers") {
    const fn = follow(retainer[node]!, "function");
    return `frame of ${fn < 0 ? "?" : nameOf(fn) || "(anonymous)"}`;
  }
  if (type === "object" && name !== "system / Context") {
    const props = namedEdges(node, ["property"], 6);
    const holder = retainer[node]!;
    const via = props.length > 1 || holder < 0 ? "" : ` in ${short(holder)}.${edgeName(retainerEdge[node]!)}`;
    return `${name} {${props.join(",")}}${via}`;
  }
  if (type === "closure")
    return `closure ${name || "(anonymous)"} ${scriptOf(node)}:${(located.get(node) ?? "?").replace(/^\d+:/, "")}`;
  if (name === "system / Context") {
    const holder = retainer[node]!;
    const vars = namedEdges(node, ["context"], 6).join(",");
    return `context [${vars}] of ${holder < 0 ? "?" : short(holder)}.${holder < 0 ? "" : edgeName(retainerEdge[node]!)}`;
  }
  const holder = retainer[node]!;
  let via = holder < 0 ? "?" : `${short(holder)}.${edgeName(retainerEdge[node]!)}`;
  // A list's elements read as what holds the list.
  const owner = holder < 0 ? -1 : retainer[holder]!;
  if (owner >= 0 && via === "Array.elements") via = `${short(owner)}.${edgeName(retainerEdge[holder]!)}`;
  if (type === "string" || type === "concatenated string" || type === "number") return `${type} in ${via}`;
  return `${type} ${name.slice(0, 30)} in ${via}`;
}

const groups = new Map<string, { count: number; bytes: number }>();
let total = 0;
for (let node = 0; node < count; node++) {
  if (!isNew(node)) continue;
  const size = nodes[node * width + NODE.size]!;
  if (size === 0) continue;
  const key = kind(node);
  const group = groups.get(key) ?? { count: 0, bytes: 0 };
  group.count++;
  group.bytes += size;
  groups.set(key, group);
  total += size;
}
const rows = [...groups].sort((a, b) => b[1].bytes - a[1].bytes).slice(0, top);
console.log(`new objects: ${(total / runs).toFixed(0)} bytes per parked run (${runs} runs)`);
for (const [key, group] of rows)
  console.log(
    `${(group.bytes / runs).toFixed(0).padStart(6)} B ${(group.count / runs).toFixed(2).padStart(6)}×  ${key.slice(0, 150)}`,
  );
