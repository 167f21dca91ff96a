// Around the board: the buttons' states, the title, the move counter, the timer, the banner
// (won, lost, no winning line left, a solution being shown) and this game's statistics line.

import { $, el } from "./draw.js";
import { positionKey, state, variantOf } from "./state.js";
import { fmtTime, plural } from "./words.js";

let respondedAt = 0;

export function updateControls() {
  const g = state.game;
  const inPlay = Boolean(g) && g.status === "in play";
  $("undo").disabled = !g || !g.moves.length;
  $("redo").disabled = !g || !g.redo;
  $("restart").disabled = !g || !g.moves.length;
  $("hint").disabled = !inPlay;
  $("auto-finish").disabled = !inPlay;
  const solving = Boolean(state.solving); // the button stops it
  $("solve").disabled = !inPlay && !solving;
  $("solve").textContent = solving ? "Stop" : "Solve";
  $("move-count").textContent = g ? plural(g.moves.length, "move") : "";
  if (!g) return;
  const deal = g.daily ? `daily deal of ${g.daily}` : g.number ? `deal ${g.number}` : "your deal";
  const name = [g.title, deal, ...optionWords(g.options)].join(" · ");
  $("deal-title").textContent = name;
  document.title = `${name} · thirteen`;
  const select = $("game-select");
  if (select.value !== g.game) select.value = g.game;
}

function optionWords(options) {
  const out = [];
  if (options.worry_back) out.push("worry back");
  if (options.foundations === "rank") out.push("foundations by rank");
  return out;
}

// The controls show the options of the game on the table, or those the player chose for the
// next deal.
export function showOptions() {
  const g = state.game;
  const v = g && variantOf(g.game);
  const takes = Boolean(v && Object.keys(v.options).length);
  $("options").hidden = !takes;
  if (!takes) return;
  const shown = state.chosen && state.chosen.game === g.game ? state.chosen.options : g.options;
  const value = (key) => (key in shown ? shown[key] : v.options[key]);
  $("opt-worry-back").checked = Boolean(value("worry_back"));
  $("opt-foundations").value = value("foundations");
}

function button(action, text) {
  const e = el("button", "", text);
  e.type = "button";
  e.dataset.action = action;
  return e;
}

// ``replay``: {shown, total} while a solution is shown move by move.
export function updateBanner(replay) {
  const b = $("banner");
  const g = state.game;
  b.className = "banner";
  b.replaceChildren();
  if (g && replay) {
    b.classList.add("replay");
    b.append(`Solve's line: move ${replay.shown} of ${replay.total}.`, button("skip", "Skip to the end"));
  } else if (g && g.status === "won") {
    b.classList.add("won");
    const won = g.assisted ? "Won with Solve's help (counted apart from your own wins)." : "You won!";
    b.append(`${won} ${plural(g.moves.length, "move")} in ${fmtTime(g.elapsed)}.`, button("new", "New deal"));
  } else if (g && g.status === "lost") {
    b.classList.add("lost");
    b.append("No moves left.", button("undo", "Undo"), button("new", "New deal"));
  } else if (g && state.doomedAt === positionKey(g)) {
    b.classList.add("doomed");
    b.append("No winning line remains.");
    if (g.moves.length) b.append(button("undo", "Undo"));
    b.append(button("new", "New deal"));
  } else {
    b.hidden = true;
    return;
  }
  b.hidden = false;
}

export function updateStats() {
  const g = state.game;
  const s = g && g.stats;
  const box = $("stats");
  box.replaceChildren();
  if (!s) return;
  const item = (label, value) => {
    const span = el("span", "", `${label} `);
    span.append(el("b", "", String(value)));
    box.append(span);
  };
  box.append(el("span", "", `${g.title}:`));
  item("Played", s.played);
  item("Won", `${s.won} (${Math.round(100 * s.win_rate)}%)`);
  item("Won with Solve", s.assisted);
  item("Lost", s.lost);
  item("Streak", `${s.current_streak} (best ${s.best_streak})`);
  item("Best time", s.best_time == null ? "–" : fmtTime(s.best_time));
  item("Fewest moves", s.fewest_moves == null ? "–" : s.fewest_moves);
  item("Hints", s.hints);
}

export function answered() {
  respondedAt = performance.now();
}

export function tick() {
  const g = state.game;
  if (!g) return;
  let t = g.elapsed;
  if (g.status === "in play") { // from the deal, as the server counts it
    t += Math.min(g.since + (performance.now() - respondedAt) / 1000, g.idle_cap);
  }
  $("timer").textContent = fmtTime(t);
}

export function setTimerHidden(hidden) {
  $("timer").classList.toggle("hidden", hidden);
  $("timer").setAttribute("aria-hidden", hidden ? "true" : "false");
  const b = $("timer-toggle");
  b.textContent = hidden ? "Show timer" : "Hide timer";
  b.setAttribute("aria-pressed", hidden ? "true" : "false");
}
