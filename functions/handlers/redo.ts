import { commandHandler } from '../games.js';

/** POST /games/{id}/redo */
export const handler = commandHandler('redo');
