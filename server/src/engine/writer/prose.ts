import type { Rng } from '../random.ts';
import type { Cues } from './cues.ts';

const OPENERS: Record<string, readonly string[]> = {
  none: [
    'Well met, traveller.',
    'Ah, another brave soul.',
    'Listen close, friend.',
    'Hm. You look like trouble.',
  ],
  fire: [
    'The embers speak of you, traveller.',
    'Mind the sparks, friend.',
    'Warm yourself by the forge a moment.',
  ],
  frost: [
    'Shake the snow from your boots, traveller.',
    "Cold, isn't it? The giants like it that way.",
    'Your breath steams, friend.',
  ],
  poison: [
    'Careful where you step; the bog bites.',
    'Breathe shallow here, friend.',
    'The air is thick with rot today.',
  ],
  shadow: [
    'Speak softly; the dark listens.',
    'You walk where few return, traveller.',
    'The candles gutter when you enter.',
  ],
  holy: ['Light keep you, pilgrim.', 'Blessings upon your road.', 'The bells rang at your coming.'],
  lightning: [
    "Storm's coming, can you feel it?",
    'Keep your blade dry, friend; thunder rolls.',
    'The air crackles tonight.',
  ],
};

const CLOSERS = [
  'Choose wisely.',
  'Gold first, questions later.',
  "Come back alive and we'll talk again.",
  'That is all I know, and more than most.',
  'May your blade stay sharp.',
];

function persona(system: string): string | undefined {
  const m = /\byou are (?:an? |the )?([a-z][a-z '-]{2,40}?)(?:[.,;!\n]| who| and|$)/i.exec(system);
  return m?.[1]?.trim();
}

/** Short in-character text: a greeting in the conversation's theme, an answer built from its words. */
export function writeProse(cues: Cues, rng: Rng): string {
  const who = persona(cues.system);
  const question = cues.lastUser.replace(/\s+/g, ' ').trim();
  const topics = (question.toLowerCase().match(/[a-z]{4,}/g) ?? []).filter(
    (w) =>
      ![
        'what',
        'where',
        'when',
        'which',
        'would',
        'could',
        'should',
        'about',
        'there',
        'have',
        'your',
        'with',
        'tell',
        'this',
        'that',
        'please',
        'describe',
      ].includes(w),
  );
  const topic = topics.length ? rng.pick(topics) : 'the road ahead';
  const place = cues.location ?? (cues.enemy ? `the lair of the ${cues.enemy}` : undefined);
  const sentences = [rng.pick(OPENERS[cues.element] ?? OPENERS.none ?? [])];
  if (who) sentences.push(`As a ${who}, I have heard many ask about ${topic}.`);
  sentences.push(
    rng.pick([
      `The ${topic} you ask of is real enough${place ? `, and it waits in ${place}` : ''}.`,
      `They say ${topic} favours the bold${place ? `, especially near ${place}` : ''}.`,
      `Few know the truth of ${topic}, but I've seen it with my own eyes.`,
    ]),
  );
  sentences.push(rng.pick(CLOSERS));
  return sentences.join(' ');
}
