import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { startRoundRobinProxy, type RoundRobinProxy } from './roundRobinProxy';

const servers: Server[] = [];
let proxy: RoundRobinProxy | undefined;
afterEach(async () => {
  await proxy?.close();
  for (const s of servers.splice(0)) s.close();
});

/** A target that answers its name, or (`hangUp`) drops every request after reading it. */
async function target(name: string, hangUp = false): Promise<string> {
  const s = createServer((req, res) => {
    req.resume();
    req.on('end', () => (hangUp ? req.socket.destroy() : res.end(name)));
  });
  servers.push(s);
  await new Promise<void>((ok) => s.listen(0, '127.0.0.1', ok));
  return `http://127.0.0.1:${(s.address() as AddressInfo).port}`;
}

/** A loopback URL where nothing listens: a server opened and closed. */
async function deadTarget(): Promise<string> {
  const s = createServer();
  await new Promise<void>((ok) => s.listen(0, '127.0.0.1', ok));
  const url = `http://127.0.0.1:${(s.address() as AddressInfo).port}`;
  await new Promise((ok) => s.close(ok));
  return url;
}

describe('the round-robin proxy of the multi-instance tests', () => {
  it('sends requests to each target in turn', async () => {
    proxy = await startRoundRobinProxy([await target('a'), await target('b')]);
    const names = [];
    for (let i = 0; i < 4; i++) names.push(await (await fetch(proxy.url)).text());
    expect(names).toEqual(['a', 'b', 'a', 'b']);
  });
  it('skips a target that refuses the connection', async () => {
    proxy = await startRoundRobinProxy([await deadTarget(), await target('b')]);
    const r = await fetch(proxy.url, { method: 'POST', body: 'x' });
    expect(await r.text()).toBe('b');
  });
  it('answers 502 in the spec error body when a target fails after the request reached it', async () => {
    proxy = await startRoundRobinProxy([await target('a', true)]);
    const r = await fetch(proxy.url, { method: 'POST', body: 'x' });
    expect(r.status).toBe(502);
    expect(((await r.json()) as { error: { type: string } }).error.type).toBe('api_error');
  });
});
