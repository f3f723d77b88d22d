import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import {
  CommandFailedError,
  errorCatalog,
  SettlementTimeoutError,
  settlementCatalog,
  SwitchboardError,
  SwitchboardNetworkError,
  UnexpectedResponseError,
  type SettlementCode,
} from '@switchboard/sdk';

/** A tool's answer: the same object as JSON text (what a model reads) and as structured content. */
export function ok(result: Record<string, unknown>): CallToolResult {
  return { content: [{ type: 'text', text: JSON.stringify(result, null, 2) }], structuredContent: result };
}

/** What a tool error says: the catalog's code, message and retry guidance. */
export interface ToolError {
  error: string;
  message: string;
  /** `never` (change the call), `after` (call again after retryAfterSeconds), `backoff` (call again later). */
  retry: 'never' | 'after' | 'backoff';
  /** The catalog's meaning of the code. */
  meaning?: string;
  status?: number;
  retryAfterSeconds?: number;
  commandId?: string;
  requestId?: string;
}

export function toolError(body: ToolError): CallToolResult {
  return { content: [{ type: 'text', text: JSON.stringify(body, null, 2) }], structuredContent: { ...body }, isError: true };
}

/** The meaning of a settlement code, from the contracts' catalog. */
export function settlementMeaning(code: SettlementCode): string {
  return settlementCatalog[code].description;
}

/** Maps whatever a tool threw to a tool error; the MCP server itself never crashes on it. */
export function errorResult(error: unknown): CallToolResult {
  if (error instanceof SwitchboardError) {
    const body = error.body as { retryAfterSeconds?: number };
    return toolError({
      error: error.code,
      message: error.body.message,
      retry: error.retry,
      meaning: errorCatalog[error.code].description,
      status: error.status,
      ...(typeof body.retryAfterSeconds === 'number' ? { retryAfterSeconds: body.retryAfterSeconds } : {}),
      ...(error.requestId ? { requestId: error.requestId } : {}),
    });
  }
  if (error instanceof CommandFailedError) {
    return toolError({ error: error.errorCode, message: error.message, retry: 'never', meaning: settlementMeaning(error.errorCode), commandId: error.commandId });
  }
  if (error instanceof SettlementTimeoutError) {
    return toolError({
      error: 'timeout',
      message: `${error.message}; the command may still settle: read it with command_status`,
      retry: 'never',
      commandId: error.commandId,
    });
  }
  if (error instanceof SwitchboardNetworkError) {
    const message = error.mayHaveReachedServer
      ? `${error.message}; the service may have acted on it (an agent-turn call repeated now is adopted, an admin one is sent again)`
      : `${error.message}; the service did not receive it`;
    return toolError({ error: 'network', message, retry: 'backoff' });
  }
  if (error instanceof UnexpectedResponseError) {
    return toolError({ error: 'unexpected_response', message: error.message, retry: 'backoff', status: error.status });
  }
  return toolError({ error: 'internal', message: error instanceof Error ? error.message : String(error), retry: 'never' });
}
