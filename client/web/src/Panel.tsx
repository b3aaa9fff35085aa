import type { ComponentChildren } from 'preact';
import { useRef } from 'preact/hooks';

interface PanelProps {
  /** The button's name, which is the dialog's title too. */
  readonly name: string;
  readonly title: string;
  /** The button that closes it. */
  readonly close: string;
  readonly class?: string;
  readonly children: ComponentChildren;
}

/** A button that opens a modal dialog (Esc or its last button closes it): Settings and Help. */
export function PanelButton({ name, title, close, class: extra = '', children }: PanelProps) {
  const dialog = useRef<HTMLDialogElement>(null);
  const id = `${name.toLowerCase()}-title`;
  return (
    <>
      <button type="button" onClick={() => dialog.current?.showModal()}>
        {name}
      </button>
      <dialog ref={dialog} aria-labelledby={id} class={`panel ${extra}`}>
        <form method="dialog">
          <h2 id={id}>{title}</h2>
          {children}
          <div class="buttons">
            <button type="submit">{close}</button>
          </div>
        </form>
      </dialog>
    </>
  );
}
