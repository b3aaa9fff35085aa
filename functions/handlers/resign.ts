import { commandHandler } from '../commands.js';

/** POST /games/{id}/resign */
export const handler = commandHandler('resign');
