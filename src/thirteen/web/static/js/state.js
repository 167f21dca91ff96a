// What the page holds: the server's last answer for the game on the table and the player's
// picking. Every rule lives on the server, which lists the legal moves; these helpers only
// read that answer.

import { cardName } from "./words.js";

export const state = {
  game: null, // the server's last answer for the game on the table
  variants: [], // the games, with their rules
  sel: null, // the picked source: {from, count}
  doomedAt: null, // the position (`positionKey`) the solver proved has no winning line left
  chosen: null, // options the player chose for their next deal: {game, options}
  typedBoard: null, // the last typed-in deal, to deal it again under changed options
  epoch: 0, // bumped by every act of the player: slower answers from before it are dropped
  solving: null, // Solve's request in flight: {id, stopped} (stopped: the player played on)
};

// Marks an act of the player; returns the new epoch (see `state.epoch`).
export function acted() {
  state.epoch += 1;
  return state.epoch;
}

// A position: the game and the moves that led to it. A message belongs to one.
export function positionKey(g) {
  return g ? `${g.id}:${g.moves.join(" ")}` : "";
}

// A pile's name in words ("column 3", "the spades foundation"), as the engine's view names it.
export function pileName(id) {
  const names = state.game ? state.game.view.names : {};
  return names[id] || id;
}

export function variantOf(name) {
  return state.variants.find((x) => x.name === name);
}

export function movesFrom(pile, count) {
  const g = state.game;
  return g ? g.legal.filter((m) => m.from === pile && (count == null || m.count === count)) : [];
}

export function counts(pile) {
  return [...new Set(movesFrom(pile).map((m) => m.count))].sort((a, b) => a - b);
}

export function findMove(from, count, to) {
  return movesFrom(from, count).find((m) => m.to === to) || null;
}

// The codes of the top ``count`` cards of a pile, bottom first.
export function topCodes(pile, count) {
  const v = state.game.view;
  let cards = [];
  let m;
  if (pile === "s") cards = v.stock_top ? [v.stock_top] : [];
  else if ((m = /^c(\d+)$/.exec(pile))) cards = v.columns[m[1] - 1];
  else if ((m = /^w(\d+)$/.exec(pile))) cards = v.waste[m[1] - 1];
  else {
    const f = v.foundations.find((x) => x.name === pile);
    cards = f ? f.cards : [];
  }
  return cards.slice(Math.max(0, cards.length - count));
}

export function what(from, count) {
  const codes = topCodes(from, count);
  return count > 1 ? `${count} cards from ${cardName(codes[0])}` : cardName(codes[0]);
}

export function describe(m) {
  return `${what(m.from, m.count)} from ${pileName(m.from)} to ${pileName(m.to)}`;
}
