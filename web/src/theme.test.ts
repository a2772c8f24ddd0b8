import { describe, expect, it } from 'vitest';
import { DEFAULT_THEME, luminance, mergeMantineTheme } from '@mantine/core';
import { cssVariablesResolver, theme } from './theme';

const merged = mergeMantineTheme(DEFAULT_THEME, theme);
const light = cssVariablesResolver(merged).light as Record<string, string>;
const ratio = (a: string, b: string) => {
  const [x, y] = [luminance(a), luminance(b)].sort((p, q) => q - p);
  return (x + 0.05) / (y + 0.05);
};

describe('theme colours (WCAG AA, 4.5:1)', () => {
  it('every palette: coloured text, outline and filled variants on white, light variants on their tint', () => {
    const failures: string[] = [];
    for (const [name, shades] of Object.entries(merged.colors)) {
      const checks: [string, string, string][] = [
        ['text on white', light[`--mantine-color-${name}-text`], '#ffffff'],
        ['text on the page grey', light[`--mantine-color-${name}-text`], '#f8f9fa'],
        ['outline on white', light[`--mantine-color-${name}-outline`], '#ffffff'],
        ['outline on its hover tint', light[`--mantine-color-${name}-outline`], shades[1]],
        ['white on filled', '#ffffff', light[`--mantine-color-${name}-filled`]],
        ['white on filled hover', '#ffffff', light[`--mantine-color-${name}-filled-hover`]],
        ['light variant', light[`--mantine-color-${name}-light-color`], shades[1]],
      ];
      for (const [what, fg, bg] of checks) if (ratio(fg, bg) < 4.5) failures.push(`${name} ${what}: ${ratio(fg, bg).toFixed(2)}`);
    }
    expect(failures).toEqual([]);
  });

  it('field errors and dimmed text', () => {
    expect(light['--mantine-color-error']).toBe('var(--mantine-color-red-9)');
    expect(ratio(merged.colors.red[9], '#f8f9fa')).toBeGreaterThan(4.5);
    expect(ratio(merged.colors.gray[7], '#f8f9fa')).toBeGreaterThan(4.5);
  });

  it('keeps the brand teal as it is (already AA)', () => {
    expect(light['--mantine-color-clinical-filled']).toBe(merged.colors.clinical[7]);
    expect(light['--mantine-color-clinical-text']).toBe(merged.colors.clinical[7]);
  });
});
