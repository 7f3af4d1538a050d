"""Author lists as pages write them are cut into names, and nothing that is not a name passes for one."""

from __future__ import annotations

import pytest

from research_crawler.pages.person_names import (
    as_the_page_turns_them,
    fuller_byline,
    is_person_name,
    name_key,
    name_parts,
    same_person,
    split_people,
    surname,
)


@pytest.mark.parametrize(
    ("written", "names"),
    [
        (
            "G. M. Day, T. G. Cooper, R. G. Della Valle, B. P. van Eijck and B. Schweizer",
            ["G. M. Day", "T. G. Cooper", "R. G. Della Valle", "B. P. van Eijck", "B. Schweizer"],
        ),
        (
            "Nava Ashraf, Oriana Bandiera, Virginia Minni & Luigi Zingales",
            ["Nava Ashraf", "Oriana Bandiera", "Virginia Minni", "Luigi Zingales"],
        ),
        ("MOGHADDAM, M.;TABATABAEENEJAD, A.;CHEN, R.H.", ["MOGHADDAM, M.", "TABATABAEENEJAD, A.", "CHEN, R.H."]),
        ("Johansson, Emma; Berglund, Sten; van As, Dirk", ["Johansson, Emma", "Berglund, Sten", "van As, Dirk"]),
        ("He, S., Li, Z., Tang, Y.", ["He, S.", "Li, Z.", "Tang, Y."]),
        (
            "Moghaddam, M., A. Tabatabaeenejad, and M.L. Truong-Loi",
            ["Moghaddam, M.", "A. Tabatabaeenejad", "M.L. Truong-Loi"],
        ),
        ("Butt, Rachel Deborah", ["Butt, Rachel Deborah"]),
        ("Barua, Radhika (Author)", ["Barua, Radhika"]),
        ("Trahasch, Stephan ¬[Herausgeber]", ["Trahasch, Stephan"]),
        ("Dudek, Danuce Marcele [UNESP]", ["Dudek, Danuce Marcele"]),
        (
            "by Calvin Liang, Jevan Alexander Hutson, and Os Keyes.",
            ["Calvin Liang", "Jevan Alexander Hutson", "Os Keyes"],
        ),
        ("Koichiro Takao1) and Yasuhisa Ikeda1)", ["Koichiro Takao", "Yasuhisa Ikeda"]),
        (
            "Rachida Ghailane†, Jean Paul Malrieu*‡, and Daniel Maynau‡",
            ["Rachida Ghailane", "Jean Paul Malrieu", "Daniel Maynau"],
        ),
        ("Michael L. Anderson, PhD,", ["Michael L. Anderson"]),
        ("By CHARLOTTE FAIRLIE", ["CHARLOTTE FAIRLIE"]),
        ("Prateesh Goyal, MIT CSAIL; Preey Shah, IIT Bombay", ["Prateesh Goyal", "Preey Shah"]),
        ("Seemita Banerjeea) and Chiranjib Majumder", ["Seemita Banerjee", "Chiranjib Majumder"]),
        ("Ana Lima1,a), Bo Chen2, and Cy Diaz2,b)", ["Ana Lima", "Bo Chen", "Cy Diaz"]),
        ("Ana Lima1,2,a), Bo Chen1, and Cy Diaz2", ["Ana Lima", "Bo Chen", "Cy Diaz"]),
        ("Alexander O. Mitrushenkov a, Paolo Palmieri b", ["Alexander O. Mitrushenkov", "Paolo Palmieri"]),
        ("Ana Vargas a b, Bo Barcelos a, Cy Rocha b c d", ["Ana Vargas", "Bo Barcelos", "Cy Rocha"]),
        ("Mahir Yazar a,b, Abigail York b", ["Mahir Yazar", "Abigail York"]),
        ("---- by Kenneth Surin", ["Kenneth Surin"]),
    ],
)
def test_author_lists_are_cut_into_names_in_order(written: str, names: list[str]) -> None:
    assert split_people(written) == names


@pytest.mark.parametrize(
    "text",
    [
        "Department of Chemistry, University of Florida",
        "Related Content",
        "Universitat Autònoma de Barcelona",
        "Phys. Rev. Lett. 122, 145901",
        "the emission of the CRAB pulsar",
        "Share on Facebook and Twitter",
        "",
    ],
)
def test_what_is_not_an_author_list_gives_no_names(text: str) -> None:
    assert split_people(text) == []


def test_a_name_is_one_to_six_words_and_a_lone_word_is_not() -> None:
    assert is_person_name("Daniel Garrido Terrats") and is_person_name("Lüscher, Max")
    assert not is_person_name("karstenruppert") and not is_person_name("Google Scholar")


@pytest.mark.parametrize(
    ("name", "family"),
    [
        ("B. P. van Eijck", "van Eijck"),
        ("Daniel Garrido Terrats", "Terrats"),
        ("Butt, Rachel", "Butt"),
        ("", ""),
        # the Vancouver style of reference lists: surname first, initials after it, with or without full stops
        ("Petrova R", "Petrova"),
        ("van der Berg JH", "van der Berg"),
        ("Lee J.-H.", "Lee"),
        ("Okafor A.B.", "Okafor"),
        # ... and what is not that style
        ("Lee, J.", "Lee"),
        ("J. Lee", "Lee"),
        ("Jean-Luc Picard", "Picard"),
        ("Jan ter Horst", "ter Horst"),
        ("John Smith Jr.", "Smith"),
        ("Jun LI", "LI"),  # a surname in capitals after a given name
        ("Plato", "Plato"),
    ],
)
def test_surname(name: str, family: str) -> None:
    assert surname(name) == family


def test_a_name_in_the_vancouver_style_is_the_same_person_written_in_full() -> None:
    assert name_parts("Suzuki L") == ("Suzuki", "L")
    assert same_person("Suzuki L", "Suzuki, Lucía") and same_person("Suzuki L", "Lucía Suzuki")
    assert not same_person("Suzuki K", "Lucía Suzuki")  # another given name
    assert name_key("Petrova R") == name_key("Rosa Petrova") == "petrova"


def test_one_name_written_two_ways_has_one_key() -> None:
    assert name_key("Lüscher, Max") == name_key("Max Luscher") == "luscher"


def test_names_a_tag_writes_surname_first_are_turned_as_the_page_shows_them() -> None:
    page = " laura rahman and jan van dijk 2024 "

    def shows(text: str) -> bool:
        return f" {text.casefold()} " in page

    assert as_the_page_turns_them(["Rahman Laura", "van Dijk Jan"], shows) == ["Laura Rahman", "Jan van Dijk"]
    assert as_the_page_turns_them(["Rahman, Laura"], shows) == ["Rahman, Laura"]  # the comma says its order
    assert as_the_page_turns_them(["Rahman Laura", "Okafor Ada"], shows) == ["Rahman Laura", "Okafor Ada"]


def test_a_fuller_byline_is_longer_and_begins_with_the_same_person_however_written() -> None:
    assert fuller_byline(["Lima, Ana", "Bo Wu"], ["Ana Lima"])
    assert fuller_byline(["Lima A", "Wu B", "Cruz C"], ["Ana Lima", "Bo Wu"])  # the Vancouver style of a listing
    assert not fuller_byline(["Bo Wu", "Ana Lima", "C Cruz"], ["Ana Lima"])  # another first author: another reading
    assert not fuller_byline(["Lima, Ana"], ["Ana Lima"])  # not longer
    assert not fuller_byline(["Lima, Bea", "Bo Wu"], ["Ana Lima"])  # another Lima
    assert not fuller_byline(["Ana Lima", "Bo Wu"], [])  # nothing stored: no byline to be fuller than
