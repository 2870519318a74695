"""What the referee's app tests do with a check's page: ask it, and read its answer."""

from __future__ import annotations

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
