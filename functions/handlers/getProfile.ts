import { player } from '../http/auth.js';
import { httpHandler } from '../http/handler.js';
import { json } from '../http/respond.js';
import { displayName } from '../players.js';
import { chosenName } from '../store/daily.js';

/** GET /me/profile (sign-in required): the name the player chose (null for none) and the name shown. */
export const handler = httpHandler('getProfile', async (request) => {
  const signedIn = await player(request);
  const chosen = await chosenName(signedIn);
  return json(200, { name: chosen?.name ?? null, displayName: displayName(signedIn, chosen?.name) });
});
