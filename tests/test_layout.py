"""The package's layout holds: arrows run one way, no import cycle, small modules, the network in web/.

Imports are read from the source (every `import`, at module level or inside a function; only those
under `if TYPE_CHECKING:` are left out, since they never run), so a cycle hidden in a function is
still a cycle here.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "research_crawler"
ROOT = "research_crawler"

#: Bottom to top: a module may import from its own folder and from the folders below it, never above.
LAYERS: tuple[str, ...] = (
    "errors",
    "text",
    "context",
    "config",
    "pages",
    "web",
    "llm",
    "rank",
    "report",
    "library",
    "tools",
    "agents",
    "nested_chats",
    "run",
    "api",
    "scale",
    "eval",
    "serve",
    "cli",
    "__init__",
    "__main__",
)
MAX_LINES = 500
#: Libraries that talk to the network: only web/ may import them (llm/ reaches its endpoint through the
#: openai client, eval/ its LangSmith service through the langsmith client: neither imports these).
NETWORK_LIBRARIES = ("httpx", "requests", "aiohttp", "urllib.request", "http.client", "websockets", "playwright")
#: crawl4ai is the browser crawler (web/) and also a pair of pure HTML→Markdown converters, used by one
#: module of pages/ (no I/O there).
CRAWL4AI_CONVERTERS = {"crawl4ai.markdown_generation_strategy", "crawl4ai.content_filter_strategy_lxml"}
CONVERTER_MODULE = f"{ROOT}.pages.markdown"
#: Modules outside web/ allowed one of those libraries, and why.
NETWORK_EXCEPTIONS = {
    # The reliability test kit builds fake transports for its fault cases (httpx.MockTransport).
    f"{ROOT}.eval.reliability": {"httpx"},
    # A local evaluation gives LangSmith's client a requests adapter that refuses every request.
    f"{ROOT}.eval.langsmith_client": {"requests", "requests.adapters"},
}


def _modules() -> dict[str, Path]:
    found = {}
    for path in PACKAGE.rglob("*.py"):
        parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
        name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
        found[name] = path
    return found


MODULES = _modules()


def _runtime_imports(tree: ast.Module) -> Iterator[ast.Import | ast.ImportFrom]:
    """Every import statement that can run (those under `if TYPE_CHECKING:` left out)."""

    def walk(node: ast.AST) -> Iterator[ast.Import | ast.ImportFrom]:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.If) and "TYPE_CHECKING" in ast.unparse(child.test):
                yield from (n for branch in child.orelse for n in walk_node(branch))
                continue
            yield from walk_node(child)

    def walk_node(node: ast.AST) -> Iterator[ast.Import | ast.ImportFrom]:
        if isinstance(node, ast.Import | ast.ImportFrom):
            yield node
        yield from walk(node)

    yield from walk(tree)


def _imports(module: str) -> tuple[set[str], set[str]]:
    """(project modules imported by `module`, other top-level names it imports)."""
    tree = ast.parse(MODULES[module].read_text(encoding="utf-8"))
    ours: set[str] = set()
    others: set[str] = set()
    package = module if MODULES[module].name == "__init__.py" else module.rpartition(".")[0]
    for node in _runtime_imports(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                (ours if alias.name.split(".")[0] == ROOT else others).add(alias.name)
            continue
        base = node.module or ""
        if node.level:
            anchor = package.split(".")[: len(package.split(".")) - node.level + 1]
            base = ".".join([*anchor, base] if base else anchor)
        if base.split(".")[0] != ROOT:
            others.add(base)
            continue
        for alias in node.names:
            submodule = f"{base}.{alias.name}"
            ours.add(submodule if submodule in MODULES else base)
    return {name for name in ours if name in MODULES}, others


IMPORTS = {module: _imports(module) for module in MODULES}


def _layer(module: str) -> str:
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else "__init__"


def test_every_folder_has_a_layer() -> None:
    missing = sorted({_layer(module) for module in MODULES} - set(LAYERS))
    assert not missing, f"add these folders to LAYERS (bottom to top): {missing}"


def test_arrows_run_one_way() -> None:
    upward = []
    for module, (ours, _) in IMPORTS.items():
        here = LAYERS.index(_layer(module))
        for imported in ours:
            if LAYERS.index(_layer(imported)) > here:
                upward.append(f"{module} imports {imported}")
    assert not upward, "imports that point up the layers:\n" + "\n".join(sorted(upward))


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components with more than one module, or a module importing itself (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for target in graph.get(node, ()):
            if target not in index:
                visit(target)
                low[node] = min(low[node], low[target])
            elif target in on_stack:
                low[node] = min(low[node], index[target])
        if low[node] == index[node]:
            component = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                component.append(member)
                if member == node:
                    break
            if len(component) > 1 or node in graph.get(node, ()):
                found.append(sorted(component))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return found


def test_there_is_no_import_cycle() -> None:
    # A package's __init__ re-exporting its modules is not a cycle: those modules never import it back.
    graph = {module: {m for m in ours if m != module} for module, (ours, _) in IMPORTS.items()}
    assert _cycles(graph) == []


def test_the_cycle_finder_finds_a_cycle() -> None:
    assert _cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert _cycles({"a": {"b"}, "b": set()}) == []


@pytest.mark.parametrize("module", sorted(MODULES))
def test_module_stays_small(module: str) -> None:
    lines = len(MODULES[module].read_text(encoding="utf-8").splitlines())
    assert lines <= MAX_LINES, f"{module} has {lines} lines: split it (one concept per module)"


def test_only_web_talks_to_the_network() -> None:
    wrong = []
    for module, (_, others) in IMPORTS.items():
        if _layer(module) == "web":
            continue
        allowed = next((names for prefix, names in NETWORK_EXCEPTIONS.items() if module.startswith(prefix)), set())
        for name in others - allowed:
            converter = module == CONVERTER_MODULE and name in CRAWL4AI_CONVERTERS
            if name.startswith(NETWORK_LIBRARIES) or (name.split(".")[0] == "crawl4ai" and not converter):
                wrong.append(f"{module} imports {name}")
    assert not wrong, "\n".join(sorted(wrong))


def test_the_import_reader_sees_imports_inside_functions() -> None:
    tree = ast.parse("def f():\n    import httpx\n    from research_crawler.web import fetcher\n")
    assert [ast.unparse(node) for node in _runtime_imports(tree)] == [
        "import httpx",
        "from research_crawler.web import fetcher",
    ]


def test_test_modules_have_unique_names() -> None:
    """Test folders are not packages: two modules of one basename stop the whole suite at collection."""
    names = [path.name for path in Path(__file__).parent.rglob("test_*.py")]
    assert sorted({name for name in names if names.count(name) > 1}) == []
