// The scorecard game (SC-1 … SC-15): dice tray, every player's card with the scores the open boxes would
// get, upper-bonus progress, the solver's hint, and after the game the "expected points lost" review.
import { html, useEffect, useState } from "../../vendor/htm-preact.js";
import { api } from "../api.js";
import { DiceTray } from "./turn.js";

export const LABELS = ["Ones", "Twos", "Threes", "Fours", "Fives", "Sixes", "Three of a kind", "Four of a kind",
  "Full house", "Small straight", "Large straight", "Five of a kind", "Chance"];
export const SLUGS = ["ones", "twos", "threes", "fours", "fives", "sixes", "three-kind", "four-kind", "full-house",
  "small-straight", "large-straight", "five-kind", "chance"];
const BONUS_AT = 63;

function usePotential(dice, enabled) {
  const [scores, setScores] = useState(null);
  const key = dice.join(",");
  useEffect(() => {
    setScores(null);
    if (!enabled || dice.length !== 5) return undefined;
    let alive = true;
    api.scores(dice).then((d) => alive && setScores(d.scores)).catch(() => {});
    return () => { alive = false; };
  }, [key, enabled]);
  return scores;
}

function Hint({ view, act, legal }) {
  const [hint, setHint] = useState(null);
  const [error, setError] = useState("");
  const [busy, setBusy] = useState(false);
  const key = `${view.to_play}:${view.rolls_used}:${view.dice.join("")}`;
  useEffect(() => { setHint(null); setError(""); }, [key]);
  const ask = async () => {
    setBusy(true);
    try {
      setHint(await api.hint(view.cards[view.to_play], view.dice, view.rolls_used));
    } catch (err) {
      setError(err.message);
    } finally {
      setBusy(false);
    }
  };
  return html`<div class="hint">
    <button onClick=${ask} disabled=${busy} data-testid="hint" aria-expanded=${hint ? "true" : "false"}>
      ${busy ? "Thinking…" : "Hint"}</button>
    ${error ? html`<p class="alert" role="alert">${error}</p>` : null}
    ${hint ? html`<div class="hint-panel" role="region" aria-label="hint" data-testid="hint-panel">
      <p>Best: <strong>${hint.best.label}</strong>${" "}<span class="muted">(expected final total${" "}
        ${hint.best.expected.toFixed(1)})</span></p>
      <table class="hint-table"><thead><tr><th scope="col">Choice</th><th scope="col">Costs</th><th scope="col"><span class="sr-only">Play it</span></th></tr></thead>
        <tbody>${hint.options.slice(0, 8).map((o) => html`<tr>
          <td>${o.label}</td><td class="num">${o.cost === 0 ? "best" : `−${o.cost.toFixed(2)}`}</td>
          <td>${act && legal.includes(o.action) ? html`<button class="small" onClick=${() => act(o.action)}
            aria-label=${`Play ${o.label}`}>Play</button>` : null}</td></tr>`)}</tbody></table>
      <p class="muted small">Costs are expected points given up against optimal play (the solver's values).</p>
    </div>` : null}
  </div>`;
}

function Review({ tableId, names }) {
  const [review, setReview] = useState(null);
  const [error, setError] = useState("");
  const load = async () => {
    try {
      setReview(await api.reviewTable(tableId));
    } catch (err) {
      setError(err.message);
    }
  };
  if (!review) {
    return html`<div class="review"><button onClick=${load} data-testid="review">Review the decisions</button>
      ${error ? html`<p class="alert" role="alert">${error}</p>` : null}</div>`;
  }
  const costly = [...review.decisions].filter((d) => d.loss > 0.005).sort((a, b) => b.loss - a.loss).slice(0, 12);
  return html`<section class="panel review" aria-labelledby="review-title" data-testid="review-panel">
    <h2 id="review-title">Review: expected points lost</h2>
    <ul class="lost">${review.lost.map((lost, seat) => html`<li><span>${names[seat]}</span>${" "}
      <strong>${lost.toFixed(1)}</strong> points over ${review.decisions.filter((d) => d.seat === seat).length} decisions</li>`)}</ul>
    ${costly.length ? html`<table><caption>The costliest decisions</caption>
      <thead><tr><th scope="col">Player</th><th scope="col">Round</th><th scope="col">Dice</th><th scope="col">Chose</th>
        <th scope="col">Best</th><th scope="col">Lost</th></tr></thead>
      <tbody>${costly.map((d) => html`<tr><td>${names[d.seat]}</td><td class="num">${d.round}</td>
        <td>${d.dice.join(" ")} ${d.rolls_used < 3 ? html`<span class="muted">(roll ${d.rolls_used})</span>` : ""}</td>
        <td>${d.chosen}${d.timed_out ? " ⏱" : ""}</td><td>${d.best}</td><td class="num">${d.loss.toFixed(2)}</td></tr>`)}
      </tbody></table>` : html`<p>Every decision was optimal.</p>`}
  </section>`;
}

export function Scorecard({ view, legal, act, names, seat, tableId, finished, replay, waiting }) {
  const mine = act != null && seat === view.to_play && !view.over && !waiting;
  const canScore = legal.some((a) => a.startsWith("score"));
  const potential = usePotential(view.dice, view.dice.length === 5 && !view.over && !view.rolling);
  const players = view.cards.length;
  return html`<div class="scorecard"><div class="sc-left">
    <${DiceTray} view=${view} legal=${legal} act=${act} mine=${mine} />
    <p class="turn-line" aria-live="polite">${view.over ? "Game over." : waiting ? "Waiting for an opponent…"
      : mine ? (view.rolls_used ? "Hold dice and re-roll, or choose a box to score." : "Your turn: roll the dice.")
      : `${names[view.to_play]} is playing.`}</p>
    ${mine && canScore ? html`<${Hint} view=${view} act=${act} legal=${legal} />` : null}
    </div><div class="sc-right">
    <div class="card-wrap"><table class="card" data-testid="scorecard">
      <caption class="sr-only">Score cards</caption>
      <thead><tr><th scope="col">Box</th>${view.cards.map((_, s) => html`<th scope="col"
        class=${s === view.to_play && !view.over ? "active" : ""}>${names[s]}</th>`)}</tr></thead>
      <tbody>
        ${LABELS.map((label, c) => html`${c === 6 ? html`<tr class="subtotal"><th scope="row" title="35 points when Ones to Sixes total 63 or more">Upper bonus</th>
          ${view.cards.map((_, s) => {
            const upper = view.upper_totals[s];
            const pct = Math.min(100, (upper / BONUS_AT) * 100);
            return html`<td><div class="bonus" aria-label=${`upper section ${upper} of ${BONUS_AT}`}>
              <span class="bonus-bar" aria-hidden="true"><span style=${`width:${pct}%`}></span></span>
              <span class="num">${upper >= BONUS_AT ? "+35" : `${upper}/63`}</span></div></td>`;
          })}</tr>` : null}
          <tr><th scope="row">${label}</th>
          ${view.cards.map((card, s) => {
            const box = card[c];
            if (box !== null) return html`<td class="num filled">${box}</td>`;
            const showPotential = s === view.to_play && potential && !view.over;
            const action = `score ${SLUGS[c]}`;
            if (mine && s === seat && legal.includes(action)) {
              return html`<td><button class="score-button" onClick=${() => act(action)} data-testid=${`score-${SLUGS[c]}`}
                aria-label=${`Score ${label}: ${potential ? potential[c] : ""} points`}>
                ${potential ? potential[c] : "·"}</button></td>`;
            }
            return html`<td class="num potential">${showPotential ? potential[c] : ""}</td>`;
          })}</tr>`)}
        <tr class="total"><th scope="row">Total</th>${view.totals.map((t, s) => html`<td class="num"
          data-testid=${`total-${s}`}>${t}</td>`)}</tr>
      </tbody>
    </table></div>
    ${players && (finished || view.over) && tableId && !replay ? html`<${Review} tableId=${tableId} names=${names} />` : null}
  </div></div>`;
}
