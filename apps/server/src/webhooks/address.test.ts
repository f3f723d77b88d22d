import { describe, expect, it } from 'vitest';
import { checkWebhookUrl, resolveDeliveryAddress, type Resolver } from './address.ts';
import { backoffMs, retryAfterMs } from './schedule.ts';

const resolvingTo = (...addresses: string[]): Resolver => async () => addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
const url = (text: string) => new URL(text);

describe('SSRF: the address is checked after resolution, at each attempt', () => {
  it('refuses a public name that resolves to a private, link-local, CGNAT or loopback address', async () => {
    for (const address of ['10.1.2.3', '172.16.0.1', '192.168.0.10', '169.254.169.254', '100.64.0.1', '127.0.0.1', '::1', 'fe80::1', 'fd12::1', '::ffff:10.0.0.1', '0.0.0.0']) {
      await expect(resolveDeliveryAddress(url('https://hooks.example.com/'), [], resolvingTo(address)), address).rejects.toThrow(/internal address/);
    }
  });

  it('refuses when any one of the addresses is internal (the connection could go to either)', async () => {
    await expect(resolveDeliveryAddress(url('https://hooks.example.com/'), [], resolvingTo('93.184.216.34', '10.0.0.1'))).rejects.toThrow(/10\.0\.0\.1/);
  });

  it('connects to the address it checked', async () => {
    expect(await resolveDeliveryAddress(url('https://hooks.example.com/'), [], resolvingTo('93.184.216.34'))).toEqual({ address: '93.184.216.34', family: 4 });
  });

  it('lets loopback names reach loopback only, and operator-allowed hosts reach anything', async () => {
    expect((await resolveDeliveryAddress(url('http://localhost:9/'), [], resolvingTo('127.0.0.1'))).address).toBe('127.0.0.1');
    await expect(resolveDeliveryAddress(url('http://localhost:9/'), [], resolvingTo('10.0.0.1'))).rejects.toThrow();
    expect((await resolveDeliveryAddress(url('http://hooks.internal/'), ['hooks.internal'], resolvingTo('10.0.0.1'))).address).toBe('10.0.0.1');
  });

  it('stores only https URLs, except loopback and allowed hosts', () => {
    expect(checkWebhookUrl('https://example.com/h', []).ok).toBe(true);
    expect(checkWebhookUrl('http://127.0.0.1:8080/h', []).ok).toBe(true);
    expect(checkWebhookUrl('http://[::1]:8080/h', []).ok).toBe(true);
    expect(checkWebhookUrl('http://example.com/h', []).ok).toBe(false);
    expect(checkWebhookUrl('http://hooks.internal/h', ['hooks.internal']).ok).toBe(true);
    expect(checkWebhookUrl('https://10.0.0.8/h', ['hooks.internal']).ok).toBe(false);
  });
});

describe('retry schedule', () => {
  it('doubles from the base up to the cap, with full jitter', () => {
    expect([1, 2, 3, 30].map((n) => backoffMs(n, 1_000, 3_600_000, () => 1))).toEqual([1_000, 2_000, 4_000, 3_600_000]);
    expect(backoffMs(5, 1_000, 3_600_000, () => 0.5)).toBe(8_000);
  });

  it('honours Retry-After in seconds or as a date, capped', () => {
    const now = Date.UTC(2026, 0, 1);
    expect(retryAfterMs('120', now, 3_600_000)).toBe(120_000);
    expect(retryAfterMs(new Date(now + 30_000).toUTCString(), now, 3_600_000)).toBe(30_000);
    expect(retryAfterMs('999999', now, 3_600_000)).toBe(3_600_000);
    expect(retryAfterMs('soon', now, 3_600_000)).toBeNull();
    expect(retryAfterMs(null, now, 3_600_000)).toBeNull();
  });
});
