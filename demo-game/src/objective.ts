/** Where the player stands in the run, as the dungeon knows it. */
export interface RunState {
  kills: number;
  attack: number;
  doorNeeds: number;
  /** The hero has seen the Frost Door. */
  doorSeen: boolean;
  doorOpen: boolean;
  bossSeen: boolean;
  won: boolean;
  wearsSomething: boolean;
  /** Something in the bag could be worn. */
  canWearMore: boolean;
  touch: boolean;
}

/** The one next step shown under the room name, so a new player always knows what to do. */
export function objective(run: RunState): string {
  const heroPanel = run.touch ? 'tap Hero' : 'press H';
  if (run.won) return 'Victory! The Frost Giant is defeated.';
  if (run.bossSeen) return 'Defeat the Frost Giant: wear your best gear, drink potions when hurt';
  if (run.doorOpen) return 'The door is open: enter the Frozen Throne';
  if (run.doorSeen && run.attack < run.doorNeeds)
    return `The Frost Door needs ${run.doorNeeds} attack (you have ${run.attack}): wear a weapon, or forge one at the Workbench`;
  if (run.doorSeen) return 'Strike the Frost Door until it shatters';
  if (!run.wearsSomething && run.canWearMore) return `Wear the gear you found: ${heroPanel}`;
  if (run.kills === 0) return 'Defeat monsters and walk over their loot';
  return 'Explore east to find the Frost Giant’s lair';
}
