"""Rules at hand: the rules pages, rule_url's links, and the scoreboard's house-rules box."""

from __future__ import annotations

import itertools

import pytest

from companion import rules
from companion.urls import rule_url
from engine import VARIANTS, TableOptions, find_variant
from engine.rulebook import Section, UnknownSectionError, rulebook

ALL = [v.name for v in VARIANTS]


def test_the_index_links_every_variant(client, table):
    response = client.get("/rules")
    assert response.status_code == 200 and response.mimetype == "text/html"
    links = [href for href, _ in table.links(response) if href.startswith("/rules/")]
    assert links == [f"/rules/{name}" for name in ALL]
    text = table.text(response)
    assert "UNO Pocket Pizza Pizza is for 2 to 5 players." in text
    assert [h.get_text() for h in table.page(response).select("h1")] == ["Rules at hand"]


@pytest.mark.parametrize("variant", ALL)
def test_each_variant_has_a_page_with_every_section(client, table, variant):
    response = client.get(f"/rules/{variant}")
    assert response.status_code == 200 and response.mimetype == "text/html"
    page = table.page(response)
    sections = rulebook(variant)
    assert [s["id"] for s in page.select("section.rule")] == [s.anchor for s in sections]
    # The table of contents, at the top, links each section in order.
    toc = page.select_one("nav.rules-toc")
    assert toc is page.select_one("main").find(["nav", "section"])
    assert [str(a["href"]) for a in toc.select("a")] == [f"#{s.anchor}" for s in sections]
    assert [a.get_text() for a in toc.select("a")] == [s.title for s in sections]
    for s in sections:
        shown = table.text(page.select_one(f"section#{s.anchor}"))
        assert s.title in shown and " ".join(s.text) in shown
        assert all(item in shown for item in s.items)
        # The rule sheet's sections by name; no ruling code where a player reads (issue 21).
        assert not s.sources or f"Source: {'; '.join(s.sources)}" in shown
        assert not any(code in shown.split() for code in s.rulings)


@pytest.mark.parametrize("variant", ALL)
def test_headings_go_in_order_and_ids_are_unique(client, table, variant):
    page = table.page(client.get(f"/rules/{variant}"))
    levels = [int(h.name[1]) for h in page.select("h1, h2, h3, h4, h5, h6")]
    assert levels[0] == 1 and levels.count(1) == 1
    assert all(b - a <= 1 for a, b in itertools.pairwise(levels))
    ids = [str(e["id"]) for e in page.select("[id]")]
    assert len(ids) == len(set(ids))
    assert page.select_one("h1").get_text() == f"Rules of {find_variant(variant).title}"


@pytest.mark.parametrize("variant", ALL)
def test_the_pages_are_plain_html(client, table, variant):
    page = table.page(client.get(f"/rules/{variant}"))
    # Nothing to submit and nothing for htmx to do: the page works without JavaScript.
    assert not page.select("form, [hx-get], [hx-post], [hx-trigger]")
    # Every "Back to contents" link lands on the table of contents.
    assert {str(a["href"]) for a in page.select("a.to-top")} == {"#contents"}
    assert page.select_one("#contents")


@pytest.mark.parametrize("path", ["/rules/chess", "/rules/", "/rules/classic/more",
                                  "/rules/%3Cscript%3Ealert(1)%3C%2Fscript%3E"])
def test_an_unknown_variant_is_a_404_page(client, table, path):
    response = client.get(path)
    assert response.status_code == 404 and response.mimetype == "text/html"
    assert "<script>alert" not in table.html(response)


def test_the_404_page_says_what_happened(client, table):
    assert "There are no rules for that variant" in table.text(client.get("/rules/chess"))


@pytest.mark.parametrize("alias, name", [("uno", "classic"), ("Pizza", "pizza-pizza"),
                                         ("STAR-WARS", "star-wars")])
def test_another_name_for_a_variant_goes_to_its_page(client, alias, name):
    response = client.get(f"/rules/{alias}")
    assert response.status_code == 301 and response.headers["Location"] == f"/rules/{name}"


def test_rule_url_builds_a_link_to_a_section(app):
    with app.test_request_context():
        assert rule_url("classic", "wild-draw-4") == "/rules/classic#wild-draw-4"
        assert rule_url(find_variant("pizza-pizza"), "challenges") == \
            "/rules/pizza-pizza#challenges"
        assert rule_url("jackpot", "jackpot-lever") == "/rules/wild-jackpot#jackpot-lever"


def test_rule_url_refuses_what_does_not_exist(app):
    with app.test_request_context():
        with pytest.raises(UnknownSectionError):
            rule_url("classic", "wild-draw-5")
        with pytest.raises(ValueError, match="no section 'wild-droid'"):
            rule_url("classic", "wild-droid")  # a star-wars card
        with pytest.raises(ValueError, match="unknown variant"):
            rule_url("chess", "setup")


def test_every_link_rule_url_makes_lands_on_its_section(app, client, table):
    for variant in VARIANTS:
        with app.test_request_context():
            urls = [rule_url(variant, s.anchor) for s in rulebook(variant)]
        page = table.page(client.get(f"/rules/{variant.name}"))
        for url in urls:
            path, _, anchor = url.partition("#")
            assert path == f"/rules/{variant.name}" and page.select_one(f"section#{anchor}")


def test_templates_have_rule_url(app):
    assert app.jinja_env.globals["rule_url"] is rule_url


def test_the_scoreboard_shows_the_tables_house_rules(table):
    game_id = table.create_game(["Ann", "Bob"], blank_cards="2", blank_value="30")
    board = table.scoreboard(game_id)
    box = table.page(board).select_one("details#house-rules")
    assert box.select_one("summary").get_text() == "House rules at this table"
    lines = [li.get_text() for li in box.select("li")]
    options = TableOptions(blank_cards=2, blank_value=30, uno_penalty=4)
    assert lines == options.describe(find_variant("classic"))
    assert "2 blank cards carry the table's own rules" in table.text(box)
    assert "one caught in a hand scores 30." in table.text(box)
    assert [(str(a["href"]), a.get_text()) for a in box.select("a")] == \
        [("/rules/classic", "All the rules of UNO (classic)")]


@pytest.mark.parametrize("variant, says", [
    ("pizza-pizza", "A player caught not calling UNO at one card draws 2 cards."),
    ("one", "Nobody needs to call UNO."),
    ("wild-jackpot", "Each player writes an equal share of the 8 rule cards."),
])
def test_each_variants_scoreboard_box_speaks_for_its_variant(table, variant, says):
    game_id = table.create_game(["Ann", "Bob"], variant=variant)
    box = table.page(table.scoreboard(game_id)).select_one("details#house-rules")
    assert says in [li.get_text() for li in box.select("li")]
    assert "blank" not in table.text(box)  # classic's table cards only
    link = box.select_one("a")
    assert link["href"] == f"/rules/{variant}"
    assert link.get_text() == f"All the rules of {find_variant(variant).title}"


def test_the_box_is_closed_until_opened(table, game_id):
    box = table.page(table.scoreboard(game_id)).select_one("details#house-rules")
    assert not box.has_attr("open")


def test_rule_text_is_escaped(client, table, monkeypatch):
    markup = Section("setup", "<i>Setup</i>", ("Say <b>UNO</b> & \"win\".",),
                     items=("<script>alert(1)</script>",), rulings=("R1",))
    monkeypatch.setattr(rules, "rulebook", lambda variant: (markup,))
    monkeypatch.setattr(rules, "section", lambda variant, anchor: markup)
    for path in ("/rules/classic", "/rules"):
        response = client.get(path)
        source = table.html(response)
        assert "<script>alert" not in source and "<b>UNO" not in source and "<i>Setup" not in source
        assert "&lt;b&gt;UNO&lt;/b&gt; &amp; &#34;win&#34;" in source
    assert "Say <b>UNO</b> & \"win\"." in table.text(client.get("/rules/classic"))


def test_quotes_and_apostrophes_read_as_written(client, table):
    text = table.text(client.get("/rules/star-wars"))
    assert "Wild Let's Build a Droid" in text and 'say "UNO!".' in text


@pytest.mark.parametrize("variant", ALL)
def test_the_referee_is_one_tap_from_every_rules_page_in_its_variant(client, table, variant):
    links = {text: href for href, text in table.links(client.get(f"/rules/{variant}"))}
    title = find_variant(variant).title
    href = links[f"Settle a dispute in {title}"]
    assert href == f"/referee?variant={variant}"
    checks = table.page(client.get(href))
    # The referee's page is for that variant's table.
    assert checks.select_one("select[name=variant] option[selected]")["value"] == variant


def test_the_referee_is_one_tap_from_the_home_page_and_the_rules_index(client, table):
    for page in ("/", "/rules"):
        assert ("/referee", "Settle a dispute") in table.links(client.get(page)), page
