import { h } from './dom.ts';

export interface ConfirmText {
  question: string;
  detail: string;
  yes: string;
  no: string;
}

/**
 * Asks a yes-or-no question in a modal over everything (the native `<dialog>`: focus stays in it and
 * starts on "no"; Escape or a tap outside it answers no). Resolves true only on the yes button.
 */
export function confirmDialog(text: ConfirmText): Promise<boolean> {
  return new Promise((resolve) => {
    const dialog = h(
      'dialog',
      { class: 'confirm', 'aria-label': text.question },
      h(
        'form',
        { method: 'dialog' },
        h('p', { class: 'confirm-question' }, text.question),
        h('p', { class: 'hint' }, text.detail),
        h(
          'div',
          { class: 'confirm-buttons' },
          h('button', { class: 'secondary', name: 'no', value: 'no' }, text.no),
          h('button', { class: 'primary', name: 'yes', value: 'yes' }, text.yes),
        ),
      ),
    );
    // Escape answers the dialog, not the panel under it or the game's keys.
    dialog.addEventListener('keydown', (event) => {
      if (event.key === 'Escape') event.stopPropagation();
    });
    // Outside the form is the backdrop: a tap there is a no.
    dialog.addEventListener('pointerdown', (event) => {
      if (event.target === dialog) dialog.close('no');
    });
    dialog.addEventListener('close', () => {
      dialog.remove();
      resolve(dialog.returnValue === 'yes');
    });
    document.body.append(dialog);
    dialog.showModal();
  });
}
