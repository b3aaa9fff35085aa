import { commandHandler } from '../commands.js';

/** POST /games/{id}/undo */
export const handler = commandHandler('undo');
