// The five-dice turn of the scorecard and the board games (SC-2, BD-4): roll, hold, re-roll.
// Keyboard: 1–5 toggle holds, R rolls or re-rolls the dice not held.
import { html, useEffect, useRef, useState } from "../../vendor/htm-preact.js";
import { Die } from "../dice.js";

function typing(event) {
  const tag = event.target && event.target.tagName;
  return tag === "INPUT" || tag === "SELECT" || tag === "TEXTAREA" || event.ctrlKey || event.metaKey || event.altKey;
}

// Which dice just landed, so that only they tumble: positions whose face changed with a new roll.
function useLanded(view) {
  const previous = useRef({ key: "", dice: [] });
  const landed = useRef({ key: "", positions: [] });
  const key = `${view.to_play}:${view.rolls_used}`;
  if (previous.current.key !== key) {
    const before = previous.current.dice;
    const fresh = view.rolls_used === 1 || before.length !== view.dice.length;
    const positions = view.dice.map((d, i) => (fresh || before[i] !== d ? i : -1)).filter((i) => i >= 0);
    landed.current = { key, positions };
    previous.current = { key, dice: view.dice };
  }
  return landed.current;
}

export function DiceTray({ view, legal, act, mine, hint }) {
  const [held, setHeld] = useState([]);
  const turnKey = `${view.to_play}:${view.rolls_used === 0 ? 0 : "t"}`;
  useEffect(() => setHeld([]), [turnKey]);
  const landed = useLanded(view);
  const canRoll = legal.includes("roll");
  const canReroll = legal.some((a) => a.startsWith("reroll"));
  const free = [1, 2, 3, 4, 5].filter((p) => !held.includes(p));
  const rerollAction = `reroll ${free.join(" ")}`;
  const rollAction = canRoll ? "roll" : canReroll && free.length && legal.includes(rerollAction) ? rerollAction : null;
  const toggle = (position) => {
    if (!canReroll) return;
    setHeld((h) => (h.includes(position) ? h.filter((p) => p !== position) : [...h, position].sort()));
  };
  const roll = () => rollAction && act && act(rollAction);
  useEffect(() => {
    if (!mine) return undefined;
    const onKey = (event) => {
      if (typing(event)) return;
      if (/^[1-5]$/.test(event.key)) {
        toggle(Number(event.key));
        event.preventDefault();
      } else if (event.key === "r" || event.key === "R") {
        roll();
        event.preventDefault();
      }
    };
    document.addEventListener("keydown", onKey);
    return () => document.removeEventListener("keydown", onKey);
  });
  const rollsLeft = 3 - view.rolls_used;
  // After the last turn nobody rolls again: no face-down dice and no rolls left to count.
  if (view.over) {
    return html`<div class="dice-tray over" data-testid="dice-tray"><p class="muted">No more rolls: the game is over.</p></div>`;
  }
  let label = "Roll";
  if (!canRoll && canReroll) label = free.length ? `Re-roll ${free.length} ${free.length === 1 ? "die" : "dice"}` : "Hold fewer dice to re-roll";
  return html`<div class="dice-tray" data-testid="dice-tray">
    <div class="dice-row big" role="group" aria-label=${mine && canReroll ? "your dice: press a die (or 1–5) to hold it" : "dice"}>
      ${view.dice.length ? view.dice.map((face, i) => {
        const position = i + 1;
        const isHeld = held.includes(position);
        const die = html`<${Die} key=${`${landed.key}-${i}`} value=${face} held=${isHeld}
          rolling=${landed.positions.includes(i)} size=${58} />`;
        if (mine && canReroll) {
          return html`<button class=${`die-button${isHeld ? " held" : ""}`} aria-pressed=${isHeld ? "true" : "false"}
            aria-label=${`die ${position}: ${face}${isHeld ? ", held" : ""}`} data-testid=${`die-${position}`}
            onClick=${() => toggle(position)}>${die}<span class="hold-tag" aria-hidden="true">${isHeld ? "HELD" : position}</span></button>`;
        }
        return html`<span class="die-slot" data-testid=${`die-${position}`}>${die}</span>`;
      }) : [0, 1, 2, 3, 4].map((i) => html`<span class="die-slot empty" aria-hidden="true"><${Die} kind="hidden" size=${58} /></span>`)}
    </div>
    <div class="tray-controls">
      <span class="rolls-left" aria-label=${`${rollsLeft} rolls left`}>
        ${[0, 1, 2].map((i) => html`<span class=${`roll-dot${i < view.rolls_used ? " used" : ""}`} aria-hidden="true"></span>`)}
        ${view.rolling ? "rolling…" : `${rollsLeft} ${rollsLeft === 1 ? "roll" : "rolls"} left`}</span>
      ${mine ? html`<button class="primary big" disabled=${!rollAction} onClick=${roll} data-testid="roll"
        aria-keyshortcuts="R">${label} <kbd aria-hidden="true">R</kbd></button>` : null}
      ${hint || null}
    </div>
  </div>`;
}
