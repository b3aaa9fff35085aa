import { safeAutoplay } from '../../domain/index.js';
import { planHandler } from '../commands.js';

/**
 * POST /games/{id}/autoplay: appends, as ordinary events, every move to the foundations that can
 * never cost the game. 200 with the view (unchanged when there is none).
 */
export const handler = planHandler('autoplay', safeAutoplay);
