/** How a person's name reads: "John Carter"; null when there is no person (the caller says what to show instead). */
export function fullName(p: { firstName: string; lastName: string } | null | undefined): string | null {
  return p ? `${p.firstName} ${p.lastName}`.trim() : null;
}

/** "Carter, John": how lists of patients read. */
export const listName = (p: { firstName: string; lastName: string }) => `${p.lastName}, ${p.firstName}`;
