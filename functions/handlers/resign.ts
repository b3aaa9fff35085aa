import { commandHandler } from '../games.js';

/** POST /games/{id}/resign */
export const handler = commandHandler('resign');
