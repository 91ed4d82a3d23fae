import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  createMessage,
  elicitForm,
  elicitUrl,
  JournalFormatError,
  Keyring,
  MrtrRuntime,
  type InputRequest,
  type InputRequiredResult,
  type Journal,
  type JsonObject,
  type ToolHandler,
  type ToolResult,
} from '../src/index.js';

// A requestState sealed by one deploy may be retried against the next: round 1 runs version A of
// a handler, round 2 version B. An answer is replayed only to the question it answered, and a
// journal of another format ends the call with an error that says to start again.

const runtime = new MrtrRuntime({ keyring: new Keyring({ current: { id: 'k', secret: randomBytes(32) } }) });
const request = { method: 'tools/call', target: 'deploy', arguments: {} } as const;

function text(value: string): ToolResult {
  return { content: [{ type: 'text', text: value }] };
}

const confirm = (message: string, property = 'yes') =>
  elicitForm({
    message,
    requestedSchema: {
      type: 'object',
      properties: { [property]: { type: 'boolean' } },
      required: [property],
    },
  });

/** A deploy tool that asks `question` under the key `confirm`, then reports the answer it got. */
const deployAsking =
  (question: InputRequest): ToolHandler =>
  async (_args, round) => {
    const answer = await round.ask('confirm', question);
    return text(`answered ${JSON.stringify(answer)}`);
  };

async function round(
  handler: ToolHandler,
  state?: string,
  inputResponses: JsonObject = {},
): Promise<ToolResult | InputRequiredResult> {
  return runtime.runRound(handler, {
    request,
    args: {},
    principal: 'ada',
    clientCapabilities: { elicitation: { form: {}, url: {} }, sampling: {} },
    inputResponses,
    ...(state !== undefined && { state: { token: state } }),
  });
}

function stateOf(result: ToolResult | InputRequiredResult): string {
  if (!('requestState' in result) || typeof result.requestState !== 'string') {
    throw new Error(`no requestState in ${JSON.stringify(result)}`);
  }
  return result.requestState;
}

const accepted = { action: 'accept', content: { yes: true } };
const asked = (result: ToolResult | InputRequiredResult) =>
  'inputRequests' in result ? result.inputRequests?.confirm : undefined;

const versionA = confirm('Deploy to staging?');
const edits: [string, InputRequest, JsonObject][] = [
  ['a reworded message', confirm('Deploy to production?'), accepted],
  ['a changed schema', confirm('Deploy to staging?', 'sure'), { action: 'accept', content: { sure: true } }],
  [
    'a different kind of request',
    createMessage({ messages: [{ role: 'user', content: { type: 'text', text: 'Deploy?' } }], maxTokens: 5 }),
    { role: 'assistant', content: { type: 'text', text: 'yes' }, model: 'm' },
  ],
];

describe('a handler edited between rounds', () => {
  it.each(edits)(
    'asks again, rather than take an answer sent to the old question, after %s',
    async (_what, versionB, answerB) => {
      const first = await round(deployAsking(versionA));
      expect(asked(first)).toEqual(versionA);
      // The client answers version A's question; version B of the handler receives it.
      const second = await round(deployAsking(versionB), stateOf(first), { confirm: accepted });
      expect(second).toMatchObject({ resultType: 'input_required' });
      expect(asked(second)).toEqual(versionB);
      const third = await round(deployAsking(versionB), stateOf(second), { confirm: answerB });
      expect(third).toEqual(text(`answered ${JSON.stringify(answerB)}`));
    },
  );

  it.each(edits)(
    'drops a journaled answer to the old question after %s, and asks the new one',
    async (_what, versionB, answerB) => {
      // Version A records the answer, then waits on a second question.
      const twoQuestions =
        (question: InputRequest): ToolHandler =>
        async (_args, round) => {
          const first = await round.ask('confirm', question);
          const second = await round.ask('really', confirm('Really?'));
          return text(`answered ${JSON.stringify(first)} then ${JSON.stringify(second)}`);
        };
      const first = await round(twoQuestions(versionA));
      const second = await round(twoQuestions(versionA), stateOf(first), { confirm: accepted });
      expect(second).toMatchObject({ inputRequests: { really: {} } });
      const third = await round(twoQuestions(versionB), stateOf(second), { really: accepted });
      expect(asked(third)).toEqual(versionB);
      // The answer to "Really?" came with a round that stopped at the changed question: asked again.
      const fourth = await round(twoQuestions(versionB), stateOf(third), { confirm: answerB });
      expect(fourth).toMatchObject({ inputRequests: { really: {} } });
      const fifth = await round(twoQuestions(versionB), stateOf(fourth), { really: accepted });
      expect(fifth).toEqual(text(`answered ${JSON.stringify(answerB)} then ${JSON.stringify(accepted)}`));
    },
  );

  it('replays the answer when only what may change every round changed (a URL with a fresh ticket)', async () => {
    const link = (ticket: string) =>
      elicitUrl({ message: 'Connect GitHub', url: `https://mcp.example/connect?t=${ticket}` });
    const first = await round(deployAsking(link('one')));
    const second = await round(deployAsking(link('two')), stateOf(first), { confirm: { action: 'accept' } });
    expect(second).toEqual(text('answered {"action":"accept"}'));
  });
});

describe('a journal of another format', () => {
  it('ends the call with a -32602 that says to start again, and runs nothing', async () => {
    // What this runtime sealed before journal formats were numbered.
    const unnumbered = { e: [{ k: 'confirm', t: 'a', v: accepted }], p: ['again'] } as unknown as Journal;
    const token = runtime.sealer.sealRound(
      { value: undefined, journal: unnumbered },
      { principal: 'ada', request },
    );
    let ran = false;
    const handler: ToolHandler = async (_args, round) => {
      ran = true;
      return deployAsking(versionA)(_args, round);
    };
    const failure = await round(handler, token).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(JournalFormatError);
    expect((failure as JournalFormatError).toJson()).toEqual({
      code: -32602,
      message:
        'requestState holds a journal in format 1, written by another version of this server, which reads format 2: its answers cannot be replayed. Start the call again without requestState.',
      data: { reason: 'incompatible_journal' },
    });
    expect(ran).toBe(false);
  });

  it('is refused only after the token verified: a forged one stays an opaque refusal', async () => {
    const unnumbered = { e: [] } as unknown as Journal;
    const token = runtime.sealer.sealRound(
      { value: undefined, journal: unnumbered },
      { principal: 'eve', request },
    );
    await expect(round(deployAsking(versionA), token)).rejects.toMatchObject({
      message: 'Invalid or expired requestState',
      reason: 'principal',
    });
  });
});
