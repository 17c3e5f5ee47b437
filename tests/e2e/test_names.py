"""A name that mixes scripts is shown with a marker in the browser (issue 19, item 11)."""

from __future__ import annotations

from collections.abc import Callable

from .conftest import Server, Watched, wait_until

LOOK_ALIKE = "p\u0430ypal"
"""A Cyrillic "а" among Latin letters."""


def test_a_mixed_script_name_is_marked_at_the_table(server: Server, open_page: Callable[..., Watched]) -> None:
    table_id = server.create("scorecard", ["open", "open"])
    server.join(table_id, 0, LOOK_ALIKE)
    token = server.join(table_id, 1, "bob")
    page = open_page()
    page.sit(table_id, 1, token, name="bob")
    marked = f"{LOOK_ALIKE} [mixed scripts]"
    wait_until(lambda: marked in page.page.inner_text("body"), what="the marked name on the table page")
    assert "bob [mixed scripts]" not in page.page.inner_text("body")
    page.check()
