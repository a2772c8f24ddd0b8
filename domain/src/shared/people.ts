/** People's names as pages, lists and documents write them. */

type Person = { firstName: string; lastName: string };

/** How a person's name reads: "John Carter"; null when there is no person (the caller says what to show instead). */
export function fullName(p: Person): string;
export function fullName(p: Person | null | undefined): string | null;
export function fullName(p: Person | null | undefined): string | null {
  return p ? `${p.firstName} ${p.lastName}`.trim() : null;
}

/** "Carter, John": how lists of patients read. */
export const listName = (p: Person) => `${p.lastName}, ${p.firstName}`;
