/** Where the player stands in the run, as the dungeon knows it. */
export interface RunState {
  kills: number;
  attack: number;
  /** A weapon is worn (the Frost Door cracks under nothing else). */
  armed: boolean;
  doorNeeds: number;
  /** The hero has seen the Frost Door. */
  doorSeen: boolean;
  doorOpen: boolean;
  /** The hero has been into the Bone Gallery, and into the Ember Shrine. */
  gallerySeen: boolean;
  shrineSeen: boolean;
  bossSeen: boolean;
  won: boolean;
  wearsSomething: boolean;
  /** Something in the bag could be worn. */
  canWearMore: boolean;
  touch: boolean;
}

/** Where the goal arrow points: the place of the next step. */
export type GoalPlace = 'monster' | 'door' | 'gallery' | 'shrine' | 'throne' | 'giant';

export interface Goal {
  /** The one next step, shown under the room name. */
  text: string;
  /** Where it happens, when that is somewhere in the dungeon (not in a panel). */
  place?: GoalPlace;
}

/** How to open the Bag, in the words of the goal line and the pick-up toast. */
export const bagKey = (touch: boolean) => (touch ? 'tap Bag' : 'press I');

/** The one next step, so a new player always knows what to do (and where: the goal arrow). */
export function objective(run: RunState): Goal {
  const bag = bagKey(run.touch);
  if (run.won) return { text: 'Victory! The Frost Giant is defeated.' };
  if (run.bossSeen)
    return {
      text: 'Defeat the Frost Giant: step out of the ring when it stomps, drink potions when hurt',
      place: 'giant',
    };
  if (run.doorOpen) return { text: 'The door is open: enter the Frozen Throne', place: 'throne' };
  const weak = !run.armed || run.attack < run.doorNeeds;
  // Gear comes from the rooms off the Crossroads: north first, then south, then the door east.
  const deeper: Goal | undefined = !run.gallerySeen
    ? { text: 'Climb the Bone Stair north: the Bone Gallery’s skeletons carry better gear', place: 'gallery' }
    : !run.shrineSeen
      ? { text: 'Go down the Ember Stair south: the Ember Shrine holds the best gear', place: 'shrine' }
      : undefined;
  if (run.doorSeen && weak)
    return {
      text: `The Frost Door needs a weapon of ${run.doorNeeds}+ attack (you have ${run.armed ? run.attack : 'none'}): ${
        run.canWearMore
          ? `wear your best from your Bag (${bag})`
          : 'win better gear in the rooms north and south'
      }`,
      place: run.canWearMore ? undefined : (deeper?.place ?? 'monster'),
    };
  if (run.doorSeen) return { text: 'Strike the Frost Door until it shatters', place: 'door' };
  if (!run.wearsSomething && run.canWearMore)
    return { text: `Wear the gear you found: open your Bag (${bag})` };
  if (run.kills === 0) return { text: 'Defeat monsters and walk over their loot', place: 'monster' };
  return deeper ?? { text: 'Explore east to find the Frost Giant’s lair', place: 'door' };
}
