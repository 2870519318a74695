"""Rules at hand: each variant's rules on one page, in sections other pages link to."""

from __future__ import annotations

from functools import lru_cache

from flask import Blueprint, abort, redirect, render_template, url_for
from werkzeug.wrappers import Response

import engine
from engine.rulebook import rulebook, section

from .urls import rule_url

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


@lru_cache(maxsize=256)
def ruling_name(variant: str, citation: str) -> str | None:
    """The name a player reads for a ruling's code: the title of the first section of the
    variant's rules that gives it ("R10" -> "Wild Draw 4"), else of another variant's (a
    ruling shared by the variants); None for anything else."""
    books = [variant, *(v.name for v in engine.VARIANTS if v.name != variant)]
    return next((s.title for book in books for s in rulebook(book) if citation in s.rulings),
                None)


bp.add_app_template_global(rule_url)
bp.add_app_template_global(ruling_name)
