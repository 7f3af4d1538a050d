"""HELD OUT, fresh (twentieth batch): SciLAT Austral, built as a SciELO collection of open-access journals is (see
`fresh_heldout20.py`; do not read or tune anything to it). The home page leads to the journals listed
alphabetically (`/journals/alpha`) and by subject (`/journals/thematic`); a journal's page (`/j/rede/`) links its
current issue and its grid of issues (`/j/rede/grid`: a row per year, a volume a year and a number a quarter); an
issue's table of contents (`/j/rede/i/2024.v13n2/`) lists its articles by section, in page order, each with its
authors written "Lima, Ana; Souza, Bruno" and links to the text in Spanish or English and the PDF. An article
(`/j/rede/a/XbVqK8mNpTz4wQrL2sDf7Gh/`) is shown in the journal's language (Spanish or Portuguese; `?lang=` chooses
another): the title, the authors with superscript affiliations, the abstract, keywords, "Recibido: 12 de enero de
2024; Aceptado: 3 de marzo de 2024; Publicado: 15 de marzo de 2024", "Cómo citar" with the issue's month
("jun. 2024"), the working paper it first appeared as, and citation meta tags whose date is the issue's month and
year. The search (a posted form) is forbidden.
"""

from __future__ import annotations

import re
from datetime import date, timedelta
from typing import ClassVar

from research_crawler.eval.testbed.decoys import DecoyKind
from research_crawler.eval.testbed.fresh_heldout20 import JOURNALS, journal_of
from research_crawler.eval.testbed.markup import MONTHS, attr, document, esc, meta_name
from research_crawler.eval.testbed.models import Item
from research_crawler.eval.testbed.site_app import Request, Response, Route, SiteApp

__all__ = ["Fresh20ScieloSite", "history", "issue_of", "pages_of", "spanish_date", "surname_first", "volume_of"]

_MONTHS = {
    "es": (
        "enero",
        "febrero",
        "marzo",
        "abril",
        "mayo",
        "junio",
        "julio",
        "agosto",
        "septiembre",
        "octubre",
        "noviembre",
        "diciembre",
    ),
    "pt": (
        "janeiro",
        "fevereiro",
        "março",
        "abril",
        "maio",
        "junho",
        "julho",
        "agosto",
        "setembro",
        "outubro",
        "novembro",
        "dezembro",
    ),
    "en": MONTHS,
}
_LABELS = {
    "es": ("Resumen", "Palabras clave", "Recibido", "Aceptado", "Publicado", "Cómo citar", "Sección", "Texto"),
    "pt": ("Resumo", "Palavras-chave", "Recebido", "Aceito", "Publicado", "Como citar", "Seção", "Texto"),
    "en": ("Abstract", "Keywords", "Received", "Accepted", "Published", "How to cite", "Section", "Text"),
}
_FIRST_VOLUME = {"rede": 2012, "cdes": 2010}
_CITY = {"rede": "Santiago", "cdes": "Porto Alegre"}
_AFFILIATIONS = (
    "Universidad de Concepción, Facultad de Ciencias Económicas y Administrativas, Concepción, Chile",
    "Universidade Federal do Rio Grande do Sul, Programa de Pós-Graduação em Economia, Porto Alegre, Brasil",
    "Universidad Nacional de Asunción, Facultad de Ciencias Económicas, San Lorenzo, Paraguay",
    "Pontificia Universidad Católica del Perú, Departamento de Economía, Lima, Perú",
    "Universidad de la República, Instituto de Economía, Montevideo, Uruguay",
)


def _hash(text: str) -> int:
    return sum(ord(c) * (n + 41) for n, c in enumerate(text))


def spanish_date(day: date, lang: str = "es") -> str:
    """A date as the article's history writes it ('15 de marzo de 2024'; 'March 15, 2024' in English)."""
    month = _MONTHS[lang][day.month - 1]
    return f"{month} {day.day}, {day.year}" if lang == "en" else f"{day.day} de {month} de {day.year}"


def history(item: Item) -> tuple[date, date, date]:
    """(received, accepted, published) of an article."""
    day = date.fromisoformat(item.date)
    return day - timedelta(days=90 + _hash(item.title) % 120), day - timedelta(days=12 + _hash(item.key) % 30), day


def volume_of(acronym: str, year: int) -> int:
    return year - _FIRST_VOLUME[acronym] + 1


def issue_of(item: Item) -> str:
    """The issue an article appeared in ('2024.v13n2': a number a quarter)."""
    day = date.fromisoformat(item.date)
    acronym = journal_of(item.title)
    return f"{day.year}.v{volume_of(acronym, day.year)}n{(day.month - 1) // 3 + 1}"


def pages_of(item: Item) -> tuple[int, int]:
    first = 7 + _hash(item.title) % 180
    return first, first + 14 + _hash(item.key) % 16


def _cited(name: str) -> str:
    """An author as "Cómo citar" writes them ('LIMA, Ana')."""
    given, _, surname = name.rpartition(" ")
    return f"{surname.upper()}, {given}"


def surname_first(name: str) -> str:
    given, _, surname = name.rpartition(" ")
    return f"{surname}, {given}"


class Fresh20ScieloSite(SiteApp):
    """A SciELO collection: home, journal lists, journal pages, issue grids, tables of contents, articles."""

    decoy_paths: ClassVar[dict[str, DecoyKind]] = {"/about/": "about", "/contact/": "contact"}

    def routes(self) -> list[Route]:
        self.by_pid = {(journal_of(i.title), i.key): i for i in self.items}
        return [
            (re.compile(r"/"), self._home),
            (re.compile(r"/journals/alpha"), self._alpha),
            (re.compile(r"/journals/thematic"), self._thematic),
            (re.compile(r"/j/(?P<acronym>[a-z]{4})/"), self._journal),
            (re.compile(r"/j/(?P<acronym>[a-z]{4})/grid"), self._grid),
            (re.compile(r"/j/(?P<acronym>[a-z]{4})/i/(?P<issue>\d{4}\.v\d+n[1-4])/"), self._toc),
            (re.compile(r"/j/(?P<acronym>[a-z]{4})/a/(?P<pid>[A-Za-z0-9]{23})/"), self._article),
            (re.compile(r"/j/(?P<acronym>[a-z]{4})/a/(?P<pid>[A-Za-z0-9]{23})/pdf"), self._file),
        ]

    def robots_txt(self) -> str:
        return "User-agent: *\nDisallow: /search/\nDisallow: /scielo.php\nDisallow: /*/xml/\nDisallow: /api/\n"

    def sample_paths(self) -> dict[str, str]:
        item = self.items[0]
        acronym = journal_of(item.title)
        return {
            "home": "/",
            "alpha": "/journals/alpha?status=current",
            "thematic": "/journals/thematic",
            "journal": f"/j/{acronym}/",
            "grid": f"/j/{acronym}/grid",
            "toc": f"/j/{acronym}/i/{issue_of(item)}/",
            "article": item.path,
        }

    def page(self, *, title: str, content: str, kind: str, status: int = 200, head: str = "") -> Response:
        return self._page(title=title, content=content, kind=kind, status=status, head=head)

    def _page(
        self, *, title: str, content: str, kind: str, status: int = 200, head: str = "", lang: str = "es"
    ) -> Response:
        site = self.spec.title
        body = (
            f'<header class="collection-header"><a class="brand" href="/">{esc(site)}</a><nav class="languages">'
            '<a href="?lang=es">Español</a> <a href="?lang=pt">Português</a> <a href="?lang=en">English</a></nav>'
            '<form class="search" action="/search/" method="post"><input type="text" name="q" placeholder="Buscar '
            'artículos"><input type="hidden" name="where" value="ARTICLE"><button type="submit">Buscar</button>'
            '</form><nav class="main"><a href="/journals/alpha?status=current">Lista alfabética de revistas</a> '
            '<a href="/journals/thematic">Lista temática</a> <a href="/about/">Sobre</a></nav></header>'
            f'<main class="container">{content}</main><footer><a href="/contact/">Contacto</a> · {esc(site)} · '
            "Todo el contenido de las revistas, excepto donde se indique lo contrario, está bajo una licencia "
            "Creative Commons</footer>"
        )
        html = document(title=f"{title} - {site}" if title != site else site, head=head, body=body, lang=lang)
        return Response.html(html, kind=kind, status=status)

    def _issues(self, acronym: str) -> dict[str, list[Item]]:
        """The journal's issues, newest first, each with its articles in page order."""
        issues: dict[str, list[Item]] = {}
        for item in sorted(self.items, key=lambda i: i.date):
            if journal_of(item.title) == acronym:
                issues.setdefault(issue_of(item), []).append(item)
        ordered = sorted(issues.items(), key=lambda kv: (int(kv[0][:4]), kv[0][-1]), reverse=True)
        return {key: sorted(chosen, key=lambda i: pages_of(i)[0]) for key, chosen in ordered}

    def _home(self, request: Request) -> Response:
        journals = "".join(
            f'<li><a href="/j/{acronym}/">{esc(title)}</a> (ISSN {issn})</li>'
            for acronym, (title, issn, _) in JOURNALS.items()
        )
        content = (
            f'<section class="hero"><h1>{esc(self.spec.title)}</h1><p>{esc(self.spec.tagline)}.</p></section>'
            '<section><h2>Colección</h2><ul><li><a href="/journals/alpha?status=current">Lista alfabética de '
            'revistas</a></li><li><a href="/journals/thematic">Lista temática de revistas</a></li></ul>'
            f"<h2>Revistas</h2><ul>{journals}</ul></section>"
        )
        return self.page(title=self.spec.title, content=content, kind="home")

    def _alpha(self, request: Request) -> Response:
        rows = "".join(
            f'<tr><td><a href="/j/{acronym}/">{esc(title)}</a></td><td>{len(self._issues(acronym))} números</td>'
            f"<td>{issn}</td></tr>"
            for acronym, (title, issn, _) in sorted(JOURNALS.items(), key=lambda kv: kv[1][0])
        )
        content = (
            '<h1>Lista alfabética de revistas</h1><table class="journals"><thead><tr><th>Título</th><th>Números'
            f"</th><th>ISSN</th></tr></thead><tbody>{rows}</tbody></table>"
        )
        return self.page(title="Lista alfabética de revistas", content=content, kind="collection")

    def _thematic(self, request: Request) -> Response:
        rows = "".join(
            f'<li><a href="/j/{acronym}/">{esc(title)}</a></li>' for acronym, (title, _, _) in JOURNALS.items()
        )
        content = (
            "<h1>Lista temática de revistas</h1><h2>Ciencias Sociales Aplicadas</h2><h3>Economía</h3>"
            f"<ul>{rows}</ul><h2>Ciencias de la Salud</h2><p>Sin revistas vigentes.</p>"
        )
        return self.page(title="Lista temática de revistas", content=content, kind="collection")

    def _journal(self, request: Request, acronym: str) -> Response:
        if acronym not in JOURNALS:
            return self.not_found()
        title, issn, _ = JOURNALS[acronym]
        issues = self._issues(acronym)
        current = next(iter(issues))
        content = (
            f'<h1 class="journal-title">{esc(title)}</h1><p>ISSN {issn} versión on-line · {_CITY[acronym]}</p><ul '
            f'class="journal-menu"><li><a href="/j/{acronym}/i/{current}/">Número actual</a></li><li><a href="/j/'
            f'{acronym}/grid">Números anteriores</a></li><li><a href="/about/">Sobre la revista</a></li><li><a href='
            '"https://submission.scilat-austral.example/">Enviar manuscrito</a></li></ul><p>Publicación trimestral '
            "de acceso abierto, arbitrada por pares, que difunde investigación sobre economía y sociedad en América "
            "Latina.</p>"
        )
        return self.page(title=title, content=content, kind="detail")

    def _grid(self, request: Request, acronym: str) -> Response:
        if acronym not in JOURNALS:
            return self.not_found()
        years: dict[str, list[str]] = {}
        for key in self._issues(acronym):
            years.setdefault(key[:4], []).append(key)
        rows = "".join(
            f"<tr><th>{year}</th><td>v.{volume_of(acronym, int(year))}</td><td>"
            + " ".join(f'<a href="/j/{acronym}/i/{key}/">{key.rsplit("n", 1)[1]}</a>' for key in sorted(keys))
            + "</td></tr>"
            for year, keys in years.items()
        )
        content = (
            f'<h1>{esc(JOURNALS[acronym][0])}</h1><h2>Números</h2><table class="issues-grid"><thead><tr><th>Año'
            f"</th><th>Volumen</th><th>Número</th></tr></thead><tbody>{rows}</tbody></table>"
        )
        return self.page(title=f"Números - {JOURNALS[acronym][0]}", content=content, kind="listing")

    def _toc(self, request: Request, acronym: str, issue: str) -> Response:
        chosen = self._issues(acronym).get(issue, []) if acronym in JOURNALS else []
        if not chosen:
            return self.not_found()
        lang = JOURNALS[acronym][2]
        sections: dict[str, list[Item]] = {}
        for item in chosen:
            sections.setdefault(item.category, []).append(item)
        blocks = "".join(
            f'<h3 class="section">{esc(section)}</h3><ul class="articles">'
            + "".join(
                f'<li><a class="title" href="{attr(i.path)}">{esc(i.title)}</a><p class="authors">'
                f'{esc("; ".join(surname_first(a) for a in i.authors))}</p><p class="links">Texto: <a href="'
                f'{attr(i.path)}?lang={lang}">{lang.upper()}</a> <a href="{attr(i.path)}?lang=en">EN</a> · PDF: <a '
                f'href="{attr(i.pdf_path)}">{lang.upper()}</a> · pp. {pages_of(i)[0]}-{pages_of(i)[1]}</p></li>'
                for i in items
            )
            + "</ul>"
            for section, items in sections.items()
        )
        year, number = issue[:4], issue.rsplit("n", 1)[1]
        content = (
            f'<nav class="breadcrumb"><a href="/">Inicio</a> / <a href="/j/{acronym}/">{esc(JOURNALS[acronym][0])}'
            f'</a> / <a href="/j/{acronym}/grid">Números</a></nav><h1>{esc(JOURNALS[acronym][0])}</h1><h2>'
            f'Vol. {volume_of(acronym, int(year))} Núm. {number}, {year}</h2><h3 class="section">Editorial</h3>'
            f"<p>Presentación del número, por el Comité Editorial</p>{blocks}"
        )
        return self.page(title=f"Vol. {volume_of(acronym, int(year))} Núm. {number}", content=content, kind="toc")

    def _article(self, request: Request, acronym: str, pid: str) -> Response:
        item = self.by_pid.get((acronym, pid))
        if item is None:
            return self.not_found()
        lang = request.param("lang") if request.param("lang") in _LABELS else JOURNALS[acronym][2]
        labels = _LABELS[lang]
        journal, issn, _ = JOURNALS[acronym]
        received, accepted, published = history(item)
        issue = issue_of(item)
        number = int(issue[-1])
        issue_month = _MONTHS["es"][number * 3 - 1][:3]
        first, last = pages_of(item)
        places = [_AFFILIATIONS[_hash(a) % len(_AFFILIATIONS)] for a in item.authors]
        unique = list(dict.fromkeys(places))
        authors = ", ".join(
            f"{esc(a)}<sup>{unique.index(p) + 1}</sup>" for a, p in zip(item.authors, places, strict=True)
        )
        affiliations = "".join(f"<li><sup>{n}</sup> {esc(p)}</li>" for n, p in enumerate(unique, 1))
        volume = volume_of(acronym, published.year)
        cite = (
            f"{'; '.join(_cited(a) for a in item.authors)}. {item.title}. {journal}, {_CITY[acronym]}, v. {volume}, "
            f"n. {number}, p. {first}-{last}, {issue_month}. {published.year}. DOI: https://doi.org/{item.doi}."
        )
        copies = [c for c in self.testbed.copies_of(item) if c.site != item.site]
        earlier = "".join(
            f'<p class="note">Una versión previa de este artículo circuló como documento de trabajo: <a href="'
            f'{attr(self.links.on_site(c.site, c.path))}">{esc(c.key)}</a>.</p>'
            for c in copies
        )
        head = (
            meta_name("citation_journal_title", journal)
            + meta_name("citation_issn", issn)
            + meta_name("citation_title", item.title)
            + "".join(meta_name("citation_author", a) for a in item.authors)
            + meta_name("citation_date", f"{number * 3:02d}/{published.year}")
            + meta_name("citation_volume", str(volume_of(acronym, published.year)))
            + meta_name("citation_issue", str(number))
            + meta_name("citation_firstpage", str(first))
            + meta_name("citation_doi", item.doi or "")
            + meta_name("citation_pdf_url", self.links.absolute(item.pdf_path))
            + meta_name("citation_language", lang)
        )
        content = (
            f'<nav class="breadcrumb"><a href="/j/{acronym}/">{esc(journal)}</a> / <a href="/j/{acronym}/i/{issue}/">'
            f'Vol. {volume_of(acronym, published.year)} Núm. {number}</a></nav><article><p class="section">'
            f'{labels[6]}: {esc(item.category)}</p><h1 class="article-title">{esc(item.title)}</h1><p class='
            f'"contrib-group">{authors}</p><ul class="affiliations">{affiliations}</ul><ul class="history"><li>'
            f"{labels[2]}: {spanish_date(received, lang)}</li><li>{labels[3]}: {spanish_date(accepted, lang)}</li>"
            f"<li>{labels[4]}: {spanish_date(published, lang)}</li></ul><h2>{labels[0]}</h2><p>{esc(item.abstract)}"
            f'</p><p><strong>{labels[1]}:</strong> {esc("; ".join(item.keywords))}</p>{earlier}<div class="cite">'
            f'<h2>{labels[5]}</h2><p>{esc(cite)}</p></div><p><a class="pdf" href="{attr(item.pdf_path)}">Descargar '
            "PDF</a></p></article>"
        )
        return self._page(title=item.title, content=content, kind="article", head=head, lang=lang)

    def _file(self, request: Request, acronym: str, pid: str) -> Response:
        item = self.by_pid.get((acronym, pid))
        return self.pdf(item) if item is not None else self.not_found()
