// The player's hands: clicks, drags (mouse, pen and finger alike, through pointer events),
// double-clicks and keys. Each ends in one of the handlers `bindInput` is given:
// pick(pile, count, keyboard), home(pile), action(name), rules(), cancel(), and acted(), called
// first on any act of the player.

import { pileEl, $ } from "./draw.js";
import { movesFrom, state } from "./state.js";

let on = null;
let drag = null;
let suppressClick = false;
let clickPlayed = false; // a click of the current click sequence played a move

function countOf(pile, card) {
  if (!card || !card.dataset.index) return 1;
  const cards = pile.querySelectorAll(":scope > .card");
  return cards.length - Number(card.dataset.index);
}

function onClick(e) {
  if (suppressClick) { suppressClick = false; return; }
  on.acted();
  const pile = e.target.closest(".pile");
  if (!pile) { on.cancel(); return; }
  const card = e.target.closest(".card");
  if (e.detail <= 1) clickPlayed = false;
  const played = on.pick(pile.dataset.pile,
    card && !card.classList.contains("back") ? countOf(pile, card) : null, false);
  if (played) clickPlayed = true;
}

function onDoubleClick(e) {
  const pile = e.target.closest(".pile");
  // A click of this double-click already played a move: do not play a second one.
  if (!pile || clickPlayed) return;
  e.preventDefault();
  on.acted();
  on.cancel();
  on.home(pile.dataset.pile);
}

function onPointerDown(e) {
  if (e.button !== 0 || !state.game) return;
  const card = e.target.closest(".card");
  const pile = e.target.closest(".pile");
  if (!card || !pile || !card.dataset.card) return;
  const count = countOf(pile, card);
  if (!movesFrom(pile.dataset.pile, count).length) return;
  drag = { pile: pile.dataset.pile, count, x0: e.clientX, y0: e.clientY, id: e.pointerId,
    active: false, els: [] };
  // a finger's drag must not turn into a scroll of the page
  if (e.pointerType !== "mouse" && card.setPointerCapture) card.setPointerCapture(e.pointerId);
}

function onPointerMove(e) {
  if (!drag || e.pointerId !== drag.id) return;
  const dx = e.clientX - drag.x0, dy = e.clientY - drag.y0;
  if (!drag.active) {
    if (Math.hypot(dx, dy) < 6) return;
    drag.active = true;
    on.acted();
    on.pick(drag.pile, drag.count, false, true);
    const p = pileEl(drag.pile);
    const cards = p ? [...p.querySelectorAll(":scope > .card")] : [];
    drag.els = cards.slice(cards.length - drag.count);
    for (const c of drag.els) c.classList.add("dragging");
  }
  e.preventDefault();
  for (const c of drag.els) c.style.transform = `translate(${dx}px, ${dy}px)`;
}

function endDrag(e, cancelled) {
  if (!drag || e.pointerId !== drag.id) return;
  const d = drag;
  drag = null;
  if (!d.active) return;
  suppressClick = true;
  setTimeout(() => { suppressClick = false; }, 0);
  for (const c of d.els) { c.classList.remove("dragging"); c.style.transform = ""; }
  const under = cancelled ? null : document.elementFromPoint(e.clientX, e.clientY);
  const target = under && under.closest("#board .pile");
  on.drop(d.pile, d.count, target ? target.dataset.pile : null);
}

// ---- the keyboard --------------------------------------------------------------------------
function groups() {
  return [...$("board").querySelectorAll("[data-group]")]
    .sort((a, b) => Number(a.dataset.group) - Number(b.dataset.group))
    .map((g) => [...g.querySelectorAll(".pile[tabindex]")]);
}

function moveFocus(from, key) {
  const gs = groups();
  const gi = gs.findIndex((g) => g.includes(from));
  if (gi < 0) return;
  const g = gs[gi];
  const i = g.indexOf(from);
  let target = null;
  if (key === "ArrowLeft") target = g[(i - 1 + g.length) % g.length];
  else if (key === "ArrowRight") target = g[(i + 1) % g.length];
  else {
    const ng = gs[(gi + (key === "ArrowDown" ? 1 : -1) + gs.length) % gs.length];
    const x = from.getBoundingClientRect().left;
    const dist = (p) => Math.abs(p.getBoundingClientRect().left - x);
    target = ng.reduce((best, p) => (dist(p) < dist(best) ? p : best), ng[0]);
  }
  if (target) target.focus();
}

function onBoardKey(e) {
  const pile = e.target.closest && e.target.closest(".pile");
  if (!pile) return;
  const id = pile.dataset.pile;
  switch (e.key) {
    case "Enter":
    case " ":
      e.preventDefault();
      on.acted();
      on.pick(id, null, true);
      break;
    case "ArrowLeft": case "ArrowRight": case "ArrowUp": case "ArrowDown":
      e.preventDefault();
      moveFocus(pile, e.key);
      break;
    case "f": case "F":
      e.preventDefault();
      e.stopPropagation();
      on.acted();
      on.home(id);
      break;
    case "Escape":
      on.cancel(true);
      break;
    default:
  }
}

const KEYS = { u: "undo", r: "redo", h: "hint", a: "auto", s: "solve", n: "new" };

function onGlobalKey(e) {
  if (e.ctrlKey || e.metaKey || e.altKey) return;
  const t = e.target;
  if (t && (t.tagName === "INPUT" || t.tagName === "SELECT" || t.tagName === "TEXTAREA")) return;
  if (document.querySelector("dialog[open]")) return;
  const k = e.key.toLowerCase();
  if (KEYS[k]) { e.preventDefault(); on.acted(); on.action(KEYS[k]); }
  else if (e.key === "?") { e.preventDefault(); on.rules(); }
  else if (e.key === "Escape") on.cancel(true);
}

export function bindInput(handlers) {
  on = handlers;
  const board = $("board");
  board.addEventListener("click", onClick);
  board.addEventListener("dblclick", onDoubleClick);
  board.addEventListener("pointerdown", onPointerDown);
  board.addEventListener("keydown", onBoardKey);
  window.addEventListener("pointermove", onPointerMove, { passive: false });
  window.addEventListener("pointerup", (e) => endDrag(e, false));
  window.addEventListener("pointercancel", (e) => endDrag(e, true));
  document.addEventListener("keydown", onGlobalKey);
}
