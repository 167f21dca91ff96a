// Drawing the game on the table. The board is a list of slots (a pile, with its caption where
// it has one); each is drawn from the server's view and redrawn only when what it shows
// changed, so a move redraws the two piles it touched. Long piles are squeezed to fit the
// window, so that the card to play is always on screen.

import { movesFrom, pileName, state } from "./state.js";
import { capital, cardName, listCards, rankText } from "./words.js";

const SVG_NS = "http://www.w3.org/2000/svg";
const CARD = /^[A2-9TJQK][CSHD]$/;

export const $ = (id) => document.getElementById(id);

export function el(tag, cls, text) {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text != null) e.textContent = text;
  return e;
}

function suitSvg(suit, cls) {
  const svg = document.createElementNS(SVG_NS, "svg");
  svg.setAttribute("class", cls || "");
  svg.setAttribute("viewBox", "0 0 100 100");
  svg.setAttribute("aria-hidden", "true");
  const use = document.createElementNS(SVG_NS, "use");
  use.setAttribute("href", `#suit-${suit}`);
  svg.appendChild(use);
  return svg;
}

function makeCard(code, index, movable) {
  let card;
  if (code === null || !CARD.test(code)) {
    card = el("div", "card back");
  } else {
    const suit = code[1];
    card = el("div", "card" + (suit === "H" || suit === "D" ? " red" : ""));
    card.dataset.card = code;
    const corner = el("div", "corner");
    // The rank is drawn by CSS from data-rank: the pile's accessible name says the cards,
    // and no text inside it says less.
    const rank = el("span", "rank");
    rank.dataset.rank = rankText(code[0]);
    corner.append(rank, suitSvg(suit));
    const other = corner.cloneNode(true);
    other.classList.add("br");
    card.append(corner, other);
    if ("JQK".includes(code[0])) {
      const face = el("span", "face");
      face.dataset.rank = code[0];
      card.append(face);
    }
    else card.append(suitSvg(suit, "pip"));
  }
  if (index != null) card.dataset.index = String(index);
  if (movable) card.classList.add("movable");
  return card;
}

// A pile the player can pick from or play to, named by what it holds.
function makePile(id, cls, label) {
  const p = el("div", `pile ${cls}`);
  p.dataset.pile = id;
  p.tabIndex = 0;
  p.setAttribute("role", "button");
  p.setAttribute("aria-label", label);
  return p;
}

function placeholder(pile, content) {
  const label = el("div", "label");
  if (typeof content === "string" && /^[CSHD]$/.test(content)) label.append(suitSvg(content));
  else if (content) label.dataset.rank = content;
  pile.append(el("div", "empty"), label);
}

// ---- the slots of each family: {key, data, build} --------------------------------------
function slot(key, data, build) {
  return { key, sig: JSON.stringify(data), build };
}

function foundationSlot(f, text, mark, caption) {
  const top = f.cards[f.cards.length - 1];
  const shown = f.cards.slice(-2);
  return slot(f.name, [f.cards.length, shown, text, caption], () => {
    const p = makePile(f.name, "foundation slot", text);
    placeholder(p, mark);
    if (!top && f.name[0] === "k") p.querySelector(".label").append(suitSvg(f.name[1]));
    for (const c of shown) p.append(makeCard(c));
    if (!caption) return p;
    const wrap = el("div", "stack");
    wrap.append(p, caption());
    return wrap;
  });
}

// A fan of cards (a column, a waste pile): each card knows its index and whether it moves.
function fanSlot(id, cls, title, cards, movableAt, caption) {
  const movable = cards.map((c, k) => c !== null && movableAt(k));
  return slot(id, [cards, movable, title], () => {
    const p = makePile(id, `${cls} fan`, `${title}: ${listCards(cards)}`);
    cards.forEach((c, k) => p.append(makeCard(c, k, movable[k])));
    if (!caption) return p;
    const wrap = el("div", "stack");
    wrap.append(p, el("div", "caption", caption));
    return wrap;
  });
}

function packerRows(v) {
  const foundations = v.foundations.map((f) => {
    const top = f.cards[f.cards.length - 1];
    const m = /^[fk]([CSHD])$/.exec(f.name);
    const mark = m ? (f.name[0] === "k" ? "K" : m[1]) : "A";
    return foundationSlot(f, `${pileName(f.name)}: ${top ? cardName(top) : "empty"}, ${f.cards.length} cards`, mark);
  });
  const columns = v.columns.map((col, i) => {
    const id = `c${i + 1}`;
    return fanSlot(id, "column", capital(v.names[id]), col, (k) => movesFrom(id, col.length - k).length > 0);
  });
  return [
    { cls: "row foundations", label: "Foundations", slots: foundations },
    { cls: "tableau", label: "Columns", slots: columns },
  ];
}

function needsText(n) {
  return n ? rankText(n) : "";
}

function calculationRows(v) {
  const foundations = v.foundations.map((f) => {
    const top = f.cards[f.cards.length - 1];
    const needs = f.needs ? `needs ${needsText(f.needs)}` : "complete";
    const caption = () => {
      const cap = el("div", "caption");
      cap.append(document.createTextNode(`+${f.interval} · `));
      cap.append(el("b", "", f.needs ? `next ${needsText(f.needs)}` : "done"));
      return cap;
    };
    return foundationSlot(f, `${pileName(f.name)}, built by ${f.interval}: top ${top ? cardName(top) : "none"}, ${needs}`, "", caption);
  });
  const more = Math.max(0, v.stock_left - 1);
  const rest = slot("stock-rest", [more], () => {
    const wrap = el("div", "stack");
    const back = el("div", "pile slot stock-rest");
    back.setAttribute("aria-hidden", "true");
    placeholder(back, "");
    if (more > 0) back.append(makeCard(null));
    wrap.append(back, el("div", "caption stock-count", `${more} face down`));
    return wrap;
  });
  const top = v.stock_top;
  const movable = Boolean(top) && movesFrom("s", 1).length > 0;
  const stock = slot("s", [top, more, movable], () => {
    const wrap = el("div", "stack");
    const s = makePile("s", "stock slot",
      top ? `Stock: turned card ${cardName(top)}, ${more} more face down` : "Stock: empty");
    placeholder(s, "");
    if (top) s.append(makeCard(top, null, movable));
    wrap.append(s, el("div", "caption", top ? "turned card" : "stock out"));
    return wrap;
  });
  const waste = v.waste.map((pile, i) => {
    const id = `w${i + 1}`;
    return fanSlot(id, "waste", capital(v.names[id]), pile,
      (k) => k === pile.length - 1 && movesFrom(id, 1).length > 0, id);
  });
  return [
    { cls: "row top foundations", label: "Foundations", slots: foundations },
    { cls: "row stock-row", label: "Stock", slots: [rest, stock] },
    { cls: "row waste-row", label: "Waste piles", slots: waste },
  ];
}

function markersRow(v) {
  const mrow = el("div", "row markers-row");
  mrow.append(el("span", "group-label", "Markers"));
  const markers = el("div", "markers");
  markers.setAttribute("aria-label", `Markers (out of play): ${v.markers.map(cardName).join(", ")}`);
  markers.setAttribute("role", "note");
  for (const c of v.markers) {
    const m = el("div", "marker-card" + ("HD".includes(c[1]) ? " red" : ""));
    m.append(el("span", "", rankText(c[0])));
    markers.append(m);
  }
  mrow.append(markers);
  return mrow;
}

// ---- drawing the board ---------------------------------------------------------------------
let layoutKey = "";

function buildBoard(board, g, rows) {
  board.replaceChildren();
  board.className = `board ${g.family}`;
  const v = g.view;
  if (g.family === "packer") {
    const n = v.columns.length;
    board.style.setProperty("--per-row-wide", String(n));
    board.style.setProperty("--per-row-narrow", String(Math.ceil(n / 2)));
  } else {
    const width = Math.max(v.foundations.length + (v.markers.length ? 2 : 0), v.waste.length + 2, 6);
    board.style.setProperty("--per-row-wide", String(width));
    board.style.setProperty("--per-row-narrow", "4");
    if (v.markers.length) board.append(markersRow(v));
  }
  rows.forEach((row, i) => {
    const r = el("div", row.cls);
    r.setAttribute("role", "group");
    r.setAttribute("aria-label", row.label);
    r.dataset.group = String(i);
    r.style.setProperty("--in-row", String(row.slots.length));
    board.append(r);
  });
}

export function pileEl(id) {
  return $("board").querySelector(`.pile[data-pile="${CSS.escape(id)}"]`);
}

export function topCardEls(id, count) {
  const p = pileEl(id);
  if (!p) return [];
  const cards = [...p.querySelectorAll(":scope > .card")];
  return cards.slice(Math.max(0, cards.length - count));
}

// Draw the game on the table: the whole board for a new game, else only the slots whose
// content changed. ``moved``: piles whose top card just landed. Then `squeeze`, once what
// stands above the board is drawn too.
export function drawBoard(moved) {
  const g = state.game;
  const board = $("board");
  const focused = document.activeElement && document.activeElement.closest &&
    document.activeElement.closest("#board .pile");
  const focusId = focused ? focused.dataset.pile : null;
  const rows = g.family === "packer" ? packerRows(g.view) : calculationRows(g.view);
  const key = `${g.id}|${g.family}|` + rows.map((r) => r.slots.map((s) => s.key).join(",")).join("/");
  if (key !== layoutKey) {
    buildBoard(board, g, rows);
    layoutKey = key;
  }
  const rowEls = board.querySelectorAll(":scope > [data-group]");
  rows.forEach((row, i) => {
    const r = rowEls[i];
    row.slots.forEach((s, k) => {
      const old = r.children[k];
      if (old && old.dataset.sig === s.sig) return;
      const made = s.build();
      made.dataset.sig = s.sig;
      if (old) old.replaceWith(made);
      else r.append(made);
    });
  });
  for (const id of moved || []) {
    const cards = topCardEls(id, 1);
    if (cards.length) cards[0].classList.add("moved");
  }
  if (focusId && !board.contains(document.activeElement)) {
    const p = pileEl(focusId);
    if (p) p.focus({ preventScroll: true });
  }
  highlight();
}

// Overlap the cards of a fan more where it would run past the bottom of the window, down to
// a strip that still shows each card's rank and suit; where even that does not fit, draw
// every card smaller (--cw-fit), a tenth at a time.
export function squeeze() {
  const board = $("board");
  board.style.removeProperty("--cw-fit");
  for (let round = 0; round < 6 && !fitFans(board); round++) {
    const card = board.querySelector(".pile.fan > .card");
    if (!card) return;
    const cw = card.getBoundingClientRect().width * 0.9;
    if (cw < 34) return;
    board.style.setProperty("--cw-fit", `${cw.toFixed(1)}px`);
  }
}

// Set each fan's strip (--step) to fit the window; false if one does not fit at the least.
function fitFans(board) {
  let fits = true;
  for (const p of board.querySelectorAll(".pile.fan")) p.style.removeProperty("--step");
  for (const p of board.querySelectorAll(".pile.fan")) {
    const cards = p.querySelectorAll(":scope > .card");
    if (cards.length < 2) continue;
    const ch = cards[0].getBoundingClientRect().height;
    const top = p.getBoundingClientRect().top + window.scrollY;
    const below = p.parentElement.classList.contains("stack") ? 22 : 6;
    const room = window.innerHeight - top - ch - below;
    const normal = ch * 0.26, least = ch * 0.2;
    const step = Math.min(normal, room / (cards.length - 1));
    if (step < least) fits = false;
    if (step < normal) p.style.setProperty("--step", `${Math.max(least, step).toFixed(1)}px`);
  }
  return fits;
}

export function highlight() {
  const board = $("board");
  for (const e of board.querySelectorAll(".selected, .target")) {
    e.classList.remove("selected", "target");
  }
  const sel = state.sel;
  if (!sel) return;
  for (const c of topCardEls(sel.from, sel.count)) c.classList.add("selected");
  for (const m of movesFrom(sel.from, sel.count)) {
    const p = pileEl(m.to);
    if (p) p.classList.add("target");
  }
}

export function showHint(m) {
  clearHints();
  if (m.from) for (const c of topCardEls(m.from, m.count || 1)) c.classList.add("hinted");
  if (m.to) {
    const p = pileEl(m.to);
    if (p) p.classList.add("hinted-target");
  }
}

export function clearHints() {
  for (const e of $("board").querySelectorAll(".hinted, .hinted-target")) {
    e.classList.remove("hinted", "hinted-target");
  }
}

// ---- messages: each belongs to the position it was said in ----------------------------------
let liveTimer = 0;
let messageAt = null;

export function announce(text) {
  const live = $("live");
  live.textContent = "";
  clearTimeout(liveTimer);
  liveTimer = setTimeout(() => { live.textContent = text; }, 40);
}

// Show ``text`` about position ``at`` (a `positionKey`); it goes when the position changes.
export function say(text, at, error) {
  const m = $("message");
  m.classList.toggle("error", Boolean(error));
  m.textContent = text;
  messageAt = at;
  if (text) announce(text);
}

export function dropStaleMessage(at) {
  if (messageAt !== null && messageAt !== at) say("", null);
}

export function messageShown() {
  return $("message").textContent;
}
