/**
 * The admin domain: what an operator does to the service, shared by the admin API's routes
 * (http/admin/routes.ts) and the CLI where the store is. Reads take `AdminDeps`; changes take an
 * `Admin` (the deps and the operator key making them) and are recorded in the audit log.
 */
export { audited, auditBody, listAudit, type Admin, type AdminDeps, type AuditAction, type AuditEntry } from './audit.ts';
export { accountBody, createAccount, findAccountById, getAccount, listAccounts, setAccountPaused, setAllPaused } from './accounts.ts';
export { getPolicies, normalizePolicies, setPolicies } from './policies.ts';
export { getTransferLimits, setTransferLimits } from './transfers.ts';
export { createKey, createOperatorKey, keyBody, listKeys, listOperatorKeys, operatorKeyBody, revokeKey, revokeOperatorKey } from './keys.ts';
export { hostBody, listHosts } from './hosts.ts';
export { overview } from './overview.ts';
export { getCommandDetail, listCommands } from './commands.ts';
export { policyUsage, rejectCommand, releaseCommand, type HoldDeps } from './holds.ts';
export { commandTimeline, type TimelineEntry } from './timeline.ts';
export { listConversations } from './conversations.ts';
export {
  adminDeliveryBody, findAccountEndpoint, getEndpoint, listAllEndpoints, listDeliveries, listEndpoints, replay, resend, rotateSecret, setEndpointEnabled, test,
} from './webhooks.ts';
