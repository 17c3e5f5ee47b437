// The page shell and its hash router: #/ lobby, #/guide/GAME (how to play), #/rules/GAME, #/table/ID,
// #/replay/ID, #/replay (upload).
import { html, render, useEffect, useState } from "../vendor/htm-preact.js";
import { Lobby } from "./lobby.js";
import { RulesPage } from "./rules.js";
import { GuidePage } from "./guide.js";
import { TablePage } from "./table.js";
import { ReplayPage } from "./replay.js";
import { ThemeToggle } from "./theme.js";
import { OfflineBanner, startShell, useConnection } from "./offline.js";

function parseRoute() {
  const hash = location.hash.replace(/^#\/?/, "");
  const [path, query = ""] = hash.split("?");
  const parts = path.split("/").filter(Boolean).map(decodeURIComponent);
  return { parts, query: new URLSearchParams(query) };
}

function Page({ route }) {
  const [head, arg] = route.parts;
  if (head === "rules" && arg) return html`<${RulesPage} game=${arg} />`;
  if (head === "guide" && arg) return html`<${GuidePage} key=${arg} game=${arg} />`;
  if (head === "table" && arg) return html`<${TablePage} key=${arg} id=${arg} watch=${route.query.has("watch")} />`;
  if (head === "replay") return html`<${ReplayPage} key=${arg || "upload"} id=${arg || null} />`;
  return html`<${Lobby} />`;
}

function App() {
  const [route, setRoute] = useState(parseRoute());
  useEffect(() => {
    const onHash = () => {
      setRoute(parseRoute());
      window.scrollTo(0, 0);
    };
    window.addEventListener("hashchange", onHash);
    return () => window.removeEventListener("hashchange", onHash);
  }, []);
  const here = route.parts[0] || "";
  // A new epoch: the server is back and the page loads its data again. A table page is left alone: its
  // WebSocket reconnects by itself and keeps the player's unsent choices (held dice).
  const { epoch } = useConnection();
  const pageKey = here === "table" ? "table" : epoch;
  return html`
    <a class="skip" href="#main" onClick=${(e) => { e.preventDefault(); document.getElementById("main").focus(); }}>
      Skip to content</a>
    <header class="topbar">
      <a class="brand" href="#/" aria-label="dicepoker lobby">
        <svg viewBox="0 0 100 100" width="28" height="28" aria-hidden="true"><rect x="6" y="6" width="88" height="88"
          rx="20" fill="#fbfbf7"/><g fill="#0f5132"><circle cx="30" cy="30" r="9"/><circle cx="70" cy="30" r="9"/>
          <circle cx="50" cy="50" r="9"/><circle cx="30" cy="70" r="9"/><circle cx="70" cy="70" r="9"/></g></svg>
        <span>dicepoker</span></a>
      <div class="topbar-side">
      <nav aria-label="main">
        <a href="#/" aria-current=${here === "" ? "page" : null}>Lobby</a>
        <a href="#/replay" aria-current=${here === "replay" ? "page" : null}>Replays</a>
      </nav>
      <${ThemeToggle} /></div>
    </header>
    <${OfflineBanner} />
    <main id="main" class="page" tabindex="-1"><${Page} key=${pageKey} route=${route} /></main>
    <footer class="footer">dicepoker · dice drawn on the server with provably fair seeds ·${" "}
      <a href="#/rules/all">all rules</a></footer>`;
}

const root = document.getElementById("app");
root.textContent = "";
render(html`<${App} />`, root);
startShell();
