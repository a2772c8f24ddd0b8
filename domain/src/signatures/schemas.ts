/** The request fields of signing (joi: the API's; the SPA never bundles them). */
import Joi from 'joi';

/** The password re-entered to sign (checked as at sign-in, never stored). */
export const signingPassword = () => Joi.string().min(1).max(1024).label('Password')
  .messages({ 'any.required': 'Enter your password to sign', 'string.empty': 'Enter your password to sign' });
