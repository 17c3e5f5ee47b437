// PeekPoker Hold'em: Crazy Aces (PK-1 … PK-15): three hidden poker dice each, three community dice,
// no-limit betting with a slider, the ace re-roll decision at the showdown, and the last hand named.
import { html } from "../../vendor/htm-preact.js";
import { Die, pokerFaces } from "../dice.js";
import { BetControls, PotDisplay, SeatBox, seatStatus, useHandNames } from "./betting.js";

function peekStatus(view, s) {
  if (view.rerolling.some(([seat]) => seat === s) && view.in_hand[s]) return "re-rolling";
  return seatStatus(view, s, view.chips);
}

function LastHand({ record, names }) {
  const community = pokerFaces(record.community);
  const shownHands = record.shown.map((d, s) => [d, s]).filter(([d]) => d && community.length === 3);
  const handNames = useHandNames("peekpoker", shownHands.map(([d]) => `${d} ${record.community}`));
  const nameOf = Object.fromEntries(shownHands.map(([, s], i) => [s, handNames ? handNames[i] : ""]));
  return html`<section class="panel showdown" aria-labelledby="last-hand-title" data-testid="showdown">
    <h2 id="last-hand-title">Hand ${record.number}</h2>
    ${community.length ? html`<div class="mini-dice" aria-label="community dice">
      ${community.map((f) => html`<${Die} kind="poker" value=${f} size=${30} />`)}</div>` : html`<p class="muted">
      No community dice: everyone else folded.</p>`}
    <ul>${record.shown.map((d, s) => (d ? html`<li><strong>${names[s]}</strong>
      ${pokerFaces(d).map((f) => html`<${Die} kind="poker" value=${f} size=${26} />`)}
      <span>${nameOf[s] || ""}</span></li>` : null))}</ul>
    <ul class="payouts">${record.payouts.map((p, i) => html`<li>${i === 0 ? "Pot" : `Side pot ${i}`} ${p.amount}:${" "}
      ${p.winners.map((w, j) => `${names[w]} +${p.shares[j]}`).join(", ")}</li>`)}</ul>
  </section>`;
}

function AceChoice({ legal, act }) {
  const options = legal.filter((a) => a === "stand" || a.startsWith("reroll"));
  if (!options.length) return null;
  return html`<div class="ace-choice" role="group" aria-label="ace re-roll">
    <p>Showdown: re-roll any of your aces?</p>
    ${options.map((a) => {
      const count = a === "stand" ? 0 : a.split(" ").length - 1;
      const label = count === 0 ? "Stand" : `Re-roll ${count} ${count === 1 ? "ace" : "aces"}`;
      return html`<button class=${count ? "primary" : ""} onClick=${() => act(a)}
        data-testid=${count ? `reroll-${count}` : "stand"}>${label}</button>`;
    })}
  </div>`;
}

export function PeekPoker({ view, legal, act, names, waiting }) {
  const me = view.seat;
  const mine = act != null && me != null && view.to_act.includes(me) && !waiting;
  const own = me == null ? [] : pokerFaces(view.dice[me]);
  const community = pokerFaces(view.community);
  const best = useHandNames("peekpoker", own.length === 3 && community.length === 3 ? [`${view.dice[me]} ${view.community}`] : []);
  const maxBet = Math.max(...view.bets);
  const myBet = me == null ? 0 : view.bets[me];
  const stack = me == null ? 0 : view.chips[me];
  const toCall = Math.min(stack, maxBet - myBet);
  const aces = legal.some((a) => a === "stand");
  const phase = { bet: view.betting_round === 0 ? "First betting round" : "Betting", aces: "Showdown: aces", over: "Game over" };
  return html`<div class="poker peekpoker">
    <div class="felt" data-testid="felt">
      <div class="felt-centre">
        <div class="street">${phase[view.phase] || view.phase}${view.hand ? html`<span class="muted small"> · hand ${view.hand}</span>` : null}</div>
        <div class="community" role="group" aria-label="community dice" data-testid="community">
          ${community.map((f) => html`<${Die} kind="poker" value=${f} size=${48} />`)}
          ${Array.from({ length: Math.max(0, 3 - community.length) }, () => html`<span class="die-placeholder" aria-hidden="true"></span>`)}
        </div>
        <${PotDisplay} pots=${[{ amount: view.pot }]} />
      </div>
      ${names.map((name, s) => {
        const faces = pokerFaces(view.dice[s]);
        const dice = faces.length ? faces.map((f) => html`<${Die} kind="poker" value=${f} size=${s === me ? 40 : 32} />`)
          : view.in_hand[s] ? [0, 1, 2].map(() => html`<${Die} kind="hidden" size=${30} />`) : null;
        return html`<${SeatBox} seat=${s} me=${me} players=${view.players} name=${name} stack=${view.chips[s]}
          bet=${view.bets[s]} dealer=${view.dealer === s} status=${peekStatus(view, s)}
          active=${view.to_act.includes(s)} dice=${dice} />`;
      })}
    </div>
    ${own.length && best ? html`<p class="own-hand" data-testid="own-hand">Your hand:${" "}
      <strong>${best[0]}</strong></p>` : null}
    ${mine && aces ? html`<${AceChoice} legal=${legal} act=${act} />` : null}
    ${mine && !aces ? html`<${BetControls} legal=${legal} act=${act} toCall=${toCall} pot=${view.pot} maxBet=${maxBet}
      stack=${stack} myBet=${myBet} />` : null}
    ${!mine ? html`<p class="turn-line" aria-live="polite">${view.phase === "over" ? "Game over." : waiting ? "Waiting for an opponent…"
      : view.to_act.length ? `${view.to_act.map((s) => names[s]).join(", ")} to act.` : ""}</p>` : null}
    ${view.previous ? html`<${LastHand} record=${view.previous} names=${names} />` : null}
  </div>`;
}
