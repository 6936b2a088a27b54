// Reads Prometheus's text exposition format (what GET /api/metrics answers) into samples, for tests.

export type Sample = { name: string; labels: Record<string, string>; value: number };

const SAMPLE_PATTERN = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})?\s+(\S+)(?:\s+\d+)?$/;
const LABEL_PATTERN = /([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g;

export function parsePrometheusText(text: string): Sample[] {
  const samples: Sample[] = [];
  for (const line of text.split("\n")) {
    if (!line.trim() || line.startsWith("#")) continue;
    const match = SAMPLE_PATTERN.exec(line);
    if (!match) throw new Error(`not a Prometheus sample line: ${line}`);
    const [, name = "", labelText = "", value = ""] = match;
    const labels: Record<string, string> = {};
    for (const [, key = "", raw = ""] of labelText.matchAll(LABEL_PATTERN)) {
      labels[key] = raw.replace(/\\n/g, "\n").replace(/\\(.)/g, "$1");
    }
    samples.push({ name, labels, value: value === "NaN" ? Number.NaN : Number(value) });
  }
  return samples;
}

/** The value of the sample of `name` whose labels include `labels`; 0 when there is none (a counter not yet counted). */
export function findSampleValue(samples: Sample[], name: string, labels: Record<string, string> = {}): number {
  const sample = samples.find(
    (candidate) => candidate.name === name && Object.entries(labels).every(([key, value]) => candidate.labels[key] === value),
  );
  return sample?.value ?? 0;
}

/** The `# TYPE` of each metric family in the text. */
export function readMetricTypes(text: string): Map<string, string> {
  return new Map([...text.matchAll(/^# TYPE (\S+) (\S+)$/gm)].map((match) => [match[1] ?? "", match[2] ?? ""]));
}
