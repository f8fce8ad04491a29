"""Shared fixtures: the real sources copied to a temporary folder (to damage freely), and
helpers to add a source to such a copy and to run the command line."""
import os
import shutil
import subprocess
import sys
import typing
from pathlib import Path

import pytest

if typing.TYPE_CHECKING:
    from pipeline.corpus.stages import CorpusContext

ROOT = Path(__file__).resolve().parent.parent
SOURCES = ROOT / "sources"
# The first line of a child Python that a test stops with Ctrl-C (SIGINT): as in a terminal, SIGINT raises
# KeyboardInterrupt, even where the tests run in the background of a shell without job control, whose
# children start with SIGINT ignored (and Python then installs no handler for it).
CTRL_C_AS_IN_A_TERMINAL = "import signal; signal.signal(signal.SIGINT, signal.default_int_handler)\n"
# The real sources, by what they hold (see sources/sources.toml).
WIKI_54 = "000_8d35bcdf16b9ca3e.txt"  # wiki export: articles 53, 41, 24, 50D and a remark on 54
WIKI_56 = "001_0c222c0b6955047f.txt"  # wiki export: 53 and 50D again
TEMPLATE_41 = "003_6f949f908cd1d87e.txt"  # 2007 template of article 41 with footnotes 1) 2) 3)
PRINT_44 = "004_971f733aa3ecb59f.txt"  # 2007 printed page 44: article 24
# axe-core, the accessibility rules the browser tests run: the npm package `make axe` installs (never a CDN).
AXE = ROOT / ".cache" / "axe" / "node_modules" / "axe-core" / "axe.min.js"
# The whole English book in one file: copyrighted, not part of the project (../shared/README.md).
ENGLISH_BOOK = ROOT.parent / "shared" / "english" / "laws2017-en.txt"


# The layers of the suite (`make test-fast` runs what none of these marks: unit and golden tests, under a
# minute on two cores). A test that drives Chromium is `browser` by its fixture; the rest by module, each
# for what most of its tests do, or by its own mark (a test that reads a real book in a module of unit tests):
#   pdf      compiles books with Typst
#   book     reads the real printed books in ../shared/ (skipped where they are absent)
#   browser  drives Chromium
#   slow     builds whole books, starts the command line, runs mypy or many generated cases
# Select with -m: `pytest -m browser`, `pytest -m "not slow"`.
LAYERS = {
    "test_pdf": ("pdf",),
    "test_pdf_parts": ("pdf",),
    "test_print_book": ("pdf",),
    "test_english_print": ("pdf", "book"),
    "test_english_extractors": ("book",),
    "test_english_book": ("book",),
    "test_align_english": ("book",),
    "test_english": ("book",),
    "test_english_outputs": ("book",),
    "test_pdf_source": ("book",),
    "test_pdf_adapter": ("book",),
    "test_screenshots": ("browser",),
    "test_watch_browser": ("browser", "slow"),
    "test_fuzz": ("slow",),
    "test_watch": ("slow",),
    "test_cli": ("slow",),
    "test_inputs_safety": ("slow",),
    "test_vanish": ("slow",),
    "test_corrections_safety": ("slow",),
    "test_cache": ("slow",),
    "test_align": ("slow",),
    "test_parsers": ("slow",),
    "test_types": ("slow",),
    "test_atomic": ("slow",),
    "test_reference": ("slow",),
    "test_outdir": ("slow",),
    "test_file_names": ("slow",),
    "test_errors": ("slow",),
    "test_keyed_files": ("slow",),
    "test_incremental_outputs": ("slow",),
    "test_pdf_source_layouts": ("slow",),
    "test_pdf_source_untrusted": ("slow",),
    "test_pdf_source_evidence": ("slow",),
    "test_serve": ("slow",),
    "test_outdir_safety": ("slow",),
    "test_commentary_safety": ("slow",),
    "test_side_by_side": ("slow",),
    "test_source_files": ("slow",),
}


def pytest_collection_modifyitems(config, items):
    """Each test marked with its layers (LAYERS, and `browser` for a test that uses the browser fixture)."""
    for item in items:
        module = Path(str(item.fspath)).stem
        for name in LAYERS.get(module, ()):
            item.add_marker(name)
        if "browser" in getattr(item, "fixturenames", ()):
            item.add_marker("browser")


def pytest_configure(config):
    """The cache of readings goes to $XDG_CACHE_HOME/lawbook (pipeline/publish/cache.py: default_folder):
    the tests never write into the user's own ~/.cache. One folder for the session, for the fixtures
    that build once per module; each test gets its own (own_cache)."""
    import tempfile

    config.lawbook_cache = tempfile.mkdtemp(prefix="lawbook-test-cache-")
    os.environ["XDG_CACHE_HOME"] = config.lawbook_cache


def pytest_unconfigure(config):
    made = getattr(config, "lawbook_cache", None)  # only the folder pytest_configure made
    if made:
        shutil.rmtree(made, ignore_errors=True)


@pytest.fixture(autouse=True)
def own_cache(tmp_path_factory, monkeypatch):
    """A fresh, empty cache of readings per test (outside tmp_path, which tests list): a test that
    counts what the cache held sees only what it built itself."""
    folder = tmp_path_factory.mktemp("xdg-cache")
    monkeypatch.setenv("XDG_CACHE_HOME", str(folder))
    return folder / "lawbook"


@pytest.fixture
def sources_copy(tmp_path):
    """A copy of sources/ (manifest and the five files) at tmp_path/sources."""
    folder = tmp_path / "sources"
    shutil.copytree(SOURCES, folder)
    return folder


def add_source(folder, name, content, edition="2017", **keys):
    """Write `content` (str as UTF-8, or bytes as they are) to folder/name and list it in the manifest."""
    path = Path(folder) / name
    path.write_bytes(content.encode("utf-8") if isinstance(content, str) else content)
    extra = "".join(f'{key} = "{value}"\n' for key, value in keys.items())
    with open(Path(folder) / "sources.toml", "a", encoding="utf-8") as manifest:
        manifest.write(f'\n[[source]]\nfile = "{name}"\nedition = "{edition}"\n{extra}')
    return path


def run_lawbook(*args, cwd=None, timeout=300):
    """Run `python -m pipeline ARGS` in a fresh process; returns the CompletedProcess (text)."""
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    return subprocess.run([sys.executable, "-m", "pipeline", *map(str, args)], cwd=cwd or ROOT, env=env,
                          capture_output=True, text=True, timeout=timeout)


def validate_json_reference(data) -> list[str]:
    """Every error of corpus.json data by the reference validator, jsonschema (a test dependency: the build
    validates with the schema compiled by fastjsonschema, serialise.validate_json)."""
    import jsonschema

    from pipeline.outputs import serialise

    validator = jsonschema.Draft7Validator(serialise.json_schema())
    return [f"{'/'.join(map(str, e.absolute_path))}: {e.message}" for e in validator.iter_errors(data)]


def assert_validates(corpus=None, data=None) -> None:
    """The corpus valid against schema/corpus.rng, and its JSON against the JSON Schema by both validators."""
    from pipeline.outputs import serialise

    errors = (serialise.validate_xml(corpus) if corpus is not None else [])
    if data is not None:
        errors += serialise.validate_json(data) + validate_json_reference(data)
    assert not errors, "\n".join(errors)


def snapshot(folder):
    """Every file below `folder` with its bytes: to compare a build folder before and after."""
    folder = Path(folder)
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


@pytest.fixture(scope="module")
def browser():
    """Debian's Chromium through Playwright, one per test module that asks for it (the browser tests; each
    skips itself where Playwright or Chromium is missing)."""
    playwright_api = pytest.importorskip("playwright.sync_api")
    from pipeline.html_screenshots import launch

    with playwright_api.sync_playwright() as p:
        b = launch(p)
        yield b
        b.close()


def stay_on_this_machine(context, files: bool = True) -> list[str]:
    """Route every request of a browser context: one to 127.0.0.1 (or a file://, unless files=False) goes on,
    any other is aborted and listed in the list returned, which the test asserts empty at its end (no page of
    the site may reach the network)."""
    from urllib.parse import urlparse

    leaving: list[str] = []

    def guard(route) -> None:
        url = urlparse(route.request.url)
        if (files and url.scheme == "file") or url.hostname == "127.0.0.1":
            route.continue_()
        else:
            leaving.append(route.request.url)
            route.abort()
    context.route("**/*", guard)
    return leaving


# The sizes the browser tests open pages at: a phone's screen and a laptop's (html_screenshots.VIEWPORTS too).
SIZES = {"phone": {"width": 375, "height": 812}, "desktop": {"width": 1280, "height": 900}}


@pytest.fixture
def open_page(browser):
    """open_page(url, size) -> a page in a fresh context (fresh localStorage), of a named size ("phone",
    "desktop") or a width (at 800 px high), whose every request stays on this machine (asserted at the end)."""
    contexts, guarded = [], []

    def opened(url: str, size: "str | int" = "phone"):
        viewport = SIZES[size] if isinstance(size, str) else {"width": size, "height": 800}
        context = browser.new_context(viewport=viewport)
        guarded.append(stay_on_this_machine(context))
        contexts.append(context)
        page = context.new_page()
        page.goto(url)
        return page
    yield opened
    for context in contexts:
        context.close()
    leaving = [url for urls in guarded for url in urls]
    assert leaving == [], f"requests left the machine: {leaving}"


def english_book_sources(folder: Path) -> Path:
    """`folder` made a sources folder of the whole English book in one file, with its manifest; the test
    is skipped where the book is absent (it is not part of the project)."""
    if not ENGLISH_BOOK.is_file():
        pytest.skip(f"the English book is not at {ENGLISH_BOOK} (it is not part of the project)")
    (folder / "book.txt").write_bytes(ENGLISH_BOOK.read_bytes())
    (folder / "sources.toml").write_text('language = "en"\n[[source]]\nfile = "book.txt"\nedition = "2017"\n',
                                         encoding="utf-8")
    return folder


def serious_axe_violations(page) -> list[str]:
    """axe-core run on the page as it stands (AXE put into it): each serious or critical violation as its
    rule and up to three of the elements it found."""
    page.add_script_tag(path=str(AXE))
    return page.evaluate("""async () => (await axe.run(document, {resultTypes: ['violations']}))
        .violations.filter(v => v.impact === 'serious' || v.impact === 'critical')
        .map(v => v.id + ': ' + v.nodes.slice(0, 3).map(n => n.target.join(' ')).join(', '))""")


def _shared_corpus(options: dict[str, object]):
    """The corpus of sources/ built once per test session (per worker process), its tree's bytes checked again
    when the session ends: a test that reads it must never change it."""
    from pipeline.publish import run

    ctx = run.make_corpus(SOURCES, options)
    digest = _tree_digest(ctx)
    yield ctx
    assert _tree_digest(ctx) == digest, \
        "a test changed the shared corpus of sources/: copy it (copy.deepcopy) before changing it"


def _tree_digest(ctx: "CorpusContext") -> str:
    """The sha256 of a shared corpus's tree: what the session fixtures check unchanged at the session's end."""
    import hashlib

    from lxml import etree

    return hashlib.sha256(etree.tostring(ctx.corpus)).hexdigest()


@pytest.fixture(scope="session")
def five_sources():
    """The corpus of the five sources with the committee's corrections (read only; see _shared_corpus)."""
    yield from _shared_corpus({})


@pytest.fixture(scope="session")
def five_sources_as_read():
    """The corpus of the five sources as they say it, without corrections.toml (read only; see _shared_corpus)."""
    yield from _shared_corpus({"no_corrections": True})


class GeneratedBook(typing.NamedTuple):
    """The generated book the tests share: its sources folder, what the generator says it wrote, and its
    corpus as the build makes it."""
    sources: Path
    counts: dict[str, dict[str, int]]
    ctx: "CorpusContext"


@pytest.fixture(scope="session")
def generated_book(tmp_path_factory) -> typing.Iterator[GeneratedBook]:
    """The generated book of 12 articles in two editions (seed 3) and its corpus, made once per test session
    (per worker process). Read only: its files' bytes and the corpus tree are checked again when the session
    ends, so a test that changes them copies them first (shutil.copytree, copy.deepcopy)."""
    import hashlib

    from pipeline.bench import generate
    from pipeline.publish import run

    folder = tmp_path_factory.mktemp("generated") / "src"
    counts = generate.generate(folder, articles=12, editions=2, seed=3)
    ctx = run.make_corpus(folder, {"cache_dir": str(folder.parent / "cache")})

    def digest() -> str:
        files = hashlib.sha256()
        for path in sorted(folder.rglob("*")):
            files.update(path.name.encode() + (path.read_bytes() if path.is_file() else b""))
        return files.hexdigest() + _tree_digest(ctx)

    before = digest()
    yield GeneratedBook(folder, counts, ctx)
    assert digest() == before, "a test changed the shared generated book: copy it before changing it"


@pytest.fixture(scope="module")
def dutch_site(tmp_path_factory) -> Path:
    """build/html from the real sources, as the browser tests read it: pages, Markdown beside them, the
    search index; no PDF (a build with --no-pdf), so the home page links none."""
    from pipeline.outputs import html, markdown
    from pipeline.outputs.job import Job
    from pipeline.publish import run

    job = Job.of(run.make_corpus(SOURCES, {"no_pdf": True}), tmp_path_factory.mktemp("build"))
    markdown.write_markdown(job)
    html.write_html(job)
    html.write_search_index(job)
    return job.tmp / "html"
