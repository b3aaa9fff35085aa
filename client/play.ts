/** `npm run play`: Klondike at the terminal, against the HTTP API. See client/README.md. */
import { quietPipes } from './io.js';
import { playMain } from './run-play.js';

quietPipes();
process.exitCode = await playMain(process.argv.slice(2));
