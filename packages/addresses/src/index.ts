import { createRequire } from 'node:module';

type PhoneParser = typeof import('libphonenumber-js/max').parsePhoneNumberFromString;
let phoneParser: PhoneParser | undefined;

/**
 * libphonenumber's full metadata, loaded with the first phone number rather than at start-up:
 * it is ~4 MB of the server's memory, and only recipient and participant targets need it.
 */
function parsePhoneNumber(text: string): ReturnType<PhoneParser> {
  phoneParser ??= (createRequire(import.meta.url)('libphonenumber-js/max') as typeof import('libphonenumber-js/max')).parsePhoneNumberFromString;
  return phoneParser(text);
}

export type AddressReason = 'not_a_string' | 'not_a_phone_number_or_email' | 'invalid_phone_number' | 'invalid_email';
export type AddressResult = { ok: true; address: string } | { ok: false; reason: AddressReason };

// The WHATWG HTML definition of a valid email address: what browsers accept in <input type=email>.
const EMAIL = /^[a-zA-Z0-9.!#$%&'*+/=?^_`{|}~-]+@[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?(?:\.[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?)+$/;
/** The longest email address (RFC 5321); no phone number comes close. */
export const MAX_ADDRESS_LENGTH = 254;
const PHONE_CHARS = /^[+\d\s().-]+$/;

/**
 * Normalises a recipient or participant address: phone numbers to E.164 (they must carry their
 * country code, since the service cannot guess where a client is), emails to a lower-case domain.
 */
export function normaliseAddress(value: unknown): AddressResult {
  if (typeof value !== 'string') return { ok: false, reason: 'not_a_string' };
  // The spec's maxLength, before trimming: padding cannot carry a longer string into the store.
  if (value.length > MAX_ADDRESS_LENGTH) return { ok: false, reason: 'not_a_phone_number_or_email' };
  const trimmed = value.trim();
  if (trimmed.includes('@')) {
    if (trimmed.length > 254 || !EMAIL.test(trimmed)) return { ok: false, reason: 'invalid_email' };
    const at = trimmed.lastIndexOf('@');
    return { ok: true, address: trimmed.slice(0, at) + trimmed.slice(at).toLowerCase() };
  }
  if (!PHONE_CHARS.test(trimmed) || !/\d/.test(trimmed)) return { ok: false, reason: 'not_a_phone_number_or_email' };
  const phone = parsePhoneNumber(trimmed);
  if (!phone || !phone.isValid()) return { ok: false, reason: 'invalid_phone_number' };
  return { ok: true, address: phone.number };
}
