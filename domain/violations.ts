/**
 * The rules a command can break, each with the sentence a player reads. Errors are values: the
 * domain returns a `Violation`, and the HTTP layer maps it once (to a 422).
 */
export const RULES = {
  'game-over': 'A won or resigned game takes no more actions.',
  'game-too-long': 'A game takes at most 10,000 actions after its deal.',
  'nothing-to-undo': 'There is no move to undo.',
  'nothing-to-redo': 'There is no undone move to redo (a new move clears the redo line).',
  'draw-from-empty-stock': 'The stock is empty: recycle the waste to deal again, if a pass is left.',
  'recycle-needs-empty-stock': 'The waste may be turned over only when the stock is empty.',
  'recycle-needs-waste': 'The waste is empty: there is nothing to turn over.',
  'pass-limit': 'The deck may not be dealt again: every pass allowed has been used.',
  'unknown-pile': 'Piles are waste, t1..t7 and fC fD fH fS; a destination may also be foundation.',
  'same-pile': 'A move takes cards to another pile.',
  'empty-source': 'There is no card to take from that pile.',
  'single-card-source': 'Only the top card of the waste or of a foundation may move.',
  'count-exceeds-face-up': 'Only face-up cards may move: the count is more than the face-up run.',
  'run-not-in-sequence': 'A run moves only if it is itself descending and alternating in colour.',
  'foundation-single-card': 'Cards go to a foundation one at a time.',
  'foundation-suit': 'A foundation takes only cards of its own suit.',
  'foundation-ascending': 'A foundation builds up from Ace to King, one rank at a time.',
  'foundation-to-tableau-off': 'These rules do not let a card come back from a foundation.',
  'foundation-to-foundation': 'A card on a foundation may go only to the tableau.',
  'empty-column-king': 'An empty column takes only a King, or a run whose bottom card is a King.',
  'daily-in-progress':
    "While its day lasts, a daily game has no hint and no analysis: nobody sees a line through the day's deal before the day is over.",
  'tableau-descending-alternating':
    'The tableau builds down in alternating colours: the card must be one rank lower and of the other colour.',
} as const;

export type RuleName = keyof typeof RULES;
export const RULE_NAMES = Object.keys(RULES) as [RuleName, ...RuleName[]];

export interface Violation {
  readonly rule: RuleName;
  /** What happened in this case, in words (never a hidden card). */
  readonly detail: string;
}

export const violation = (rule: RuleName, detail: string = RULES[rule]): Violation => ({ rule, detail });

export const isViolation = (value: unknown): value is Violation =>
  typeof value === 'object' && value !== null && 'rule' in value && 'detail' in value;
