/**
 * The vendor mocks' usage limit (test/fixtures/mocks/common.mjs), which the limits lane and the
 * `limited` state's tests lean on: a prompt with the trigger is answered with the vendor's limit
 * error and reset, every answer until the reset is too, then answers are normal again, and the same
 * trigger carried on in the conversation does not start it again (a new one does).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startMock, type Mock } from '../agents/lane.js';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ab-mock-limits-'));
const mocks: Mock[] = [];
afterAll(() => {
  for (const m of mocks) m.stop();
  fs.rmSync(dir, { recursive: true, force: true });
});

async function mock(vendor: string, resetS: number): Promise<Mock> {
  const m = await startMock(vendor, path.join(dir, `${vendor}.jsonl`), 0, { MOCK_LIMIT_RESET_S: String(resetS) });
  mocks.push(m);
  return m;
}
const post = (url: string, body: unknown) => fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

describe('the mocks answer with a usage limit on a trigger', () => {
  it('Anthropic: 429 with the unified rate-limit headers; normal again after the reset; a trigger fires once', async () => {
    const m = await mock('anthropic', 1.5);
    const ask = (text: string) => post(`${m.url}/v1/messages`, { model: 'x', stream: true, messages: [{ role: 'user', content: text }] });
    expect((await ask('hello')).status).toBe(200);
    const t0 = Date.now();
    const r = await ask('hello usage-limit-now');
    expect(r.status).toBe(429);
    expect(r.headers.get('anthropic-ratelimit-unified-status')).toBe('rejected');
    expect(r.headers.get('anthropic-ratelimit-unified-representative-claim')).toBe('five_hour');
    const reset = Number(r.headers.get('anthropic-ratelimit-unified-reset')) * 1000;
    expect(reset - t0).toBeGreaterThanOrEqual(1000);
    expect(reset - t0).toBeLessThanOrEqual(3000);
    expect(((await r.json()) as { error: { type: string } }).error.type).toBe('rate_limit_error');
    const logged = m.entries().find((e) => e.ev === 'limit');
    expect(Date.parse(logged!.resetAt!)).toBe(reset);
    // Limited until the reset, whatever the prompt.
    expect((await ask('anything')).status).toBe(429);
    await new Promise((res) => setTimeout(res, reset - Date.now() + 50));
    const after = await ask('hello usage-limit-now');
    expect(after.status, 'the conversation still carries the trigger: no new limit').toBe(200);
    await after.text();
    expect((await ask('again usage-limit-now-2')).status, 'a new trigger starts a new limit').toBe(429);
  });

  it('OpenAI Responses (Codex): usage_limit_reached with resets_at; Chat Completions (pi): rate_limit_exceeded with the wait in words', async () => {
    const m = await mock('openai', 7200);
    const r = await post(`${m.url}/v1/responses`, { model: 'x', stream: true, input: 'usage-limit-now' });
    expect(r.status).toBe(429);
    const body = (await r.json()) as { error: { type: string; resets_at: number; resets_in_seconds: number } };
    expect(body.error.type).toBe('usage_limit_reached');
    expect(body.error.resets_at * 1000 - Date.now()).toBeGreaterThan(7100_000);
    const c = await post(`${m.url}/v1/chat/completions`, { model: 'x', stream: true, messages: [] });
    expect(c.status).toBe(429);
    const chat = (await c.json()) as { error: { code: string; message: string } };
    expect(chat.error.code).toBe('rate_limit_exceeded');
    expect(chat.error.message).toMatch(/Please try again in (1h59m5\ds|2h0m[01]s)\./);
    expect(c.headers.get('x-ratelimit-remaining-requests')).toBe('0');
  });

  it('Gemini: 429 RESOURCE_EXHAUSTED with a RetryInfo delay to the reset', async () => {
    const m = await mock('gemini', 7200);
    const r = await post(`${m.url}/v1beta/models/m:streamGenerateContent?alt=sse`, { contents: [{ role: 'user', parts: [{ text: 'usage-limit-now' }] }] });
    expect(r.status).toBe(429);
    const { error } = (await r.json()) as { error: { status: string; details: { '@type': string; retryDelay?: string }[] } };
    expect(error.status).toBe('RESOURCE_EXHAUSTED');
    const retry = error.details.find((d) => d['@type'].endsWith('RetryInfo'));
    expect(Number(/^(\d+)s$/.exec(retry!.retryDelay!)![1])).toBeGreaterThan(7190);
  });
});
