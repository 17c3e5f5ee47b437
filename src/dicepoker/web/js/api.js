// Talking to the server: REST helpers, stored seats, and one table's WebSocket with automatic reconnection.
// Everything goes to the page's own origin: nothing is ever sent to another host.

import { SERVER_FRAMES } from "./protocol.js";
import { reportReachable } from "./offline.js";

const SEATS_KEY = "dicepoker.seats";
const NAME_KEY = "dicepoker.name";
const COMMITMENTS_KEY = "dicepoker.commitments";

export class ApiError extends Error {
  constructor(status, reason) {
    super(reason);
    this.status = status;
  }
}

async function request(method, path, body, raw = false) {
  const init = { method, headers: {} };
  if (body !== undefined) {
    if (raw) {
      init.body = body;
      init.headers["Content-Type"] = "text/plain";
    } else {
      init.body = JSON.stringify(body);
      init.headers["Content-Type"] = "application/json";
    }
  }
  let response;
  try {
    response = await fetch(path, init);
  } catch (err) {
    reportReachable(false);
    throw new ApiError(0, "the server cannot be reached");
  }
  reportReachable(true);
  const text = await response.text();
  let data = null;
  try {
    data = text ? JSON.parse(text) : null;
  } catch {
    data = text;
  }
  if (!response.ok) {
    throw new ApiError(response.status, reasonOf(data) || `${response.status} ${response.statusText}`);
  }
  return data;
}

// A join (or play-now) whose answer is lost may still have taken the seat: it carries a random client_key
// and is sent again with the same key, which the server answers with the same seat and token (not 409).
async function seatRequest(path, body) {
  const bytes = crypto.getRandomValues(new Uint8Array(18));
  const keyed = { ...body, client_key: Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("") };
  for (let attempt = 0; ; attempt++) {
    try {
      return await request("POST", path, keyed);
    } catch (err) {
      if (![0, 502, 503, 504].includes(err.status) || attempt >= 3) throw err;
    }
    await new Promise((resolve) => setTimeout(resolve, 250 * 2 ** attempt));
  }
}

function reasonOf(data) {
  if (!data) return "";
  if (typeof data === "string") return data;
  const detail = data.detail;
  if (typeof detail === "string") return detail;
  if (Array.isArray(detail)) return detail.map((d) => `${(d.loc || []).slice(1).join(".")}: ${d.msg}`).join("; ");
  return JSON.stringify(data);
}

export const api = {
  games: () => request("GET", "/api/games"),
  tables: () => request("GET", "/api/tables"),
  table: (id) => request("GET", `/api/tables/${encodeURIComponent(id)}`),
  // Every answer that names a table's dice commitment is kept (see keepCommitment).
  create: async (spec) => kept(await request("POST", "/api/tables", spec)),
  join: async (id, seat, name) => kept(await seatRequest(`/api/tables/${encodeURIComponent(id)}/join`, { seat, name }), id),
  playNow: async (game, name) => kept(await seatRequest("/api/play-now", { game, name })),
  rematch: async (id) => kept(await request("POST", `/api/tables/${encodeURIComponent(id)}/rematch`)),
  leave: (id, token) => request("POST", `/api/tables/${encodeURIComponent(id)}/leave`, { token }),
  log: async (id) => {
    let response;
    try {
      response = await fetch(`/api/tables/${encodeURIComponent(id)}/log`);
    } catch {
      throw new ApiError(0, "the server cannot be reached");
    }
    const text = await response.text();
    if (!response.ok) {
      let reason = text;
      try {
        reason = reasonOf(JSON.parse(text));
      } catch {}
      throw new ApiError(response.status, reason || String(response.status));
    }
    return text;
  },
  scores: (dice) => request("POST", "/api/web/scorecard/scores", { dice }),
  hint: (card, dice, rollsUsed) => request("POST", "/api/web/scorecard/hint", { card, dice, rolls_used: rollsUsed }),
  hands: (game, hands, values = []) => request("POST", "/api/web/hands", { game, hands, values }),
  // Uploaded logs (from elsewhere): the log travels as the body, up to 4 MiB.
  replay: (text, seat) => request("POST", `/api/web/replay${seat == null ? "" : `?seat=${seat}`}`, text, true),
  review: (text) => request("POST", "/api/web/review", text, true),
  verify: (text, commitment) => request("POST", `/api/web/verify${commitmentQuery(commitment)}`, text, true),
  // A finished table's: the server reads its log (any length), answers from its cache.
  replayTable: (id, seat) => request("GET", `/api/tables/${encodeURIComponent(id)}/replay${seat == null ? "" : `?seat=${seat}`}`),
  reviewTable: (id) => request("GET", `/api/tables/${encodeURIComponent(id)}/review`),
  verifyTable: (id, commitment) => request("GET", `/api/tables/${encodeURIComponent(id)}/verify${commitmentQuery(commitment)}`),
};

function commitmentQuery(commitment) {
  return commitment ? `?commitment=${encodeURIComponent(commitment)}` : "";
}

// -- dice commitments, kept from before the first die (issue 19 §9) ---------------------------------------
// The server publishes a table's commitment when the table is created (and again in every join answer). A
// log re-rolled from another seed would carry that seed's own commitment and verify against itself, so the
// replay page verifies against the one kept here, never only against the log's.
function kept(answer, tableId) {
  if (answer && typeof answer.commitment === "string") keepCommitment(tableId || answer.id, answer.commitment);
  return answer;
}

function allCommitments() {
  try {
    return JSON.parse(localStorage.getItem(COMMITMENTS_KEY) || "{}") || {};
  } catch {
    return {};
  }
}

export function keepCommitment(tableId, commitment) {
  if (!tableId || !/^[0-9a-f]{64}$/i.test(commitment)) return;
  const all = allCommitments();
  if (all[tableId]) return; // the first one seen stays: a later answer cannot replace it
  all[tableId] = { commitment: commitment.toLowerCase(), at: Date.now() };
  // The 200 most recent tables: a few kilobytes of localStorage.
  const recent = Object.entries(all).sort((a, b) => b[1].at - a[1].at).slice(0, 200);
  localStorage.setItem(COMMITMENTS_KEY, JSON.stringify(Object.fromEntries(recent)));
}

export function keptCommitment(tableId) {
  const entry = allCommitments()[tableId];
  return entry ? entry.commitment : null;
}

// The table whose kept commitment this is (an uploaded log names no table), or null.
export function tableOfCommitment(commitment) {
  if (!commitment) return null;
  const found = Object.entries(allCommitments()).find(([, e]) => e.commitment === String(commitment).toLowerCase());
  return found ? found[0] : null;
}

// -- the player's name and seat tokens, kept in this browser ---------------------------------------------
export function storedName() {
  return localStorage.getItem(NAME_KEY) || "";
}

export function storeName(name) {
  localStorage.setItem(NAME_KEY, name);
}

function allSeats() {
  try {
    return JSON.parse(localStorage.getItem(SEATS_KEY) || "{}") || {};
  } catch {
    return {};
  }
}

export function seatAt(tableId) {
  return allSeats()[tableId] || null;
}

export function storeSeat(tableId, seat, token, name) {
  const seats = allSeats();
  seats[tableId] = { seat, token, name, at: Date.now() };
  // Keep the 50 most recent seats: enough for anyone, small enough for localStorage.
  const kept = Object.entries(seats).sort((a, b) => b[1].at - a[1].at).slice(0, 50);
  localStorage.setItem(SEATS_KEY, JSON.stringify(Object.fromEntries(kept)));
}

export function forgetSeat(tableId) {
  const seats = allSeats();
  delete seats[tableId];
  localStorage.setItem(SEATS_KEY, JSON.stringify(seats));
}

// -- one table's live connection ------------------------------------------------------------------------
// Calls onState(frame) for every state frame, onStatus(status) with "connecting" | "open" | "reconnecting" |
// "closed", and onError(reason) for rejected actions. Reconnects with backoff until close() is called.
export class TableConnection {
  constructor(tableId, token, { onState, onStatus, onError, onFrame }) {
    this.tableId = tableId;
    this.token = token;
    this.handlers = { onState, onStatus, onError, onFrame };
    this.version = null;
    this.latest = null;
    this.attempt = 0;
    this.closed = false;
    this.pending = new Map();
    this.counter = 0;
    this.connect();
  }

  url() {
    const scheme = location.protocol === "https:" ? "wss:" : "ws:";
    const query = this.token ? `?token=${encodeURIComponent(this.token)}` : "";
    return `${scheme}//${location.host}/api/tables/${encodeURIComponent(this.tableId)}/ws${query}`;
  }

  connect() {
    if (this.closed) return;
    this.handlers.onStatus(this.attempt ? "reconnecting" : "connecting");
    const ws = new WebSocket(this.url());
    this.ws = ws;
    ws.onopen = () => {
      this.handlers.onStatus("open");
      this.pinger = setInterval(() => this.send({ type: "ping" }), 20000);
    };
    ws.onmessage = (event) => {
      let frame;
      try {
        frame = JSON.parse(event.data);
      } catch {
        return;
      }
      if (this.handlers.onFrame) this.handlers.onFrame(frame);
      if (!frame || !Object.hasOwn(SERVER_FRAMES, frame.type)) return; // a newer server's frame: ignored
      // One case per frame type of protocol.js (generated from dicepoker.protocol); a test checks each has one.
      switch (frame.type) {
        case "state":
          // Served again: only now does the backoff start over (a server whose database fails opens the
          // socket, then closes it with 1013; counting that open as success would retry twice a second).
          this.attempt = 0;
          this.version = frame.version;
          this.latest = frame;
          this.handlers.onState(frame);
          break;
        case "presence":
          // Someone (dis)connected: the same state with the new seats (the version stays).
          if (this.latest && this.latest.table === frame.table) {
            this.latest = { ...this.latest, seats: frame.seats };
            this.handlers.onState(this.latest);
          }
          break;
        case "error":
          this.pending.delete(frame.id);
          this.handlers.onError(frame.reason || "the server rejected that");
          break;
        case "ack":
          this.pending.delete(frame.id);
          break;
        case "pong":
          break; // the ping only keeps the connection open
      }
    };
    ws.onclose = (event) => {
      clearInterval(this.pinger);
      if (this.closed) return;
      if (event.code === 4401 || event.code === 4404) {
        // The seat's token is not valid here (or the table is gone): say so, then watch as a spectator.
        this.handlers.onError(event.reason || "this seat's token was refused; watching instead");
        if (event.code === 4401 && this.token) {
          forgetSeat(this.tableId);
          this.token = null;
        } else if (event.code === 4404) {
          this.closed = true;
          this.handlers.onStatus("closed");
          return;
        }
      }
      this.attempt += 1;
      this.handlers.onStatus("reconnecting");
      const delay = Math.min(4000, 250 * 2 ** Math.min(this.attempt, 4));
      this.timer = setTimeout(() => this.connect(), delay);
    };
    ws.onerror = () => {}; // onclose follows and reconnects; nothing to report twice
  }

  send(message) {
    if (this.ws && this.ws.readyState === WebSocket.OPEN) {
      this.ws.send(JSON.stringify(message));
      return true;
    }
    return false;
  }

  act(action) {
    this.counter += 1;
    const id = `${Date.now().toString(36)}-${this.counter}`;
    const sent = this.send({ type: "action", action, version: this.version, id });
    if (!sent) this.handlers.onError("not connected: the action was not sent");
    else this.pending.set(id, action);
    return sent;
  }

  close() {
    this.closed = true;
    clearTimeout(this.timer);
    clearInterval(this.pinger);
    if (this.ws) this.ws.close(1000);
  }
}
