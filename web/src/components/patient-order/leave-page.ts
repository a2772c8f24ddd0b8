/** Leaves the SPA for another page (the payment provider's card page): one place, so tests can watch it. */
export function leavePageFor(url: string): void {
  window.location.assign(url);
}
