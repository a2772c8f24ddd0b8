/**
 * The bench's report: one line per target of issue 13, in exactly this form
 *   target <name>: <value> <unit> | limit <value> <unit> | ratio <value> | goal <text> | MET or SHORT
 * and the same targets as JSON (bench-results.json).
 */

/** The targets' names, in the order the issue lists them. */
export const TARGET_NAMES = [
  'list-vs-bare-stack',
  'import-vs-floor', 'pdf-vs-pdfkit', 'job-start-p99-ms', 'jobs-vs-commit-floor', 'emails-vs-bare',
  'spa-signin-kib', 'lcp-ms', 'fhir-search-rps', 'webhooks-10k-s', 'hl7-oru-per-s', 'tat-dashboard-ms',
] as const;
export type TargetName = (typeof TARGET_NAMES)[number];

export interface Target {
  name: TargetName;
  value: number;
  unit: string;
  /** What the same run measured as the limit (bare Express, raw COPY, bare pdfkit, bare BullMQ), or the fixed bound. */
  limit: number;
  limitUnit: string;
  /** value / limit. */
  ratio: number;
  goal: string;
  met: boolean;
}

const round = (n: number) => {
  if (!Number.isFinite(n)) return String(n);
  const abs = Math.abs(n);
  return abs >= 100 ? n.toFixed(0) : abs >= 10 ? n.toFixed(1) : abs >= 1 ? n.toFixed(2) : n.toFixed(3);
};

export function targetLine(t: Target): string {
  return `target ${t.name}: ${round(t.value)} ${t.unit} | limit ${round(t.limit)} ${t.limitUnit} | ratio ${round(t.ratio)} | goal ${t.goal} | ${t.met ? 'MET' : 'SHORT'}`;
}

/** The line's shape, for a check of the output (test/unit). */
export const TARGET_LINE = /^target ([a-z0-9-]+): (-?[\d.]+|NaN|Infinity) (\S+) \| limit (-?[\d.]+|NaN|Infinity) (\S+) \| ratio (-?[\d.]+|NaN|Infinity) \| goal (.+) \| (MET|SHORT)$/;
