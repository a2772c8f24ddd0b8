/** The public information pages for physicians (/provider/prostox-faq, /provider/prostox-ultra-billing). */
export { ProstoxFaqPage } from './ProstoxFaqPage';
export { ProstoxUltraBillingPage } from './ProstoxUltraBillingPage';
