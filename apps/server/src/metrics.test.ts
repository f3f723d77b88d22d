import { describe, expect, it } from 'vitest';
import { createMetrics } from './metrics.ts';

describe('metrics', () => {
  it('counts every increment of a hot-path counter, summed per label set, whenever the registry is read', async () => {
    const metrics = createMetrics(() => 0);
    const accepted = { type: 'message.send', routing_path: 'agent-turn', disposition: 'queued' };
    for (let i = 0; i < 3; i++) metrics.commands.inc({ ...accepted });
    metrics.commands.inc({ ...accepted, disposition: 'adopted' });
    metrics.requests.inc({ method: 'POST', route: '/v1/commands/:type', status: 202, code: '' });
    let text = await metrics.registry.metrics();
    expect(text).toContain('switchboard_commands_accepted_total{type="message.send",routing_path="agent-turn",disposition="queued"} 3');
    expect(text).toContain('switchboard_commands_accepted_total{type="message.send",routing_path="agent-turn",disposition="adopted"} 1');
    expect(text).toContain('switchboard_http_requests_total{method="POST",route="/v1/commands/:type",status="202",code=""} 1');
    metrics.commands.inc({ ...accepted });
    text = await metrics.registry.metrics();
    expect(text).toContain('disposition="queued"} 4');
    expect(text).toContain('disposition="adopted"} 1');
  });
});
