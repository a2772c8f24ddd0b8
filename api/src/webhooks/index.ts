export { webhooksRouter } from './webhooks.routes';
