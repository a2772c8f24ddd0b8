import { Select, SimpleGrid, TextInput } from '@mantine/core';
import type { UseFormReturnType } from '@mantine/form';
import { PROVIDER_TITLES, ProviderTitle, SPECIALTIES } from '@platform/domain';
import type { ProviderPersonValues } from '../forms/provider-person';

/**
 * Name, email, phone, title, specialty and NPI of a provider person (forms/provider-person.ts
 * holds their rules). NPI is marked required once the title is Physician.
 */
export function ProviderPersonFields<V extends ProviderPersonValues>({ form }: { form: UseFormReturnType<V> }) {
  const f = form as unknown as UseFormReturnType<ProviderPersonValues>;
  const physician = f.getValues().title === ProviderTitle.Physician;
  return (
    <>
      <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="sm">
        <TextInput label="First name" autoComplete="given-name" withAsterisk key={f.key('firstName')} {...f.getInputProps('firstName')} />
        <TextInput label="Last name" autoComplete="family-name" withAsterisk key={f.key('lastName')} {...f.getInputProps('lastName')} />
      </SimpleGrid>
      <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="sm">
        <TextInput label="Email" type="email" inputMode="email" autoComplete="email" withAsterisk key={f.key('email')} {...f.getInputProps('email')} />
        <TextInput label="Phone" type="tel" autoComplete="tel" key={f.key('phone')} {...f.getInputProps('phone')} />
      </SimpleGrid>
      <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="sm">
        <Select
          label="Title"
          placeholder="Choose"
          data={PROVIDER_TITLES}
          withAsterisk
          allowDeselect={false}
          key={f.key('title')}
          {...f.getInputProps('title')}
          onChange={(value) => {
            f.setFieldValue('title', value);
            // Whether NPI is required follows the title: its message follows too.
            if (f.errors.npi) f.validateField('npi');
          }}
        />
        <Select label="Specialty" placeholder="Choose (optional)" data={SPECIALTIES} clearable key={f.key('specialty')} {...f.getInputProps('specialty')} />
      </SimpleGrid>
      <TextInput
        label="NPI"
        description={physician ? 'The 10-digit National Provider Identifier (required for a physician)' : 'The 10-digit National Provider Identifier, if they have one'}
        inputMode="numeric"
        maxLength={10}
        withAsterisk={physician}
        key={f.key('npi')}
        {...f.getInputProps('npi')}
      />
    </>
  );
}
