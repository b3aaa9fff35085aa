import { useRef, useState } from 'preact/hooks';
import type { NewGame as NewGameBody, Rules } from '../../types.js';
import { ApiError } from './api.js';
import { SUIT_SYMBOLS } from './cards.js';
import { type Settings, useSettings } from './settings.js';
import { dealRefusedWords, problemWords } from './words.js';

/** The rules of the next deal, in words: "draw 3, 3 passes, cards may come back from the foundations". */
const rulesWords = (s: Pick<Settings, 'draw' | 'passes' | 'foundationToTableau'>) =>
  [
    `draw ${s.draw}`,
    s.passes === null ? 'passes without limit' : `${s.passes} ${s.passes === 1 ? 'pass' : 'passes'}`,
    s.foundationToTableau ? 'cards may come back from the foundations' : 'cards stay on the foundations',
  ].join(', ');

/** The suit of a card written with its symbol (A♣), as the API writes it (AC). */
const SUIT_LETTERS: Record<string, string> = Object.fromEntries(
  Object.entries(SUIT_SYMBOLS).map(([letter, symbol]) => [symbol, letter]),
);

interface NewGameProps {
  /**
   * Deals the game, with `rules` or else the rules of Settings; rejects with the API's problem, which
   * the dialog words.
   */
  readonly onDeal: (body: NewGameBody, rules?: Rules) => Promise<void>;
  /** The deal of the game just finished, and its rules: offered to be dealt again. */
  readonly again?: { readonly body: NewGameBody; readonly rules: Rules } | undefined;
}

type Kind = 'random' | 'winnable' | 'seed' | 'deck' | 'again';

/**
 * "New game": a dialog with the deal (random, proved winnable, by seed, or a deck); the rules come
 * from Settings. Once a game is over it also offers that deal again, under the rules it was played
 * with. Its checks are the API's: whatever the API refuses is said here in words.
 */
export function NewGame({ onDeal, again }: NewGameProps) {
  const dialog = useRef<HTMLDialogElement>(null);
  const [chosenKind, setKind] = useState<Kind>('random');
  // This deal again, chosen while a finished game was shown, is no choice once another game is.
  const kind = chosenKind === 'again' && !again ? 'random' : chosenKind;
  const [error, setError] = useState<string | null>(null);
  const [dealing, setDealing] = useState(false);
  const chosen = useSettings();

  const submit = async (event: Event) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget as HTMLFormElement);
    const text = (name: string) => String(form.get(name) ?? '').trim();
    const seed = text('seed');
    // Only what JSON cannot carry is checked here; ranges and decks are the API's to judge.
    if (kind === 'seed' && !/^-?\d+$/.test(seed)) return setError('The seed must be a whole number.');
    const body: NewGameBody = {};
    if (kind === 'winnable') body.winnable = true;
    if (kind === 'seed') body.seed = Number(seed);
    if (kind === 'deck') {
      const deck = text('deck');
      // 52 cards separated by spaces or commas (A♣ 10♥, or AC TH as the API writes them), or the
      // 156-digit Klondike-Solver string (its spaces and line breaks, if pasted in groups, left out),
      // which the API takes as it is.
      const digits = deck.replace(/\s+/g, '');
      body.deck = /^\d+$/.test(digits)
        ? digits
        : deck
            .split(/[\s,]+/)
            .filter(Boolean)
            .map((card) =>
              card
                .replace(/\uFE0F/g, '')
                .toUpperCase()
                .replace(/^10/, 'T')
                .replace(/[♣♦♥♠]$/, (symbol) => SUIT_LETTERS[symbol]!),
            );
    }
    setError(null);
    setDealing(true);
    try {
      if (kind === 'again' && again) await onDeal(again.body, again.rules);
      else await onDeal(body);
      dialog.current?.close();
    } catch (failure) {
      setError(
        !(failure instanceof ApiError)
          ? String(failure)
          : failure.status === 400
            ? dealRefusedWords(body)
            : problemWords(failure.status, failure.problem),
      );
    } finally {
      setDealing(false);
    }
  };

  const option = (value: Kind, label: string) => (
    <label>
      <input
        type="radio"
        name="kind"
        value={value}
        checked={kind === value}
        onChange={() => setKind(value)}
      />
      {label}
    </label>
  );

  return (
    <>
      <button type="button" onClick={() => dialog.current?.showModal()}>
        New game
      </button>
      <dialog ref={dialog} aria-labelledby="new-game-title" class="panel new-game">
        <form onSubmit={submit}>
          <h2 id="new-game-title">Deal a new game</h2>
          <fieldset>
            <legend>Deal</legend>
            {option('random', 'Random')}
            {option('winnable', 'Winnable (proved by the solver)')}
            {option('seed', 'By seed')}
            {option('deck', 'A deck of my own')}
            {again && option('again', 'This deal again, under its own rules')}
          </fieldset>
          {kind === 'seed' && (
            <label class="wide">
              Seed (0 to 4294967295)
              <input name="seed" inputMode="numeric" required autoFocus />
            </label>
          )}
          {kind === 'deck' && (
            <label class="wide">
              Deck: the 52 cards in dealing order (A♣ 2♦ … 10♥), or the 156 digits of Klondike-Solver
              <textarea name="deck" rows={3} required autoFocus />
            </label>
          )}
          <p class="note">
            {kind === 'again' && again ? (
              <>Rules: {rulesWords(again.rules)}, as that game had them.</>
            ) : (
              <>
                Rules: {rulesWords(chosen)}. <span>Change them in Settings.</span>
              </>
            )}
          </p>
          {error && (
            <p class="message error" role="alert">
              {error}
            </p>
          )}
          <div class="buttons">
            <button type="submit" disabled={dealing}>
              {dealing ? 'Dealing…' : 'Deal'}
            </button>
            <button type="button" onClick={() => dialog.current?.close()}>
              Cancel
            </button>
          </div>
        </form>
      </dialog>
    </>
  );
}
