"""Issue 21 §3, turn alerts in the browser: when the turn comes the tab's title and favicon change (and are
restored while it is not the player's turn), a Web Audio tone plays unless muted (the mute is remembered by the
browser across reloads), and a system notification is shown while the tab is hidden; permission is asked only
when the player clicks "Notify me", never on load.

``AudioContext``, ``Notification`` and ``document.hidden`` are stubbed by an init script, so that the test can
count tones, permission requests and notifications. The tests' own server moves its bot slowly (1 s per action)
so that the turn is visibly someone else's between two of ours."""

from __future__ import annotations

from collections.abc import Callable, Iterator

import httpx
import pytest

from .conftest import Server, Watched, wait_until

STUBS = """
window.__tones = 0; window.__asked = 0; window.__shown = []; window.__hidden = false;
class FakeNode { connect(next) { return next || this; } start() {} stop() {} }
class FakeAudioContext {
  constructor() { this.state = "running"; this.currentTime = 0; this.destination = new FakeNode(); }
  createOscillator() { window.__tones += 0.5; const o = new FakeNode(); o.frequency = {}; return o; }
  createGain() { const g = new FakeNode(); g.gain = { setValueAtTime() {}, exponentialRampToValueAtTime() {} };
    return g; }
}
window.AudioContext = FakeAudioContext;
class FakeNotification {
  constructor(title, options) { window.__shown.push([title, options && options.body]); }
  close() {}
  static requestPermission() { window.__asked += 1; FakeNotification.permission = "granted";
    return Promise.resolve("granted"); }
}
FakeNotification.permission = "default";
window.Notification = FakeNotification;
Object.defineProperty(Document.prototype, "hidden", { configurable: true, get() { return window.__hidden; } });
"""
MARK = "● Your turn · "


@pytest.fixture(scope="module")
def slow_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    running = Server(tmp_path_factory.mktemp("alerts") / "tables.db", bot_delay=1.0).start()
    yield running
    running.stop()


def _icon(page: Watched) -> str:
    return page.page.get_attribute("link[rel~='icon']", "href") or ""


def _mine(page: Watched) -> bool:
    return page.attr("data-my-turn") == "yes"


def _play_my_turn(page: Watched) -> None:
    """Roll once and score the first box offered: the turn passes to the bot."""
    before = int(page.attr("data-version"))
    page.page.click("[data-testid=roll]")  # a click waits for the button (a key may come before the tray is drawn)
    wait_until(lambda: int(page.attr("data-version")) > before, 60, "the roll")
    page.page.click("[data-testid^=score-]")
    wait_until(lambda: not _mine(page), 60, "the bot's turn")


def _tones(page: Watched) -> float:
    return float(page.page.evaluate("window.__tones"))


def test_title_favicon_sound_and_notification_when_the_turn_comes(
    slow_server: Server, open_page: Callable[..., Watched]
) -> None:
    page: Watched = open_page(base=slow_server.url)
    page.context.add_init_script(STUBS)
    table = slow_server.create("scorecard", ["open", "bot:greedy"], clock=120)
    page.sit(table, 0, slow_server.join(table, 0, "Ann"))
    p = page.page
    wait_until(lambda: _mine(page), 60, "Ann's first turn")
    wait_until(lambda: p.title().startswith(MARK), 10, "the title's mark")
    assert p.title().startswith(MARK + "dicepoker · ")
    assert _icon(page) == "favicon-turn.svg"
    assert _tones(page) == 0, "opening a table where it is already your turn is no news: no tone"
    # Permission is never asked on load: only the click asks.
    assert p.evaluate("window.__asked") == 0
    p.click("[data-testid=notify-ask]")
    wait_until(lambda: p.evaluate("window.__asked") == 1, 10, "the permission request")
    wait_until(lambda: p.locator("[data-testid=notify-ask]").count() == 0, 10, "the button to go once answered")
    # The tab is hidden while the bot plays; the turn comes back: tone, notification, mark.
    p.evaluate("window.__hidden = true")
    _play_my_turn(page)
    wait_until(lambda: not p.title().startswith(MARK), 10, "the title restored")
    assert _icon(page) == "favicon.svg"
    assert p.evaluate("window.__shown.length") == 0
    wait_until(lambda: _mine(page), 60, "the turn to come back")
    wait_until(lambda: p.title().startswith(MARK) and _icon(page) == "favicon-turn.svg", 10, "the mark again")
    assert _tones(page) == 1
    shown = p.evaluate("window.__shown")
    assert len(shown) == 1 and shown[0][0] == "Your turn" and table in shown[0][1]
    # A visible tab gets no notification (the title, icon and tone are enough).
    p.evaluate("window.__hidden = false")
    _play_my_turn(page)
    wait_until(lambda: _mine(page), 60, "the turn to come back again")
    # The tone is played by an effect after the turn is drawn: wait for it as for the mark above.
    wait_until(lambda: _tones(page) >= 2, 10, "the second tone")
    assert _tones(page) == 2 and p.evaluate("window.__shown.length") == 1
    page.check()


def test_the_mute_toggle_persists_across_reloads_and_silences_the_tone(
    slow_server: Server, open_page: Callable[..., Watched]
) -> None:
    page: Watched = open_page(base=slow_server.url)
    page.context.add_init_script(STUBS)
    table = slow_server.create("scorecard", ["open", "bot:greedy"], clock=120)
    page.sit(table, 0, slow_server.join(table, 0, "Ann"))
    p = page.page
    toggle = "[data-testid=sound-toggle]"
    wait_until(lambda: _mine(page), 60, "Ann's first turn")
    assert p.get_attribute(toggle, "aria-pressed") == "true"  # sound on by default
    p.click(toggle)
    assert p.get_attribute(toggle, "aria-pressed") == "false"
    p.reload()
    p.wait_for_selector(toggle)
    assert p.get_attribute(toggle, "aria-pressed") == "false", "the mute is remembered by this browser"
    assert p.evaluate("localStorage.getItem('dicepoker.sound')") == "off"
    wait_until(lambda: _mine(page), 60, "Ann's turn after the reload")
    _play_my_turn(page)
    wait_until(lambda: _mine(page), 60, "the turn to come back")
    wait_until(lambda: p.title().startswith(MARK), 10, "the title's mark")
    assert _tones(page) == 0, "muted: no tone"
    # Unmuting plays a sample tone (a user gesture that also lets a real audio context start).
    p.click(toggle)
    assert p.get_attribute(toggle, "aria-pressed") == "true" and _tones(page) == 1
    page.check()


def test_the_turn_icon_is_served(slow_server: Server) -> None:
    answer = httpx.get(f"{slow_server.url}/favicon-turn.svg")
    assert answer.status_code == 200 and answer.text.startswith("<svg")
