// Words for cards, piles, moves and times, as the page says them to a player and to a screen
// reader.

const SUIT_NAMES = { C: "clubs", S: "spades", H: "hearts", D: "diamonds" };
const RANK_NAMES = { A: "ace", T: "10", J: "jack", Q: "queen", K: "king" };

export function suitName(suit) {
  return SUIT_NAMES[suit];
}

export function rankText(rank) {
  return rank === "T" ? "10" : rank;
}

export function cardName(code) {
  if (!code) return "a face-down card";
  return `${RANK_NAMES[code[0]] || code[0]} of ${SUIT_NAMES[code[1]]}`;
}

export function capital(text) {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

export function listCards(cards) {
  const up = cards.filter((c) => c !== null);
  const down = cards.length - up.length;
  const parts = [];
  if (down) parts.push(`${down} face down`);
  if (up.length) parts.push(up.map(cardName).join(", "));
  return parts.join(", ") || "empty";
}

export function fmtTime(seconds) {
  const s = Math.max(0, Math.floor(seconds));
  const h = Math.floor(s / 3600), m = Math.floor((s % 3600) / 60), r = s % 60;
  const mm = h ? String(m).padStart(2, "0") : String(m);
  return (h ? `${h}:` : "") + `${mm}:${String(r).padStart(2, "0")}`;
}

export function plural(n, word) {
  return `${n} ${word}${n === 1 ? "" : "s"}`;
}
