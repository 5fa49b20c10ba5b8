import { tick } from 'svelte';
import type { SubmitFunction } from '@sveltejs/kit';

const FOCUSABLE = 'input, select, textarea, button, a[href], [tabindex]';

/**
 * Where the keyboard goes once a form sent with JavaScript has its answer. Refused: to its first field
 * in error, or else to the page's alert saying why, so the person hears it and starts from there. Done:
 * back to the button that sent it when focus fell to the page (a button disabled while sending loses
 * focus, and the next Tab would start again from the top of the page), or to the summary of the panel
 * that folded over it, or, when the form is gone with what it changed, to the notice saying what happened.
 */
export async function settleFocus(form: HTMLFormElement, submitter: HTMLElement | null, refused: boolean): Promise<void> {
  await tick();
  const document = form.ownerDocument;
  if (refused) {
    const target =
      form.querySelector<HTMLElement>('[aria-invalid="true"]') ?? document.querySelector<HTMLElement>('[role="alert"]:not([hidden])');
    if (target) {
      if (!target.matches(FOCUSABLE)) target.setAttribute('tabindex', '-1');
      target.focus();
      return;
    }
  }
  const active = document.activeElement;
  // Still on a field the answer folded away (the form sent with Enter) is as lost as on the page itself.
  if (active && active !== document.body && !active.closest('details:not([open])')) return;
  const back = submitter?.isConnected
    ? submitter
    : form.isConnected
      ? form.querySelector<HTMLElement>('button[type="submit"], button:not([type])')
      : null;
  const folded = back?.closest('details:not([open])')?.querySelector<HTMLElement>(':scope > summary');
  // The form itself is gone (a removed cart line): to the word about what happened, or the page's heading.
  const target =
    folded ?? back ?? document.querySelector<HTMLElement>('[role="status"]') ?? document.querySelector<HTMLElement>('main h1, h1');
  if (target && !target.matches(FOCUSABLE)) target.setAttribute('tabindex', '-1');
  target?.focus();
}

/**
 * `use:enhance={keepFocusWhile((on) => (busy = on))}`: `busy` is told while the form is on its way (its button
 * held, so one press sends once), then SvelteKit's own handling of the answer and the focus settled as above.
 * `reset: false` keeps what was typed; `onlyRefused`: a form whose success leaves the page (signing in) lets
 * the next page take the focus as any page does. `succeeded` and `refused` (with the refusal's data) are
 * told of the answer before the page takes it, for what the page keeps of its own.
 */
export function keepFocusWhile(
  busy: (on: boolean) => void,
  options: {
    reset?: boolean;
    onlyRefused?: boolean;
    succeeded?: () => void;
    refused?: (data: Record<string, unknown>) => void;
  } = {},
): SubmitFunction {
  return ({ formElement, submitter }) => {
    busy(true);
    return async ({ result, update }) => {
      if (result.type === 'success') options.succeeded?.();
      if (result.type === 'failure') options.refused?.(result.data ?? {});
      try {
        await update({ reset: options.reset ?? true });
      } finally {
        busy(false);
      }
      const refused = result.type === 'failure';
      if (refused || !options.onlyRefused) await settleFocus(formElement, submitter, refused);
    };
  };
}

/**
 * A form that folds away once it is done (an added address): after `submit`'s own handling, the notice
 * saying it worked is brought into view and takes the keyboard, as the form it came from is gone.
 */
export function thenShowNotice(
  submit: SubmitFunction,
  notice: () => HTMLElement | null,
  block: ScrollLogicalPosition = 'center',
): SubmitFunction {
  return async (input) => {
    const settle = await submit(input);
    return async (answer) => {
      await settle?.(answer);
      if (answer.result.type !== 'success') return;
      await tick();
      const target = notice();
      target?.focus();
      target?.scrollIntoView({ block });
    };
  };
}

/** `use:enhance={keepFocus}`: the same for a form with nothing to hold while it is sent. */
export const keepFocus: SubmitFunction = keepFocusWhile(() => undefined);

/**
 * Whether the panel `id` is open in the page the server sent, opened by the shopper before the page's script
 * ran (a slow connection): read once as the script starts, which would otherwise fold the panel over what
 * they are typing. False on a page reached by a link inside the shop (the panel is not in the document yet).
 */
export function openBeforeScript(id: string): boolean {
  return typeof document !== 'undefined' && document.getElementById(id)?.hasAttribute('open') === true;
}
