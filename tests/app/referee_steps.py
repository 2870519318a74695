"""What the referee's app tests do with a check's page: ask it, and read its answer."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

JSON = {"Accept": "application/json"}
HTMX = {"HX-Request": "true"}


def ask(table: Any, slug: str, data: dict[str, Any], headers: dict[str, str] | None = None) -> Any:
    """Post a check's form as the page sends it (with the session's CSRF token)."""
    return table.post(f"/referee/{slug}", data, headers=headers or {})


def outcome(table: Any, response: Any) -> str:
    """The answer's one-line outcome, as the page shows it."""
    return _part(table, response, "#outcome")


def refusal(table: Any, response: Any) -> str:
    """What the page says when the referee cannot judge."""
    return _part(table, response, "#refusal")


def _part(table: Any, response: Any, selector: str) -> str:
    found = table.page(response).select_one(selector)
    assert found is not None, table.text(response)[:2000]
    return str(table.text(found))


def answers_as_the_referee_does(table: Any, variant: str, slug: str, data: dict[str, Any],
                                call: Callable[[], Any]) -> None:
    """A check's form, asked at a table of ``variant``, answers what ``call`` (the same
    question put to engine.referee) does: the page its outcome, the JSON all of it."""
    expected = call()
    form = {"variant": variant, **data}
    page = ask(table, slug, form)
    assert page.status_code == 200, table.text(page)[:2000]
    assert outcome(table, page) == expected.outcome
    answer = ask(table, slug, form, JSON)
    assert answer.status_code == 200
    assert answer.get_json() == json.loads(json.dumps(expected.to_dict()))
