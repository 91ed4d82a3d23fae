// URL-mode benchmarks; every figure is a ratio against a baseline measured in the same run.
//  1. A handler round that asks through a connect flow (ConnectFlows.step on a memory store: a flow
//     record, a ticket record, two random values and a hash), against a round that returns a fixed
//     elicitUrl request, both through MrtrRuntime.runRound with sealed state.
//  2. A retry round that finds the flow completed (reads the flow and completion records), against a
//     retry round that completes from its opened state alone.
//  3. describeUrlForConsent (Public Suffix List lookup, script and look-alike checks) against
//     parsing the same URL with `new URL`.
import { randomBytes } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { elicitUrl, Keyring, MrtrRuntime, type JsonObject, type Round } from '@mcp-mrtr/runtime';
import { describeUrlForConsent } from '@mcp-mrtr/runtime/client/consent';
import { ConnectFlows, MemoryUrlFlowStore, type ConnectFlowRef } from '@mcp-mrtr/runtime/url-mode';

function summary(label: string, value: string): void {
  console.log(`${label.padEnd(60)} ${value}`);
}

/** Operations per second of each subject, in alternating timed batches; each keeps its best. */
async function throughput(subjects: Record<string, () => unknown>, batch: number, rounds = 7) {
  const best: Record<string, number> = {};
  for (let round = 0; round <= rounds; round++) {
    for (const [name, run] of Object.entries(subjects)) {
      const started = performance.now();
      for (let i = 0; i < batch; i++) await run();
      const rate = batch / ((performance.now() - started) / 1000);
      if (round > 0) best[name] = Math.max(best[name] ?? 0, rate);
    }
  }
  return best;
}

const runtime = new MrtrRuntime({ keyring: new Keyring({ current: { id: 'k', secret: randomBytes(32) } }) });
const flows = new ConnectFlows({
  store: new MemoryUrlFlowStore(),
  connectUrl: 'https://mcp.example.com/connect',
  providers: {
    github: {
      authorizationUrl: ({ state }) => `https://github.example/authorize?state=${state}`,
      complete: () => ({}),
    },
  },
});
const fixed = elicitUrl({ message: 'Connect GitHub.', url: 'https://mcp.example.com/connect?ticket=fixed' });

type State = { github: ConnectFlowRef };
const call = (state?: unknown) => ({
  request: { method: 'tools/call' as const, target: 'list_repos', arguments: {} },
  args: {} as JsonObject,
  principal: 'user-7f3a',
  clientCapabilities: { elicitation: { url: {} } },
  inputResponses: state === undefined ? undefined : { github: { action: 'accept' } },
  ...(state !== undefined && { state: { opened: state } }),
});

const baseline = (_args: JsonObject, round: Round<State>) =>
  round.inputRequired({ inputRequests: { github: fixed }, state: { github: { id: 'f', ticket: 't' } } });

const plainRetry = (_args: JsonObject, round: Round<State>) => ({
  content: [{ type: 'text', text: round.state?.github.id ?? '' }],
});

const viaFlows = async (_args: JsonObject, round: Round<State>) => {
  const step = await flows.step(round, {
    key: 'github',
    provider: 'github',
    message: 'Connect GitHub.',
    flow: round.state?.github,
  });
  if (step.status === 'pending') {
    return round.inputRequired({ inputRequests: step.inputRequests, state: { github: step.flow } });
  }
  return { content: [{ type: 'text', text: step.status }] };
};

// A flow the callback has completed, for the retry subject.
let completed: ConnectFlowRef | undefined;
await runtime.runRound(async (args: JsonObject, round: Round<State>) => {
  const step = await flows.step(round, { key: 'github', provider: 'github', message: 'm', flow: undefined });
  if (step.status !== 'pending') throw new Error('expected a pending flow');
  completed = step.flow;
  const decision = await flows.openTicket(step.flow.ticket, 'user-7f3a');
  if (decision.outcome !== 'redirect') throw new Error('expected a redirect');
  const state = new URL(decision.location).searchParams.get('state') ?? '';
  await flows.finishCallback(new URLSearchParams({ state, code: 'c' }), 'user-7f3a');
  return baseline(args, round);
}, call());

const rounds = await throughput(
  {
    baseline: () => runtime.runRound(baseline, call()),
    firstRound: () => runtime.runRound(viaFlows, call()),
    plainRetry: () => runtime.runRound(plainRetry, call({ github: completed })),
    completedRetry: () => runtime.runRound(viaFlows, call({ github: completed })),
  },
  2_000,
);
summary(
  'connect-flow first round / fixed elicitUrl round',
  `${(rounds.baseline! / rounds.firstRound!).toFixed(2)}x the time`,
);
summary(
  'connect-flow completed retry / retry from opened state',
  `${(rounds.plainRetry! / rounds.completedRetry!).toFixed(2)}x the time`,
);

const links = [
  'https://mcp.example.com/connect?ticket=AbCdEf',
  'https://github.com.evil.example/login',
  'https://xn--80ak6aa92e.com/',
  'https://login.paypal.co.uk.attacker.io/',
];
let next = 0;
const prompts = await throughput(
  {
    parse: () => new URL(links[next++ % links.length]!),
    describe: () =>
      describeUrlForConsent(links[next++ % links.length]!, {
        serverName: 'Acme',
        message: 'Connect.',
        serverUrl: 'https://mcp.example.com/mcp',
      }),
  },
  5_000,
);
summary('describeUrlForConsent / new URL', `${(prompts.parse! / prompts.describe!).toFixed(1)}x the time`);
