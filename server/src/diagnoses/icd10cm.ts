/**
 * The ICD-10-CM code list: CMS's code descriptions file (public domain), shipped as
 * server/data/icd10cm-codes-<year>.txt.gz exactly as CMS publishes it (one code a line, the code
 * padded to 8 characters, then its description; scripts/icd10cm-data.ts makes the file from a new
 * edition). Read once per process, on first use (about 75,000 codes, ~100 ms); searched in memory.
 * Both the API (search, an order's validation) and nothing else need it: the requisition form
 * prints the codes and descriptions the order stored.
 */
import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import {
  type DiagnosisCodeView, type DiagnosisSearchAnswer, type DiagnosisSearchQuery, formatDiagnosisCode, isDiagnosisCodeShape, normalizeDiagnosisCode,
} from '@platform/domain';

/** The edition shipped: CMS's FY2026 code descriptions (effective October 1, 2025). */
export const ICD10CM_EDITION = 'ICD-10-CM FY2026';
const DATA_FILE = new URL('../../data/icd10cm-codes-2026.txt.gz', import.meta.url);

interface CodeEntry {
  code: string;
  description: string;
  /** The description's words, lower case, for the word search. */
  words: string;
}

let loaded: { byCode: Map<string, CodeEntry>; entries: CodeEntry[] } | null = null;

/** Parses CMS's code descriptions text: "A000    Cholera due to …" (code, spaces, description). */
export function parseCodeDescriptions(text: string): { code: string; description: string }[] {
  const rows: { code: string; description: string }[] = [];
  for (const line of text.split('\n')) {
    const trimmed = line.trimEnd();
    if (!trimmed) continue;
    const match = /^(\S+)\s+(.+)$/.exec(trimmed);
    if (!match || !isDiagnosisCodeShape(match[1])) throw new Error(`not a line of CMS's ICD-10-CM code descriptions: ${trimmed.slice(0, 40)}`);
    rows.push({ code: match[1], description: match[2].trim() });
  }
  return rows;
}

function codeList() {
  if (!loaded) {
    const rows = parseCodeDescriptions(gunzipSync(readFileSync(DATA_FILE)).toString('utf8'));
    const entries = rows.map((r) => ({ ...r, words: r.description.toLowerCase() }));
    loaded = { byCode: new Map(entries.map((e) => [e.code, e])), entries };
  }
  return loaded;
}

const view = (e: CodeEntry): DiagnosisCodeView => ({ code: e.code, display: formatDiagnosisCode(e.code), description: e.description });

/** A code of the list (as typed: any case, with or without its dot), or null. */
export function findDiagnosisCode(value: string): DiagnosisCodeView | null {
  const entry = codeList().byCode.get(normalizeDiagnosisCode(value));
  return entry ? view(entry) : null;
}

/** The codes of the list among those given, in the order given, and those not in it. */
export function lookUpDiagnosisCodes(codes: readonly string[]): { found: DiagnosisCodeView[]; unknown: string[] } {
  const found: DiagnosisCodeView[] = [];
  const unknown: string[] = [];
  for (const c of codes) {
    const hit = findDiagnosisCode(c);
    if (hit) found.push(hit);
    else unknown.push(c);
  }
  return { found, unknown };
}

/**
 * Codes matching q: when q reads as the start of a code ("C6", "z85.4"), the codes that start with
 * it, in code order; otherwise (or as well, when nothing starts with it) the codes whose description
 * holds every word of q (each as the start of a word: "prost neo" finds "Malignant neoplasm of
 * prostate"), shortest description first so the general code comes before its many specific ones.
 */
export function searchDiagnosisCodes(query: DiagnosisSearchQuery): DiagnosisSearchAnswer {
  const { entries } = codeList();
  const asCode = normalizeDiagnosisCode(query.q);
  let matches: CodeEntry[] = [];
  if (/^[A-Z][0-9A-Z]{0,6}$/.test(asCode) && /[0-9]/.test(asCode)) {
    matches = entries.filter((e) => e.code.startsWith(asCode));
  }
  if (!matches.length) {
    const words = query.q.toLowerCase().split(/[^a-z0-9]+/).filter(Boolean);
    const patterns = words.map((w) => new RegExp(`(^|[^a-z0-9])${w}`));
    matches = words.length ? entries.filter((e) => patterns.every((p) => p.test(e.words))) : [];
    matches.sort((a, b) => a.description.length - b.description.length || a.code.localeCompare(b.code));
  }
  const start = (query.page - 1) * query.pageSize;
  return { rows: matches.slice(start, start + query.pageSize).map(view), total: matches.length, edition: ICD10CM_EDITION };
}
