import { describe, expect, it } from 'vitest';
import { principalFromAuth } from '../src/index.js';

describe('principalFromAuth', () => {
  it('prefers the user over the client they use', () => {
    expect(principalFromAuth({ clientId: 'desktop-app', extra: { sub: 'user-42' } })).toBe('user-42');
  });

  it('falls back to the OAuth client, then to anonymous', () => {
    expect(principalFromAuth({ clientId: 'desktop-app' })).toBe('desktop-app');
    expect(principalFromAuth({ clientId: 'desktop-app', extra: { sub: 42 } })).toBe('desktop-app');
    expect(principalFromAuth({ clientId: 'desktop-app', extra: { sub: '' } })).toBe('desktop-app');
    expect(principalFromAuth(undefined)).toBe('anonymous');
  });
});
