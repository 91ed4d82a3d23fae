import { describe, expect, it, vi } from 'vitest';
import {
  callWithInput,
  clientCapabilitiesFor,
  InputRoundsExceededError,
  InvalidServerResultError,
  UnsupportedInputRequestError,
  type AttemptSender,
  type InputHandlers,
} from '../src/client/index.js';
import type { JsonObject } from '../src/index.js';

const form = (message: string) => ({
  method: 'elicitation/create',
  params: {
    mode: 'form',
    message,
    requestedSchema: { type: 'object', properties: { v: { type: 'string' } } },
  },
});

/** A server that answers attempts from a script, recording the params of every attempt. */
function scripted(...results: unknown[]): { send: AttemptSender; attempts: JsonObject[] } {
  const attempts: JsonObject[] = [];
  return {
    attempts,
    send: (params) => {
      attempts.push(structuredClone(params));
      if (results.length === 0) throw new Error('unexpected attempt');
      return Promise.resolve(results.shift());
    },
  };
}

const handlers: InputHandlers = {
  form: (params) => Promise.resolve({ action: 'accept', content: { v: params.message } }),
};

describe('callWithInput', () => {
  it('retries with this round’s answers and the state exactly as sent, only when sent', async () => {
    const state = ' {"opaque": true}==  ';
    const server = scripted(
      { resultType: 'input_required', inputRequests: { a: form('first') } },
      { resultType: 'input_required', inputRequests: { b: form('second') }, requestState: state },
      { resultType: 'complete', content: [] },
    );
    const result = await callWithInput(server.send, { name: 't', arguments: { x: 1 } }, { handlers });
    expect(result).toEqual({ resultType: 'complete', content: [] });
    expect(server.attempts).toEqual([
      { name: 't', arguments: { x: 1 } },
      {
        name: 't',
        arguments: { x: 1 },
        inputResponses: { a: { action: 'accept', content: { v: 'first' } } },
      },
      {
        name: 't',
        arguments: { x: 1 },
        inputResponses: { b: { action: 'accept', content: { v: 'second' } } },
        requestState: state,
      },
    ]);
  });

  it('treats a result without resultType as complete', async () => {
    const server = scripted({ content: [{ type: 'text', text: 'old server' }] });
    await expect(callWithInput(server.send, { name: 't' }, { handlers })).resolves.toEqual({
      content: [{ type: 'text', text: 'old server' }],
    });
    expect(server.attempts).toHaveLength(1);
  });

  it('retries a state-only round with the state and no answers', async () => {
    const server = scripted({ resultType: 'input_required', requestState: 's' }, { resultType: 'complete' });
    await callWithInput(server.send, { name: 't' }, { handlers, stateOnlyDelayMs: 1 });
    expect(server.attempts[1]).toEqual({ name: 't', requestState: 's' });
  });

  it('gives up after maxRounds retries', async () => {
    const asking = { resultType: 'input_required', inputRequests: { a: form('again') } };
    const server = scripted(asking, asking, asking, asking);
    const error = await callWithInput(server.send, { name: 't' }, { handlers, maxRounds: 3 }).catch(
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(InputRoundsExceededError);
    expect((error as InputRoundsExceededError).lastResult).toEqual(asking);
    expect(server.attempts).toHaveLength(4);
  });

  it.each([
    ['neither inputRequests nor requestState', { resultType: 'input_required' }],
    ['a non-string requestState', { resultType: 'input_required', requestState: 3 }],
    ['a result that is not an object', 'ok'],
  ])('rejects %s', async (_name, result) => {
    await expect(callWithInput(scripted(result).send, { name: 't' }, { handlers })).rejects.toBeInstanceOf(
      InvalidServerResultError,
    );
  });

  it('refuses input it has no handler for', async () => {
    const server = scripted({ resultType: 'input_required', inputRequests: { r: { method: 'roots/list' } } });
    await expect(callWithInput(server.send, { name: 't' }, { handlers })).rejects.toBeInstanceOf(
      UnsupportedInputRequestError,
    );
  });

  it('needs the original params, without MRTR fields', async () => {
    await expect(
      callWithInput(scripted().send, { name: 't', requestState: 'x' }, { handlers }),
    ).rejects.toThrow(TypeError);
  });

  it('stops when aborted while the user is being asked, and aborts the other questions', async () => {
    const controller = new AbortController();
    const seen: AbortSignal[] = [];
    const slow: InputHandlers = {
      form: (_params, context) => {
        seen.push(context.signal);
        controller.abort(new Error('user closed the window'));
        return new Promise(() => undefined);
      },
    };
    const server = scripted({ resultType: 'input_required', inputRequests: { a: form('a') } });
    await expect(
      callWithInput(server.send, { name: 't' }, { handlers: slow, signal: controller.signal }),
    ).rejects.toThrow('user closed the window');
    expect(seen[0]?.aborted).toBe(true);
    expect(server.attempts).toHaveLength(1);
  });

  it('aborts the other questions of a round when one answer fails', async () => {
    let sibling: AbortSignal | undefined;
    const failing: InputHandlers = {
      form: (params, context) => {
        if (params.message === 'bad') return Promise.reject(new Error('renderer crashed'));
        sibling = context.signal;
        return new Promise(() => undefined);
      },
    };
    const server = scripted({
      resultType: 'input_required',
      inputRequests: { a: form('ok'), b: form('bad') },
    });
    await expect(callWithInput(server.send, { name: 't' }, { handlers: failing })).rejects.toThrow(
      'renderer crashed',
    );
    expect(sibling?.aborted).toBe(true);
  });
});

describe('URL-mode consent', () => {
  const urlRequest = (url: string) => ({
    resultType: 'input_required',
    inputRequests: {
      connect: { method: 'elicitation/create', params: { mode: 'url', url, message: 'Connect GitHub' } },
    },
  });

  it('opens nothing unless the user accepts, and shows the full URL and host first', async () => {
    const open = vi.fn(() => Promise.resolve());
    const consent = vi.fn(() => Promise.resolve('decline' as const));
    const server = scripted(urlRequest('https://xn--gthub-n4a.example/connect?ticket=1'), {
      resultType: 'complete',
    });
    await callWithInput(server.send, { name: 't' }, { handlers: { url: { consent, open } } });
    expect(consent).toHaveBeenCalledWith(
      {
        message: 'Connect GitHub',
        url: 'https://xn--gthub-n4a.example/connect?ticket=1',
        host: 'xn--gthub-n4a.example',
        secure: true,
        punycode: true,
      },
      expect.anything(),
    );
    expect(open).not.toHaveBeenCalled();
    expect(server.attempts[1]?.inputResponses).toEqual({ connect: { action: 'decline' } });
  });

  it('opens the URL only after an explicit accept', async () => {
    const order: string[] = [];
    const server = scripted(urlRequest('https://mcp.example.com/connect'), { resultType: 'complete' });
    await callWithInput(
      server.send,
      { name: 't' },
      {
        handlers: {
          url: {
            consent: () => {
              order.push('consent');
              return Promise.resolve('accept');
            },
            open: (url) => {
              order.push(`open ${url}`);
              return Promise.resolve();
            },
          },
        },
      },
    );
    expect(order).toEqual(['consent', 'open https://mcp.example.com/connect']);
    expect(server.attempts[1]?.inputResponses).toEqual({ connect: { action: 'accept' } });
  });
});

describe('clientCapabilitiesFor', () => {
  it('declares what the handlers can answer', () => {
    expect(clientCapabilitiesFor({})).toEqual({});
    expect(
      clientCapabilitiesFor({
        form: handlers.form,
        url: { consent: () => Promise.resolve('cancel'), open: () => Promise.resolve() },
        roots: () => Promise.resolve({ roots: [] }),
      }),
    ).toEqual({ elicitation: { form: {}, url: {} }, roots: {} });
  });
});
