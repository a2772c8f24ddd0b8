export * from './consent';
export * from './inbound';
export * from './queue-sms';
export * from './texts';
export * from './twilio-client';
export * from './send-sms';
export * from './clinic-texts';
export * from './kit-notices';
