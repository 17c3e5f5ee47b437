// Rules pages, rendered from the project's own rules text (rules.md, a copy of RULES.md) with a tiny
// Markdown reader: headings, paragraphs, lists, code blocks, **bold** and `code`.
import { html, useEffect, useState } from "../vendor/htm-preact.js";
import { factsOf, useGames } from "./facts.js";

// Which sections and which title are each game's own facts (GET /api/games); "all" is every section.
const ALL = "all";

let cached = null;
export function loadRules() {
  cached = cached || fetch("rules.md").then((r) => {
    if (!r.ok) throw new Error(`rules.md: ${r.status}`);
    return r.text();
  });
  return cached;
}

function sections(text) {
  const parts = text.split(/^## /m);
  return parts.slice(1).map((part) => {
    const newline = part.indexOf("\n");
    return { title: part.slice(0, newline).trim(), body: part.slice(newline + 1) };
  });
}

function inline(text) {
  // Split into code spans and bold runs; everything else stays text (never raw HTML).
  const out = [];
  const pattern = /(`[^`]+`|\*\*[^*]+\*\*|\*[^*\s][^*]*\*)/g;
  let last = 0;
  for (const match of text.matchAll(pattern)) {
    if (match.index > last) out.push(text.slice(last, match.index));
    const token = match[0];
    if (token.startsWith("`")) out.push(html`<code>${token.slice(1, -1)}</code>`);
    else if (token.startsWith("**")) out.push(html`<strong>${token.slice(2, -2)}</strong>`);
    else out.push(html`<em>${token.slice(1, -1)}</em>`);
    last = match.index + token.length;
  }
  if (last < text.length) out.push(text.slice(last));
  return out;
}

export function Markdown({ text }) {
  const blocks = [];
  const lines = text.split("\n");
  let i = 0;
  while (i < lines.length) {
    const line = lines[i];
    if (line.startsWith("```")) {
      const code = [];
      i += 1;
      while (i < lines.length && !lines[i].startsWith("```")) code.push(lines[i++]);
      i += 1;
      blocks.push(html`<pre tabindex="0"><code>${code.join("\n")}</code></pre>`);
    } else if (/^#{2,4} /.test(line)) {
      blocks.push(html`<h3>${inline(line.replace(/^#+ /, ""))}</h3>`);
      i += 1;
    } else if (/^\s*- /.test(line)) {
      const items = [];
      while (i < lines.length && /^\s*- /.test(lines[i])) {
        let item = lines[i].replace(/^\s*- /, "");
        i += 1;
        while (i < lines.length && /^\s{2,}\S/.test(lines[i]) && !/^\s*- /.test(lines[i])) item += ` ${lines[i++].trim()}`;
        items.push(item);
      }
      blocks.push(html`<ul>${items.map((it) => html`<li>${inline(it)}</li>`)}</ul>`);
    } else if (line.trim()) {
      const para = [];
      while (i < lines.length && lines[i].trim() && !/^(\s*- |```|#)/.test(lines[i])) para.push(lines[i++]);
      blocks.push(html`<p>${inline(para.join(" "))}</p>`);
    } else {
      i += 1;
    }
  }
  return html`<div class="markdown">${blocks}</div>`;
}

export function RulesPage({ game }) {
  const [text, setText] = useState(null);
  const [error, setError] = useState("");
  const games = useGames((e) => setError(`Games: ${e.message}`));
  const facts = factsOf(games, game);
  const title = game === ALL ? "All the rules" : facts?.title || game;
  useEffect(() => {
    document.title = `dicepoker · rules · ${title}`;
    loadRules().then(setText).catch((e) => setError(e.message));
  }, [title]);
  // Nothing until the games are known; every section for "all" (and for a game this server does not know).
  const wanted = game === ALL || (games && !facts) ? null : facts ? facts.rules_sections : [];
  const shown = text ? sections(text).filter((s) => !wanted || wanted.some((w) => s.title.startsWith(w))) : [];
  return html`<article class="rules">
    <p><a href="#/">← Lobby</a></p>
    <h1>Rules: ${title}</h1>
    ${error ? html`<p class="alert" role="alert">${error}</p>` : null}
    ${text === null && !error ? html`<p class="muted">Loading…</p>` : null}
    ${shown.map((s) => html`<section class="panel"><h2>${s.title}</h2><${Markdown} text=${s.body} /></section>`)}
  </article>`;
}
