// What the two betting games share: seats around the felt, the betting controls, hand names.
import { html, useEffect, useState } from "../../vendor/htm-preact.js";
import { api } from "../api.js";

// Names of hands from the server (the page never evaluates hands itself), cached per question.
const named = new Map();
export function useHandNames(game, hands, values = []) {
  const key = `${game}|${hands.join(";")}|${values.join(",")}`;
  const [names, setNames] = useState(named.get(key) || null);
  useEffect(() => {
    if (!hands.length && !values.length) return setNames(null);
    if (named.has(key)) return setNames(named.get(key));
    let alive = true;
    api.hands(game, hands, values).then((d) => {
      named.set(key, d.names);
      if (alive) setNames(d.names);
    }).catch(() => alive && setNames(null));
    return () => { alive = false; };
  }, [key]);
  return names;
}

// A seat's tag in the betting games. Nobody holds dice before the first deal, between hands and after the game
// (the views then list every seat as not in the hand): a seat is "folded" only while a hand is being played.
export function seatStatus(view, s, stacks) {
  if (view.resigned.includes(s)) return "left";
  const broke = stacks[s] === 0 && !view.bets[s];
  const handRunning = view.phase !== "over" && view.in_hand.some(Boolean);
  if (!handRunning) return broke ? "out" : "";
  if (!view.in_hand[s]) return broke ? "out" : "folded";
  if (stacks[s] === 0) return "all-in";
  return "";
}

// Seat boxes placed around an oval, the viewer at the bottom.
export function seatPosition(seat, me, players) {
  const base = me == null ? 0 : me;
  const angle = Math.PI / 2 + ((seat - base) * 2 * Math.PI) / players;
  return { x: 50 + 44 * Math.cos(angle), y: 50 + 40 * Math.sin(angle) };
}

export function SeatBox({ seat, me, players, name, stack, bet, dealer, status, active, dice, clock }) {
  const pos = seatPosition(seat, me, players);
  return html`<div class=${`seat${active ? " active" : ""}${status === "folded" || status === "out" ? " dim" : ""}${seat === me ? " me" : ""}`}
    style=${`--x:${pos.x}%;--y:${pos.y}%`} data-testid=${`seat-${seat}`} role="group"
    aria-label=${`${name}: ${stack} chips${bet ? `, bet ${bet}` : ""}${status ? `, ${status}` : ""}${dealer ? ", dealer" : ""}${active ? ", to act" : ""}`}>
    <div class="seat-top">
      <span class="seat-name">${name}</span>
      ${dealer ? html`<span class="dealer-button" title="dealer" aria-hidden="true">D</span>` : null}
    </div>
    <div class="seat-dice">${dice}</div>
    <div class="seat-bottom">
      <span class="stack" aria-hidden="true">${stack}</span>
      ${status ? html`<span class=${`tag ${status.replace(/\s+/g, "-")}`} aria-hidden="true">${status}</span>` : null}
      ${clock || null}
    </div>
    ${bet ? html`<span class="bet-chip" aria-hidden="true">${bet}</span>` : null}
  </div>`;
}

function amountsOf(legal) {
  const found = { verb: null, amounts: [] };
  for (const action of legal) {
    const m = /^(bet|raise) (\d+)$/.exec(action);
    if (m) {
      found.verb = m[1];
      found.amounts.push(Number(m[2]));
    }
  }
  found.amounts.sort((a, b) => a - b);
  return found;
}

function nearest(amounts, target) {
  let best = amounts[0];
  for (const a of amounts) if (Math.abs(a - target) < Math.abs(best - target)) best = a;
  return best;
}

// Check / call / fold and the bet sizes: buttons for a few legal sizes (limit), a slider with pot-fraction
// presets otherwise (no limit). Only actions in legal_actions are offered.
export function BetControls({ legal, act, toCall, pot, maxBet, stack, myBet }) {
  const { verb, amounts } = amountsOf(legal);
  const [index, setIndex] = useState(0);
  const key = amounts.join(",");
  useEffect(() => setIndex(0), [key]);
  const has = (a) => legal.includes(a);
  const word = verb === "raise" ? "Raise to" : "Bet";
  const allIn = (a) => a - myBet >= stack;
  const sized = amounts.length > 0 && amounts.length <= 3
    ? amounts.map((a) => html`<button class="bet" onClick=${() => act(`${verb} ${a}`)} data-testid=${`${verb}-${a}`}>
        ${word} ${a}${allIn(a) ? " (all-in)" : ""}</button>`)
    : null;
  let slider = null;
  if (amounts.length > 3) {
    const current = amounts[Math.min(index, amounts.length - 1)];
    const preset = (label, target) => html`<button class="small" onClick=${() => setIndex(amounts.indexOf(nearest(amounts, target)))}
      >${label}</button>`;
    const potAfterCall = pot + toCall;
    const base = verb === "raise" ? maxBet : 0;
    slider = html`<div class="bet-slider">
      <div class="presets" role="group" aria-label="bet size presets">
        ${preset("½ pot", base + potAfterCall / 2)}${preset("¾ pot", base + (potAfterCall * 3) / 4)}
        ${preset("Pot", base + potAfterCall)}${preset("All-in", amounts[amounts.length - 1])}
      </div>
      <label class="sr-only" for="bet-size">Bet size</label>
      <input id="bet-size" type="range" min="0" max=${amounts.length - 1} step="1" value=${index}
        aria-valuetext=${`${current} chips`} onInput=${(e) => setIndex(Number(e.target.value))} data-testid="bet-size" />
      <button class="bet primary" onClick=${() => act(`${verb} ${current}`)} data-testid="bet">
        ${word} ${current}${allIn(current) ? " (all-in)" : ""}</button>
    </div>`;
  }
  return html`<div class="bet-controls" role="group" aria-label="your action">
    ${has("fold") ? html`<button class="fold" onClick=${() => act("fold")} data-testid="fold">Fold</button>` : null}
    ${has("check") ? html`<button onClick=${() => act("check")} data-testid="check">Check</button>` : null}
    ${has("call") ? html`<button onClick=${() => act("call")} data-testid="call">Call ${toCall}${toCall >= stack ? " (all-in)" : ""}</button>` : null}
    ${sized}${slider}
  </div>`;
}

// The whole pot, and the side pots once an all-in splits it (a tier only one seat can win is an uncalled
// bet, not a side pot).
export function PotDisplay({ pots }) {
  const total = pots.reduce((sum, p) => sum + p.amount, 0);
  const contested = pots.filter((p) => !p.eligible || p.eligible.length > 1);
  return html`<div class="pots" data-testid="pots"><span class="pot"><span class="muted small">Pot</span>${" "}
    <strong data-testid="pot-total">${total}</strong></span>
    ${contested.length > 1 ? contested.map((p, i) => html`<span class="pot side"><span class="muted small">
      ${i === 0 ? "Main" : `Side ${i}`}</span>${" "}<strong>${p.amount}</strong></span>`) : null}</div>`;
}
