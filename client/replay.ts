/** `npm run replay`: a game, frame by frame, from the HTTP API. See client/README.md. */
import { quietPipes } from './io.js';
import { replayMain } from './run-replay.js';

quietPipes();
process.exitCode = await replayMain(process.argv.slice(2));
