import { describe, expect, it } from 'vitest';
import {
  clientHasCapability,
  isInputRequestMethod,
  isMrtrEligibleMethod,
  requiredClientCapability,
} from '../src/index.js';

describe('requiredClientCapability', () => {
  it.each([
    [
      { method: 'elicitation/create', params: { message: 'm', requestedSchema: {} } },
      ['elicitation', 'form'],
    ],
    [{ method: 'elicitation/create', params: { mode: 'form' } }, ['elicitation', 'form']],
    [{ method: 'elicitation/create', params: { mode: 'url', url: 'https://x' } }, ['elicitation', 'url']],
    [{ method: 'sampling/createMessage', params: { messages: [], maxTokens: 1 } }, ['sampling']],
    [{ method: 'sampling/createMessage', params: { tools: [] } }, ['sampling', 'tools']],
    [{ method: 'sampling/createMessage', params: { toolChoice: { mode: 'auto' } } }, ['sampling', 'tools']],
    [{ method: 'roots/list' }, ['roots']],
  ])('%j needs %j', (request, path) => {
    expect(requiredClientCapability(request)?.path).toEqual(path);
  });

  it('builds the requiredCapabilities object that -32021 reports', () => {
    expect(
      requiredClientCapability({ method: 'elicitation/create', params: { mode: 'url' } })?.capabilities,
    ).toEqual({
      elicitation: { url: {} },
    });
    expect(requiredClientCapability({ method: 'roots/list' })?.capabilities).toEqual({ roots: {} });
  });

  it('has no requirement for methods that cannot be embedded', () => {
    expect(requiredClientCapability({ method: 'tools/call' })).toBeUndefined();
  });
});

describe('clientHasCapability', () => {
  const form = requiredClientCapability({ method: 'elicitation/create' });
  const url = requiredClientCapability({ method: 'elicitation/create', params: { mode: 'url' } });
  const sampling = requiredClientCapability({ method: 'sampling/createMessage' });
  const samplingTools = requiredClientCapability({ method: 'sampling/createMessage', params: { tools: [] } });
  if (!form || !url || !sampling || !samplingTools) throw new Error('requirements missing');

  it('treats a bare elicitation object as form only', () => {
    expect(clientHasCapability({ elicitation: {} }, form)).toBe(true);
    expect(clientHasCapability({ elicitation: {} }, url)).toBe(false);
  });

  it('reads form and url sub-capabilities', () => {
    expect(clientHasCapability({ elicitation: { url: {} } }, form)).toBe(false);
    expect(clientHasCapability({ elicitation: { url: {} } }, url)).toBe(true);
    expect(clientHasCapability({ elicitation: { form: {}, url: {} } }, form)).toBe(true);
  });

  it('distinguishes sampling from sampling with tools', () => {
    expect(clientHasCapability({ sampling: {} }, sampling)).toBe(true);
    expect(clientHasCapability({ sampling: {} }, samplingTools)).toBe(false);
    expect(clientHasCapability({ sampling: { tools: {} } }, samplingTools)).toBe(true);
  });

  it('never trusts malformed declarations', () => {
    expect(clientHasCapability(undefined, form)).toBe(false);
    expect(clientHasCapability('elicitation', form)).toBe(false);
    expect(clientHasCapability({ elicitation: true }, form)).toBe(false);
    expect(clientHasCapability({ elicitation: { url: true } }, url)).toBe(false);
    expect(clientHasCapability({ sampling: [] }, sampling)).toBe(false);
  });
});

describe('method sets', () => {
  it('allows input_required only on the three eligible methods', () => {
    expect(['tools/call', 'resources/read', 'prompts/get'].every(isMrtrEligibleMethod)).toBe(true);
    expect(
      ['tools/list', 'completion/complete', 'resources/subscribe', 'initialize'].some(isMrtrEligibleMethod),
    ).toBe(false);
  });

  it('knows which requests may be embedded', () => {
    expect(isInputRequestMethod('roots/list')).toBe(true);
    expect(isInputRequestMethod('ping')).toBe(false);
  });
});
