/**
 * @switchboard/sdk: a typed client for Switchboard's command messaging API. Runs wherever fetch
 * runs (Node >= 20.19, browsers, edge runtimes); no Node-only APIs.
 */
export { SwitchboardClient, type ClientOptions } from './client.ts';
export {
  SwitchboardError,
  SwitchboardNetworkError,
  UnexpectedResponseError,
  PayloadValidationError,
  SettlementTimeoutError,
  CommandFailedError,
  isErrorBody,
  type ErrorBody,
  type ErrorBodyOf,
  type PayloadIssue,
  type RetryGuidance,
} from './errors.ts';
export { routingPathOf, routingPathOfTarget } from './routing.ts';
export { parseCommand } from './parse.ts';
export { isRetryable, type RetryOptions, type RetryPath, type Failure } from './retry.ts';
export { SseParser, type SseMessage } from './sse.ts';
export type { EventsOptions } from './events.ts';
export type { SettledOptions, CommandOutcome } from './settled.ts';
export type { DeliveredOptions, Delivery, DeliveryState } from './delivered.ts';
export type { NewContact, RichToNewContactOptions, RichToNewContactResult } from './recipe.ts';
export { systemClock, type Clock } from './clock.ts';
export type * from './types.ts';
export { errorCatalog, errorCodes, settlementCodes, settlementCatalog, type ErrorCode, type SettlementCode } from '@switchboard/contracts/catalog';
