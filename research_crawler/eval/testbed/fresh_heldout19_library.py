"""HELD OUT, fresh (nineteenth batch): Thornbury Special Collections Digital Library, built as an Islandora 7
repository on Drupal is (see `fresh_heldout19.py`; do not read or tune anything to it). The Drupal front page shows
the three objects ingested last and leads to the root collection (`/islandora/object/thornbury:root`), whose
sub-collections (`/islandora/object/thornbury:manuscripts`) list their objects in the order they were ingested (by
PID, not by date), twelve a page in a grid of labels (`?display=list` shows the same as a list) with Drupal's pager,
which counts from zero (`?page=1` is the second page). A citation object (`/islandora/object/thornbury:4321`) shows
its citation as the Scholar module formats it (APA, the year only), a PDF datastream to view, and a Details table
read off MODS: the names "Okafor, Ada" with their roles, the genre, the host publication and "Date Issued" as Solr
stores it ("2024-03-15T00:00:00Z"), subjects linked to Solr searches. Digitised maps, manuscripts, photographs and
drawings with no author are most of the objects. Drupal's robots.txt forbids the search, and Islandora's datastream
management too.
"""

from __future__ import annotations

import re
from typing import ClassVar
from urllib.parse import quote

from research_crawler.eval.testbed.decoys import DecoyKind
from research_crawler.eval.testbed.markup import attr, document, esc, meta_name
from research_crawler.eval.testbed.models import Item
from research_crawler.eval.testbed.site_app import Request, Response, Route, SiteApp

__all__ = ["COLLECTIONS", "PER_PAGE", "Fresh19LibrarySite", "apa_citation", "ingest_order", "solr_date"]

PER_PAGE = 12
#: The sub-collections (PID name → label), in the root collection's order.
COLLECTIONS = {"manuscripts": "Manuscripts and Early Books", "coalfield": "Coalfield Voices"}
_GENRES = ("Journal Article", "Journal Article", "Book Chapter", "Conference Paper", "Report")
_HOSTS = {
    "Manuscripts and Early Books": ("Fragmentology", "The Library", "Scriptorium", "Journal of the Early Book Society"),
    "Coalfield Voices": ("Oral History", "Labour History Review", "History Workshop Journal", "Memory Studies"),
}
#: Digitised objects with no author, filed in the same collections: (PID number, label, collection).
_OBJECTS = (
    (1003, "Estate map of Thornbury manor, 1780", "manuscripts"),
    (2214, "Book of Hours, Use of Sarum (MS 12)", "manuscripts"),
    (3307, "Account book of the Thornbury vestry, 1571-1590", "manuscripts"),
    (4419, "Cartulary of Thornbury Priory", "manuscripts"),
    (5502, "Herbal, printed at Antwerp, 1554", "manuscripts"),
    (6611, "Deed of sale of a tenement, 1498", "manuscripts"),
    (7716, "Sermon notebook of a curate, c. 1620", "manuscripts"),
    (8823, "Letter of the bishop to the dean, 1402", "manuscripts"),
    (1009, "Colliery company share certificate, 1923", "coalfield"),
    (2218, "Banner of the Thornbury lodge, photographed 1974", "coalfield"),
    (3313, "Pit-head baths, photograph", "coalfield"),
    (4427, "Miners' welfare hall, architect's drawing", "coalfield"),
    (5519, "Colliery plan of the No. 3 seam, 1931", "coalfield"),
    (6625, "Programme of the lodge gala, 1958", "coalfield"),
    (7731, "Aerial view of the spoil tip, 1966", "coalfield"),
    (8839, "Safety lamp, museum photograph", "coalfield"),
)


def _hash(text: str) -> int:
    return sum(ord(c) * (n + 31) for n, c in enumerate(text))


def solr_date(day: str) -> str:
    """'Date Issued' as the Details table shows Solr's field ('2024-03-15T00:00:00Z')."""
    return f"{day}T00:00:00Z"


def _pid_number(item: Item) -> int:
    return int(item.key.split(":")[1])


def ingest_order(items: list[Item]) -> list[Item]:
    """A collection's objects in the order they were ingested: by PID."""
    return sorted(items, key=_pid_number)


def _family_given(name: str) -> tuple[str, str]:
    given, _, family = name.rpartition(" ")
    return family, given


def apa_citation(item: Item) -> str:
    """The citation as the Scholar module's CSL writes it ('Okafor, A., & Lee, K. B. (2024). Title. Host.')."""
    names = []
    for name in item.authors:
        family, given = _family_given(name)
        names.append(f"{family}, {' '.join(part[0] + '.' for part in given.split())}")
    joined = names[0] if len(names) == 1 else ", ".join(names[:-1]) + ", & " + names[-1]
    host = _HOSTS[item.category][_hash(item.title) % len(_HOSTS[item.category])]
    return f"{joined} ({item.year}). {item.title}. {host}."


class Fresh19LibrarySite(SiteApp):
    """An Islandora library: Drupal front page, root and sub-collections, citation objects, digitised objects."""

    decoy_paths: ClassVar[dict[str, DecoyKind]] = {
        "/about": "about",
        "/contact": "contact",
        "/accessibility": "accessibility",
    }

    def routes(self) -> list[Route]:
        self.by_key = {i.key: i for i in self.items}
        self.objects = {f"thornbury:{n}": (label, c) for n, label, c in _OBJECTS if f"thornbury:{n}" not in self.by_key}
        return [
            (re.compile(r"/"), self._front),
            (re.compile(r"/islandora/object/thornbury:root"), self._root),
            (re.compile(r"/islandora/object/thornbury:(?P<name>[a-z]+)"), self._collection),
            (re.compile(r"/islandora/object/(?P<pid>thornbury:\d+)"), self._object),
            (re.compile(r"/islandora/object/(?P<pid>thornbury:\d+)/datastream/OBJ/view"), self._file),
        ]

    def robots_txt(self) -> str:
        return (
            "User-agent: *\nCrawl-delay: 10\nDisallow: /includes/\nDisallow: /modules/\nDisallow: /search/\n"
            "Disallow: /user/\nDisallow: /?q=\nDisallow: /islandora/search/\nDisallow: /islandora/object/*/manage\n"
            "Disallow: /islandora/object/*/datastream/*/download\n"
        )

    def sample_paths(self) -> dict[str, str]:
        item = self.items[0]
        return {
            "front": "/",
            "root": "/islandora/object/thornbury:root",
            "collection": "/islandora/object/thornbury:manuscripts?page=1",
            "object": item.path,
            "pdf": item.pdf_path,
        }

    def page(self, *, title: str, content: str, kind: str, status: int = 200, head: str = "") -> Response:
        site = self.spec.title
        body = (
            f'<div id="page"><div id="header"><a href="/" id="logo" rel="home">{esc(site)}</a><form action='
            '"/islandora/search" method="post" id="islandora-solr-simple-search-form"><input type="text" name='
            '"islandora_simple_search_query"><input type="submit" value="search"></form></div><div id="navigation">'
            '<ul class="menu"><li><a href="/">Home</a></li><li><a href="/islandora/object/thornbury:root">Browse '
            'Collections</a></li><li><a href="/about">About</a></li></ul></div><div id="main"><h1 class="title" id='
            f'"page-title">{esc(title)}</h1>{content}</div><div id="footer"><a href="/contact">Contact</a> | <a href='
            f'"/accessibility">Accessibility</a> | {esc(site)}</div></div>'
        )
        return Response.html(
            document(title=f"{title} | {site}", head=head, body=body, body_class="html not-front"),
            kind=kind,
            status=status,
        )

    def _front(self, request: Request) -> Response:
        recent = "".join(
            f'<li><a href="{attr(i.path)}">{esc(i.title)}</a></li>' for i in ingest_order(self.items)[::-1][:3]
        )
        content = (
            f"<p>{esc(self.spec.tagline)}: medieval manuscripts, early printed books, the coalfield's voices, and the "
            'research written about them.</p><p><a href="/islandora/object/thornbury:root">Browse the collections</a>'
            f'</p><div class="block-views-recent-additions"><h2>Recent additions</h2><ul>{recent}</ul></div>'
        )
        return self.page(title="Welcome", content=content, kind="home")

    def _root(self, request: Request) -> Response:
        tiles = "".join(
            f'<dl class="islandora-basic-collection-object"><dt><a href="/islandora/object/thornbury:{name}">'
            f'<img src="/islandora/object/thornbury:{name}/datastream/TN/view" alt=""></a></dt><dd><a href='
            f'"/islandora/object/thornbury:{name}">{esc(label)}</a></dd></dl>'
            for name, label in COLLECTIONS.items()
        )
        content = f'<div class="islandora-basic-collection-grid">{tiles}</div>'
        return self.page(title="Thornbury Collections", content=content, kind="collection")

    def _collection(self, request: Request, name: str) -> Response:
        label = COLLECTIONS.get(name)
        if label is None:
            return self.not_found()
        members = [(_pid_number(i), i.key, i.title) for i in self.items if i.category == label]
        members += [(int(pid.split(":")[1]), pid, t) for pid, (t, c) in self.objects.items() if c == name]
        members.sort()
        pages = max(1, -(-len(members) // PER_PAGE))
        page = request.int_param("page", 0, minimum=0, maximum=pages - 1)
        display = "list" if request.param("display") == "list" else "grid"
        shown = members[page * PER_PAGE : (page + 1) * PER_PAGE]
        base = f"/islandora/object/thornbury:{name}" + ("?display=list&" if display == "list" else "?")
        if display == "list":
            rows = "".join(
                f'<div class="islandora-object-list-item"><a href="/islandora/object/{pid}">{esc(t)}</a></div>'
                for _, pid, t in shown
            )
        else:
            rows = "".join(
                f'<dl class="islandora-basic-collection-object"><dt><a href="/islandora/object/{pid}"><img src='
                f'"/islandora/object/{pid}/datastream/TN/view" alt="{attr(t)}"></a></dt><dd><a href="/islandora/'
                f'object/{pid}">{esc(t)}</a></dd></dl>'
                for _, pid, t in shown
            )
        pager = "".join(
            f'<li class="pager-current">{n + 1}</li>'
            if n == page
            else f'<li class="pager-item"><a href="{attr(base + f"page={n}")}">{n + 1}</a></li>'
            for n in range(pages)
        )
        if page + 1 < pages:
            pager += f'<li class="pager-next"><a href="{attr(base + f"page={page + 1}")}">next ›</a></li>'
        switch = (
            f'<div class="islandora-view-list"><a href="/islandora/object/thornbury:{name}?display=list">List</a> '
            f'<a href="/islandora/object/thornbury:{name}?display=grid">Grid</a></div>'
        )
        content = (
            f'{switch}<div class="islandora-basic-collection-{display}">{rows}</div><h2 class="element-invisible">'
            f'Pages</h2><div class="item-list"><ul class="pager">{pager}</ul></div>'
        )
        return self.page(title=label, content=content, kind="listing")

    def _object(self, request: Request, pid: str) -> Response:
        item = self.by_key.get(pid)
        if item is None:
            return self._digitised(pid)
        genre = _GENRES[_hash(item.key) % len(_GENRES)]
        host = apa_citation(item).rsplit(". ", 1)[1].rstrip(".")
        name_for = next(n for n, label in COLLECTIONS.items() if label == item.category)
        names = "".join(f"<dd>{esc(', '.join(_family_given(a)))} (author)</dd>" for a in item.authors)
        subjects = "".join(
            f'<dd><a href="/islandora/search/%22{attr(quote(k))}%22?type=dismax">{esc(k)}</a></dd>'
            for k in item.keywords
        )
        fields = (
            f"<dt>Title</dt><dd>{esc(item.title)}</dd><dt>Name</dt>{names}<dt>Genre</dt><dd>{esc(genre)}</dd>"
            f"<dt>Host Title</dt><dd>{esc(host)}</dd><dt>Date Issued</dt><dd>{solr_date(item.date)}</dd><dt>"
            f"Abstract</dt><dd>{esc(item.abstract)}</dd><dt>Subject</dt>{subjects}<dt>Identifier</dt><dd>{pid}</dd>"
        )
        head = (
            meta_name("citation_title", item.title)
            + "".join(meta_name("citation_author", ", ".join(_family_given(a))) for a in item.authors)
            + meta_name("citation_publication_date", str(item.year))
        )
        content = (
            f'<div class="islandora-scholar-citation"><div class="citation">{esc(apa_citation(item))}</div>'
            f'<div class="pdf-view"><a href="{attr(item.pdf_path)}">View PDF</a></div><fieldset class="islandora '
            f'islandora-metadata collapsible"><legend><span class="fieldset-legend">Details</span></legend><dl class='
            f'"islandora-inline-metadata islandora-metadata-fields">{fields}</dl></fieldset><div class="islandora-'
            f'object-collections">In collections: <a href="/islandora/object/thornbury:{name_for}">'
            f"{esc(item.category)}</a></div></div>"
        )
        return self.page(title=item.title, content=content, kind="article", head=head)

    def _digitised(self, pid: str) -> Response:
        found = self.objects.get(pid)
        if found is None:
            return self.not_found()
        label, name = found
        content = (
            f'<div class="islandora-large-image-object"><img src="/islandora/object/{pid}/datastream/JPG/view" alt='
            f'""><fieldset><legend>Details</legend><dl><dt>Title</dt><dd>{esc(label)}</dd><dt>Type of Resource</dt>'
            f"<dd>still image</dd><dt>Identifier</dt><dd>{pid}</dd></dl></fieldset><div>In collections: <a href="
            f'"/islandora/object/thornbury:{name}">{esc(COLLECTIONS[name])}</a></div></div>'
        )
        return self.page(title=label, content=content, kind="detail")

    def _file(self, request: Request, pid: str) -> Response:
        item = self.by_key.get(pid)
        return self.pdf(item) if item is not None else self.not_found()
