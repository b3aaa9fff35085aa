import { useRef, useState } from 'preact/hooks';
import type { NewGame as NewGameBody } from '../../types.js';

interface NewGameProps {
  /** Deals the game; rejects with the API's reason, which the dialog shows. */
  readonly onDeal: (body: NewGameBody) => Promise<void>;
}

type Kind = 'random' | 'winnable' | 'seed' | 'deck';

/**
 * "New game": a dialog with the deal (random, proved winnable, by seed, or a deck) and the rule
 * options. Its checks are the API's: whatever the API refuses is shown here in its words.
 */
export function NewGame({ onDeal }: NewGameProps) {
  const dialog = useRef<HTMLDialogElement>(null);
  const [kind, setKind] = useState<Kind>('random');
  const [error, setError] = useState<string | null>(null);
  const [dealing, setDealing] = useState(false);

  const submit = async (event: Event) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget as HTMLFormElement);
    const text = (name: string) => String(form.get(name) ?? '').trim();
    const passes = text('passes');
    const seed = text('seed');
    // Only what JSON cannot carry is checked here; ranges and decks are the API's to judge.
    if (passes !== '' && passes !== 'unlimited' && !/^-?\d+$/.test(passes))
      return setError('Passes must be a whole number, or "unlimited".');
    if (kind === 'seed' && !/^-?\d+$/.test(seed)) return setError('The seed must be a whole number.');
    const body: NewGameBody = {
      rules: {
        draw: text('draw') === '1' ? 1 : 3,
        ...(passes === '' ? {} : { passes: passes === 'unlimited' ? null : Number(passes) }),
        foundationToTableau: form.get('foundationToTableau') === 'on',
      },
    };
    if (kind === 'winnable') body.winnable = true;
    if (kind === 'seed') body.seed = Number(seed);
    if (kind === 'deck') {
      const deck = text('deck');
      // 52 codes separated by spaces or commas, or the 156-digit Klondike-Solver string, as the API takes them.
      body.deck = /^\d+$/.test(deck) ? deck : deck.split(/[\s,]+/).filter(Boolean);
    }
    setError(null);
    setDealing(true);
    try {
      await onDeal(body);
      dialog.current?.close();
    } catch (failure) {
      setError(failure instanceof Error ? failure.message : String(failure));
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
      <dialog ref={dialog} aria-labelledby="new-game-title" class="new-game">
        <form onSubmit={submit}>
          <h2 id="new-game-title">Deal a new game</h2>
          <fieldset>
            <legend>Deal</legend>
            {option('random', 'Random')}
            {option('winnable', 'Winnable (proved by the solver)')}
            {option('seed', 'By seed')}
            {option('deck', 'A deck of my own')}
          </fieldset>
          {kind === 'seed' && (
            <label class="wide">
              Seed (0 to 4294967295)
              <input name="seed" inputMode="numeric" required autoFocus />
            </label>
          )}
          {kind === 'deck' && (
            <label class="wide">
              Deck: 52 cards in dealing order (AC 2D … TH), or the 156-digit Klondike-Solver string
              <textarea name="deck" rows={3} required autoFocus />
            </label>
          )}
          <fieldset>
            <legend>Rules</legend>
            <label>
              Draw
              <select name="draw">
                <option value="3">3 cards</option>
                <option value="1">1 card</option>
              </select>
            </label>
            <label>
              Passes through the deck
              <input name="passes" list="passes-list" defaultValue="3" size={9} />
              <datalist id="passes-list">
                <option value="1" />
                <option value="3" />
                <option value="unlimited" />
              </datalist>
            </label>
            <label>
              <input type="checkbox" name="foundationToTableau" defaultChecked />
              Cards may come back from the foundations
            </label>
          </fieldset>
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
