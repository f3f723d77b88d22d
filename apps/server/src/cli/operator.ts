import type { AdminComponents, StreamEvent } from '@switchboard/contracts';

type A = AdminComponents['schemas'];
export type Account = A['AccountSummary'];
export type Key = A['Key'];
export type KeyWithSecret = A['KeyWithSecret'];
export type OperatorKey = A['OperatorKey'];
export type OperatorKeyWithSecret = A['OperatorKeyWithSecret'];
export type OperatorRole = A['OperatorRole'];
export type Host = A['Host'];
export type WebhookEndpoint = A['WebhookEndpoint'];
export type LinePolicies = A['LinePolicies'];
export type PolicyUsage = A['PolicyUsage'];
export type TransferLimits = A['TransferLimits'];
export type AdminCommand = A['AdminCommand'];
export type CommandDetail = A['CommandDetail'];
export type CommandPage = A['CommandPage'];

/**
 * What the CLI does, in the admin API's shapes, whichever way it reaches the service: directly
 * on the store (direct.ts, through the same domain code as the admin API) or over HTTP with an
 * operator key (remote.ts). A failure is thrown as an OperatorError with the admin API's code.
 */
export interface Operator {
  createAccount(name: string): Promise<A['Account']>;
  listAccounts(): Promise<Account[]>;
  createKey(accountId: string, kind: 'account' | 'connector', label: string): Promise<KeyWithSecret>;
  listKeys(accountId: string): Promise<Key[]>;
  revokeKey(keyId: string): Promise<Key>;
  createOperatorKey(label: string, role: OperatorRole): Promise<OperatorKeyWithSecret>;
  listOperatorKeys(): Promise<OperatorKey[]>;
  revokeOperatorKey(keyId: string): Promise<OperatorKey>;
  /** Pauses (or resumes) one account's outbound sending, or every account's when `accountId` is null. */
  setPaused(accountId: string | null, paused: boolean): Promise<void>;
  listHosts(): Promise<Host[]>;
  getPolicies(accountId: string): Promise<LinePolicies>;
  /** Replaces the whole set (a policy left out is off); answers them as stored. */
  setPolicies(accountId: string, policies: LinePolicies): Promise<LinePolicies>;
  /** What the account's policies count now; with `conversationId`, that conversation's too. */
  policyUsage(accountId: string, conversationId: string | null): Promise<PolicyUsage>;
  getTransferLimits(accountId: string): Promise<TransferLimits>;
  /** Replaces the account's transfer limits; answers them as stored. */
  setTransferLimits(accountId: string, limits: TransferLimits): Promise<TransferLimits>;
  /** One page of the account's commands with this status, newest first, after `cursor`. */
  listCommands(accountId: string, status: AdminCommand['status'], cursor: string | null): Promise<CommandPage>;
  /** An operator's release of a held command: it goes out (or, a first contact in quiet hours, waits for the window). */
  releaseCommand(commandId: string): Promise<CommandDetail>;
  /** An operator's rejection of a held command: it settles failed, and nothing is sent. */
  rejectCommand(commandId: string, reason: string | null): Promise<CommandDetail>;
  listEndpoints(accountId: string): Promise<WebhookEndpoint[]>;
  setEndpointEnabled(accountId: string, endpointId: string, enabled: boolean): Promise<WebhookEndpoint>;
  /** The id of the account's newest event (`--after now`). */
  newestEventId(accountId: string): Promise<string>;
  /** The account's stream after `after`, until `signal` aborts. */
  events(accountId: string, after: string, signal: AbortSignal): AsyncIterable<StreamEvent>;
  close(): Promise<void>;
}

/** A failure the service answered: the admin API's error code and message. */
export class OperatorError extends Error {
  readonly code: string;
  constructor(code: string, message: string) {
    super(message);
    this.code = code;
  }
}
