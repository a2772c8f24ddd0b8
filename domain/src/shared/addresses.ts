/**
 * Postal addresses and phone numbers, as every record that has one keeps them (a patient, an
 * ordering patient, an account's shipping and billing addresses): the same field names, limits,
 * patterns and messages everywhere. A patient's address may be partly known (each field optional);
 * an account's is one a parcel or an invoice can be sent to (whole, US ones with a state code and ZIP).
 */
import Joi from 'joi';
import { optionalText, text } from './schema-fields';

const STRICT_KEYS = { allowUnknown: false } as const;

/** The fields of an address, in the order they are written on an envelope. */
export interface PostalAddress {
  addressLine1: string;
  addressLine2: string | null;
  city: string;
  /** A US state's two-letter code; elsewhere the region, or null where there is none. */
  state: string | null;
  postalCode: string;
  /** ISO 3166-1 alpha-2 country code (US, CA, GB...). */
  country: string;
}
export const ADDRESS_FIELDS = ['addressLine1', 'addressLine2', 'city', 'state', 'postalCode', 'country'] as const satisfies readonly (keyof PostalAddress)[];

export const ADDRESS_LINE_MAX_LENGTH = 200;
export const ADDRESS_CITY_MAX_LENGTH = 100;
export const ADDRESS_STATE_MAX_LENGTH = 100;
export const ADDRESS_POSTAL_CODE_MAX_LENGTH = 20;
export const ADDRESS_COUNTRY_MAX_LENGTH = 100;
/** The country an address is in when none is given: the lab and most of its clinics are in the US. */
export const DEFAULT_COUNTRY = 'US';

export const PHONE_PATTERN = /^\+?[0-9 ().-]{7,20}$/;
export const US_STATE_PATTERN = /^[A-Z]{2}$/;
export const US_ZIP_PATTERN = /^\d{5}(-\d{4})?$/;
/** A postal code outside the US: letters, digits, spaces and hyphens (A1A 1A1, SW1A 1AA, 10115). */
export const POSTAL_CODE_PATTERN = /^[A-Za-z0-9][A-Za-z0-9 -]{1,11}$/;
export const COUNTRY_CODE_PATTERN = /^[A-Z]{2}$/;

/** A phone number, optional: '' or null is "not given". */
export const phoneSchema = Joi.string().trim().pattern(PHONE_PATTERN).allow('', null).empty(['', null]).default(null).label('Phone')
  .messages({ 'string.pattern.base': '{#label} must be 7 to 20 digits (spaces, dashes, dots, parentheses and a leading + allowed)' });

/** A US state's two-letter code (upper-cased). */
export const usStateSchema = Joi.string().trim().uppercase().pattern(US_STATE_PATTERN).label('State')
  .messages({ 'string.pattern.base': '{#label} must be a two-letter US state code, for example CA' });

/** A US ZIP code: 5 digits, or ZIP+4. */
export const usZipSchema = Joi.string().trim().pattern(US_ZIP_PATTERN).label('ZIP code')
  .messages({ 'string.pattern.base': '{#label} must be 5 digits, or 5+4 digits like 94110-1234' });

/** A patient's address fields: each optional (stored as null when not given), the country free text. */
export const optionalAddressFields = {
  addressLine1: optionalText('Address line 1', ADDRESS_LINE_MAX_LENGTH),
  addressLine2: optionalText('Address line 2', ADDRESS_LINE_MAX_LENGTH),
  city: optionalText('City', ADDRESS_CITY_MAX_LENGTH),
  state: optionalText('State', ADDRESS_STATE_MAX_LENGTH),
  postalCode: optionalText('Postal code', ADDRESS_POSTAL_CODE_MAX_LENGTH),
  country: optionalText('Country', ADDRESS_COUNTRY_MAX_LENGTH),
};

/**
 * A whole address a parcel or an invoice can be sent to, labelled (e.g. "Shipping address") so each
 * message names the address and its field. The country is a two-letter code (US by default); a US
 * address needs its state code and ZIP, elsewhere the region is optional and the postal code free-form.
 */
export function postalAddressSchema(label: string): Joi.ObjectSchema<PostalAddress> {
  return Joi.object<PostalAddress>({
    addressLine1: text(`${label} line 1`, ADDRESS_LINE_MAX_LENGTH).required(),
    addressLine2: optionalText(`${label} line 2`, ADDRESS_LINE_MAX_LENGTH),
    city: text(`${label} city`, ADDRESS_CITY_MAX_LENGTH).required(),
    state: Joi.when('country', {
      is: DEFAULT_COUNTRY,
      then: usStateSchema.label(`${label} state`).required(),
      otherwise: optionalText(`${label} state or region`, ADDRESS_STATE_MAX_LENGTH),
    }),
    postalCode: Joi.when('country', {
      is: DEFAULT_COUNTRY,
      then: usZipSchema.label(`${label} ZIP code`).required(),
      otherwise: Joi.string().trim().pattern(POSTAL_CODE_PATTERN).required().label(`${label} postal code`)
        .messages({ 'string.pattern.base': '{#label} must be 2 to 12 letters, digits, spaces or hyphens' }),
    }),
    country: Joi.string().trim().uppercase().pattern(COUNTRY_CODE_PATTERN).default(DEFAULT_COUNTRY).label(`${label} country`)
      .messages({ 'string.pattern.base': '{#label} must be a two-letter country code (ISO 3166-1), for example US' }),
  }).options(STRICT_KEYS).label(label);
}

/** An address as one line (empty parts left out), for lists and audit views. */
export function addressOneLine(a: Partial<Record<(typeof ADDRESS_FIELDS)[number], string | null>>): string {
  const cityLine = [a.city, [a.state, a.postalCode].filter(Boolean).join(' ')].filter(Boolean).join(', ');
  return [a.addressLine1, a.addressLine2, cityLine, a.country].filter(Boolean).join(', ');
}
