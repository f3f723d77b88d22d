/** Media types in Content-Type headers (RFC 9110 §8.3.1), for every route that reads one. */

// type "/" subtype *( OWS ";" OWS parameter ), with the type and the subtype captured.
const TOKEN = "[\\w!#$%&'*+.^`|~-]+";
const MEDIA_TYPE = new RegExp(`^[ \\t]*(${TOKEN})/(${TOKEN})(?:[ \\t]*;[ \\t]*${TOKEN}=(?:${TOKEN}|"(?:[^"\\\\]|\\\\.)*"))*[ \\t]*$`);

/** A well-formed Content-Type value (a range such as `image/*` is one too). */
export function isMediaType(value: string): boolean {
  return MEDIA_TYPE.test(value);
}

/**
 * The media type of a Content-Type value, lower-cased and without its parameters; null when it
 * is absent or malformed, or a range (`image/*`) rather than a type.
 */
export function mediaTypeOf(value: string | undefined): string | null {
  if (value === undefined) return null;
  const match = MEDIA_TYPE.exec(value);
  if (!match || match[1] === '*' || match[2] === '*') return null;
  return `${match[1]}/${match[2]}`.toLowerCase();
}
