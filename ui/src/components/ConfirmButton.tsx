import { useEffect, useRef, useState, type ReactNode } from 'react';

/**
 * A button that asks first: a modal <dialog> (keyboard: Tab between the two
 * buttons, Escape cancels) with the consequence spelled out.
 */
export function ConfirmButton({
  children,
  title,
  message,
  confirmLabel,
  onConfirm,
  disabled,
  className,
  confirmClassName = 'danger',
  confirmDisabled = false,
  testId,
}: {
  children: ReactNode;
  title: string;
  message: ReactNode;
  confirmLabel: string;
  onConfirm: () => void | Promise<void>;
  disabled?: boolean;
  className?: string;
  /** The confirming button's class ('danger' unless the action is harmless, e.g. 'primary'). */
  confirmClassName?: string;
  confirmDisabled?: boolean;
  testId?: string;
}) {
  const [open, setOpen] = useState(false);
  const dialog = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const d = dialog.current;
    if (!d) return;
    if (open && !d.open) d.showModal();
    if (!open && d.open) d.close();
  }, [open]);
  return (
    <>
      <button type="button" className={className} disabled={disabled} onClick={() => setOpen(true)} data-testid={testId}>
        {children}
      </button>
      <dialog ref={dialog} className="confirm" onClose={() => setOpen(false)} aria-labelledby={testId ? `${testId}-title` : undefined}>
        <h3 id={testId ? `${testId}-title` : undefined}>{title}</h3>
        <div className="confirm-message">{message}</div>
        <div className="actions">
          <button type="button" onClick={() => setOpen(false)} autoFocus>
            Cancel
          </button>
          <button
            type="button"
            className={confirmClassName}
            disabled={confirmDisabled}
            data-testid={testId ? `${testId}-confirm` : undefined}
            onClick={() => {
              setOpen(false);
              void onConfirm();
            }}
          >
            {confirmLabel}
          </button>
        </div>
      </dialog>
    </>
  );
}
