/** The sign-in chunk: one sign-in, forgot-password and reset page, used by all four portals. */
export { SignInPage } from './SignInPage';
export { ForgotPasswordPage } from './ForgotPasswordPage';
export { ResetPasswordPage } from './ResetPasswordPage';
export { AcceptInvitationPage } from './AcceptInvitationPage';
