import type { View } from './types.js';

/** A move between piles, as a view lists it among its legal moves. */
type PileMove = Extract<View['legalMoves'][number], { type: 'move' }>;

/**
 * A card autoplay left that could go home, if there is one, for both clients to say why: the move
 * that sends it, the card, and whether it is the waste's top before the last pass at draw 3, which
 * autoplay leaves alone (taking a card out changes what later passes deal); otherwise a card in
 * play may still need it.
 */
export function leftToGoHome(view: View): { move: PileMove; card: string; waste: boolean } | undefined {
  const move = view.legalMoves.find(
    (m): m is PileMove => m.type === 'move' && m.to.startsWith('f') && !m.from.startsWith('f'),
  );
  if (move === undefined) return undefined;
  const fromWaste = move.from === 'waste';
  const card = fromWaste ? view.waste.at(-1) : view.tableau[Number(move.from.slice(1)) - 1]?.cards.at(-1);
  if (card === undefined) return undefined;
  const lastPass = view.rules.passes !== null && view.pass >= view.rules.passes;
  return { move, card, waste: fromWaste && view.rules.draw === 3 && !lastPass };
}
