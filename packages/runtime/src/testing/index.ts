// What a project's own tests need once `migrate` has its helpers take a round.
export { pushRound, type PushApi, type PushTarget } from './push-round.js';
