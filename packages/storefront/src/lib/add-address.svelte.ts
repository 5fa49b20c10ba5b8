import type { SubmitFunction } from '@sveltejs/kit';
import { untrack } from 'svelte';
import { keepFocusWhile, openBeforeScript, thenShowNotice } from './focus';
import type { FormProblem } from './server/errors';

/**
 * The "Add an address" panel and its form, as the address book and checkout show it. Whether it is open
 * is the shopper's to fold and unfold (bound to the panel); the page opens it when there is no address
 * yet or a new one is refused, and folds it once one is saved.
 */
export class AddAddressPanel {
  /**
   * The form's refusal, with what was typed: kept until that form is answered again, so the answer to
   * another form on the page (a coupon, a default changed) leaves the panel as it was. Without
   * JavaScript, the page's own answer.
   */
  refusal = $state<FormProblem | null>(null);
  /** A new address is on its way: one press saves one address. */
  saving = $state(false);
  readonly #none: () => boolean;
  /** Opened by hand before the page's script ran: kept open (folded once an address is saved). */
  #openedEarly: boolean;
  open = $derived.by(() => this.#none() || untrack(() => this.refusal !== null) || this.#openedEarly);
  /** `use:enhance` for the form: saved, the panel folds and the page's word that it worked is brought into view (and focus). */
  readonly save: SubmitFunction;

  constructor(options: {
    /** The panel's element id. */
    id: string;
    /** Whether there is no address yet: the panel is open while so. */
    none: () => boolean;
    /** The page's own refusal of the form, when it came with one. */
    refused: FormProblem | null;
    /** The notice that the address is saved, once on the page. */
    notice: () => HTMLElement | null;
    block?: ScrollLogicalPosition;
  }) {
    this.#none = options.none;
    this.#openedEarly = openBeforeScript(options.id);
    this.refusal = options.refused;
    this.save = thenShowNotice(
      keepFocusWhile((on) => (this.saving = on), {
        succeeded: () => {
          this.refusal = null;
          this.#openedEarly = false;
          this.open = false;
        },
        refused: (refusal) => {
          this.refusal = refusal as unknown as FormProblem;
          this.open = true;
        },
      }),
      options.notice,
      options.block,
    );
  }
}
