/**
 * The theme's CSS variables as a stylesheet, written at build time (web/vite.config.ts serves it as
 * `virtual:theme-variables.css`, imported by main.tsx). MantineProvider would otherwise compute
 * them on every page load before the first paint (Mantine's resolver and ours over every palette:
 * about 90 ms on a throttled phone, issue 14). The same variables it would write: Mantine's
 * defaults for this theme merged with `cssVariablesResolver`, less those equal to Mantine's own
 * defaults (which main.tsx imports as default-css-variables.css).
 */
import { convertCssVariables, deepMerge, DEFAULT_THEME, defaultCssVariablesResolver, mergeMantineTheme, type ConvertCSSVariablesInput } from '@mantine/core';
import { cssVariablesResolver, theme } from './theme';

type Scope = keyof ConvertCSSVariablesInput;

export function themeVariablesCss(): string {
  const merged = mergeMantineTheme(DEFAULT_THEME, theme);
  const variables = deepMerge(defaultCssVariablesResolver(merged), cssVariablesResolver(merged)) as ConvertCSSVariablesInput;
  const defaults = defaultCssVariablesResolver(DEFAULT_THEME) as ConvertCSSVariablesInput;
  const changed = (scope: Scope) =>
    Object.fromEntries(Object.entries(variables[scope]).filter(([name, value]) => (defaults[scope] as Record<string, string>)[name] !== value));
  return `${convertCssVariables({ variables: changed('variables'), light: changed('light'), dark: changed('dark') }, ':root')}\n`;
}
