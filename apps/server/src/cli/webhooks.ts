import { paint, table, UsageError } from './format.ts';
import { OperatorError, type Account, type Operator } from './operator.ts';

type Out = (human: string, json: unknown) => void;

/** `webhooks list|enable|disable`: what an operator sees and does about an account's endpoints. */
export async function webhooksCommand(operator: Operator, sub: string, target: Account, endpointId: string | undefined, out: Out): Promise<void> {
  if (sub === 'list') {
    const endpoints = await operator.listEndpoints(target.id);
    out(
      endpoints.length === 0 ? `${target.name} has no webhook endpoints`
        : table([['ID', 'URL', 'STATE', 'CURSOR', 'BACKLOG', 'FAILING SINCE'], ...endpoints.map((e) => [
          e.id, e.url, e.enabled ? paint('green', 'enabled') : paint('red', `disabled (${e.disabledReason})`), e.cursor, String(e.backlog), e.failingSince ?? '-',
        ])]),
      endpoints,
    );
    return;
  }
  if (!endpointId) throw new UsageError(`webhooks ${sub} <account> <endpointId>`);
  try {
    const updated = await operator.setEndpointEnabled(target.id, endpointId, sub === 'enable');
    out(`${paint('green', '✔')} ${updated.url} ${sub}d`, { id: updated.id, enabled: updated.enabled });
  } catch (error) {
    if (error instanceof OperatorError && error.code === 'webhook_endpoint_not_found') {
      throw new UsageError(`no webhook endpoint "${endpointId}" for ${target.name}`, error.code);
    }
    throw error;
  }
}
