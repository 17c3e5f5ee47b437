// Reachability of the server, the "offline" banner, and the service worker's registration (issue 26).
// The shell may open from the service worker's cache with the server down: the page then says so plainly,
// asks /healthz every few seconds, and when the server answers again it hides the banner and bumps an
// "epoch" that app.js uses as the page's key, so the current page loads its data afresh by itself.
import { html, useEffect, useState } from "../vendor/htm-preact.js";

const RETRY_MS = 2000;
let reachable = true;
let epoch = 0;
let timer = null;
const listeners = new Set();

function notify() {
  for (const listener of listeners) listener({ online: reachable, epoch });
}

async function probe() {
  timer = null;
  let ok = false;
  try {
    ok = (await fetch("/healthz", { cache: "no-store" })).ok;
  } catch {
    // unreachable
  }
  reportReachable(ok);
  if (!ok && timer === null) timer = setTimeout(probe, RETRY_MS);
}

/** api.js calls this after each request: false when the server could not be reached at all. */
export function reportReachable(ok) {
  if (ok === reachable) return;
  reachable = ok;
  if (ok) {
    epoch += 1;
    if (timer !== null) clearTimeout(timer);
    timer = null;
  } else if (timer === null) {
    timer = setTimeout(probe, RETRY_MS);
  }
  notify();
}

export function useConnection() {
  const [state, setState] = useState({ online: reachable, epoch });
  useEffect(() => {
    listeners.add(setState);
    setState({ online: reachable, epoch }); // a change between the first render and this effect is not lost
    return () => listeners.delete(setState);
  }, []);
  return state;
}

export function OfflineBanner() {
  const { online } = useConnection();
  return html`<div role="status" aria-live="polite">${online ? null : html`<p class="offline-banner"
    data-testid="offline">Offline: the server cannot be reached. The page reconnects by itself when it can.</p>`}</div>`;
}

/** Register the service worker (a secure context only: https, or localhost) and check the server once. */
export function startShell() {
  if ("serviceWorker" in navigator && window.isSecureContext) {
    const updating = !!navigator.serviceWorker.controller; // a worker already serves this page: a change is a release
    navigator.serviceWorker.addEventListener("controllerchange", () => {
      // A new release took over: open its shell now. Not in the middle of a game: the table plays on with
      // the page it has, and the next page load gets the new shell.
      if (updating && !location.hash.startsWith("#/table/")) location.reload();
    });
    navigator.serviceWorker.register("/sw.js", { scope: "/" }).catch(() => {}); // the page works without it
  }
  window.addEventListener("offline", () => reportReachable(false));
  window.addEventListener("online", () => {
    if (timer !== null) clearTimeout(timer);
    probe();
  });
  probe();
}
