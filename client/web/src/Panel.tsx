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
  const heading = useRef<HTMLHeadingElement>(null);
  const closer = useRef<HTMLButtonElement>(null);
  const id = `${name.toLowerCase()}-title`;
  const open = () => {
    dialog.current?.showModal();
    // A dialog of text alone (Help) would open on its last button, scrolled to its end: it opens on
    // its title instead, at its top.
    if (document.activeElement === closer.current) heading.current?.focus();
  };
  return (
    <>
      <button type="button" onClick={open}>
        {name}
      </button>
      <dialog ref={dialog} aria-labelledby={id} class={`panel ${extra}`}>
        <form method="dialog">
          <h2 id={id} ref={heading} tabIndex={-1}>
            {title}
          </h2>
          {children}
          <div class="buttons">
            <button type="submit" ref={closer}>
              {close}
            </button>
          </div>
        </form>
      </dialog>
    </>
  );
}
