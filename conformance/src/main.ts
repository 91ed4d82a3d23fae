import { availableParallelism } from 'node:os';
import { startFixtureServer } from './fixture-server.js';
import {
  CLIENT_SCENARIOS,
  describeFailure,
  fixtureClientCommand,
  runScenario,
  SERVER_SCENARIOS,
  type ScenarioResult,
} from './harness.js';

// `npm run conformance`: the MRTR scenarios of the official suite against the runtime's fixture
// server and client. Prints one line per scenario and ends with "N passed, M failed".

async function inBatches<T, R>(
  items: readonly T[],
  size: number,
  run: (item: T) => Promise<R>,
): Promise<R[]> {
  const results: R[] = [];
  for (let start = 0; start < items.length; start += size) {
    results.push(...(await Promise.all(items.slice(start, start + size).map(run))));
  }
  return results;
}

const server = await startFixtureServer();
let results: ScenarioResult[];
try {
  const parallel = Math.max(1, Math.min(4, availableParallelism()));
  results = [
    ...(await inBatches(SERVER_SCENARIOS, parallel, (scenario) =>
      runScenario('server', scenario, server.url),
    )),
    ...(await inBatches(CLIENT_SCENARIOS, parallel, (scenario) =>
      runScenario('client', scenario, fixtureClientCommand()),
    )),
  ];
} finally {
  await server.close();
}

for (const result of results) {
  const passedChecks = result.checks.filter((check) => check.status === 'SUCCESS').length;
  console.log(
    `${result.passed ? 'ok  ' : 'FAIL'} ${result.scenario} (${passedChecks}/${result.checks.length} checks)`,
  );
  if (!result.passed) console.log(describeFailure(result).replace(/^/gm, '     '));
}
const passedIn = (names: readonly string[]) =>
  results.filter((result) => result.passed && names.includes(result.scenario)).length;
console.log(`server scenarios: ${passedIn(SERVER_SCENARIOS)}/${SERVER_SCENARIOS.length}`);
console.log(`client scenarios: ${passedIn(CLIENT_SCENARIOS)}/${CLIENT_SCENARIOS.length}`);
const passed = results.filter((result) => result.passed).length;
console.log(`${passed} passed, ${results.length - passed} failed`);
process.exitCode = passed === results.length ? 0 : 1;
