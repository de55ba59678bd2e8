/**
 * A small Prometheus registry in the text exposition format (version 0.0.4): counters,
 * histograms and gauges with labels, each family with its `# HELP` and `# TYPE`. Written
 * here because the format is a page of rules and the server needs nothing else of a
 * metrics library.
 */

type Labels = Readonly<Record<string, string>>;

function escapeLabel(value: string): string {
  return value.replace(/\\/g, "\\\\").replace(/\n/g, "\\n").replace(/"/g, '\\"');
}

function escapeHelp(text: string): string {
  return text.replace(/\\/g, "\\\\").replace(/\n/g, "\\n");
}

function labelText(labels: Labels, extra?: [string, string]): string {
  const pairs = Object.entries(labels);
  if (extra) pairs.push(extra);
  if (pairs.length === 0) return "";
  return `{${pairs.map(([name, value]) => `${name}="${escapeLabel(value)}"`).join(",")}}`;
}

function formatNumber(value: number): string {
  if (value === Number.POSITIVE_INFINITY) return "+Inf";
  if (value === Number.NEGATIVE_INFINITY) return "-Inf";
  return Number.isNaN(value) ? "NaN" : String(value);
}

/** Series by their label values, in a stable key. */
class Series<T> {
  readonly #byKey = new Map<string, { labels: Labels; value: T }>();
  readonly #labelNames: readonly string[];

  constructor(labelNames: readonly string[]) {
    this.#labelNames = labelNames;
  }

  get(labels: Labels, make: () => T): T {
    const names = this.#labelNames;
    if (Object.keys(labels).length !== names.length || names.some((name) => !(name in labels))) {
      throw new TypeError(`labels must be exactly: ${names.join(", ")}`);
    }
    const ordered: Record<string, string> = {};
    for (const name of names) ordered[name] = labels[name]!;
    const key = JSON.stringify(names.map((name) => ordered[name]));
    let entry = this.#byKey.get(key);
    if (!entry) {
      entry = { labels: ordered, value: make() };
      this.#byKey.set(key, entry);
    }
    return entry.value;
  }

  entries(): { labels: Labels; value: T }[] {
    return [...this.#byKey.values()];
  }
}

export interface Metric {
  render(): string;
}

export class Counter implements Metric {
  readonly #series: Series<{ value: number }>;

  constructor(
    readonly name: string,
    readonly help: string,
    labelNames: readonly string[] = [],
  ) {
    this.#series = new Series(labelNames);
  }

  inc(labels: Labels = {}, by = 1): void {
    if (!(by >= 0)) throw new RangeError(`counter ${this.name} can only go up`);
    this.#series.get(labels, () => ({ value: 0 })).value += by;
  }

  value(labels: Labels = {}): number {
    return this.#series.get(labels, () => ({ value: 0 })).value;
  }

  render(): string {
    const lines = [`# HELP ${this.name} ${escapeHelp(this.help)}`, `# TYPE ${this.name} counter`];
    for (const { labels, value } of this.#series.entries()) {
      lines.push(`${this.name}${labelText(labels)} ${formatNumber(value.value)}`);
    }
    return lines.join("\n");
  }
}

export class Histogram implements Metric {
  readonly #series: Series<{ buckets: number[]; sum: number; count: number }>;
  readonly #bounds: readonly number[];

  constructor(
    readonly name: string,
    readonly help: string,
    bounds: readonly number[],
    labelNames: readonly string[] = [],
  ) {
    this.#bounds = [...bounds].sort((a, b) => a - b);
    this.#series = new Series(labelNames);
  }

  observe(labels: Labels, value: number): void {
    const series = this.#series.get(labels, () => ({
      buckets: this.#bounds.map(() => 0),
      sum: 0,
      count: 0,
    }));
    for (let index = 0; index < this.#bounds.length; index++) {
      if (value <= this.#bounds[index]!) series.buckets[index]!++;
    }
    series.sum += value;
    series.count++;
  }

  render(): string {
    const lines = [`# HELP ${this.name} ${escapeHelp(this.help)}`, `# TYPE ${this.name} histogram`];
    for (const { labels, value } of this.#series.entries()) {
      this.#bounds.forEach((bound, index) => {
        lines.push(
          `${this.name}_bucket${labelText(labels, ["le", formatNumber(bound)])} ${value.buckets[index]}`,
        );
      });
      lines.push(`${this.name}_bucket${labelText(labels, ["le", "+Inf"])} ${value.count}`);
      lines.push(`${this.name}_sum${labelText(labels)} ${formatNumber(value.sum)}`);
      lines.push(`${this.name}_count${labelText(labels)} ${value.count}`);
    }
    return lines.join("\n");
  }
}

/** A gauge: a value that goes up and down (set before a scrape when it is computed). */
export class Gauge implements Metric {
  #value = 0;

  constructor(
    readonly name: string,
    readonly help: string,
  ) {}

  set(value: number): void {
    this.#value = value;
  }

  render(): string {
    return [
      `# HELP ${this.name} ${escapeHelp(this.help)}`,
      `# TYPE ${this.name} gauge`,
      `${this.name} ${formatNumber(this.#value)}`,
    ].join("\n");
  }
}

/** The exposition of all metrics: families separated, ending with a newline. */
export function renderMetrics(metrics: readonly Metric[]): string {
  return `${metrics.map((metric) => metric.render()).join("\n")}\n`;
}

export const PROMETHEUS_CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8";
