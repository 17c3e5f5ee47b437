// The lobby: the five games, play now, new table with its options, open and running tables, replays.
import { html, useEffect, useState } from "../vendor/htm-preact.js";
import { api, seatAt, storeName, storeSeat, storedName } from "./api.js";
import { DiceRow } from "./dice.js";
import { loadGames } from "./facts.js";

// The roll on a game's card is the game's own (GET /api/games: "dice" and "sample_dice").
function sampleOf(game) {
  const dice = game.sample_dice || [];
  return { kind: game.dice || "pip", dice: game.dice === "pip" ? dice.map(Number) : dice };
}

// The summary is the server's (GET /api/games: one paragraph per game, from its catalog).
export function gameSummary(game) {
  return game.summary || "";
}

export function seatName(seat) {
  if (!seat) return "";
  if (seat.kind === "bot") return `${capitalise(seat.name || `${seat.bot || "bot"} bot`)} ${seat.seat + 1}`;
  if (seat.kind === "open") return "open seat";
  const name = seat.name || `Player ${seat.seat + 1}`;
  // A name mixing scripts (Latin with Cyrillic, say) may pass for another: marked, not hidden.
  return seat.mixed_scripts ? `${name} [mixed scripts]` : name;
}

export function capitalise(text) {
  return text ? text[0].toUpperCase() + text.slice(1) : text;
}

function go(hash) {
  location.hash = hash;
}

export async function joinSeat(tableId, seat, name) {
  const joined = await api.join(tableId, seat, name);
  storeSeat(tableId, joined.seat, joined.token, name);
  return joined;
}

function NameField({ name, setName }) {
  return html`<div class="field name-field">
    <label for="player-name">Your name</label>
    <input id="player-name" autocomplete="nickname" maxlength="32" value=${name} placeholder="e.g. Ann"
      onInput=${(e) => { setName(e.target.value); storeName(e.target.value); }} />
  </div>`;
}

function GameCard({ game, name, onNew, setError }) {
  const sample = sampleOf(game);
  const [busy, setBusy] = useState(false);
  const playNow = async () => {
    setBusy(true);
    try {
      const who = name.trim() || "Guest";
      const seat = await api.playNow(game.name, who);
      storeSeat(seat.id, seat.seat, seat.token, who);
      go(`#/table/${seat.id}`);
    } catch (err) {
      setError(`Play now (${game.title}): ${err.message}`);
    } finally {
      setBusy(false);
    }
  };
  const players = game.players || {};
  return html`<article class="game-card" aria-labelledby=${`title-${game.name}`}>
    <div class="game-card-dice" aria-hidden="true"><${DiceRow} kind=${sample.kind} dice=${sample.dice} small /></div>
    <h3 id=${`title-${game.name}`}>${game.title}</h3>
    <p class="meta">${players.min === players.max ? players.min : `${players.min}–${players.max}`} players ·
      ${game.clock_default ? `${game.clock_default} s clock` : "no clock"} ·
      <a href=${`#/guide/${game.name}`} aria-label=${`How to play ${game.title}`}>how to play</a></p>
    <p class="summary">${gameSummary(game)}</p>
    <div class="actions">
      <button class="primary" disabled=${busy} onClick=${playNow}>Play now</button>
      <button onClick=${() => onNew(game)}>New table</button>
    </div>
  </article>`;
}

function configInput(field, value, set) {
  const id = `cfg-${field.name}`;
  const label = capitalise(field.name.replace(/_/g, " "));
  if (field.name === "board") {
    return html`<div class="field"><label for=${id}>Board file (optional)</label>
      <input id=${id} type="file" accept=".txt,.json,.toml,text/plain" onChange=${async (e) => {
        const file = e.target.files[0];
        if (!file) return set(null);
        const text = await file.text();
        let rows;
        try {
          const data = JSON.parse(text);
          rows = Array.isArray(data) ? data : data.rows || data.board;
        } catch {
          rows = text.split(/\r?\n/).map((r) => r.trim()).filter((r) => r && !r.startsWith("#"));
        }
        set(rows);
      }} />
      <small>${value ? `${value.length} rows loaded` : "nine rows of square labels; default board if empty"}</small>
    </div>`;
  }
  if (field.choices) {
    return html`<div class="field"><label for=${id}>${label}</label>
      <select id=${id} value=${String(value)} onChange=${(e) => set(coerce(field, e.target.value))}>
        ${field.choices.map((c) => html`<option value=${String(c)}>${c === null ? "default" : String(c)}</option>`)}
      </select></div>`;
  }
  if (field.type === "bool" || field.type === "boolean") {
    return html`<div class="field check"><input id=${id} type="checkbox" checked=${!!value}
      onChange=${(e) => set(e.target.checked)} /><label for=${id}>${label}</label></div>`;
  }
  if (field.type === "int" || field.type === "integer" || field.type === "number") {
    return html`<div class="field"><label for=${id}>${label}</label>
      <input id=${id} type="number" inputmode="numeric" value=${value ?? ""} min=${field.min} max=${field.max}
        placeholder=${field.default == null ? "default" : ""}
        onInput=${(e) => set(e.target.value === "" ? null : Number(e.target.value))} /></div>`;
  }
  return html`<div class="field"><label for=${id}>${label}</label>
    <input id=${id} value=${value ?? ""} onInput=${(e) => set(e.target.value || null)} /></div>`;
}

function coerce(field, text) {
  const match = field.choices.find((c) => String(c) === text);
  return match === undefined ? text : match;
}

function NewTable({ game, name, onClose, setError }) {
  const players = game.players || { min: 2, max: 2, default: 2 };
  const [count, setCount] = useState(players.default);
  const bots = game.bots || [];
  const defaultBot = bots.includes("expert") ? "expert" : bots[bots.length - 1];
  const [seats, setSeats] = useState([]);
  const [clock, setClock] = useState(game.clock_default ?? 60);
  const [noClock, setNoClock] = useState(false);
  const fields = (game.config || []).filter((f) => f.name !== "players");
  const [config, setConfig] = useState(Object.fromEntries(fields.map((f) => [f.name, f.default])));
  const [busy, setBusy] = useState(false);
  const kinds = Array.from({ length: count }, (_, i) => seats[i] || (i === 0 ? "you" : defaultBot ? `bot:${defaultBot}` : "open"));
  const setKind = (i, kind) => {
    const next = [...kinds];
    next[i] = kind;
    setSeats(next);
  };
  const create = async (e) => {
    e.preventDefault();
    setBusy(true);
    try {
      const cfg = { ...config };
      for (const key of Object.keys(cfg)) if (cfg[key] === null || cfg[key] === undefined) delete cfg[key];
      if ((game.config || []).some((f) => f.name === "players")) cfg.players = count;
      const spec = {
        game: game.name,
        config: cfg,
        seats: kinds.map((k) => (k === "you" ? "open" : k)),
        clock: noClock ? null : Number(clock),
      };
      const table = await api.create(spec);
      const who = name.trim() || "Guest";
      const mine = kinds.map((k, i) => (k === "you" ? i : null)).filter((i) => i !== null);
      for (const seat of mine) await joinSeat(table.id, seat, who);
      go(`#/table/${table.id}`);
    } catch (err) {
      setError(`New ${game.title} table: ${err.message}`);
    } finally {
      setBusy(false);
    }
  };
  const range = [];
  for (let n = players.min; n <= players.max; n += 1) range.push(n);
  return html`<section class="panel new-table" aria-labelledby="new-table-title">
    <form onSubmit=${create}>
      <div class="panel-head"><h2 id="new-table-title">New ${game.title} table</h2>
        <button type="button" class="ghost" onClick=${onClose} aria-label="Close the new table form">✕</button></div>
      <div class="form-grid">
        <div class="field"><label for="nt-players">Players</label>
          <select id="nt-players" value=${String(count)} onChange=${(e) => setCount(Number(e.target.value))}>
            ${range.map((n) => html`<option value=${String(n)}>${n}</option>`)}</select></div>
        <div class="field"><label for="nt-clock">Turn clock (seconds)</label>
          <input id="nt-clock" type="number" min="5" max="3600" value=${clock} disabled=${noClock}
            onInput=${(e) => setClock(e.target.value)} /></div>
        <div class="field check"><input id="nt-noclock" type="checkbox" checked=${noClock}
          onChange=${(e) => setNoClock(e.target.checked)} /><label for="nt-noclock">No clock</label></div>
        ${fields.map((f) => configInput(f, config[f.name], (v) => setConfig({ ...config, [f.name]: v })))}
      </div>
      <fieldset class="seats"><legend>Seats</legend>
        ${kinds.map((kind, i) => html`<div class="field"><label for=${`nt-seat-${i}`}>Seat ${i + 1}</label>
          <select id=${`nt-seat-${i}`} value=${kind} onChange=${(e) => setKind(i, e.target.value)}>
            <option value="you">You</option>
            <option value="open">Open (another person)</option>
            ${bots.map((b) => html`<option value=${`bot:${b}`}>Bot: ${b}</option>`)}
          </select></div>`)}
      </fieldset>
      <div class="actions"><button class="primary" type="submit" disabled=${busy}>Create table</button></div>
    </form>
  </section>`;
}

function TableRow({ table, titles, name, setError }) {
  const open = (table.seats || []).filter((s) => s.kind === "open");
  const mine = seatAt(table.id);
  const join = async () => {
    try {
      await joinSeat(table.id, open[0].seat, name.trim() || "Guest");
      go(`#/table/${table.id}`);
    } catch (err) {
      setError(`Join: ${err.message}`);
    }
  };
  const rematch = async () => {
    try {
      const next = await api.rematch(table.id);
      // The rematch keeps the seats and their tokens (the server copies them): no join, just remember it.
      if (mine) storeSeat(next.id, mine.seat, mine.token, mine.name || name || "Guest");
      go(`#/table/${next.id}`);
    } catch (err) {
      setError(`Rematch: ${err.message}`);
    }
  };
  const who = (table.seats || []).map((s) => seatName(s)).join(", ");
  // CM-7: a game no person is connected to is not "playing"; it stays listed (with "Return to seat") because
  // its people may come back before their clocks run out twice, and leave it by then.
  const shown = table.abandoned ? "abandoned" : table.status;
  return html`<li class="table-row">
    <div class="table-info">
      <span class=${`badge ${shown}`} data-testid="table-status">${shown}</span>
      <strong>${titles[table.game] || table.game}</strong>
      <span class="muted">${who}${table.spectators ? ` · ${table.spectators} watching` : ""}</span>
    </div>
    <div class="actions">
      ${mine && table.status !== "finished" ? html`<a class="button primary" href=${`#/table/${table.id}`}>Return to seat</a>` : null}
      ${!mine && table.status === "waiting" && open.length ? html`<button class="primary" onClick=${join}>Join</button>` : null}
      ${table.status !== "finished" ? html`<a class="button" href=${`#/table/${table.id}?watch`}>Watch</a>` : null}
      ${table.status === "finished" ? html`<a class="button" href=${`#/replay/${table.id}`}>Replay</a>` : null}
      ${table.status === "finished" && !table.rematch ? html`<button onClick=${rematch}>Rematch</button>` : null}
      ${table.rematch ? html`<button onClick=${rematch}>To the rematch</button>` : null}
    </div>
  </li>`;
}

export function Lobby() {
  const [games, setGames] = useState(null);
  const [tables, setTables] = useState([]);
  const [error, setError] = useState("");
  const [name, setName] = useState(storedName());
  const [creating, setCreating] = useState(null);
  useEffect(() => {
    document.title = "dicepoker · lobby";
    loadGames().then(setGames).catch((e) => setError(`Games: ${e.message}`));
    let alive = true;
    const refresh = () => api.tables().then((d) => alive && setTables(d.tables || [])).catch(() => {});
    refresh();
    const timer = setInterval(refresh, 3000);
    return () => { alive = false; clearInterval(timer); };
  }, []);
  const titles = Object.fromEntries((games || []).map((g) => [g.name, g.title]));
  const live = tables.filter((t) => t.status !== "finished");
  const finished = tables.filter((t) => t.status === "finished").slice(0, 12);
  return html`<div class="lobby">
    <section class="hero">
      <div><h1>Dice poker, at the table</h1>
        <p>Five games of dice and nerve: fill a scorecard, claim a board, or bet your stack. Play people or bots;
          every die is drawn on the server and can be verified after the game.</p></div>
      <${NameField} name=${name} setName=${setName} />
    </section>
    ${error ? html`<div class="alert" role="alert">${error}
      <button class="ghost" onClick=${() => setError("")} aria-label="Dismiss the message">✕</button></div>` : null}
    ${creating ? html`<${NewTable} key=${creating.name} game=${creating} name=${name}
      onClose=${() => setCreating(null)} setError=${setError} />` : null}
    <section aria-labelledby="games-title">
      <h2 id="games-title">Games</h2>
      ${games === null ? html`<p class="muted">Loading the games…</p>` : html`<div class="game-grid">
        ${games.map((g) => html`<${GameCard} game=${g} name=${name} setError=${setError}
          onNew=${(game) => { setCreating(game); setTimeout(() => document.getElementById("nt-players")?.focus(), 50); }} />`)}
      </div>`}
    </section>
    <section aria-labelledby="tables-title">
      <h2 id="tables-title">Open and running tables</h2>
      ${live.length ? html`<ul class="table-list">${live.map((t) => html`<${TableRow} key=${t.id} table=${t}
        titles=${titles} name=${name} setError=${setError} />`)}</ul>`
        : html`<p class="muted">No tables yet: press “Play now” or create one.</p>`}
    </section>
    <section aria-labelledby="finished-title">
      <h2 id="finished-title">Finished games</h2>
      ${finished.length ? html`<ul class="table-list">${finished.map((t) => html`<${TableRow} key=${t.id} table=${t}
        titles=${titles} name=${name} setError=${setError} />`)}</ul>`
        : html`<p class="muted">Finished games appear here for replay.</p>`}
      <p><a class="button" href="#/replay">Open a saved log or hand history…</a></p>
    </section>
  </div>`;
}
