import { createTheme, type CSSVariablesResolver, type MantineColorsTuple } from '@mantine/core';
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
  breakpoints: {
    xs: em(TABLET_MIN_WIDTH_PX),
    sm: em(768),
    md: em(DESKTOP_MIN_WIDTH_PX),
    lg: em(1200),
    xl: em(1408),
  },
});

/**
 * Text colours that pass WCAG AA (4.5:1) on white and on the grey page background: secondary
 * ("dimmed") text one shade darker than Mantine's default (gray-7, 7.8:1 on grey), and the error
 * colour of field messages and required marks red-9 (5.2:1 on grey) instead of red-6 (3.28:1).
 */
export const cssVariablesResolver: CSSVariablesResolver = () => ({
  variables: {},
  light: { '--mantine-color-dimmed': 'var(--mantine-color-gray-7)', '--mantine-color-error': 'var(--mantine-color-red-9)' },
  dark: {},
});
