import { describe, expect, it } from 'vitest';
import {
  urlConsentHandler,
  type UrlConsentAnswer,
  type UrlConsentPrompt,
} from '../../src/client/consent/index.js';
import { callWithInput, type AttemptSender } from '../../src/client/index.js';
import type { InputContext } from '../../src/client/input-handlers.js';

const context: InputContext = { key: 'connect', signal: new AbortController().signal };
const request = (url: string) => ({
  message: 'Connect GitHub.',
  url,
  host: '',
  secure: true,
  punycode: false,
});

function handlerWith(answer: UrlConsentAnswer) {
  const prompts: UrlConsentPrompt[] = [];
  const opened: string[] = [];
  const refused: UrlConsentPrompt[] = [];
  const handler = urlConsentHandler({
    serverName: 'Acme Tools',
    serverUrl: 'https://mcp.acme.com/mcp',
    ask: (prompt) => {
      prompts.push(prompt);
      return Promise.resolve(answer);
    },
    open: (url) => {
      opened.push(url);
      return Promise.resolve();
    },
    onRefused: (prompt) => {
      refused.push(prompt);
    },
  });
  return { handler, prompts, opened, refused };
}

describe('urlConsentHandler', () => {
  it('asks with the full description and opens what the user accepted, once', async () => {
    const { handler, prompts, opened } = handlerWith('accept');
    expect(await handler.consent(request('https://mcp.acme.com/connect?ticket=t'), context)).toBe('accept');
    expect(prompts[0]).toMatchObject({
      serverName: 'Acme Tools',
      site: 'acme.com',
      message: 'Connect GitHub.',
    });
    await handler.open('https://mcp.acme.com/connect?ticket=t', context);
    expect(opened).toEqual(['https://mcp.acme.com/connect?ticket=t']);
    await expect(handler.open('https://mcp.acme.com/connect?ticket=t', context)).rejects.toThrow(
      'the user did not consent',
    );
  });

  it('opens nothing the user did not accept', async () => {
    const { handler, opened } = handlerWith('decline');
    expect(await handler.consent(request('https://mcp.acme.com/connect?ticket=t'), context)).toBe('decline');
    await expect(handler.open('https://mcp.acme.com/connect?ticket=t', context)).rejects.toThrow();
    await expect(handler.open('https://evil.example/', context)).rejects.toThrow();
    expect(opened).toEqual([]);
  });

  it('lets the user say they finished: the retry goes out as accept and nothing opens', async () => {
    const { handler, opened } = handlerWith('finished');
    expect(await handler.consent(request('https://mcp.acme.com/connect?ticket=t'), context)).toBe('accept');
    await handler.open('https://mcp.acme.com/connect?ticket=t', context);
    expect(opened).toEqual([]);
    await expect(handler.open('https://mcp.acme.com/connect?ticket=t', context)).rejects.toThrow();
  });

  it('declines a link that is not a web page without asking', async () => {
    const { handler, prompts, refused } = handlerWith('accept');
    expect(await handler.consent(request('javascript:alert(1)'), context)).toBe('decline');
    expect(prompts).toEqual([]);
    expect(refused.map((prompt) => prompt.url)).toEqual(['javascript:alert(1)']);
  });

  it('serves the retry loop: consent, open, then the retry carries only the action', async () => {
    const { handler, prompts, opened } = handlerWith('accept');
    const attempts: unknown[] = [];
    // The server side of the exchange, as the loop sees it: input_required, then complete.
    const send: AttemptSender = (params) => {
      attempts.push(params);
      return Promise.resolve(
        attempts.length === 1
          ? {
              resultType: 'input_required',
              inputRequests: {
                connect: {
                  method: 'elicitation/create',
                  params: {
                    mode: 'url',
                    message: 'Connect GitHub.',
                    url: 'https://mcp.acme.com/connect?ticket=t',
                  },
                },
              },
              requestState: 'opaque',
            }
          : { resultType: 'complete', content: [] },
      );
    };
    await callWithInput(send, { name: 'list_repos', arguments: {} }, { handlers: { url: handler } });
    expect(prompts).toHaveLength(1);
    expect(opened).toEqual(['https://mcp.acme.com/connect?ticket=t']);
    expect(attempts[1]).toEqual({
      name: 'list_repos',
      arguments: {},
      inputResponses: { connect: { action: 'accept' } },
      requestState: 'opaque',
    });
  });
});
