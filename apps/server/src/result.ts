/** What a domain function answers when it can fail: its value, or why not. The one shape for both. */
export type Result<T, E> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly error: E };

export function ok<T>(value: T): { readonly ok: true; readonly value: T } {
  return { ok: true, value };
}

export function err<const E>(error: E): { readonly ok: false; readonly error: E } {
  return { ok: false, error };
}
