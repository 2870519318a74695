"""Addresses built once (companion.urls): the same as url_for's, under any root."""

from __future__ import annotations

import pytest
from flask import render_template_string, url_for

from companion.urls import fixed_url, rule_url


@pytest.mark.parametrize("root", ["", "/uno", "/other/place"])
def test_a_fixed_address_is_url_for_under_the_root_served(app, root):
    for _ in range(2):  # built, then looked up
        with app.test_request_context("/", base_url=f"http://localhost{root}/"):
            assert fixed_url("rules.variant_rules", variant="classic") == (
                url_for("rules.variant_rules", variant="classic"))
            assert fixed_url("rules.variant_rules", variant="classic").startswith(f"{root}/rules/")
            assert rule_url("one", "challenges") == f"{root}/rules/one#challenges"
            css = render_template_string("{{ asset('app.css') }}")
            assert css.startswith(f"{root}/static/app.") and css.endswith(".css")


def test_outside_a_request_it_is_url_for(app):
    app.config["SERVER_NAME"] = "table.example"  # url_for needs it without a request
    with app.app_context():
        built = fixed_url("rules.variant_rules", variant="one")
        assert built == url_for("rules.variant_rules", variant="one")
        assert built == "http://table.example/rules/one"


def test_a_repeated_field_is_built_each_time(app):
    with app.test_request_context("/"):
        built = fixed_url("referee.index", variant="classic", house=["jump_in", "seven_o"])
        assert built == url_for("referee.index", variant="classic", house=["jump_in", "seven_o"])
        assert built.count("house=") == 2


def test_the_table_of_addresses_stays_small(app, monkeypatch):
    from companion import urls

    monkeypatch.setattr(urls, "_MOST", 3)
    monkeypatch.setattr(urls, "_BUILT", {})
    with app.test_request_context("/"):
        for game in range(1, 8):
            assert fixed_url("games.scoreboard", game_id=game) == f"/games/{game}"
            assert len(urls._BUILT) <= 3
