/**
 * Why a command failed, as clients read it (`errorMessage`, `errorPath`; switchboard.yaml, "Why a
 * command failed"): bounded here, once, before it is stored, so every read and event of it is.
 */

/** The bound of both fields, in characters (code points, as JSON Schema's maxLength counts). */
export const MAX_ERROR_CHARS = 1024;

/** The message, cut to 1,023 characters and an ellipsis when it is longer than the bound. */
export function boundErrorMessage(message: string): string {
  // A string has at least as many code units as code points: most messages need no counting.
  if (message.length <= MAX_ERROR_CHARS) return message;
  const chars = Array.from(message);
  return chars.length <= MAX_ERROR_CHARS ? message : `${chars.slice(0, MAX_ERROR_CHARS - 1).join('')}…`;
}

/**
 * The JSON Pointer, or its nearest ancestor within the bound: a pointer cut anywhere but at a
 * `/` would point somewhere else.
 */
export function boundErrorPath(pointer: string): string {
  if (pointer.length <= MAX_ERROR_CHARS || Array.from(pointer).length <= MAX_ERROR_CHARS) return pointer;
  const head = Array.from(pointer).slice(0, MAX_ERROR_CHARS + 1).join('');
  // The segment that crosses the bound goes, and with it everything after.
  return head.slice(0, head.lastIndexOf('/'));
}
