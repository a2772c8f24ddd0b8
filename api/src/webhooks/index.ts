export { signShippingPayload, verifyShippingSignature, type SignatureCheck } from './shipping-signature';
export { webhooksRouter } from './webhooks.routes';
