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

const STOP_WORDS = new Set(
  'what where when which would could should about there have your with tell this that please describe does want need some more than them they their from into give make know like just much many also been were will shall'.split(
    ' ',
  ),
);

/** What the player is after, from the words of the last message. */
type Intent = 'greet' | 'trade' | 'quest' | 'where' | 'lore';

function intentOf(text: string): Intent {
  const t = text.toLowerCase();
  if (/\b(buy|sell|price|cost|coins?|gold|trade|wares|shop|afford|how much)\b/.test(t)) return 'trade';
  if (/\b(quest|task|job|help|work|bounty|contract)\b/.test(t)) return 'quest';
  if (/\b(where|way to|road to|find|directions?)\b/.test(t)) return 'where';
  if (/^\W*(hi|hello|hey|greetings|good (morning|evening|day))\b/.test(t) || t.trim().length < 12)
    return 'greet';
  return 'lore';
}

function persona(system: string): string | undefined {
  const m = /\byou are (?:an? |the )?([a-z][a-z '-]{2,40}?)(?:[.,;!\n]| who| and| in| at| from| of|$)/i.exec(
    system,
  );
  return m?.[1]?.trim();
}

/** Short in-character text: a greeting in the conversation's theme and an answer to what was asked. */
export function writeProse(cues: Cues, rng: Rng): string {
  const who = persona(cues.system);
  const question = cues.lastUser.replace(/\s+/g, ' ').trim();
  const topics = (question.toLowerCase().match(/[a-z]{4,}/g) ?? []).filter((w) => !STOP_WORDS.has(w));
  // "Tell me about the old dragon" → "old dragon": the words after the last article, else a keyword.
  const phrase = [
    ...question.toLowerCase().matchAll(/\b(?:the|that|this|those|these|your|an?)\s+([a-z]+(?:\s+[a-z]+)?)/g),
  ].at(-1)?.[1];
  const topic = phrase ? `the ${phrase}` : topics.length ? rng.pick(topics) : 'the road ahead';
  const place = cues.location;
  const sentences = [rng.pick(OPENERS[cues.element] ?? OPENERS.none ?? [])];
  const self = who
    ? `a ${who}`
    : rng.pick(['an old hand', 'someone who has seen a few winters', 'a simple soul']);
  switch (intentOf(question)) {
    case 'greet':
      sentences.push(`I'm ${self}. What brings you${place ? ` to ${place}` : ' here'}?`);
      break;
    case 'trade':
      sentences.push(
        rng.pick([
          `${topic === 'the road ahead' ? 'My wares' : topic.charAt(0).toUpperCase() + topic.slice(1)}? Fair prices for fair coin, and ${rng.int(3, 40) * 5} gold is fair.`,
          `I deal in ${topic}, among other things. Show me your purse and we'll see what it buys.`,
        ]),
      );
      break;
    case 'quest':
      sentences.push(
        rng.pick([
          `There is work, if you have the stomach for it: something stirs${place ? ` in ${place}` : ' beyond the ridge'}, and someone has to deal with it.`,
          `Bring me proof that the ${cues.enemy ?? 'beast on the old road'} is dead, and the reward is yours.`,
        ]),
      );
      break;
    case 'where':
      sentences.push(
        rng.pick([
          `Follow the old road ${rng.pick(['north', 'east', 'past the ruined mill', 'along the river'])}; you will find ${topic} soon enough${place ? `, near ${place}` : ''}.`,
          `Few know the way to ${topic}. I'd start ${place ? `at ${place}` : 'at the crossroads'}, and I'd bring a torch.`,
        ]),
      );
      break;
    default:
      sentences.push(
        rng.pick([
          `As ${self}, I can tell you this much about ${topic}: it is real enough${place ? `, and it waits in ${place}` : ''}.`,
          `They say ${topic} favours the bold${place ? `, especially near ${place}` : ''}.`,
          `Few know the truth of ${topic}, but I've seen it with my own eyes.`,
        ]),
      );
  }
  sentences.push(rng.pick(CLOSERS));
  return sentences.join(' ');
}
