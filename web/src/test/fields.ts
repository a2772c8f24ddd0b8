import { findByRole } from '@testing-library/react';

/** What a person (or a screen reader) is told about a field: the texts its aria-describedby points to. */
export function describedText(element: HTMLElement): string {
  return (element.getAttribute('aria-describedby') ?? '')
    .split(/\s+/)
    .filter(Boolean)
    .map((id) => document.getElementById(id)?.textContent ?? '')
    .join(' ');
}

/**
 * Picks `option` in a Mantine Select or MultiSelect: opens it, then clicks the option in its own
 * list (every select's options are in the document, so the name alone may not be unique).
 */
export async function pickOption(user: { click: (element: Element) => Promise<void> }, combobox: HTMLElement, option: string | RegExp): Promise<void> {
  await user.click(combobox);
  const listId = combobox.getAttribute('aria-controls');
  const list = listId ? document.getElementById(listId) : null;
  if (!list) throw new Error(`The list of ${combobox.getAttribute('aria-label') ?? 'the select'} did not open`);
  await user.click(await findByRole(list, 'option', { name: option, hidden: true }));
}

/**
 * Fills a text box as a person pasting into it: one input event, where typing re-renders the form
 * once per character (a long form typed out letter by letter is most of a test's time).
 */
export async function fillIn(user: { click: (element: Element) => Promise<void>; paste: (text: string) => Promise<void> }, field: HTMLElement, text: string): Promise<void> {
  await user.click(field);
  await user.paste(text);
}
