// A table page: the live connection, seats, clock, result, history; the game itself is drawn by games/*.js.
import { html, useEffect, useRef, useState } from "../vendor/htm-preact.js";
import { TableConnection, api, seatAt, storeSeat, storedName } from "./api.js";
import { capitalise, joinSeat, seatName } from "./lobby.js";
import { GameView, describeEvent } from "./games/index.js";
import { factsOf, useGames } from "./facts.js";
import { TurnAlertControls, useTurnAlerts } from "./alerts.js";
import { NoSuchTable, ReasonLine } from "./words.js";

// Seconds left on the clock, recomputed four times a second from the frame's "remaining" (not the deadline:
// the browser's clock may differ from the server's).
export function useCountdown(clock) {
  const [now, setNow] = useState(performance.now());
  const received = useRef({ clock: null, at: 0 });
  if (received.current.clock !== clock) received.current = { clock, at: performance.now() };
  useEffect(() => {
    if (!clock) return undefined;
    const timer = setInterval(() => setNow(performance.now()), 250);
    return () => clearInterval(timer);
  }, [clock]);
  if (!clock || clock.remaining == null) return null;
  return Math.max(0, clock.remaining - (now - received.current.at) / 1000);
}

export function Clock({ clock, names, mySeat }) {
  const left = useCountdown(clock);
  if (left === null) return null;
  const total = clock.total || 30;
  const warn = left <= Math.min(10, total / 3);
  const who = clock.seat === mySeat ? "Your" : `${names[clock.seat] || `Seat ${clock.seat + 1}`}’s`;
  const pct = Math.max(0, Math.min(100, (left / total) * 100));
  return html`<div class=${`clock${warn ? " warn" : ""}`} role="timer" aria-live="off"
      aria-label=${`${who} clock: ${Math.ceil(left)} seconds left`}>
    <span class="clock-who">${who} turn</span>
    <span class="clock-time" data-testid="clock">${Math.ceil(left)}s</span>
    <span class="clock-bar" aria-hidden="true"><span style=${`width:${pct}%`}></span></span>
  </div>`;
}

function ConnectionBanner({ status }) {
  if (status === "open" || status === "connecting") return null;
  const text = status === "closed" ? "This table is closed." : "Reconnecting…";
  return html`<div class="banner reconnecting" role="status" data-testid="connection">${text}</div>`;
}

// A rematch keeps the seats, and a person keeps their seat's token (the server copies it): store it for the
// new table so that its page opens in the same seat.
export function followRematch(tableId, rematchId) {
  const mine = seatAt(tableId);
  if (mine) storeSeat(rematchId, mine.seat, mine.token, mine.name || storedName() || "Guest");
  location.hash = `#/table/${rematchId}`;
}

// Leaving (CM-7) is resigning: a confirmation dialog first (a native <dialog>: focus moves into it, Escape
// cancels, and focus returns to the button), then POST /api/tables/{id}/leave with this seat's token.
function LeaveButton({ onLeave }) {
  const dialog = useRef(null);
  const open = () => dialog.current?.showModal();
  const close = () => dialog.current?.close();
  return html`<div class="resign">
    <button class="danger" onClick=${open} data-testid="leave" aria-haspopup="dialog">Leave</button>
    <dialog ref=${dialog} aria-labelledby="leave-title" aria-describedby="leave-text" data-testid="leave-dialog">
      <h2 id="leave-title">Leave this table?</h2>
      <p id="leave-text">Leaving resigns the game: you lose it at once; the others play on or win. This cannot be undone.</p>
      <div class="actions">
        <button onClick=${close} data-testid="leave-cancel" autofocus>Keep playing</button>
        <button class="danger" onClick=${() => { close(); onLeave(); }} data-testid="leave-confirm">Leave</button>
      </div>
    </dialog>
  </div>`;
}

// Who left (CM-7), as it happened: "Ann left" for the others, and for the leaver what happens next.
function LeftNotices({ leavers, frame, seats }) {
  return leavers.map((s) => s === frame.seat
    ? html`<p class="left-notice" role="status" data-testid="you-left">You left this table.${frame.status === "finished" ? ""
      : " The game goes on without you; its result will show here."}</p>`
    : html`<p class="left-notice" role="status" data-testid="left-notice">${seats[s] ? seatName(seats[s]) : `Seat ${s + 1}`} left</p>`);
}

function ResultPanel({ frame, names, tableId, mySeat }) {
  const result = frame.result;
  const [rematchError, setRematchError] = useState("");
  if (!result) return null;
  const winners = result.winners || [];
  const scores = result.scores || [];
  const headline = winners.length === 0 ? "Nobody wins"
    : winners.length > 1 ? `Tie: ${winners.map((s) => names[s]).join(" and ")}`
    : winners[0] === mySeat ? "You win!" : `${names[winners[0]]} wins`;
  // Also behind "Join the rematch": asking again answers the rematch that exists, and completes one whose
  // server died between naming it and storing it (its page would otherwise not be found).
  const rematch = async () => {
    try {
      const next = await api.rematch(tableId);
      followRematch(tableId, next.id);
    } catch (err) {
      setRematchError(err.message);
    }
  };
  return html`<section class="panel result" aria-labelledby="result-title" data-testid="result">
    <h2 id="result-title">${headline}</h2>
    <${ReasonLine} reason=${result.reason} />
    <ol class="final-scores">${scores.map((score, seat) => html`<li class=${winners.includes(seat) ? "winner" : ""}>
      <span>${names[seat]}</span> <strong data-testid=${`final-${seat}`}>${score}</strong></li>`)}</ol>
    <div class="actions">
      <a class="button" href=${`#/replay/${tableId}`}>Replay this game</a>
      <a class="button" href=${`/api/tables/${tableId}/log`} download=${`${tableId}.jsonl`}>Download the log</a>
      ${frame.rematch ? html`<button class="primary" onClick=${rematch}
          data-testid="to-rematch">${mySeat != null ? "Join the rematch" : "Watch the rematch"}</button>`
        : html`<button class="primary" onClick=${rematch} data-testid="rematch">Rematch</button>`}
      <a class="button" href="#/">Lobby</a>
    </div>
    ${rematchError ? html`<p class="alert" role="alert">${rematchError}</p>` : null}
  </section>`;
}

function HistoryPanel({ lines }) {
  const list = useRef(null);
  useEffect(() => {
    if (list.current) list.current.scrollTop = list.current.scrollHeight;
  }, [lines.length]);
  return html`<section class="panel history" aria-labelledby="history-title">
    <h2 id="history-title">History</h2>
    <ol ref=${list} tabindex="0" aria-label="moves so far" data-testid="history">
      ${lines.map((l) => html`<li class=${l.chance ? "chance" : ""}>${l.text}</li>`)}
    </ol>
  </section>`;
}

function SeatTaker({ frame, tableId, onJoined }) {
  const open = (frame.seats || []).filter((s) => s.kind === "open");
  const [error, setError] = useState("");
  if (frame.seat != null || frame.status !== "waiting" || !open.length) return null;
  const take = async (seat) => {
    try {
      const joined = await joinSeat(tableId, seat, storedName() || "Guest");
      onJoined(joined.token);
    } catch (err) {
      setError(err.message);
    }
  };
  return html`<section class="panel" aria-label="open seats">
    <p>This table is waiting for players.</p>
    <div class="actions">${open.map((s) => html`<button class="primary" onClick=${() => take(s.seat)}>
      Take seat ${s.seat + 1}</button>`)}</div>
    ${error ? html`<p class="alert" role="alert">${error}</p>` : null}
  </section>`;
}

// Who is at the table now: presence frames update seats[].connected without a new state.
function Presence({ seats, names }) {
  const people = seats.filter((s) => s.kind === "human");
  if (!people.length) return null;
  const away = people.filter((s) => !s.connected).map((s) => names[s.seat]);
  const here = people.filter((s) => s.connected).map((s) => names[s.seat]);
  return html`<p class="muted" data-testid="presence" data-away=${away.length}>
    ${here.length ? `Connected: ${here.join(", ")}` : ""}${here.length && away.length ? " · " : ""}
    ${away.length ? `Away: ${away.join(", ")}` : ""}</p>`;
}

const HISTORY_LIMIT = 400;

export function TablePage({ id, watch }) {
  const [frame, setFrame] = useState(null);
  const [status, setStatus] = useState("connecting");
  const [toast, setToast] = useState("");
  const [token, setToken] = useState(watch ? null : seatAt(id)?.token || null);
  const [lines, setLines] = useState(() => {
    try {
      return JSON.parse(sessionStorage.getItem(`dicepoker.history.${id}`) || "[]");
    } catch {
      return [];
    }
  });
  const [leavers, setLeavers] = useState([]);
  const connection = useRef(null);
  const seen = useRef(0);
  useEffect(() => {
    setLeavers([]);
    const conn = new TableConnection(id, token, {
      onState: (f) => {
        setFrame(f);
        if (f.last && f.last.action === "resign") setLeavers((old) => (old.includes(f.last.seat) ? old : [...old, f.last.seat]));
        if (f.last && f.version > seen.current) {
          seen.current = f.version;
          setLines((old) => {
            const next = [...old, describeEvent(f.view.game, f.last, f)].slice(-HISTORY_LIMIT);
            sessionStorage.setItem(`dicepoker.history.${id}`, JSON.stringify(next));
            return next;
          });
        } else {
          seen.current = Math.max(seen.current, f.version);
        }
      },
      onStatus: setStatus,
      onError: (reason) => setToast(reason),
    });
    connection.current = conn;
    return () => conn.close();
  }, [id, token]);
  useEffect(() => {
    if (!toast) return undefined;
    const timer = setTimeout(() => setToast(""), 6000);
    return () => clearTimeout(timer);
  }, [toast]);
  const game = frame?.view?.game;
  const title = factsOf(useGames(), game)?.short_title;
  useEffect(() => {
    document.title = `dicepoker · ${title || "table"}`;
  }, [title]);
  const myTurnNow = frame ? frame.seat != null && (frame.to_act || []).includes(frame.seat)
    && (frame.legal_actions || []).length > 0 : null;
  useTurnAlerts({ myTurn: myTurnNow, title, label: `${title || "dicepoker"}: table ${id}`, tag: id });
  if (!frame && status === "closed") return html`<div class="table-page"><${NoSuchTable} id=${id} /></div>`;
  if (!frame) {
    return html`<div class="table-page"><${ConnectionBanner} status=${status} />
      <p class="muted">Connecting to table ${id}…</p></div>`;
  }
  const seats = frame.seats || [];
  const names = seats.length ? seats.map((s) => (s.seat === frame.seat ? `${seatName(s)} (you)` : seatName(s)))
    : Array.from({ length: frame.view.players || 2 }, (_, i) => `Seat ${i + 1}`);
  const act = frame.seat != null && frame.status !== "finished" ? (action) => {
    setToast("");
    connection.current.act(action);
  } : null;
  const leave = async () => {
    try {
      await api.leave(id, token);
      setLeavers((old) => (old.includes(frame.seat) ? old : [...old, frame.seat]));
    } catch (err) {
      setToast(err.message);
    }
  };
  const spectator = frame.seat == null;
  const myTurn = frame.seat != null && (frame.to_act || []).includes(frame.seat) && (frame.legal_actions || []).length > 0;
  return html`<div class=${`table-page game-${game}`} data-testid="table" data-status=${frame.status}
      data-version=${frame.version} data-seat=${frame.seat == null ? "" : frame.seat} data-my-turn=${myTurn ? "yes" : "no"}
      data-connection=${status}>
    <${ConnectionBanner} status=${status} />
    <div class="table-head">
      <div>
        <h1>${title || game}</h1>
        <p class="muted">Table ${id} · ${frame.status}${spectator ? " · watching" : ""}
          ${frame.clock === null && frame.status === "playing" ? " · no clock" : ""}${" · "}<a href=${`#/guide/${game}`}
            target="_blank" rel="noopener" data-testid="how-to-play">How to play</a></p>
        <${Presence} seats=${seats} names=${names} />
      </div>
      <div class="table-head-side">
        <${Clock} clock=${frame.clock} names=${names} mySeat=${frame.seat} />
        ${frame.seat != null && frame.status !== "finished" ? html`<${TurnAlertControls} />` : null}
        ${act && frame.status === "playing" && !leavers.includes(frame.seat) ? html`<${LeaveButton} onLeave=${leave} />` : null}
      </div>
    </div>
    ${toast ? html`<div class="alert" role="alert" data-testid="error">${toast}
      <button class="ghost" onClick=${() => setToast("")} aria-label="Dismiss the message">✕</button></div>` : null}
    <${LeftNotices} leavers=${leavers} frame=${frame} seats=${seats} />
    <${SeatTaker} frame=${frame} tableId=${id} onJoined=${setToken} />
    <${ResultPanel} frame=${frame} names=${names} tableId=${id} mySeat=${frame.seat} />
    <div class="table-layout">
      <div class="table-main">
        <${GameView} view=${frame.view} legal=${frame.legal_actions || []} act=${act} names=${names}
          seat=${frame.seat} toAct=${frame.to_act || []} clock=${frame.clock} tableId=${id}
          finished=${frame.status === "finished"} waiting=${frame.status === "waiting"} />
      </div>
      <aside class="table-side"><${HistoryPanel} lines=${lines} /></aside>
    </div>
    <div class="sr-only" aria-live="polite">${frame.last ? describeEvent(game, frame.last, frame).text : ""}</div>
  </div>`;
}
