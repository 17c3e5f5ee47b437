// The board games, zepherin and classic-board (BD-1 … BD-14): the 9×9 board with its labels, team chips,
// protected runs, the squares this hand may claim, removals (bouncer, five of a kind) and Lucky 7/11.
import { html } from "../../vendor/htm-preact.js";
import { DiceTray } from "./turn.js";
import { factsOf, useGames } from "../facts.js";

// The team colours the game declares (GET /api/games "teams"), so that a team has one colour in the browser,
// the terminal and the result's words: team t -> {name, colour}.
function useTeams(game) {
  const teams = factsOf(useGames(), game)?.teams || [];
  return (t) => teams[t] || { name: `Team ${t + 1}`, colour: "#888888" };
}
const PLURAL = { 1: "ones", 2: "twos", 3: "threes", 4: "fours", 5: "fives", 6: "sixes" };

// A square's label as {kind, big, name}: short text for the square and full words for screen readers.
export function squareLabel(label) {
  if (label === "**") return { kind: "free", big: "★", name: "free centre square" };
  if (label === "S") return { kind: "straight", big: "Straight", name: "Straight" };
  if (label === "FH") return { kind: "full", big: "House", name: "Full house" };
  const lucky = /^L(\d+)$/.exec(label);
  if (lucky) return { kind: "lucky", big: lucky[1], name: `Lucky ${lucky[1]}` };
  const m = /^([PTKD])(\d)(\d)?$/.exec(label);
  if (m) {
    const [, k, a, b] = m;
    if (k === "P") return { kind: "pair", big: `${a}${a}`, name: `Pair of ${PLURAL[a]}` };
    if (k === "T") return { kind: "three", big: `${a}${a}${a}`, name: `Three ${PLURAL[a]}` };
    if (k === "K") return { kind: "four", big: `4×${a}`, name: `Four ${PLURAL[a]}` };
    if (k === "D") return { kind: "two-pairs", big: `${a}${a}${b}${b}`, name: `Two pairs, ${PLURAL[a]} and ${PLURAL[b]}` };
  }
  return { kind: "other", big: label, name: label };
}

const KIND_WORD = { straight: "", full: "full", lucky: "lucky", pair: "pair", three: "three",
  four: "four", "two-pairs": "2 pairs", free: "", other: "" };

function Square({ index, label, team, teamOf, isProtected, claim, remove, act, size, highlight }) {
  const info = squareLabel(label);
  const row = Math.floor(index / size) + 1;
  const col = (index % size) + 1;
  const owner = team == null ? "" : `, ${teamOf(team).name} chip${isProtected ? " in a run (protected)" : ""}`;
  const classes = ["square", `k-${info.kind}`, claim || highlight ? "claimable" : "", remove ? "removable" : "", isProtected ? "protected" : ""]
    .filter(Boolean).join(" ");
  const chip = team == null ? null : html`<span class="chip" style=${`background:${teamOf(team).colour}`} aria-hidden="true"></span>`;
  const content = html`<span class="sq-kind" aria-hidden="true">${KIND_WORD[info.kind]}</span>
    <span class="sq-big" aria-hidden="true">${info.big}</span>${chip}`;
  const name = `row ${row}, column ${col}: ${info.name}${owner}`;
  // The words for screen readers are hidden text, the drawn label is aria-hidden: the name is the full sentence.
  if ((claim || remove) && act) {
    const action = claim || remove;
    return html`<button class=${classes} onClick=${() => act(action)} data-testid=${`sq-${row}-${col}`}>
      <span class="sr-only">${claim ? "Claim" : "Remove the chip at"} ${name}</span>${content}</button>`;
  }
  return html`<div class=${classes} data-testid=${`sq-${row}-${col}`}><span class="sr-only">${name}</span>${content}</div>`;
}

function Teams({ view, names, teamOf }) {
  const teams = Array.from({ length: view.teams }, (_, t) => t);
  return html`<div class="teams">${teams.map((t) => {
    const players = names.filter((_, s) => s % view.teams === t);
    const runs = (view.runs[t] || []).length;
    return html`<div class=${`team${view.to_play % view.teams === t && !view.over ? " active" : ""}`}>
      <span class="chip big" style=${`background:${teamOf(t).colour}`} aria-hidden="true"></span>
      <div><strong>${teamOf(t).name}</strong>${view.conceded.includes(t) ? " (conceded)" : ""}
        <div class="muted small">${players.join(", ")}</div></div>
      <div class="team-figures"><span aria-label=${`${runs} of ${view.runs_to_win} runs`}>
        ${Array.from({ length: view.runs_to_win }, (_, i) => html`<span class=${`run-dot${i < runs ? " made" : ""}`}
          aria-hidden="true"></span>`)} runs</span>
        <span class="muted small">${view.supply[t]} chips left</span></div>
    </div>`;
  })}</div>`;
}

export function Board({ view, legal, act, names, seat, waiting }) {
  const teamOf = useTeams(view.game);
  const rows = view.board.rows.map((r) => r.split(/\s+/));
  const size = rows[0].length;
  const labels = rows.flat();
  const mine = act != null && seat === view.to_play && !view.over && !waiting;
  const claims = new Map();
  const removes = new Map();
  for (const action of legal) {
    const m = /^(claim|remove) (\d+) (\d+)$/.exec(action);
    if (m) (m[1] === "claim" ? claims : removes).set((Number(m[2]) - 1) * size + Number(m[3]) - 1, action);
  }
  const claimable = new Set(view.claimable);
  const protectedSet = new Set(view.protected);
  const others = legal.filter((a) => a === "forfeit");
  const opening = view.opening;
  let prompt;
  if (view.over) prompt = "Game over.";
  else if (waiting) prompt = "Waiting for an opponent…";
  else if (!mine) prompt = `${names[view.to_play]} (${teamOf(view.to_play % view.teams).name}) is playing.`;
  else if (claims.size) prompt = "Claim a highlighted square, or roll again.";
  else if (removes.size) prompt = "You may remove an opponent chip (marked), or pass.";
  else if (view.rolls_used) prompt = legal.length ? "No square for this hand: roll again or forfeit." : "";
  else prompt = "Your turn: roll the dice.";
  return html`<div class="board-game">
    <div class="board-left">
      <div class="board" role="group" aria-label=${`board ${view.board.name}`}
        style=${`grid-template-columns: repeat(${size}, 1fr)`} data-testid="board">
        ${labels.map((label, i) => html`<${Square} index=${i} label=${label} team=${view.cells[i]} size=${size} teamOf=${teamOf}
          isProtected=${protectedSet.has(i)} act=${mine ? act : null}
          claim=${mine ? claims.get(i) : null} highlight=${claimable.has(i)}
          remove=${mine ? removes.get(i) : null} />`)}
      </div>
      ${!mine && view.claimable.length ? html`<p class="muted small">Squares this hand may claim:
        ${view.claimable.length}.</p>` : null}
    </div>
    <div class="board-right">
      <${Teams} view=${view} names=${names} teamOf=${teamOf} />
      ${opening ? html`<p class="opening">Deciding who starts (highest roll):
        ${opening.contenders.map((s, i) => html`<span> ${names[s]}: ${opening.faces[i] ?? "…"}</span>`)}</p>` : null}
      <${DiceTray} view=${view} legal=${legal} act=${act} mine=${mine} />
      <p class="turn-line" aria-live="polite">${prompt}</p>
      ${mine && others.length ? html`<div class="actions">${others.map((a) => html`<button onClick=${() => act(a)}
        data-testid=${`act-${a}`}>${removes.size ? "Don’t remove" : "Forfeit this roll"}</button>`)}</div>` : null}
    </div>
  </div>`;
}
