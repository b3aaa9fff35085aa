import type { View } from '../../types.js';

/** Scores, moves, passes and the version: what the view says besides the cards. */
export function Status({ view }: { readonly view: View }) {
  const passes = view.rules.passes === null ? 'unlimited' : String(view.rules.passes);
  const item = (name: string, value: string | number) => (
    <div>
      <dt>{name}</dt>
      <dd>{value}</dd>
    </div>
  );
  return (
    <dl class="status">
      {item('Vegas', view.score.vegas)}
      {item('Standard', view.score.standard)}
      {item('Moves', view.moves)}
      {item('Pass', `${view.pass} of ${passes}`)}
      {item('Recycles left', view.recyclesLeft === null ? 'unlimited' : view.recyclesLeft)}
      {item('Draw', view.rules.draw)}
      <div>
        <dt>Version</dt>
        <dd data-version={view.version}>{view.version}</dd>
      </div>
    </dl>
  );
}
