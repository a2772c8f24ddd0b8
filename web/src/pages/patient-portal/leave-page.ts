/** Leaves the SPA for another page (the payment provider's card page): one place, so tests can watch it. */
export function leavePageFor(url: string): void {
  window.location.assign(url);
}

/** Where the payment provider sends the patient back: the complete page of the order (its number only, never its token). */
export function completePath(orderNumber: string): string {
  return `/patient-portal/order/complete?order=${encodeURIComponent(orderNumber)}`;
}
