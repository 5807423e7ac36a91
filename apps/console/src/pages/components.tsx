// Small building blocks shared by the pages: labelled fields, notices, the hidden CSRF field and
// the copyable one-time value.
import type { ComponentChildren } from 'preact';

export function CsrfField({ token }: { token: string }) {
  return <input type="hidden" name="_csrf" value={token} />;
}

export function Notice({ kind, children }: { kind: 'error' | 'success' | 'warning'; children: ComponentChildren }) {
  return (
    <div class={`notice ${kind}`} role={kind === 'error' ? 'alert' : 'status'}>
      {children}
    </div>
  );
}

export function Field(props: {
  id: string;
  label: string;
  name?: string;
  type?: 'text' | 'email' | 'password' | 'number';
  value?: string;
  required?: boolean;
  autocomplete?: string;
  hint?: string;
  inputMode?: 'numeric' | 'decimal' | 'text';
  maxLength?: number;
  autofocus?: boolean;
}) {
  const hintId = props.hint ? `${props.id}-hint` : undefined;
  return (
    <div class="field">
      <label for={props.id}>
        {props.label}
      </label>
      {props.hint ? <span class="hint" id={hintId}>{props.hint}</span> : null}
      <input
        id={props.id}
        name={props.name ?? props.id}
        // Preact types narrow attributes per input type; the union here is always a valid text-like type.
        type={(props.type ?? 'text') as 'text'}
        // Passwords are never echoed back into the page.
        value={props.type === 'password' ? undefined : props.value ?? ''}
        required={props.required}
        autocomplete={props.autocomplete}
        inputMode={props.inputMode}
        maxLength={props.maxLength}
        autofocus={props.autofocus}
        aria-describedby={hintId}
      />
    </div>
  );
}

/** A read-only value with a "Copy" button that the script reveals (the button is useless without it). */
export function CopyableValue({ id, label, value }: { id: string; label: string; value: string }) {
  return (
    <div>
      <label for={id}>{label}</label>
      <div class="secret">
        <input id={id} type="text" value={value} readOnly spellcheck={false} autocomplete="off" />
        <button type="button" class="secondary" data-copy={id} data-status={`${id}-status`} hidden>Copy</button>
      </div>
      <div id={`${id}-status`} class="copy-status" aria-live="polite"></div>
    </div>
  );
}

export function formatDate(iso: string): string {
  // Server-rendered pages do not know the viewer's time zone: show UTC, and say so.
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  return `${date.toISOString().slice(0, 16).replace('T', ' ')} UTC`;
}
