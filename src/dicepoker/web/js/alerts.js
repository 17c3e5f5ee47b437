// Turn alerts (issue 21 §3): when the turn passes to this player the tab's title and favicon say so (restored
// once it is not), a short tone plays unless muted, and a system notification is shown while the tab is hidden.
// The table page calls useTurnAlerts and renders <TurnAlertControls>; everything else about alerts lives here.
import { html, useEffect, useRef, useState } from "../vendor/htm-preact.js";

export const TITLE_MARK = "● Your turn · ";
const TURN_ICON = "favicon-turn.svg";
const MUTE_KEY = "dicepoker.sound";

// The sound setting is per browser (localStorage): "off" mutes; anything else (nothing stored) plays.
export function soundMuted() {
  try {
    return localStorage.getItem(MUTE_KEY) === "off";
  } catch {
    return false; // storage blocked (private mode): play, as the default says
  }
}

function storeMuted(muted) {
  try {
    localStorage.setItem(MUTE_KEY, muted ? "off" : "on");
  } catch {
    // storage blocked: the toggle still works for this page
  }
}

function iconLink() {
  let link = document.querySelector("link[rel~='icon']");
  if (!link) {
    link = document.createElement("link");
    link.rel = "icon";
    link.type = "image/svg+xml";
    document.head.appendChild(link);
  }
  return link;
}

function markTab(on) {
  const plain = document.title.startsWith(TITLE_MARK) ? document.title.slice(TITLE_MARK.length) : document.title;
  document.title = on ? TITLE_MARK + plain : plain;
  const link = iconLink();
  // The page's own icon is remembered once, so that restoring never depends on which icon is showing.
  if (!link.dataset.plain) link.dataset.plain = link.getAttribute("href") || "favicon.svg";
  link.setAttribute("href", on ? TURN_ICON : link.dataset.plain);
}

// One audio context per page, made on first use (browsers allow a context created after a user gesture to
// sound; one made earlier may stay suspended, in which case the tone is simply not heard).
let audio = null;

// Two short rising tones made with the Web Audio API: nothing is downloaded.
export function playTurnTone() {
  const Context = window.AudioContext || window.webkitAudioContext;
  if (!Context) return false;
  try {
    audio = audio || new Context();
    if (audio.state === "suspended" && audio.resume) audio.resume().catch(() => {});
    const start = audio.currentTime;
    [660, 880].forEach((frequency, i) => {
      const osc = audio.createOscillator();
      const gain = audio.createGain();
      osc.type = "sine";
      osc.frequency.value = frequency;
      const at = start + i * 0.16;
      gain.gain.setValueAtTime(0.0001, at);
      gain.gain.exponentialRampToValueAtTime(0.2, at + 0.02);
      gain.gain.exponentialRampToValueAtTime(0.0001, at + 0.14);
      osc.connect(gain).connect(audio.destination);
      osc.start(at);
      osc.stop(at + 0.15);
    });
    return true;
  } catch {
    return false; // no audio device: the title and icon still tell
  }
}

function notificationsOffered() {
  return typeof window.Notification === "function";
}

function notify(label, tag) {
  if (!notificationsOffered() || Notification.permission !== "granted" || !document.hidden) return;
  try {
    const shown = new Notification("Your turn", { body: label, tag, renotify: true });
    if (shown) shown.onclick = () => { window.focus(); shown.close && shown.close(); };
  } catch {
    // some platforms only notify through a service worker: the title and icon still tell
  }
}

// While myTurn: the title carries TITLE_MARK and the favicon a red dot. When the turn *comes* (it was not
// ours, now it is): the tone (unless muted) and, if the tab is hidden, a notification. myTurn is null while
// the page does not know yet (no state received): the first state only marks the tab, since opening a table
// where it is already your turn is no news. `title` is the page's plain title: when it changes the mark is put
// back on it. Call it after the page sets document.title.
export function useTurnAlerts({ myTurn, title, label, tag }) {
  const was = useRef(null);
  useEffect(() => {
    markTab(Boolean(myTurn));
  }, [myTurn, title]);
  useEffect(() => {
    if (myTurn === null) return;
    if (myTurn && was.current === false) {
      if (!soundMuted()) playTurnTone();
      notify(label || "It is your turn at the table.", tag);
    }
    was.current = myTurn;
  }, [myTurn]);
  useEffect(() => () => markTab(false), []);
}

// A speaker with sound waves, or crossed out: inline SVG (an emoji may render as an empty box without a font).
function SpeakerIcon({ muted }) {
  return html`<svg class="speaker" viewBox="0 0 24 24" width="18" height="18" aria-hidden="true" focusable="false"
      fill="none" stroke="currentColor" stroke-width="2" stroke-linecap="round" stroke-linejoin="round">
    <path d="M4 9h4l5-4v14l-5-4H4z" fill="currentColor" />
    ${muted ? html`<path d="M17 9l5 6M22 9l-5 6" />`
      : html`<path d="M16.5 8.5a5 5 0 0 1 0 7" /><path d="M19.5 5.5a9 9 0 0 1 0 13" />`}
  </svg>`;
}

// The sound toggle and, where the browser offers notifications and none was decided yet, the button that
// asks for permission (only on this click: never on load).
export function TurnAlertControls() {
  const [muted, setMuted] = useState(soundMuted());
  const [permission, setPermission] = useState(notificationsOffered() ? Notification.permission : "unsupported");
  const toggle = () => {
    const next = !muted;
    storeMuted(next);
    setMuted(next);
    if (!next) playTurnTone(); // a sample, and a user gesture that lets the audio context start
  };
  const ask = async () => {
    try {
      const answer = await Notification.requestPermission();
      setPermission(answer || Notification.permission);
    } catch {
      setPermission(Notification.permission);
    }
  };
  return html`<div class="turn-alerts actions">
    <button class="ghost" onClick=${toggle} aria-pressed=${muted ? "false" : "true"} data-testid="sound-toggle"
      title="A short tone when it becomes your turn"><${SpeakerIcon} muted=${muted} /> Sound</button>
    ${permission === "default" ? html`<button class="ghost" onClick=${ask} data-testid="notify-ask"
      title="A system notification when it becomes your turn while this tab is hidden">Notify me</button>` : null}
  </div>`;
}
