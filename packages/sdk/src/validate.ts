/**
 * Opt-in local checks of a command's payload against the contracts' zod schemas. The endpoint
 * checks only the envelope and answers 202 to a misspelled field, an out-of-range value or a bad
 * enum; the connector host then settles it `payload_invalid` seconds later. With `validate: true`
 * the client finds those before sending.
 */
import { commandTable, messagePayloadSchema, schemas } from '@switchboard/contracts';
import { PayloadValidationError, type PayloadIssue } from './errors.ts';
import type { CommandRequest, CommandType } from './types.ts';

interface Schema {
  safeParse(value: unknown): { success: true } | { success: false; error: { issues: ReadonlyArray<{ path: ReadonlyArray<PropertyKey>; message: string }> } };
}

/**
 * The schema a command's body must match. message.send picks its branch first, so an error names
 * the field that is wrong rather than "no branch of the union matched". A recipient send's
 * payload is checked strictly: the service would silently drop any key but `text`.
 */
function schemaFor(type: CommandType, body: { target?: { kind?: unknown }; payload?: unknown }): Schema {
  switch (type) {
    case 'message.send':
      if (body.target?.kind === 'recipient') return schemas.zMessageSendToRecipient.extend({ payload: schemas.zRecipientSendPayload.strict() });
      return schemas.zMessageSendToConversation.extend({ payload: messagePayloadSchema(body.payload) });
    case 'reaction.tapback':
      return schemas.zReactionTapbackRequest;
    case 'reaction.apply':
      return schemas.zReactionApplyRequest;
    case 'name_photo.share':
      return schemas.zNamePhotoShareRequest;
    case 'group.create':
      return schemas.zGroupCreateRequest;
    case 'group.update':
      return schemas.zGroupUpdateRequest;
    case 'group.leave':
      return schemas.zGroupLeaveRequest;
  }
}

function pointer(path: ReadonlyArray<PropertyKey>): string {
  return path.map((segment) => `/${String(segment).replaceAll('~', '~0').replaceAll('/', '~1')}`).join('');
}

/** Throws PayloadValidationError listing every problem, or returns when the body is valid. */
export function validateCommand(type: CommandType, body: object): void {
  const result = schemaFor(type, body).safeParse(body);
  if (result.success) return;
  const issues: PayloadIssue[] = result.error.issues.map((issue) => ({ path: pointer(issue.path), message: issue.message }));
  throw new PayloadValidationError(type, issues);
}

/**
 * A command body built at run time (typed `unknown`: a form, a model's output), checked against
 * the command's schema: returned typed when it matches, else PayloadValidationError.
 */
export function checkedCommand<T extends CommandType>(type: T, input: unknown): CommandRequest<T> {
  if (!Object.hasOwn(commandTable, type)) throw new TypeError(`unknown command type "${String(type)}"`);
  if (typeof input !== 'object' || input === null || Array.isArray(input)) {
    throw new PayloadValidationError(type, [{ path: '', message: 'expected an object with target and payload' }]);
  }
  validateCommand(type, input);
  return input as CommandRequest<T>;
}
