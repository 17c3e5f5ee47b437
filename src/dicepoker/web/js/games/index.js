// Which component draws which game, and how a logged event reads in the history panel.
import { html } from "../../vendor/htm-preact.js";
import { Scorecard } from "./scorecard.js";
import { Board } from "./board.js";
import { Holdem } from "./holdem.js";
import { PeekPoker } from "./peekpoker.js";
import { seatName } from "../lobby.js";
import { factsOf, useGames } from "../facts.js";

// The drawing of each kind of view; which kind a game's view is, the game says (GET /api/games "view").
const DRAWINGS = { scorecard: Scorecard, board: Board, holdem: Holdem, peekpoker: PeekPoker };

export function GameView(props) {
  const games = useGames();
  if (!games) return html`<p class="muted">Loading…</p>`;
  const View = DRAWINGS[factsOf(games, props.view.game)?.view];
  if (!View) return html`<p class="alert">This page cannot draw the game ${props.view.game}.</p>`;
  return html`<${View} ...${props} />`;
}

// The same names as the seats panel ("Random bot 3", "Ana (you)"): one naming for the whole page.
function nameOf(frame, seat) {
  const s = (frame.seats || [])[seat];
  if (!s) return `Player ${seat + 1}`;
  const name = seatName(s);
  return seat === frame.seat ? `${name} (you)` : name;
}

const WORDS = {
  timeout: "ran out of time",
  resign: "left", // CM-7: leaving is resigning, whether asked for or after two timeouts while away
  check: "checks",
  call: "calls",
  fold: "folds",
  stand: "stands",
  roll: "rolls",
  forfeit: "forfeits the roll",
};

// One line of the history panel: {text, chance}.
export function describeEvent(game, last, frame) {
  if (last.seat == null) return { text: `Dice: ${last.action}`, chance: true };
  const who = nameOf(frame, last.seat);
  if (last.action == null) return { text: `${who} decided (secret until everyone has)`, chance: false };
  const action = String(last.action);
  const [head, ...rest] = action.split(" ");
  let text;
  if (head === "resign" && last.seat === frame.seat) text = "You left";
  else if (WORDS[head] && !rest.length) text = `${who} ${WORDS[head]}`;
  else if (head === "bet") text = `${who} bets ${rest.join(" ")}`;
  else if (head === "raise") text = `${who} raises to ${rest.join(" ")}`;
  else if (head === "reroll" && rest.every((r) => r === "A")) text = `${who} re-rolls ${rest.length} ${rest.length > 1 ? "aces" : "ace"}`;
  else if (head === "reroll") text = `${who} re-rolls dice ${rest.join(", ")}`;
  else if (head === "score") text = `${who} scores ${rest.join(" ").replace(/-/g, " ")}`;
  else if (head === "claim") text = `${who} claims row ${rest[0]}, column ${rest[1]}`;
  else if (head === "remove") text = `${who} removes the chip at row ${rest[0]}, column ${rest[1]}`;
  else text = `${who}: ${action}`;
  return { text, chance: false };
}
