import { randomBytes } from 'node:crypto';
import { describe, expect, it, vi } from 'vitest';
import {
  generateStateKeySecret,
  Keyring,
  RequestStateSealer,
  RuntimeConfigError,
  type RequestStateBinding,
} from '../src/index.js';

const secret = () => randomBytes(32).toString('base64url');
const binding: RequestStateBinding = {
  principal: 'alice',
  request: { method: 'tools/call', target: 'deploy', arguments: {} },
};

describe('Keyring.fromEnv', () => {
  it('reads the current key first and previous keys after it', () => {
    const keyring = Keyring.fromEnv('KEYS', {
      KEYS: `k2:${secret()}, k1:${randomBytes(48).toString('base64')}`,
    });
    expect(keyring.currentId).toBe('k2');
    expect(keyring.get('k1')).toBeDefined();
    expect(keyring.get('k3')).toBeUndefined();
  });

  it('accepts a generated secret', () => {
    expect(Keyring.fromEnv('KEYS', { KEYS: `main:${generateStateKeySecret()}` }).currentId).toBe('main');
  });

  it.each([
    ['an entry without an id', { KEYS: secret() }, /^KEYS: entry 1 must look like "id:base64secret"/],
    ['a secret that is not base64', { KEYS: 'k1:not*base64' }, /^KEYS: entry 1 must look like/],
    [
      'a short key',
      { KEYS: `k1:${randomBytes(16).toString('base64')}` },
      /^KEYS: key "k1" is 16 bytes; .* at least 32/,
    ],
    ['a repeated id', { KEYS: `k1:${secret()},k1:${secret()}` }, /^KEYS: key id "k1" appears twice/],
    ['a bad id', { KEYS: `k.1:${secret()}` }, /^KEYS: key id "k.1" must be/],
  ])('takes %s at construction and refuses it at first use', (_name, env, message) => {
    for (const whenUnset of ['fail', 'per-process-key'] as const) {
      const keyring = Keyring.fromEnv({ variable: 'KEYS', env, whenUnset });
      expect(() => keyring.current).toThrow(RuntimeConfigError);
      expect(() => keyring.get('k1')).toThrow(message);
    }
  });

  it.each([
    ['a missing variable', {}],
    ['an empty variable', { KEYS: '  ' }],
  ])('fails closed at first use on %s, saying how to set and generate keys', (_name, env) => {
    const keyring = Keyring.fromEnv('KEYS', env);
    expect(() => keyring.current).toThrow(RuntimeConfigError);
    expect(() => keyring.currentId).toThrow(/^KEYS is not set, .* Set it to "id:base64secret" entries/);
    expect(() => keyring.get('k1')).toThrow(/randomBytes\(32\)\.toString\('base64url'\)/);
  });

  it('reads MCP_MRTR_STATE_KEYS of process.env, at first use rather than at construction', () => {
    const before = process.env.MCP_MRTR_STATE_KEYS;
    delete process.env.MCP_MRTR_STATE_KEYS;
    try {
      const keyring = Keyring.fromEnv();
      expect(() => keyring.current).toThrow(/^MCP_MRTR_STATE_KEYS is not set/);
      process.env.MCP_MRTR_STATE_KEYS = `late:${secret()}`;
      expect(keyring.currentId).toBe('late');
    } finally {
      if (before === undefined) delete process.env.MCP_MRTR_STATE_KEYS;
      else process.env.MCP_MRTR_STATE_KEYS = before;
    }
  });

  it('takes its options as an object', () => {
    const keyring = Keyring.fromEnv({ variable: 'KEYS', env: { KEYS: `main:${secret()}` } });
    expect(keyring.currentId).toBe('main');
  });
});

describe("Keyring.fromEnv({ whenUnset: 'per-process-key' })", () => {
  const notices = () => {
    const lines: string[] = [];
    const write = vi.spyOn(process.stderr, 'write').mockImplementation((chunk) => {
      lines.push(String(chunk));
      return true;
    });
    return { lines, [Symbol.dispose]: () => write.mockRestore() };
  };

  it('seals with a random key of this process, announced in one line on stderr at first use', async () => {
    using stderr = notices();
    const keyring = Keyring.fromEnv({ variable: 'KEYS', env: {}, whenUnset: 'per-process-key' });
    expect(stderr.lines).toEqual([]);
    const sealer = new RequestStateSealer({ keyring });
    const token = sealer.seal({ step: 2 }, binding);
    expect(await sealer.open(token, binding)).toEqual({ step: 2 });
    expect(stderr.lines).toHaveLength(1);
    expect(stderr.lines[0]).toMatch(
      /^mcp-mrtr: KEYS is not set; .*stdio server only. .*set KEYS to "id:base64secret"[^\n]*\n$/,
    );
    expect(keyring.get('process')).toBeDefined();
  });

  it('gives each keyring its own key, so another process cannot open its tokens', async () => {
    using _stderr = notices();
    const options = { variable: 'KEYS', env: {}, whenUnset: 'per-process-key' } as const;
    const token = new RequestStateSealer({ keyring: Keyring.fromEnv(options) }).seal({ step: 2 }, binding);
    await expect(
      new RequestStateSealer({ keyring: Keyring.fromEnv(options) }).open(token, binding),
    ).rejects.toMatchObject({ reason: 'mac' });
  });

  it('uses the variable when it is set, without a notice', () => {
    using stderr = notices();
    const keyring = Keyring.fromEnv({
      variable: 'KEYS',
      env: { KEYS: `k9:${secret()}` },
      whenUnset: 'per-process-key',
    });
    expect(keyring.currentId).toBe('k9');
    expect(stderr.lines).toEqual([]);
  });
});

describe('Keyring.fromProvider', () => {
  it('loads keys from an async provider', async () => {
    const keyring = await Keyring.fromProvider(() =>
      Promise.resolve({ current: { id: 'vault', secret: randomBytes(32) } }),
    );
    expect(keyring.currentId).toBe('vault');
  });

  it('refuses a short key from a provider', async () => {
    await expect(
      Keyring.fromProvider(() => ({ current: { id: 'vault', secret: new Uint8Array(31) } })),
    ).rejects.toThrow(/key "vault" is 31 bytes/);
  });
});
