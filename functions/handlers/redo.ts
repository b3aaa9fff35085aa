import { commandHandler } from '../commands.js';

/** POST /games/{id}/redo */
export const handler = commandHandler('redo');
