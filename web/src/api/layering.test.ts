/** The data layer imports no UI: nothing under api/ reaches shell/, session/ or pages/ (DESIGN.md, "Layers"). */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const here = import.meta.dirname;

describe('web/src/api', () => {
  it('imports nothing from shell/, session/ or pages/', () => {
    const offending: string[] = [];
    for (const file of readdirSync(here).filter((f) => /\.tsx?$/.test(f) && !/\.test\.tsx?$/.test(f))) {
      const source = readFileSync(join(here, file), 'utf8');
      for (const [, spec] of source.matchAll(/(?:import|export)[^'"]*?from\s+['"]([^'"]+)['"]/g)) {
        if (/^\.\.\/(shell|session|pages)(\/|$)/.test(spec)) offending.push(`${file} → ${spec}`);
      }
    }
    expect(offending).toEqual([]);
  });
});
