"""HELD OUT, fresh (twenty-second batch): Scree Preprints, an earth-science preprint service hosted on an OSF-like
platform (see `fresh_heldout22.py`; do not read or tune anything to it). `/` sends the visitor to the provider's
landing page (`/preprints/scree`). Every page of the service is the same application shell, a header, an empty
`<div id="app">`, a `<noscript>` note and the platform's script (`/static/app.js`), which draws the page from the
JSON:API on this origin: the landing page lists the provider's subjects with counts
(`/api/v2/providers/preprints/scree/subjects/`), "discover" (`/preprints/scree/discover?subject=<id>`) lists a
subject's preprints ten at a time, newest first, and a "Load more" button follows the document's `links.next`
(`…/preprints/?filter[subjects]=<id>&sort=-date_created&page=2`); a preprint (`/preprints/scree/<guid>`, from
`/api/v2/preprints/<guid>/?embed=contributors`) is drawn with its title, its bibliographic contributors (the others,
lab staff added to manage the files, are in the data but not shown), "Created: March 12, 2024 | Last edited: …", the
abstract, its preprint DOI, and, for a preprint since published, the peer-reviewed publication's DOI and a "Public
Data" link to the lab's companion page of the paper (Tarn Lab Handbook: one work, two sites). The server writes
`citation_*` tags into a preprint's shell (authors "Surname, Given", the date "2024/03/12"). A sitemap named in
robots.txt lists every preprint; robots.txt forbids the platform's search API, sign-in, registration and the file
renderer.
"""

from __future__ import annotations

import hashlib
import re
from datetime import date, datetime, time, timedelta
from typing import Any, ClassVar
from urllib.parse import urlencode

from lxml import etree

from research_crawler.eval.testbed.decoys import DecoyKind
from research_crawler.eval.testbed.markup import asset, document, meta_name
from research_crawler.eval.testbed.models import Item
from research_crawler.eval.testbed.site_app import Request, Response, Route, SiteApp

__all__ = [
    "API_PAGE",
    "PROVIDER",
    "STEWARDS",
    "Fresh22OsfSite",
    "citation_author",
    "contributors",
    "created_at",
    "edited",
    "newest_first",
    "preprint_doi",
    "subject_id",
]

PROVIDER = "scree"
API_PAGE = 10
_SITEMAP = "http://www.sitemaps.org/schemas/sitemap/0.9"
_API = "/api/v2"
#: Lab staff added to some preprints as non-bibliographic contributors (they manage files; they are not authors).
STEWARDS = ("Hanna Lindgren", "Tomas Okwu", "Beatriz Salas")
#: The provider's taxonomy: every preprint is filed under the parent and its own subject.
_PARENT = "Earth Sciences"
_TODAY = date(2026, 11, 20)


def _digest(text: str) -> int:
    return int(hashlib.sha1(text.encode()).hexdigest()[:12], 16)


def subject_id(name: str) -> str:
    """A subject's identifier on the platform (24 hexadecimal digits)."""
    return hashlib.sha1(f"subject:{name}".encode()).hexdigest()[:24]


def preprint_doi(item: Item) -> str:
    """The DOI the service registers for a preprint ('10.31223/X5K7D2X')."""
    return f"10.31223/X5{item.key.upper()}"


def newest_first(items: list[Item]) -> list[Item]:
    return sorted(items, key=lambda i: (i.date, i.key), reverse=True)


def created_at(item: Item) -> str:
    """The moment the preprint was created, as the API writes it ('2024-03-12T14:03:22.117634')."""
    seconds = _digest(item.key) % 50_000 + 25_000
    moment = datetime.combine(date.fromisoformat(item.date), time()) + timedelta(seconds=seconds)
    return moment.isoformat() + f".{_digest(item.title) % 1_000_000:06d}"


def citation_author(name: str) -> str:
    """'Surname, Given', as the service writes its citation tags."""
    given, _, surname = name.rpartition(" ")
    return f"{surname}, {given}"


def contributors(item: Item) -> list[tuple[str, bool]]:
    """(full name, bibliographic) of every contributor, in order: the authors, then, for one preprint in three, a
    member of the lab's staff who manages the files."""
    people = [(a, True) for a in item.authors]
    if _digest(item.key) % 3 == 0:
        people.append((STEWARDS[_digest(item.title) % len(STEWARDS)], False))
    return people


def edited(item: Item) -> date:
    """The day the preprint's page was last edited: days to months after it was created, never after the day this
    copy of the site was made."""
    return min(date.fromisoformat(item.date) + timedelta(days=3 + _digest(item.key) % 200), _TODAY)


def _user_guid(name: str) -> str:
    digest = hashlib.sha1(f"user:{name}".encode()).hexdigest()
    return "".join("23456789abcdefghjkmnpqrstuvwxyz"[int(digest[n : n + 2], 16) % 31] for n in range(0, 10, 2))


class Fresh22OsfSite(SiteApp):
    """An OSF-like preprint provider: application shells drawn from a JSON:API, citation tags, a sitemap."""

    decoy_paths: ClassVar[dict[str, DecoyKind]] = {
        "/support": "help",
        "/terms_of_use": "terms",
        "/privacy_policy": "privacy",
    }

    def routes(self) -> list[Route]:
        self.by_guid = {i.key: i for i in self.items}
        self.subjects = sorted({i.category for i in self.items})
        base = f"/preprints/{PROVIDER}"
        return [
            (re.compile(r"/"), self._root),
            (re.compile(rf"{base}/?"), self._landing),
            (re.compile(rf"{base}/discover"), self._discover),
            (re.compile(rf"{base}/(?P<guid>[2-9a-z]{{5}})"), self._preprint),
            (re.compile(rf"{base}/(?P<guid>[2-9a-z]{{5}})/download"), self._download),
            (re.compile(r"/static/app\.js"), self._script),
            (re.compile(rf"{_API}/providers/preprints/{PROVIDER}/?"), self._api_provider),
            (re.compile(rf"{_API}/providers/preprints/{PROVIDER}/subjects/?"), self._api_subjects),
            (re.compile(rf"{_API}/providers/preprints/{PROVIDER}/preprints/?"), self._api_list),
            (re.compile(rf"{_API}/preprints/(?P<guid>[2-9a-z]{{5}})/?"), self._api_preprint),
            (re.compile(r"/sitemap\.xml"), self._sitemap_index),
            (re.compile(r"/sitemaps/preprints_0\.xml"), self._sitemap),
        ]

    def robots_txt(self) -> str:
        return (
            "User-agent: *\nDisallow: /api/v2/search/\nDisallow: /login\nDisallow: /register\nDisallow: /render\n"
            "Disallow: /*/files/\n\n"
            f"Sitemap: {self.links.absolute('/sitemap.xml')}\n"
        )

    def sample_paths(self) -> dict[str, str]:
        item = newest_first(self.items)[0]
        subject = subject_id(item.category)
        api = f"{_API}/providers/preprints/{PROVIDER}"
        return {
            "landing": f"/preprints/{PROVIDER}",
            "discover": f"/preprints/{PROVIDER}/discover?subject={subject}",
            "preprint": item.path,
            "script": "/static/app.js",
            "api-subjects": f"{api}/subjects/",
            "api-preprints": f"{api}/preprints/?filter[subjects]={subject}&sort=-date_created",
            "api-preprint": f"{_API}/preprints/{item.key}/?embed=contributors",
            "sitemap": "/sitemap.xml",
        }

    # ------------------------------------------------------------------ pages

    def _chrome(self, main: str) -> str:
        return (
            '<nav class="navbar navbar-inverse osf-navbar"><a class="navbar-brand" href="/preprints/scree">'
            'Scree Preprints</a><ul class="nav"><li><a href="/preprints/scree/discover">Search</a></li><li><a href='
            '"/support">Support</a></li><li><a href="/register">Sign Up</a></li><li><a href="/login">Sign In</a></li>'
            f'</ul></nav>{main}<footer class="footer"><p>Scree Preprints is a community preprint service for the '
            'Earth surface sciences, hosted on an open research platform. <a href="/terms_of_use">Terms of Use</a> · '
            '<a href="/privacy_policy">Privacy Policy</a> · <a href="/support">Support</a></p></footer>'
        )

    def page(self, *, title: str, content: str, kind: str, status: int = 200, head: str = "") -> Response:
        html = document(title=f"{title} | Scree Preprints", head=head, body=self._chrome(f"<main>{content}</main>"))
        return Response.html(html, kind=kind, status=status)

    def _shell(self, *, title: str, kind: str, head: str = "", links: tuple[str, ...] = ()) -> Response:
        main = (
            f'<div id="app" data-provider="{PROVIDER}"></div><noscript><p>Scree Preprints requires JavaScript. '
            "Please enable JavaScript in your browser to view this page.</p></noscript>"
            '<script src="/static/app.js"></script>'
        )
        html = document(title=title, head=head, body=self._chrome(main))
        return Response.html(html, kind=kind, script_links=links)

    def _root(self, request: Request) -> Response:
        return Response.redirect(f"/preprints/{PROVIDER}", status=302)

    def _landing(self, request: Request) -> Response:
        links = tuple(f"/preprints/{PROVIDER}/discover?subject={subject_id(s)}" for s in self.subjects)
        return self._shell(title="Scree Preprints", kind="home", links=links)

    def _discover(self, request: Request) -> Response:
        chosen = self._of_subject(request.param("filter[subjects]") or request.param("subject"))
        return self._shell(title="Search | Scree Preprints", kind="listing", links=tuple(i.path for i in chosen))

    def _preprint(self, request: Request, guid: str) -> Response:
        item = self.by_guid.get(guid)
        if item is None:
            return self.not_found()
        day = date.fromisoformat(item.date)
        head = (
            meta_name("citation_title", item.title)
            + "".join(meta_name("citation_author", citation_author(a)) for a in item.authors)
            + meta_name("citation_publication_date", f"{day:%Y/%m/%d}")
            + meta_name("citation_doi", preprint_doi(item))
            + meta_name("citation_publisher", "Scree Preprints")
            + meta_name("citation_pdf_url", self.links.absolute(item.pdf_path))
            + meta_name("description", item.abstract[:300])
        )
        links = [item.pdf_path]
        links += [self.links.on_site(c.site, c.path) for c in self.testbed.copies_of(item) if c.site != item.site]
        return self._shell(title=f"{item.title} | Scree Preprints", kind="article", head=head, links=tuple(links))

    def _download(self, request: Request, guid: str) -> Response:
        item = self.by_guid.get(guid)
        return self.pdf(item) if item is not None else self.not_found()

    def _script(self, request: Request) -> Response:
        return Response.text(asset("fresh22_osf_app.js"), kind="script", content_type="text/javascript")

    # ------------------------------------------------------------------ the JSON:API

    def _of_subject(self, subject: str) -> list[Item]:
        named = {subject_id(s): s for s in self.subjects}
        if subject and subject not in named:
            return []
        return newest_first([i for i in self.items if not subject or i.category == named[subject]])

    def _resource(self, item: Item) -> dict[str, Any]:
        copy = next((c for c in self.testbed.copies_of(item) if c.site != item.site), None)
        people = [
            {
                "id": f"{item.key}-{_user_guid(name)}",
                "type": "contributors",
                "attributes": {"bibliographic": shown, "permission": "admin" if n == 0 else "write", "index": n},
                "embeds": {
                    "users": {
                        "data": {
                            "id": _user_guid(name),
                            "type": "users",
                            "attributes": {"full_name": name, "given_name": name.rsplit(" ", 1)[0],
                                           "family_name": name.rsplit(" ", 1)[1]},
                            "links": {"html": f"/{_user_guid(name)}/"},
                        }
                    }
                },
            }
            for n, (name, shown) in enumerate(contributors(item))
        ]  # fmt: skip
        modified = edited(item)
        return {
            "id": item.key,
            "type": "preprints",
            "attributes": {
                "title": item.title,
                "description": item.abstract,
                "date_created": created_at(item),
                "date_published": created_at(item),
                "date_modified": f"{modified.isoformat()}T09:12:44.081233",
                "original_publication_date": None,
                "doi": copy.doi if copy is not None else None,
                "is_published": True,
                "reviews_state": "accepted",
                "tags": list(item.keywords),
                "subject_names": [_PARENT, item.category],
                "has_data_links": "available" if copy is not None else "no",
                "data_links": [self.links.on_site(copy.site, copy.path)] if copy is not None else [],
                "license_record": {"copyright_holders": [], "year": item.date[:4]},
            },
            "relationships": {
                "contributors": {"links": {"related": {"href": f"{_API}/preprints/{item.key}/contributors/"}}},
                "provider": {"data": {"id": PROVIDER, "type": "preprint-providers"}},
            },
            "embeds": {"contributors": {"data": people, "meta": {"total": len(people)}}},
            "links": {
                "self": f"{_API}/preprints/{item.key}/",
                "html": item.path,
                "preprint_doi": f"https://doi.org/{preprint_doi(item)}",
            },
        }

    def _api_provider(self, request: Request) -> Response:
        data = {
            "id": PROVIDER,
            "type": "preprint-providers",
            "attributes": {
                "name": "Scree Preprints",
                "description": "A community preprint service for geomorphology, hydrology and the Earth surface.",
                "preprint_word": "preprint",
                "allow_submissions": True,
            },
            "links": {"preprints": f"{_API}/providers/preprints/{PROVIDER}/preprints/"},
        }
        return Response.json({"data": data}, kind="api")

    def _api_subjects(self, request: Request) -> Response:
        data = [
            {
                "id": subject_id(name),
                "type": "subjects",
                "attributes": {
                    "text": name,
                    "preprint_count": sum(i.category == name for i in self.items),
                },
                "links": {"parent": subject_id(_PARENT)},
            }
            for name in self.subjects
        ]
        return Response.json({"data": data, "meta": {"total": len(data)}}, kind="api")

    def _api_list(self, request: Request) -> Response:
        subject = request.param("filter[subjects]")
        chosen = self._of_subject(subject)
        size = request.int_param("page[size]", API_PAGE, minimum=1, maximum=100)
        pages = max(1, -(-len(chosen) // size))
        page = request.int_param("page", 1, minimum=1, maximum=pages)

        def link(n: int) -> str:
            query = {"filter[subjects]": subject} if subject else {}
            query |= {"sort": "-date_created", "page": str(n), "page[size]": str(size)}
            return f"{_API}/providers/preprints/{PROVIDER}/preprints/?{urlencode(query)}"

        document_ = {
            "data": [self._resource(i) for i in chosen[(page - 1) * size : page * size]],
            "links": {
                "first": link(1),
                "last": link(pages),
                "prev": link(page - 1) if page > 1 else None,
                "next": link(page + 1) if page < pages else None,
            },
            "meta": {"total": len(chosen), "per_page": size, "version": "2.20"},
        }
        return Response.json(document_, kind="api")

    def _api_preprint(self, request: Request, guid: str) -> Response:
        item = self.by_guid.get(guid)
        if item is None:
            return Response(404, b'{"errors":[{"detail":"Not found."}]}', "application/json", "api")
        return Response.json({"data": self._resource(item), "meta": {"version": "2.20"}}, kind="api")

    # ------------------------------------------------------------------ sitemaps

    def _sitemap_index(self, request: Request) -> Response:
        root = etree.Element("sitemapindex", nsmap={None: _SITEMAP})
        node = etree.SubElement(root, "sitemap")
        etree.SubElement(node, "loc").text = self.links.absolute("/sitemaps/preprints_0.xml")
        return Response.xml(root, kind="sitemap")

    def _sitemap(self, request: Request) -> Response:
        root = etree.Element("urlset", nsmap={None: _SITEMAP})
        for path in (f"/preprints/{PROVIDER}", f"/preprints/{PROVIDER}/discover"):
            etree.SubElement(etree.SubElement(root, "url"), "loc").text = self.links.absolute(path)
        for item in sorted(self.items, key=lambda i: i.key):
            node = etree.SubElement(root, "url")
            etree.SubElement(node, "loc").text = self.links.absolute(item.path)
            etree.SubElement(node, "lastmod").text = edited(item).isoformat()
            etree.SubElement(node, "changefreq").text = "yearly"
        return Response.xml(root, kind="sitemap")
