import { useRef } from 'preact/hooks';
import { type Settings as Chosen, settings, useSettings } from './settings.js';
import { CAUTIOUS_RULE } from './words.js';

const PASSES: readonly (number | null)[] = [1, 2, 3, 4, 5, null];

/**
 * "Settings": the rules of the next deal, safe cards home by themselves, the score shown, and
 * motion. Each change is kept at once (in this browser); the rules apply from the next deal.
 */
export function SettingsButton() {
  const dialog = useRef<HTMLDialogElement>(null);
  const chosen = useSettings();
  const set = (patch: Partial<Chosen>) => settings.set(patch);
  return (
    <>
      <button type="button" onClick={() => dialog.current?.showModal()}>
        Settings
      </button>
      <dialog ref={dialog} aria-labelledby="settings-title" class="panel">
        <form method="dialog">
          <h2 id="settings-title">Settings</h2>
          <fieldset>
            <legend>Rules of the next deal</legend>
            <label>
              Draw
              <select
                name="draw"
                value={String(chosen.draw)}
                onChange={(e) => set({ draw: (e.currentTarget as HTMLSelectElement).value === '1' ? 1 : 3 })}
              >
                <option value="3">3 cards at a time</option>
                <option value="1">1 card at a time</option>
              </select>
            </label>
            <label>
              Passes through the deck
              <select
                name="passes"
                value={chosen.passes === null ? 'unlimited' : String(chosen.passes)}
                onChange={(e) => {
                  const value = (e.currentTarget as HTMLSelectElement).value;
                  set({ passes: value === 'unlimited' ? null : Number(value) });
                }}
              >
                {PASSES.map((n) => (
                  <option key={String(n)} value={n === null ? 'unlimited' : String(n)}>
                    {n === null ? 'No limit' : n}
                  </option>
                ))}
              </select>
            </label>
            <label>
              <input
                type="checkbox"
                name="foundationToTableau"
                checked={chosen.foundationToTableau}
                onChange={(e) => set({ foundationToTableau: (e.currentTarget as HTMLInputElement).checked })}
              />
              Cards may come back from the foundations
            </label>
          </fieldset>
          <fieldset>
            <legend>Play</legend>
            <label>
              <input
                type="checkbox"
                name="autoplay"
                checked={chosen.autoplay}
                onChange={(e) => set({ autoplay: (e.currentTarget as HTMLInputElement).checked })}
              />
              Safe cards go home by themselves after each move
            </label>
            <p class="note">{CAUTIOUS_RULE}</p>
            <label>
              Score shown
              <select
                name="score"
                value={chosen.score}
                onChange={(e) =>
                  set({
                    score: (e.currentTarget as HTMLSelectElement).value === 'vegas' ? 'vegas' : 'standard',
                  })
                }
              >
                <option value="standard">Standard (points)</option>
                <option value="vegas">Vegas (dollars)</option>
              </select>
            </label>
            <label>
              <input
                type="checkbox"
                name="reducedMotion"
                checked={chosen.reducedMotion}
                onChange={(e) => set({ reducedMotion: (e.currentTarget as HTMLInputElement).checked })}
              />
              Reduced motion: cards do not slide or turn
            </label>
          </fieldset>
          <p class="note">The rules apply from the next deal; the rest at once. This browser keeps them.</p>
          <div class="buttons">
            <button type="submit">Done</button>
          </div>
        </form>
      </dialog>
    </>
  );
}
