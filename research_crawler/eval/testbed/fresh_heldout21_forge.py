"""HELD OUT, fresh (twenty-first batch): Halvard Code, built as a GitLab instance shows a university's research
software to a visitor who is not signed in (see `fresh_heldout21.py`; do not read or tune anything to it). `/` sends
the visitor to "Explore projects" (`/explore/projects`: every project twenty a page, last activity first, numbered
pages, or most starred first with `?sort=stars_desc`), which leads to the groups (`/explore/groups`, then
`/ecology-lab`: its projects alphabetically, six at a time, with keyset links `?cursor=…` "Next ›") and to the
topics (`/explore/projects/topics/bioacoustics`: its projects by name, numbered pages). A project
(`/ecology-lab/torlis`) renders its README: badges, the description, installation, usage and "Citing" with a BibTeX
entry ("author = {Lima, Ana and Souza, Bruno}", "year = {2024}") and links its repository tree, its releases
(`/-/releases`, each dated, the first often before the paper, later ones after it) and its software paper
(`/ecology-lab/torlis/-/blob/main/paper/paper.md`): GitLab shows its YAML front matter as a code block (title, tags,
authors with ORCID and affiliation indices, affiliations, "date: 12 March 2024") above the rendered Summary and
Statement of need; no meta tags. The search, the API, sign-in, help, blame, history, raw files and archives are
forbidden.
"""

from __future__ import annotations

import base64
import json
import re
from dataclasses import dataclass
from datetime import date, timedelta
from typing import ClassVar
from urllib.parse import urlencode

from research_crawler.eval.testbed.decoys import DecoyKind
from research_crawler.eval.testbed.fresh_heldout21 import NAMESPACES
from research_crawler.eval.testbed.markup import MONTHS, attr, document, esc
from research_crawler.eval.testbed.models import Item
from research_crawler.eval.testbed.site_app import Request, Response, Route, SiteApp, paged

__all__ = [
    "CHORES",
    "GROUP_PAGE",
    "PER_PAGE",
    "Fresh21ForgeSite",
    "Project",
    "bibtex",
    "cursor_of",
    "front_matter_date",
    "projects_of",
    "releases",
]

PER_PAGE = 20
GROUP_PAGE = 6
_LANGUAGES = {"bioacoustics": ("Python", "R", "Rust"), "glaciology": ("Python", "Julia", "C++")}
_LAST_DAY = date(2026, 11, 20)


def _hash(text: str) -> int:
    return sum(ord(c) * (n + 41) for n, c in enumerate(text))


def front_matter_date(day: date) -> str:
    """The paper's date as its front matter writes it ('12 March 2024')."""
    return f"{day.day} {MONTHS[day.month - 1]} {day.year}"


def releases(item: Item) -> list[tuple[str, date]]:
    """(tag, day) of the project's releases, newest first: one before the paper, one archived with it, maybe one
    later (never after the last day of the web)."""
    day, seed = date.fromisoformat(item.date), _hash(item.title)
    minor = 1 + seed % 4
    made = [
        (f"v0.{minor}.0", day - timedelta(days=20 + seed % 150)),
        (f"v1.0.{seed % 2}", day + timedelta(days=5 + seed % 50)),
    ]
    later = day + timedelta(days=120 + seed % 300)
    if later <= _LAST_DAY:
        made.append((f"v1.{1 + seed % 3}.0", later))
    return sorted(made, key=lambda r: r[1], reverse=True)


def bibtex(item: Item) -> str:
    """The README's BibTeX entry: authors surname first joined by 'and', the year alone."""
    surname = re.sub(r"[^a-z]", "", item.authors[0].rsplit(" ", 1)[1].lower()) or "x"
    names = " and ".join(f"{a.rsplit(' ', 1)[1]}, {a.rsplit(' ', 1)[0]}" for a in item.authors)
    project = item.key.split("/")[1]
    return (
        f"@article{{{surname}{item.year}{project.replace('-', '')},\n  title = {{{item.title}}},\n"
        f"  author = {{{names}}},\n  journal = {{Halvard Software Papers}},\n  year = {{{item.year}}},\n"
        f"  note = {{Software paper in paper/paper.md}}\n}}"
    )


def cursor_of(name: str) -> str:
    """A keyset cursor as GitLab writes it: base64 of the last name shown."""
    return base64.urlsafe_b64encode(json.dumps({"name": name}).encode()).decode().rstrip("=")


def _name_after(cursor: str) -> str | None:
    try:
        decoded = json.loads(base64.urlsafe_b64decode(cursor + "=" * (-len(cursor) % 4)))
    except (ValueError, TypeError):
        return None
    name = decoded.get("name") if isinstance(decoded, dict) else None
    return name if isinstance(name, str) else None


#: Projects without a paper, as every forge has them: (namespace, name, description, topic, last activity).
CHORES: tuple[tuple[str, str, str, str, date], ...] = (
    (
        "rse",
        "ci-templates",
        "Shared GitLab CI templates for Python and R packages",
        "infrastructure",
        date(2026, 9, 30),
    ),
    ("rse", "hpc-scripts", "Job scripts and module files for the Fram cluster", "infrastructure", date(2025, 11, 4)),
    ("rse", "docker-images", "Base images used by the group's pipelines", "infrastructure", date(2026, 6, 18)),
    ("rse", "thesis-template", "LaTeX template for Halvard University theses", "teaching", date(2024, 2, 9)),
    (
        "ecology-lab",
        "lab-handbook",
        "How we work: onboarding, data management and field safety",
        "teaching",
        date(2026, 10, 12),
    ),
    (
        "ecology-lab",
        "field-season-2025",
        "Logistics and equipment lists for the 2025 field season",
        "fieldwork",
        date(2025, 8, 27),
    ),
    (
        "ecology-lab",
        "recorder-firmware",
        "Firmware fork for our ultrasonic recorders",
        "bioacoustics",
        date(2025, 3, 14),
    ),
    ("ecology-lab", "r-workshop", "Material of the introductory R workshop", "teaching", date(2023, 10, 2)),
    ("cryosphere", "website", "Source of the group's website", "outreach", date(2026, 10, 28)),
    ("cryosphere", "meeting-notes", "Weekly meeting notes (public part)", "outreach", date(2026, 10, 20)),
    (
        "cryosphere",
        "dem-downloader",
        "Fetches elevation tiles for a region of interest",
        "glaciology",
        date(2024, 12, 1),
    ),
    ("cryosphere", "course-geo4410", "Exercises of GEO4410 Remote Sensing of Ice", "teaching", date(2024, 5, 21)),
)


@dataclass(frozen=True)
class Project:
    """A project of the forge: with its software paper, or one of the chores."""

    namespace: str
    name: str
    item: Item | None
    description: str
    topic: str
    updated: date

    @property
    def path(self) -> str:
        return f"/{self.namespace}/{self.name}"

    @property
    def stars(self) -> int:
        return 3 + _hash(self.path) % 140

    @property
    def language(self) -> str:
        options = _LANGUAGES.get(self.topic, ("Shell", "Python", "TeX"))
        return options[_hash(self.description) % len(options)]


def projects_of(items: list[Item]) -> list[Project]:
    """Every project, last activity first."""
    made = [
        Project(i.key.split("/")[0], i.key.split("/")[1], i, i.title, i.category, max(d for _, d in releases(i)))
        for i in items
    ] + [Project(ns, name, None, text, topic, day) for ns, name, text, topic, day in CHORES]
    return sorted(made, key=lambda p: (p.updated, p.name), reverse=True)


def _short(day: date) -> str:
    return f"{MONTHS[day.month - 1][:3]} {day.day}, {day.year}"


class Fresh21ForgeSite(SiteApp):
    """A GitLab-like forge: explore, groups by keyset, topics, projects, releases, software papers."""

    decoy_paths: ClassVar[dict[str, DecoyKind]] = {"/-/about": "about", "/-/privacy": "privacy", "/-/terms": "terms"}

    def routes(self) -> list[Route]:
        self.projects = projects_of(self.items)
        self.by_project = {p.path: p for p in self.projects}
        return [
            (re.compile(r"/"), lambda request: Response.redirect("/explore/projects", status=302)),
            (re.compile(r"/explore"), lambda request: Response.redirect("/explore/projects", status=302)),
            (re.compile(r"/explore/projects"), self._explore),
            (re.compile(r"/explore/groups"), self._groups),
            (re.compile(r"/explore/projects/topics"), self._topics),
            (re.compile(r"/explore/projects/topics/(?P<topic>[a-z]+)"), self._topic),
            (re.compile(r"/(?P<namespace>[a-z-]+)"), self._group),
            (re.compile(r"/(?P<namespace>[a-z-]+)/(?P<name>[a-z0-9-]+)"), self._project),
            (re.compile(r"/(?P<namespace>[a-z-]+)/(?P<name>[a-z0-9-]+)/-/releases"), self._releases),
            (re.compile(r"/(?P<namespace>[a-z-]+)/(?P<name>[a-z0-9-]+)/-/tree/main/paper"), self._tree),
            (re.compile(r"/(?P<namespace>[a-z-]+)/(?P<name>[a-z0-9-]+)/-/blob/main/paper/paper\.md"), self._paper),
            (re.compile(r"/(?P<namespace>[a-z-]+)/(?P<name>[a-z0-9-]+)/-/jobs/artifacts/main/paper\.pdf"), self._pdf),
        ]

    def robots_txt(self) -> str:
        return (
            "# See http://www.robotstxt.org/robotstxt.html for documentation on how to use the robots.txt file\n"
            "User-Agent: *\nDisallow: /autocomplete/users\nDisallow: /search\nDisallow: /api\nDisallow: /admin\n"
            "Disallow: /profile\nDisallow: /dashboard\nDisallow: /users\nDisallow: /help\nDisallow: /s/\n"
            "Disallow: /*/-/blame/\nDisallow: /*/-/commits/\nDisallow: /*/-/raw/\nDisallow: /*/-/archive/\n"
            "Disallow: /*/-/graphs/\nDisallow: /*/-/network/\n"
        )

    def sample_paths(self) -> dict[str, str]:
        project = next(p for p in self.projects if p.item is not None)
        paper = project.item.path if project.item is not None else project.path
        return {
            "explore": "/explore/projects",
            "next": "/explore/projects?page=2",
            "groups": "/explore/groups",
            "group": f"/{project.namespace}",
            "topics": "/explore/projects/topics",
            "topic": f"/explore/projects/topics/{project.topic}",
            "project": project.path,
            "releases": f"{project.path}/-/releases",
            "tree": f"{project.path}/-/tree/main/paper",
            "paper": paper,
        }

    def page(self, *, title: str, content: str, kind: str, status: int = 200, head: str = "") -> Response:
        body = (
            '<header class="navbar navbar-gitlab"><a class="brand-logo" href="/explore/projects" title="Homepage">'
            f'<span class="logo-text">{esc(self.spec.title)}</span></a><ul class="nav"><li><a href="/explore/projects">'
            'Projects</a></li><li><a href="/explore/groups">Groups</a></li><li><a href="/explore/projects/topics">'
            'Topics</a></li></ul><form class="search-form" action="/search" method="get"><input type="search" '
            'name="search" placeholder="Search GitLab"></form><a class="btn" href="/users/sign_in?redirect_to_'
            'referer=yes">Sign in</a> <a href="/help">Help</a></header>'
            f'<div class="content-wrapper"><main id="content-body">{content}</main></div><footer class="footer">'
            '<a href="/-/about">About Halvard Code</a> · <a href="/-/privacy">Privacy</a> · <a href="/-/terms">'
            "Terms</a> · Halvard University IT Services</footer>"
        )
        title = f"{title} · {self.spec.title}" if title != self.spec.title else title
        return Response.html(
            document(title=title, head=head, body=body, body_class="ui-indigo"), kind=kind, status=status
        )

    def _row(self, project: Project) -> str:
        label = NAMESPACES[project.namespace]
        return (
            f'<li class="project-row"><div class="project-details"><h2 class="project-full-name"><a href="'
            f'{project.path}"><span class="namespace-name">{esc(label)} / </span><span class="project-name">'
            f'{esc(project.name)}</span></a></h2><div class="description"><p>{esc(project.description)}</p></div>'
            f'<div class="topics"><a class="badge" href="/explore/projects/topics/{project.topic}">'
            f'{esc(project.topic)}</a></div></div><div class="controls"><span class="stars">★ {project.stars}'
            f'</span> <span class="language">{project.language}</span> <span class="updated">Updated <time datetime='
            f'"{project.updated.isoformat()}T09:14:00Z">{_short(project.updated)}</time></span></div></li>'
        )

    def _tabs(self, active: str) -> str:
        tabs = (("All", "/explore/projects"), ("Most starred", "/explore/projects?sort=stars_desc"))
        return (
            '<ul class="nav-links">'
            + "".join(
                f'<li class="{"active" if name == active else ""}"><a href="{attr(href)}">{name}</a></li>'
                for name, href in tabs
            )
            + '<li><a href="/explore/projects/topics">Topics</a></li></ul>'
        )

    def _explore(self, request: Request) -> Response:
        starred = request.param("sort") == "stars_desc"
        projects = sorted(self.projects, key=lambda p: (-p.stars, p.name)) if starred else self.projects
        query = {"sort": "stars_desc"} if starred else {}
        shown, pager = paged(
            request, projects, PER_PAGE, lambda n: "/explore/projects?" + urlencode(query | {"page": n})
        )
        content = (
            f'<h1 class="page-title">Explore projects</h1>{self._tabs("Most starred" if starred else "All")}'
            f'<div class="sort">Sort by: {"Stars" if starred else "Updated date"}</div><ul class="projects-list">'
            f"{''.join(self._row(p) for p in shown)}</ul>{pager}"
        )
        return self.page(title="Explore projects", content=content, kind="listing")

    def _groups(self, request: Request) -> Response:
        rows = "".join(
            f'<li class="group-row"><a href="/{ns}">{esc(label)}</a> <span class="count">'
            f"{sum(p.namespace == ns for p in self.projects)} projects</span></li>"
            for ns, label in NAMESPACES.items()
        )
        return self.page(title="Explore groups", content=f"<h1>Explore groups</h1><ul>{rows}</ul>", kind="collection")

    def _group(self, request: Request, namespace: str) -> Response:
        if namespace not in NAMESPACES:
            return self.not_found()
        mine = sorted((p for p in self.projects if p.namespace == namespace), key=lambda p: p.name)
        after = _name_after(request.param("cursor")) if request.param("cursor") else None
        rest = [p for p in mine if after is None or p.name > after]
        shown = rest[:GROUP_PAGE]
        steps = []
        if after is not None:
            steps.append(f'<a class="page-link" href="/{namespace}">« First</a>')
        if len(rest) > GROUP_PAGE:
            steps.append(
                f'<a class="page-link" rel="next" href="/{namespace}?cursor={cursor_of(shown[-1].name)}">Next ›</a>'
            )
        rows = "".join(
            f'<li class="group-row project"><a href="{p.path}">{esc(p.name)}</a><p class="description">'
            f'{esc(p.description)}</p><span class="stars">★ {p.stars}</span></li>'
            for p in shown
        )
        content = (
            f'<div class="group-home-panel"><h1>{esc(NAMESPACES[namespace])}</h1><p>Group ID: '
            f'{1000 + _hash(namespace) % 9000}</p></div><h2>Subgroups and projects</h2><div class="sort">Sort by: Name'
            f'</div><ul class="groups-list">{rows}</ul><ul class="pagination">{" ".join(steps)}</ul>'
        )
        return self.page(title=NAMESPACES[namespace], content=content, kind="listing")

    def _topics(self, request: Request) -> Response:
        names = sorted({p.topic for p in self.projects})
        rows = "".join(
            f'<li><a href="/explore/projects/topics/{n}">{n}</a> {sum(p.topic == n for p in self.projects)} '
            "projects</li>"
            for n in names
        )
        return self.page(title="Topics", content=f"<h1>Explore topics</h1><ul>{rows}</ul>", kind="collection")

    def _topic(self, request: Request, topic: str) -> Response:
        mine = sorted((p for p in self.projects if p.topic == topic), key=lambda p: p.name)
        if not mine:
            return self.not_found()
        shown, pager = paged(request, mine, PER_PAGE // 2, lambda n: f"/explore/projects/topics/{topic}?page={n}")
        content = (
            f'<h1 class="page-title">Projects with this topic</h1><h2>{esc(topic)}</h2><ul class="projects-list">'
            f"{''.join(self._row(p) for p in shown)}</ul>{pager}"
        )
        return self.page(title=f"{topic} · Topics", content=content, kind="listing")

    def _find(self, namespace: str, name: str) -> Project | None:
        return self.by_project.get(f"/{namespace}/{name}")

    def _crumbs(self, project: Project, last: str = "") -> str:
        return (
            f'<nav class="breadcrumbs"><a href="/{project.namespace}">{esc(NAMESPACES[project.namespace])}</a> / '
            f'<a href="{project.path}">{esc(project.name)}</a>' + (f" / {esc(last)}" if last else "") + "</nav>"
        )

    def _project(self, request: Request, namespace: str, name: str) -> Response:
        project = self._find(namespace, name)
        if project is None:
            return self.not_found()
        if project.item is None:
            return self._chore(project)
        item = project.item
        latest, latest_day = releases(item)[0]
        install = (
            f"pip install {project.name}"
            if project.language == "Python"
            else f'remotes::install_gitlab("{project.namespace}/{project.name}")'
            if project.language == "R"
            else f"cargo install {project.name}"
            if project.language == "Rust"
            else f"git clone {self.links.absolute(project.path)}.git"
        )
        zenodo = 7_000_000 + _hash(item.key) % 2_000_000
        readme = (
            f'<h1>{esc(project.name)}</h1><p><img alt="pipeline status" src="'
            f'{project.path}/badges/main/pipeline.svg"> <a href="https://doi.org/10.5281/zenodo.{zenodo}"><img '
            f'alt="DOI" src="https://zenodo.org/badge/DOI/10.5281/zenodo.{zenodo}.svg"></a></p><p>{esc(item.title)}.'
            f"</p><p>{esc(item.abstract.split('. ')[0])}.</p><h2>Installation</h2><pre><code>{esc(install)}"
            "</code></pre>"
            f"<h2>Usage</h2><p>See the examples in <code>docs/</code> and the tutorial notebooks.</p><h2>Citing</h2>"
            f'<p>If you use {esc(project.name)} in your work, please cite the accompanying paper (<a href="'
            f'{attr(item.path)}">paper/paper.md</a>):</p><pre><code>{esc(bibtex(item))}</code></pre><h2>License</h2>'
            "<p>MIT</p>"
        )
        files = (
            f'<table class="tree-table"><tr><td><a href="{project.path}/-/tree/main/paper">paper</a></td><td>Add '
            "software paper</td></tr><tr><td>src</td><td>Refactor I/O</td></tr><tr><td>README.md</td><td>Update "
            "README</td>"
            "</tr><tr><td>LICENSE</td><td>Initial commit</td></tr></table>"
        )
        content = (
            f'{self._crumbs(project)}<div class="project-home-panel"><h1 class="home-panel-title">{esc(project.name)}'
            f'</h1><p>Project ID: {20_000 + _hash(item.key) % 50_000}</p><p class="home-panel-description">'
            f'{esc(item.title)}</p><div class="topics">Topics: <a href="/explore/projects/topics/{item.category}">'
            f'{esc(item.category)}</a></div><ul class="project-stats"><li><a href="{project.path}/-/releases">'
            f"Releases ({len(releases(item))})</a></li><li>Latest release: {latest} · {_short(latest_day)}</li>"
            f'<li>★ {project.stars}</li></ul></div>{files}<article class="file-holder readme-holder"><div class='
            f'"file-title">README.md</div><div class="blob-viewer md">{readme}</div></article><a href="'
            f'{project.path}/-/commits/main">History</a> · <a href="{project.path}/-/archive/main/{project.name}-main.'
            'zip">Download source code</a>'
        )
        return self.page(title=f"{NAMESPACES[project.namespace]} / {project.name}", content=content, kind="project")

    def _releases(self, request: Request, namespace: str, name: str) -> Response:
        project = self._find(namespace, name)
        if project is None or project.item is None:
            return self.not_found()
        item = project.item
        rows = "".join(
            f'<div class="release-block"><h2>{tag}</h2><p class="release-meta">Released <time datetime="{day}">'
            f"{_short(day)}</time> by Halvard CI</p><p>"
            + (
                "Version archived with the software paper."
                if tag.startswith("v1.0.")
                else "Bug fixes and minor improvements."
            )
            + f'</p><a href="{project.path}/-/archive/{tag}/{project.name}-{tag}.zip">Source code (zip)</a></div>'
            for tag, day in releases(item)
        )
        content = f"{self._crumbs(project, 'Releases')}<h1>Releases</h1>{rows}"
        return self.page(title=f"Releases · {project.name}", content=content, kind="listing")

    def _tree(self, request: Request, namespace: str, name: str) -> Response:
        project = self._find(namespace, name)
        if project is None or project.item is None:
            return self.not_found()
        content = (
            f'{self._crumbs(project, "paper")}<table class="tree-table"><tr><td><a href="{attr(project.item.path)}">'
            f'paper.md</a></td></tr><tr><td>paper.bib</td></tr><tr><td><a href="'
            f'{project.path}/-/raw/main/paper/figure1.png">figure1.png</a></td></tr></table><p>'
            f'<a href="{project.path}/-/jobs/artifacts/main/paper.pdf">Download paper.pdf (latest build)</a></p>'
        )
        return self.page(title=f"paper · {project.name}", content=content, kind="listing")

    def _paper(self, request: Request, namespace: str, name: str) -> Response:
        project = self._find(namespace, name)
        if project is None or project.item is None:
            return self.not_found()
        item = project.item
        team = NAMESPACES[project.namespace]
        lines = [
            "---",
            f"title: '{item.title}'",
            "tags:",
            f"  - {project.language}",
            f"  - {item.category}",
            "authors:",
        ]
        for n, author in enumerate(item.authors):
            lines.append(f"  - name: {author}")
            if _hash(author) % 3:
                digits = f"{_hash(author) * 7919 % 10_000_000_000:010d}"
                lines.append(f"    orcid: 0000-000{digits[0]}-{digits[1:5]}-{digits[5:9]}")
            lines.append(f"    affiliation: {'1' if n % 2 == 0 else '1, 2'}")
        lines += [
            "affiliations:",
            f"  - name: {team}, Halvard University",
            "    index: 1",
            "  - name: Norwegian Institute for Field Data",
            "    index: 2",
            f"date: {front_matter_date(date.fromisoformat(item.date))}",
            "bibliography: paper.bib",
            "---",
        ]
        need = (
            f"{project.name} was written because existing tools were closed, slow or hard to reproduce. It is "
            "developed openly, tested on every commit and documented with worked examples."
        )
        content = (
            f'{self._crumbs(project, "paper / paper.md")}<div class="file-holder"><div class="file-title">'
            f'<span class="file-name">paper.md</span> <span class="file-size">{3 + len(item.abstract) // 400}.'
            f'{_hash(item.title) % 10} KiB</span><div class="file-actions"><a href="{project.path}/-/blame/main/paper/'
            f'paper.md">Blame</a> <a href="{project.path}/-/commits/main/paper/paper.md">History</a> <a href="'
            f'{project.path}/-/raw/main/paper/paper.md">Raw</a></div></div><div class="blob-viewer md"><pre class='
            f'"code highlight js-syntax-highlight language-yaml" lang="yaml" data-lang-params="frontmatter"><code>'
            f"{esc(chr(10).join(lines))}</code></pre><h1>Summary</h1><p>{esc(item.abstract)}</p><h1>Statement of need"
            f"</h1><p>{esc(need)}</p><h1>Acknowledgements</h1><p>We thank the users who reported issues.</p><h1>"
            "References</h1></div></div>"
        )
        return self.page(title=f"paper/paper.md · main · {team} / {project.name}", content=content, kind="article")

    def _pdf(self, request: Request, namespace: str, name: str) -> Response:
        project = self._find(namespace, name)
        return self.pdf(project.item) if project is not None and project.item is not None else self.not_found()

    def _chore(self, project: Project) -> Response:
        content = (
            f'{self._crumbs(project)}<div class="project-home-panel"><h1 class="home-panel-title">{esc(project.name)}'
            f'</h1><p class="home-panel-description">{esc(project.description)}</p><div class="topics">Topics: <a '
            f'href="/explore/projects/topics/{project.topic}">{esc(project.topic)}</a></div></div><article class='
            f'"file-holder readme-holder"><div class="file-title">README.md</div><div class="blob-viewer md"><h1>'
            f"{esc(project.name)}</h1><p>{esc(project.description)}.</p><p>Maintained by "
            f"{esc(NAMESPACES[project.namespace])}. Issues and merge requests are welcome from members of the "
            f'university.</p></div></article><a href="{project.path}/-/commits/main">History</a>'
        )
        return self.page(title=f"{NAMESPACES[project.namespace]} / {project.name}", content=content, kind="project")
