import { createTheme, darken, luminance, type CSSVariablesResolver, type MantineColorsTuple } from '@mantine/core';
import { DESKTOP_MIN_WIDTH_PX, TABLET_MIN_WIDTH_PX } from '@platform/domain';

/** A deep clinical teal: calm, high-contrast on white (shade 7 on white passes WCAG AA). */
const clinicalTeal: MantineColorsTuple = [
  '#e6f7f6', '#cdeceb', '#9dd9d6', '#69c4c0', '#3fb2ad', '#24a6a1',
  '#118f8a', '#0b6e69', '#075c58', '#034a47',
];

const em = (px: number) => `${px / 16}em`;

/** Media queries of the spec's breakpoints: tablet 576–992px, desktop from 992px. */
export const MEDIA = {
  tabletUp: `(min-width: ${TABLET_MIN_WIDTH_PX}px)`,
  desktopUp: `(min-width: ${DESKTOP_MIN_WIDTH_PX}px)`,
} as const;

export const theme = createTheme({
  primaryColor: 'clinical',
  primaryShade: 7,
  colors: { clinical: clinicalTeal },
  defaultRadius: 'md',
  fontFamily:
    'system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, "Noto Sans", sans-serif',
  headings: { fontWeight: '650' },
  // xs is where tablets start, md where desktops start (SPEC §9).
  // Every close button is named (axe button-name); plain objects, so no component is imported here.
  components: {
    Modal: { defaultProps: { closeButtonProps: { 'aria-label': 'Close' } } },
    Drawer: { defaultProps: { closeButtonProps: { 'aria-label': 'Close' } } },
    Alert: { defaultProps: { closeButtonLabel: 'Close' } },
    Notification: { defaultProps: { closeButtonProps: { 'aria-label': 'Close' } } },
    // A badge says a status in the spec's words ("Pending Shipment"): never cut to "Pending Shipm…"
    // or shouted in capitals; in a narrow cell it wraps onto a second line instead.
    Badge: {
      styles: {
        root: { height: 'auto', minHeight: 'var(--badge-height)', maxWidth: '100%', textTransform: 'none' },
        label: { whiteSpace: 'normal', overflow: 'visible', textOverflow: 'clip', lineHeight: 1.25, paddingBlock: 2, overflowWrap: 'normal' },
      },
    },
  },
  breakpoints: {
    xs: em(TABLET_MIN_WIDTH_PX),
    sm: em(768),
    md: em(DESKTOP_MIN_WIDTH_PX),
    lg: em(1200),
    xl: em(1408),
  },
});

/** WCAG AA for text (4.5:1), with a little room for rounding. */
const AA_CONTRAST = 4.6;
const WHITE = '#ffffff';
/** The page background (gray-0), where most text sits when not on a white card. */
const PAGE_GREY = '#f8f9fa';

/**
 * Luminance by colour, computed once: the resolver below asks for the same few backgrounds
 * hundreds of times, and it runs before the first paint (on a throttled phone, about 70 ms
 * uncached).
 */
const luminanceOf = new Map<string, number>();
function cachedLuminance(color: string): number {
  let value = luminanceOf.get(color);
  if (value === undefined) {
    value = luminance(color);
    luminanceOf.set(color, value);
  }
  return value;
}

function contrast(a: string, b: string): number {
  const [light, dark] = [cachedLuminance(a), cachedLuminance(b)].sort((x, y) => y - x);
  return (light + 0.05) / (dark + 0.05);
}

/** The colour, darkened in 5% steps until it reads at AA on every background given. */
export function readableOn(color: string, backgrounds: readonly string[]): string {
  for (let amount = 0; amount < 1; amount += 0.05) {
    const candidate = amount === 0 ? color : darken(color, amount);
    if (backgrounds.every((bg) => contrast(candidate, bg) >= AA_CONTRAST)) return candidate;
  }
  return '#000000';
}

/**
 * Every colour the theme writes text with passes WCAG AA (4.5:1): Mantine's defaults do not for
 * the light palettes (green text is 2.75:1 on white, a light green badge 3.81:1, the error red
 * 3.28:1). In the light scheme, for each palette: coloured text (`c="green"`), outline variants,
 * filled variants (white text on them) and light variants (shade 9 on shade 1) are darkened just
 * enough; secondary ("dimmed") text is gray-7 (7.8:1 on grey); the error colour of field messages
 * and required marks is red-9 (5.2:1 on grey).
 */
export const cssVariablesResolver: CSSVariablesResolver = (t) => {
  // Once per theme: MantineProvider asks again on every render of its variables.
  let resolved = resolvedByTheme.get(t);
  if (!resolved) {
    resolved = readableVariables(t);
    resolvedByTheme.set(t, resolved);
  }
  return resolved;
};

type ResolvedVariables = ReturnType<CSSVariablesResolver>;
const resolvedByTheme = new WeakMap<Parameters<CSSVariablesResolver>[0], ResolvedVariables>();

const readableVariables = (t: Parameters<CSSVariablesResolver>[0]): ResolvedVariables => ({
  variables: {},
  light: {
    '--mantine-color-dimmed': 'var(--mantine-color-gray-7)',
    '--mantine-color-error': 'var(--mantine-color-red-9)',
    ...Object.fromEntries(
      Object.entries(t.colors).flatMap(([name, shades]) => {
        const shade = typeof t.primaryShade === 'number' ? t.primaryShade : t.primaryShade.light;
        const filled = readableOn(shades[shade], [WHITE]);
        return [
          [`--mantine-color-${name}-text`, readableOn(shades[shade], [WHITE, PAGE_GREY, shades[0]])],
          [`--mantine-color-${name}-filled`, filled],
          [`--mantine-color-${name}-filled-hover`, darken(filled, 0.1)],
          // On white, the grey page and its own hover tint (5% of it, lighter than shade 1).
          [`--mantine-color-${name}-outline`, readableOn(shades[shade], [WHITE, PAGE_GREY, shades[1]])],
          [`--mantine-color-${name}-light-color`, readableOn(shades[9], [shades[1], shades[2]])],
        ];
      }),
    ),
  },
  dark: {},
});
