// "How to play" (issue 21 §5): a player's guide per game, rendered from guides/<game>.md. The guide is prose
// for people; the canonical rules (rules.md, with clause IDs) stay one click further ("Full rules").
//
// Guide files are the rules page's Markdown with two additions:
// - a line ":dice KIND FACES | caption" is a picture drawn by the client's own dice (dice.js): KIND is pip,
//   suited or poker, FACES as the tables show them ("6 6 6 2 2", "5r 5b", "T J Q K A");
// - {title}, {players} and {clock} are the game's own facts (GET /api/games), never written into a guide.
import { html, useEffect, useState } from "../vendor/htm-preact.js";
import { DiceRow } from "./dice.js";
import { factsOf, useGames } from "./facts.js";
import { Markdown } from "./rules.js";

const loaded = new Map();

function loadGuide(game) {
  if (!loaded.has(game)) {
    const request = fetch(`guides/${encodeURIComponent(game)}.md`).then((r) => {
      if (!r.ok) throw new Error(r.status === 404 ? "There is no guide for this game yet." : `guide: ${r.status}`);
      return r.text();
    });
    request.catch(() => loaded.delete(game)); // a failed fetch is tried again next time
    loaded.set(game, request);
  }
  return loaded.get(game);
}

function playersOf(facts) {
  const p = facts.players || {};
  return p.min === p.max ? String(p.min) : `${p.min}–${p.max}`;
}

export function fillFacts(text, facts) {
  const clock = facts.clock_default ? `${Math.round(facts.clock_default)} seconds` : "no time limit";
  return text.replace(/\{title\}/g, facts.title).replace(/\{players\}/g, playersOf(facts)).replace(/\{clock\}/g, clock);
}

function sections(text) {
  return text.split(/^## /m).slice(1).map((part) => {
    const newline = part.indexOf("\n");
    return { title: part.slice(0, newline).trim(), body: part.slice(newline + 1) };
  });
}

const DICE_LINE = /^:dice\s+(pip|suited|poker)\s+([^|]+?)\s*\|\s*(.+)$/;

function diceOf(kind, faces) {
  const dice = faces.split(/\s+/).filter(Boolean);
  return kind === "pip" ? dice.map(Number) : dice;
}

// The width of the widest row of a run (small dice are 35 px, 0.4rem apart), so that the captions line up.
function rowWidth(items) {
  const most = Math.max(...items.map((it) => it.faces.split(/\s+/).filter(Boolean).length));
  return `min-width:${Math.ceil(most * 35 + (most - 1) * 6.4)}px`;
}

// A run of dice lines: one picture with its caption each (the caption also names the picture for screen readers).
function DicePictures({ items }) {
  const width = rowWidth(items);
  return html`<ul class="guide-dice">${items.map(({ kind, faces, caption }) => html`<li>
    <span class="guide-picture" style=${width}><${DiceRow} kind=${kind} dice=${diceOf(kind, faces)} small
      label=${`${faces}: ${caption.replace(/\*\*/g, "")}`} /></span>
    <span class="guide-caption"><${Markdown} text=${caption} /></span></li>`)}</ul>`;
}

// Steps "1. …" (continued on indented lines): the rules' Markdown has no numbered lists.
const STEP = /^\d+\. /;

function Steps({ items }) {
  return html`<ol class="guide-steps">${items.map((it) => html`<li><${Markdown} text=${it} /></li>`)}</ol>`;
}

// A section's body cut into Markdown runs and runs of dice pictures, in order.
function SectionBody({ body }) {
  const parts = [];
  let prose = [];
  let dice = [];
  let steps = [];
  const flush = () => {
    if (prose.join("").trim()) parts.push(html`<${Markdown} text=${prose.join("\n")} />`);
    if (dice.length) parts.push(html`<${DicePictures} items=${dice} />`);
    if (steps.length) parts.push(html`<${Steps} items=${steps} />`);
    prose = [];
    dice = [];
    steps = [];
  };
  for (const line of body.split("\n")) {
    const match = line.match(DICE_LINE);
    if (match) {
      if (!dice.length) flush();
      dice.push({ kind: match[1], faces: match[2], caption: match[3] });
    } else if (STEP.test(line)) {
      if (!steps.length) flush();
      steps.push(line.replace(STEP, ""));
    } else if (steps.length && /^\s+\S/.test(line)) {
      steps[steps.length - 1] += ` ${line.trim()}`;
    } else if ((dice.length || steps.length) && !line.trim()) {
      // a blank line inside a run of pictures or steps keeps the run together
    } else {
      if (dice.length || steps.length) flush();
      prose.push(line);
    }
  }
  flush();
  return parts;
}

export function GuidePage({ game }) {
  const [text, setText] = useState(null);
  const [error, setError] = useState("");
  const games = useGames((e) => setError(`Games: ${e.message}`));
  const facts = factsOf(games, game);
  const title = facts?.title || game;
  useEffect(() => {
    document.title = `dicepoker · how to play · ${title}`;
  }, [title]);
  // Only a game this server offers has a guide worth asking for.
  const offered = Boolean(facts);
  useEffect(() => {
    if (offered) loadGuide(game).then(setText).catch((e) => setError(e.message));
  }, [game, offered]);
  const unknown = games && !facts;
  const shown = text && facts ? sections(fillFacts(text, facts)) : [];
  return html`<article class="rules guide" data-testid="guide">
    <p><a href="#/">← Lobby</a></p>
    <h1>How to play ${title}</h1>
    ${facts ? html`<p class="meta">${`${playersOf(facts)} players · `}${facts.clock_default
      ? `${Math.round(facts.clock_default)} s per decision · ` : "no clock · "}<a href=${`#/rules/${game}`}
      data-testid="full-rules">Full rules</a></p>` : null}
    ${unknown ? html`<p class="alert" role="alert">This server offers no game called ${game}.</p>` : null}
    ${error && !unknown ? html`<p class="alert" role="alert">${error}</p>` : null}
    ${!unknown && !error && !shown.length ? html`<p class="muted">Loading…</p>` : null}
    ${shown.map((s) => html`<section class="panel"><h2>${s.title}</h2><${SectionBody} body=${s.body} /></section>`)}
    ${shown.length ? html`<p>The exact wording, with every corner case: <a href=${`#/rules/${game}`}>Full rules</a>.</p>`
      : null}
  </article>`;
}
