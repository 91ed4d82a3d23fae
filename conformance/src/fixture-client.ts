import { clientCapabilitiesFor, HttpJsonRpcClient, type InputHandlers } from '@mcp-mrtr/runtime/client';

// The client the conformance harness runs for sep-2322-client-request-state: it calls the mock
// server's MRTR tools through the runtime's retry loop. Usage: fixture-client.ts <server-url>.

const url = process.argv.at(-1);
if (!url?.startsWith('http')) {
  console.error('usage: fixture-client.ts <server-url>');
  process.exit(2);
}

const handlers: InputHandlers = {
  form: () => Promise.resolve({ action: 'accept', content: { confirmed: true } }),
};
const client = new HttpJsonRpcClient({
  url,
  clientInfo: { name: 'mcp-mrtr-conformance-client', version: '0.1.0' },
  capabilities: clientCapabilitiesFor(handlers),
});

// An unrelated call between a round and its retry must carry neither inputResponses nor state.
await client.callTool(
  'test_mrtr_echo_state',
  {},
  {
    handlers,
    onInputRequired: async () => {
      await client.callTool('test_mrtr_unrelated', {}, { handlers });
    },
  },
);
await client.callTool('test_mrtr_no_state', {}, { handlers });
await client.callTool('test_mrtr_no_result_type', {}, { handlers });
