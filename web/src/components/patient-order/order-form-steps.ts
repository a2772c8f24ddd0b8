/** What the order-page tests do to a step's form, as a person would: shared by the page's and the steps' own tests. */
import { screen } from '@testing-library/react';
import type userEvent from '@testing-library/user-event';
import { fillIn } from '../../test/fields';

type User = ReturnType<typeof userEvent.setup>;

/** Chooses the treating provider from its list. */
export async function chooseProvider(user: User, name: string) {
  await user.click(screen.getByRole('combobox', { name: /^Treating provider/ }));
  await user.click(await screen.findByRole('option', { name, hidden: true }));
}

/** Fills in the patient's details (the fields an invitation filled in are left as they are). */
export async function fillDetails(user: User, { dateOfBirth = '1957-08-19' } = {}) {
  await screen.findByRole('form', { name: 'Your details' });
  const field = (label: string) => screen.getByRole('textbox', { name: new RegExp(`^${label}`) });
  if (!(field('First name') as HTMLInputElement).value) await fillIn(user, field('First name'), 'Harold');
  if (!(field('Last name') as HTMLInputElement).value) await fillIn(user, field('Last name'), 'Finch');
  // The date of birth in its three boxes (MM / DD / YYYY), from a YYYY-MM-DD.
  const [year, month, day] = dateOfBirth.split('-');
  for (const [label, part] of [['Month', month], ['Day', day], ['Year', year]] as const) {
    const box = field(label) as HTMLInputElement;
    if (box.value) await user.clear(box);
    if (part) await fillIn(user, box, part);
  }
  if (!(field('Email') as HTMLInputElement).value) await fillIn(user, field('Email'), 'harold@example.test');
  await fillIn(user, field('Address line 1'), '12 Elm Street');
  await fillIn(user, field('City'), 'Springfield');
  await fillIn(user, field('State'), 'IL');
  await fillIn(user, field('ZIP code'), '62701');
}
