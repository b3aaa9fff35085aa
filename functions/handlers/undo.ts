import { commandHandler } from '../games.js';

/** POST /games/{id}/undo */
export const handler = commandHandler('undo');
