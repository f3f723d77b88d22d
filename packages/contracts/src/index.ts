/**
 * @switchboard/contracts: the types and zod validators generated from specs/, the error and
 * settlement code catalogs, and the command table (routing paths, target kinds). Everything under ./generated is produced by `pnpm generate`.
 */
import type { components } from './generated/api/types.ts';
import { zCommandType } from './generated/api/zod.gen.ts';
import type { components as ConnectorComponents } from './generated/connector/types.ts';
import type { components as EventComponents } from './generated/events/types.ts';

export type { paths, components, operations } from './generated/api/types.ts';
export type { paths as ConnectorPaths, components as ConnectorComponents } from './generated/connector/types.ts';
export type { components as EventComponents } from './generated/events/types.ts';
export type { paths as AdminPaths, components as AdminComponents } from './generated/admin/types.ts';

/** zod validators of the public API's schemas (`schemas.zMessageSendPayload`, ...). */
export * as schemas from './generated/api/zod.gen.ts';
/** zod validators of the connector protocol. */
export * as connectorSchemas from './generated/connector/zod.gen.ts';
/** zod validators of the admin API. */
export * as adminSchemas from './generated/admin/zod.gen.ts';
/** zod validators of the response stream's events. */
export * as eventSchemas from './generated/events/zod.gen.ts';

export * from './generated/catalog.ts';
export * from './commands.ts';
export { messagePayloadSchema } from './payload.ts';

type Api = components['schemas'];
type Connector = ConnectorComponents['schemas'];
type Events = EventComponents['schemas'];

export type CommandType = Api['CommandType'];
export type RoutingPath = Api['RoutingPath'];
export type CommandStatus = Api['CommandStatus'];
export type Disposition = Api['Disposition'];
export type Acknowledgement = Api['Acknowledgement'];
export type Target = Api['Target'];
export type ConversationTarget = Api['ConversationTarget'];
export type RecipientTarget = Api['RecipientTarget'];
export type ParticipantsTarget = Api['ParticipantsTarget'];
export type MessageSendPayload = Api['MessageSendPayload'];
export type GroupUpdatePayload = Api['GroupUpdatePayload'];
export type Command = Api['Command'];
export type Conversation = Api['Conversation'];
export type ConversationKind = Api['ConversationKind'];
export type Capability = Api['Capability'];
export type CapabilityName = Api['CapabilityName'];
export type CapabilityReport = Api['CapabilityReport'];
export type RichKind = Api['RichKind'];

export type LeaseRequest = Connector['LeaseRequest'];
export type Lease = Connector['Lease'];
export type DispatchedCommand = Connector['DispatchedCommand'];
export type Settlement = Connector['Settlement'];
export type SettlementBatch = Connector['SettlementBatch'];
export type BatchedSettlement = Connector['BatchedSettlement'];
export type SettlementResult = Connector['SettlementResult'];
export type PlatformEvent = Connector['PlatformEvent'];

export type StreamEvent = Events['StreamEvent'];
export type StreamEventType = Events['EventType'];
export type CommandSettledEvent = Events['CommandSettledEvent'];
export type StreamReset = Events['StreamReset'];

/** The seven command types, in the service specification's order. */
export const commandTypes: readonly CommandType[] = zCommandType.options;
