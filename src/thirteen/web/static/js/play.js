// Playing the game on the table: every answer of the server goes through `setGame`, which
// redraws what changed and drops what belonged to the position before (the picked cards, a
// hint, a message). Answers that come back after the player moved on are dropped.

import { SITTING, api, beside, queued } from "./api.js";
import {
  $, announce, clearHints, drawBoard, dropStaleMessage, highlight, say, showHint, squeeze,
} from "./draw.js";
import {
  counts, describe, findMove, movesFrom, pileName, positionKey, state, what,
} from "./state.js";
import {
  answered, showOptions, tick, updateBanner, updateControls, updateStats,
} from "./status.js";
import { plural } from "./words.js";

const REPLAY_STEP = 160; // ms between two moves of Solve's line
let analysisTimer = 0;
let replay = null; // Solve's line being shown: {id, shown, total, skip}

export function here() {
  return positionKey(state.game);
}

export function showError(text) {
  say(text, here(), true);
}

// A request about the game on the table, in turn; its error is shown, and answers null.
export async function send(method, path, body) {
  try {
    return await queued(method, path, body);
  } catch (e) {
    showError(e.message);
    if (e.changed) await catchUp(true);
    return null;
  }
}

// Another tab (or window) may have played on: show where the game is now. ``refused``: an act
// of this page was refused for it, so it says that nothing was done. Not while Solve thinks or
// its line is shown: the game then changes under this page's own hand.
export async function catchUp(refused) {
  const g = state.game;
  if (!g || replay || state.solving) return;
  let data = null;
  try { data = await queued("GET", `/api/games/${g.id}`); } catch (e) { return; }
  if (state.game !== g) return; // the player acted meanwhile: their answer is newer
  if (positionKey(data) !== positionKey(g) || data.redo !== g.redo || data.result !== g.result) {
    setGame(data, { quiet: true });
    const words = "This game was played on elsewhere: showing where it is now."
      + (refused ? " Nothing was done." : "");
    if (refused) say(words, here());
    announce(words);
  }
}

// An act carries the version of the game it is played on, and the server refuses it (409,
// nothing done) once the game has changed: another tab played on, or Solve's line came first.
// The version is read when the act goes, after this page's earlier acts are answered, so quick
// clicks all count. While Solve thinks it is the version the act was chosen in, and the act
// stops Solve: of the act and Solve's line, never both are played.
function guarded(path) {
  const g = state.game;
  const solving = state.solving;
  if (solving && g && g.id === solving.id) {
    solving.stopped = solving.stopped || "played";
    return `${path}?at=${g.version}`;
  }
  return atNow(path, g.id);
}

// ``path`` with the version of game ``id`` as it is when the request goes; null (send nothing)
// if another game is on the table by then.
function atNow(path, id) {
  return () => (state.game && state.game.id === id ? `${path}?at=${state.game.version}` : null);
}

// ``opts``: push (a new entry in the browser's history), moved (piles to mark), quiet (do not
// show the server's message).
export function setGame(data, opts = {}) {
  const before = state.game;
  if (before && before.id !== data.id) closeGame(before);
  state.game = data;
  answered();
  state.sel = null;
  if (!before || before.id !== data.id) state.chosen = null;
  const entry = { id: data.id };
  if (opts.push && before && before.id !== data.id) history.pushState(entry, "", data.url);
  else history.replaceState(entry, "", data.url);
  drawBoard(opts.moved);
  updateControls();
  updateBanner(replay);
  updateStats();
  showOptions();
  tick();
  document.body.dataset.ply = String(data.moves.length);
  document.body.dataset.status = data.status;
  document.body.dataset.game = String(data.id);
  dropStaleMessage(here());
  if (data.message && !opts.quiet) say(data.message, here());
  squeeze();
  scheduleAnalysis();
}

// The page leaves a game when it shows another game or goes: unless another page shows it, the
// server then stops the game's clock until the game is read again, so the time between two
// visits is no play. ``keepalive``: the request outlives the page.
export function closeGame(g, keepalive = false) {
  if (!g || g.status !== "in play" || g.result) return;
  fetch(`/api/games/${g.id}/close`, { method: "POST", credentials: "same-origin", keepalive,
    headers: { Sitting: SITTING } }).catch(() => undefined);
}

// Is a winning line left? Asked a moment after the position settles; the answer counts only
// for the position it was asked about.
function scheduleAnalysis() {
  clearTimeout(analysisTimer);
  const g = state.game;
  if (!g || g.status !== "in play" || replay) return;
  const at = here();
  analysisTimer = setTimeout(async () => {
    let a = null;
    try { a = await api("GET", `/api/games/${g.id}/analysis`); } catch (e) { return; }
    if (!a || here() !== at || a.verdict !== "unsolvable") return;
    state.doomedAt = at;
    updateBanner(replay);
    announce(a.message);
  }, 450);
}

// ---- picking and moving cards ------------------------------------------------------------
function select(from, count, quiet) {
  state.sel = { from, count };
  clearHints();
  highlight();
  if (quiet) return;
  const targets = movesFrom(from, count).map((m) => pileName(m.to));
  announce(`Picked ${what(from, count)} from ${pileName(from)}. It can go to ${targets.join(", ")}.`);
}

// Esc: the picked cards are put back; with none picked, a Solve thinking is stopped.
export function cancel(say) {
  if (!state.sel) {
    if (say) stopSolve();
    return;
  }
  state.sel = null;
  highlight();
  if (say) announce("Cancelled.");
}

// A pile was clicked or chosen with the keyboard (count null: no card named), or a drag
// began (quiet). True when it played a move.
export function pick(pile, count, keyboard, quiet) {
  const g = state.game;
  if (!g || replay) return false;
  const sel = state.sel;
  if (sel && !quiet) {
    if (sel.from === pile) {
      if (keyboard) {
        const next = counts(pile).find((c) => c > sel.count);
        if (next) { select(pile, next); return false; }
      } else if (count && count !== sel.count && movesFrom(pile, count).length) {
        select(pile, count);
        return false;
      }
      cancel(true);
      return false;
    }
    const m = findMove(sel.from, sel.count, pile);
    if (m) { play(m); return true; }
  }
  const c = count || counts(pile)[0];
  if (c && movesFrom(pile, c).length) { select(pile, c, quiet); return false; }
  state.sel = null;
  highlight();
  if (sel) announce(`${pileName(pile)} cannot take that.`);
  else if (count) announce("That card has no move.");
  return false;
}

export function drop(from, count, to) {
  const m = to && findMove(from, count, to);
  if (m) { play(m); return; }
  cancel(false);
  if (to && to !== from) announce(`${pileName(to)} cannot take that.`);
}

export function home(pile) {
  const g = state.game;
  if (!g || replay) return;
  const m = g.legal.find((x) => x.from === pile && x.home && x.count === 1);
  if (m) play(m);
  else announce(`Nothing from ${pileName(pile)} goes to a foundation now.`);
}

function statusWords() {
  const g = state.game;
  if (g.status === "won" && g.assisted) return ` Won with Solve's help in ${plural(g.moves.length, "move")}.`;
  if (g.status === "won") return ` You won in ${plural(g.moves.length, "move")}!`;
  if (g.status === "lost") return " No moves left.";
  return "";
}

async function play(m) {
  const words = describe(m);
  state.sel = null;
  highlight();
  const g = state.game;
  const data = await send("POST", guarded(`/api/games/${g.id}/moves`),
    { move: m.move, auto: $("auto-moves").checked });
  if (!data || !state.game || state.game.id !== data.id) return;
  setGame(data, { moved: [m.to] });
  let text = `Moved ${words}.`;
  const extra = data.played.length - 1;
  if (extra > 0) text += ` Then ${plural(extra, "safe move")} to the foundations.`;
  announce(text + statusWords());
}

const STEP_WORDS = {
  undo: () => "Move taken back.",
  redo: (d) => `Redid ${d.played[0] || "a move"}.`,
  restart: () => "Back to the deal; Redo replays the moves.",
  auto: (d) => (d.played.length ? `Played ${plural(d.played.length, "move")} to the foundations.` : ""),
};

// Undo, redo, restart or auto-finish.
export async function step(name) {
  const g = state.game;
  if (!g || replay) return;
  if ((name === "undo" || name === "restart") && !g.moves.length) return;
  if (name === "redo" && !g.redo) return;
  clearHints();
  const data = await send("POST", guarded(`/api/games/${g.id}/${name}`));
  if (!data || !state.game || state.game.id !== data.id) return;
  setGame(data);
  announce(STEP_WORDS[name](data) + statusWords());
}

export async function hint() {
  const g = state.game;
  if (!g || replay) return;
  const at = here();
  say("Thinking…", at);
  let h = null;
  try { h = await api("GET", `/api/games/${g.id}/hint`); } catch (e) {
    if (here() === at) showError(e.message);
    return;
  }
  if (here() !== at) return;
  if (h.verdict === "unsolvable") { state.doomedAt = at; updateBanner(replay); }
  if (!h.move) { say(h.message || "No hint.", at); return; }
  const m = state.game.legal.find((x) => x.move === h.move) || h;
  showHint(m);
  say(`Hint: ${m.from ? describe(m) : h.move}. ${h.message || ""}`.trim(), at);
}

// ---- Solve: the line is shown move by move (Skip, or any act of the player, jumps to its end)
function sleep(ms) {
  return new Promise((resolve) => { setTimeout(resolve, ms); });
}

// Stop the Solve thinking, if one is: the server stops it and its answer is then a refusal.
function stopSolve() {
  const solving = state.solving;
  if (!solving || solving.stopped) return;
  solving.stopped = "asked";
  say("Stopping Solve…", here());
  api("DELETE", `/api/games/${solving.id}/solve`).catch(() => undefined);
}

export function replaying() {
  return replay !== null;
}

export function skipReplay() {
  if (replay) replay.skip = true;
}

const STOPPED = { played: "Solve stopped: you played on.", asked: "Solve stopped." };

// Solve goes beside the queue, so the player may play on while it thinks (which stops it);
// asked again while it thinks (the button then says Stop), it stops.
export async function solve() {
  const g = state.game;
  if (state.solving) { stopSolve(); return; }
  if (!g || replay || g.status !== "in play") return;
  clearHints();
  const solving = { id: g.id, stopped: "" };
  state.solving = solving;
  updateControls();
  say("Solving… (play on, or Stop, to stop it)", here());
  let data = null;
  try {
    // sent once the player's earlier acts are answered, with the version they left; not at
    // all if Solve was stopped meanwhile or another game is on the table
    const path = atNow(`/api/games/${g.id}/solve`, g.id);
    data = await beside("POST", () => (solving.stopped ? null : path()));
  } catch (e) {
    if (state.game && state.game.id === g.id && !solving.stopped) showError(e.message);
  }
  if (!data && solving.stopped && state.game && state.game.id === g.id) {
    say(STOPPED[solving.stopped], here());
    announce(STOPPED[solving.stopped]);
  }
  state.solving = null;
  updateControls();
  if (!data || !state.game || state.game.id !== data.id) return;
  const total = data.played.length;
  if (total < 2) { setGame(data); announce(data.message + statusWords()); return; }
  replay = { id: data.id, shown: 0, total, skip: false };
  updateBanner(replay);
  // Take the line back without drawing it, then redo it one move at a time.
  let last = data;
  for (let i = 0; i < total && last; i++) last = await send("POST", `/api/games/${data.id}/undo`);
  while (last && replay.shown < total) {
    if (!replay.skip) await sleep(REPLAY_STEP);
    last = await send("POST", `/api/games/${data.id}/redo`);
    if (!last) break;
    replay.shown += 1;
    const onTable = state.game && state.game.id === data.id;
    if (replay.shown === total) {
      replay = null;
      if (onTable) setGame(last, { quiet: true });
      break;
    }
    if (onTable && !replay.skip) setGame(last, { quiet: true });
  }
  replay = null;
  if (!state.game || state.game.id !== data.id) return;
  updateBanner(null);
  say(data.message, here());
  announce(data.message + statusWords());
}
