import eapPartnerLogo from '../assets/eap-partner-logo.svg';
import miraKindLogo from '../assets/mirakind-logo.svg';

/** The two partner logos, bundled as images. */
export const PARTNER_LOGOS = {
  miraKind: { src: miraKindLogo, alt: 'MiraKind, non-profit partner' },
  eapPartner: { src: eapPartnerLogo, alt: 'Early Access Program partner' },
} as const;

export type PartnerLogoName = keyof typeof PARTNER_LOGOS;

export function PartnerLogo({ name, height = 40 }: { name: PartnerLogoName; height?: number }) {
  const logo = PARTNER_LOGOS[name];
  return <img src={logo.src} alt={logo.alt} height={height} width={(height * 200) / 56} style={{ display: 'block' }} />;
}
