/**
 * Makes the ICD-10-CM data file the API searches (docs/clinical-orders.md) from CMS's code
 * descriptions: `icd10cm-codes-<year>.txt` from CMS's "Code Descriptions in Tabular Order" zip
 * (public domain). Every line is checked with the parser the API uses (a code, then its
 * description); the file is written gzipped, unchanged, as server/data/icd10cm-codes-<year>.txt.gz;
 * the count and the SHA-256 of the text are printed, to note where it came from.
 *
 *   npx tsx scripts/icd10cm-data.ts path/to/icd10cm-codes-2027.txt
 */
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { parseCodeDescriptions } from '@platform/server';

const source = process.argv[2];
const year = /icd10cm[-_]codes[-_](\d{4})/i.exec(path.basename(source ?? ''))?.[1];
if (!source || !year) {
  console.error('usage: npx tsx scripts/icd10cm-data.ts path/to/icd10cm-codes-<year>.txt (CMS\'s code descriptions file)');
  process.exit(2);
}
const text = readFileSync(source);
const rows = parseCodeDescriptions(text.toString('utf8'));
const target = path.resolve(path.dirname(fileURLToPath(import.meta.url)), `../server/data/icd10cm-codes-${year}.txt.gz`);
writeFileSync(target, gzipSync(text, { level: 9 }));
console.log(`${rows.length} codes, SHA-256 ${createHash('sha256').update(text).digest('hex')}: wrote ${path.relative(process.cwd(), target)}`);
