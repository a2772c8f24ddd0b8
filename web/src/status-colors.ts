/**
 * The one map of status colours (samples, shipments, follow-ups, patient orders' payments and HL7 messages). Every colour is dark enough for white
 * text on a filled badge (WCAG AA, ≥ 4.5:1), and a light badge of it carries dark text: readable
 * either way. The words are always shown too, never colour alone.
 */
import { FollowUpStatus, Hl7MessageStatus, PaymentStatus, SampleStatus, ShipmentStatus } from '@platform/domain';

/**
 * Colours dark enough for white text on a filled badge or button (WCAG AA, 4.5:1). Palette names,
 * not shades: the theme makes each palette's text, filled, light, outline and subtle forms AA
 * (theme.ts), while a shade such as 'red.9' is clamped to shade 6 by Mantine's subtle and light
 * variants (3.28:1).
 */
export const AA_COLORS = { green: '#1e7b34', orange: '#a3470f', red: 'red', gray: 'gray', blue: 'blue' } as const;

/** A dark amber: white on it reads at 7:1 (Mantine's yellow would not). */
const AA_AMBER = '#7a5200';

const STATUS_COLORS: Record<string, string> = {
  [SampleStatus.OrderPlaced]: AA_COLORS.gray,
  [SampleStatus.PendingShipment]: AA_AMBER,
  [SampleStatus.InTransit]: AA_COLORS.blue,
  [SampleStatus.InQueue]: 'indigo.9',
  [SampleStatus.InTesting]: 'violet.9',
  [SampleStatus.Resulted]: AA_COLORS.green,
  [SampleStatus.Completed]: 'teal.9',
  [SampleStatus.Rejected]: AA_COLORS.red,
  [SampleStatus.InStorage]: 'cyan.9',
  [SampleStatus.Discarded]: 'dark.6',
  [ShipmentStatus.NotReadyToShip]: AA_COLORS.gray,
  [ShipmentStatus.ReadyToShip]: AA_AMBER,
  [ShipmentStatus.Shipped]: AA_COLORS.blue,
  [ShipmentStatus.Cancelled]: AA_COLORS.red,
  [ShipmentStatus.OnHold]: AA_COLORS.orange,
  [FollowUpStatus.Scheduled]: AA_COLORS.gray,
  [FollowUpStatus.Sent]: AA_COLORS.blue,
  [FollowUpStatus.Reminded]: AA_COLORS.orange,
  [FollowUpStatus.Answered]: AA_COLORS.green,
  [FollowUpStatus.NotSendable]: AA_COLORS.red,
  [PaymentStatus.AwaitingPayment]: AA_COLORS.gray,
  [PaymentStatus.PaymentFailed]: AA_COLORS.red,
  [PaymentStatus.Paid]: AA_COLORS.green,
  [PaymentStatus.NotCharged]: 'teal.9',
  [PaymentStatus.RefundPending]: AA_COLORS.orange,
  [PaymentStatus.Refunded]: 'dark.6',
};

/** A sample's, shipment's, follow-up's or payment's status colour, for a badge. */
export const statusColor = (status: string) => STATUS_COLORS[status] ?? AA_COLORS.gray;

/** An HL7 message's status colour (an EHR's interface, public health's reports): every status has one. */
export const HL7_STATUS_COLORS: Readonly<Record<Hl7MessageStatus, string>> = {
  [Hl7MessageStatus.Pending]: AA_COLORS.blue,
  [Hl7MessageStatus.Acknowledged]: AA_COLORS.green,
  [Hl7MessageStatus.Failed]: AA_COLORS.red,
  [Hl7MessageStatus.Batched]: 'teal.9',
};
