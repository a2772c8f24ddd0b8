// The order's steps after the first, and the card page: loaded by lazy-steps.tsx.
export { CardPayment } from './CardPayment';
export { DetailsStep } from './DetailsStep';
export { PaymentStep } from './PaymentStep';
export { ReferralStep } from './ReferralStep';
