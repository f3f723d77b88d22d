import { adminSchemas, type AdminComponents } from '@switchboard/contracts';
import { ApiError } from '../errors.ts';
import { err, ok, type Result } from '../result.ts';
import type { LinePolicies } from '../store/types.ts';
import { isTimeZone } from '../store/rules/policies.ts';
import { findAccountById } from './accounts.ts';
import { audited, type Admin, type AdminDeps } from './audit.ts';
import type { HoldDeps } from './holds.ts';

type Schemas = AdminComponents['schemas'];

/**
 * The body as the store keeps it: a policy absent or null is off, and a new-contact budget with
 * neither window set is off too (it would limit nothing), so there is one way to say "off".
 */
export function normalizePolicies(body: Schemas['LinePolicies']): LinePolicies {
  const perHour = body.newContacts?.perHour ?? null;
  const perDay = body.newContacts?.perDay ?? null;
  return {
    newContacts: perHour === null && perDay === null ? null : { perHour, perDay },
    pacing: body.pacing ? { perMinute: body.pacing.perMinute } : null,
    loopBreaker: body.loopBreaker ? { maxUnanswered: body.loopBreaker.maxUnanswered } : null,
    quietHours: body.quietHours
      ? { from: body.quietHours.from, until: body.quietHours.until, timeZone: body.quietHours.timeZone, conversationTimeZones: { ...body.quietHours.conversationTimeZones } }
      : null,
    firstContactApproval: body.firstContactApproval === true,
  };
}

/** The account's line policies (every one null until set); 404 `account_not_found`. */
export async function getPolicies(deps: Pick<AdminDeps, 'store'>, accountId: string): Promise<Result<LinePolicies, ApiError>> {
  const found = await findAccountById(deps, accountId);
  if (!found.ok) return found;
  return ok(await deps.store.getPolicies(found.value.id));
}

/**
 * Replaces the account's line policies with `body` (the whole set, checked against the spec's
 * LinePolicies): a body that does not fit is 400 `invalid_body` naming the `field`, and changes
 * nothing. Checked here rather than in the route so the CLI where the store is refuses the same.
 */
export function setPolicies(admin: Admin, accountId: string, body: unknown): Promise<Result<LinePolicies, ApiError>> {
  let account = '';
  return audited(admin, 'account.policies', async () => {
    const found = await findAccountById(admin, accountId);
    if (!found.ok) return found;
    const checked = adminSchemas.zLinePolicies.safeParse(body);
    if (!checked.success) {
      const issue = checked.error.issues[0]!;
      // An unknown key's path is its parent; name the key itself.
      const path = issue.code === 'unrecognized_keys' ? [...issue.path, issue.keys[0]!] : issue.path;
      const field = path.join('.') || 'body';
      return err(new ApiError('invalid_body', checked.error.issues.map((i) => `${i.path.join('.') || 'body'}: ${i.message}`).join('; '), { field }));
    }
    const policies = normalizePolicies(checked.data);
    const zone = unknownZone(policies);
    if (zone) return err(new ApiError('invalid_body', `${zone.field}: "${zone.name}" is not a time zone this server knows (an IANA name such as Europe/Paris)`, { field: zone.field }));
    if (policies.quietHours && policies.quietHours.from === policies.quietHours.until) {
      return err(new ApiError('invalid_body', 'quietHours: from and until are the same time; quiet hours need a window', { field: 'quietHours.until' }));
    }
    const released = await admin.store.setPolicies(found.value.id, policies, admin.clock.now());
    if (released > 0) {
      // Quiet hours turned off (or a window opened) let these go with the change.
      const holds = admin as Admin & HoldDeps;
      holds.metrics?.linePolicies.inc({ policy: 'quietHours', outcome: 'released' }, released);
      holds.hub?.notify(found.value.id);
      holds.waiters?.wake(found.value.id);
    }
    account = found.value.id;
    return ok(policies);
  }, (policies) => ({ accountId: account, subject: null, detail: { ...policies } }));
}

/** The first time zone of the quiet hours that `Intl` does not know, and where it is. */
function unknownZone(policies: LinePolicies): { field: string; name: string } | null {
  const q = policies.quietHours;
  if (!q) return null;
  if (!isTimeZone(q.timeZone)) return { field: 'quietHours.timeZone', name: q.timeZone };
  for (const [conversationId, zone] of Object.entries(q.conversationTimeZones)) {
    if (!isTimeZone(zone)) return { field: `quietHours.conversationTimeZones.${conversationId}`, name: zone };
  }
  return null;
}
