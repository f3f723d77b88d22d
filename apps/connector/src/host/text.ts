/**
 * What the platform showed, made storable: U+0000 becomes U+FFFD in every string of `value`
 * (arrays and plain objects at any depth; anything else as it is). The server refuses a report
 * with U+0000, which PostgreSQL's text cannot hold (specs/openapi/connector.yaml, "Text").
 */
export function withoutNul<T>(value: T): T {
  if (typeof value === 'string') return value.replaceAll('\0', '\uFFFD') as T;
  if (Array.isArray(value)) return value.map(withoutNul) as T;
  if (value !== null && typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype) {
    return Object.fromEntries(Object.entries(value).map(([key, v]) => [withoutNul(key), withoutNul(v)])) as T;
  }
  return value;
}
