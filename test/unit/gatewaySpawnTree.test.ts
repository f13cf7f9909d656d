import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from './helpers/test.js';
import { coreHarness, rpcError } from './helpers/gatewayHarness.js';

interface Saved {
  path: string;
  session_id: string;
}

test('spawn_tree.save writes under <dataDir>/spawn-trees/<session>, list is newest first, load returns the file', async () => {
  const harness = coreHarness();
  const client = harness.client();
  const first = await client.call<Saved>('spawn_tree.save', { subagents: [{ id: 'a' }], session_id: 'k1', label: 'first', started_at: 1, finished_at: 2 });
  const second = await client.call<Saved>('spawn_tree.save', { subagents: [{ id: 'b' }, { id: 'c' }], session_id: 'k1' });
  const fallback = await client.call<Saved>('spawn_tree.save', { subagents: [] });
  expect(first.path.startsWith(join(harness.dataDir, 'spawn-trees', 'k1'))).toBe(true);
  expect(fallback.session_id).toBe('default');
  const listed = await client.call<{ entries: Array<Record<string, unknown>> }>('spawn_tree.list', { session_id: 'k1' });
  expect(listed.entries.map((entry) => entry['path'])).toEqual([second.path, first.path]);
  expect(listed.entries[1]).toEqual({ path: first.path, session_id: 'k1', started_at: 1, finished_at: 2, label: 'first', count: 1 });
  const all = await client.call<{ entries: unknown[] }>('spawn_tree.list', { session_id: 'k1', cross_session: true, limit: 2 });
  expect(all.entries).toHaveLength(2);
  expect((await client.call<{ entries: unknown[] }>('spawn_tree.list', {})).entries).toHaveLength(3);
  expect(await client.call('spawn_tree.load', { path: first.path })).toEqual({ session_id: 'k1', started_at: 1, finished_at: 2, label: 'first', subagents: [{ id: 'a' }] });
  harness.close();
});

test('a session id cannot steer the snapshot out of the spawn-trees root', async () => {
  const harness = coreHarness();
  const client = harness.client();
  const saved = await client.call<Saved>('spawn_tree.save', { subagents: [], session_id: '../../escape' });
  expect(saved.path.startsWith(join(harness.dataDir, 'spawn-trees') + '/')).toBe(true);
  expect(await client.call('spawn_tree.load', { path: saved.path })).toMatchObject({ session_id: '../../escape' });
  harness.close();
});

test('spawn_tree.load refuses a path outside the root (4032), including through a symbolic link', async () => {
  const harness = coreHarness();
  const client = harness.client();
  await client.call('spawn_tree.save', { subagents: [], session_id: 'k' });
  const outsideFile = join(harness.dataDir, 'outside.json');
  writeFileSync(outsideFile, '{"secret": true}');
  const root = join(harness.dataDir, 'spawn-trees');
  mkdirSync(join(root, 'links'), { recursive: true });
  symlinkSync(outsideFile, join(root, 'links', 'sneaky.json'));
  for (const path of [outsideFile, '/etc/passwd', join(root, '..', 'outside.json'), '../outside.json', join(root, 'links', 'sneaky.json'), root]) {
    expect((await rpcError(client.call('spawn_tree.load', { path }))).code, path).toBe(4032);
  }
  expect(await rpcError(client.call('spawn_tree.load', { path: join(root, 'k', 'missing.json') }))).toMatchObject({ code: 4000 });
  expect(await rpcError(client.call('spawn_tree.load', { path: '' }))).toEqual({ code: 4000, message: 'path required' });
  harness.close();
});
