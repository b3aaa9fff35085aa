import type { ComponentChildren } from 'preact';
import { PanelButton } from './Panel.js';
import { type Settings as Chosen, PASSES, settings, useSettings } from './settings.js';
import { CAUTIOUS_RULE } from './words.js';

type Flag = 'foundationToTableau' | 'autoplay' | 'reducedMotion';

/** A box for one of the settings that are on or off. */
function Check({ name, children }: { readonly name: Flag; readonly children: ComponentChildren }) {
  const chosen = useSettings();
  return (
    <label>
      <input
        type="checkbox"
        name={name}
        checked={chosen[name]}
        onChange={(e) => settings.set({ [name]: (e.currentTarget as HTMLInputElement).checked })}
      />
      {children}
    </label>
  );
}

/** A choice among a few, for one of the other settings. */
function Choice<K extends 'draw' | 'passes' | 'score'>(props: {
  readonly name: K;
  readonly label: string;
  readonly options: readonly (readonly [Chosen[K], string])[];
}) {
  const chosen = useSettings();
  const key = (value: Chosen[K]) => (value === null ? 'unlimited' : String(value));
  return (
    <label>
      {props.label}
      <select
        name={props.name}
        value={key(chosen[props.name])}
        onChange={(e) => {
          const picked = props.options.find(
            ([value]) => key(value) === (e.currentTarget as HTMLSelectElement).value,
          );
          if (picked) settings.set({ [props.name]: picked[0] } as Partial<Chosen>);
        }}
      >
        {props.options.map(([value, words]) => (
          <option key={key(value)} value={key(value)}>
            {words}
          </option>
        ))}
      </select>
    </label>
  );
}

/**
 * "Settings": the rules of the next deal, safe cards home by themselves, the score shown, and
 * motion. Each change is kept at once (in this browser); the rules apply from the next deal.
 */
export function SettingsButton() {
  return (
    <PanelButton name="Settings" title="Settings" close="Done">
      <fieldset>
        <legend>Rules of the next deal</legend>
        <Choice
          name="draw"
          label="Draw"
          options={[
            [3, '3 cards at a time'],
            [1, '1 card at a time'],
          ]}
        />
        <Choice
          name="passes"
          label="Passes through the deck"
          options={PASSES.map((n) => [n, n === null ? 'No limit' : String(n)] as const)}
        />
        <Check name="foundationToTableau">Cards may come back from the foundations</Check>
      </fieldset>
      <fieldset>
        <legend>Play</legend>
        <Check name="autoplay">Safe cards go home by themselves after each move</Check>
        <p class="note">{CAUTIOUS_RULE}</p>
        <Choice
          name="score"
          label="Score shown"
          options={[
            ['standard', 'Standard (points)'],
            ['vegas', 'Vegas (dollars)'],
          ]}
        />
        <Check name="reducedMotion">Reduced motion: cards do not slide or turn</Check>
      </fieldset>
      <p class="note">The rules apply from the next deal; the rest at once. This browser keeps them.</p>
    </PanelButton>
  );
}
