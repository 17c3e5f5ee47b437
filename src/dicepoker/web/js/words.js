// Wording for people at the table: a result's reason without its rule clause (the clause stays in a tooltip,
// and replays show the reason whole), and the page for a table link that leads nowhere.
import { html } from "../vendor/htm-preact.js";

const CLAUSE = /\s*\(([A-Z]{2}-\d+)\)\s*$/;

// "highest total (SC-13)" -> { text: "Highest total", clause: "SC-13" }.
export function plainReason(reason) {
  const found = CLAUSE.exec(reason || "");
  const text = found ? reason.slice(0, found.index) : reason || "";
  return { text: text ? text[0].toUpperCase() + text.slice(1) : "", clause: found ? found[1] : null };
}

export function ReasonLine({ reason }) {
  const { text, clause } = plainReason(reason);
  if (!text) return null;
  return html`<p class="muted" data-testid="result-reason" data-clause=${clause || ""}
    title=${clause ? `Rule ${clause}` : null}>${text}</p>`;
}

// A link to a table this server does not have (mistyped, or from another server): say so, and offer the way back.
export function NoSuchTable({ id }) {
  return html`<section class="panel no-such-table" data-testid="no-such-table" aria-labelledby="missing-title">
    <h1 id="missing-title">No such table</h1>
    <p>There is no table <code>${id}</code> on this server: the link may be mistyped, or the table was on another
      server.</p>
    <div class="actions"><a class="button primary" href="#/">Back to the lobby</a></div>
  </section>`;
}
