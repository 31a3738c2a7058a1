// Why I sit out, in words for my "I'm back" prompt. The reason comes from the sit_out
// event, or after a reload from the snapshot (my own seat's out_reason).

const WHY = {
  timed_out: "Your time ran out: you are sitting out",
  asked: "You chose to sit out: you are sitting out",
  disconnected: "You were away (your connection dropped): you are sitting out",
};

/** The prompt's first words for a sit-out reason ("" or unknown: plain words). */
export function awayWhy(reason) {
  return Object.prototype.hasOwnProperty.call(WHY, reason) ? WHY[reason] : "You are sitting out";
}
