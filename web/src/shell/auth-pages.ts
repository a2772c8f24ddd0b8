/** The sign-in, forgot-password and reset-password pages of every portal. */
const AUTH_PAGE = /\/(login|forgot-password|reset-password)$/;

export const isAuthPage = (pathname: string) => AUTH_PAGE.test(pathname);
