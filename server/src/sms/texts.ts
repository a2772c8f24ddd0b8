/**
 * What each text message says, in the patient's language, from the message catalogues (`sms.`
 * beside the emails' words). A text never carries a result, a name or a date of birth: only that
 * something is ready and the same link the email carries.
 */
import { TextMessageKind, type Language } from '@platform/domain';
import { sharedText } from '../email/messages';
import { inLanguage } from '../email/templates';

export interface TextContent {
  kind: TextMessageKind;
  body: string;
}

/** The result is ready: the result page's link (it asks for the date of birth first). */
export function resultReadyText(args: { language: Language; brand: string; url: string; corrected: boolean }): TextContent {
  const t = sharedText(args.language);
  return {
    kind: TextMessageKind.ResultReady,
    body: t(args.corrected ? 'sms.resultReadyCorrected' : 'sms.resultReady', { brand: args.brand, url: inLanguage(args.url, args.language) }),
  };
}

/** The kit left for the patient's home: the carrier's tracking link when there is one. */
export function kitShippedText(args: { language: Language; brand: string; trackingUrl: string | null }): TextContent {
  const t = sharedText(args.language);
  return {
    kind: TextMessageKind.KitShipped,
    body: args.trackingUrl ? t('sms.kitShipped', { brand: args.brand, url: args.trackingUrl }) : t('sms.kitShippedNoLink', { brand: args.brand }),
  };
}

/** The kit reached the patient. */
export function kitDeliveredText(args: { language: Language; brand: string }): TextContent {
  return { kind: TextMessageKind.KitDelivered, body: sharedText(args.language)('sms.kitDelivered', { brand: args.brand }) };
}
