"""Rules at hand: each variant's rules on one page, in sections other pages link to."""

from __future__ import annotations

from flask import Blueprint, abort, redirect, render_template, url_for
from werkzeug.wrappers import Response

import engine
from engine.rulebook import rulebook, section

from .urls import fixed_url

bp = Blueprint("rules", __name__)


@bp.get("/rules")
def index() -> str:
    """The variants, each with a line about it, linking to its rules."""
    variants = [(v, section(v, "setup").text[0]) for v in engine.VARIANTS]
    return render_template("rules_index.html", variants=variants)


@bp.get("/rules/<variant>")
def variant_rules(variant: str) -> str | Response:
    """One variant's rules: a table of contents, then every section under its anchor."""
    try:
        found = engine.find_variant(variant)
    except ValueError:
        abort(404, description="There are no rules for that variant. The list of rules "
                               "has every variant the companion knows.")
    if variant != found.name:
        # An alias or another spelling: each page has one address, so links agree.
        return redirect(url_for("rules.variant_rules", variant=found.name), 301)
    return render_template("rules.html", variant=found, sections=rulebook(found))


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


bp.add_app_template_global(rule_url)
