"""The account routes over HTTP (issue 20): cookies, CSRF, the guard's 429s, no enumeration, no password in
the logs. The app runs in-process (TestClient) with a fake clock and the memory storage."""

from __future__ import annotations

import logging
from collections.abc import Iterator

import pytest
from argon2 import PasswordHasher
from fastapi.testclient import TestClient

from dicepoker.server.accounts.passwords import Passwords
from dicepoker.server.accounts.sessions import COOKIE
from dicepoker.server.settings import Settings
from dicepoker.server.transport.app import create_app
from tests.server.conftest import FakeClock

PASSWORD = "violet kettle marching"
SAME_ORIGIN = {"Origin": "http://testserver"}


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


def _app(clock: FakeClock, **settings: object) -> TestClient:
    app = create_app(Settings(now=clock, scheduler=False, warm_tables=False, **settings))  # type: ignore[arg-type]
    app.state.accounts.passwords = Passwords(PasswordHasher(time_cost=1, memory_cost=8, parallelism=1))
    return TestClient(app)


@pytest.fixture
def client(clock: FakeClock) -> Iterator[TestClient]:
    with _app(clock) as client:
        yield client


def _sign_up(client: TestClient, name: str = "Ada") -> str:
    response = client.post("/api/account", json={"name": name, "password": PASSWORD}, headers=SAME_ORIGIN)
    assert response.status_code == 201, response.text
    return str(response.cookies[COOKIE])


def test_sign_up_sets_a_locked_down_cookie_and_me_answers(client: TestClient) -> None:
    response = client.post("/api/account", json={"name": "Ada", "password": PASSWORD})
    assert response.status_code == 201
    cookie = response.headers["set-cookie"]
    assert "HttpOnly" in cookie and "SameSite=lax" in cookie and "Path=/" in cookie and "Secure" not in cookie
    me = client.get("/api/me")
    assert me.status_code == 200
    assert me.json()["name"] == "Ada" and set(me.json()) >= {"id", "name", "created", "csrf_token"}
    assert PASSWORD not in response.text + me.text


def test_cookies_are_secure_behind_https(clock: FakeClock) -> None:
    with _app(clock, behind_https=True) as client:
        response = client.post("/api/account", json={"name": "Ada", "password": PASSWORD})
        assert response.status_code == 201 and "Secure" in response.headers["set-cookie"]


def test_me_is_401_when_signed_out_and_after_sign_out(client: TestClient) -> None:
    assert client.get("/api/me").status_code == 401
    _sign_up(client)
    assert client.delete("/api/session", headers=SAME_ORIGIN).json() == {"signed_out": 1}
    assert client.get("/api/me").status_code == 401


def test_the_session_id_changes_at_sign_in(client: TestClient) -> None:
    first = _sign_up(client)
    response = client.post("/api/session", json={"name": "ada", "password": PASSWORD}, headers=SAME_ORIGIN)
    assert response.status_code == 200
    assert response.cookies[COOKIE] != first
    stale = TestClient(client.app, cookies={COOKIE: first})
    assert stale.get("/api/me").status_code == 401  # the session it replaced ended
    client.cookies.clear()
    fixed = TestClient(client.app, cookies={COOKIE: "chosen-by-an-attacker"})
    response = fixed.post("/api/session", json={"name": "Ada", "password": PASSWORD})
    assert response.cookies[COOKIE] != "chosen-by-an-attacker"


def test_a_stolen_cookie_stops_working_after_sign_out_everywhere(client: TestClient) -> None:
    _sign_up(client)
    thief = TestClient(client.app)
    stolen = TestClient(client.app).post("/api/session", json={"name": "Ada", "password": PASSWORD}).cookies[COOKIE]
    thief.cookies.set(COOKIE, stolen)
    assert thief.get("/api/me").status_code == 200
    response = client.delete("/api/session", params={"everywhere": "true"}, headers=SAME_ORIGIN)
    assert response.status_code == 200 and response.json()["signed_out"] == 2
    assert thief.get("/api/me").status_code == 401


def test_cross_site_requests_are_refused(client: TestClient) -> None:
    _sign_up(client)
    form = {"old_password": PASSWORD, "new_password": "hijacked password"}
    evil = {"Origin": "https://evil.example", "Content-Type": "application/x-www-form-urlencoded"}
    assert client.post("/api/me/password", data=form, headers=evil).status_code == 403
    assert client.delete("/api/me", headers={"Origin": "https://evil.example"}).status_code == 403
    assert client.delete("/api/session", headers={"Origin": "null"}).status_code == 403
    assert client.delete("/api/me", headers={"Sec-Fetch-Site": "cross-site"}).status_code == 403
    refused = client.post("/api/session", json={"name": "Ada", "password": PASSWORD}, headers=evil)
    assert refused.status_code == 403  # no login CSRF either
    assert client.get("/api/me").status_code == 200  # nothing changed


def test_without_origin_a_cookie_request_needs_the_csrf_header(client: TestClient) -> None:
    _sign_up(client)
    token = client.get("/api/me").json()["csrf_token"]
    body = {"old_password": PASSWORD, "new_password": "a new long secret"}
    refused = client.post("/api/me/password", json=body)
    assert refused.status_code == 403 and "X-CSRF-Token" in refused.json()["detail"]
    assert client.post("/api/me/password", json=body, headers={"X-CSRF-Token": "0" * 64}).status_code == 403
    assert client.post("/api/me/password", json=body, headers={"X-CSRF-Token": token}).status_code == 200


def test_allowed_origins_may_change_state(clock: FakeClock) -> None:
    with _app(clock, allowed_origins=("https://play.example",)) as client:
        _sign_up(client)
        assert client.delete("/api/session", headers={"Origin": "https://play.example"}).status_code == 200


def test_password_change_needs_the_old_one_and_signs_out_elsewhere(client: TestClient) -> None:
    first = _sign_up(client)
    other = TestClient(client.app)
    assert other.post("/api/session", json={"name": "Ada", "password": PASSWORD}).status_code == 200
    wrong = {"old_password": "not my password", "new_password": "a new long secret"}
    assert client.post("/api/me/password", json=wrong, headers=SAME_ORIGIN).status_code == 403
    right = {"old_password": PASSWORD, "new_password": "a new long secret"}
    response = client.post("/api/me/password", json=right, headers=SAME_ORIGIN)
    assert response.status_code == 200 and response.cookies[COOKIE] != first
    assert client.get("/api/me").status_code == 200
    assert other.get("/api/me").status_code == 401
    weak = {"old_password": "a new long secret", "new_password": "password"}
    assert client.post("/api/me/password", json=weak, headers=SAME_ORIGIN).status_code == 422


def test_deleting_the_account_signs_out_everywhere(client: TestClient) -> None:
    _sign_up(client)
    other = TestClient(client.app)
    assert other.post("/api/session", json={"name": "Ada", "password": PASSWORD}).status_code == 200
    assert client.delete("/api/me", headers=SAME_ORIGIN).json() == {"deleted": True}
    assert client.get("/api/me").status_code == 401 and other.get("/api/me").status_code == 401
    assert client.post("/api/session", json={"name": "Ada", "password": PASSWORD}).status_code == 401


def test_sign_up_refuses_bad_input_with_reasons(client: TestClient) -> None:
    def sign_up(name: object, password: object) -> tuple[int, str]:
        response = client.post("/api/account", json={"name": name, "password": password})
        return response.status_code, response.json()["detail"]

    assert sign_up("ab", PASSWORD) == (422, "name must be 3 to 20 characters")
    assert sign_up("guest", PASSWORD) == (422, "name is reserved")
    assert sign_up("Ada", "sunshine") == (422, "password is too common: choose another")
    assert sign_up("Ada", 12345678)[0] == 422
    _sign_up(client)
    client.cookies.clear()
    assert sign_up("ADA", "another long secret") == (409, "name is taken")
    assert client.post("/api/account", json={"name": "Bob", "password": PASSWORD, "admin": True}).status_code == 422


def test_twenty_wrong_passwords_slow_down_and_lock_then_the_owner_gets_in(clock: FakeClock) -> None:
    """As documented: 4 free failures, waits of 2..64 s, then 15-minute locks; the owner's right password
    from another client works once the lock ends."""
    with _app(clock) as owner:
        _sign_up(owner)
        owner.cookies.clear()
        attacker = TestClient(owner.app, client=("203.0.113.7", 4000))
        heard, waits = 0, []
        while heard < 20:  # 20 wrong passwords, each sent as soon as the server will hear it
            response = attacker.post("/api/session", json={"name": "Ada", "password": "wrong password!"})
            if response.status_code == 429:
                waits.append(int(response.headers["retry-after"]))
                clock.advance(waits[-1])
            else:
                assert response.status_code == 401
                heard += 1
        assert waits == [2, 4, 8, 16, 32, 64] + [900] * 10
        locked = owner.post("/api/session", json={"name": "Ada", "password": PASSWORD})
        assert locked.status_code == 429  # the name is locked for everyone: no guess gets in meanwhile
        clock.advance(int(locked.headers["retry-after"]))
        assert owner.post("/api/session", json={"name": "Ada", "password": PASSWORD}).status_code == 200


def test_unknown_name_and_wrong_password_get_the_same_answer(client: TestClient) -> None:
    """No enumeration: same status, same body, same hashing work (counted; no wall-clock assert)."""
    _sign_up(client)
    client.cookies.clear()
    passwords: Passwords = client.app.state.accounts.passwords  # type: ignore[attr-defined]
    answers = []
    for name in ["Ada", "Nobody"] * 2:
        before = passwords.hash_calls
        response = client.post("/api/session", json={"name": name, "password": "wrong password!"})
        answers.append((response.status_code, response.text, passwords.hash_calls - before))
    assert answers[0] == (401, '{"detail":"wrong name or password"}', 1)
    assert len(set(answers)) == 1


def test_a_password_never_appears_in_the_logs(client: TestClient, caplog: pytest.LogCaptureFixture) -> None:
    secrets = [PASSWORD, "wrong password!", "a new long secret", "sunshine"]
    with caplog.at_level(logging.DEBUG):
        _sign_up(client)
        client.post("/api/session", json={"name": "Ada", "password": secrets[1]})
        client.post("/api/session", json={"name": "Nobody", "password": secrets[1]})
        body = {"old_password": PASSWORD, "new_password": secrets[2]}
        client.post("/api/me/password", json=body, headers=SAME_ORIGIN)
        client.post("/api/account", json={"name": "Bob", "password": secrets[3]})
        client.post("/api/account", json={"name": "Bob", "password": 123}, headers=SAME_ORIGIN)
    logged = caplog.text + "".join(str(r.__dict__) for r in caplog.records)
    assert "sign-in failed" in logged  # the events are logged, the passwords are not
    assert not [s for s in secrets if s in logged]


def test_a_session_made_by_one_process_works_on_another(clock: FakeClock, sql_settings: dict[str, str]) -> None:
    """Two server processes on one database (SQLite file or PostgreSQL): an account made on one signs in on
    the other; signing out everywhere on the other ends the first one's session too."""
    database = {"db_url": sql_settings["url"], "db_schema": sql_settings.get("schema")}
    with _app(clock, **database) as first, _app(clock, **database) as second:
        _sign_up(first)
        assert second.post("/api/session", json={"name": "Ada", "password": PASSWORD}).status_code == 200
        assert second.get("/api/me").json()["name"] == first.get("/api/me").json()["name"] == "Ada"
        assert second.delete("/api/session?everywhere=true", headers=SAME_ORIGIN).json() == {"signed_out": 2}
        assert first.get("/api/me").status_code == 401
