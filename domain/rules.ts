/** Rule options chosen when a game is created (docs/rules.md). Defaults are the house rules. */
export interface Rules {
  /** Cards dealt from the stock per draw: 3 (house rule) or 1. */
  readonly draw: 1 | 3;
  /** Passes through the deck in all (first pass + recycles); `null` is unlimited. */
  readonly passes: number | null;
  /** Whether a foundation's top card may come back to the tableau. */
  readonly foundationToTableau: boolean;
}

export const HOUSE_RULES: Rules = { draw: 3, passes: 3, foundationToTableau: true };

export const withDefaults = (rules: Partial<Rules> = {}): Rules => ({
  draw: rules.draw ?? HOUSE_RULES.draw,
  passes: rules.passes === undefined ? HOUSE_RULES.passes : rules.passes,
  foundationToTableau: rules.foundationToTableau ?? HOUSE_RULES.foundationToTableau,
});

/** Recycles left after `pass` passes have started; `null` when unlimited. */
export const recyclesLeft = (rules: Rules, pass: number): number | null =>
  rules.passes === null ? null : Math.max(0, rules.passes - pass);
