// Replays: a finished table (replayed by the server from its own copy of the log, whatever its length) or an
// uploaded log / hand history, stepped move by move, with the fairness record and a verification of every
// die against the commitment this browser kept when it joined the table (never only the log's own).
import { html, useEffect, useState } from "../vendor/htm-preact.js";
import { api, keptCommitment, tableOfCommitment } from "./api.js";
import { seatName } from "./lobby.js";
import { GameView, describeEvent } from "./games/index.js";
import { factsOf, useGames } from "./facts.js";
import { Icon } from "./icons.js";

// The commitment this browser kept for the log's table: by the table's id, or (an uploaded log names no
// table) the table whose kept commitment the log carries.
function keptFor(tableId, record) {
  if (tableId) return { table: tableId, commitment: keptCommitment(tableId) };
  const table = record ? tableOfCommitment(record.commitment) : null;
  return { table, commitment: table ? keptCommitment(table) : null };
}

function KeptCommitment({ kept, record }) {
  if (!kept.commitment) {
    return html`<dd data-testid="kept-commitment">none kept in this browser: compare the log's with the one shown
      when the table was created or joined (<code>dicepoker verify LOG --commitment HEX</code>)</dd>`;
  }
  const same = record && String(record.commitment).toLowerCase() === kept.commitment;
  return html`<dd data-testid="kept-commitment"><code class="hash">${kept.commitment}</code>
    <span class=${same ? "ok" : "bad"}>${same ? " ✔ the log carries it" : " ✘ the log carries another one: this is not the game you joined"}</span></dd>`;
}

function Fairness({ record, text, tableId }) {
  const [result, setResult] = useState(null);
  const [busy, setBusy] = useState(false);
  const kept = keptFor(tableId, record);
  const verify = async () => {
    setBusy(true);
    try {
      setResult(tableId ? await api.verifyTable(tableId, kept.commitment) : await api.verify(text, kept.commitment));
    } catch (err) {
      setResult({ ok: false, summary: err.message });
    } finally {
      setBusy(false);
    }
  };
  return html`<section class="panel fairness" aria-labelledby="fair-title" data-testid="fairness">
    <h2 id="fair-title">Fairness record</h2>
    ${record ? html`<dl>
      <dt>Scheme</dt><dd>${record.scheme || "?"}</dd>
      <dt>Commitment in this log</dt><dd><code class="hash">${record.commitment}</code></dd>
      <dt>Commitment kept when you joined${kept.table && !tableId ? ` table ${kept.table}` : ""}</dt>
      <${KeptCommitment} kept=${kept} record=${record} />
      <dt>Server seed (revealed at the end)</dt><dd><code class="hash">${record.server_seed || "not revealed yet"}</code></dd>
      <dt>Client seeds</dt><dd>${(record.client_seeds || []).length ? record.client_seeds.map((s) => html`<code>${s || "—"}</code> `) : "none"}</dd>
    </dl>` : html`<p class="muted">This log has no fairness record: it was not played on a server.</p>`}
    <button onClick=${verify} disabled=${busy || !record} data-testid="verify">Verify every die</button>
    ${result ? html`<p class=${result.ok ? "ok" : result.ok === false ? "bad" : "muted"} role="status" data-testid="verify-result">
      ${result.ok ? "✔ " : result.ok === false ? "✘ " : ""}${result.summary}</p>
      ${result.report ? html`<details><summary>Details</summary><pre tabindex="0">${JSON.stringify(result.report, null, 1).slice(0, 20000)}</pre></details>` : null}` : null}
  </section>`;
}

function Upload({ onText }) {
  const [error, setError] = useState("");
  return html`<section class="panel" aria-labelledby="upload-title">
    <h2 id="upload-title">Open a saved game</h2>
    <p>Choose a dicepoker log (<code>.jsonl</code>, as downloaded from a finished table or saved by
      <code>dicepoker play</code>) or a hand history.</p>
    <label class="button" for="log-file">Choose a file…</label>
    <input id="log-file" class="visually-hidden-file" type="file" accept=".jsonl,.json,.txt,.toml,text/plain"
      onChange=${async (e) => {
        const file = e.target.files[0];
        if (!file) return;
        if (file.size > 4 * 1024 * 1024) return setError("That file is larger than 4 MiB.");
        onText(await file.text(), file.name);
      }} />
    ${error ? html`<p class="alert" role="alert">${error}</p>` : null}
  </section>`;
}

// The betting games' views number their hands from 1 (0 before the first deal): a whole game's moves are
// listed hand by hand.
function handOf(view) {
  const hand = view ? view.hand ?? view.hand_number : null;
  return typeof hand === "number" ? hand : null;
}

function countOf(n, one, many) {
  return `${n} ${n === 1 ? one : many}`;
}

function MoveItems({ moves, step, setStep }) {
  return moves.map((m) => html`<li class=${`${m.chance ? "chance" : ""}${m.i === step ? " current" : ""}`}>
    <button class="link" onClick=${() => setStep(m.i)} aria-current=${m.i === step ? "step" : null}>${m.text}</button></li>`);
}

// One collapsible group per hand (the hand of the current move open); a flat list for the other games.
function MoveList({ moves, step, setStep }) {
  if (!moves.some((m) => m.hand !== null)) {
    return html`<ol tabindex="0" aria-label="moves"><${MoveItems} moves=${moves} step=${step} setStep=${setStep} /></ol>`;
  }
  const groups = [];
  for (const move of moves) {
    const last = groups[groups.length - 1];
    if (last && last.hand === move.hand) last.moves.push(move);
    else groups.push({ hand: move.hand, moves: [move] });
  }
  const current = groups.find((g) => g.moves.some((m) => m.i === step)) || groups[0];
  return html`<div class="move-groups" data-testid="move-groups">${groups.map((g) => html`<details class="hand-group"
      open=${g === current} data-testid="hand-group">
    <summary>${g.hand ? `Hand ${g.hand}` : "Before the first hand"} · ${countOf(g.moves.length, "move", "moves")}</summary>
    <ol aria-label=${g.hand ? `moves of hand ${g.hand}` : "moves before the first hand"}>
      <${MoveItems} moves=${g.moves} step=${step} setStep=${setStep} /></ol>
  </details>`)}</div>`;
}

export function ReplayPage({ id }) {
  const [text, setText] = useState(null);
  const [source, setSource] = useState(id ? `table ${id}` : "");
  const [data, setData] = useState(null);
  const [seat, setSeat] = useState(null);
  const [step, setStep] = useState(0);
  const [playing, setPlaying] = useState(false);
  const [error, setError] = useState("");
  const [seats, setSeats] = useState(null);
  const games = useGames();
  useEffect(() => {
    document.title = "dicepoker · replay";
    if (!id) return;
    api.table(id).then((t) => setSeats(t.seats)).catch(() => {});
  }, [id]);
  useEffect(() => {
    if (!id && text === null) return;
    setError("");
    // A finished table is replayed from the server's copy of its log: no upload, so no body limit.
    (id ? api.replayTable(id, seat) : api.replay(text, seat)).then((d) => {
      setData(d);
      setStep((s) => Math.min(s || 0, d.frames.length - 1));
    }).catch((e) => setError(id ? `The replay of table ${id}: ${e.message}` : `Replay: ${e.message}`));
  }, [id, text, seat]);
  useEffect(() => {
    if (!playing || !data) return undefined;
    const timer = setInterval(() => setStep((s) => {
      if (s >= data.frames.length - 1) {
        setPlaying(false);
        return s;
      }
      return s + 1;
    }), 600);
    return () => clearInterval(timer);
  }, [playing, data]);
  useEffect(() => {
    if (!data) return undefined;
    const onKey = (e) => {
      if (e.target.tagName === "INPUT" && e.target.type !== "range") return;
      if (e.key === "ArrowRight") setStep((s) => Math.min(data.frames.length - 1, s + 1));
      else if (e.key === "ArrowLeft") setStep((s) => Math.max(0, s - 1));
      else return;
      e.preventDefault();
    };
    document.addEventListener("keydown", onKey);
    return () => document.removeEventListener("keydown", onKey);
  }, [data]);
  if (!id && !text) {
    return html`<div class="replay"><h1>Replays</h1>
      ${error ? html`<p class="alert" role="alert">${error}</p>` : null}
      <${Upload} onText=${(t, name) => { setText(t); setSource(name); }} />
    </div>`;
  }
  if (!data) {
    return html`<div class="replay"><h1>Replay</h1>${error ? html`<p class="alert" role="alert">${error}</p>`
      : html`<p class="muted">Replaying…</p>`}${!id ? html`<button onClick=${() => { setText(null); setError(""); }}>Choose another file</button>` : null}</div>`;
  }
  const frames = data.frames;
  const frame = frames[step];
  const names = Array.from({ length: data.players }, (_, s) => (seats && seats[s] ? seatName(seats[s]) : `Seat ${s + 1}`));
  const fakeFrame = { seat, seats: seats || [] };
  const moves = frames.map((f, i) => (f.last ? { i, hand: handOf(f.view), ...describeEvent(data.game, f.last, fakeFrame) } : null))
    .filter(Boolean);
  return html`<div class="replay">
    <div class="table-head"><div><h1>Replay: ${factsOf(games, data.game)?.title || data.game}</h1><p class="muted">${source} · ${frames.length - 1} events
      ${data.result ? ` · ${data.result.reason}` : " · unfinished"}</p></div>
      <div class="field"><label for="replay-seat">Seen by</label>
        <select id="replay-seat" value=${seat == null ? "" : String(seat)}
          onChange=${(e) => setSeat(e.target.value === "" ? null : Number(e.target.value))}>
          <option value="">a spectator</option>
          ${names.map((n, s) => html`<option value=${String(s)}>${n}</option>`)}
        </select></div>
    </div>
    ${error ? html`<p class="alert" role="alert">${error}</p>` : null}
    <div class="replay-controls" role="group" aria-label="replay controls">
      <button onClick=${() => setStep(0)} aria-label="first position"><${Icon} name="first" /></button>
      <button onClick=${() => setStep(Math.max(0, step - 1))} aria-label="previous move"><${Icon} name="previous" /></button>
      <button onClick=${() => setPlaying(!playing)} aria-label=${playing ? "pause" : "play"}><${Icon} name=${playing ? "pause" : "play"} /></button>
      <button onClick=${() => setStep(Math.min(frames.length - 1, step + 1))} aria-label="next move" data-testid="next"><${Icon} name="next" /></button>
      <button onClick=${() => setStep(frames.length - 1)} aria-label="last position" data-testid="last"><${Icon} name="last" /></button>
      <label class="sr-only" for="replay-step">Move</label>
      <input id="replay-step" type="range" min="0" max=${frames.length - 1} value=${step}
        onInput=${(e) => setStep(Number(e.target.value))} aria-valuetext=${`move ${step} of ${frames.length - 1}`} />
      <span class="muted" data-testid="step">${step} / ${frames.length - 1}</span>
    </div>
    <p class="turn-line" aria-live="polite">${frame.last ? describeEvent(data.game, frame.last, fakeFrame).text : "Start of the game"}</p>
    <div class="table-layout">
      <div class="table-main">
        <${GameView} view=${frame.view} legal=${[]} act=${null} names=${names} seat=${seat}
          toAct=${frame.to_act === "chance" ? [] : frame.to_act} clock=${null} tableId=${id} finished=${false} replay=${true} />
      </div>
      <aside class="table-side">
        <section class="panel history" aria-labelledby="moves-title"><h2 id="moves-title">Moves</h2>
          <${MoveList} moves=${moves} step=${step} setStep=${setStep} /></section>
        <${Fairness} record=${data.fairness} text=${text} tableId=${id} />
        ${data.result ? html`<section class="panel"><h2>Result</h2><p>${data.result.reason}</p>
          <ol class="final-scores">${data.result.scores.map((sc, s) => html`<li class=${data.result.winners.includes(s) ? "winner" : ""}>
          <span>${names[s]}</span> <strong>${sc}</strong></li>`)}</ol></section>` : null}
        ${!id ? html`<button onClick=${() => { setText(null); setData(null); }}>Open another file</button>` : null}
      </aside>
    </div>
  </div>`;
}
