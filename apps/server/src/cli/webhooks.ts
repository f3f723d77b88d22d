import type { AccountRecord, Store } from '../store/types.ts';
import { paint, table, time, UsageError } from './format.ts';

type Out = (human: string, json: unknown) => void;

/** `webhooks list|enable|disable`: what an operator sees and does about an account's endpoints. */
export async function webhooksCommand(store: Store, sub: string, target: AccountRecord, endpointId: string | undefined, out: Out): Promise<void> {
  const { webhooks } = store;
  if (sub === 'list') {
    const [endpoints, backlogs] = await Promise.all([webhooks.listEndpoints(target.id), webhooks.backlogs(target.id)]);
    const rows = endpoints.map(({ secret: _secret, previousSecret: _previous, ...e }) => ({ ...e, backlog: backlogs.get(e.id) ?? 0 }));
    out(
      rows.length === 0 ? `${target.name} has no webhook endpoints`
        : table([['ID', 'URL', 'STATE', 'CURSOR', 'BACKLOG', 'FAILING SINCE'], ...rows.map((e) => [
          e.id, e.url, e.enabled ? paint('green', 'enabled') : paint('red', `disabled (${e.disabledReason})`), String(e.cursor), String(e.backlog), time(e.failingSince),
        ])]),
      rows,
    );
    return;
  }
  if (!endpointId) throw new UsageError(`webhooks ${sub} <account> <endpointId>`);
  const updated = await webhooks.updateEndpoint(target.id, endpointId, { enabled: sub === 'enable' }, Date.now());
  if (!updated) throw new UsageError(`no webhook endpoint "${endpointId}" for ${target.name}`, 'endpoint_not_found');
  out(`${paint('green', '✔')} ${updated.url} ${sub}d`, { id: updated.id, enabled: updated.enabled });
}
