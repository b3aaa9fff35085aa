import { nowIso } from '../clock.js';
import { player } from '../http/auth.js';
import { httpHandler } from '../http/handler.js';
import { Problem } from '../http/problem.js';
import { parseBody } from '../http/request.js';
import { json } from '../http/respond.js';
import { checkName } from '../players.js';
import { Profile } from '../requestSchemas.js';
import { keepName } from '../store/daily.js';

/**
 * PUT /me/profile {"name": "..."} (sign-in required): the name the leaderboards show for the player:
 * 1 to 24 characters, letters of any script (up to 4 marks each), digits, spaces and `-_.'`,
 * trimmed, and not shaped like another player's derived name; anything else 400.
 * The leaderboards show it within moments (a read model).
 */
export const handler = httpHandler('putProfile', async (request) => {
  const signedIn = await player(request);
  const body = parseBody(request, Profile, undefined);
  const checked = checkName(body.name, signedIn);
  if ('problem' in checked) throw new Problem('malformed-request', checked.problem);
  if (!(await keepName(signedIn, checked.name, nowIso()))) {
    throw new Problem('conflict', 'Other changes of this name landed at the same moment. Try again.');
  }
  return json(200, { name: checked.name, displayName: checked.name });
});
