import { useMediaQuery } from '@mantine/hooks';
import { MEDIA } from '../theme';

export type Viewport = 'phone' | 'tablet' | 'desktop';

/** Phone below 576px, tablet 576–992px, desktop from 992px (SPEC §9). */
export function useViewport(): Viewport {
  const tabletUp = useMediaQuery(MEDIA.tabletUp, true, { getInitialValueInEffect: false });
  const desktopUp = useMediaQuery(MEDIA.desktopUp, true, { getInitialValueInEffect: false });
  if (desktopUp) return 'desktop';
  return tabletUp ? 'tablet' : 'phone';
}
