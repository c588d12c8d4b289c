/** Whether the player mostly touches (a phone, a tablet): hints then speak of taps, not keys. */
export const touchFirst = (): boolean => window.matchMedia('(hover: none) and (pointer: coarse)').matches;

/** The word for pressing something on this device. */
export const pressWord = (): 'tap' | 'click' => (touchFirst() ? 'tap' : 'click');
