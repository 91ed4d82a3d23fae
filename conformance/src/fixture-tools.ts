import {
  createMessage,
  elicitForm,
  listRoots,
  type ContentBlock,
  type InputRequiredResult,
  type Round,
  type ToolResult,
} from '@mcp-mrtr/runtime';
import { definePrompt, defineTool } from '@mcp-mrtr/runtime/http';

// The fixtures the official conformance scenarios call (input-required-result-*), written the way
// a migrated handler reads: stable keys, typed answers, state sealed by the runtime.

const askName = (message = 'What is your name?') =>
  elicitForm({
    message,
    requestedSchema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] },
  });

const askColor = elicitForm({
  message: 'Step 2: What is your favorite color?',
  requestedSchema: { type: 'object', properties: { color: { type: 'string' } }, required: ['color'] },
});

const askConfirmation = elicitForm({
  message: 'Please confirm',
  requestedSchema: { type: 'object', properties: { ok: { type: 'boolean' } }, required: ['ok'] },
});

const askContext = elicitForm({
  message: 'What context should the prompt use?',
  requestedSchema: { type: 'object', properties: { context: { type: 'string' } }, required: ['context'] },
});

const askCapital = createMessage({
  messages: [{ role: 'user', content: { type: 'text', text: 'What is the capital of France?' } }],
  maxTokens: 100,
});

const askGreeting = createMessage({
  messages: [{ role: 'user', content: { type: 'text', text: 'Generate a greeting' } }],
  maxTokens: 50,
});

function text(message: string): ToolResult {
  return { content: [{ type: 'text', text: message }] };
}

function textOf(content: ContentBlock | readonly ContentBlock[]): string {
  const blocks: readonly ContentBlock[] = Array.isArray(content) ? content : [content as ContentBlock];
  return blocks.map((block) => (typeof block.text === 'string' ? block.text : `[${block.type}]`)).join(' ');
}

type Confirmation = { readonly step: 'confirm' };
type Steps = { readonly step: 'name' } | { readonly step: 'color'; readonly name: string };

function confirmation(round: Round<Confirmation>): ToolResult | InputRequiredResult {
  const answer = round.elicitation('confirm', askConfirmation);
  if (round.state?.step !== 'confirm' || !answer) {
    return round.inputRequired({ inputRequests: { confirm: askConfirmation }, state: { step: 'confirm' } });
  }
  if (answer.action !== 'accept') return text(`Not confirmed (${answer.action}).`);
  return text(answer.content.ok ? 'state-ok: confirmed' : 'state-ok: not confirmed');
}

export const fixtureTools = {
  test_input_required_result_elicitation: defineTool({
    description: 'Asks for the user name, then greets.',
    handler: (_args, round) => {
      const answer = round.elicitation('user_name', askName());
      if (!answer) return round.inputRequired({ inputRequests: { user_name: askName() } });
      if (answer.action !== 'accept') return text(`No name given (${answer.action}).`);
      return text(`Hello, ${answer.content.name}!`);
    },
  }),

  test_input_required_result_sampling: defineTool({
    description: "Asks the client's model a question.",
    handler: (_args, round) => {
      const reply = round.sampling('capital_question');
      if (!reply) return round.inputRequired({ inputRequests: { capital_question: askCapital } });
      return text(`The model says: ${textOf(reply.content)}`);
    },
  }),

  test_input_required_result_list_roots: defineTool({
    description: "Reads the client's roots.",
    handler: (_args, round) => {
      const roots = round.roots('client_roots');
      if (!roots) return round.inputRequired({ inputRequests: { client_roots: listRoots() } });
      return text(`Roots: ${roots.map((root) => root.uri).join(', ') || '(none)'}`);
    },
  }),

  test_input_required_result_request_state: defineTool({
    description: 'Asks for confirmation and carries sealed state to the next round.',
    handler: (_args, round: Round<Confirmation>) => confirmation(round),
  }),

  test_input_required_result_tampered_state: defineTool({
    description: 'Like the request-state tool; a tampered requestState is refused with -32602.',
    handler: (_args, round: Round<Confirmation>) => confirmation(round),
  }),

  test_input_required_result_multiple_inputs: defineTool({
    description: 'Asks for a name, a generated greeting and the roots in one round.',
    handler: (_args, round: Round<{ readonly asked: true }>) => {
      const name = round.elicitation('user_name', askName());
      const greeting = round.sampling('greeting');
      const roots = round.roots('client_roots');
      if (!round.state || !name || !greeting || !roots) {
        return round.inputRequired({
          inputRequests: {
            ...(!name && { user_name: askName() }),
            ...(!greeting && { greeting: askGreeting }),
            ...(!roots && { client_roots: listRoots() }),
          },
          state: { asked: true },
        });
      }
      const who = name.action === 'accept' ? name.content.name : 'stranger';
      return text(`${textOf(greeting.content)} ${who} (${roots.length} roots)`);
    },
  }),

  test_input_required_result_multi_round: defineTool({
    description: 'Asks two questions in two rounds; the first answer travels sealed in requestState.',
    handler: (_args, round: Round<Steps>) => {
      const state = round.state ?? { step: 'name' };
      if (state.step === 'name') {
        const first = askName('Step 1: What is your name?');
        const name = round.elicitation('step1', first);
        if (!name) return round.inputRequired({ inputRequests: { step1: first }, state });
        if (name.action !== 'accept') return text(`No name given (${name.action}).`);
        return round.inputRequired({
          inputRequests: { step2: askColor },
          state: { step: 'color', name: name.content.name },
        });
      }
      const color = round.elicitation('step2', askColor);
      if (!color) return round.inputRequired({ inputRequests: { step2: askColor }, state });
      if (color.action !== 'accept') return text(`${state.name} chose no color (${color.action}).`);
      return text(`${state.name} likes ${color.content.color}.`);
    },
  }),

  test_input_required_result_capabilities: defineTool({
    description: 'Asks only for the input the client declared capabilities for.',
    handler: (_args, round) => {
      const name = round.elicitation('user_name', askName());
      const reply = round.sampling('capital_question');
      if (!name && !reply) {
        return round.inputRequired({
          inputRequests: { user_name: askName(), capital_question: askCapital },
          unsupported: 'filter',
        });
      }
      return text(
        name?.action === 'accept'
          ? `Hello, ${name.content.name}!`
          : `Done: ${reply ? textOf(reply.content) : ''}`,
      );
    },
  }),
};

export const fixturePrompts = {
  test_input_required_result_prompt: definePrompt({
    description: 'A prompt that asks the user for context first.',
    handler: (_args, round) => {
      const answer = round.elicitation('user_context', askContext);
      if (!answer) return round.inputRequired({ inputRequests: { user_context: askContext } });
      const context = answer.action === 'accept' ? answer.content.context : '(none)';
      return {
        description: 'A prompt built from the user context',
        messages: [{ role: 'user', content: { type: 'text', text: `Use this context: ${context}` } }],
      };
    },
  }),
};
