// Dice Hold'em (HE-1 … HE-16): seats with stacks and bets, own pocket dice, the community dice, pots and
// side pots, limit betting, and the last showdown with the hands named.
import { html } from "../../vendor/htm-preact.js";
import { Die } from "../dice.js";
import { BetControls, PotDisplay, SeatBox, seatStatus, useHandNames } from "./betting.js";

const STREETS = { open: "The Open", flop: "The Flop", turn: "The Turn", river: "The River" };

function Showdown({ record, names }) {
  const values = record.shown.map((x) => x.value);
  const handNames = useHandNames("holdem", [], values);
  return html`<section class="panel showdown" aria-labelledby="showdown-title" data-testid="showdown">
    <h2 id="showdown-title">Hand ${record.hand}</h2>
    ${record.board.length ? html`<div class="mini-dice" aria-label="community dice">
      ${record.board.map((d) => html`<${Die} kind="suited" value=${d} size=${30} />`)}</div>` : null}
    <ul>${record.shown.map((x, i) => html`<li><strong>${names[x.seat]}</strong>
      ${x.pocket.map((d) => html`<${Die} kind="suited" value=${d} size=${26} />`)}
      <span>${handNames ? handNames[i] : ""}</span></li>`)}</ul>
    <ul class="payouts">${record.payouts.map((p, i) => html`<li>${i === 0 ? "Pot" : `Side pot ${i}`} ${p.amount}:${" "}
      ${p.winners.map((w, j) => `${names[w]} +${p.shares[j]}`).join(", ")}</li>`)}</ul>
  </section>`;
}

export function Holdem({ view, legal, act, names, seat, waiting }) {
  const me = view.seat;
  const mine = act != null && me != null && view.to_act.includes(me) && !waiting;
  const own = view.pocket;
  const best = useHandNames("holdem", own.length === 2 && view.board.length >= 3 ? [[...own, ...view.board].join(" ")] : []);
  const pot = view.pots.reduce((sum, p) => sum + p.amount, 0);
  const maxBet = Math.max(...view.bets);
  const myBet = me == null ? 0 : view.bets[me];
  const stack = me == null ? 0 : view.stacks[me];
  const toCall = Math.min(stack, maxBet - myBet);
  return html`<div class="poker holdem">
    <div class="felt" data-testid="felt">
      <div class="felt-centre">
        <div class="street">${STREETS[view.street] || (view.phase === "over" ? "Game over" : "")}
          ${view.hand ? html`<span class="muted small"> · hand ${view.hand}</span>` : null}</div>
        <div class="community" role="group" aria-label="community dice" data-testid="community">
          ${view.board.map((d) => html`<${Die} kind="suited" value=${d} size=${48} />`)}
          ${Array.from({ length: Math.max(0, 5 - view.board.length) }, () => html`<span class="die-placeholder" aria-hidden="true"></span>`)}
        </div>
        <${PotDisplay} pots=${view.pots.length ? view.pots : [{ amount: 0 }]} />
      </div>
      ${names.map((name, s) => {
        const isMe = s === me;
        const count = view.pocket_counts[s] || 0;
        const dice = isMe && own.length
          ? own.map((d) => html`<${Die} kind="suited" value=${d} size=${40} />`)
          : view.in_hand[s] ? Array.from({ length: count }, () => html`<${Die} kind="hidden" size=${30} />`) : null;
        return html`<${SeatBox} seat=${s} me=${me} players=${view.players} name=${name} stack=${view.stacks[s]}
          bet=${view.bets[s]} dealer=${view.dealer === s} status=${seatStatus(view, s, view.stacks)}
          active=${view.to_act.includes(s)} dice=${dice} />`;
      })}
    </div>
    ${me != null && own.length && best ? html`<p class="own-hand" data-testid="own-hand">Your best hand:${" "}
      <strong>${best[0]}</strong></p>` : null}
    ${mine ? html`<${BetControls} legal=${legal} act=${act} toCall=${toCall} pot=${pot} maxBet=${maxBet} stack=${stack}
      myBet=${myBet} />` : html`<p class="turn-line" aria-live="polite">${view.phase === "over" ? "Game over." : waiting ? "Waiting for an opponent…"
      : view.rolling ? "Dice are rolling…" : view.to_act.length ? `${view.to_act.map((s) => names[s]).join(", ")} to act.` : ""}</p>`}
    ${view.last_showdown ? html`<${Showdown} record=${view.last_showdown} names=${names} />` : null}
  </div>`;
}
