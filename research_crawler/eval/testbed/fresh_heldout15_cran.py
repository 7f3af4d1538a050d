"""HELD OUT, fresh (fifteenth batch): a mirror of the Comprehensive R Archive Network, built as CRAN builds its
pages (see `fresh_heldout15.py`; do not read or tune anything to it). The home page shows CRAN's frames as one page
(the navigation beside the banner, each a page of its own too); every link is relative, as CRAN writes them. The
packages page leads to the table of packages by date of publication (newest first) and to the one by name; task
views name some of the packages in prose (those published before the view's version). A package's page is its
DESCRIPTION: "name: Title", the description, then Version, Imports, "Published: 2024-03-15" (the current version's
day), its DOI, "Author:" with roles ([aut, cre], [aut], a contributor [ctb] who is no author of the work), its
maintainer, citation info, the reference manual and the sources. Check results and the source archive are
forbidden. The journal describes some packages in an article later (one work, two sites).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date
from typing import ClassVar

from research_crawler.eval.testbed.decoys import DecoyKind
from research_crawler.eval.testbed.markup import esc, meta_name
from research_crawler.eval.testbed.models import Item
from research_crawler.eval.testbed.site_app import Request, Response, Route, SiteApp

__all__ = ["VIEW_DATE", "Fresh15CranSite", "Package", "by_date", "by_name", "packages", "roles"]

#: The day the task views were last revised: packages published later are not in them yet.
VIEW_DATE = date(2025, 12, 1)
_VIEW_TOPICS = {
    "Environmetrics": "Analysis of Ecological and Environmental Data",
    "OfficialStatistics": "Official Statistics & Survey Statistics",
}
#: Packages the items depend on, listed and paged like any other: (name, title, author, date).
_FILLERS = (
    ("fastMatrix", "Fast Dense and Sparse Matrix Products", "Henrik Aaltonen", date(2025, 11, 4)),
    ("geoRaster", "Read, Write and Crop Raster Grids", "Pilar Etxeberria", date(2026, 2, 17)),
    ("surveyWeights", "Calibration and Raking of Survey Weights", "Oskar Lindqvist", date(2024, 8, 29)),
    ("mcmcDiag", "Convergence Diagnostics for Markov Chain Monte Carlo Output", "Ines Carvalho", date(2023, 5, 2)),
    ("tabReader", "Read Delimited Tables Quickly", "Walter Brandt", date(2026, 9, 8)),
)
_BANNER = (
    "<h1>The Comprehensive R Archive Network</h1><p>CRAN is a network of ftp and web servers around the world that "
    "store identical, up-to-date, versions of code and documentation for R. Please use the CRAN mirror nearest to you "
    "to minimize network load.</p><h2>Download and Install R</h2><p>Precompiled binary distributions of the base "
    'system and <a href="web/packages/index.html">contributed packages</a>.</p>'
)
_CONTRIBUTORS = ("Yusuf Demirci", "Agnieszka Wrona", "Teodor Vasile", "Maren Sorensen")
_LICENCES = ("GPL-3", "GPL (>= 2)", "MIT + file LICENSE", "GPL-2 | GPL-3")


def _hash(text: str) -> int:
    return sum(ord(c) * (n + 5) for n, c in enumerate(text))


@dataclass(frozen=True)
class Package:
    """A package: a work of the registry (`item`) or one the works depend on."""

    name: str
    title: str
    authors: tuple[str, ...]
    day: date
    view: str | None
    item: Item | None = None

    @property
    def path(self) -> str:
        return f"/web/packages/{self.name}/index.html"

    @property
    def version(self) -> str:
        h = _hash(self.name)
        return f"{h % 3}.{h % 11}.{h % 4}"

    @property
    def contributor(self) -> str | None:
        """A contributor [ctb] who is not an author of the work: on some packages."""
        h = _hash(self.name)
        return _CONTRIBUTORS[h % len(_CONTRIBUTORS)] if h % 3 == 0 else None


def packages(items: list[Item]) -> list[Package]:
    made = [
        Package(i.key, i.title, i.authors, date.fromisoformat(i.date), i.category, i)
        for i in items
        if not i.topic.endswith("-other")
    ]
    made += [
        Package(i.key, i.title, i.authors, date.fromisoformat(i.date), None, i)
        for i in items
        if i.topic.endswith("-other")
    ]
    made += [Package(name, title, (author,), day, None) for name, title, author, day in _FILLERS]
    return made


def by_date(chosen: list[Package]) -> list[Package]:
    """CRAN's table by date of publication: newest first, a day's packages by name."""
    return sorted(chosen, key=lambda p: (-p.day.toordinal(), p.name.lower()))


def by_name(chosen: list[Package]) -> list[Package]:
    return sorted(chosen, key=lambda p: p.name.lower())


def roles(package: Package) -> str:
    """The Author field as CRAN shows it: the maintainer [aut, cre], the other authors [aut], a contributor [ctb]."""
    parts = [f"{esc(a)} [{'aut, cre' if n == 0 else 'aut'}]" for n, a in enumerate(package.authors)]
    if package.contributor is not None:
        parts.append(f"{esc(package.contributor)} [ctb]")
    return ",\n  ".join(parts)


class Fresh15CranSite(SiteApp):
    """CRAN: home with the navigation, packages by date and by name, task views, package pages."""

    decoy_paths: ClassVar[dict[str, DecoyKind]] = {"/mirrors.html": "about", "/faqs.html": "about"}

    def routes(self) -> list[Route]:
        self.packages = packages(self.items)
        self.by_package = {p.name: p for p in self.packages}
        return [
            (re.compile(r"/(index\.html)?"), self._home),
            (re.compile(r"/navbar\.html"), self._navbar),
            (re.compile(r"/banner\.shtml"), self._banner),
            (re.compile(r"/web/packages/(index\.html)?"), self._packages),
            (re.compile(r"/web/packages/available_packages_by_date\.html"), self._by_date),
            (re.compile(r"/web/packages/available_packages_by_name\.html"), self._by_name),
            (re.compile(r"/web/views/(index\.html)?"), self._views),
            (re.compile(r"/web/views/(?P<view>[A-Za-z]+)\.html"), self._view),
            (re.compile(r"/web/packages/(?P<name>[A-Za-z0-9.]+)/index\.html"), self._package),
            (re.compile(r"/web/packages/(?P<name>[A-Za-z0-9.]+)/citation\.html"), self._citation),
            (re.compile(r"/web/packages/(?P<name>[A-Za-z0-9.]+)/(?P=name)\.pdf"), self._manual),
            (re.compile(r"/package=(?P<name>[A-Za-z0-9.]+)"), self._canonical),
        ]

    def robots_txt(self) -> str:
        return "User-agent: *\nDisallow: /web/checks/\nDisallow: /src/contrib/Archive/\nDisallow: /bin/\n"

    def sample_paths(self) -> dict[str, str]:
        item = self.items[0]
        return {
            "home": "/",
            "navbar": "/navbar.html",
            "banner": "/banner.shtml",
            "packages": "/web/packages/index.html",
            "by-date": "/web/packages/available_packages_by_date.html",
            "by-name": "/web/packages/available_packages_by_name.html",
            "views": "/web/views/",
            "view": "/web/views/Environmetrics.html",
            "package": item.path,
            "citation": f"/web/packages/{item.key}/citation.html",
            "manual": item.pdf_path,
        }

    def page(self, *, title: str, content: str, kind: str, status: int = 200, head: str = "") -> Response:
        html = (
            "<!DOCTYPE html>\n<html>\n<head>\n<title>" + esc(title) + '</title>\n<meta http-equiv="Content-Type" '
            'content="text/html; charset=utf-8" />\n'
            f'{head}\n</head>\n<body>\n<div class="container">\n{content}\n</div>\n</body>\n</html>\n'
        )
        return Response.html(html, kind=kind, status=status)

    def _link(self, package: Package, prefix: str = "../") -> str:
        return f'<a href="{prefix}{package.name}/index.html"><span class="CRAN">{esc(package.name)}</span></a>'

    # ------------------------------------------------------------------ navigation

    def _home(self, request: Request) -> Response:
        """CRAN's frames as one page: the logo and navigation beside the banner, each also a page of its own."""
        content = (
            f'<table class="frames"><tr><td class="navbar">{self._navigation()}</td><td class="banner">'
            f"{_BANNER}</td></tr></table>"
        )
        return self.page(title="The Comprehensive R Archive Network", content=content, kind="home")

    def _navigation(self) -> str:
        groups = (
            ("CRAN", (("mirrors.html", "Mirrors"), ("banner.shtml", "What's new?"), ("search.html", "Search"))),
            ("R Sources / R Binaries", (("sources.html", "R Sources"), ("bin/", "R Binaries"))),
            ("Software", (("web/packages/index.html", "Packages"), ("web/views/", "Task Views"))),
            ("Documentation", (("manuals.html", "Manuals"), ("faqs.html", "FAQs"))),
        )
        return '<img src="Rlogo.svg" alt="R logo" />' + "".join(
            f"<h3>{esc(name)}</h3><ul>"
            + "".join(f'<li><a href="{href}" target="banner">{esc(label)}</a></li>' for href, label in links)
            + "</ul>"
            for name, links in groups
        )

    def _navbar(self, request: Request) -> Response:
        return self.page(title="CRAN", content=self._navigation(), kind="navbar")

    def _banner(self, request: Request) -> Response:
        return self.page(title="The Comprehensive R Archive Network", content=_BANNER, kind="banner")

    def _packages(self, request: Request) -> Response:
        content = (
            "<h1>Contributed Packages</h1><h2>Available Packages</h2><p>Currently, the CRAN package repository "
            "features "
            f'{len(self.packages)} available packages.</p><p><a href="available_packages_by_date.html">Table of '
            'available packages, sorted by date of publication</a></p><p><a href="available_packages_by_name.html">'
            "Table of available packages, sorted by name</a></p><h2>Installation of Packages</h2><p>Please type "
            '<code>help("INSTALL")</code> or <code>help("install.packages")</code> in R.</p><h2>Package Check '
            'Results</h2><p>All packages are tested regularly: <a href="../checks/check_summary.html">check '
            'results</a>.</p><h2>Task Views</h2><p>Topic-wise views of packages: <a href="../views/">CRAN Task Views'
            "</a>.</p>"
        )
        return self.page(title="CRAN: Contributed Packages", content=content, kind="packages")

    def _by_date(self, request: Request) -> Response:
        rows = "".join(
            f"<tr><td> {p.day.isoformat()} </td><td> {self._link(p, '../../web/packages/')} </td><td> "
            f"{esc(p.title)} </td></tr>\n"
            for p in by_date(self.packages)
        )
        content = (
            "<h1>Available CRAN Packages By Date of Publication</h1>\n<table>\n<tr><th> Date </th><th> Package </th>"
            f"<th> Title </th></tr>\n{rows}</table>"
        )
        return self.page(title="CRAN: Available Packages By Date of Publication", content=content, kind="by-date")

    def _by_name(self, request: Request) -> Response:
        ordered = by_name(self.packages)
        letters = sorted({p.name[0].upper() for p in ordered})
        index = " ".join(f'<a href="#available-packages-{c}">{c}</a>' for c in letters)
        rows, seen = [], set()
        for p in ordered:
            letter = p.name[0].upper()
            anchor = f' id="available-packages-{letter}"' if letter not in seen else ""
            seen.add(letter)
            rows.append(f"<tr{anchor}><td>{self._link(p, '../../web/packages/')}</td><td>{esc(p.title)}</td></tr>\n")
        content = (
            f'<h1>Available CRAN Packages By Name</h1>\n<p>{index}</p>\n<table summary="Available CRAN packages by '
            f'name.">\n{"".join(rows)}</table>'
        )
        return self.page(title="CRAN: Available Packages By Name", content=content, kind="by-name")

    def _views(self, request: Request) -> Response:
        rows = "".join(
            f'<tr><td><a href="{name}.html">{name}</a></td><td>{esc(topic)}</td></tr>'
            for name, topic in sorted(_VIEW_TOPICS.items())
        )
        content = f"<h1>CRAN Task Views</h1><table>{rows}</table>"
        return self.page(title="CRAN Task Views", content=content, kind="views")

    def _view(self, request: Request, view: str) -> Response:
        if view not in _VIEW_TOPICS:
            return self.not_found()
        listed = by_name([p for p in self.packages if p.view == view and p.day <= VIEW_DATE])
        sentences = []
        for n, p in enumerate(listed):
            opener = ("The package", "Also", "In addition,", "Alternatively,")[n % 4]
            sentences.append(
                f"{opener} {self._link(p, '../packages/')} provides {esc(p.title[:1].lower() + p.title[1:])}."
            )
        fillers = " ".join(self._link(p, "../packages/") for p in by_name(self.packages) if p.item is None)
        content = (
            f"<h1>CRAN Task View: {esc(_VIEW_TOPICS[view])}</h1><table><tr><td>Maintainer:</td><td>Gavin Okafor"
            f"</td></tr><tr><td>Version:</td><td>{VIEW_DATE.isoformat()}</td></tr></table><h2>Overview</h2><p>"
            f"{' '.join(sentences)}</p><h2>Infrastructure</h2><p>Supporting packages: {fillers}.</p>"
        )
        return self.page(title=f"CRAN Task View: {_VIEW_TOPICS[view]}", content=content, kind="view")

    # ------------------------------------------------------------------ one package

    def _package(self, request: Request, name: str) -> Response:
        package = self.by_package.get(name)
        if package is None:
            return self.not_found()
        item = package.item
        imports = ", ".join(f'<a href="../{f[0]}/index.html">{f[0]}</a>' for f in _FILLERS[_hash(name) % 4 :][:2])
        maintainer = package.authors[0]
        email = (
            f"{maintainer.lower().replace(' ', '.')} at {('uni-goettingen.de', 'wur.nl', 'uct.ac.za')[_hash(name) % 3]}"
        )
        description = (
            f"{esc(item.abstract)} Methods are implemented in 'C++' where speed matters."
            if item
            else f"{esc(package.title)}, for other packages to build on."
        )
        doi = f"10.32614/CRAN.package.{name}"
        rows = [
            ("Version:", package.version),
            ("Depends:", "R (&ge; 4.1.0)"),
            ("Imports:", imports + ", stats, methods"),
            ("Published:", package.day.isoformat()),
            ("DOI:", f'<a href="https://doi.org/{doi}">{doi}</a>'),
            ("Author:", roles(package)),
            ("Maintainer:", f"{esc(maintainer)}  &lt;{esc(email)}&gt;"),
            ("License:", esc(_LICENCES[_hash(name) % len(_LICENCES)])),
            ("NeedsCompilation:", "yes" if item else "no"),
            ("Citation:", f'<a href="citation.html">{esc(name)} citation info</a>'),
        ]
        if package.view:
            rows.append(("In&nbsp;views:", f'<a href="../../views/{package.view}.html">{package.view}</a>'))
        rows.append(("CRAN&nbsp;checks:", f'<a href="../../checks/check_results_{name}.html">{name} results</a>'))
        table = "".join(f"<tr>\n<td>{label}</td>\n<td>{value}</td>\n</tr>\n" for label, value in rows)
        head = (
            meta_name("citation_title", f"{package.title} [R package {name} version {package.version}]")
            + "".join(meta_name("citation_author", a) for a in package.authors)
            + meta_name("citation_publication_date", package.day.isoformat())
            + meta_name("citation_public_url", f"https://CRAN.R-project.org/package={name}")
            + meta_name("DC.identifier", doi)
            + meta_name("DC.publisher", "Comprehensive R Archive Network (CRAN)")
        )
        tarball = f"{name}_{package.version}.tar.gz"
        content = (
            f'<h2>{esc(name)}: {esc(package.title)}</h2>\n<p>{description}</p>\n<table summary="Package {name} '
            f'summary">\n{table}</table>\n<h4>Documentation:</h4>\n<table summary="Package {name} documentation">\n'
            f'<tr>\n<td>Reference&nbsp;manual:</td>\n<td> <a href="{name}.pdf"> {name}.pdf </a> </td>\n</tr>\n</table>'
            f'\n<h4>Downloads:</h4>\n<table summary="Package {name} downloads">\n<tr>\n<td> Package&nbsp;source: </td>'
            f'\n<td> <a href="../../../src/contrib/{tarball}"> {tarball} </a> </td>\n</tr>\n<tr>\n<td> Old&nbsp;'
            "sources:"
            f' </td>\n<td> <a href="../../../src/contrib/Archive/{name}/"> {name} archive </a> </td>\n</tr>\n</table>\n'
            f'<h4>Linking:</h4>\n<p>Please use the canonical form <a href="https://CRAN.R-project.org/package={name}">'
            f"<samp>https://CRAN.R-project.org/package={name}</samp></a> to link to this page.</p>"
        )
        return self.page(title=f"CRAN: Package {name}", content=content, kind="package", head=head)

    def _citation(self, request: Request, name: str) -> Response:
        package = self.by_package.get(name)
        if package is None:
            return self.not_found()
        names = ", ".join(f"{a.rsplit(' ', 1)[1]} {a[0]}" for a in package.authors)
        content = (
            f"<h2>Citation</h2><p>To cite package &lsquo;{esc(name)}&rsquo; in publications use:</p><blockquote><p>"
            f"{esc(names)} ({package.day.year}). <em>{esc(name)}: {esc(package.title)}</em>. R package version "
            f'{package.version}, <a href="https://CRAN.R-project.org/package={name}">https://CRAN.R-project.org/'
            f'package={name}</a>.</p></blockquote><p><a href="index.html">{esc(name)} index</a></p>'
        )
        return self.page(title=f"CRAN: {name} citation info", content=content, kind="citation")

    def _manual(self, request: Request, name: str) -> Response:
        package = self.by_package.get(name)
        return self.pdf(package.item) if package is not None and package.item is not None else self.not_found()

    def _canonical(self, request: Request, name: str) -> Response:
        if name not in self.by_package:
            return self.not_found()
        return Response.redirect(f"/web/packages/{name}/index.html", status=302)
