"""Addresses that are the same on every request: built once, then looked up.

``url_for`` takes about 10 µs, and an answer links a dozen rule sections besides the
page's five assets: together a sizeable part of the page. The address of a static
file or of a variant's rules page never changes while the app runs, save for the root
the app is served under, which is part of the key.
"""

from __future__ import annotations

from typing import Any

from flask import has_request_context, request, url_for

import engine
from engine.rulebook import section

#: Addresses built, by (root, endpoint, arguments); kept small, as the root comes from
#: the request and the arguments may name any game.
_BUILT: dict[tuple[str, str, tuple[tuple[str, Any], ...]], str] = {}
_MOST = 1024


def fixed_url(endpoint: str, **values: Any) -> str:
    """``url_for(endpoint, **values)`` for an address that depends on nothing else; built
    anew where a value is a list (a repeated query field)."""
    if not has_request_context() or any(isinstance(v, list) for v in values.values()):
        return url_for(endpoint, **values)
    key = (request.script_root, endpoint, tuple(sorted(values.items())))
    url = _BUILT.get(key)
    if url is None:
        url = url_for(endpoint, **values)
        if len(_BUILT) >= _MOST:
            _BUILT.clear()  # (rarely: a thousand games' links, or roots made up by requests)
        _BUILT[key] = url
    return url


def rule_url(variant: type[engine.Game] | str, anchor: str) -> str:
    """The address of one section of a variant's rules: ``/rules/<variant>#<anchor>``.

    Raises ValueError for an unknown variant, and UnknownSectionError (a ValueError)
    for an anchor its rules do not have, so a link can never point nowhere. Needs an
    app context (as ``url_for`` does); templates have it as ``rule_url`` too.
    """
    found = engine.find_variant(variant) if isinstance(variant, str) else variant
    section(found, anchor)
    return f"{rules_page_url(found.name)}#{anchor}"


def rules_page_url(variant_name: str) -> str:
    """The address of a variant's rules page (``variant_name`` as the engine names it)."""
    return fixed_url("rules.variant_rules", variant=variant_name)
