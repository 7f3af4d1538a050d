"""Bylines as the eighteenth batch of the page corpus showed them (recipe pages of blogs, magazines and shops): a
recipe card's buttons and a box of related recipes set as a list under the title are no writers, a link to the
reader's own favourites is nobody's name, microformats' "fn" on a recipe's heading names the recipe (hRecipe), not
its writer, and a post's "Posted By: ~Sani~" signs it with the name between its decorations.

Each page below is written for the test in the shape of a kind of real page; none is a copy of one.
"""

from __future__ import annotations

from research_crawler.pages.metadata import read_item_metadata
from research_crawler.pages.person_names import is_person_name, split_people

TEXT = "<p>" + "A sentence of the recipe's story that goes on for a while to make a paragraph of it. " * 4 + "</p>"


def _page(body: str, *, title: str = "") -> str:
    return f"<!doctype html><html><head><title>{title}</title></head><body>{body}</body></html>"


def test_a_recipe_cards_buttons_in_a_list_of_its_facts_are_no_writers() -> None:
    body = (
        "<main><h1>Mashed Potatoes with Chicken</h1><ul><li>25 min</li><li>5 servings</li>"
        '<li><a href="#login">Favoritar Receita</a></li><li><a href="/print/mashed">Imprimir Receita</a></li></ul>'
        f"<h2>Ingredients</h2>{TEXT}</main>"
    )
    assert read_item_metadata(_page(body), url="https://www.example-recipes.com/r/mashed/").authors == []


def test_a_box_of_related_recipes_under_the_title_names_no_writer() -> None:
    body = (
        "<main><h1>Coconut Rice Salmon Bowl</h1><p>Print Recipe</p><p>Related Recipes</p>"
        '<ul><li><a href="/r/1/">Salmon Sushi Bowl</a></li><li><a href="/r/2/">Green Curry Salmon</a></li>'
        f'<li><a href="/r/3/">Salmon Bites with Wasabi Mayo</a></li></ul>{TEXT}</main>'
    )
    assert read_item_metadata(_page(body), url="https://www.example-kitchen.com/salmon-bowl/").authors == []


def test_a_list_of_names_and_a_post_list_that_says_by_are_still_bylines() -> None:
    names = "<ul><li>Jane Roe</li><li>John Doe</li></ul>"
    page = _page(f"<main><h1>A study of bowls</h1>{names}{TEXT}</main>")
    assert read_item_metadata(page, url="https://www.example.org/a/").authors == ["Jane Roe", "John Doe"]
    meta = '<ul><li>By <a href="/u/jr">Jane Roe</a></li><li>March 3, 2024</li><li>Recipes</li></ul>'
    page = _page(f"<main><h1>A study of bowls</h1>{meta}{TEXT}</main>")
    assert read_item_metadata(page, url="https://www.example.org/a/").authors == ["Jane Roe"]


def test_a_link_to_the_readers_own_favourites_is_nobodys_name() -> None:
    assert not is_person_name("My Favorites") and split_people("Your Account") == []
    assert is_person_name("Myles Roe") and split_people("Ma Jian") == ["Ma Jian"]
    body = (
        '<main><h1>Strawberry Buckle</h1><p><a href="#">Jump to Recipe</a></p><p><a href="#">Save</a></p>'
        f'<p><a href="/favorites/">My Favorites</a></p>{TEXT}</main>'
    )
    assert read_item_metadata(_page(body), url="https://www.example-cups.com/buckle/").authors == []


def test_hrecipes_fn_on_the_heading_names_the_recipe_not_a_writer() -> None:
    body = f'<article class="hrecipe"><h1 class="entry-title fn">Rhubarb Crumble</h1>{TEXT}</article>'
    assert read_item_metadata(_page(body), url="https://www.example-stuff.com/rhubarb/").authors == []
    card = f'<article><h1>Rhubarb Crumble</h1><p class="vcard"><span class="fn">Jane Roe</span></p>{TEXT}</article>'
    assert read_item_metadata(_page(card), url="https://www.example-stuff.com/rhubarb/").authors == ["Jane Roe"]


def test_a_posted_by_line_signs_the_recipe_with_the_name_between_its_decorations() -> None:
    body = f"<main><h1>Gol Gappay</h1>{TEXT}<p>Posted By: ~Sani~, Karachi</p><p>Comments</p></main>"
    assert read_item_metadata(_page(body), url="https://www.example-food.pk/gol-gappay/").authors == ["Sani"]


def test_a_name_glued_to_the_writers_role_at_a_company_is_the_writer() -> None:
    body = (
        "<main><p>February 26, 2026</p><h1>Building interfaces with two tools</h1>"
        '<div><span>Yarden Katz</span><span>Product Manager, Example</span></div><ul><li><a href="/c/1">Inside '
        f'Example</a></li><li><a href="/c/2">Product updates</a></li></ul>{TEXT}</main>'
    )
    assert read_item_metadata(_page(body), url="https://www.example.com/blog/interfaces/").authors == ["Yarden Katz"]
