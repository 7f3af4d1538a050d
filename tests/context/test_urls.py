"""Properties of URL canonicalisation: every URL is canonical before it enters any set."""

from __future__ import annotations

from urllib.parse import parse_qsl, urlencode, urlsplit

import pytest
from hypothesis import given
from hypothesis import strategies as st

from research_crawler.context.urls import (
    TRACKING_PARAMETERS,
    canonicalize_url,
    host_of,
    is_same_site,
    other_version,
    shown_on_site,
    site_root,
    try_canonicalize_url,
)
from research_crawler.errors import InvalidURLError

_label = st.from_regex(r"[a-z0-9]([a-z0-9-]{0,10}[a-z0-9])?", fullmatch=True)
hosts = st.lists(_label, min_size=1, max_size=3).map(lambda labels: ".".join([*labels, "org"]))
_segment = st.text(
    alphabet=st.characters(codec="utf-8", exclude_characters="/?#", exclude_categories=("Cs", "Cc")),
    max_size=8,
)
paths = st.lists(_segment, max_size=4).map(lambda segments: "/" + "/".join(segments))
_param_name = st.from_regex(r"[a-z][a-z0-9_]{0,7}", fullmatch=True).filter(
    lambda name: name not in TRACKING_PARAMETERS and not name.startswith(("utm_", "pk_", "mtm_", "hsa_"))
)
_param_value = st.text(alphabet="abcXYZ019-._~ é", max_size=6)
params = st.lists(st.tuples(_param_name, _param_value), max_size=5)
tracking = st.lists(
    st.tuples(
        st.sampled_from(sorted(TRACKING_PARAMETERS))
        | st.sampled_from(["utm_source", "utm_medium", "UTM_Campaign", "pk_kwd", "mtm_cid", "hsa_ad"]),
        _param_value,
    ),
    min_size=1,
    max_size=4,
)
schemes = st.sampled_from(["http", "https", "HTTP", "Https"])
fragments = st.text(alphabet=st.characters(codec="utf-8", exclude_categories=("Cs", "Cc")), max_size=10)


def _url(scheme: str, host: str, path: str, query: list[tuple[str, str]], fragment: str = "") -> str:
    text = f"{scheme}://{host}{path}"
    if query:
        text += "?" + urlencode(query)
    if fragment:
        text += "#" + fragment
    return text


@given(schemes, hosts, paths, params, fragments)
def test_canonicalisation_is_idempotent(scheme: str, host: str, path: str, query, fragment: str) -> None:
    once = canonicalize_url(_url(scheme, host, path, query, fragment))
    assert canonicalize_url(once) == once


@given(st.text(max_size=40), st.sampled_from(["http://ex.org/", "https://EX.org:443/a/", "http://ex.org:8080/"]))
def test_canonicalisation_is_idempotent_on_arbitrary_text(tail: str, base: str) -> None:
    once = try_canonicalize_url(base + tail)
    if once is not None:
        assert canonicalize_url(once) == once
        assert urlsplit(once).fragment == ""


@given(schemes, hosts, paths, params, tracking, st.randoms(use_true_random=False))
def test_tracking_parameters_are_dropped(scheme, host, path, query, noise, rnd) -> None:
    mixed = list(query) + list(noise)
    rnd.shuffle(mixed)
    canonical = canonicalize_url(_url(scheme, host, path, mixed))
    names = {name.lower() for name, _ in parse_qsl(urlsplit(canonical).query, keep_blank_values=True)}
    assert not names & {name.lower() for name, _ in noise}
    assert canonical == canonicalize_url(_url(scheme, host, path, query))


@given(schemes, hosts, paths, params, st.randoms(use_true_random=False))
def test_parameter_order_is_irrelevant(scheme, host, path, query, rnd) -> None:
    shuffled = list(query)
    rnd.shuffle(shuffled)
    original, reordered = _url(scheme, host, path, query), _url(scheme, host, path, shuffled)
    assert canonicalize_url(original) == canonicalize_url(reordered)


@given(schemes, hosts, paths, params, fragments.filter(bool))
def test_fragments_are_dropped(scheme, host, path, query, fragment) -> None:
    with_fragment = canonicalize_url(_url(scheme, host, path, query, fragment))
    assert "#" not in with_fragment
    assert with_fragment == canonicalize_url(_url(scheme, host, path, query))


@given(
    st.sampled_from(["ftp", "file", "javascript", "mailto", "data", "ws", "gopher", "chrome"]),
    hosts,
    paths,
)
def test_only_http_and_https_are_accepted(scheme: str, host: str, path: str) -> None:
    url = f"{scheme}://{host}{path}"
    with pytest.raises(InvalidURLError):
        canonicalize_url(url)
    assert try_canonicalize_url(url) is None


@pytest.mark.parametrize("url", ["http://a b/", "http://a%20b/x", "https://exa<mple>.org/", "http://a,b.org/"])
def test_a_host_with_a_space_or_a_sign_no_host_has_is_refused(url: str) -> None:
    with pytest.raises(InvalidURLError, match="is no host name"):
        canonicalize_url(url)
    assert try_canonicalize_url(url) is None
    assert canonicalize_url("http://exa_mple.org/a b") == "http://exa_mple.org/a%20b"  # a path may hold one


@given(st.sampled_from([("http", 80), ("https", 443)]), hosts, paths, params)
def test_default_port_is_removed(scheme_port, host: str, path: str, query) -> None:
    scheme, port = scheme_port
    assert canonicalize_url(_url(scheme, f"{host}:{port}", path, query)) == canonicalize_url(
        _url(scheme, host, path, query)
    )
    assert f":{port}" not in urlsplit(canonicalize_url(_url(scheme, f"{host}:{port}", path, query))).netloc


@given(hosts, st.integers(min_value=1, max_value=65535).filter(lambda p: p not in (80, 443)))
def test_other_ports_are_kept(host: str, port: int) -> None:
    assert urlsplit(canonicalize_url(f"http://{host}:{port}/")).port == port


@given(schemes, hosts, paths, params)
def test_canonical_form_is_lower_case_scheme_and_host(scheme, host, path, query) -> None:
    parts = urlsplit(canonicalize_url(_url(scheme, host.upper(), path, query)))
    assert parts.scheme in {"http", "https"}
    assert parts.netloc == host


def test_relative_url_resolved_against_base() -> None:
    assert canonicalize_url("../b?utm_source=x&z=1&a=2", "https://Ex.org/a/c/d") == "https://ex.org/a/b?a=2&z=1"


@pytest.mark.parametrize(
    "bad",
    [
        "",
        "   ",
        "/relative/only",
        "https://",
        "https://user:pw@ex.org/",
        "http://ex.org:99999/",
        "http://" + "a" * 3000,
    ],
)
def test_bad_urls_raise_invalid_url_error(bad: str) -> None:
    with pytest.raises(InvalidURLError):
        canonicalize_url(bad)


def test_a_link_with_a_broken_address_is_refused_whatever_its_base() -> None:
    # an href such as "http://[nytimes.com/" on a saved page: resolving it against the page's address must not raise
    assert try_canonicalize_url("http://[ex.org/a", "https://ex.org/page") is None
    with pytest.raises(InvalidURLError):
        canonicalize_url("http://[ex.org/a", "https://ex.org/page")


def test_same_site_helpers() -> None:
    assert host_of("https://www.Ex.org:8080/x") == "ex.org:8080"
    assert is_same_site("https://sub.ex.org/a", "https://www.ex.org/")
    assert not is_same_site("https://notex.org/", "https://ex.org/")
    assert site_root("HTTPS://Ex.org/a/b?c=1") == "https://ex.org/"


def test_repeated_parameters_are_kept_whatever_their_order() -> None:
    assert canonicalize_url("http://ex.org/?b=1&a=2&b=3") == "http://ex.org/?a=2&b=1&b=3"
    assert canonicalize_url("http://ex.org/?b=3&b=1") == canonicalize_url("http://ex.org/?b=1&b=3")


@pytest.mark.parametrize(
    ("url", "shown"),
    [
        ("https://arxiv.org/abs/2401.00001", "/abs/2401.00001"),
        ("https://arxiv.org/list/cs.LG/recent?skip=25&show=25", "/list/cs.LG/recent?skip=25&show=25"),
        ("https://arxiv.org/", "/"),
        ("http://arxiv.org/abs/1", "http://arxiv.org/abs/1"),  # another scheme is another origin
        ("https://export.arxiv.org/abs/1", "https://export.arxiv.org/abs/1"),
        ("https://arxiv.org:8443/abs/1", "https://arxiv.org:8443/abs/1"),
        ("https://arxiv.org//evil.example/x", "https://arxiv.org//evil.example/x"),  # "//…" would change host
    ],
)
def test_a_listing_shows_urls_of_the_site_as_paths_that_resolve_back(url: str, shown: str) -> None:
    site = "https://arxiv.org/list/cs.LG"
    assert shown_on_site(url, site) == shown
    assert canonicalize_url(shown, site) == canonicalize_url(url)


@pytest.mark.parametrize(
    ("page", "link", "text", "same_work"),
    [
        ("https://x.org/manuscript/2025.0033", "https://x.org/manuscript/2025.0033/v1", "v1", True),
        ("https://x.org/manuscript/2025.0033/v1", "https://x.org/manuscript/2025.0033", "Latest version", False),
        ("https://x.org/abs/2401.01234v2", "https://x.org/abs/2401.01234v1", "[v1] Mon, 1 Jan 2024", True),
        ("https://x.org/record/7", "https://x.org/record/7/v2", "Version 2", True),
        ("https://x.org/journal", "https://x.org/journal/v12", "Volume 12", False),  # a volume
        ("https://x.org/abs/2401.01234", "https://x.org/abs/2401.01235", "v1", False),  # another record
    ],
)
def test_another_version_of_a_record_is_its_address_with_a_version_and_a_link_that_names_one(
    page: str, link: str, text: str, same_work: bool
) -> None:
    assert other_version(page, link, text) is same_work


def test_only_c0_controls_and_spaces_are_trimmed_from_the_ends() -> None:
    """A no-break space ending a path is part of it, with a fragment after it or not (Hypothesis found the two
    differed when str.strip() trimmed every Unicode space)."""
    assert canonicalize_url("http://0.org/\xa0#0") == canonicalize_url("http://0.org/\xa0") == "http://0.org/%C2%A0"
    assert canonicalize_url(" \t http://example.org/a \n") == "http://example.org/a"
